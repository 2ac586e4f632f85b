"""One backend selector for every reading command: the same command over `kg serve` (a real subprocess on
127.0.0.1) prints what it prints over the embedded store."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from endpoints import ROOT, kg_serve

from kg.errors import KGError
from kg.query.backend import open_backend, store_location
from kg.query.remote import RemoteEndpoint
from kg.query.sparql import EmbeddedStore

#: Questions of each split taken from HERB's dev set: enough to reach every intent family, few enough to be quick.
SAMPLE = 60


def kg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def endpoint(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with kg_serve(store, tmp_path_factory.mktemp("serve")) as url:
        yield url


def test_open_backend_reads_a_store_or_an_endpoint(store: Path) -> None:
    assert isinstance(open_backend(store_location(store)), EmbeddedStore)
    assert isinstance(open_backend("https://example.org/sparql", token="t"), RemoteEndpoint)
    with pytest.raises(KGError, match="not a store or an endpoint"):
        open_backend(str(store))
    with pytest.raises(KGError, match="the local store takes none"):
        open_backend(store_location(store), token="t")


@pytest.mark.herb
def test_stats_over_an_endpoint_equals_embedded(store: Path, endpoint: str) -> None:
    embedded, remote = kg("stats", "--store", str(store)), kg("stats", "--endpoint", endpoint)
    assert embedded.returncode == remote.returncode == 0, remote.stderr
    assert "triples per graph" in embedded.stdout and remote.stdout == embedded.stdout


@pytest.mark.herb
@pytest.mark.slow
def test_eval_over_an_endpoint_equals_embedded(store: Path, herb: Path, endpoint: str, tmp_path: Path) -> None:
    qa = tmp_path / "qa"
    qa.mkdir()
    for split in ("answerable", "unanswerable"):
        with (herb / "qa" / "dev" / f"{split}.jsonl").open(encoding="utf-8") as fh:
            (qa / f"{split}.jsonl").write_text("".join(itertools.islice(fh, SAMPLE)), encoding="utf-8")
    common = ("--qa", str(qa), "--herb", str(herb), "--no-baseline")
    embedded = kg("eval", "--store", str(store), "--results", str(tmp_path / "e.jsonl"), *common)
    remote = kg("eval", "--endpoint", endpoint, "--results", str(tmp_path / "r.jsonl"), *common)
    assert embedded.returncode == remote.returncode == 0, remote.stderr
    # The first line says how long the run took; the score table after it must be the same.
    table = embedded.stdout.splitlines()[1:]
    assert any(line.startswith("all answerable") for line in table)
    assert remote.stdout.splitlines()[1:] == table


@pytest.mark.herb
@pytest.mark.slow
def test_validate_over_an_endpoint_equals_embedded(store: Path, endpoint: str) -> None:
    embedded = kg("validate", "--store", str(store), "--product", "ActionGenie", "--format", "json")
    remote = kg("validate", "--endpoint", endpoint, "--product", "ActionGenie", "--format", "json")
    assert embedded.returncode == remote.returncode and embedded.returncode in (0, 1), remote.stderr
    assert '"graphs"' in embedded.stdout and remote.stdout == embedded.stdout


@pytest.mark.herb
def test_pyshacl_over_an_endpoint_says_what_it_needs(endpoint: str) -> None:
    done = kg("validate", "--endpoint", endpoint, "--engine", "pyshacl")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("kg: error: --engine pyshacl copies the graphs into rdflib from the local store")


def test_a_token_without_an_endpoint_is_refused(store: Path) -> None:
    for command in ("stats", "validate", "eval", "search"):
        args = [command, "--store", str(store), "--token", "t"] + (["text"] if command == "search" else [])
        done = kg(*args)
        assert done.returncode == 2 and done.stderr.strip() == "kg: error: --token only works with --endpoint"
