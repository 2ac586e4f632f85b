"""The intent registry. An intent = a wording matcher + a SELECT query + an ASK proof query.

A family module (`kg/qa/intents/<family>.py`) registers intents with `register(Intent(...))`:

    register(Intent(
        name="doc_reviewers_by_role",
        answer_type="person",                      # person | pr | company | url | content
        match=match_doc_reviewers_by_role,         # Question -> bindings dict, or None when it does not apply
        query="doc_reviewers_by_role",             # sparql/doc_reviewers_by_role.rq
        proof="doc_reviewers_by_role.ask",         # sparql/doc_reviewers_by_role.ask.rq
        priority=10,                               # higher wins when several intents match
    ))

The matcher reads `q.norm` / `q.sing` / `q.has(...)` / `q.matches(...)` and the parsed slots (`q.product`,
`q.doc_kind`, `q.roles`, `q.companies`, `q.eids`, `q.customer_ids`) and returns the SPARQL bindings as pyoxigraph
terms (e.g. `{"kind": term("ekg:MarketResearchReport"), "role": Literal("QA Specialist")}`), or None.
The product is never a binding: the query runs over the product's dataset (see kg/query/sparql.py).

SELECT query contract: it projects its parameters (pyoxigraph's SEP-0007 substitution requires every bound
variable in the projection), `?answer` (a literal: the eid, PR link, company name, URL or prose sentence)
and `?cite` (a literal: the HERB artifact id of a piece of evidence). One row per (answer, evidence) pair;
rows with only ?cite add citations, rows with only ?answer add answers. Order answers with ORDER BY when the
order matters (content). ASK proof contract: true when the typed evidence the intent needs exists for the bound
slots; when it is false the system abstains and shows this query and its bindings as the proof.
An optional `finish(rows) -> (answers, citations)` replaces the default row folding (rarely needed).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from kg.qa.question import Question
from kg.query.sparql import Row, Term

ANSWER_TYPES = ("person", "pr", "company", "url", "content")
Matcher = Callable[[Question], dict[str, Term] | None]
Finisher = Callable[[list[Row]], tuple[list[str], list[str]]]
#: What a false proof means for this intent, in words (default: "no typed evidence for the bound slots").
Absence = Callable[[Question, dict[str, Term]], str]


@dataclass(frozen=True)
class Intent:
    name: str
    answer_type: str
    match: Matcher
    query: str
    proof: str
    priority: int = 0
    finish: Finisher | None = None
    absent: Absence | None = None

    def __post_init__(self) -> None:
        if self.answer_type not in ANSWER_TYPES:
            raise ValueError(f"intent {self.name}: answer_type must be one of {ANSWER_TYPES}")


INTENTS: dict[str, Intent] = {}


def register(intent: Intent) -> Intent:
    if intent.name in INTENTS:
        raise ValueError(f"intent {intent.name!r} registered twice")
    INTENTS[intent.name] = intent
    _by_priority.cache_clear()
    return intent


@cache
def _import_families() -> None:
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")


@cache
def _by_priority() -> tuple[Intent, ...]:
    """Sorted once per registration, not per question (matching runs for every question)."""
    _import_families()
    return tuple(sorted(INTENTS.values(), key=lambda i: -i.priority))


def load_intents() -> list[Intent]:
    """Import every family module in this package; intents sorted by priority, highest first."""
    return list(_by_priority())


def match_intent(q: Question) -> tuple[Intent, dict[str, Term]] | None:
    """The highest-priority intent whose matcher accepts the question, with its bindings."""
    for intent in _by_priority():
        bindings = intent.match(q)
        if bindings is not None:
            return intent, bindings
    return None
