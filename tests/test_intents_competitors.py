"""Competitor intents: paraphrases map to the right intent and aspect; answers and proofs on real data."""

from __future__ import annotations

import pytest

from kg.namespaces import term
from kg.qa.answer import Answerer
from kg.qa.intents import match_intent
from kg.qa.question import Vocabulary, parse

VOCAB = Vocabulary(
    {"anomalyforce": "AnomalyForce", "contextforce": "ContextForce"},
    {"qa specialist": "QA Specialist", "product manager": "Product Manager"},
    {},
)


def intent_of(text: str) -> tuple[str, dict[str, object]] | None:
    matched = match_intent(parse(text, VOCAB))
    return (matched[0].name, matched[1]) if matched else None


@pytest.mark.parametrize(
    ("text", "aspect"),
    [
        ("What are the unique features of AnomalyForce's competitor products?", "ekg:strength"),
        ("what features do AnomalyForce competitors offer", "ekg:strength"),
        ("List the strengths of the competing products of AnomalyForce.", "ekg:strength"),
        ("What are the weaknesses of AnomalyForce's competitor products?", "ekg:weakness"),
        ("Which limitations / drawbacks do AnomalyForce's rivals have??", "ekg:weakness"),
        ("What are the strengths and weaknesses of AnomalyForce's competitors?", None),
        ("What weaknesses have been identified in the products that compete with AnomalyForce?", "ekg:weakness"),
    ],
)
def test_competitor_insights_paraphrases(text: str, aspect: str | None) -> None:
    assert intent_of(text) == ("competitor_insights", {"aspect": term(aspect)} if aspect else {})


@pytest.mark.parametrize(
    "text",
    [
        "Find employee IDs of team members who provided insights on the strengths and weaknesses of "
        "AnomalyForce's competitor products?",
        "Who discussed AnomalyForce's competitors?",
        "eids of people that gave insight on the competitor products of AnomalyForce",
    ],
)
def test_insight_provider_paraphrases(text: str) -> None:
    assert intent_of(text) == ("competitor_insight_providers", {})


@pytest.mark.parametrize(
    "text",
    [
        "Find employee IDs of team members who shared demos of AnomalyForce's competitor products?",
        "Who shared a demo of a competitor product of AnomalyForce",
        "What are the employee IDs of team members who shared demos of AnomalyForce's competitor products?",
    ],
)
def test_demo_sharer_paraphrases(text: str) -> None:
    assert intent_of(text) == ("competitor_demo_sharers", {})


@pytest.mark.parametrize(
    "text",
    [
        "Find the demo URLs shared by team members for AnomalyForce's competitor products?",
        "demo links of AnomalyForce competitors",
        "Which competitor demo URL was shared for AnomalyForce?",
    ],
)
def test_demo_url_paraphrases(text: str) -> None:
    assert intent_of(text) == ("competitor_demo_urls", {})


def test_other_wording_is_not_taken() -> None:
    found = intent_of("Who wrote the market research report for AnomalyForce?")
    assert found is None or not found[0].startswith("competitor")


def test_answers_and_proofs_on_real_data(answerer: Answerer) -> None:
    urls = answerer.ask("Find the demo URLs shared by team members for AnomalyForce's competitor products?")
    assert not urls.abstain
    assert set(urls.answer) == {
        "https://www.outlierwatch.com/demo",
        "https://www.patternpulse.com/demo",
        "https://www.insightguard.com/demo",
    }
    assert {"20260709-0-252f1", "www_patternpulse_com_demo"} <= set(urls.citations)
    weak = answerer.ask("What are the weaknesses of AnomalyForce's competitor products?")
    assert "InsightGuard: " in weak.answer and "unstructured data" in weak.answer
    none = answerer.ask("Find the demo URLs shared by team members for ContextForce's competitor products?")
    assert none.abstain and none.proof and none.proof["query"] == "competitor_demo_urls.ask"
