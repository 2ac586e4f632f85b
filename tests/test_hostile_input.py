"""Every hostile input of issue #11 gives `kg: error: …` (exit 2) or a skip with a warning naming the file, kind
and index — never a traceback — and every valid record still lands."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import require_erb
from herbkit import SOURCE, artifacts_per_kind, built_store, herb_layout, mutated, small_product

from kg.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def product(herb: Path) -> dict[str, Any]:
    return small_product(herb)


@pytest.fixture(scope="module")
def small_store(herb: Path, product: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_store(herb, tmp_path_factory.mktemp("small"), product)


@pytest.fixture(scope="module")
def clean_counts(small_store: Path) -> dict[str, int]:
    return artifacts_per_kind(small_store)


BAD_RECORDS = {
    "slack Channel is a string": ("slack", 0, ("Channel",), "general", "Channel is a string, expected an object"),
    "lone surrogate in a timestamp": (
        "slack",
        1,
        ("Message", "User", "timestamp"),
        "2026-04-11\ud800",
        "Message.User.timestamp is not valid Unicode",
    ),
    "document author is an object": (
        "documents",
        0,
        ("author",),
        {"eid": "eid_1"},
        "author is an object, expected a string",
    ),
    "PR user is a string": ("prs", 0, ("user",), "octocat", "user is a string, expected an object"),
    "PR reviews is a string": ("prs", 1, ("reviews",), "LGTM", "reviews is a string, expected a list"),
    "PR reviews hold nulls": ("prs", 2, ("reviews",), [None, None], "reviews[0] is null, expected an object"),
    "transcript is nested deep": (
        "meeting_transcripts",
        0,
        ("transcript",),
        json.loads("[" * 200 + "]" * 200),
        "transcript is a list, expected a string",
    ),
}


@pytest.mark.parametrize("case", list(BAD_RECORDS))
def test_a_record_of_the_wrong_type_is_skipped_naming_it_and_the_rest_land(
    herb: Path,
    product: dict[str, Any],
    clean_counts: dict[str, int],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    case: str,
) -> None:
    kind, index, path, value, problem = BAD_RECORDS[case]
    src = herb_layout(tmp_path / "herb", herb, {SOURCE: mutated(product, kind, index, path, value)})
    code, _, err = run(capsys, "build", "--quiet", "--herb", src, "--store", tmp_path / "store")
    assert code == 0 and "Traceback" not in err
    warned = "\n".join(record.getMessage() for record in caplog.records)  # `kg: warning:` lines, as logged
    assert f"{SOURCE}.json: {kind}[{index}] ({product[kind][index]['id']}): {problem}" in warned
    assert artifacts_per_kind(tmp_path / "store") == {**clean_counts, kind: clean_counts[kind] - 1}


def test_json_nested_100k_deep_is_a_one_line_error(
    herb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = herb_layout(tmp_path / "herb", herb, {SOURCE: '{"team": [], "slack": ' + "[" * 100_000 + "]" * 100_000 + "}"})
    code, _, err = run(capsys, "build", "--quiet", "--herb", src, "--store", tmp_path / "store")
    assert code == 2 and err == f"kg: error: {src / 'products' / SOURCE}.json: JSON nested too deeply to read\n"


BATCH_LINES = {
    "lone surrogate": b'{"question": "lone \\ud800 surrogate"}\n',
    "1,000 nested [": b"[" * 1000 + b"\n",
}


@pytest.mark.parametrize("case", list(BATCH_LINES))
def test_batch_line_is_an_error_record_and_the_others_are_answered(
    small_store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    src = tmp_path / "in.jsonl"
    good = b'{"question": "Who wrote the Market Research Report for CollaborationForce?"}\n'
    src.write_bytes(good + BATCH_LINES[case] + good)
    out = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "ask", "--batch", src, "--out", out, "--store", small_store)
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    # the batch goes on past the bad line, then exits 2 with the count of error records
    assert code == 2 and "Traceback" not in err and f"{src}:2:" in err and "1 of 3 lines" in err
    assert len(rows) == 3 and "error" in rows[1] and rows[1]["question"] is None and "abstain" not in rows[1]
    assert rows[0] == rows[2] and "error" not in rows[0]


@pytest.mark.parametrize("command", ["ask", "eval", "align", "align-inventory", "export"])
def test_an_output_naming_a_folder_is_an_error_and_a_missing_folder_is_created(
    herb: Path, small_store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """One contract for --out / --results in every command: missing parent folders are created; a folder is
    refused before any work is done."""
    qa = tmp_path / "qa"
    qa.mkdir()
    (qa / "answerable.jsonl").write_text(
        json.dumps(
            {
                "product": SOURCE,
                "type": "person",
                "ground_truth": [],
                "question": f"Who wrote the Market Research Report for {SOURCE}?",
            }
        )
        + "\n"
    )
    (tmp_path / "in.jsonl").write_text(
        json.dumps({"question": f"Who wrote the Market Research Report for {SOURCE}?"}) + "\n"
    )
    erb = erb_sample(tmp_path)
    argv = {
        "ask": ["ask", "--batch", tmp_path / "in.jsonl", "--store", small_store, "--out"],
        "eval": ["eval", "--qa", qa, "--no-baseline", "--store", small_store, "--results"],
        "align": ["align", "--erb", erb, "--out"],
        "align-inventory": ["align", "--erb", erb, "--inventory", "--out"],
        "export": ["export", "--store", small_store, "--out"],
    }[command]
    code, _, err = run(capsys, *argv, tmp_path)
    assert (
        code == 2
        and err == f"kg: error: {tmp_path} is a folder, not a file to write; name a file (in it, or elsewhere)\n"
    )
    target = tmp_path / "new" / "deeper" / "out.txt"
    code, _, err = run(capsys, *argv, target)
    assert code == 0 and "Traceback" not in err and target.stat().st_size > 0
    blocked = tmp_path / "in.jsonl" / "out.txt"
    code, _, err = run(capsys, *argv, blocked)
    assert code == 2 and "is a file, not a folder" in err


def erb_sample(tmp_path: Path) -> Path:
    """Two small ERB sources, copied from the shared sample (skipped when it is absent)."""
    shared = require_erb()
    erb = tmp_path / "erb"
    for source in ("jira", "linear"):
        (erb / source).mkdir(parents=True, exist_ok=True)
        for file in sorted((shared / source).glob("*.json"))[:12]:
            shutil.copy(file, erb / source / file.name)
    return erb


def test_align_skips_deeply_nested_erb_files_and_aligns_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    erb = erb_sample(tmp_path)
    code, clean, _ = run(capsys, "align", "--erb", erb)
    (erb / "jira" / "deep.json").write_text('{"title": "x", "body": ' + "[" * 100_000 + "]" * 100_000 + "}")
    (erb / "linear" / "surrogate.json").write_text('{"title": "\\udc00"}')
    code_d, deep, err = run(capsys, "align", "--erb", erb)
    assert code == code_d == 0 and "Traceback" not in err
    assert f"{erb / 'jira' / 'deep.json'}: skipped, JSON nested too deeply to read" in err
    assert f"{erb / 'linear' / 'surrogate.json'}: skipped, a string in it is not valid Unicode" in err
    rows = [line for line in deep.splitlines() if not line.startswith("#")]
    assert rows == [line for line in clean.splitlines() if not line.startswith("#")]


@pytest.mark.parametrize("content", [b"# a README\n\nsome text\n", b"a\tb\n1\t2\n", b"not: [yaml", b"\x00\xff" * 50])
def test_align_reference_that_is_not_sssom_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    erb = erb_sample(tmp_path)
    reference = tmp_path / "ref.tsv"
    reference.write_bytes(content)
    code, out, err = run(capsys, "align", "--erb", erb, "--reference", reference)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.splitlines()[-1].startswith(f"kg: error: {reference}: not an SSSOM/TSV mapping set")


def test_flatten_walks_a_record_nested_thousands_deep() -> None:
    """Deep but parseable records (built here, past any parser) flatten without recursion."""
    from alignment.fields import flatten

    value: object = "leaf"
    for _ in range(5000):
        value = {"a": [value]}
    out: dict[str, list[str]] = {}
    flatten({"title": "t", "x": value}, "", out)
    assert out["title"] == ["t"] and out["x" + ".a" * 5000] == ["leaf"]


def test_every_field_the_mapping_reads_has_a_declared_type() -> None:
    """FIELD_TYPES (kg/ingest/herb.py) is what keeps wrong types out of the mapping: a field added to
    mappings/herb.yaml without a type there would reach the mapping unchecked."""
    import yaml

    from kg.ingest.herb import FIELD_TYPES
    from kg.ingest.mapping import MAPPING_FILE

    artifacts = yaml.safe_load(MAPPING_FILE.read_text(encoding="utf-8"))["artifacts"]
    for kind, spec in artifacts.items():
        read = {*spec.get("fields", {})} | {
            f["node_label"] for f in spec.get("fields", {}).values() if "node_label" in f
        }
        for name, child in (spec.get("children") or {}).items():
            read |= {name, f"{name}[]"} | {f"{name}[].{path}" for path in child.get("fields", {})}
        prefixes = {".".join(path.split(".")[:n]) for path in read for n in range(1, path.count(".") + 2)}
        assert prefixes <= set(FIELD_TYPES[kind]), (kind, sorted(prefixes - set(FIELD_TYPES[kind])))
