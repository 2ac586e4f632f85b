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

from kg.ingest.rules.core import (
    RULE_MODULES,
    RULES,
    Message,
    Rule,
    RuleContext,
    RuleFn,
    load_rules,
    rule,
    run_rules,
    slug,
)

__all__ = [
    "RULES",
    "RULE_MODULES",
    "Message",
    "Rule",
    "RuleContext",
    "RuleFn",
    "load_rules",
    "rule",
    "run_rules",
    "slug",
]
