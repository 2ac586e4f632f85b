"""Document rules on a small product written here: versions, reviews, attendees, suggestions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kg.ingest.herb import Organisation, Product
from kg.ingest.rules import RuleContext, run_rules
from kg.ingest.rules.documents import feedback_items, revision_pairs, suggestion_text, version_status
from kg.namespaces import ID, expand

DOC = "https://sf-internal.slack.com/archives/docs/"
PEOPLE = {
    "eid_00000001": ("Alice Author", "Product Manager"),
    "eid_00000002": ("Bob Builder", "Engineering Lead"),
    "eid_00000003": ("Quinn Tester", "QA Specialist"),
    "eid_00000004": ("Ian Miller", "UX Researcher"),
    "eid_00000005": ("Ian Miller", "QA Specialist"),
    "eid_00000006": ("Silent Sam", "Marketing Manager"),
}


def slack(mid: str, text: str, ts: str, user: str, channel: str = "planning-Demo") -> dict[str, Any]:
    return {
        "id": mid,
        "Channel": {"name": channel, "channelID": f"ch-{channel}"},
        "Message": {"User": {"userId": user, "timestamp": ts, "text": text, "utterranceID": mid}},
        "ThreadReplies": [],
    }


def doc(doc_id: str, date: str, feedback: str | None = None) -> dict[str, Any]:
    rec = {
        "id": doc_id,
        "content": "c",
        "type": "Market Research Report",
        "author": "eid_00000001",
        "date": date,
        "document_link": DOC + doc_id,
    }
    return {**rec, "feedback": feedback} if feedback else rec


TRANSCRIPT = """Attendees
Bob Builder, Ian Miller, Ian Miller, Silent Sam, Nobody Known
Transcript
Alice Author: Team, I wanted to get your feedback or suggestions on the Market Research Report.
Bob Builder: Thanks, Alice. I think we should add a section on pricing tiers.
Ian Miller: Maybe we could include a competitor comparison table.
Alice Author: Great points, I'll update the document."""


def context() -> RuleContext:
    artifacts = {
        "slack": [
            slack(
                "20260101-0-aaaaa",
                f"Hi team, I've shared the <{DOC}demo_mrr|Market Research Report>. Let's discuss!",
                "2026-01-01T10:00:00",
                "eid_00000001",
            ),
            slack(
                "20260101-1-bbbbb",
                "Thanks for sharing, Alice! It might be helpful to add market size "
                "data to the Overview section. This could strengthen the case. 😊",
                "2026-01-01T10:01:00",
                "eid_00000002",
            ),
            slack(
                "20260102-7-zzzzz",
                "@here Read this unrelated article https://example.com/a",
                "2026-01-01T10:01:30",
                "eid_00000006",
            ),
            slack(
                "20260101-2-ccccc",
                "Sounds like a solid plan! Looking forward to it. 👍",
                "2026-01-01T10:02:00",
                "eid_00000003",
            ),
            slack("20260101-3-ddddd", "Thanks everyone, I'll add the data.", "2026-01-01T10:03:00", "eid_00000001"),
            slack(
                "20260101-0-eeeee",
                f"Here is the updated <{DOC}final_demo_mrr|Market Research Report>",
                "2026-01-01T18:00:00",
                "eid_00000001",
            ),
        ],
        "documents": [
            doc("demo_mrr", "2026-01-01T09:00:00"),
            doc("final_demo_mrr", "2026-01-01T17:00:00", "- Add market size data.\n- **Overview**: x"),
            doc("latest_demo_mrr", "2026-01-05T09:00:00"),
        ],
        "meeting_transcripts": [
            {
                "id": "Demo_planning_1",
                "transcript": TRANSCRIPT,
                "date": "2026-01-03T09:00:00",
                "document_type": "Market Research Report",
                "participants": ["eid_00000002", "eid_00000004", "eid_00000005", "eid_00000006"],
            }
        ],
        "meeting_chats": [
            {"id": "Demo_planning_1_chat", "text": f"2026-01-03T09:00:00\nAlice Author: {DOC}final_demo_mrr"}
        ],
    }
    product = Product("Demo", Path("Demo.json"), list(PEOPLE), [], artifacts)
    org = Organisation({e: {"employee_id": e, "name": n, "role": r} for e, (n, r) in PEOPLE.items()}, {}, [])
    return RuleContext(product, org)


def edges(rules: list[str]) -> set[tuple[str, str, str]]:
    return {(q.subject.value, q.predicate.value, q.object.value) for q in run_rules(context(), rules)}


def objects(got: set[tuple[str, str, str]], subject: str, prop: str) -> set[str]:
    return {o for s, p, o in got if s == subject and p == expand(prop)}


def art(i: str) -> str:
    return ID + "artifact/" + i


def person(eid: str) -> str:
    return ID + "person/" + eid


@pytest.mark.parametrize(
    ("doc_id", "status"),
    [
        ("x_market_research_report", "ekg:Draft"),
        ("final_x_market_research_report", "ekg:Final"),
        ("x_market_research_report_final", "ekg:Final"),
        ("latest_x_market_research_report", "ekg:Latest"),
        ("new_x_market_research_report", "ekg:Revised"),
    ],
)
def test_version_status_from_id_marker(doc_id: str, status: str) -> None:
    assert version_status(doc_id) == status


def test_versions_and_revision_chain_by_date() -> None:
    got = edges(["document-versions"])
    assert objects(got, art("final_demo_mrr"), "ekg:versionStatus") == {expand("ekg:Final")}
    assert objects(got, art("final_demo_mrr"), "prov:wasRevisionOf") == {art("demo_mrr")}
    assert objects(got, art("latest_demo_mrr"), "prov:wasRevisionOf") == {art("final_demo_mrr")}
    assert objects(got, art("demo_mrr"), "prov:wasRevisionOf") == set()
    assert revision_pairs([]) == []


def test_slack_review_is_the_chained_conversation_without_interleaved_messages() -> None:
    got = edges(["document-discussions"])
    review = ID + "docreview/Demo/20260101-0-aaaaa"
    assert objects(got, review, "ekg:reviewedDocument") == {art("demo_mrr")}
    assert objects(got, review, "ekg:reviewedBy") == {
        person("eid_00000001"),
        person("eid_00000002"),
        person("eid_00000003"),
    }
    assert objects(got, review, "prov:wasDerivedFrom") == {
        art(i) for i in ("20260101-0-aaaaa", "20260101-1-bbbbb", "20260101-2-ccccc", "20260101-3-ddddd")
    }
    assert not any(s.endswith("20260101-0-eeeee") for s, _, _ in got)  # sharing a final is not a review


def test_meeting_review_resolves_speakers_and_keeps_shared_names_as_candidates() -> None:
    got = edges(["document-meetings"])
    review = ID + "docreview/Demo/Demo_planning_1"
    assert objects(got, review, "ekg:reviewedDocument") == {art("final_demo_mrr")}
    # the presenter is not a participant but carries the document author's name
    assert objects(got, review, "ekg:reviewedBy") == {person("eid_00000001"), person("eid_00000002")}
    assert objects(got, review, "ekg:candidateReviewer") == {person("eid_00000004"), person("eid_00000005")}
    assert objects(got, art("Demo_planning_1"), "ekg:ambiguousName") == {"Ian Miller"}
    sources = {art("Demo_planning_1"), art("Demo_planning_1_chat")}
    assert objects(got, review, "prov:wasDerivedFrom") == sources


def test_attendees_resolved_within_roster_and_ambiguous_names_recorded() -> None:
    got = edges(["meeting-attendees"])
    assert objects(got, art("Demo_planning_1"), "ekg:attendee") == {person("eid_00000002"), person("eid_00000006")}
    assert objects(got, art("Demo_planning_1"), "ekg:ambiguousName") == {"Ian Miller"}


def test_suggestions_by_non_authors_with_their_change_only() -> None:
    got = edges(["document-suggestions"])
    slack_s = ID + "suggestion/Demo/20260101-1-bbbbb"
    assert objects(got, slack_s, "ekg:suggestedBy") == {person("eid_00000002")}
    assert objects(got, slack_s, "ekg:suggestionOn") == {art("demo_mrr")}
    assert objects(got, slack_s, "ekg:text") == {"Add market size data to the Overview section."}
    assert objects(got, slack_s, "prov:wasDerivedFrom") == {art("20260101-1-bbbbb")}
    subjects = {s for s, _, _ in got}
    assert ID + "suggestion/Demo/20260101-2-ccccc" not in subjects  # "Sounds like a solid plan!"
    assert ID + "suggestion/Demo/20260101-3-ddddd" not in subjects  # the author's own reply
    meeting_s = ID + "suggestion/Demo/Demo_planning_1/1"
    assert objects(got, meeting_s, "ekg:text") == {"Add a section on pricing tiers."}
    assert objects(got, meeting_s, "ekg:suggestedBy") == {person("eid_00000002")}
    assert ID + "suggestion/Demo/Demo_planning_1/2" not in subjects  # ambiguous speaker: nobody is credited


def test_feedback_bullets_are_suggestions_on_the_revised_version() -> None:
    got = edges(["document-feedback"])
    first = ID + "suggestion/Demo/final_demo_mrr/feedback/0"
    assert objects(got, first, "ekg:suggestionOn") == {art("demo_mrr")}
    assert objects(got, first, "ekg:suggestedBy") == set()
    assert feedback_items("- Add x.\n\n- **Scope**: y\n") == ["Add x.", "Scope: y"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Good point, @eid_12345678. Also, in the Product Description section, it might be beneficial to "
            "elaborate on the algorithms.",
            "In the Product Description section, elaborate on the algorithms.",
        ),
        (
            "I agree with Hannah. Adding more technical details could strengthen the report.",
            "Adding more technical details could strengthen the report.",
        ),
        ("Thanks, Julia! Let us know if you need any more input. 😊", ""),
        ("What do you think, @eid_9f1ff493?", ""),
        (
            "Hey team, I think the User Interface section could benefit from more details on collaboration.",
            "The User Interface section could benefit from more details on collaboration.",
        ),
        (
            "Add details about user testing to the Objectives section. It shows we have evidence to back it up.",
            "Add details about user testing to the Objectives section.",
        ),
    ],
)
def test_suggestion_text_keeps_the_change_and_drops_pleasantries(text: str, expected: str) -> None:
    assert suggestion_text(text) == expected


def test_the_host_presenting_the_document_is_its_author_not_a_participant_namesake() -> None:
    ctx = context()
    namesake = "eid_00000007"
    ctx.org.employees[namesake] = {"employee_id": namesake, "name": "Alice Author", "role": "Sales Engineer"}
    ctx.product.team.append(namesake)
    ctx.records("meeting_transcripts")[0]["participants"].append(namesake)
    got = {(q.subject.value, q.predicate.value, q.object.value) for q in run_rules(ctx, ["document-meetings"])}
    review = ID + "docreview/Demo/Demo_planning_1"
    assert person("eid_00000001") in objects(got, review, "ekg:reviewedBy")
    assert person(namesake) not in objects(got, review, "ekg:reviewedBy")
    suggested = {(q.subject.value, q.object.value) for q in run_rules(ctx, ["document-suggestions"])}
    assert not any(o == person(namesake) for _, o in suggested)  # the host's own lines are no suggestions
