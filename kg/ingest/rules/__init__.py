"""Named, deterministic rules that turn artifact text into typed, provenance-carrying edges.

A rule is a function `rule(ctx: RuleContext) -> None` registered with `@rule("name")`. It reads the
product's records through `ctx` (indexed views below) and writes triples with `ctx.add(s, p, o)` into the
product's named graph. Every node a rule derives (a bug, a suggestion, a feature, ...) must carry
`prov:wasDerivedFrom` the artifact(s) it came from — `ctx.derived(kind, key, cls, source_ids)` does that.
Edges whose subject is the artifact itself (a message mentions a person) carry provenance in that subject.

Rules run in registration order (module import order in `RULE_MODULES`), one product at a time; a rule may
read what earlier rules derived through `ctx.facts` (a dict the rules share, keyed by the rule's own name).
Each rule is documented for data stewards in `mappings/rules/<module>.md` and unit-tested on small fixtures.

Minimal example::

    @rule("mentions", "An `@eid_…` in a message's text: the message ekg:mentions that employee.")
    def mentions(ctx: RuleContext) -> None:
        for msg in ctx.messages:
            for eid in EID_MENTION.findall(msg.text):
                ctx.add(ctx.artifact(msg.id), EKG_MENTIONS, ctx.person(eid))
"""

from __future__ import annotations

import importlib
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pyoxigraph import Literal, NamedNode

from kg.ingest.herb import Organisation, Product
from kg.ingest.mapping import Statement, agent_node
from kg.namespaces import node, term
from kg.vocab import RDF_TYPE, WAS_DERIVED_FROM

#: Rule modules, imported in this order; each registers its rules on import.
RULE_MODULES = [
    "messages",
    "repositories",
    "documents",
    "bugs",
    "features",
    "prs",
    "competitors",
    "releases",
    "lifecycles",
]


@dataclass(frozen=True)
class Message:
    """A Slack message flattened: the fields rules read, in channel order."""

    id: str
    channel: str
    channel_id: str
    author: str
    timestamp: str
    text: str
    position: int  # index within its channel, by timestamp then id order in the file


@dataclass
class RuleContext:
    """Everything a rule may read about one product, plus `add` to write into its graph."""

    product: Product
    org: Organisation
    out: list[Statement] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)

    def add(self, s: NamedNode, p: NamedNode, o: NamedNode | Literal) -> None:
        self.out.append(Statement(s, p, o))

    def derived(self, kind: str, key: str, cls: NamedNode | str, source_ids: Iterable[str]) -> NamedNode:
        """A derived node `id:{kind}/{product}/{key}` typed `cls`, with prov:wasDerivedFrom its sources."""
        subject = node(kind, f"{self.product.name}/{key}")
        self.add(subject, RDF_TYPE, term(cls) if isinstance(cls, str) else cls)
        for source in source_ids:
            self.add(subject, WAS_DERIVED_FROM, self.artifact(source))
        return subject

    @staticmethod
    def artifact(herb_id: str) -> NamedNode:
        return node("artifact", herb_id)

    @staticmethod
    def person(eid: str) -> NamedNode:
        return node("person", eid)

    @staticmethod
    def agent(login: str) -> NamedNode:
        return agent_node(login)

    @staticmethod
    def customer(cust_id: str) -> NamedNode:
        return node("customer", cust_id)

    @property
    def product_node(self) -> NamedNode:
        return node("product", self.product.name)

    @cached_property
    def messages(self) -> list[Message]:
        """All Slack messages of the product, grouped by channel, each channel in time order. A channel is its
        channelID: two channels may share a name (two members with the same name each get one)."""
        by_channel: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for rec in self.product.artifacts.get("slack", []):
            by_channel[str(rec["Channel"].get("channelID") or rec["Channel"].get("name", ""))].append(rec)
        out: list[Message] = []
        for recs in by_channel.values():
            recs.sort(key=lambda r: str(r["Message"]["User"].get("timestamp", "")))
            for i, rec in enumerate(recs):
                user = rec["Message"]["User"]
                out.append(
                    Message(
                        rec["id"],
                        str(rec["Channel"].get("name", "")),
                        str(rec["Channel"].get("channelID", "")),
                        str(user.get("userId", "")),
                        str(user.get("timestamp", "")),
                        str(user.get("text", "")),
                        i,
                    )
                )
        return out

    @cached_property
    def channels(self) -> dict[str, list[Message]]:
        """Messages by channelID (read a channel's name from its messages' `channel`)."""
        out: dict[str, list[Message]] = defaultdict(list)
        for msg in self.messages:
            out[msg.channel_id or msg.channel].append(msg)
        return dict(out)

    def records(self, kind: str) -> list[dict[str, Any]]:
        return self.product.artifacts.get(kind, [])

    @cached_property
    def roster_by_name(self) -> dict[str, list[str]]:
        """Team member names -> eids (several when the name is ambiguous within this product's roster)."""
        out: dict[str, list[str]] = defaultdict(list)
        for eid in self.product.team:
            emp = self.org.employees.get(eid)
            if emp and emp.get("name"):
                out[str(emp["name"]).casefold()].append(eid)
        return dict(out)


RuleFn = Callable[[RuleContext], None]


@dataclass(frozen=True)
class Rule:
    name: str
    summary: str
    fn: RuleFn


RULES: dict[str, Rule] = {}


def rule(name: str, summary: str) -> Callable[[RuleFn], RuleFn]:
    """Register a rule under a unique name; the summary is what `kg rules` and the docs show."""

    def register(fn: RuleFn) -> RuleFn:
        if name in RULES:
            raise ValueError(f"rule {name!r} registered twice")
        RULES[name] = Rule(name, summary, fn)
        return fn

    return register


def load_rules() -> dict[str, Rule]:
    """Import every rule module that exists (families land independently) and return the registry."""
    for module in RULE_MODULES:
        try:
            importlib.import_module(f"kg.ingest.rules.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"kg.ingest.rules.{module}":
                raise
    return RULES


def run_rules(ctx: RuleContext, names: Iterable[str] | None = None) -> list[Statement]:
    """Apply the named rules (default: all) to one product; returns the statements they wrote."""
    registry = load_rules()
    for name in names or list(registry):
        registry[name].fn(ctx)
    return ctx.out


def slug(text: str) -> str:
    """A stable IRI-safe key for a derived node from free text (titles, names)."""
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")[:80] or "x"
