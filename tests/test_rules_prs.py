"""PR rules on a small product written here: why a PR was dropped is read from the develop thread about it
(its opener, else the next replies), never from the revert PR's title or the PR's own summary."""

from __future__ import annotations

from pathlib import Path

from rulekit import objects, rule_triples
from test_rules_features import msg, pr

from kg.ingest.herb import Organisation, Product
from kg.ingest.rules import RuleContext
from kg.ingest.rules.prs import thread_reason
from kg.namespaces import expand

ALICE, BOB = "eid_0000000a", "eid_0000000b"
ORG = Organisation({ALICE: {"name": "Alice Smith"}, BOB: {"name": "Bob Jones"}}, {}, [])
PRS = [
    # a security PR, reverted because the product direction changed (the revert's title says "security")
    pr(
        1,
        "Implement AES-256 Encryption",
        "Encrypt data at rest for security.",
        ALICE,
        "2026-01-03T10:00:00",
        True,
        ["APPROVED"],
    ),
    pr(
        2,
        "Revert PR# 1: Address Security Risks in Encryption",
        "Security revert.",
        ALICE,
        "2026-01-06T10:00:00",
        True,
        ["APPROVED"],
    ),
    # a security audit PR, approved and held because of a new direction; a reply mentions security
    pr(
        3,
        "Conduct Security Audit",
        "Schedule penetration testing for security.",
        BOB,
        "2026-01-04T10:00:00",
        False,
        ["APPROVED"],
    ),
    # a PR reverted for bugs, where only a reply says why
    pr(4, "Optimise Cache", "Cache frequent queries.", BOB, "2026-01-05T10:00:00", True, ["APPROVED"]),
    pr(5, "Revert PR# 4: Cache Changes", "Revert the cache.", BOB, "2026-01-08T10:00:00", True, ["APPROVED"]),
]
SLACK = [
    msg(
        f"20260103-0-s{n}000",
        ALICE,
        f"2026-01-0{n + 2}T10:05:00",
        f"please check my PR https://github.com/salesforce/Demo/pull/{n}",
    )
    for n in range(1, 6)
] + [
    msg(
        "20260107-0-d1000",
        BOB,
        "2026-01-07T09:00:00",
        "Hi team, PR# 1 was merged, but I've heard that our product direction has changed. Should we revert it?",
    ),
    msg("20260107-1-d1001", ALICE, "2026-01-07T09:01:00", "Yes, the security work is no longer needed."),
    msg(
        "20260107-0-d3000",
        ALICE,
        "2026-01-07T10:00:00",
        "Hi team, PR# 3 is approved but not merged yet. Given the change in product direction, do we need it?",
    ),
    msg("20260107-1-d3001", BOB, "2026-01-07T10:01:00", "The security audit can wait; let's close it."),
    msg(
        "20260108-0-d4000",
        ALICE,
        "2026-01-08T09:00:00",
        "Hi team, there's a discussion about reverting PR# 4. Can someone explain?",
    ),
    msg("20260108-1-d4001", BOB, "2026-01-08T09:01:00", "It introduced bugs in the dashboard."),
]


def found() -> set[tuple[str, str, str]]:
    product = Product("Demo", Path("Demo.json"), [ALICE, BOB], [], {"slack": SLACK, "prs": PRS})
    return rule_triples(RuleContext(product, ORG), ["pr-revert", "pr-decision"])


def test_security_pr_dropped_for_product_direction() -> None:
    triples = found()
    assert objects(triples, "decision/Demo/1-reverted", "ekg:statusReason") == {expand("ekg:ProductDirectionChange")}
    assert objects(triples, "decision/Demo/3-held", "ekg:statusReason") == {expand("ekg:ProductDirectionChange")}


def test_reason_from_the_replies_when_the_opener_gives_none() -> None:
    triples = found()
    assert objects(triples, "decision/Demo/4-reverted", "ekg:statusReason") == {expand("ekg:IntroducedBugs")}
    assert objects(triples, "decision/Demo/4-reverted", "ekg:decisionKind") == {"reverted"}


def test_thread_reason_reads_the_opener_first() -> None:
    from kg.ingest.rules import Message

    def m(text: str) -> Message:
        return Message("x", "develop-a", "c", ALICE, "t", text, 0)

    assert thread_reason([m("PR# 9 broke the build with bugs"), m("security too")]) == "IntroducedBugs"
    assert thread_reason([m("about PR# 9?"), m("ok"), m("ok"), m("ok"), m("a security risk")]) is None
