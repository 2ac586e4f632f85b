"""The intents, as data: one row per intent in `table.toml`, chosen for a question by specificity.

Why one table file rather than a row beside each `.rq`: the chooser compares rows with one another (which is
more specific, which forbid what), the pairwise test enumerates them, and `kg intents` prints them, so a reader
sees every competitor of a row on one page. The `.rq` files stay where every engine reads them; a row names
its query only when it shares another intent's (`doc_reviewers`), and never its proof: that is `<query>.ask`.

A question is tagged with the lexicon's cues (kg/qa/cues.py) and its slots (kg/qa/question.py). A row accepts
it when every `all` cue is found, one member of each `any` group is found, no `none` cue is, its `slots` are
filled and its `no_slots` are not, and its binders (kg/qa/intents/binders.py) can make the bindings. Among the
accepting rows the winner is the most specific:

1. the most constraints met: `all` cues + `any` groups + `slots` + a free phrase that resolves (`residue`);
2. then the row whose answer type the question asks for (a person cue for a person answer, a company cue for
   a company, a link or PR cue for links, none of those for prose);
3. then the row with the narrower subject: the first of the table's `[subjects]` a row requires (a previous
   release, a competitor, a document kind, a PR, a bug, a feature, ...), which its header argues;
4. still equal: the question is ambiguous and abstains naming the rows (tests/test_intent_table.py fails when
   two rows could ever reach this point on one cue set).

The row's free phrase is the residue: the question's words minus its slots, the cues the row used and stop
words, resolved against the labels the graph holds (kg/qa/residue.py). The timed form of intent X is derived
too: `sparql/asof_X.rq` with `sparql/asof_X.ask.rq`, when both exist.

SELECT query contract: it projects its parameters (pyoxigraph's SEP-0007 substitution requires every bound
variable in the projection), `?answer` (a literal: the eid, PR link, company name, URL or prose sentence)
and `?cite` (a literal: the HERB artifact id of a piece of evidence). One row per (answer, evidence) pair.
ASK proof contract: true when the typed evidence the intent needs exists for the bound slots; when it is
false the system abstains and shows this query and its bindings as the proof.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from kg.qa.cues import Tagged, residue, tag
from kg.qa.intents.binders import BINDERS, READS
from kg.qa.question import Question
from kg.qa.residue import Labels, Resolution, resolve
from kg.query.sparql import Row, Term, library

TABLE = Path(__file__).with_name("table.toml")
ANSWER_TYPES = ("person", "pr", "company", "url", "content")
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
Finisher = Callable[[list[Row]], tuple[list[str], list[str]]]
#: What a false proof means for this intent, in words (default: NO_EVIDENCE).
Absence = Callable[[Question, dict[str, Term]], str]


@dataclass(frozen=True)
class Intent:
    name: str
    answer_type: str
    query: str
    says: str = ""
    requires: tuple[str, ...] = ()
    any_of: tuple[tuple[str, ...], ...] = ()
    forbids: tuple[str, ...] = ()
    slots: tuple[str, ...] = ()
    no_slots: tuple[str, ...] = ()
    binders: tuple[str, ...] = ()
    residue: str | None = None
    subject: int = 0
    finish: Finisher | None = None
    evidence: tuple[str, ...] = ()
    #: False when the query and proof read the product's graph alone (table.toml's `org`).
    org: bool = True
    absent: Absence | None = None
    asof_absent: Absence | None = None

    def __post_init__(self) -> None:
        if self.answer_type not in ANSWER_TYPES:
            raise ValueError(f"intent {self.name}: answer_type must be one of {ANSWER_TYPES}")

    @property
    def proof(self) -> str:
        return f"{self.query}.ask"

    @cached_property
    def specificity(self) -> int:
        """How many constraints a question meets when this row accepts it (rule 1)."""
        return len(self.requires) + len(self.any_of) + len(self.slots) + (1 if self.residue else 0)

    def cues(self) -> set[str]:
        """Every cue the row names (required, alternatives, forbidden)."""
        return {*self.requires, *(c for g in self.any_of for c in g if not c.startswith("@")), *self.forbids}


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


def subject_rank(row: dict[str, Any], order: list[str]) -> int:
    """Rule 3: how narrow the row's subject is (0 = narrowest; rows naming none come last)."""
    named = [*row.get("all", ()), *row.get("slots", ())]
    return next((i for i, subject in enumerate(order) if subject in named), len(order))


def _row(name: str, row: dict[str, Any], named: dict[str, Any], order: list[str]) -> Intent:
    def pick(key: str) -> Any:
        if key not in row:
            return None
        if row[key] not in named:
            raise ValueError(f"intent {name}: unknown {key} {row[key]!r}")
        return named[row[key]]

    return Intent(
        name=name,
        answer_type=row["type"],
        query=row.get("query", name),
        says=row.get("says", ""),
        requires=tuple(row.get("all", ())),
        any_of=tuple(tuple(g) for g in row.get("any", ())),
        forbids=tuple(row.get("none", ())),
        slots=tuple(row.get("slots", ())),
        no_slots=tuple(row.get("no_slots", ())),
        binders=tuple(row.get("bind", ())),
        residue=row.get("residue"),
        subject=subject_rank(row, order),
        finish=pick("finish"),
        evidence=tuple(row.get("evidence", ())),
        org=row.get("org", True),
        asof_absent=pick("asof_absent"),
    )


@cache
def table() -> tuple[dict[str, Any], tuple[Intent, ...]]:
    """The table's settings and its rows, in file order (order never decides a choice)."""
    from kg.qa.intents.asof import ABSENCES, state_answers
    from kg.qa.intents.binders import BINDERS
    from kg.qa.intents.features import keep_best_features, keep_top_authors

    named = {"best_features": keep_best_features, "top_authors": keep_top_authors, "bug_states": state_answers}
    data = tomllib.loads(TABLE.read_text(encoding="utf-8"))
    order = data["subjects"]["order"]
    rows = tuple(_row(name, row, named | ABSENCES, order) for name, row in data["intent"].items())
    for intent in rows:
        if unknown := [b for b in intent.binders if b not in BINDERS]:
            raise ValueError(f"intent {intent.name}: unknown binder(s) {unknown}")
    validate_evidence(rows)
    return data.get("residue", {}), rows


def validate_evidence(rows: Sequence[Intent]) -> None:
    """Every evidence query a row names is in the library (a misspelt one would fail only when asked)."""
    for intent in rows:
        if unknown := [e for e in intent.evidence if e not in library()]:
            raise ValueError(f"intent {intent.name}: no evidence query {unknown} in sparql/")


def load_intents() -> list[Intent]:
    """Every row of the table, then the timed forms found in sparql/ (asof_X.rq with asof_X.ask.rq)."""
    rows = list(table()[1])
    return rows + [v for i in rows if (v := as_of(i)) is not None]


def as_of(intent: Intent) -> Intent | None:
    """The timed form of an intent, when its two query files exist: same answer type and finisher, ?asOf added."""
    from kg.qa.intents.asof import nothing_yet

    name = f"asof_{intent.name}"
    if not (name in library() and f"{name}.ask" in library()):
        return None
    return Intent(
        name, intent.answer_type, name, says=f"{intent.name}, at a time", finish=intent.finish,
        absent=intent.asof_absent or nothing_yet,
    )  # fmt: skip


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
        used = intent.cues() | ignore | {c for b in intent.binders for c in READS.get(b, ())}
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
