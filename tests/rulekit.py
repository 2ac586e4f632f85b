"""Helpers the rule tests share: run rules on a fixture context and read back what they wrote."""

from __future__ import annotations

from collections.abc import Iterable

from kg.ingest.rules import RuleContext, run_rules
from kg.namespaces import ID, expand


def rule_triples(ctx: RuleContext, rules: Iterable[str]) -> set[tuple[str, str, str]]:
    """(subject without the id: base, predicate IRI, object value) of every quad the rules wrote."""
    run_rules(ctx, list(rules))
    return {
        (q.subject.value.removeprefix(ID), q.predicate.value, getattr(q.object, "value", str(q.object)))
        for q in ctx.out
    }


def objects(found: set[tuple[str, str, str]], subject: str, prop: str) -> set[str]:
    return {o for s, p, o in found if s == subject and p == expand(prop)}
