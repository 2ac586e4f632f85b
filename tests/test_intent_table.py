"""The intent table as data: every row is well formed, and no two rows can accept one question with no way to
choose between them (the chooser's rules are in kg/qa/intents/__init__.py)."""

from __future__ import annotations

import itertools
import re

import pytest

from kg.qa.cues import lexicon
from kg.qa.intents import ASKED_BY, DERIVED_CUES, SLOTS, Intent, load_intents, rank, table
from kg.qa.intents.binders import BINDERS, BUG_STATES, SAME_MEANING
from kg.qa.intents.loader import subject_rank
from kg.query.sparql import SPARQL_DIR as SPARQL

ROWS = table()[1]


def test_every_row_names_known_cues_slots_and_queries() -> None:
    cues = set(lexicon().cues) | DERIVED_CUES
    for row in ROWS:
        assert row.cues() <= cues, f"{row.name}: unknown cues {row.cues() - cues}"
        slots = {*row.slots, *row.no_slots, *(c[1:] for g in row.any_of for c in g if c.startswith("@"))}
        assert slots <= set(SLOTS), f"{row.name}: unknown slots {slots - set(SLOTS)}"
        assert (SPARQL / f"{row.query}.rq").is_file() and (SPARQL / f"{row.proof}.rq").is_file(), row.name
    for name in BINDERS:
        assert set(BINDERS.meta[name].get("reads", ())) <= cues, name


def test_every_lexicon_phrase_compiles() -> None:
    """Phrases compile on first use, so a malformed one is caught here rather than by the question that meets it."""
    for name, phrases in lexicon().cues.items():
        for phrase in phrases:
            assert isinstance(phrase.pattern, re.Pattern), f"{name}: {phrase.source}"


def test_timed_forms_are_derived_from_the_files() -> None:
    timed = {i.name for i in load_intents() if i.name.startswith("asof_")}
    assert {"asof_bug_titles_by_state", "asof_bug_companies_by_state", "asof_pr_to_merge", "asof_bug_state"} <= timed
    for name in timed:
        assert (SPARQL / f"{name}.rq").is_file() and (SPARQL / f"{name}.ask.rq").is_file()


def common_inputs(a: Intent, b: Intent) -> list[tuple[set[str], set[str]]]:
    """Every minimal (cues, slots) that both rows accept: their required cues and slots, one member of each
    any-group, none of either row's forbidden cues or slots."""
    out = []
    for picks in itertools.product(*a.any_of, *b.any_of):
        cues = {*a.requires, *b.requires, *(p for p in picks if not p.startswith("@"))}
        slots = {*a.slots, *b.slots, *(p[1:] for p in picks if p.startswith("@"))}
        if cues & {*a.forbids, *b.forbids} or slots & {*a.no_slots, *b.no_slots}:
            continue
        out.append((cues, slots))
    return out


def undecided(a: Intent, b: Intent) -> list[str]:
    """The inputs both rows accept on which the chooser's rules rank them equal: each common input as it is,
    and with a cue asking for either row's answer type added (a question asking for a third type fits neither
    row's answer, and abstaining on it is right)."""
    asked_cues = {c for t in (a.answer_type, b.answer_type) for c in ASKED_BY.get(t, ())}
    found = []
    for cues, _slots in common_inputs(a, b):
        for asked in (None, *sorted(asked_cues)):
            shown = cues | ({asked} if asked else set())
            if asked in a.forbids or asked in b.forbids:
                continue
            if rank(a, shown) == rank(b, shown):
                found.append(", ".join(sorted(shown)))
    return found


@pytest.mark.parametrize(("a", "b"), list(itertools.combinations(ROWS, 2)), ids=lambda r: r.name)
def test_two_rows_never_tie_on_one_cue_set(a: Intent, b: Intent) -> None:
    ties = undecided(a, b)
    assert not ties, f"{a.name} and {b.name} both accept, and rank equal on: {ties[:3]}"


def test_cues_of_the_same_meaning_name_the_same_states_in_every_query() -> None:
    """SAME_MEANING lets a question say "active" and "open" of one state: sound only while every query that
    takes ?asked maps both words to the same states."""
    words = dict(BUG_STATES)
    checked = 0
    for path in sorted(SPARQL.glob("*.rq")):
        pairs = re.findall(r'\("([a-z ]+)" (ekg:\w+)\)', path.read_text(encoding="utf-8"))
        states: dict[str, set[str]] = {}
        for word, state in pairs:
            states.setdefault(word, set()).add(state)
        for cue, same in SAME_MEANING.items():
            if words[cue] in states or words[same] in states:
                assert states.get(words[cue]) == states.get(words[same]), (path.name, cue, same)
                checked += 1
    assert checked >= 8


def test_a_row_whose_subject_cue_is_optional_names_its_subject() -> None:
    """A bug row that also accepts a question without a bug word ("what's still unresolved from X") keeps the bug
    subject for rule 3, so "got a call with them" (an `adding` cue) cannot tie it with a feature row."""
    ranks = {row.name: row.subject for row in ROWS}
    assert ranks["bug_titles_by_state"] == ranks["bug_company_max_state"] == ranks["bug_resolver_max"]
    assert ranks["bug_titles_by_state"] < ranks["feature_delayed"] < ranks["feature_added_topic"]
    with pytest.raises(ValueError, match="none of"):
        subject_rank({"subject": "weather"}, ["bug", "feature"])
