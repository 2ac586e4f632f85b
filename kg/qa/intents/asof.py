"""As-of intents: questions the bug and PR intents answer, asked about a time ("… unresolved on 2026-08-01?").

A question with a time slot (kg/qa/time.py) is matched like any other (its time expression removed); the
intent X it matches is then routed to its timed form, `sparql/asof_X.rq` with proof `sparql/asof_X.ask.rq`
(found by name, kg.qa.intents.as_of), which runs the same question over the state every item had at that
time: the state after its latest event at or before it (the rules date each event). An intent without a timed
form does not silently answer about today: the question abstains as unsupported. This module holds what the
timed forms share: the state labels, how a proof of absence reads, and the routing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from pyoxigraph import Literal, RdfFormat, Store

from kg.paths import resource
from kg.qa.intents.rows import ABSENCES, FINISHERS, Intent, as_of
from kg.qa.question import Question
from kg.query.sparql import Backend, Row, Term, named_query, product_dataset, solutions
from kg.vocab import XSD_DATETIME

ONTOLOGY = resource("ontology") / "ekg.ttl"


@cache
def state_labels() -> dict[str, str]:
    """State concept IRI -> its label, read from the ontology (the one place the states are defined)."""
    store = Store()
    store.load(path=str(ONTOLOGY), format=RdfFormat.TURTLE)
    rows = solutions(
        store.query(
            "SELECT ?s ?l WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l ; "
            "<http://www.w3.org/2004/02/skos/core#inScheme> ?scheme }"
        )
    )
    return {row["s"].value: row["l"].value for row in rows}


@FINISHERS.register("bug_states")
def state_answers(rows: list[Row]) -> tuple[list[str], list[str]]:
    """Each named bug's state as its label ("resolved"), and the events' citations."""
    labels = state_labels()
    answers = dict.fromkeys(labels.get(r["state"].value, r["state"].value) for r in rows if "state" in r)
    cites = dict.fromkeys(r["cite"].value for r in rows if "cite" in r)
    return list(answers), list(cites)


def shown_time(instant: str) -> str:
    """An instant as a reader wants it: the date alone when it is a day's last second."""
    return instant[:10] if instant.endswith("T23:59:59") else instant


@ABSENCES.register()
def no_bug_in_state(q: Question, bindings: dict[str, Term]) -> str:
    """The proof's reading for a bug listing: no bug was in the asked state then (none reported yet, or all
    in other states; the proof, `asof_X.ask`, is the base proof evaluated at that time)."""
    whose = f"of {bindings['company'].value} " if "company" in bindings else ""
    asked = {"no fix": "closed with no fix needed"}.get(bindings["asked"].value, bindings["asked"].value)
    return f"no bug {whose}in {q.product} was {asked} at {shown_time(bindings['asOf'].value)}"


@ABSENCES.register()
def no_named_bug_yet(q: Question, bindings: dict[str, Term]) -> str:
    return f"no bug named in the question had been reported in {q.product} by {shown_time(bindings['asOf'].value)}"


@ABSENCES.register()
def no_pr_yet(q: Question, bindings: dict[str, Term]) -> str:
    return f"no PR for that feature in {q.product} had been opened by {shown_time(bindings['asOf'].value)}"


@ABSENCES.register()
def no_pr_in_state(q: Question, bindings: dict[str, Term]) -> str:
    """The proof's reading for a PR listing by state: none of the feature's PRs was in that state then."""
    return (
        f"no PR for that feature in {q.product} was {bindings['asked'].value} at {shown_time(bindings['asOf'].value)}"
    )


@ABSENCES.register()
def nothing_yet(q: Question, bindings: dict[str, Term]) -> str:
    """The default reading of a timed form's proof of absence: the evidence did not exist yet."""
    return f"nothing the question needs existed in {q.product} yet by {shown_time(bindings['asOf'].value)}"


@dataclass(frozen=True)
class Refusal:
    """Why a timed question is not answered: the reason, and the proof when a query decided it."""

    reason: str
    proof: dict[str, Any] | None = None


def point_time(point: str, backend: Backend, product: str) -> str | None:
    """The time of a named point in the product's graph ("previous release": when it shipped)."""
    query = named_query("asof_release_time")
    rows = backend.select(query.text, {}, product_dataset(product))
    times = sorted(r["at"].value for r in rows if "at" in r)
    return times[-1] if point == "previous release" and times else None


def route(
    q: Question, intent: Intent, bindings: dict[str, Term], backend: Backend
) -> tuple[Intent, dict[str, Term]] | Refusal:
    """The as-of variant of the matched intent with ?asOf bound, or why the timed question is refused."""
    assert q.time is not None and q.product is not None
    variant = as_of(intent)
    if variant is None:
        return Refusal(f"unsupported question: {intent.name} has no as-of form; ask it without '{q.time.phrase}'")
    if q.time.point is not None:
        at = point_time(q.time.point, backend, q.product)
        if at is None:
            return Refusal(
                f"no time known for '{q.time.phrase}': {q.product} has no dated {q.time.point}",
                {
                    "query": "asof_release_time",
                    "text": named_query("asof_release_time").text,
                    "bindings": {},
                    "result": "no rows",
                },
            )
        instant = q.time.at(at)
    else:
        instant = q.time.at()
    return variant, {**bindings, "asOf": Literal(instant, datatype=XSD_DATETIME)}
