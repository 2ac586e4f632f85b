"""A validation report as W3C SHACL (`sh:ValidationReport` in Turtle), so other SHACL tools read what
`kg validate` found: `kg validate --format turtle`.

Rows keep a value as text; whether it was an IRI or a literal is read back from the data (an IRI value of a
result is an object of the focus node's path in its graph, or the focus node itself), since a value that
looks like a URL may well be a plain string (`ekg:url "https://…"` is one of the defects the shapes catch).
"""

from __future__ import annotations

from pyoxigraph import NamedNode

from kg.ingest.validate import ValidationReport
from kg.namespaces import ORG_GRAPH, PREFIXES, product_graph
from kg.query.sparql import Backend

SH = "http://www.w3.org/ns/shacl#"
IRI_VALUE = "ASK { ?focus ?path ?value }"


def graph_iri(label: str) -> NamedNode:
    return NamedNode(ORG_GRAPH) if label == "org" else product_graph(label)


def is_iri_value(backend: Backend, graph: str, focus: str, path: str, value: str) -> bool:
    """Whether the result's value is an IRI: the focus itself, or an IRI object of its path in the graph."""
    if value == focus:
        return True
    if not path or not value.startswith(("http://", "https://", "urn:")):
        return False
    try:
        term = NamedNode(value)
    except ValueError:
        return False
    bindings = {"focus": NamedNode(focus), "path": NamedNode(path), "value": term}
    return backend.ask(IRI_VALUE, bindings, [graph_iri(graph)])


def report_turtle(report: ValidationReport, backend: Backend) -> str:
    """The report as Turtle: one sh:ValidationResult per row, with its focus node, path, value, message,
    severity, source shape and constraint component; the graph each was found in as an rdfs:comment."""
    from rdflib import RDF, RDFS, BNode, Graph, Literal, Namespace, URIRef

    sh = Namespace(SH)
    g = Graph()
    g.bind("sh", sh)
    for prefix, iri in PREFIXES.items():
        g.bind(prefix, iri)
    root = BNode()
    g.add((root, RDF.type, sh.ValidationReport))
    g.add((root, sh.conforms, Literal(report.conforms)))
    for row in report.rows:
        result = BNode()
        g.add((root, sh.result, result))
        g.add((result, RDF.type, sh.ValidationResult))
        g.add((result, sh.focusNode, URIRef(row.focus)))
        if row.path:
            g.add((result, sh.resultPath, URIRef(row.path)))
        if row.value:
            named = is_iri_value(backend, row.graph, row.focus, row.path, row.value)
            g.add((result, sh.value, URIRef(row.value) if named else Literal(row.value)))
        g.add((result, sh.resultMessage, Literal(row.message)))
        g.add((result, sh.resultSeverity, sh[row.severity]))
        if row.shape:
            g.add((result, sh.sourceShape, URIRef(row.shape)))
        if row.component:
            g.add((result, sh.sourceConstraintComponent, sh[row.component]))
        g.add((result, RDFS.comment, Literal(f"in graph {row.graph}")))
    return g.serialize(format="turtle")
