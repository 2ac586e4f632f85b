"""What-if graphs: answers over a scratch copy of a product's graph plus / minus the facts in files, marked
where they differ from the real answer; the real store is byte-for-byte the same afterwards."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from pyoxigraph import Store

from kg.cli import main

pytestmark = pytest.mark.herb
EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
FIXED = EXAMPLES / "whatif-fixed-by-pr12.ttl"  # TechCorp's open ConnectForce bug: resolved by PR #12
STILL_OPEN = EXAMPLES / "whatif-still-open.ttl"  # ... and its real state, Open
UNRESOLVED = "Which companies have unresolved bugs in ConnectForce?"


def fingerprint(path: Path) -> tuple[int, str]:
    """Quad count and a hash of the store's whole content (every quad, sorted)."""
    store = Store.read_only(str(path))
    quads = sorted(str(q) for q in store)
    return len(quads), hashlib.sha256("\n".join(quads).encode()).hexdigest()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_what_if_answers_mark_scratch_items_and_leave_the_store_alone(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = fingerprint(store)
    code, out, _ = run(
        capsys, "ask", UNRESOLVED, "--store", str(store), "--json", "--with", str(FIXED), "--without", str(STILL_OPEN)
    )
    got = json.loads(out)
    assert code == 0 and "TechCorp" not in got["answer"] and got["what_if"]["dropped_items"] == ["TechCorp"]
    code, out, _ = run(
        capsys,
        "ask",
        "Which companies have resolved bugs in ConnectForce?",
        "--store",
        str(store),
        "--with",
        str(FIXED),
        "--without",
        str(STILL_OPEN),
    )
    assert code == 0 and "  - TechCorp   [what-if: only with the scratch facts]" in out
    code, out, _ = run(
        capsys,
        "query",
        str(Path("sparql/bug_companies_by_state.rq").resolve()),
        "--store",
        str(store),
        "--product",
        "ConnectForce",
        "--bind",
        "asked=unresolved",
        "--format",
        "csv",
        "--without",
        str(STILL_OPEN),
    )
    assert code == 0 and "BlueWave" in out and "TechCorp" not in out
    assert fingerprint(store) == before
    code, out, _ = run(capsys, "ask", UNRESOLVED, "--store", str(store), "--json")
    assert "TechCorp" in json.loads(out)["answer"]  # the real graph still says it is open


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--endpoint", "http://127.0.0.1:9/query"], "cannot be combined with --endpoint"),
        (["--with", "no-such-file.ttl"], "no such file"),
        (["--with", "extra.json"], "unknown RDF file type"),
    ],
)
def test_what_if_input_errors_are_one_line(
    store: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    args = ["ask", UNRESOLVED, "--store", str(store), *extra]
    if "--endpoint" in extra:
        args += ["--with", str(FIXED)]
    code, _, err = run(capsys, *args)
    assert code == 2 and message in err and err.startswith("kg: error:") and "Traceback" not in err


def test_broken_turtle_is_an_error(store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.ttl"
    bad.write_text("<a> <b> .\n")
    code, _, err = run(capsys, "ask", UNRESOLVED, "--store", str(store), "--with", str(bad))
    assert code == 2 and "cannot read" in err
    code, _, err = run(capsys, "query", str(bad), "--store", str(store), "--with", str(FIXED))
    assert code == 2 and "need --product" in err
