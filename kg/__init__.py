"""Enterprise knowledge graph toolkit: HERB -> OWL-typed graph in Oxigraph -> SPARQL answers."""

__version__ = "0.1.0"
