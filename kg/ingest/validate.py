"""`kg validate`: check a built store against the SHACL shapes in `ontology/shapes.ttl`.

Each product graph is validated together with the organisation graph (its messages are attributed to
employees typed there) and the ontology (so `sh:targetClass ekg:Artifact` reaches documents and
`sh:class prov:Agent` accepts employees), but only results about nodes the product graph itself types are
reported for it; the organisation graph is validated on its own once.

Two engines give the same rows (`bench/bench_validate.py` and tests/test_validate_engines.py compare them):
- `sparql` (default): the shapes compiled to SPARQL and run where the data is (kg/ingest/shacl.py): by Oxigraph on
  the store in place, or by any SPARQL 1.1 endpoint (`kg validate --endpoint URL`);
- `pyshacl`: the reference, on each graph copied into rdflib from the local store; ten times slower, most of it
  spent decoding the store's terms for rdflib.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from pyoxigraph import NamedNode, RdfFormat, Store

from kg.errors import KGError
from kg.ingest.shacl import ShapesProgram
from kg.namespaces import ORG_GRAPH, product_graph, product_of_graph
from kg.paths import resource
from kg.query.sparql import Backend, EmbeddedStore, named_query, solutions

if TYPE_CHECKING:  # rdflib and pyshacl load only when the pyshacl engine runs
    from rdflib import Graph
    from rdflib.term import Node

ONTOLOGY_DIR = resource("ontology")
SHAPES_FILE = ONTOLOGY_DIR / "shapes.ttl"
ONTOLOGY_FILE = ONTOLOGY_DIR / "ekg.ttl"
ORG = "org"
ENGINES = ("sparql", "pyshacl")
#: Called once per step of a run (a shape for `sparql`, a graph for `pyshacl`), so a terminal can show progress.
Progress = Callable[[str, int], None]


@dataclass(frozen=True)
class ResultRow:
    """One SHACL result: which graph, which node, which property, what is wrong, and which shape said so."""

    graph: str
    focus: str
    path: str
    value: str
    message: str
    severity: str
    #: The named node shape that holds the constraint, and its SHACL constraint component (local name).
    shape: str = ""
    component: str = ""


@dataclass
class ValidationReport:
    conforms: bool = True
    violations: int = 0
    graphs: list[str] = field(default_factory=list)
    rows: list[ResultRow] = field(default_factory=list)

    def add(self, graph: str, rows: list[ResultRow]) -> None:
        self.graphs.append(graph)
        self.rows.extend(sorted(rows, key=row_order))
        self.violations += sum(r.severity == "Violation" for r in rows)
        self.conforms = self.violations == 0


def row_order(r: ResultRow) -> tuple[str, ...]:
    return (r.graph, r.message, r.focus, r.value, r.path, r.shape, r.component)


def named_graphs(backend: Backend) -> list[str]:
    """Every named graph of the data (`named_graphs.rq`), sorted."""
    return [row["graph"].value for row in backend.select(named_query("named_graphs").text)]


def graph_names(graphs: list[str]) -> list[str]:
    """The products among named graphs, sorted."""
    return sorted(p for g in graphs if (p := product_of_graph(g)))


def graph_label(iri: str) -> str:
    return ORG if iri == ORG_GRAPH else product_of_graph(iri) or iri


# --- the sparql engine --------------------------------------------------------------------------------------


@cache
def shapes_program() -> ShapesProgram:
    return ShapesProgram.from_files(SHAPES_FILE, ONTOLOGY_FILE)


def sparql_rows(backend: Backend, graphs: list[str], progress: Progress) -> dict[str, list[ResultRow]]:
    """Every graph's rows from the compiled shapes, one pass over the shapes for all graphs together."""
    program = shapes_program()
    steps = iter(range(1, len(program.shapes) + 1))
    found = program.violations(backend, graphs, ORG_GRAPH, lambda shape: progress(shape, next(steps)))
    return {
        g: [
            ResultRow(graph_label(g), v.focus, v.path, v.value, v.message, "Violation", v.shape, v.component)
            for v in rows
        ]
        for g, rows in found.items()
    }


def sparql_steps() -> int:
    return len(shapes_program().shapes)


# --- the pyshacl engine (reference) -------------------------------------------------------------------------


@cache
def shapes_graph() -> Graph:
    return _parse_file(SHAPES_FILE)


@cache
def ontology_graph() -> Graph:
    return _parse_file(ONTOLOGY_FILE)


def _parse_file(path: Path) -> Graph:
    from rdflib import Graph

    try:
        return Graph().parse(path, format="turtle")
    except (OSError, SyntaxError, ValueError) as exc:
        raise KGError(f"{path}: cannot read ({exc})") from exc


def rdflib_graph(store: Store, *graphs: NamedNode) -> Graph:
    """The union of the given named graphs, copied into rdflib (pyshacl's data model)."""
    from rdflib import Graph

    out = Graph()
    for graph in graphs:
        out.parse(data=store.dump(format=RdfFormat.N_TRIPLES, from_graph=graph), format="nt")
    return out


def typed_in(store: Store, graph: NamedNode) -> set[str]:
    """Nodes that have an rdf:type in `graph`: the focus nodes that graph answers for."""
    query = named_query("validate_focus_nodes").text
    return {row[0].value for row in solutions(store.query(query, default_graph=graph))}


def node_shape_of(shape: Node | None) -> str:
    """The named node shape a (blank) property shape belongs to, or the shape itself."""
    from rdflib import SH

    parent = shapes_graph().value(predicate=SH.property, object=shape)
    return str(parent if parent is not None else shape)


def result_rows(graph_name: str, results: Graph, keep: set[str] | None = None) -> list[ResultRow]:
    """pyshacl's results graph as rows, keeping only results on nodes in `keep` (all when None)."""
    from rdflib import RDF, SH, URIRef

    rows = []
    for result in results.subjects(RDF.type, SH.ValidationResult):
        focus = str(results.value(result, SH.focusNode))
        if keep is not None and focus not in keep:
            continue
        severity = results.value(result, SH.resultSeverity)
        rows.append(
            ResultRow(
                graph=graph_name,
                focus=focus,
                path=str(results.value(result, SH.resultPath) or ""),
                value=str(results.value(result, SH.value) or ""),
                message=str(results.value(result, SH.resultMessage) or ""),
                severity=str(severity).rsplit("#", 1)[-1] if isinstance(severity, URIRef) else "Violation",
                shape=node_shape_of(results.value(result, SH.sourceShape)),
                component=str(results.value(result, SH.sourceConstraintComponent) or "").rsplit("#", 1)[-1],
            )
        )
    return sorted(rows, key=row_order)


def shacl_results(data: Graph) -> Graph:
    from pyshacl import validate as shacl_validate

    _conforms, results, _text = shacl_validate(
        data,
        shacl_graph=shapes_graph(),
        ont_graph=ontology_graph(),
        inference="none",
        allow_warnings=True,
        advanced=False,
        meta_shacl=False,
    )
    return results


def pyshacl_rows(backend: EmbeddedStore, graphs: list[str], progress: Progress) -> dict[str, list[ResultRow]]:
    """Each graph copied into rdflib with the organisation graph, validated by pyshacl."""
    store, out = backend.store, {}
    for step, iri in enumerate(graphs, 1):
        progress(graph_label(iri), step)
        graph = NamedNode(iri)
        if iri == ORG_GRAPH:
            out[iri] = result_rows(ORG, shacl_results(rdflib_graph(store, graph)))
        else:
            data = rdflib_graph(store, graph, NamedNode(ORG_GRAPH))
            out[iri] = result_rows(graph_label(iri), shacl_results(data), keep=typed_in(store, graph))
    return out


# --- both ---------------------------------------------------------------------------------------------------


def validate(
    data: Path | Backend,
    product: str | None = None,
    engine: str = "sparql",
    progress: Callable[[int], Progress] | None = None,
) -> ValidationReport:
    """Validate one product's graph, or (product None) the organisation graph and every product graph.

    `data` is a store path or any backend (`kg.query.backend.open_backend`); the pyshacl engine needs the local
    store, as it copies the graphs into rdflib. `progress`, given the number of steps, returns the callback each
    step reports to (`kg validate` draws a bar on a terminal).
    """
    if engine not in ENGINES:
        raise KGError(f"unknown validation engine {engine!r}; choose one of {', '.join(ENGINES)}")
    backend = EmbeddedStore(data) if isinstance(data, Path) else data
    if engine == "pyshacl" and not isinstance(backend, EmbeddedStore):
        raise KGError(
            "--engine pyshacl copies the graphs into rdflib from the local store: use --store, not --endpoint"
        )
    every = named_graphs(backend)
    products = graph_names(every)
    if product is not None and product not in products:
        known = ", ".join(products) or "none"
        raise KGError(f"no graph for product {product!r} in {backend.location} (products in the store: {known})")
    names = [product] if product is not None else products
    graphs = [product_graph(p).value for p in names]
    if product is None and ORG_GRAPH in every:
        graphs.insert(0, ORG_GRAPH)
    steps = sparql_steps() if engine == "sparql" else len(graphs)
    report_to = progress(steps) if progress else (lambda _name, _step: None)
    if engine == "pyshacl" and isinstance(backend, EmbeddedStore):  # any other backend was refused above
        rows = pyshacl_rows(backend, graphs, report_to)
    else:
        rows = sparql_rows(backend, graphs, report_to)
    report = ValidationReport()
    for iri in graphs:
        report.add(graph_label(iri), rows[iri])
    return report
