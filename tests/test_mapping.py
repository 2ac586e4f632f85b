"""The declarative mapping (mappings/herb.yaml) as the interpreter executes it, on records written here."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode

from kg.errors import KGError
from kg.ingest.mapping import as_list, load_mapping, map_artifact
from kg.namespaces import ID, expand

P = NamedNode(ID + "product/Demo")


def triples(quads) -> set[tuple[str, str, str]]:
    return {(q.subject.value, q.predicate.value, q.object.value) for q in quads}


def test_slack_message_maps_author_channel_text_and_id() -> None:
    rec = {
        "id": "20260101-0-abcde",
        "Channel": {"name": "planning-Demo", "channelID": "ch-1"},
        "Message": {"User": {"userId": "eid_12345678", "timestamp": "2026-01-01T10:00:00", "text": "hi"}},
    }
    got = triples(map_artifact(load_mapping(), "slack", rec, P))
    msg = ID + "artifact/20260101-0-abcde"
    assert (msg, expand("rdf:type"), expand("ekg:SlackMessage")) in got
    assert (msg, expand("prov:wasAttributedTo"), ID + "person/eid_12345678") in got
    assert (msg, expand("ekg:inChannel"), ID + "channel/ch-1") in got
    assert (ID + "channel/ch-1", expand("rdfs:label"), "planning-Demo") in got
    assert (msg, expand("dct:identifier"), "20260101-0-abcde") in got
    assert (msg, expand("ekg:aboutProduct"), P.value) in got


def test_pr_logins_that_are_not_eids_stay_distinct_accounts() -> None:
    rec = {
        "id": "github_com_a_b_pull_1",
        "link": "https://github.com/a/b/pull/1",
        "title": "t",
        "number": "1",
        "merged": "True",
        "user": {"login": "EMP_42"},
        "reviews": [{"state": "APPROVED", "user": {"login": "eid_0000abcd"}, "comment": "ok"}],
    }
    quads = list(map_artifact(load_mapping(), "prs", rec, P))
    got = triples(quads)
    pr = ID + "artifact/github_com_a_b_pull_1"
    assert (pr, expand("prov:wasAttributedTo"), ID + "account/EMP_42") in got
    review = ID + "review/github_com_a_b_pull_1/0"
    assert (review, expand("ekg:reviewOf"), pr) in got
    assert (review, expand("ekg:reviewer"), ID + "person/eid_0000abcd") in got
    assert (review, expand("ekg:reviewState"), expand("ekg:Approved")) in got
    merged = [q.object for q in quads if q.predicate.value == expand("ekg:merged")]
    assert merged == [Literal("true", datatype=NamedNode(expand("xsd:boolean")))]


def test_document_kind_is_looked_up_and_participants_are_split() -> None:
    doc = {"id": "d1", "content": "x", "type": "System Design Document", "author": "eid_00000001"}
    got = triples(map_artifact(load_mapping(), "documents", doc, P))
    assert (ID + "artifact/d1", expand("ekg:documentKind"), expand("ekg:SystemDesignDocument")) in got
    meeting = {"id": "m1", "transcript": "t", "participants": "['eid_00000001', 'eid_00000002']"}
    got = triples(map_artifact(load_mapping(), "meeting_transcripts", meeting, P))
    people = {o for s, p, o in got if p == expand("ekg:participant")}
    assert people == {ID + "person/eid_00000001", ID + "person/eid_00000002"}


def test_as_list_reads_list_literals_and_keeps_plain_strings() -> None:
    assert as_list("['a', 'b']") == ["a", "b"]
    assert as_list("[not a list") == ["[not a list"]
    assert as_list(["x"]) == ["x"]


def test_malformed_mapping_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "m.yaml"
    bad.write_text("artifacts:\n  slack:\n    fields:\n      x: {property: ekg:y}\norganisation: {}\n")
    with pytest.raises(KGError, match="section 'slack' is malformed"):
        load_mapping(bad)
    bad.write_text("artifacts: [unclosed")
    with pytest.raises(KGError, match="cannot read mapping"):
        load_mapping(bad)


def test_accounts_are_typed_where_used_and_people_are_not_retyped() -> None:
    rec = {
        "id": "pr1",
        "link": "https://github.com/a/b/pull/2",
        "user": {"login": "EMP_7"},
        "reviews": [{"state": "PENDING", "user": {"login": "eid_0000abcd"}}],
    }
    got = triples(map_artifact(load_mapping(), "prs", rec, P))
    assert (ID + "account/EMP_7", expand("rdf:type"), expand("ekg:Account")) in got
    assert not any(s == ID + "person/eid_0000abcd" and p == expand("rdf:type") for s, p, _ in got)
