"""Search end to end on a tiny HERB-shaped product written here (three conversations, a document a message
links to, a pull request, a customer), built into a real store and indexed on disk, in the degraded mode (no
dense extra) a CI machine may be in; plus the CLI and the signal log."""

from __future__ import annotations

import collections
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from pyoxigraph import NamedNode, Store

from kg import extras
from kg.cli import main
from kg.errors import KGError
from kg.ingest.build import build
from kg.namespaces import ORG_GRAPH
from kg.query.sparql import named_query, prefixed, product_dataset
from kg.search import dense
from kg.search.index import build_index, index_dir
from kg.search.searcher import Facets, Searcher

EMPLOYEES = {
    "eid_aaaaaaaa": {
        "employee_id": "eid_aaaaaaaa",
        "name": "Ada Stone",
        "role": "Engineering Lead",
        "location": "Remote",
        "org": "slack",
    },
    "eid_bbbbbbbb": {
        "employee_id": "eid_bbbbbbbb",
        "name": "Ben Hale",
        "role": "QA Specialist",
        "location": "Remote",
        "org": "slack",
    },
}
CUSTOMERS = [{"name": "Cora Bell", "role": "Product Manager", "company": "BlueWave", "id": "CUST-0001"}]
DOC_LINK = "https://sf-internal.slack.com/archives/docs/tiny_tech_spec"


def message(mid: str, channel: str, author: str, text: str) -> dict:
    day = mid[:8]
    stamp = f"{day[:4]}-{day[4:6]}-{day[6:]}T10:0{mid.split('-')[1]}:00"
    return {
        "Channel": {"name": channel, "channelID": f"ch-{channel}"},
        "Message": {
            "User": {"userId": author, "timestamp": stamp, "text": text, "utterranceID": mid},
            "Reactions": [],
        },
        "ThreadReplies": [],
        "id": mid,
    }


PRODUCT = {
    "team": ["eid_aaaaaaaa", "eid_bbbbbbbb"],
    "customers": ["CUST-0001"],
    "slack": [
        message(
            "20260101-0-aaaaa",
            "planning-Tiny",
            "eid_aaaaaaaa",
            f"Kicking off the ingestion latency work, spec here: {DOC_LINK}",
        ),
        message("20260101-1-bbbbb", "planning-Tiny", "eid_bbbbbbbb", "Sounds good, I will help."),
        message("20260101-2-ccccc", "planning-Tiny", "eid_aaaaaaaa", "I'll profile it tomorrow."),
        message("20260102-0-ddddd", "planning-Tiny", "eid_bbbbbbbb", "Anyone up for lunch?"),
        message("20260102-1-eeeee", "planning-Tiny", "eid_aaaaaaaa", "Pizza works for me."),
        message(
            "20260103-0-fffff",
            "bugs-Tiny",
            "eid_bbbbbbbb",
            "CUST-0001 reports the dashboard colours are unreadable.",
        ),
        message("20260103-1-ggggg", "bugs-Tiny", "eid_aaaaaaaa", "On it, will fix the palette."),
    ],
    "documents": [
        {
            "content": "Technical spec: a stream buffer keeps throughput steady.",
            "date": "2026-01-01T09:00:00",
            "document_link": DOC_LINK,
            "author": "eid_aaaaaaaa",
            "type": "Technical Specifications Document",
            "id": "tiny_tech_spec",
        }
    ],
    "meeting_transcripts": [],
    "meeting_chats": [],
    "urls": [],
    "prs": [
        {
            "title": "Add palette option",
            "summary": "Lets users choose dashboard colours.",
            "link": "https://github.com/salesforce/Tiny/pull/1",
            "mergeable": "True",
            "merged": "True",
            "number": "1",
            "state": "closed",
            "user": {"login": "eid_aaaaaaaa"},
            "created_at": "2026-01-04T00:00:00",
            "reviews": [],
            "id": "github_com_salesforce_Tiny_pull_1",
        }
    ],
}


def write_herb(root: Path) -> Path:
    """The dataset as a HERB folder (products/Tiny.json, metadata/) under `root`."""
    (root / "products").mkdir(parents=True)
    (root / "metadata").mkdir()
    (root / "products" / "Tiny.json").write_text(json.dumps(PRODUCT), encoding="utf-8")
    (root / "metadata" / "employee.json").write_text(json.dumps(EMPLOYEES), encoding="utf-8")
    (root / "metadata" / "customers_data.json").write_text(json.dumps(CUSTOMERS), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def tiny_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tiny")
    herb = write_herb(root / "herb")
    store = root / "store"
    build(herb, store, progress=False)
    report = build_index(store, herb, use_dense=False, progress=False)
    assert report.products == ["Tiny"] and report.artifacts == 9
    return store


@pytest.fixture()
def searcher(tiny_store: Path, tmp_path: Path) -> Searcher:
    return Searcher(tiny_store, log_path=tmp_path / "log.jsonl", use_dense=False)


def test_index_lives_beside_the_store(tiny_store):
    folder = index_dir(tiny_store) / "Tiny"
    assert {"bm25", "bm25-context", "graph.npz", "labels.json", "artifacts.json"} <= {p.name for p in folder.iterdir()}
    assert not (folder / "dense.npy").exists()


def test_a_whole_conversation_ranks_above_unrelated_ones(searcher):
    result = searcher.search("ingestion latency", product="Tiny", k=10)
    top3 = result.ids()[:3]
    assert set(top3) == {"20260101-0-aaaaa", "20260101-1-bbbbb", "20260101-2-ccccc"}
    silent = next(h for h in result.hits if h.id == "20260101-1-bbbbb")
    assert "bm25_context" in silent.signals  # found through its thread: its own text shares no query term
    row = searcher.product_index("Tiny").row["20260101-1-bbbbb"]
    assert row not in searcher.signals("ingestion latency", "Tiny").rankings["bm25"]


def test_ppr_brings_in_the_document_a_hit_links_to(searcher):
    result = searcher.search("ingestion latency", product="Tiny", k=10)
    ids = result.ids()
    doc = next(h for h in result.hits if h.id == "tiny_tech_spec")
    assert set(doc.signals) == {"ppr"}
    assert ids.index("tiny_tech_spec") < ids.index("20260102-0-ddddd")
    without = searcher.search("ingestion latency", product="Tiny", k=10, mode="rrf")
    assert "tiny_tech_spec" not in without.ids()[:4] or without.ids().index("tiny_tech_spec") > 3


def test_anchors_of_the_question_seed_the_walk(searcher):
    result = searcher.search("what did CUST-0001 report", product="Tiny", k=3)
    assert "CUST-0001" in result.anchors
    assert result.ids()[0] == "20260103-0-fffff"


def test_product_scope_comes_from_the_text_when_not_given(searcher):
    assert searcher.search("Tiny ingestion", k=3).products == ["Tiny"]


def test_facets_filter_before_ranking(searcher):
    only_docs = searcher.search("ingestion latency", product="Tiny", facets=Facets(kind="document"))
    assert only_docs.ids() == ["tiny_tech_spec"]
    by_ben = searcher.search("ingestion", product="Tiny", facets=Facets(author="eid_bbbbbbbb"))
    assert set(by_ben.ids()) == {"20260101-1-bbbbb", "20260102-0-ddddd", "20260103-0-fffff"}
    bugs = searcher.search("dashboard", product="Tiny", facets=Facets(channel="bugs-Tiny"))
    assert set(bugs.ids()) == {"20260103-0-fffff", "20260103-1-ggggg"}
    day2 = searcher.search("lunch", product="Tiny", facets=Facets(since="2026-01-02", until="2026-01-02"))
    assert set(day2.ids()) == {"20260102-0-ddddd", "20260102-1-eeeee"}
    leads = searcher.search("spec", product="Tiny", facets=Facets(role="Engineering Lead", kind="document"))
    assert leads.ids() == ["tiny_tech_spec"]


def test_without_the_dense_extra_search_degrades_to_lexical_and_graph_and_says_so(tiny_store, monkeypatch):
    real = extras.importlib.util.find_spec
    monkeypatch.setattr(
        extras.importlib.util, "find_spec", lambda name, *a: None if name == dense.PACKAGE else real(name, *a)
    )
    searcher = Searcher(tiny_store, use_dense=True)
    assert searcher.encoder is None
    result = searcher.search("ingestion latency", product="Tiny", k=3)
    assert any(f"dense retrieval off: {dense.PACKAGE} is not installed" in n for n in result.notes)
    assert set(result.ids()) == {"20260101-0-aaaaa", "20260101-1-bbbbb", "20260101-2-ccccc"}
    assert all(set(h.signals) <= {"bm25_context", "ppr"} for h in result.hits)


def test_dense_requested_on_an_index_without_embeddings_says_so(tiny_store):
    if dense.unavailable():
        pytest.skip(dense.unavailable())
    result = Searcher(tiny_store, use_dense=True).search("ingestion", product="Tiny", k=3)
    assert any("the index has no embeddings" in n for n in result.notes)
    assert all("dense_context" not in h.signals for h in result.hits)


def test_every_query_logs_its_signals(searcher):
    searcher.search("ingestion latency", product="Tiny", k=2)
    entry = json.loads(searcher.log_path.read_text().splitlines()[-1])
    assert entry["query"] == "ingestion latency" and entry["products"] == ["Tiny"]
    assert entry["hits"][0]["signals"]["bm25_context"] in (1, 2) and "ppr" in entry["hits"][0]["signals"]
    assert {"lexical", "ppr", "total"} <= set(entry["millis"])


def test_bad_requests_are_one_line_errors(searcher, tiny_store, tmp_path):
    with pytest.raises(KGError, match="not indexed"):
        searcher.search("x", product="Nope")
    with pytest.raises(KGError, match="empty"):
        searcher.search("   ", product="Tiny")
    with pytest.raises(KGError, match="no search index"):
        Searcher(tmp_path / "store")


def test_cli_search_prints_ranked_ids_with_signal_contributions(tiny_store, capsys):
    code = main(
        [
            "search",
            "ingestion latency",
            "--store",
            str(tiny_store),
            "--product",
            "Tiny",
            "--k",
            "3",
            "--explain",
            "--no-log",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "20260101-0-aaaaa" in out and "bm25_context rank:contrib" in out and ":0.016" in out
    code = main(["search", "ingestion", "--store", str(tiny_store), "--product", "Nope", "--no-log"])
    assert code == 2 and "not indexed" in capsys.readouterr().err


def tiny_question(text: str):
    from kg.qa.question import Vocabulary, parse

    return parse(text, Vocabulary({"tiny": "Tiny"}, {}, {}))


def test_fallback_answers_with_extracted_sentences_of_admitted_evidence(searcher):
    from kg.qa.fallback import fallback_answer

    found = fallback_answer(searcher, tiny_question("What is the plan for ingestion latency in Tiny?"))
    assert found is not None
    assert found.answer.startswith("Kicking off the ingestion latency work")
    assert found.citations == ["20260101-0-aaaaa"]


def test_fallback_abstains_when_nothing_clears_the_structural_check(searcher):
    from kg.qa.fallback import fallback_answer

    assert fallback_answer(searcher, tiny_question("Which quantum tunnelling vendors did Tiny evaluate?")) is None
    assert fallback_answer(searcher, tiny_question("What is the plan for ingestion latency?")) is None  # no product


@pytest.mark.slow
def test_each_product_index_holds_its_whole_dataset_with_the_organisation_read_once(
    store: Path, herb: Path, tmp_path: Path
) -> None:
    """The index reads the organisation graph once per run and joins it to each product's own graph: the edges
    and names it keeps must be exactly those of the product's dataset (its graph plus the organisation's)."""
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    build_index(copy, herb, products=["ActionGenie", "SearchFlow"], use_dense=False, progress=False)
    db = Store.read_only(str(copy))
    for product in ("ActionGenie", "SearchFlow"):
        folder = index_dir(copy) / product
        meta = json.loads((folder / "graph.json").read_text(encoding="utf-8"))
        arrays = np.load(folder / "graph.npz")
        nodes, preds = meta["nodes"], meta["predicates"]
        kept = collections.Counter(
            (nodes[s], preds[p], nodes[o]) for s, o, p in zip(arrays["src"], arrays["dst"], arrays["pred"], strict=True)
        )
        rows = db.query(prefixed(named_query("search_graph_edges").text), default_graph=product_dataset(product))
        assert kept == collections.Counter((r["s"].value, r["p"].value, r["o"].value) for r in rows)
        labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
        rows = db.query(prefixed(named_query("search_node_labels").text), default_graph=product_dataset(product))
        assert {r["node"].value for r in rows} == {n for iris in labels.values() for n in iris}
        org = db.query(prefixed(named_query("search_graph_edges").text), default_graph=[NamedNode(ORG_GRAPH)])
        org_edges = {(r["s"].value, r["p"].value, r["o"].value) for r in org}
        assert org_edges and org_edges <= set(kept)  # the organisation's edges are in every product's walk
