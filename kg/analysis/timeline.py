"""An item's timeline: the dated state events the rules wrote for a bug, a pull request or a feature.

Items are named as a user knows them (a bug by its title, a PR by its link, a feature by its label) and found
with `sparql/asof_items.rq`; their events come from `sparql/asof_events.rq`, in lifecycle order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pyoxigraph import Literal

from kg.errors import KGError
from kg.qa.intents.asof import state_labels
from kg.query.sparql import Backend, Term, check_product, named_query, product_dataset
from kg.text import closest


@dataclass
class Event:
    sequence: int
    at: str
    what: str
    state: str
    agent: str | None
    cites: list[str] = field(default_factory=list)


@dataclass
class Timeline:
    item: str
    kind: str
    label: str
    events: list[Event]


def local_name(iri: str) -> str:
    return iri.rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1]


def item_events(backend: Backend, item: Term, product: str) -> list[Event]:
    """The item's events in order, one per event with all the artifacts it was read from."""
    labels = state_labels()
    by_sequence: dict[int, Event] = {}
    for row in backend.select(named_query("asof_events").text, {"item": item}, product_dataset(product)):
        seq = int(row["seq"].value)
        event = by_sequence.setdefault(
            seq,
            Event(
                seq,
                row["at"].value,
                row["what"].value,
                labels.get(row["state"].value, local_name(row["state"].value)),
                local_name(row["agent"].value) if "agent" in row else None,
            ),
        )
        event.cites.append(row["cite"].value)
    return [by_sequence[k] for k in sorted(by_sequence)]


def closest_names(backend: Backend, name: str, product: str, n: int = 3) -> list[str]:
    """The item names of the product closest to `name` (case-insensitive), best first."""
    rows = backend.select(named_query("asof_item_names").text, None, product_dataset(product, org=False))
    return closest(name, (r["label"].value for r in rows), n, cutoff=0.5)


def timelines(backend: Backend, name: str, product: str) -> list[Timeline]:
    """Every item of the product the name denotes, each with its events; KGError when none does."""
    check_product(backend, product)
    rows = backend.select(named_query("asof_items").text, {"name": Literal(name)}, product_dataset(product))
    if not rows:
        close = closest_names(backend, name, product)
        hint = f"; closest: {'; '.join(close)}" if close else ""
        raise KGError(f"no bug titled, PR linked or feature named {name!r} in {product}{hint}")
    return [
        Timeline(
            row["item"].value,
            local_name(row["kind"].value),
            row["label"].value,
            item_events(backend, row["item"], product),
        )
        for row in rows
    ]
