"""Who reopened a bug (kg/ingest/rules/bugs.py `reopener`, read through kg/qa/ontology_reader.py), a bug named by
the title its later messages quote (sparql/title_scope.rq), a version of a document (kg/qa/described.py), the
words that rank rather than count or that ask for approvals given (kg/qa/lexicon.toml), who missed a meeting, and a
second condition no reading may drop, read on the real store.

The expected answers are the plain questions' on the same store, except where the artifacts settle them (quoted
beside each)."""

from __future__ import annotations

import pytest
from pyoxigraph import Literal

from kg.namespaces import expand
from kg.qa.answer import Answerer
from kg.qa.ontology_reader import Reader

#: AutoTuneForce: "the bug titled 'Insufficient Input Validation in Parameter API' has been reopened by CUST-0046"
#: (20270113-0-348db), a NextGenTech contact; the bug's report gives it another title.
REOPENED = "'Insufficient Input Validation in Parameter API'"


def test_the_customer_who_reopened_a_bug_is_its_reopener(answerer: Answerer) -> None:
    who = answerer.ask(f"Who reopened the {REOPENED} bug in AutoTuneForce?")
    assert who.outcome == "answer" and who.answer == ["CUST-0046"]
    assert "20270113-0-348db" in who.citations


@pytest.mark.parametrize(
    "question",
    [
        f"Which company reopened the {REOPENED} bug in AutoTuneForce?",
        f"The {REOPENED} bug got reopened - which company reopened it?",  # no product: the title names it
    ],
)
def test_the_company_that_reopened_a_bug(answerer: Answerer, question: str) -> None:
    got = answerer.ask(question)
    assert got.outcome == "answer" and got.answer == ["NextGenTech"], got.reason


def test_a_title_held_as_a_title_outranks_one_held_as_another_name(answerer: Answerer) -> None:
    """'Insecure Data Transmission Protocol' is a PersonalizeForce bug's title and a FeedbackForce bug's other
    name: the question about the PR that fixed the first stays in its product."""
    got = answerer.ask(
        "Which company reported the bug that PersonalizeForce PR 40 "
        "(https://github.com/salesforce/PersonalizeForce/pull/40) fixed?"
    )
    assert got.outcome == "answer" and got.answer == ["FusionTech"], got.reason


def test_a_version_of_a_document_is_any_of_them(answerer: Answerer) -> None:
    doc = "the PitchForce System Design Document"
    every = answerer.ask(f"Who authored every version of {doc}?")
    assert every.outcome == "answer" and len(every.answer) == 3
    for said in (f"Who has authored a version of {doc}?", f"Who authored any version of {doc}?"):
        assert answerer.ask(said).answer == every.answer, said


@pytest.mark.parametrize(
    "question",
    [
        "Which AnomalyForce engineer isn't beaten by anyone on the count of approved feature development PRs?",
        "AnomalyForce: employee ID of the engineer topping the count of approved feature development PRs.",
        "Which engineer holds the record for approved feature development PRs in AnomalyForce?",
    ],
)
def test_a_count_a_ranking_is_by_is_no_how_many(answerer: Answerer, question: str) -> None:
    plain = answerer.ask(
        "Find the employee ID of the engineer with the most approved feature development PRs in AnomalyForce"
    )
    got = answerer.ask(question)
    assert got.type == "person" and got.answer == plain.answer, (question, got.answer, got.reason)


@pytest.mark.parametrize(
    "question",
    ["Who has the most APPROVED PR reviews in ContentForce?", "InsightForce: who has the most APPROVED PR reviews?"],
)
def test_approved_reviews_are_the_reviewers_approvals(answerer: Answerer, question: str) -> None:
    product = question.split()[-1].rstrip("?") if "in " in question else "InsightForce"
    product = "ContentForce" if "ContentForce" in question else product
    plain = answerer.ask(f"Who approved the most PRs in {product}?")
    author = answerer.ask(
        f"Find the employee ID of the engineer with the most approved feature development PRs in {product}"
    )
    got = answerer.ask(question)
    assert got.answer == plain.answer != author.answer, (question, got.answer)


def test_direct_reports_are_counted_as_people(answerer: Answerer) -> None:
    listed = answerer.ask("Who reports directly to eid_24dbff62?")
    got = answerer.ask("How many direct reports does eid_24dbff62 have?")
    assert got.type == "count" and str(got.answer) == str(len(listed.answer)) == "9"


def test_a_question_opened_by_the_link_it_wants(answerer: Answerer) -> None:
    got = answerer.ask("Link to the PR that fixed 'Feedback Drift Misalignment' in FeedbackForce?")
    assert got.answer == ["https://github.com/salesforce/FeedbackForce/pull/41"], got.reason


def test_bugs_a_person_was_assigned_are_those_assigned_to_them(answerer: Answerer) -> None:
    listed = answerer.ask("Which InsightForce bugs were assigned to eid_63ea0ec4?")
    got = answerer.ask("How many InsightForce bugs was eid_63ea0ec4 assigned?")
    assert listed.outcome == "answer" and str(got.answer) == str(len(listed.answer)) == "4", got.reason


@pytest.mark.parametrize(
    ("question", "product", "role", "document"),
    [
        (
            "Which WorkFlowGenie QA specialists were not at the Technical Specifications Document review?",
            "WorkFlowGenie",
            "QA Specialists",
            "Technical Specifications Document",
        ),
        (
            "Which InsightForce engineering lead didn't attend the Product Vision Document review?",
            "InsightForce",
            "Engineering Leads",
            "Product Vision Document",
        ),
    ],
)
def test_who_missed_a_meeting_is_the_team_less_its_people(
    answerer: Answerer, question: str, product: str, role: str, document: str
) -> None:
    got = answerer.ask(question)
    there = answerer.ask(f"Who was in the {product} {document} review meeting?")
    team = answerer.ask(f"Who are the {role} on the {product} team?")
    assert got.outcome == there.outcome == team.outcome == "answer", (got.reason, there.reason, team.reason)
    assert got.answer == sorted(set(team.answer) - set(there.answer)) and got.answer


def test_nobody_missing_from_a_meeting_is_a_proof(answerer: Answerer) -> None:
    got = answerer.ask("Which engineering leads missed the AutoTuneForce planning meeting on 2026-07-11?")
    assert got.outcome == "absent" and got.proof, got.reason


def test_where_people_are_based_is_a_place_not_the_people(answerer: Answerer) -> None:
    q = "Where are the engineers who fixed the User Interface & Frontend Performance issue in ActionGenie based?"
    assert answerer.ask(q).outcome == "uncertain"
    assert answerer.ask("Where is eid_f98d7490 based?").answer == ["Sydney"]
    assert answerer.ask("Where are the demo links team members shared for the previous version of TrendForce?").answer


def test_when_a_version_was_written_is_its_creation_time(answerer: Answerer) -> None:
    doc = "the latest version of the WorkFlowGenie Product Vision Document"
    created = answerer.ask(f"When was {doc} created?")
    got = answerer.ask(f"When was {doc} written?")
    assert created.outcome == got.outcome == "answer" and got.answer == created.answer
    assert answerer.ask(f"Who wrote {doc}?").answer != got.answer  # its author, still


def test_praise_and_issues_together_are_no_one_kind_of_feedback(answerer: Answerer) -> None:
    """Companies that both praised a release and reported issues with it: no feedback kind holds both, so the
    reading is uncertain, never the praise alone."""
    both = answerer.ask("Which companies praised SentimentForce's previous release but also reported issues with it?")
    praise = answerer.ask("Which companies praised the previous release of SentimentForce?")
    assert praise.outcome == "answer" and both.outcome == "uncertain", both.answer


def test_fixed_in_code_asks_for_a_fixing_pr(answerer: Answerer) -> None:
    """ "Was <bug> fixed in code?": a fix that shipped, so a dismissed bug is no, with its state."""
    got = answerer.ask("Was the CoachForce bug 'Feedback Queue Overflow' actually fixed in code?")
    assert got.answer == answerer.ask("Was the CoachForce bug 'Feedback Queue Overflow' fixed?").answer
    assert got.answer == "no (its state: no fix needed)"


def test_nothing_read_from_a_document_that_speaks_of_the_kind_is_no_proof(answerer: Answerer) -> None:
    """A listing read from one document by its id that finds nothing is a proof only when the document's text
    never speaks of the kind: the rules may have missed its wording (sparql/onto_source_text.rq)."""
    q = answerer.read("Which competitors does the CollaborationForce market research report name?")
    reader = Reader(q, answerer.backend, None, q.norm, [])  # every product's graph
    report = Literal("cforceaix_market_research_report")
    assert reader.spoken_of(report, expand("ekg:CompetitorProduct")) == "competitive"  # "… like Microsoft Teams"
    first = Literal("backaix_market_research_report")  # FeedbackForce: "competition from established AI providers"
    assert reader.spoken_of(first, expand("ekg:CompetitorProduct")) is None  # speaks of it, names no one
    assert reader.spoken_of(report, expand("ekg:Repository")) is None  # it never speaks of code repositories
