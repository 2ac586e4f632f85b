"""The time slot: absolute dates, month names, cue words and named points found, read at the right instant,
and removed from the text the intents match; text without a time expression is left as it is."""

from __future__ import annotations

import re

import pytest

from kg.errors import KGError
from kg.qa.question import Vocabulary, normalise, parse
from kg.qa.time import find_time, window_of

VOCAB = Vocabulary({"connectforce": "ConnectForce"}, {}, {"techcorp": "TechCorp"})


@pytest.mark.parametrize(
    ("question", "phrase", "instant", "rest"),
    [
        (
            "Which bugs reported by TechCorp in ConnectForce were unresolved on 2026-08-01?",
            "on 2026-08-01",
            "2026-08-01T23:59:59",
            "which bugs reported by techcorp in connectforce were unresolved",
        ),
        (
            "What was the state of X in ConnectForce at the end of July 2026?",
            "at the end of july 2026",
            "2026-07-31T23:59:59",
            "what was the state of x in connectforce",
        ),
        (
            "As of August 1, 2026, which bugs were open?",
            "as of august 1 2026",
            "2026-08-01T23:59:59",
            "which bugs were open",
        ),
        ("Which bugs were open before March 2026?", "before march 2026", "2026-02-28T23:59:59", "which bugs were open"),
        ("Open bugs at the start of Feb 2024?", "at the start of feb 2024", "2024-02-01T00:00:00", "open bugs"),
        ("Open bugs on the 3rd of September 2026", "on the 3rd of september 2026", "2026-09-03T23:59:59", "open bugs"),
        ("Before 2025, which bugs were open?", "before 2025", "2024-12-31T23:59:59", "which bugs were open"),
        ("Open bugs by the end of 2026", "by the end of 2026", "2026-12-31T23:59:59", "open bugs"),
    ],
)
def test_dates_are_read_at_their_instant_and_removed(question: str, phrase: str, instant: str, rest: str) -> None:
    slot, text = find_time(normalise(question))
    assert slot is not None and (slot.phrase, slot.at(), text) == (phrase, instant, rest)


@pytest.mark.parametrize(
    ("question", "mode"),
    [
        ("Which PRs were still open when ConnectForce's previous release shipped?", "end"),
        ("Which bugs were open at the time of the previous release?", "end"),
        ("Which bugs were open before the last release came out?", "before"),
    ],
)
def test_named_points_wait_for_the_graph(question: str, mode: str) -> None:
    slot, _ = find_time(normalise(question))
    assert slot is not None and slot.point == "previous release" and slot.mode == mode
    assert slot.at("2026-03-18T13:24:00") == ("2026-03-18T13:24:00" if mode == "end" else "2026-03-18T13:23:59")
    with pytest.raises(ValueError):
        slot.at()


@pytest.mark.parametrize(
    "question",
    [
        "Which customers reported issues with the previous release of ConnectForce?",
        "Who may review the market research report in May?",  # a month needs its year
        "Find PR links submitted by eid_86052026 for bugs on ConnectForce",
        "Which PRs were opened in 2027?",  # a year after "in" or "during" is a window of events, not a point
        "Which company had the most active bugs during 2027?",
    ],
)
def test_no_time_expression_leaves_the_text_alone(question: str) -> None:
    assert find_time(normalise(question)) == (None, normalise(question))


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("Which bugs in ConnectForce were open on 2026-02-30?", "on 2026-02-30"),
        ("Which bugs in ConnectForce were open on 2026-99-99?", "on 2026-99-99"),
        ("Which bugs in ConnectForce were open as of May 45 2026?", "as of may 45 2026"),
        ("Which bugs in ConnectForce were open before 31 April 2026?", "before 31 april 2026"),
    ],
)
def test_a_date_that_is_no_date_is_an_invalid_question(question: str, phrase: str) -> None:
    """The asker's error, said as such; never an abstention on an unresolved phrase."""
    with pytest.raises(KGError, match=f"^{re.escape(repr(phrase))} is not a date"):
        parse(question, VOCAB)


def test_parse_keeps_the_product_named_inside_the_time_phrase() -> None:
    q = parse("Which companies had unresolved bugs when ConnectForce's previous release shipped?", VOCAB)
    assert q.product == "ConnectForce" and q.time is not None and "connectforce" not in q.norm
    assert q.slots()["time"] == "when connectforce's previous release shipped"


def test_an_events_window_is_no_point_to_read_the_state_at() -> None:
    slot, text = find_time("which prs were opened in october 2026")
    assert slot is None and text.endswith("in october 2026")  # left for the reading to say it cannot place
    slot, _ = find_time("which bugs were open in october 2026")
    assert slot is not None and slot.instant == "2026-10-31T23:59:59"
    slot, text = find_time("which prs need to be merged limited to ones opened before november 2026")
    assert slot is None and text.endswith("before november 2026")  # a bound on the openings, not a point
    slot, _ = find_time("which prs were open before november 2026")
    assert slot is not None and slot.mode == "before"
    # "during" names the whole period; an event's verb a few words before "in" makes it the events' window
    slot, _ = find_time("which company had the most unresolved bugs during march 2027")
    assert slot is None
    slot, _ = find_time("which engineer resolved the most customer bugs in march 2027")
    assert slot is None
    slot, _ = find_time("which engineer resolved the most customer bugs by march 2027")
    assert slot is not None and slot.instant == "2027-03-31T23:59:59"


def test_a_window_of_events_is_read_with_its_first_and_last_instants() -> None:
    cases = {
        "prs opened in 2027": ("2027-01-01T00:00:00", "2027-12-31T23:59:59"),
        "bugs reported in the first half of 2026": ("2026-01-01T00:00:00", "2026-06-30T23:59:59"),
        "opened in q1 2025": ("2025-01-01T00:00:00", "2025-03-31T23:59:59"),
        "shared between june and august 2026": ("2026-06-01T00:00:00", "2026-08-31T23:59:59"),
        "opened in may 2026": ("2026-05-01T00:00:00", "2026-05-31T23:59:59"),
        "created before march 2026": ("0001-01-01T00:00:00", "2026-02-28T23:59:59"),
        "created in november 2026 or later": ("2026-11-01T00:00:00", "9999-12-31T23:59:59"),
    }
    for text, (start, end) in cases.items():
        found = window_of(text)
        assert found is not None and (found.start, found.end) == (start, end), text
    assert window_of("which bugs are unresolved") is None
