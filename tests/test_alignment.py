"""Instance-based field alignment: discovery, profiles, selection methods and bad input (synthetic data)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from alignment.fields import Record, flatten, inventory, load_corpus
from alignment.pipeline import align, predicate
from alignment.profile import (
    field_format,
    normalise,
    primary_body,
    source_profiles,
    time_positions,
    value_format,
    value_shape,
)
from alignment.select import greedy, hungarian, top1
from alignment.similarity import name_equivalences, name_similarity

PEOPLE = ["Ava Chen", "Marco Silva", "Lena Park", "Diego Ruiz", "Samir Patel", "Maya Lee", "Noah Kim"]
STATES = ["open", "in progress", "done"]


def write_json(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def tracker_record(i: int, names: dict[str, str]) -> dict:
    """A ticket whose keys are renamed per source: the values, not the names, have to carry the match."""
    return {
        names["title"]: f"Fix the {['cache', 'router', 'billing', 'login'][i % 4]} bug number {i}",
        names["person"]: PEOPLE[i % len(PEOPLE)],
        names["created"]: f"2025-0{1 + i % 8}-1{i % 10}",
        names["updated"]: f"2025-0{2 + i % 8}-2{i % 10}",
        names["state"]: STATES[i % 3],
        names["tags"]: ["backend", "sre"] if i % 2 else ["frontend"],
        "title_field_name": names["title"],
        "content_field_names": [],
        "dataset_doc_uuid": f"dsid_{names['title']}_{i}",
    }


ALPHA = {
    "title": "title",
    "person": "assignee",
    "created": "created_at",
    "updated": "updated_at",
    "state": "status",
    "tags": "labels",
}
BETA = {
    "title": "summary",
    "person": "owner",
    "created": "opened",
    "updated": "modified",
    "state": "stage",
    "tags": "topics",
}


@pytest.fixture
def erb(tmp_path: Path) -> Path:
    """Two well-formed sources whose field names share nothing, plus every kind of bad input."""
    for i in range(8):
        write_json(tmp_path / "alpha" / f"a{i}.json", tracker_record(i, ALPHA))
        write_json(tmp_path / "beta" / f"b{i}.json", tracker_record(i + 3, BETA))
    (tmp_path / "empty").mkdir()
    (tmp_path / "beta" / "broken.json").write_text('{"summary": "unterminated', encoding="utf-8")
    write_json(tmp_path / "beta" / "list.json", [1, 2, 3])
    for i in range(3):
        write_json(tmp_path / "solo" / f"s{i}.json", {"only": f"value {i}"})
    return tmp_path


def test_flatten_gives_dotted_paths_for_nested_objects_and_lists_of_objects():
    out: dict[str, list[str]] = {}
    flatten({"a": {"b": 1, "c": [{"d": "x"}, {"d": "y"}]}, "e": [True, "z"]}, "", out)
    assert out == {"a.b": ["1"], "a.c.d": ["x", "y"], "e": ["true", "z"]}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("ava.chen@redwood.ai", "email"),
        ("Samira Patel <samira.patel@openhealth.co>", "person name"),
        ("2025-01-28T10:00:00-08:00", "datetime"),
        ("1699991234", "datetime"),
        ("2025-02-14", "date"),
        ("https://github.com/x/y/pull/1", "URL"),
        ("Ava Chen (CEO)", "person name"),
        ("612", "number"),
        ("false", "boolean"),
        ("INT-331", "code"),
        ("2026-02-06 (Dev Patel): creating this as a blocker", "short text"),
        ("2026-06", "month"),
        ("Northstar Bank", "organisation"),
        ("FinApps Inc", "organisation"),
        ("QuantaPlane", "organisation"),
    ],
)
def test_value_format(value: str, expected: str):
    assert value_format(value) == expected


@pytest.mark.parametrize(
    ("value", "shape"),
    [("SUP-100012", "A-9"), ("C0123ABC", "A9A"), ("1712345678.123456", "9.9"), ("Ava Chen", "Aa Aa")],
)
def test_value_shape_is_the_character_class_signature(value: str, shape: str):
    assert value_shape(value) == shape


def test_time_positions_order_by_instant_and_count_one_instant_once():
    """Slack keeps a thread's ts twice (thread_ts = first_message_ts); the last message is minutes later on
    the same day, so it must still rank last, and the duplicated instant ranks first, not in the middle."""
    record = Record(
        Path("x.json"),
        {"thread_ts": ["1699991234"], "first_ts": ["1699991234"], "last_ts": ["1699991600"]},
    )
    positions = time_positions([record], dict.fromkeys(record.values, "datetime"))
    assert positions["last_ts"] == (1.0, 0.0)
    assert positions["first_ts"] == positions["thread_ts"] == (0.0, 1.0)


def meeting(i: int, content: tuple[str, ...], extra: dict[str, str] | None = None) -> Record:
    """A meeting record whose export lists `content` as its body fields, in that order."""
    values = {f: [f"{f} text of meeting {i}, long enough to read as prose"] for f in content}
    values.update({k: [v] for k, v in (extra or {}).items()})
    return Record(Path(f"m{i}.json"), values, "title", content)


def test_primary_body_is_the_group_declared_content_most_often_not_the_first_listed():
    """`summary` is listed first in half the records, `transcript` is content in all of them: the transcript
    is the source's body in every record, the summary only content."""
    records = [meeting(i, ("summary", "transcript") if i % 2 else ("transcript",)) for i in range(8)]
    groups = {f: f for f in ("summary", "transcript")}
    assert primary_body(records, groups) == {"transcript"}
    rows = {r["field"]: r for r in source_profiles("fireflies", records, 2)}
    assert rows["transcript"]["body_share"] == 1.0
    assert rows["summary"]["body_share"] == 0.0 and rows["summary"]["content_share"] == 1.0


def test_a_key_standing_in_for_the_body_joins_it_and_a_co_occurring_one_does_not():
    """`crm_notes` holds the notes in the records without `notes` (never both): it is pooled with the body.
    `blockers` and `requirements` (listed first where the notes are missing) also occur next to `notes`, so
    they stay fields of their own."""
    records = [meeting(i, ("notes", "blockers")) for i in range(5)] + [meeting(5, ("requirements", "notes"))]
    records += [meeting(i, ("requirements", "blockers", "crm_notes")) for i in range(6, 8)]
    rows = {r["field"]: r for r in source_profiles("hubspot", records, 2)}
    assert rows["notes"]["members"] == ("crm_notes", "notes")
    assert rows["notes"]["body_share"] == 1.0
    assert rows["blockers"]["body_share"] == 0.0 and rows["requirements"]["body_share"] == 0.0


def test_no_declared_content_means_no_body():
    records = [Record(Path(f"r{i}.json"), {"title": [f"t {i}"], "status": ["open"]}, "title") for i in range(4)]
    assert primary_body(records, {"title": "title", "status": "status"}) == frozenset()


def test_repeated_short_values_are_an_enum_and_unique_codes_identifiers():
    assert field_format(Counter({"code": 20}), 3, 20)[0] == "enum"
    assert field_format(Counter({"code": 20}), 20, 20)[0] == "identifier"
    assert field_format(Counter({"person name": 21}), 5, 21)[0] == "enum"  # "In Progress", "Closed", ...


def test_normalise_unescapes_and_strips_roles_and_handles():
    assert normalise("Ava Chen (CEO)") == normalise("ava_chen") == "ava chen"
    assert normalise("line one\\nline two") == "line one line two"
    assert normalise("1699991234") == normalise("2023-11-14T19:47:14Z") == "2023 11 14"


def test_greedy_top1_and_hungarian_differ_as_documented():
    score = np.array([[0.9, 0.8], [0.85, 0.1]])
    eligible = score >= 0.5
    assert greedy(score, eligible) == [(0, 0)]  # best pair first, then row 1 has nothing eligible left
    assert sorted(hungarian(score, eligible)) == [(0, 1), (1, 0)]  # maximises the total, 1.65 > 0.9
    assert top1(score, eligible) == [(0, 0), (1, 0)]  # no 1-to-1 constraint: column 0 twice


CONSISTENT = {"format": 1.0, "role": 0.7, "list": 1.0, "dated": True, "informative": True, "specific": 0.3}


def test_predicate_calls_exact_from_evidence_strength():
    assert predicate(0.8, CONSISTENT, 10, mutual_best=False) == "skos:exactMatch"  # high score
    assert predicate(0.6, CONSISTENT, 10, mutual_best=True) == "skos:exactMatch"  # fair and mutual best
    assert predicate(0.6, CONSISTENT, 10, mutual_best=False) == "skos:closeMatch"  # fair, another fits better
    rare = {**CONSISTENT, "specific": 0.74}  # two organisation-name fields: few fields hold that format
    assert predicate(0.49, rare, 10, mutual_best=True) == "skos:exactMatch"
    assert predicate(0.49, {**CONSISTENT, "shared": 3}, 10, mutual_best=True) == "skos:relatedMatch"  # values meet
    assert predicate(0.49, CONSISTENT, 10, mutual_best=True) is None  # a low score alone is no relation
    flags = {**CONSISTENT, "informative": False}  # two boolean fields without agreeing names
    assert predicate(0.8, flags, 10, mutual_best=True) == "skos:closeMatch"
    assert predicate(0.8, {**CONSISTENT, "role": 0.4}, 10, mutual_best=True) == "skos:closeMatch"  # title vs body
    assert predicate(0.8, CONSISTENT, 2, mutual_best=True) == "skos:closeMatch"  # two records cannot show it


def test_name_similarity_reads_plurals_and_synonyms_and_credits_qualified_names():
    sim = name_similarity(pd.Series(["labels", "tags", "reporter", "author", "owner_team", "team", "assignee"]))
    assert sim[0, 1] == 1.0  # plural + lexicon: label = tag
    assert sim[2, 3] == 1.0  # who opened the record: reporter = author
    assert sim[4, 5] == 0.75  # Jaccard 0.5, overlap coefficient 1: a qualified name, not a different one
    assert sim[3, 6] == 0.0  # author and assignee are different roles
    assert name_equivalences("reporter", "author") == ["reporter = author"]
    assert name_equivalences("created_at", "created_at") == []


def test_a_synonym_name_cannot_carry_disagreeing_values(tmp_path: Path):
    """`author` and `reporter` are one word to the name evidence, but names vs counts stay apart; `tags` and
    `labels` with the same kind of values align, and the comment says which words were read as one."""
    for i in range(8):
        write_json(
            tmp_path / "alpha" / f"a{i}.json",
            {"author": PEOPLE[i % 7], "tags": ["backend", "sre"][: 1 + i % 2], "created_at": f"2025-01-1{i}"},
        )
        write_json(
            tmp_path / "beta" / f"b{i}.json",
            {"reporter": str(3 + i), "labels": ["frontend", "sre"][: 1 + i % 2], "created": f"2025-02-1{i}"},
        )
    found = align(tmp_path).mappings["greedy"].set_index("subject_id")
    assert found.loc["alpha:tags", "object_id"] == "beta:labels"
    assert "read as one word: tags = labels" in found.loc["alpha:tags", "comment"]
    assert "alpha:author" not in found.index


def test_bad_input_is_reported_by_file_and_the_rest_aligns(erb: Path):
    result = align(erb, ["alpha", "beta", "empty", "missing", "solo"])
    text = "\n".join(result.warnings)
    assert "broken.json: skipped, not valid JSON" in text
    assert "list.json: skipped, expected a JSON object but found list" in text
    assert f"{erb / 'empty'}: no usable records" in text
    assert f"{erb / 'missing'}: source folder missing" in text
    assert f"{erb / 'solo'}: only one field" in text
    pairs = set(zip(result.pairs.subject_source, result.pairs.object_source, strict=True))
    assert pairs == {("alpha", "beta"), ("alpha", "solo"), ("beta", "solo")}


def test_renamed_fields_align_by_their_values(erb: Path):
    found = align(erb, ["alpha", "beta"]).mappings["greedy"]
    got = set(zip(found.subject_id, found.object_id, strict=True))
    expected = {(f"alpha:{ALPHA[k]}", f"beta:{BETA[k]}") for k in ALPHA}
    assert expected <= got
    assert found["mapping_cardinality"].eq("1:1").all()
    row = found.set_index("subject_id").loc["alpha:assignee"]
    assert "both person name formatted" in row["comment"]
    assert row["mapping_justification"] == "semapv:InstanceBasedMatching"  # no name evidence at all


def test_inventory_counts_fields_and_marks_bookkeeping(erb: Path):
    table = inventory(load_corpus(erb, ["alpha"])).set_index("field")
    assert table.loc["assignee", "records"] == 8
    assert table.loc["labels", "multi_valued_records"] == 4
    assert table.loc["dataset_doc_uuid", "status"].startswith("excluded")
    assert table.loc["title", "status"] == "aligned"


def test_justification_says_what_the_row_rests_on(tmp_path: Path):
    """Flags agree on true/false whatever they flag, so two named alike rest on their names alone
    (semapv:LexicalMatching); tags whose values overlap and whose names agree, on both (CompositeMatching);
    renamed fields, on their values alone (InstanceBasedMatching)."""
    for i in range(8):
        flag = bool(i % 2)
        write_json(
            tmp_path / "alpha" / f"a{i}.json",
            {"is_blocked": flag, "tags": ["backend", "sre"][: 1 + i % 2], "owner": PEOPLE[i % 7]},
        )
        write_json(
            tmp_path / "beta" / f"b{i}.json",
            {"is_blocked": not flag, "labels": ["backend", "sre"][: 1 + i % 2], "assignee": PEOPLE[(i + 2) % 7]},
        )
    found = align(tmp_path).mappings["greedy"].set_index("subject_id")
    assert found.loc["alpha:is_blocked", "object_id"] == "beta:is_blocked"
    assert found.loc["alpha:is_blocked", "mapping_justification"] == "semapv:LexicalMatching"
    assert found.loc["alpha:tags", "mapping_justification"] == "semapv:CompositeMatching"
    assert found.loc["alpha:owner", "mapping_justification"] == "semapv:InstanceBasedMatching"
