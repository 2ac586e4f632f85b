"""Yes/no questions said with a negation, and with a frame around the statement they check (kg/qa/operators.py
`affirmative`, `yes_no_start`; kg/qa/answer.py `_negated`), read on the real store.

The expected answer is always the plain question's, asked of the same store: a negation said of the subject
flips it, one said by the opening keeps it. Only the bug states are written down, as the artifacts settle them.
"""

from __future__ import annotations

import pytest

from kg.qa.answer import Answerer
from kg.qa.operators import affirmative

OPEN_BUG = "'Data Leakage via Export Logs'"  # LeadForce: still open
RESOLVED_BUG = "'Incorrect Data Import Process'"  # LeadForce: resolved


def opposite(answer: str) -> str:
    return ("no" + answer[3:]) if answer.startswith("yes") else ("yes" + answer[2:])


@pytest.mark.parametrize(
    ("negated", "plain"),
    [
        ("Has {who} never approved a PR in LeadForce?", "Has {who} approved a PR in LeadForce?"),
        ("Is it true that {who} never approved a PR in LeadForce?", "Did {who} approve a PR in LeadForce?"),
        ("{who} has not approved any PRs in LeadForce, right?", "Did {who} approve any PRs in LeadForce?"),
        ("Is it true that {who} hasn't approved any PRs in LeadForce?", "Has {who} approved any PRs in LeadForce?"),
    ],
)
@pytest.mark.parametrize("who", ["eid_f98d7490", "eid_a13234f2"])  # the top approver, and someone who approved none
def test_a_negation_said_of_the_subject_asks_the_opposite(
    answerer: Answerer, negated: str, plain: str, who: str
) -> None:
    said = answerer.ask(plain.format(who=who))
    got = answerer.ask(negated.format(who=who))
    assert said.type == "yes_no" and got.outcome == "answer", got.reason
    assert got.answer == opposite(str(said.answer))
    assert got.citations == said.citations and got.operator and got.operator.get("negated")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (f"Is the {OPEN_BUG} bug in LeadForce still not fixed?", "yes (its state: open)"),
        (f"Is {OPEN_BUG} in LeadForce not resolved yet?", "yes (its state: open)"),
        (f"Was the {RESOLVED_BUG} bug in LeadForce never fixed?", "no (its state: resolved)"),
        (f"Has {RESOLVED_BUG} in LeadForce not been resolved?", "no (its state: resolved)"),
        # a negative opening expects a yes: it asks the plain question
        (f"Isn't the {OPEN_BUG} bug in LeadForce fixed?", "no (its state: open)"),
        (f"Wasn't {RESOLVED_BUG} in LeadForce resolved?", "yes (its state: resolved)"),
    ],
)
def test_a_bug_state_asked_in_the_negative(answerer: Answerer, question: str, expected: str) -> None:
    got = answerer.ask(question)
    assert got.outcome == "answer" and got.answer == expected, (question, got.answer, got.reason)


def test_a_negative_opening_asks_the_plain_question(answerer: Answerer) -> None:
    plain = answerer.ask("Did eid_f98d7490 approve any PR in LeadForce?")
    got = answerer.ask("Didn't eid_f98d7490 approve any PR in LeadForce?")
    assert got.answer == plain.answer == "yes" and got.citations == plain.citations


@pytest.mark.parametrize(
    "question",
    [
        "Which PRs in LeadForce were not merged?",  # no yes/no
        "Has eid_f98d7490 not reviewed or not approved a PR in LeadForce?",  # two negations
        "Is there any PR in LeadForce that eid_f98d7490 did not approve?",  # said of the PRs, not of the subject
    ],
)
def test_other_negations_are_not_turned_around(answerer: Answerer, question: str) -> None:
    assert affirmative(answerer.read(question)) is None


@pytest.mark.parametrize(
    "question",
    [
        "Can you confirm that eid_f98d7490 approved a PR in LeadForce?",
        "Please verify that eid_f98d7490 approved a PR in LeadForce.",
        "Is it correct that eid_f98d7490 approved a PR in LeadForce?",
    ],
)
def test_a_statement_framed_to_be_checked_is_a_yes_no(answerer: Answerer, question: str) -> None:
    plain = answerer.ask("Did eid_f98d7490 approve a PR in LeadForce?")
    got = answerer.ask(question)
    assert got.type == "yes_no" and got.answer == plain.answer == "yes", (question, got.answer, got.reason)


def test_a_reading_that_lacks_its_feature_says_so_without_an_empty_name(answerer: Answerer) -> None:
    got = answerer.ask("Did eid_f98d7490 never approve, and not review, a PR in LeadForce?")
    assert got.outcome == "uncertain" and "''" not in str(got.reason)


@pytest.mark.parametrize(
    ("question", "plain"),
    [
        (f"Does the {OPEN_BUG} bug in LeadForce still need to be fixed?", f"Is the {OPEN_BUG} bug in LeadForce fixed?"),
        (f"Does {RESOLVED_BUG} in LeadForce need to be fixed?", f"Is {RESOLVED_BUG} in LeadForce fixed?"),
    ],
)
def test_a_state_still_needed_is_the_opposite_of_the_state(answerer: Answerer, question: str, plain: str) -> None:
    """ "Does <bug> need to be fixed" asks whether it is not fixed yet: never read as "is it fixed"."""
    said, got = answerer.ask(plain), answerer.ask(question)
    assert said.type == got.type == "yes_no" and got.answer == opposite(str(said.answer)), (question, got.reason)


def test_a_pr_still_to_merge_is_not_read_as_merged(answerer: Answerer) -> None:
    link = "https://github.com/salesforce/ectAIX/pull/19"  # ConnectForce: open, not merged
    assert answerer.ask(f"Is {link} merged?").answer == "no"
    assert answerer.ask(f"Does {link} need to be merged?").answer == "yes"
    feature = "for the AI-driven data anomaly detection feature in ConnectForce"
    listed = answerer.ask(f"Which PRs need to be merged {feature}?")
    assert listed.outcome == "answer" and link in listed.answer
    assert answerer.ask(f"Does {link} still need to be merged {feature}?").answer == "yes"  # one of them


def test_a_statement_tagged_yes_or_no_is_a_yes_no(answerer: Answerer) -> None:
    plain = answerer.ask("Did BlueWave report bugs in LeadForce?")
    got = answerer.ask("Did BlueWave report bugs in LeadForce, yes or no?")
    assert got.type == "yes_no" and got.answer == plain.answer == "yes"
    top = answerer.ask(
        "Find the employee ID of the engineer with the most unapproved feature development PRs in SentimentForce"
    )
    said = answerer.ask(f"{top.answer[0]} - most unapproved feature development PRs in SentimentForce, yes or no?")
    assert said.answer == "yes", said.reason
