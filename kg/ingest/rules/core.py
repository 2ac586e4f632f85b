"""The rule machinery: the context a rule reads and writes through, the rule registry, and running the rules
(how to write a rule: kg/ingest/rules/__init__.py)."""

from __future__ import annotations

import importlib
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pyoxigraph import Literal, NamedNode

from kg.ingest.herb import Message, Organisation, Product, slack_messages
from kg.ingest.mapping import Statement, agent_node
from kg.namespaces import node, term
from kg.registry import Registry
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
        """All Slack messages of the product, grouped by channel, each channel in time order
        (`kg.ingest.herb.slack_messages`)."""
        return slack_messages(self.product)

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


#: Every rule, by name, in registration order (`kg rules` lists it).
RULES: Registry[Rule] = Registry("rule")


def rule(name: str, summary: str) -> Callable[[RuleFn], RuleFn]:
    """Register a rule under a unique name; the summary is what `kg rules` and the docs show."""

    def register(fn: RuleFn) -> RuleFn:
        RULES.add(name, Rule(name, summary, fn))
        return fn

    return register


def load_rules() -> Registry[Rule]:
    """Import every rule module of `RULE_MODULES` (each registers its rules) and return the registry; a module
    that is missing is an error, never a family of rules silently left out."""
    for module in RULE_MODULES:
        importlib.import_module(f"kg.ingest.rules.{module}")
    return RULES


def run_rules(ctx: RuleContext, names: Iterable[str] | None = None) -> list[Statement]:
    """Apply the named rules (default: all) to one product; returns the statements they wrote."""
    registry = load_rules()
    for name in names or registry.names():
        registry[name].fn(ctx)
    return ctx.out


def slug(text: str) -> str:
    """A stable IRI-safe key for a derived node from free text (titles, names)."""
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")[:80] or "x"
