"""The chooser: which row of the intent table a question is read as (the rules are in kg/qa/intents's
docstring), with its competitors and near misses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kg.qa.cues import Tagged, residue, tag
from kg.qa.intents.binders import BINDERS
from kg.qa.intents.loader import table
from kg.qa.intents.rows import Intent
from kg.qa.question import Question
from kg.qa.residue import Labels, Resolution, resolve
from kg.query.sparql import Term

#: The cues that say which answer type is asked for (rule 2 of the chooser).
ASKED_BY: dict[str, tuple[str, ...]] = {
    "person": ("person",),
    "company": ("company",),
    "url": ("link",),
    "pr": ("pr", "link"),
}
SLOTS: dict[str, Callable[[Question], list[str]]] = {
    "doc_kind": lambda q: [q.doc_kind] if q.doc_kind else [],
    "role": lambda q: q.roles,
    "company": lambda q: q.companies,
    "eid": lambda q: q.eids,
    "customer_id": lambda q: q.customer_ids,
}


@dataclass
class Candidate:
    """One row's verdict on a question: accepted with bindings, or why not."""

    intent: Intent
    score: tuple[int, int, int] = (0, 0, 0)
    bindings: dict[str, Term] | None = None
    missing: str | None = None
    resolution: Resolution | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"intent": self.intent.name, "score": list(self.score)}
        if self.missing:
            out["missing"] = self.missing
        if self.resolution:
            out["residue"] = self.resolution.to_json()
        return out


@dataclass
class Choice:
    """The chooser's outcome: the winner (if any), every accepting row, and the question's cues."""

    tagged: Tagged
    winner: Candidate | None = None
    accepted: list[Candidate] = field(default_factory=list)
    near: list[Candidate] = field(default_factory=list)
    ambiguous: list[str] = field(default_factory=list)

    def explain(self) -> dict[str, Any]:
        return {
            "cues": {c: self.tagged.phrase(c) for c in sorted(self.tagged.found)},
            "competing": [c.to_json() for c in self.accepted],
            "near misses": [c.to_json() for c in self.near],
            **({"ambiguous": self.ambiguous} if self.ambiguous else {}),
        }


def _unmet(intent: Intent, found: set[str], q: Question) -> tuple[str, bool] | None:
    """The first constraint the question does not meet, and whether that makes a near miss (the question has
    what the row needs, but also a cue or slot the row forbids), or None."""
    for cue in intent.requires:
        if cue not in found:
            return f"no {cue} cue", False
    for group in intent.any_of:
        if not any((SLOTS[c[1:]](q) if c.startswith("@") else c in found) for c in group):
            return f"none of {'/'.join(group)}", False
    for cue in intent.forbids:
        if cue in found:
            return f"{cue} cue forbidden", True
    for slot in intent.slots:
        if not SLOTS[slot](q):
            return f"no {slot}", False
    for slot in intent.no_slots:
        if SLOTS[slot](q):
            return f"{slot} not allowed", True
    return None


def asks_its_type(intent: Intent, found: set[str]) -> bool:
    """Rule 2: the question asks for this row's answer type."""
    if intent.answer_type == "content":
        return not any(c in found for cues in ASKED_BY.values() for c in cues)
    return any(c in found for c in ASKED_BY[intent.answer_type])


def rank(intent: Intent, found: set[str]) -> tuple[int, int, int]:
    """The chooser's key for a row that accepts: rules 1, 2 and 3, higher first."""
    return intent.specificity, int(asks_its_type(intent, found)), -intent.subject


def judge(intent: Intent, q: Question, tagged: Tagged, labels: Labels | None, found: set[str]) -> Candidate | None:
    """One row's verdict: None when the question lacks one of its cues or slots; else a near miss saying why
    not, or a candidate with bindings (its constraints, then its binders, then its free phrase)."""
    unmet = _unmet(intent, found, q)
    if unmet is not None and not unmet[1]:
        return None
    candidate = Candidate(intent, rank(intent, found))
    if unmet is not None:
        candidate.missing = unmet[0]
        return candidate
    bindings: dict[str, Term] = {}
    for name in intent.binders:
        made = BINDERS[name](q, found)
        if made is None:
            candidate.missing = f"binder {name} found nothing to bind"
            return candidate
        bindings |= made
    if intent.residue:
        ignore = set(table()[0].get("ignore", ()))
        used = intent.cues() | ignore | {c for b in intent.binders for c in BINDERS.meta[b].get("reads", ())}
        candidate.resolution = resolve(intent.residue, residue(q, tagged, used), labels)
        bindings |= candidate.resolution.bindings
        if not candidate.resolution.resolved:  # an unresolved phrase is a constraint not met
            candidate.score = (candidate.score[0] - 1, *candidate.score[1:])
    candidate.bindings = bindings
    return candidate


def choose(q: Question, labels: Labels | None = None) -> Choice:
    """The most specific accepting row (see the module docstring), with its competitors and near misses."""
    tagged = tag(q)
    found = tagged.found
    choice = Choice(tagged)
    for intent in table()[1]:
        if (candidate := judge(intent, q, tagged, labels, found)) is not None:
            (choice.near if candidate.bindings is None else choice.accepted).append(candidate)
    choice.accepted.sort(key=lambda c: c.score, reverse=True)
    if choice.accepted:
        best = choice.accepted[0]
        tied = [c.intent.name for c in choice.accepted if c.score == best.score]
        if len(tied) > 1:
            choice.ambiguous = tied
        else:
            choice.winner = best
    return choice


def match_intent(q: Question, labels: Labels | None = None) -> tuple[Intent, dict[str, Term]] | None:
    """The winning intent with its bindings; None when no row wins or its free phrase does not resolve."""
    winner = choose(q, labels).winner
    if winner is None or winner.bindings is None or (winner.resolution and not winner.resolution.resolved):
        return None
    return winner.intent, winner.bindings
