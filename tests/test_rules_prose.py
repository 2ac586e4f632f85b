"""Conversational filler removal (kg.ingest.rules.prose) on strings written here: what is kept stays verbatim."""

from __future__ import annotations

import pytest

from kg.ingest.rules.prose import clean_text, content_sentences, is_filler, strip_lead


def test_clean_text_drops_emoji_and_reduces_slack_links_to_their_label() -> None:
    assert clean_text("See <https://x.io/doc|the doc> 🚀  now") == "See the doc now"


@pytest.mark.parametrize(
    "sentence",
    [
        "Thoughts?",
        "What do you think, @eid_12345678?",
        "Great question, Julia!",
        "Thanks for the insights, @eid_12345678! 😊",
        "Yes, David.",
        "Hi team, I was reading about Foo, one of our competitors, and thought it would be useful to discuss it.",
        "Thought it might be worth discussing how it compares to what we're doing.",
        "Let's dive into these points.",
        "Good point, George M.",
    ],
)
def test_filler_sentences(sentence: str) -> None:
    assert is_filler(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "It offers real-time alerts and custom dashboards.",
        "Yes, Customer CUST-0077 highlighted that the product reduces latency.",
        "Their setup costs are on the higher end.",
    ],
)
def test_content_sentences_are_not_filler(sentence: str) -> None:
    assert not is_filler(sentence)


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("Ian, their NLP capabilities are quite robust.", "Their NLP capabilities are quite robust."),
        ("Good point, @eid_12345678, Foo uses ML.", "Foo uses ML."),
        ("From what I've read, it's designed to scale.", "It's designed to scale."),
        ("Yes, @eid_12345678, Customer CUST-0001 praised the search.", "Customer CUST-0001 praised the search."),
        ("For instance, their subscription is expensive.", "Their subscription is expensive."),
        ("Additionally, it lacks offline mode.", "It lacks offline mode."),
        ("KnowledgeNavigator, a rival, is slow.", "KnowledgeNavigator, a rival, is slow."),
    ],
)
def test_strip_lead_removes_greeting_address_and_hedge_only(sentence: str, kept: str) -> None:
    assert strip_lead(sentence) == kept


def test_content_sentences_of_a_message() -> None:
    text = (
        "Great question, Julia! From what I gathered, Foo uses a mix of ML models and statistics. "
        "They claim it is accurate. What do you think? 🤔"
    )
    assert content_sentences(text) == ["Foo uses a mix of ML models and statistics.", "They claim it is accurate."]


def test_message_of_only_filler_has_no_content() -> None:
    assert content_sentences("Thanks, @eid_12345678! Let's set up a meeting to discuss this further. 📈") == []
