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

from kg.qa.cues import Tagged, residue_positions, tag
from kg.qa.intents.binders import BINDERS, FAMILIES, READS
from kg.qa.question import Question
from kg.qa.reading import ASKED_BY, Account, account, canonical, explained_by_phrase
from kg.qa.residue import Labels, Resolution, resolve
from kg.query.sparql import Row, Term, library

TABLE = Path(__file__).with_name("table.toml")
ANSWER_TYPES = ("person", "pr", "company", "url", "content")
#: How many readings an uncertain question offers.
READINGS_SHOWN = 3
SLOTS: dict[str, Callable[[Question], list[str]]] = {
    "doc_kind": lambda q: [q.doc_kind] if q.doc_kind else [],
    "role": lambda q: q.roles,
    "company": lambda q: q.companies,
    "eid": lambda q: q.eids,
    "customer_id": lambda q: q.customer_ids,
}
Finisher = Callable[[list[Row]], tuple[list[str], list[str]]]
#: What a false proof means for this intent, in words (default: "no typed evidence for the bound slots").
Absence = Callable[[Question, dict[str, Term]], str]


@dataclass(frozen=True)
class Intent:
    name: str
    answer_type: str
    query: str
    says: str = ""
    #: The canonical wording, with {slot} places (kg/qa/reading.py fills them): how an uncertain reading is shown.
    ask: str = ""
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
    #: Constraint cues the row's wording may carry without narrowing its answer (table.toml's `explains`).
    explains: tuple[str, ...] = ()
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
    #: What the reading leaves unexplained (kg/qa/reading.py); None for a near miss.
    account: Account | None = None
    #: The reading written out as the row's canonical question.
    reading: str = ""
    #: The row's other readings of the question (another member of a cue family bound), best first.
    alternatives: list[Candidate] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """The reading accounts for every cue of the question, and its free phrase (if any) resolved."""
        return (
            self.bindings is not None
            and self.account is not None
            and self.account.complete
            and (self.resolution is None or self.resolution.resolved)
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"intent": self.intent.name, "score": list(self.score)}
        if self.missing:
            out["missing"] = self.missing
        if self.resolution:
            out["residue"] = self.resolution.to_json()
        if self.account is not None and not self.account.complete:
            out["unexplained"] = self.account.to_json()
        if self.reading:
            out["reading"] = self.reading
        if self.alternatives:
            out["other readings"] = [
                {
                    "reading": a.reading,
                    "complete": a.complete,
                    **({"unexplained": a.account.to_json()} if a.account else {}),
                }
                for a in self.alternatives
            ]
        return out


@dataclass
class Choice:
    """The chooser's outcome: the winner (if any), every accepting row, and the question's cues."""

    tagged: Tagged
    winner: Candidate | None = None
    accepted: list[Candidate] = field(default_factory=list)
    near: list[Candidate] = field(default_factory=list)
    ambiguous: list[str] = field(default_factory=list)

    @property
    def uncertain(self) -> bool:
        """No complete reading wins: the best rows tie, or the winner leaves a cue or asked type unexplained."""
        return bool(self.ambiguous) or (self.winner is not None and not self.winner.complete)

    def readings(self, most: int = READINGS_SHOWN) -> list[Candidate]:
        """The best distinct readings to offer for an uncertain question: accepting rows and their other
        readings first (complete ones first, then by the chooser's rank), then near misses, each once per
        canonical wording, and none with a place the question gave no value for."""
        readings = [r for c in self.accepted for r in (c, *c.alternatives)]
        ranked = sorted(readings, key=lambda c: (not c.complete, tuple(-x for x in c.score)))
        out: dict[str, Candidate] = {}
        for c in [*ranked, *sorted(self.near, key=lambda c: tuple(-x for x in c.score))]:
            if c.reading and "<" not in c.reading and c.reading not in out:
                out[c.reading] = c
        return list(out.values())[:most]

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
        ask=row.get("ask", ""),
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
        explains=tuple(row.get("explains", ())),
        org=row.get("org", True),
        asof_absent=pick("asof_absent"),
    )


@cache
def constraints() -> frozenset[str]:
    """The cues a complete reading must explain (table.toml's [reading])."""
    return frozenset(tomllib.loads(TABLE.read_text(encoding="utf-8"))["reading"]["constraints"])


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
        name, intent.answer_type, name, says=f"{intent.name}, at a time", ask=intent.ask, finish=intent.finish,
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
    not, or a candidate with bindings. When the question carries two members of a family the row binds one of
    (two reasons, two states), each is tried, the others' words left to the free phrase: the one reading that
    accounts for every word wins, and with none or several the reading is contested."""
    unmet = _unmet(intent, found, q)
    if unmet is not None and not unmet[1]:
        return None
    if unmet is not None:
        candidate = Candidate(intent, rank(intent, found), missing=unmet[0])
        candidate.reading = canonical(intent.ask, q, {}, None)
        return candidate
    variants = [reading(intent, q, tagged, labels, found, dropped) for dropped in family_choices(intent, tagged)]
    complete = [c for c in variants if c.complete]
    chosen = complete[0] if len(complete) == 1 else variants[0]
    chosen.alternatives = [c for c in variants if c is not chosen]
    return chosen


def family_choices(intent: Intent, tagged: Tagged) -> list[set[str]]:
    """For each way of binding one member of each cue family the row's binders read, the members left out.
    A member whose every match lies inside another cue's ("resolved" in "not resolved") is no member."""
    found = tagged.found
    out: list[set[str]] = [set()]
    for binder in intent.binders:
        members = [c for c in FAMILIES.get(binder, ()) if c in found and not tagged.inside_other(c)]
        if len(members) > 1:
            out = [d | (set(members) - {keep}) for d in out for keep in members]
    return out


def reading(
    intent: Intent, q: Question, tagged: Tagged, labels: Labels | None, found: set[str], dropped: set[str]
) -> Candidate:
    """The row's reading of the question with the cues `dropped` left unbound: bindings, free phrase, account."""
    candidate = Candidate(intent, rank(intent, found))
    found = found - dropped
    bindings: dict[str, Term] = {}
    for name in intent.binders:
        made = BINDERS[name](q, found)
        if made is None:
            candidate.missing = f"binder {name} found nothing to bind"
            candidate.reading = canonical(intent.ask, q, {}, None)
            return candidate
        bindings |= made
    ignore = set(table()[0].get("ignore", ()))
    used = (intent.cues() | ignore | {c for b in intent.binders for c in READS.get(b, ())}) - dropped
    explained: set[int] = set()
    if intent.residue:
        positions = residue_positions(tagged, used)
        phrase = " ".join(tagged.words[i] for i in positions)
        candidate.resolution = resolve(intent.residue, phrase, labels)
        bindings |= candidate.resolution.bindings
        explained = explained_by_phrase(tagged, positions, candidate.resolution)
        if not candidate.resolution.resolved:  # an unresolved phrase is a constraint not met
            candidate.score = (candidate.score[0] - 1, *candidate.score[1:])
    candidate.bindings = bindings
    candidate.account = account(
        q, tagged, used | set(intent.explains), explained, intent.answer_type, constraints(), contested=dropped
    )
    shown = {k: getattr(v, "value", str(v)) for k, v in bindings.items()}
    candidate.reading = canonical(intent.ask, q, shown, candidate.resolution)
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
