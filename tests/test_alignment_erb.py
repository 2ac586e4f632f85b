"""Alignment of the real ERB sample: valid SSSOM (sssom-py's validator and CLI), the CLI, reference scores."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import erb_data
from sssom.parsers import parse_sssom_table

from alignment.evaluate import reference_frame, score_table
from alignment.fields import SOURCES
from alignment.pipeline import Alignment, align
from alignment.sssom_io import mapping_set, validation_errors, write
from alignment.workflow import select_mappings
from kg.cli import main

ERB = erb_data() or Path("ERB_DATA-not-set")  # the erb marker skips (or fails) every test when it is absent
REFERENCE = Path(__file__).parent / "data" / "erb_reference.sssom.tsv"
# Curated blind (the curator never saw the matcher or its output) for 6 other source pairs; never edited to fit
# the output, so its hash is pinned.
BLIND_REFERENCE = Path(__file__).parent / "data" / "erb_blind_reference.sssom.tsv"
BLIND_SHA256 = "a0e12b1a061fdefa4f2bd8972aa62015518ffc8817484e9dd898dbf58579967a"
SSSOM_CLI = Path(sys.executable).parent / "sssom"
REQUIRED = [
    "subject_id",
    "predicate_id",
    "object_id",
    "mapping_justification",
    "confidence",
    "similarity_score",
    "similarity_measure",
    "mapping_tool",
    "mapping_tool_version",
    "comment",
    "mapping_cardinality",
]

pytestmark = pytest.mark.erb


@pytest.fixture(scope="module")
def result() -> Alignment:
    return align(ERB, target=True)


def test_all_nine_sources_and_36_pairs_align(result: Alignment):
    assert sorted(result.profiles["source"].unique()) == sorted(SOURCES)
    assert len(result.pairs) == 36
    assert (result.pairs["greedy"] > 0).all()


def test_bookkeeping_fields_are_not_schema_elements(result: Alignment):
    fields = set(result.profiles["field"])
    assert not fields & {"dataset_doc_uuid", "title_field_name", "content_field_names", "original_location"}


def test_within_source_aliases_are_pooled(result: Alignment):
    members = result.profiles.set_index(["source", "field"])["members"]
    assert set(members[("confluence", "content")]) == {"body", "content"}
    assert {"text", "messages"} <= set(members[("slack", "text")])


def test_output_passes_sssom_validation(result: Alignment, tmp_path: Path):
    msdf = mapping_set(result.mappings["greedy"].drop(columns="method"), "test run")
    assert validation_errors(msdf) == []
    out = tmp_path / "erb.sssom.tsv"
    write(msdf, out)
    run = subprocess.run([str(SSSOM_CLI), "validate", str(out)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-2000:]


def test_the_selection_kg_align_writes_is_validated_and_streams_as_it_files(result: Alignment, tmp_path: Path):
    """`select_mappings` is the library call behind `kg align`: greedy rows plus the ontology rows, validated;
    sssom-py's writer for each format gives the same text to a stream as to a file."""
    chosen = select_mappings(result, "greedy", ERB)
    assert len(chosen.rows) == len(result.mappings["greedy"]) + len(result.target)
    assert validation_errors(chosen.mapping_set) == []
    for fmt in ("tsv", "json"):
        out, stream = tmp_path / f"erb.{fmt}", io.StringIO()
        write(chosen.mapping_set, out, fmt)
        write(chosen.mapping_set, stream, fmt)
        assert stream.getvalue() == out.read_text(encoding="utf-8") and stream.getvalue()
    with pytest.raises(ValueError, match="unknown SSSOM format"):
        write(chosen.mapping_set, io.StringIO(), "csv")


def test_every_row_has_the_required_columns_and_metadata(result: Alignment, tmp_path: Path):
    """Values every row shares (the measure, the tool) are written once, in the metadata block, and SSSOM
    propagates them back to every row on reading; the set says who made it, its version and what the numbers
    mean; each row says why its predicate is exact, close or related; `sssom convert` reads it."""
    msdf = mapping_set(result.mappings["greedy"].drop(columns="method"), "test run")
    out = tmp_path / "erb.sssom.tsv"
    write(msdf, out)
    text = out.read_text()
    header = next(line for line in text.splitlines() if not line.startswith("#")).split("\t")
    assert "similarity_measure" not in header and text.count("weighted mean of instance evidence") == 1
    read = parse_sssom_table(out)
    assert set(REQUIRED) <= set(read.df.columns)  # propagated from the metadata block
    assert read.df["similarity_measure"].str.startswith("weighted mean of instance evidence").all()
    meta = read.metadata
    assert meta["mapping_set_id"].startswith("https://") and meta["license"].startswith("https://")
    assert "mapping_date" in msdf.metadata and meta["mapping_set_version"] == msdf.metadata["mapping_set_version"]
    assert meta["creator_id"] == ["w3ekg:toolkit/kg-align"]
    assert "confidence: the instance evidence alone" in meta["comment"] and "similarity_score: " in meta["comment"]
    assert set(SOURCES) <= set(msdf.converter.prefix_map)
    df = read.df
    assert df[REQUIRED].notna().all().all()
    assert set(df["predicate_id"]) <= {"skos:exactMatch", "skos:closeMatch", "skos:relatedMatch"}
    assert set(df["mapping_justification"]) <= {"semapv:InstanceBasedMatching", "semapv:CompositeMatching"}
    why = {"skos:exactMatch": "exact: ", "skos:closeMatch": "close, not exact: ", "skos:relatedMatch": "related only: "}
    assert all(c.startswith(why[p]) for p, c in zip(df["predicate_id"], df["comment"], strict=True))
    assert {"skos:exactMatch", "skos:closeMatch", "skos:relatedMatch"} == set(df["predicate_id"])
    converted = tmp_path / "erb.sssom.json"
    done = subprocess.run(
        [str(SSSOM_CLI), "convert", str(out), "--output-format", "json", "-o", str(converted)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    as_json = json.loads(converted.read_text())
    assert len(as_json["mappings"]) == len(df) and as_json["creator_id"] == ["w3ekg:toolkit/kg-align"]


def test_known_correspondences_are_found(result: Alignment):
    found = set(zip(result.mappings["greedy"].subject_id, result.mappings["greedy"].object_id, strict=True))
    for pair in [
        ("jira:assignee", "linear:assignee"),
        ("jira:reporter", "linear:creator"),
        ("jira:summary", "linear:title"),
        ("jira:created_at", "linear:created_at"),
        ("gmail:first_email_at", "slack:first_message_ts"),
    ]:
        assert pair in found


def test_reference_scores(result: Alignment):
    """The greedy exact-match F1 against the curated reference (12 source pairs), on all of them and on the
    pairs held out from tuning (measured 0.951 and 0.972; floors 0.05 below, and the issue's 0.9)."""
    table = score_table(result.mappings, reference_frame(REFERENCE)).set_index(["split", "method", "scope"])
    assert table.loc[("all", "greedy", "exact"), "reference"] == 92
    assert table.loc[("all", "greedy", "exact"), "f1"] >= 0.9  # the target
    assert table.loc[("held-out", "greedy", "exact"), "f1"] >= 0.92


def test_blind_reference_scores(result: Alignment):
    """The blind reference (6 source pairs the matcher was never tuned on): greedy, top-1 and Hungarian
    exact-match F1 measured 0.946 each; the floor is 0.05 below, so a regression shows."""
    assert hashlib.sha256(BLIND_REFERENCE.read_bytes()).hexdigest() == BLIND_SHA256
    reference = reference_frame(BLIND_REFERENCE)
    table = score_table(result.mappings, reference).set_index(["split", "method", "scope"])
    assert set(table.index.get_level_values("split")) == {"all", "held-out"}  # no tune pair in it
    assert table.loc[("all", "greedy", "exact"), "reference"] == 39
    for method in ("greedy", "top1", "hungarian"):
        assert table.loc[("all", method, "exact"), "f1"] >= 0.89
    assert table.loc[("all", "greedy", "any"), "f1"] >= 0.65


def test_every_pair_of_declared_bodies_is_an_exact_match(result: Alignment):
    """Issue #5: "every body". Each source has one body (the group its export declares as content in the most
    records); over all 36 source pairs the two bodies are selected and called skos:exactMatch."""
    profiles = result.profiles
    bodies = profiles[profiles["body_share"] == 1.0]
    assert sorted(bodies["source"]) == sorted(SOURCES)  # one body per source
    assert set(bodies.set_index("source")["field"].items()) >= {("fireflies", "transcript"), ("hubspot", "notes")}
    greedy = result.mappings["greedy"]
    keys = {f"{s}:{m}" for s, members in zip(bodies["source"], bodies["members"], strict=True) for m in members}
    rows = greedy[greedy["subject_id"].isin(keys) & greedy["object_id"].isin(keys)]
    pairs = {(s.split(":")[0], o.split(":")[0]) for s, o in zip(rows.subject_id, rows.object_id, strict=True)}
    assert len(pairs) == 36
    assert (rows["predicate_id"] == "skos:exactMatch").all()


def test_target_ontology_rows(result: Alignment):
    rows = result.target.set_index("subject_id")["object_id"]
    assert rows["jira:summary"] == "dct:title"
    assert rows["confluence:created_at"] == "dct:created"
    assert rows["jira:assignee"] == "ekg:assignee"
    assert rows["linear:creator"] == "prov:wasAttributedTo"
    assert rows["github:state"] == "ekg:status"  # the plain name ranks above the qualified ci_status
    assert rows["jira:updated_at"] == "dct:modified"
    assert {rows["jira:linked_issues"], rows["jira:related_github_prs"]} == {"dct:references"}  # n:1 allowed
    assert rows["jira:priority"] == "sssom:NoTermFound"  # a field no property fits is listed, not dropped
    assert rows["slack:channel"] == "dct:title"  # the export declares it the title, whatever its format


def test_cli_writes_valid_sssom_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    out = tmp_path / "erb.sssom.json"
    code = main(["align", "--erb", str(ERB), "--sources", "jira,linear", "--format", "json", "--out", str(out)])
    assert code == 0
    data = json.loads(out.read_text())
    assert data["mapping_set_id"].startswith("https://")
    assert any(m["subject_id"] == "jira:assignee" for m in data["mappings"])
    assert "jira" in capsys.readouterr().err  # the per-pair summary


def test_cli_inventory(capsys: pytest.CaptureFixture[str]):
    assert main(["align", "--erb", str(ERB), "--sources", "slack", "--inventory"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t")[:3] == ["source", "field", "records"]
    assert any(line.startswith("slack\tchannel\t22\t") for line in lines)


def test_cli_missing_folder_is_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["align", "--erb", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "ERB data not found" in err and "Traceback" not in err


def test_cli_single_source_is_a_clear_error(capsys: pytest.CaptureFixture[str]):
    assert main(["align", "--erb", str(ERB), "--sources", "jira"]) == 2
    assert "need at least two sources" in capsys.readouterr().err


@pytest.mark.parametrize("reference", [REFERENCE, BLIND_REFERENCE], ids=["curated", "blind"])
def test_reference_itself_is_valid_sssom(reference: Path):
    run = subprocess.run([str(SSSOM_CLI), "validate", str(reference)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
