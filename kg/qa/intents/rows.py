"""An intent row (kg/qa/intents/table.toml) as the chooser and the answerer read it, its timed form, and the
registries the table's rows name their behaviour from: finishers (`finish`: how rows become answers) and
absences (`asof_absent`: what a timed form's true proof means). Each is registered by a decorator where it is
defined (kg.qa.intents.features, kg.qa.intents.asof); a row naming an unregistered one fails when the table
loads."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from kg.qa.question import Question
from kg.query.sparql import Row, Term, library
from kg.registry import Registry

ANSWER_TYPES = ("person", "pr", "company", "url", "content")
Finisher = Callable[[list[Row]], tuple[list[str], list[str]]]
#: What a true proof (proved absent) means for this intent, in words (default: kg.qa.answer.NO_EVIDENCE).
Absence = Callable[[Question, dict[str, Term]], str]
#: Finishers by the name a row's `finish` gives.
FINISHERS: Registry[Finisher] = Registry("finisher")
#: Readings of a timed form's true proof by the name a row's `asof_absent` gives (default: "nothing_yet").
ABSENCES: Registry[Absence] = Registry("absence")


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
    #: Cues the row's wording may carry without narrowing its answer (table.toml's `explains`).
    explains: tuple[str, ...] = ()
    #: False when the query and proof read the product's graph alone (table.toml's `org`).
    org: bool = True
    absent: Absence | None = None
    asof_absent: Absence | None = None
    #: The state words (table.toml's [states]) its questions use.
    states: tuple[str, ...] = ()
    #: What a query that finds no rows after a failed proof means (table.toml's `empty`): "absent" where the
    #: query only narrows what its proof found; "uncertain" where its rows depend on a rule that may place nothing
    #: ("who took on a discussed feature": a name two participants share).
    empty: str = "absent"
    #: Slots that narrow the rows after the query (table.toml's `filters`): "repo", for rows that carry the pull
    #: request they count or list (`?pr`), kept to the repositories the question names.
    filters: tuple[str, ...] = ()
    #: The query read where the question names no topic and no feature word: the whole product's (table.toml's
    #: `every`).
    every: str | None = None
    #: The bindings of the ranked query (`<query>_ranked.rq`) whose rows, together, are everyone a fewest is read
    #: among (table.toml's `universe`: "any" state, approved or not): those not in the asked rows have none.
    universe: tuple[dict[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if self.answer_type not in ANSWER_TYPES:
            raise ValueError(f"intent {self.name}: answer_type must be one of {ANSWER_TYPES}")
        if self.empty not in ("absent", "uncertain"):
            raise ValueError(f"intent {self.name}: empty must be absent or uncertain")

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


def as_of(intent: Intent) -> Intent | None:
    """The timed form of an intent, when its two query files exist: same answer type and finisher, ?asOf added."""
    name = f"asof_{intent.name}"
    if not (name in library() and f"{name}.ask" in library()):
        return None
    return Intent(
        name, intent.answer_type, name, says=f"{intent.name}, at a time", ask=intent.ask, finish=intent.finish,
        absent=intent.asof_absent or ABSENCES["nothing_yet"], empty=intent.empty,
    )  # fmt: skip
