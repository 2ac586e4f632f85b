"""`kg validate` on real on-disk Oxigraph stores written from the fixture: per-graph reporting, exit codes."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest
from pyoxigraph import NamedNode, Quad, RdfFormat, Store

from kg.cli import main
from kg.errors import KGError
from kg.ingest.validate import validate

SAMPLE = Path(__file__).resolve().parent / "fixtures" / "ekg_sample.trig"
ID = "https://w3id.org/ekg/id/"
GRAPH = "https://w3id.org/ekg/graph/"
FOAF_NAME = NamedNode("http://xmlns.com/foaf/0.1/name")
IN_CHANNEL = NamedNode("https://w3id.org/ekg/ont#inChannel")
MSG = NamedNode(ID + "artifact/20260101-0-aaaaa")
EMPLOYEE = NamedNode(ID + "person/eid_00000002")


def write_store(path: Path, *remove: tuple[NamedNode, NamedNode, str]) -> Path:
    """The fixture loaded into an on-disk store, minus the (subject, predicate, graph) statements given."""
    store = Store(str(path))
    store.load(path=str(SAMPLE), format=RdfFormat.TRIG)
    for subject, predicate, graph in remove:
        for quad in list(store.quads_for_pattern(subject, predicate, None, NamedNode(GRAPH + graph))):
            store.remove(Quad(quad.subject, quad.predicate, quad.object, quad.graph_name))
    store.flush()
    del store
    gc.collect()
    return path


@pytest.fixture
def good(tmp_path: Path) -> Path:
    return write_store(tmp_path / "good")


@pytest.fixture
def bad(tmp_path: Path) -> Path:
    """A product-graph defect (message without channel) and an org-graph defect (employee without name)."""
    return write_store(tmp_path / "bad", (MSG, IN_CHANNEL, "Demo"), (EMPLOYEE, FOAF_NAME, "org"))


def test_conforming_store(good: Path) -> None:
    report = validate(good)
    assert (report.conforms, report.violations, report.rows) == (True, 0, [])
    assert report.graphs == ["org", "Demo"]


def test_each_defect_is_reported_once_under_its_own_graph(bad: Path) -> None:
    report = validate(bad)
    assert not report.conforms
    assert report.violations == 2
    assert sorted((r.graph, r.focus, r.path) for r in report.rows) == [
        ("Demo", MSG.value, IN_CHANNEL.value),
        ("org", EMPLOYEE.value, FOAF_NAME.value),
    ]


def test_one_product_reads_the_org_graph_but_reports_only_its_own_nodes(bad: Path) -> None:
    report = validate(bad, "Demo")
    assert report.graphs == ["Demo"]
    assert [(r.focus, r.severity) for r in report.rows] == [(MSG.value, "Violation")]


def test_unknown_product_and_missing_store_are_user_errors(good: Path, tmp_path: Path) -> None:
    with pytest.raises(KGError, match=r"no graph for product 'Nope'.*Demo"):
        validate(good, "Nope")
    with pytest.raises(KGError, match="kg build"):
        validate(tmp_path / "absent")


def test_cli_exit_codes_and_formats(good: Path, bad: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--store", str(good)]) == 0
    assert "2 graph(s) validated: conforms" in capsys.readouterr().out
    assert main(["validate", "--store", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "id:artifact/20260101-0-aaaaa" in out and "ekg:inChannel" in out and "2 violation(s)" in out
    assert main(["validate", "--store", str(bad), "--product", "Demo", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["conforms"], data["violations"], data["results"][0]["focus"]) == (False, 1, MSG.value)
    assert main(["validate", "--store", str(good), "--product", "Nope"]) == 2
    assert "no graph for product 'Nope'" in capsys.readouterr().err
