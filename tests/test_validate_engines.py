"""The SPARQL-compiled shapes (the default engine) and pyshacl (the reference) report the same rows, on the
fixture broken in ways that exercise every constraint component shapes.ttl uses, each written to a real
on-disk Oxigraph store."""

from __future__ import annotations

import gc
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from pyoxigraph import RdfFormat, Store
from rdflib import RDF, RDFS, Dataset, Graph, Literal, URIRef
from test_shapes import (
    BROKEN,
    BUG,
    DOC,
    EKG,
    EMPLOYEE,
    ID,
    MSG,
    PR,
    SAMPLE,
    SUGGESTION,
    add,
    drop,
    ekg,
    put,
)

from kg.ingest.shacl import node_shapes
from kg.ingest.validate import SHAPES_FILE, ResultRow, validate

XSD = "http://www.w3.org/2001/XMLSchema#"
INSIGHT = URIRef(ID + "competitor-insight/Demo/1")
COMPETITOR = URIRef(ID + "competitor/Demo/Rival")

#: Defects beyond test_shapes' list, for the components and value kinds it leaves out.
EXTRA: list[tuple[str, URIRef, Callable[[Graph], None]]] = [
    ("message in two channels", MSG, add(MSG, EKG + "inChannel", URIRef(ID + "channel/other"))),
    ("pr number not an integer", PR, put(PR, EKG + "prNumber", Literal("seven", datatype=URIRef(XSD + "integer")))),
    ("merged a string", PR, put(PR, EKG + "merged", Literal("true"))),
    ("text in a language", SUGGESTION, put(SUGGESTION, EKG + "text", Literal("ok", lang="en"))),
    ("text an IRI", SUGGESTION, put(SUGGESTION, EKG + "text", URIRef("https://example.org/x"))),
    ("url a plain string", DOC, put(DOC, EKG + "url", Literal("https://example.org/doc"))),
    ("document kind a bug state", DOC, put(DOC, EKG + "documentKind", ekg("Open"))),
    ("bug state a literal", BUG, put(BUG, EKG + "bugState", Literal("Open"))),
    ("insight with neither strength nor weakness", INSIGHT, drop(INSIGHT, EKG + "weakness")),
    ("competitor strength a number", COMPETITOR, add(COMPETITOR, EKG + "strength", Literal(3))),
    ("employee with two managers", EMPLOYEE, add(EMPLOYEE, EKG + "reportsTo", URIRef(ID + "person/eid_00000003"))),
]
CASES = [(b[0], b[2], b[1]) for b in BROKEN] + EXTRA


def write_store(path: Path, node: URIRef | None = None, mutate: Callable[[Graph], None] | None = None) -> Path:
    """The fixture, with `mutate` applied to the graph that types `node`."""
    dataset = Dataset()
    dataset.parse(SAMPLE, format="trig")
    if mutate is not None:
        mutate(next(g for g in dataset.graphs() if (node, RDF.type, None) in g))
    store = Store(str(path))
    store.load(dataset.serialize(format="nquads").encode(), format=RdfFormat.N_QUADS)
    store.flush()
    del store
    gc.collect()
    return path


def rows(store: Path, engine: str) -> list[ResultRow]:
    return validate(store, engine=engine).rows


def test_conforming_fixture_is_clean_for_both(tmp_path: Path) -> None:
    store = write_store(tmp_path / "good")
    assert rows(store, "sparql") == rows(store, "pyshacl") == []


@pytest.fixture(scope="module")
def case_store(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int], Path]:
    """The store of each defect (CASES[i]), written once for the tests that read it."""
    folder = tmp_path_factory.mktemp("cases")

    @cache
    def written(i: int) -> Path:
        _, node, mutate = CASES[i]
        return write_store(folder / str(i), node, mutate)

    return written


@cache
def sparql_rows(store: Path) -> list[ResultRow]:
    """The default engine's rows of a store that is never written again (a defect's)."""
    return rows(store, "sparql")


@pytest.mark.parametrize("case", range(len(CASES)), ids=[c[0] for c in CASES])
def test_engines_report_the_same_rows(case_store: Callable[[int], Path], case: int) -> None:
    store = case_store(case)
    sparql, reference = sparql_rows(store), rows(store, "pyshacl")
    assert reference, "the defect should break a shape"
    assert sparql == reference


@pytest.mark.slow
def test_the_defects_cover_every_component_the_shapes_use(case_store: Callable[[int], Path]) -> None:
    """The components the defects break (their stores and rows shared with the test above)."""
    used = {c.component + "ConstraintComponent" for s in node_shapes(SHAPES_FILE) for c in s.constraints}
    used |= {"OrConstraintComponent" for s in node_shapes(SHAPES_FILE) if s.alternatives}
    seen = set()
    for i in range(len(CASES)):
        seen |= {r.component for r in sparql_rows(case_store(i))}
    assert used <= seen, used - seen


def test_one_product_alone_gives_that_products_rows(tmp_path: Path) -> None:
    store = write_store(tmp_path / "bad", MSG, drop(MSG, EKG + "inChannel"))
    alone = validate(store, "Demo").rows
    assert alone == validate(store, "Demo", engine="pyshacl").rows
    assert [(r.graph, r.focus, r.component) for r in alone] == [("Demo", str(MSG), "MinCountConstraintComponent")]


@pytest.mark.parametrize(
    "case", ["url a plain string", "document kind a bug state", "employee with two managers", "message in two channels"]
)
def test_turtle_report_is_a_shacl_report_pyshacl_reads_back(tmp_path: Path, case: str) -> None:
    """`kg validate --format turtle` writes a W3C sh:ValidationReport: pyshacl's own report comparison (the one
    its conformance suite uses) finds it equal to the report pyshacl makes of the same data, IRI and literal
    values told apart. Set aside for the comparison: the source shape (ours names the node shape that holds
    the constraint, pyshacl gives the blank property shape itself) and our note of the graph."""
    import logging

    from pyshacl.validator_conformance import compare_validation_reports
    from rdflib import SH

    from kg.ingest.report import report_turtle
    from kg.ingest.validate import rdflib_graph, shacl_results
    from kg.query.sparql import EmbeddedStore

    _, node, mutate = next(c for c in CASES if c[0] == case)
    store = EmbeddedStore(write_store(tmp_path / "bad", node, mutate))
    report = validate(store)
    ours = Graph().parse(data=report_turtle(report, store), format="turtle")
    assert set(ours.objects(None, SH.sourceShape)) == {URIRef(r.shape) for r in report.rows}
    assert {str(c) for c in ours.objects(None, RDFS.comment)} == {f"in graph {r.graph}" for r in report.rows}
    expected = shacl_results(rdflib_graph(store.store, *(g for g in store.store.named_graphs())))
    for graph, noted in ((ours, RDFS.comment), (ours, SH.sourceShape), (expected, SH.sourceShape)):
        graph.remove((None, noted, None))
    root = next(expected.subjects(RDF.type, SH.ValidationReport))
    assert report.rows and compare_validation_reports(ours, expected, root, logging.getLogger("pyshacl-compare"))
    kinds = {type(v) for v in ours.objects(None, SH.value)}
    assert kinds == {URIRef if case != "url a plain string" else Literal}
