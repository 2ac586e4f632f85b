"""Paraphrases written here must get the same answer as HERB's own wording, on the real graph.

This guards generalisation: the held-out products' questions are worded differently, so each family's
matcher has to key on slots and meaning words, not on one phrasing. No gold answer is used: a paraphrase is
right when it reaches the same intent and the same answer as the canonical wording.
"""

from __future__ import annotations

import pytest

from kg.qa.answer import Answerer

CASES = [
    (
        "Find employee IDs of the authors and key reviewers of the Market Research Report for the ActionGenie product?",
        [
            "Who authored and reviewed the Market Research Report of ActionGenie?",
            "Give the eids of the authors and main reviewers of the ActionGenie Market Research Report.",
        ],
    ),
    (
        "What are the changes suggested by Engineering Lead to improve the Market Research Report for AnomalyForce?",
        [
            "What did the Engineering Lead suggest to improve AnomalyForce's Market Research Report?",
            "List the Engineering Lead's suggestions for the AnomalyForce Market Research Report.",
        ],
    ),
    (
        "Find the name of company that has the maximum number of unresolved bugs in ActionGenie?",
        [
            "Which company has the most open bugs in ActionGenie?",
            "What company has the largest number of unresolved issues in ActionGenie?",
        ],
    ),
    (
        "Find bugs reported by DataSolutions in ConnectForce that did not require any fixes?",
        ["Which issues reported by DataSolutions in ConnectForce needed no fix?"],
    ),
    (
        "What are the weaknesses of AnomalyForce's competitor products?",
        [
            "What weaknesses do the competitors of AnomalyForce have?",
            "Where are AnomalyForce's competitor products weak?",
        ],
    ),
    (
        "Find employee IDs of team members who shared demos of AnomalyForce's competitor products?",
        ["Which employees posted competitor demos for AnomalyForce?"],
    ),
    (
        "Find employee IDs of Product Managers who worked on the previous release of ContextForce?",
        [
            "Who were the Product Managers on ContextForce's last release?",
            "List the eids of Product Managers that contributed to the prior release of ContextForce.",
        ],
    ),
    (
        "What issues were reported during QA testing for the previous release of EdgeForce?",
        ["What did QA testing find in the previous release of EdgeForce?"],
    ),
    (
        "What strengths were highlighted by customers for the previous release of EdgeForce?",
        ["What did customers like about the previous release of EdgeForce?"],
    ),
    (
        "What features could not be added to ActionGenie due to security risks?",
        ["Which features were dropped from ActionGenie because of security risks?"],
    ),
    (
        "Find the employee ID of engineer with the highest number of approved feature development PRs in AnomalyForce?",
        ["Which engineer has the most approved feature pull requests in AnomalyForce?"],
    ),
    (
        "Can you find links to PRs for integrating predictive analytics in AnomalyForce that were not approved?",
        [
            "Can you find links to PRs for integrating predictive analytics in AnomalyForce that were rejected?",
            "Which pull requests for integrating predictive analytics were not approved in AnomalyForce?",
        ],
    ),
    (
        "Can you provide links to the approved PRs for integrating predictive analytics in AnomalyForce?",
        [
            "Can you provide links to the approved PRs for integrating predictive analytics for AnomalyForce?",
            "List the approved pull requests related to integrating predictive analytics in AnomalyForce.",
        ],
    ),
]


def same_answer(a: list[str] | str | None, b: list[str] | str | None) -> bool:
    return set(a) == set(b) if isinstance(a, list) and isinstance(b, list) else a == b


@pytest.mark.parametrize(("canonical", "paraphrases"), CASES, ids=[c[0][:60] for c in CASES])
def test_paraphrase_gets_the_canonical_answer(answerer: Answerer, canonical: str, paraphrases: list[str]) -> None:
    base = answerer.ask(canonical)
    assert not base.abstain, base.reason
    for text in paraphrases:
        got = answerer.ask(text)
        assert got.intent == base.intent, text
        assert same_answer(got.answer, base.answer), text
