"""State events: what every lifecycle rule writes so that an item's state at any time is a graph look-up.

A bug, a pull request or a feature changes state through events. Each event node (an ekg:StateEvent) carries
its item (ekg:stateEventOf), its time (dct:created), what happened (ekg:eventKind), the state it leaves the item in
(ekg:stateAfter) and its place in the item's lifecycle (ekg:sequence, which orders events that share a time).
The state at *t* is then the state after the item's latest event at or before *t* (sparql/asof_state.rq).
This module holds the shared writer and the facts the feature rules hand to the lifecycle rules; the rules
themselves live in the modules that read each kind of event (bugs.py) or in lifecycles.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pyoxigraph import Literal, NamedNode

from kg.ingest.rules import RuleContext
from kg.namespaces import term
from kg.vocab import EVENT_KIND, SEQUENCE, STATE_AFTER, STATE_EVENT_OF, XSD_INTEGER


@dataclass
class FeatureFacts:
    """A feature node as the feature rules wrote it: the planning meeting that named it and its team PRs."""

    node: NamedNode
    key: str  # the feature node's key (its IRI is feature/<product>/<key>)
    planning_id: str
    planning_date: str
    pr_numbers: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class DecisionFacts:
    """A feature decision as pr-decision wrote it: on which PR, what it did, and when."""

    node: NamedNode
    pr_number: int
    kind: str  # reverted | held | merge-later
    status: str  # the ekg:FeatureStatus local name it gives: Dropped | Delayed
    at: str
    sources: tuple[str, ...] = ()


def state_event(ctx: RuleContext, record: NamedNode, item: NamedNode, kind: str, state: str, sequence: int) -> None:
    """The state-event fields of an event node the caller has created (with its time)."""
    ctx.add(record, STATE_EVENT_OF, item)
    ctx.add(record, EVENT_KIND, Literal(kind))
    ctx.add(record, STATE_AFTER, term(state))
    ctx.add(record, SEQUENCE, Literal(str(sequence), datatype=XSD_INTEGER))
