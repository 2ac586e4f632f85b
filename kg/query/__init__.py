"""Query: the SPARQL library (`sparql/*.rq`) and the backends that run it, embedded or over the Protocol."""
