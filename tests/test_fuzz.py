"""Property-based fuzzing (hypothesis) of what users feed the CLI: mutated product files for `kg build` and
hostile lines for `kg ask --batch`. The contract: exit 0 or the batch's worst outcome, 3 or 4 (bad records
skipped, bad lines turned into error records), or 2 (`kg: error: …`, one line); never a traceback; and every
valid record or line still lands.

Bounded (a small slice of one product, a few dozen examples) so the suite stays fast."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from herbkit import KINDS, SOURCE, artifacts_per_kind, built_store, herb_layout, mutated, small_product
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.cli import main
from kg.cli.ask import EXIT_STATUS

FUZZ = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
Path_ = tuple[str | int, ...]


def nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


#: Values of the wrong type for any field the tool reads: nulls, numbers, booleans, containers, strings holding
#: a lone surrogate, and lists nested hundreds deep.
BAD_VALUES = st.one_of(
    st.none(),
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.text(max_size=5).map(lambda s: s + "\ud800"),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.integers(2, 300).map(nested),
)


def field_paths(value: Any, prefix: Path_ = (), depth: int = 3) -> Iterator[Path_]:
    """Every path to a field or list element inside a record, down to `depth` steps."""
    if depth == 0:
        return
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for key, sub in items:
        yield (*prefix, key)
        yield from field_paths(sub, (*prefix, key), depth - 1)


@pytest.fixture(scope="module")
def product(herb: Path) -> dict[str, Any]:
    return small_product(herb, per_kind=6)


@pytest.fixture(scope="module")
def small_store(herb: Path, product: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_store(herb, tmp_path_factory.mktemp("small"), product)


@pytest.fixture(scope="module")
def clean(small_store: Path) -> dict[str, int]:
    return artifacts_per_kind(small_store)


@st.composite
def mutations(draw: st.DrawFn, product: dict[str, Any]) -> list[tuple[str, int, Path_, Any]]:
    """One to four (kind, record index, field path, bad value): a field of a record, or the whole record."""
    out = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from([k for k in KINDS if product.get(k)]))
        index = draw(st.integers(0, len(product[kind]) - 1))
        path = draw(st.sampled_from([(), *field_paths(product[kind][index])]))
        out.append((kind, index, path, draw(BAD_VALUES)))
    return out


@pytest.mark.slow
@FUZZ
@given(data=st.data())
def test_mutated_product_builds_without_traceback_and_valid_records_land(
    herb: Path,
    product: dict[str, Any],
    clean: dict[str, int],
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    data: st.DataObject,
) -> None:
    changes = data.draw(mutations(product))
    bad = product
    for kind, index, path, value in changes:
        try:
            bad = mutated(bad, kind, index, path, value)
        except (TypeError, KeyError, IndexError):
            continue  # an earlier change replaced a container on this path
    caplog.clear()
    with tempfile.TemporaryDirectory() as tmp:
        src = herb_layout(Path(tmp) / "herb", herb, {SOURCE: bad})
        code = main(["build", "--quiet", "--herb", str(src), "--store", str(Path(tmp) / "store")])
        _, err = capsys.readouterr()
        if code == 2:
            assert err.count("\n") == 1 and err.startswith("kg: error:") and "nested too deeply" in err
            return
        assert code == 0
        landed = artifacts_per_kind(Path(tmp) / "store")
    touched = {kind for kind, *_ in changes}
    for kind in KINDS:
        # each skipped record is one `kg: warning:` log line (pytest captures logging, not stderr)
        skipped = sum(f"{SOURCE}.json: {kind}[" in record.getMessage() for record in caplog.records)
        assert landed[kind] + skipped == clean[kind], (kind, err)
        if kind not in touched:
            assert skipped == 0


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)
QUESTIONS = st.one_of(
    st.text(max_size=30),
    st.sampled_from([f"Who wrote the Market Research Report for {SOURCE}?", "", "lone \ud800 surrogate", "\udfff"]),
)
LINES = st.one_of(
    QUESTIONS.map(lambda q: json.dumps({"question": q}).encode()),
    JSON_VALUES.map(lambda v: json.dumps(v).encode()),
    st.integers(1, 3000).map(lambda n: b"[" * n),
    st.integers(1, 3000).map(lambda n: b'{"question": ' * n),
    st.binary(max_size=20),
)


def valid_question(line: bytes) -> str | None:
    try:
        obj = json.loads(line)
        question = obj["question"]
        question.encode("utf-8")
    except (ValueError, TypeError, KeyError, RecursionError, AttributeError):
        return None
    return question if isinstance(obj, dict) and isinstance(question, str) else None


@FUZZ
@given(lines=st.lists(LINES, min_size=1, max_size=6))
def test_batch_lines_never_traceback_and_every_valid_question_is_answered(
    small_store: Path, capsys: pytest.CaptureFixture[str], lines: list[bytes]
) -> None:
    body = b"\n".join(lines) + b"\n"
    raw_lines = [line for line in body.split(b"\n") if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "in.jsonl", Path(tmp) / "out" / "answers.jsonl"
        src.write_bytes(body)
        code = main(["ask", "--batch", str(src), "--out", str(out), "--store", str(small_store)])
        _, err = capsys.readouterr()
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert "Traceback" not in err
    assert len(rows) == len(raw_lines)
    # a batch with any error record exits 2 at the end, with the count; an error record never abstains
    worst = max((EXIT_STATUS[row["outcome"]] for row in rows if "outcome" in row), default=0)
    assert code == (2 if any("error" in row for row in rows) else worst)
    for raw, row in zip(raw_lines, rows, strict=True):
        question = valid_question(raw)
        if question is None:
            assert row.get("error") and row["question"] is None and "abstain" not in row
        elif "error" in row:  # a well-formed line whose question is invalid (empty, two products, ...)
            assert row["error"].startswith("invalid question:") and "abstain" not in row
        else:
            assert row["question"] in (question, question.strip())
