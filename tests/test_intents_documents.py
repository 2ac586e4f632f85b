"""Document-review intents: paraphrases map to the right intent and slots; on HERB, answers and proofs."""

from __future__ import annotations

import pytest

from kg.namespaces import expand, node
from kg.qa.answer import Answerer
from kg.qa.intents import match_intent
from kg.qa.question import Vocabulary, parse

VOCAB = Vocabulary(
    products={"actiongenie": "ActionGenie", "anomalyforce": "AnomalyForce"},
    roles={
        "qa specialist": "QA Specialist",
        "engineering lead": "Engineering Lead",
        "product manager": "Product Manager",
        "ux researcher": "UX Researcher",
    },
    companies={"techcorp": "TechCorp"},
)


def intent_of(text: str) -> tuple[str | None, dict[str, str]]:
    matched = match_intent(parse(text, VOCAB))
    if matched is None:
        return None, {}
    intent, bindings = matched
    return intent.name, {k: v.value for k, v in bindings.items()}


@pytest.mark.parametrize(
    "text",
    [
        "Find employee IDs of the authors and key reviewers of the Market Research Report for the ActionGenie product?",
        "who authored and who reviewed ActionGenie's market research report",
        "List the eids of the author(s) and main reviewers of the ActionGenie Market Research Report.",
        "Which employees wrote or reviewed the market research report of ActionGenie?",
    ],
)
def test_authors_and_reviewers_paraphrases(text: str) -> None:
    assert intent_of(text) == ("doc_authors_reviewers", {"kind": expand("ekg:MarketResearchReport")})


@pytest.mark.parametrize(
    "text",
    [
        "Find employee IDs of QA Specialists who reviewed the Product Vision Document for ActionGenie?",
        "Which QA specialist reviewed ActionGenie's product vision document?",
        "eids of the qa specialists that gave feedback on the ActionGenie PVD",
        "Who among QA Specialists reviewed the product vision of ActionGenie",
    ],
)
def test_reviewers_by_role_paraphrases(text: str) -> None:
    assert intent_of(text) == (
        "doc_reviewers_by_role",
        {"kind": expand("ekg:ProductVisionDocument"), "role": node("role", "QA Specialist").value},
    )


@pytest.mark.parametrize(
    "text",
    [
        "What are the changes suggested by UX Researcher to improve the Market Research Report for AnomalyForce?",
        "What changes did the UX researchers suggest for AnomalyForce's market research report?",
        "Which improvements were proposed by UX Researchers to the AnomalyForce Market Research Report",
        "what did the ux researcher recommend changing in the market research report for anomalyforce",
    ],
)
def test_suggestions_by_role_paraphrases(text: str) -> None:
    assert intent_of(text) == (
        "doc_suggestions_by_role",
        {"kind": expand("ekg:MarketResearchReport"), "role": node("role", "UX Researcher").value},
    )


def test_reviewers_without_role_and_meeting_attendees() -> None:
    assert intent_of("Who reviewed the System Design Document for ActionGenie?")[0] == "doc_reviewers"
    assert intent_of("Who attended the meeting about ActionGenie's system design document?") == (
        "doc_meeting_attendees",
        {"kind": expand("ekg:SystemDesignDocument")},
    )


def test_no_document_kind_means_no_document_intent() -> None:
    name, _ = intent_of("Find employee IDs of QA Specialists who reviewed ActionGenie?")
    assert name is None or not name.startswith("doc_")


@pytest.mark.herb
def test_authors_and_key_reviewers_on_herb(answerer: Answerer) -> None:
    got = answerer.ask(
        "Find employee IDs of the authors and key reviewers of the Market Research Report for the ActionGenie product?"
    )
    assert not got.abstain and got.intent == "doc_authors_reviewers"
    assert {"eid_13fdff84", "eid_d96fb219", "eid_2589c967", "eid_ec3b5d65", "eid_f1c8f4a5"} <= set(got.answer)
    assert {
        "onforcex_market_research_report",
        "final_onforcex_market_research_report",
        "onForceX_planning_1",
        "onForceX_planning_1_chat",
        "20260611-0-a77ec",
        "20260811-0-a5cdc",
    } <= set(got.citations)


@pytest.mark.herb
def test_role_suggestions_on_herb_and_abstention_proof(answerer: Answerer) -> None:
    got = answerer.ask(
        "What are the changes suggested by UX Researcher to improve the Market Research Report for AnomalyForce?"
    )
    assert not got.abstain and "regulatory changes" in got.answer
    assert "20260504-3-06f64" in got.citations
    none = answerer.ask(
        "Find employee IDs of Product Managers who reviewed the Market Research Report for ActionGenie?"
    )
    assert none.abstain and none.proof and none.proof["query"] == "doc_reviewers_by_role.ask"
