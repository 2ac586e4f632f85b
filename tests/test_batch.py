"""`kg ask --batch` in worker processes: the same bytes as one process, in input order, and the same failures.

Run through the real CLI in a fresh process, as a user runs it (its parent holds no store open when it starts
the workers). Two processes also check that an answer does not depend on the process: rows come from the
engine in an order that changes between processes, and the shown answer must not.
"""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys
from contextlib import nullcontext
from functools import partial
from pathlib import Path

import pyoxigraph
import pytest

from kg.qa.answer import Answerer
from kg.qa.batch import run_batch, single_threaded
from kg.query.sparql import EmbeddedStore

ROOT = Path(__file__).resolve().parent.parent
#: Enough lines that two workers each get several chunks (kg/qa/batch.py: CHUNK, MIN_LINES_PER_JOB).
LINES = 300


def kg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def batch_file(herb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Dev questions, answerable and not, with malformed lines and an invalid question among them."""
    questions = [
        json.loads(line)["question"]
        for name in ("answerable", "unanswerable")
        for line in (herb / "qa" / "dev" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    lines = [json.dumps({"question": q}) for q in itertools.islice(itertools.cycle(questions[::7]), LINES)]
    lines[5] = "{not json"
    lines[150] = json.dumps({"question": ""})  # invalid: an error record, never an abstention
    lines[290] = json.dumps({"question": 7})
    path = tmp_path_factory.mktemp("batch") / "in.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.slow
def test_two_workers_write_what_one_process_writes(store: Path, batch_file: Path, tmp_path: Path) -> None:
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out-{jobs}.jsonl"
        runs[jobs] = (
            kg("ask", "--batch", str(batch_file), "--out", str(out), "--store", str(store), "--jobs", jobs),
            out,
        )
    (one, one_out), (two, two_out) = runs["1"], runs["2"]
    assert one.returncode == two.returncode == 2  # the error records make the batch exit 2, at the end
    assert one_out.read_bytes() == two_out.read_bytes()
    assert one.stderr == two.stderr and "Traceback" not in two.stderr
    records = [json.loads(line) for line in two_out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == LINES
    assert [i for i, r in enumerate(records) if "error" in r] == [5, 150, 290]
    assert all("abstain" not in r for r in records if "error" in r)
    answered = [r for r in records if r.get("abstain") is False]
    assert len(answered) > LINES // 2 and all(r["citations"] for r in answered)
    assert all(r["citations"] == sorted(r["citations"]) for r in answered)
    assert f"3 of {LINES} lines got an error record" in two.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_store_that_will_not_open_leaves_the_output_as_it_was(batch_file: Path, tmp_path: Path, jobs: str) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("yesterday's answers\n", encoding="utf-8")
    done = kg(
        "ask",
        "--batch",
        str(batch_file),
        "--out",
        str(out),
        "--store",
        str(tmp_path / "missing"),
        "--jobs",
        jobs,
        "--force",  # even when told to replace it: without --force a file kg did not write is refused first
    )
    assert done.returncode == 2 and done.stderr.startswith("kg: error: no store at ")
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    assert out.read_text(encoding="utf-8") == "yesterday's answers\n"


def test_a_store_without_products_fails_every_line_alike(batch_file: Path, tmp_path: Path) -> None:
    """Data the workers open but cannot answer from: each line an error record, never an abstention."""
    empty = tmp_path / "empty-store"
    pyoxigraph.Store(str(empty)).flush()  # a real store, holding no product
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out-{jobs}.jsonl"
        done = kg("ask", "--batch", str(batch_file), "--out", str(out), "--store", str(empty), "--jobs", jobs)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert len(records) == LINES and all("error" in r and "abstain" not in r for r in records)
        assert "no products found" in records[0]["error"]
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


@pytest.mark.parametrize("jobs", ["0", "-2"])
def test_jobs_below_one_is_refused(store: Path, batch_file: Path, jobs: str) -> None:
    done = kg("ask", "--batch", str(batch_file), "--store", str(store), "--jobs", jobs)
    assert done.returncode == 2 and "--jobs" in done.stderr and done.stdout == ""


def test_jobs_needs_batch(store: Path) -> None:
    done = kg("ask", "Who wrote the Market Research Report for ActionGenie?", "--store", str(store), "--jobs", "2")
    assert done.returncode == 2 and "--jobs only works with --batch" in done.stderr


def store_answerer(store: Path) -> Answerer:
    """What a worker opens: a function the server process can import (a store handle cannot be pickled)."""
    return Answerer(EmbeddedStore(store))


@pytest.mark.slow
def test_a_process_running_threads_starts_its_workers_from_a_fresh_server(store: Path, batch_file: Path) -> None:
    """In a process whose store threads run (a library caller's), a fork could copy a lock one of them holds:
    the workers come from a fresh server process instead, and write the same bytes."""
    held = EmbeddedStore(store)
    held.ask("ASK { ?s ?p ?o }")  # this process now runs the store's threads
    assert not single_threaded()
    outs = []
    for jobs in (1, 2):
        out, errors = io.StringIO(), io.StringIO()
        counts = run_batch(partial(store_answerer, store), batch_file, partial(nullcontext, out), errors, jobs)
        assert counts["malformed"] + counts["failed"] == 3
        outs.append((out.getvalue(), errors.getvalue()))
    assert outs[0] == outs[1] and outs[0][0].count("\n") == LINES


def test_a_single_threaded_process_forks_its_workers() -> None:
    """The CLI's case, read from the kernel in a fresh process: one thread, until a store opens its own."""
    code = (
        "from kg.qa.batch import single_threaded, worker_context; import pyoxigraph, tempfile; "
        "a = (single_threaded(), worker_context().get_start_method()); "
        "pyoxigraph.Store(tempfile.mkdtemp()).flush(); "
        "print(a, (single_threaded(), worker_context().get_start_method()))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "(True, 'fork') (False, 'forkserver')", done.stderr
