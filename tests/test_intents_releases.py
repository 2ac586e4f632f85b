"""Previous-release intents: paraphrases map to the right intent and slots; answers and proofs on real
data."""

from __future__ import annotations

import pytest
from pyoxigraph import Literal

from kg.namespaces import term
from kg.qa.answer import Answerer
from kg.qa.intents import match_intent
from kg.qa.question import Vocabulary, parse

VOCAB = Vocabulary(
    {"contextforce": "ContextForce", "anomalyforce": "AnomalyForce"},
    {
        "qa specialist": "QA Specialist",
        "product manager": "Product Manager",
        "engineering lead": "Engineering Lead",
    },
    {},
)


def intent_of(text: str) -> tuple[str, dict[str, object]] | None:
    matched = match_intent(parse(text, VOCAB))
    return (matched[0].name, matched[1]) if matched else None


@pytest.mark.parametrize(
    ("text", "role"),
    [
        (
            "Find employee IDs of Product Managers who worked on the previous release of ContextForce?",
            "Product Manager",
        ),
        ("which product manager contributed to the last release of ContextForce", "Product Manager"),
        ("eids of QA specialists involved in ContextForce's prior version", "QA Specialist"),
        (
            "Who were the Engineering Leads that worked on the earlier release of ContextForce?",
            "Engineering Lead",
        ),
    ],
)
def test_contributor_paraphrases(text: str, role: str) -> None:
    assert intent_of(text) == ("release_contributors_by_role", {"role": Literal(role)})


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "What issues were reported by customers for the previous release of ContextForce?",
            "ekg:CustomerIssue",
        ),
        ("what problems did clients report with the last version of ContextForce", "ekg:CustomerIssue"),
        (
            "What issues were reported during QA testing for the previous release of ContextForce?",
            "ekg:QAIssue",
        ),
        ("Which bugs did quality assurance find in ContextForce's prior release?", "ekg:QAIssue"),
        (
            "What strengths were highlighted by customers for the previous release of ContextForce?",
            "ekg:CustomerPraise",
        ),
        (
            "What positive feedback did customers give on the previous version of ContextForce?",
            "ekg:CustomerPraise",
        ),
    ],
)
def test_feedback_paraphrases(text: str, kind: str) -> None:
    assert intent_of(text) == ("release_feedback", {"kind": term(kind)})


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "Find names of companies that reported issues with the previous release of ContextForce?",
            "ekg:CustomerIssue",
        ),
        ("Which companies complained about ContextForce's last release", "ekg:CustomerIssue"),
        (
            "Find names of companies that highlighted strengths of the previous release of ContextForce?",
            "ekg:CustomerPraise",
        ),
    ],
)
def test_company_paraphrases(text: str, kind: str) -> None:
    assert intent_of(text) == ("release_feedback_companies", {"kind": term(kind)})


def test_demo_paraphrases() -> None:
    for text in (
        "Find employee IDs of team members who shared demos of the previous version of ContextForce?",
        "Who shared a demo of ContextForce's last release?",
    ):
        assert intent_of(text) == ("release_demo_sharers", {})
    for text in (
        "Find the demo URLs shared by team members for the previous version of ContextForce?",
        "demo links for the prior version of ContextForce",
    ):
        assert intent_of(text) == ("release_demo_urls", {})


def test_issue_without_reporter_is_unsupported() -> None:
    assert intent_of("What issues exist in the previous release of ContextForce?") is None


def test_answers_and_proofs_on_real_data(answerer: Answerer) -> None:
    pms = answerer.ask("Find employee IDs of Product Managers who worked on the previous release of ContextForce?")
    assert set(pms.answer) == {"eid_aa99608e", "eid_887367ca", "eid_2c384d22", "eid_efc9418c"}
    assert {"extprox_product_vision_document_final", "20260826-0-f34e9"} <= set(pms.citations)
    companies = answerer.ask("Find names of companies that reported issues with the previous release of ContextForce?")
    assert set(companies.answer) == {"InnovateAI", "ComputeWorks"}
    qa = answerer.ask("What issues were reported during QA testing for the previous release of ContextForce?")
    assert "misinterpreting user behavior" in qa.answer
    none = answerer.ask("Find the demo URLs shared by team members for the previous version of AnomalyForce?")
    assert none.abstain and none.proof and none.proof["query"] == "release_demo_urls.ask"
