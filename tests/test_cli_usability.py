"""What a person meets at the command line: dates that are no dates, library debug lines, help that tells the
truth, stdin, JSON on every listing, tables that fit, step lines for long steps, words in the right number."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_search import PRODUCT, write_herb
from test_serve import start_server

from alignment.defaults import DEFAULT_THRESHOLD
from kg.cli import main
from kg.cli.ask import render
from kg.cli.table import PIPED_WIDTH, format_table
from kg.ingest.build import build
from kg.qa.answer import Answer
from kg.qa.intents import table
from kg.search.index import build_index

KG = [sys.executable, "-m", "kg"]
MRR = "Find employee IDs of the authors and key reviewers of the Market Research Report for the ActionGenie product?"


@pytest.mark.parametrize("option, value", [("--since", "2026-02-30"), ("--until", "2026-13-01")])
def test_search_refuses_a_date_that_is_not_on_the_calendar(
    option: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["search", "x", option, value, "--store", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"kg: error: '{value}' is not a date on the calendar") and err.count("\n") == 1


def test_eval_prints_no_library_debug_lines(herb: Path, store: Path, tmp_path: Path) -> None:
    qa = tmp_path / "qa"
    qa.mkdir()
    for name in ("answerable.jsonl", "unanswerable.jsonl"):
        lines = (herb / "qa" / "dev" / name).read_text(encoding="utf-8").splitlines()
        (qa / name).write_text("\n".join(lines[:2]) + "\n", encoding="utf-8")
    args = ["eval", "--qa", str(qa), "--herb", str(herb), "--store", str(store), "--results", str(tmp_path / "r")]
    done = subprocess.run([*KG, *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "debug" not in done.stderr and "Building index" not in done.stderr, done.stderr
    assert "BM25 baseline" in done.stdout  # the baseline ran, and said nothing on stderr
    verbose = subprocess.run([*KG, "-v", *args], capture_output=True, text=True, timeout=300)
    assert "kg: debug: Building index" in verbose.stderr  # --verbose still shows them


def test_align_help_tells_the_real_default_and_a_bad_threshold_fails_before_loading(tmp_path: Path) -> None:
    helptext = subprocess.run([*KG, "align", "--help"], capture_output=True, text=True).stdout
    assert f"(default {DEFAULT_THRESHOLD})" in " ".join(helptext.split())
    missing = tmp_path / "no-erb-here"
    for bad in ("1.5", "-0.1", "nan"):
        done = subprocess.run([*KG, "align", "--erb", str(missing), "--threshold", bad], capture_output=True, text=True)
        assert done.returncode == 2 and done.stderr.startswith("kg: error: --threshold must be between 0 and 1")


def test_ask_dash_reads_the_question_from_stdin(store: Path) -> None:
    done = subprocess.run(
        [*KG, "ask", "-", "--store", str(store)], input=MRR.encode(), capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert f"Q: {MRR}" in done.stdout.decode() and "eid_13fdff84" in done.stdout.decode()


@pytest.mark.parametrize("command", [["stats"], ["rules"], ["intents"]])
def test_listings_take_json(command: list[str], store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store_args = ["--store", str(store)] if command == ["stats"] else []
    assert main([*command, "--json", *store_args]) == 0
    got = json.loads(capsys.readouterr().out)
    if command == ["stats"]:
        assert got["instances per class"]["https://w3id.org/ekg/ont#SlackMessage"] == 33632
    elif command == ["rules"]:
        assert "mentions" in got and all(isinstance(v, str) and v for v in got.values())
    else:
        assert {i["intent"] for i in got["intents"]} >= {"doc_authors_reviewers", "pr_to_merge"}
        assert got["state_words"]["to merge"]


def test_wide_tables_go_vertical_when_piped_or_narrow(capsys: pytest.CaptureFixture[str]) -> None:
    header = ["intent", "type", "query", "cues", "wording"]
    rows = [["doc_authors_reviewers", "person", "sparql/doc_authors_reviewers.rq", "authored reviewed", "x " * 40]]
    piped = format_table(header, rows)
    assert max(len(line) for line in piped.splitlines()) <= PIPED_WIDTH
    assert piped.splitlines()[0] == "intent:  doc_authors_reviewers" and piped.splitlines()[4].startswith("wording: x")
    narrow = format_table(header, rows, width=80)
    assert narrow == piped
    wide = format_table(header, rows, width=200)
    assert wide.splitlines()[0].split() == header  # it fits: a table
    assert main(["intents"]) == 0
    out = capsys.readouterr().out
    records = out.split("\nstate words")[0].strip().split("\n\n")  # one record per intent, not 400-column rows
    assert len(records) == len(table()[1])
    assert all(r.splitlines()[0].startswith("intent:") and "wording it covers:" in r for r in records)


def test_build_tells_each_step_after_the_mapping(tmp_path: Path) -> None:
    steps: list[str] = []
    build(write_herb(tmp_path / "herb"), tmp_path / "store", progress=False, phase=steps.append)
    assert steps[0] == "every product mapped; the store builds its indexes"
    assert steps[1].endswith("quads loaded; compacting the store") and steps[2] == "swapping the new store in"


def test_evidence_count_is_in_the_right_number() -> None:
    one = Answer("q?", "url", False, ["https://a.b"], ["x1"], "intent")
    assert "evidence (1 artifact): x1" in render(one, False)
    two = Answer("q?", "url", False, ["https://a.b"], ["x1", "x2"], "intent")
    assert "evidence (2 artifacts): x1, x2" in render(two, False)


def test_ask_shows_people_by_name_role_and_eid_and_json_adds_a_people_map(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ask", MRR, "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "  - Charlie Davis (Marketing Research Analyst, eid_13fdff84)" in out
    assert "I read this as: people (document authors reviewers): product ActionGenie, document Market Research" in out
    assert main(["ask", MRR, "--store", str(store), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert "eid_13fdff84" in got["answer"] and all(a.startswith("eid_") for a in got["answer"])  # still eids
    assert set(got["people"]) == set(got["answer"])
    assert got["people"]["eid_13fdff84"] == {"name": "Charlie Davis", "role": "Marketing Research Analyst"}


@pytest.fixture(scope="module")
def two_products(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Tiny and its twin Other (every name and id renamed), built and indexed."""
    root = tmp_path_factory.mktemp("two")
    herb = write_herb(root / "herb")
    twin = json.dumps(PRODUCT).replace("Tiny", "Other").replace("tiny", "other").replace("2026010", "2026020")
    (herb / "products" / "Other.json").write_text(twin, encoding="utf-8")
    store = root / "store"
    build(herb, store, progress=False)
    build_index(store, herb, use_dense=False, progress=False)
    return store


def test_search_over_an_endpoint_shows_only_the_products_the_token_reads(
    two_products: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    access = tmp_path / "access.yaml"
    access.write_text(json.dumps({"tiny-token-0123456": ["Tiny"]}))
    local = ["search", "ingestion latency", "--store", str(two_products), "--no-log", "--json"]
    assert main(local) == 0
    assert {h["product"] for h in json.loads(capsys.readouterr().out)["hits"]} == {"Tiny", "Other"}
    for url in start_server(two_products, "--access", str(access)):
        remote = [*local, "--endpoint", f"{url}/query", "--token", "tiny-token-0123456"]
        assert main(remote) == 0
        hits = json.loads(capsys.readouterr().out)["hits"]
        assert hits and {h["product"] for h in hits} == {"Tiny"}
        assert main([*remote, "--product", "Other"]) == 2
        assert "this token does not read the product Other" in capsys.readouterr().err
