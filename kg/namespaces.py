"""The IRIs every stage agrees on: ontology terms, instance ids and named graphs."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import quote

from pyoxigraph import NamedNode

EKG = "https://w3id.org/ekg/ont#"
ID = "https://w3id.org/ekg/id/"
GRAPH = "https://w3id.org/ekg/graph/"
ORG_GRAPH = GRAPH + "org"

PROV = "http://www.w3.org/ns/prov#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
DCT = "http://purl.org/dc/terms/"
FOAF = "http://xmlns.com/foaf/0.1/"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
XSD = "http://www.w3.org/2001/XMLSchema#"
OWL = "http://www.w3.org/2002/07/owl#"

PREFIXES = {
    "ekg": EKG,
    "id": ID,
    "prov": PROV,
    "skos": SKOS,
    "dct": DCT,
    "foaf": FOAF,
    "rdf": RDF,
    "rdfs": RDFS,
    "xsd": XSD,
    "owl": OWL,
}

#: Prefixes IRIs are written back with for people (tables, pages): the SPARQL ones plus `graph:` for named graphs.
DISPLAY_PREFIXES = {**PREFIXES, "graph": GRAPH}


def expand(name: str) -> str:
    """`ekg:Bug` -> full IRI string; full IRIs pass through."""
    prefix, sep, local = name.partition(":")
    if sep and prefix in PREFIXES:
        return PREFIXES[prefix] + local
    return name


def term(name: str) -> NamedNode:
    return NamedNode(expand(name))


def curie(value: str) -> str:
    """`https://w3id.org/ekg/ont#Bug` -> `ekg:Bug`, the inverse of `expand`; other text is returned as it is."""
    for prefix, ns in sorted(DISPLAY_PREFIXES.items(), key=lambda kv: -len(kv[1])):
        if value.startswith(ns) and len(value) > len(ns):
            return f"{prefix}:{value[len(ns) :]}"
    return value


@lru_cache(maxsize=1 << 16)
def node(kind: str, key: str) -> NamedNode:
    """Instance IRI, e.g. node('person', 'eid_1') -> <https://w3id.org/ekg/id/person/eid_1>. Cached: a build
    names the same artifacts and people many times, and quoting is most of the cost."""
    return NamedNode(f"{ID}{kind}/{quote(key, safe='-_.~/')}")


def product_graph(product: str) -> NamedNode:
    return NamedNode(GRAPH + quote(product, safe="-_.~"))


def product_of_graph(graph_iri: str) -> str | None:
    if graph_iri.startswith(GRAPH) and graph_iri != ORG_GRAPH:
        return graph_iri[len(GRAPH) :]
    return None
