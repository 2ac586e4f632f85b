"""`kg build` on real HERB products: concrete facts, idempotency, per-product rebuild, crash safety."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pyoxigraph import Store

from kg.errors import KGError
from kg.ingest.build import build
from kg.namespaces import product_graph
from kg.query.sparql import EmbeddedStore, product_dataset

TWO = ["ActionGenie", "ProposalForce"]


@pytest.fixture(scope="module")
def two_products(herb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("two") / "store"
    build(herb, path, products=TWO, progress=False)
    return path


def count(path: Path, graph: str | None = None) -> int:
    store = Store.read_only(str(path))
    query = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"
    if graph:
        query = f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"
    return int(next(iter(store.query(query)))[0].value)


def select_one(path: Path, product: str, query: str) -> list[str]:
    rows = EmbeddedStore(path).select(query, graphs=product_dataset(product))
    return sorted(next(iter(r.values())).value for r in rows)


def test_each_product_gets_its_own_named_graph_plus_org(two_products: Path) -> None:
    graphs = {g.value for g in Store.read_only(str(two_products)).named_graphs()}
    assert {product_graph(p).value for p in TWO} | {"https://w3id.org/ekg/graph/org"} == graphs


def test_known_document_author(two_products: Path) -> None:
    authors = select_one(
        two_products,
        "ProposalForce",
        """
        SELECT ?a WHERE { ?d dct:identifier "osalaix_market_research_report" ; prov:wasAttributedTo ?a }""",
    )
    assert authors == ["https://w3id.org/ekg/id/person/eid_5af96a7d"]


def test_pr_count_in_a_known_repository_matches_the_source(herb: Path, two_products: Path) -> None:
    prs = json.loads((herb / "products" / "ProposalForce.json").read_text())["prs"]
    repo = "jitsi/jitsi-meet"
    expected = sum(1 for p in prs if f"github.com/{repo}/pull/" in p["link"])
    got = select_one(
        two_products,
        "ProposalForce",
        f"""
        SELECT (COUNT(DISTINCT ?pr) AS ?n) WHERE {{ ?pr ekg:inRepository ?r . ?r rdfs:label "{repo}" }}""",
    )
    assert expected > 0 and got == [str(expected)]


def test_every_artifact_is_cited_by_its_herb_id(herb: Path, two_products: Path) -> None:
    data = json.loads((herb / "products" / "ActionGenie.json").read_text())
    expected = sum(len(data[k]) for k in ("slack", "documents", "meeting_transcripts", "meeting_chats", "urls", "prs"))
    got = select_one(
        two_products,
        "ActionGenie",
        """
        SELECT (COUNT(DISTINCT ?id) AS ?n) WHERE { ?a ekg:aboutProduct ?p ; dct:identifier ?id }""",
    )
    assert got == [str(expected)]


def test_building_again_duplicates_nothing(herb: Path, tmp_path: Path) -> None:
    path = tmp_path / "store"
    build(herb, path, products=["ActionGenie"], progress=False)
    first = count(path)
    build(herb, path, products=["ActionGenie"], progress=False)
    assert count(path) == first


def test_product_rebuild_keeps_the_other_graphs(herb: Path, tmp_path: Path) -> None:
    path = tmp_path / "store"
    build(herb, path, products=TWO, progress=False)
    before = {p: count(path, product_graph(p).value) for p in TWO}
    build(herb, path, products=["ActionGenie"], progress=False)
    assert {p: count(path, product_graph(p).value) for p in TWO} == before


def test_two_worker_processes_build_the_same_quads(herb: Path, two_products: Path, tmp_path: Path) -> None:
    report = build(herb, tmp_path / "store", products=TWO, progress=False, jobs=2)
    assert set(Store.read_only(str(tmp_path / "store"))) == set(Store.read_only(str(two_products)))
    assert sorted(report.products) == TWO and report.quads == count(two_products)


@pytest.mark.parametrize("jobs", [1, 2])
def test_malformed_product_file_stops_with_its_name_and_keeps_the_old_store(
    herb: Path, tmp_path: Path, jobs: int
) -> None:
    path = tmp_path / "store"
    build(herb, path, products=["ActionGenie"], progress=False)
    before = count(path)
    bad = tmp_path / "herb"
    (bad / "products").mkdir(parents=True)
    (bad / "metadata").symlink_to(herb / "metadata")
    (bad / "products" / "Broken.json").write_text('{"team": [], "slack": [')
    with pytest.raises(KGError, match=r"Broken\.json: not valid JSON"):
        build(bad, path, progress=False, jobs=jobs)
    assert count(path) == before
    assert not list(tmp_path.glob(".store.*-*")), "no temporary store is left beside it"


@pytest.mark.parametrize("jobs", [1, 2])
def test_malformed_record_is_skipped_and_reported(
    herb: Path, tmp_path: Path, jobs: int, caplog: pytest.LogCaptureFixture
) -> None:
    src = tmp_path / "herb"
    (src / "products").mkdir(parents=True)
    (src / "metadata").symlink_to(herb / "metadata")
    data = {
        "team": [],
        "customers": [],
        "slack": [{"id": "x"}, "nonsense"],
        "documents": [],
        "meeting_transcripts": [],
        "meeting_chats": [],
        "urls": [{"id": "u1", "link": "https://a.b"}],
        "prs": [],
    }
    (src / "products" / "Tiny.json").write_text(json.dumps(data))
    report = build(src, tmp_path / "store", progress=False, jobs=jobs)
    assert report.artifacts == 1
    assert any("slack[0] (x): missing field(s) Channel, Message" in s for s in report.skipped)
    assert any("slack[1] (not an object)" in s for s in report.skipped)
    assert [r.getMessage() for r in caplog.records if r.name == "kg.ingest.herb"] == report.skipped


def test_killed_build_leaves_the_previous_store_answering(herb: Path, tmp_path: Path) -> None:
    path = tmp_path / "store"
    build(herb, path, products=["ActionGenie"], progress=False)
    before = count(path)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "kg", "build", "--herb", str(herb), "--store", str(path), "--quiet"],
        env=env,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not list(tmp_path.glob(".store.building-*")):
        time.sleep(0.02)
    assert list(tmp_path.glob(".store.building-*")), "the build never started writing its temporary store"
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert count(path) == before
    rows = EmbeddedStore(path).select("SELECT ?d WHERE { ?d a ekg:Document }", graphs=product_dataset("ActionGenie"))
    assert len(rows) == 15
    assert list(tmp_path.glob(".store.building-*")), "the killed build's temporary store is still there"
    build(herb, path, products=["ActionGenie"], progress=False)
    assert not list(tmp_path.glob(".store.building-*")), "the next build removes a dead build's leftovers"


def test_known_bug_customer_assignee_and_reopen_event(two_products: Path) -> None:
    """ProposalForce's bug channel: 'Lag in Real-Time Collaboration Features' is reported for CUST-0107
    (FusionTech), handed to eid_17e55125 (message 20270708-5-5bb48) and reopened on 2027-07-16."""
    rows = EmbeddedStore(two_products).select(
        """
        SELECT ?company ?assignee ?reported ?reopened ?state WHERE {
          ?bug a ekg:Bug ; dct:title "Lag in Real-Time Collaboration Features" ; ekg:bugState ?state ;
               ekg:affectsCustomer/ekg:worksFor/rdfs:label ?company ; ekg:assignedTo ?assignee .
          ?r a ekg:BugReported ; ekg:eventOf ?bug ; prov:wasDerivedFrom/dct:identifier ?reported .
          ?e a ekg:BugReopened ; ekg:eventOf ?bug ; prov:wasDerivedFrom/dct:identifier ?reopened .
        }""",
        graphs=product_dataset("ProposalForce"),
    )
    assert [{k: v.value for k, v in r.items()} for r in rows] == [
        {
            "company": "FusionTech",
            "assignee": "https://w3id.org/ekg/id/person/eid_17e55125",
            "reported": "20270708-5-5bb48",
            "reopened": "20270716-0-79441",
            "state": "https://w3id.org/ekg/ont#Reopened",
        }
    ]


def test_known_document_reviewers(two_products: Path) -> None:
    """The Market Research Report of ActionGenie is reviewed in its planning thread 20260611-*."""
    rows = EmbeddedStore(two_products).select(
        """
        SELECT DISTINCT ?who WHERE {
          ?doc dct:identifier "onforcex_market_research_report" .
          ?s a ekg:Suggestion ; ekg:suggestionOn ?doc ; ekg:suggestedBy ?who .
        }""",
        graphs=product_dataset("ActionGenie"),
    )
    reviewers = {r["who"].value.rsplit("/", 1)[-1] for r in rows}
    assert {"eid_d96fb219", "eid_ec3b5d65", "eid_2589c967"} <= reviewers
