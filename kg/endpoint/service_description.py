"""SPARQL 1.1 Service Description: language, result formats, and the dataset the caller sees."""

from __future__ import annotations

import pyoxigraph
from pyoxigraph import NamedNode, RdfFormat, Triple

from kg.endpoint.access import Grant
from kg.namespaces import RDF

SD = "http://www.w3.org/ns/sparql-service-description#"
FORMATS = "http://www.w3.org/ns/formats/"
RESULT_FORMATS = [
    "SPARQL_Results_JSON",
    "SPARQL_Results_XML",
    "SPARQL_Results_CSV",
    "SPARQL_Results_TSV",
    "Turtle",
    "N-Triples",
]
MEDIA = {
    "application/n-triples": RdfFormat.N_TRIPLES,
    "application/rdf+xml": RdfFormat.RDF_XML,
    "text/turtle": RdfFormat.TURTLE,
}


def service_description(endpoint: str, grant: Grant) -> list[Triple]:
    service = NamedNode(endpoint)
    sd = lambda local: NamedNode(SD + local)  # noqa: E731 - a local shorthand
    triples = [
        Triple(service, NamedNode(RDF + "type"), sd("Service")),
        Triple(service, sd("endpoint"), service),
        Triple(service, sd("supportedLanguage"), sd("SPARQL11Query")),
        Triple(service, sd("feature"), sd("UnionDefaultGraph")),
    ]
    triples += [Triple(service, sd("resultFormat"), NamedNode(FORMATS + f)) for f in RESULT_FORMATS]
    if grant.graphs is not None:
        dataset = NamedNode(endpoint + "#dataset")
        triples += [
            Triple(service, sd("defaultDataset"), dataset),
            Triple(dataset, NamedNode(RDF + "type"), sd("Dataset")),
        ]
        for i, graph in enumerate(sorted(grant.graphs)):
            named = NamedNode(f"{endpoint}#graph{i}")
            triples += [Triple(dataset, sd("namedGraph"), named), Triple(named, sd("name"), NamedNode(graph))]
    return triples


def described(endpoint: str, grant: Grant, accept: str) -> tuple[str, bytes]:
    """(media type, body) of the description in the format the Accept header names, Turtle by default."""
    media = next((m for m in MEDIA if m in accept), "text/turtle")
    body = pyoxigraph.serialize(service_description(endpoint, grant), format=MEDIA[media])
    assert body is not None  # given no output, serialize returns the bytes
    return media, body
