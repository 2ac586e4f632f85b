"""`kg validate`: check a built store against the SHACL shapes in `ontology/shapes.ttl` with pyshacl.

Each product graph is validated together with the organisation graph (its messages are attributed to
employees typed there), but only results about nodes the product graph itself types are reported for it;
the organisation graph is validated on its own once. The ontology is passed as pyshacl's ontology graph, so
`sh:targetClass ekg:Artifact` reaches documents and `sh:class prov:Agent` accepts employees.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pyoxigraph import NamedNode, RdfFormat, Store
from pyshacl import validate as shacl_validate
from rdflib import RDF, SH, Graph, URIRef

from kg.errors import KGError
from kg.namespaces import ORG_GRAPH, product_graph, product_of_graph
from kg.sparql import named_query
from kg.store import open_read_only

ONTOLOGY_DIR = Path(__file__).resolve().parent.parent / "ontology"
SHAPES_FILE = ONTOLOGY_DIR / "shapes.ttl"
ONTOLOGY_FILE = ONTOLOGY_DIR / "ekg.ttl"
ORG = "org"


@dataclass(frozen=True)
class ResultRow:
    """One SHACL result: which graph, which node, which property, what is wrong."""

    graph: str
    focus: str
    path: str
    value: str
    message: str
    severity: str


@dataclass
class ValidationReport:
    conforms: bool = True
    violations: int = 0
    graphs: list[str] = field(default_factory=list)
    rows: list[ResultRow] = field(default_factory=list)

    def add(self, graph: str, rows: list[ResultRow]) -> None:
        self.graphs.append(graph)
        self.rows.extend(rows)
        self.violations += sum(r.severity == "Violation" for r in rows)
        self.conforms = self.violations == 0


@cache
def shapes_graph() -> Graph:
    return _parse_file(SHAPES_FILE)


@cache
def ontology_graph() -> Graph:
    return _parse_file(ONTOLOGY_FILE)


def _parse_file(path: Path) -> Graph:
    try:
        return Graph().parse(path, format="turtle")
    except (OSError, SyntaxError, ValueError) as exc:
        raise KGError(f"{path}: cannot read ({exc})") from exc


def graph_names(store: Store) -> list[str]:
    """Products with a named graph in the store, sorted."""
    return sorted(p for g in store.named_graphs() if (p := product_of_graph(g.value)))


def rdflib_graph(store: Store, *graphs: NamedNode) -> Graph:
    """The union of the given named graphs, copied into rdflib (pyshacl's data model)."""
    out = Graph()
    for graph in graphs:
        out.parse(data=store.dump(format=RdfFormat.N_TRIPLES, from_graph=graph), format="nt")
    return out


def typed_in(store: Store, graph: NamedNode) -> set[str]:
    """Nodes that have an rdf:type in `graph`: the focus nodes that graph answers for."""
    query = named_query("validate_focus_nodes").text
    return {row[0].value for row in store.query(query, default_graph=graph)}


def result_rows(graph_name: str, results: Graph, keep: set[str] | None = None) -> list[ResultRow]:
    """pyshacl's results graph as rows, keeping only results on nodes in `keep` (all when None)."""
    rows = []
    for result in results.subjects(RDF.type, SH.ValidationResult):
        focus = str(results.value(result, SH.focusNode))
        if keep is not None and focus not in keep:
            continue
        severity = results.value(result, SH.resultSeverity)
        rows.append(ResultRow(
            graph=graph_name,
            focus=focus,
            path=str(results.value(result, SH.resultPath) or ""),
            value=str(results.value(result, SH.value) or ""),
            message=str(results.value(result, SH.resultMessage) or ""),
            severity=str(severity).rsplit("#", 1)[-1] if isinstance(severity, URIRef) else "Violation",
        ))
    return sorted(rows, key=lambda r: (r.graph, r.message, r.focus, r.value))


def shacl_results(data: Graph) -> Graph:
    _conforms, results, _text = shacl_validate(
        data, shacl_graph=shapes_graph(), ont_graph=ontology_graph(), inference="none",
        allow_warnings=True, advanced=False, meta_shacl=False,
    )
    return results


def validate_product(store: Store, product: str) -> list[ResultRow]:
    """SHACL results on one product graph, read with the organisation graph as context."""
    graph = product_graph(product)
    data = rdflib_graph(store, graph, NamedNode(ORG_GRAPH))
    return result_rows(product, shacl_results(data), keep=typed_in(store, graph))


def validate_org(store: Store) -> list[ResultRow]:
    return result_rows(ORG, shacl_results(rdflib_graph(store, NamedNode(ORG_GRAPH))))


def validate(store_path: Path, product: str | None = None,
             progress: Callable[[list[str]], Iterable[str]] | None = None) -> ValidationReport:
    """Validate one product's graph, or (product None) the organisation graph and every product graph."""
    store = open_read_only(store_path)
    products = graph_names(store)
    if product is not None and product not in products:
        known = ", ".join(products) or "none"
        raise KGError(f"no graph for product {product!r} in {store_path} (products in the store: {known})")
    report = ValidationReport()
    if product is None:
        if store.contains_named_graph(NamedNode(ORG_GRAPH)):
            report.add(ORG, validate_org(store))
        for name in progress(products) if progress else products:
            report.add(name, validate_product(store, name))
    else:
        report.add(product, validate_product(store, product))
    return report
