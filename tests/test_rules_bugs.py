"""Bug lifecycle rules on a small bug channel written here: triage, resolve, reopen, dismiss, look-alikes."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, Quad, Store

from kg.ingest.herb import Organisation, Product
from kg.ingest.rules import RuleContext, run_rules
from kg.ingest.rules.bugs import bug_records, conversation_kind, item_component, item_title
from kg.namespaces import node, term
from kg.text import component_key

CHANNEL = "bug-alice-Demo"


def msg(mid: str, author: str, ts: str, text: str, channel: str = CHANNEL) -> dict:
    return {
        "id": mid,
        "Channel": {"name": channel, "channelID": "ch-1"},
        "Message": {"User": {"userId": author, "timestamp": ts, "text": text, "utterranceID": mid}},
    }


SLACK = [
    msg(
        "20260101-0-aaaaa",
        "eid_00000001",
        "2026-01-01T10:00:00",
        "Hi team, several customers are reporting issues with Demo. Let's go through them one by one.",
    ),
    msg(
        "20260101-1-aaaab",
        "eid_00000001",
        "2026-01-01T10:01:00",
        "First up, we have 'Slow Dashboard Queries'. Reports load slowly, which affects the Database & Query "
        "Engine. This is impacting customer CUST-0001. @eid_00000002, can you take this one?",
    ),
    msg("20260101-2-aaaac", "eid_00000002", "2026-01-01T10:02:00", "On it!"),
    msg(
        "20260101-3-aaaad",
        "eid_00000001",
        "2026-01-01T10:03:00",
        "Next, there's a token leak in the login flow. This affects the Authentication Module and "
        "impacts customer CUST-0002. @eid_00000003, can you handle this?",
    ),
    msg(
        "20260101-4-aaaae",
        "eid_00000001",
        "2026-01-01T10:04:00",
        "Lastly, we have 'Stale Cache Entries' in the Database & Query Engine for CUST-0002. "
        "@eid_00000003, you're up again!",
    ),
    msg(
        "20260102-0-bbbba",
        "eid_00000001",
        "2026-01-02T09:00:00",
        "Hi team, I found some interesting open-source bugs similar to ours. Let's take a look!",
    ),
    msg(
        "20260102-1-bbbbb",
        "eid_00000001",
        "2026-01-02T09:01:00",
        "First, a bug titled 'Slow Dashboard Queries' in Grafana, like what CUST-0001 sees: "
        "https://github.com/grafana/grafana/pull/7",
    ),
    msg(
        "20260105-0-cccca",
        "eid_00000002",
        "2026-01-05T09:00:00",
        "Hi team, the bug titled 'Slow Dashboard Queries' has been resolved.",
    ),
    msg(
        "20260105-1-ccccb",
        "eid_00000002",
        "2026-01-05T09:01:00",
        "Details are in the PR: https://github.com/salesforce/Demo/pull/5",
    ),
    msg(
        "20260106-0-dddda",
        "eid_00000003",
        "2026-01-06T09:00:00",
        "Hi team, I looked into the reported issue about the token leak in the login flow.",
    ),
    msg(
        "20260106-1-ddddb",
        "eid_00000003",
        "2026-01-06T09:01:00",
        "After a thorough review of the bug titled 'Login Token Leak', it is expected behavior and does not "
        "require a fix.",
    ),
    msg(
        "20260108-0-eeeea",
        "eid_00000001",
        "2026-01-08T09:00:00",
        "Hi team, the 'Slow Dashboard Queries' bug has been reopened by CUST-0001. 😕",
    ),
]
PRS = [
    {
        "id": "github_com_salesforce_Demo_pull_5",
        "link": "https://github.com/salesforce/Demo/pull/5",
        "user": {"login": "eid_00000002"},
        "title": "Index dashboard queries",
    },
    {
        "id": "github_com_grafana_grafana_pull_7",
        "link": "https://github.com/grafana/grafana/pull/7",
        "user": {"login": "EMP_1"},
        "title": "Slow queries",
    },
]
ORG = Organisation(
    employees={},
    customers={
        "CUST-0001": {"id": "CUST-0001", "company": "Acme"},
        "CUST-0002": {"id": "CUST-0002", "company": "Globex"},
    },
    org_tree=[],
)


@pytest.fixture()
def ctx() -> RuleContext:
    product = Product("Demo", Path("Demo.json"), [], [], {"slack": SLACK, "prs": PRS})
    context = RuleContext(product, ORG)
    run_rules(context, ["conversations", "bug-reports", "bug-components", "bug-lifecycle"])
    return context


@pytest.fixture()
def store(ctx: RuleContext) -> Store:
    s = Store()
    s.extend(Quad(*statement) for statement in ctx.out)  # in the default graph
    return s


def bug(key: str) -> NamedNode:
    return node("bug", f"Demo/{key}")


def objects(store: Store, s: NamedNode, p: str) -> set:
    return {q.object for q in store.quads_for_pattern(s, term(p), None)}


def test_triage_items_become_bugs_with_title_customer_assignee(ctx: RuleContext, store: Store) -> None:
    bugs = bug_records(ctx)
    assert [b.key for b in bugs] == ["20260101-1-aaaab", "20260101-3-aaaad", "20260101-4-aaaae"]
    first = bug("20260101-1-aaaab")
    assert objects(store, first, "dct:title") == {Literal("Slow Dashboard Queries")}
    assert objects(store, first, "ekg:affectsCustomer") == {node("customer", "CUST-0001")}
    assert objects(store, first, "ekg:assignedTo") == {node("person", "eid_00000002")}
    assert objects(store, first, "ekg:triagedBy") == {node("person", bugs[0].report.author)}
    assert bugs[0].report.author != "eid_00000002"  # who handed it out is not who it went to
    assert objects(store, first, "prov:wasDerivedFrom") == {node("artifact", "20260101-1-aaaab")}


def test_unquoted_title_is_the_phrase_after_there_is(ctx: RuleContext) -> None:
    assert bug_records(ctx)[1].title == "token leak in the login flow"


def test_lookalike_conversation_makes_no_bug(ctx: RuleContext) -> None:
    assert all(not b.key.startswith("20260102") for b in bug_records(ctx))


def test_component_is_the_recurring_capitalised_phrase(store: Store) -> None:
    comp = objects(store, bug("20260101-4-aaaae"), "ekg:affectsComponent")
    assert len(comp) == 1
    assert objects(store, comp.pop(), "skos:hiddenLabel") == {Literal("database query engine")}
    # "Authentication Module" is named once but ends in a component head noun, so it counts
    auth = objects(store, bug("20260101-3-aaaad"), "ekg:affectsComponent")
    assert {o.value for c in auth for o in objects(store, c, "skos:prefLabel")} == {"Authentication Module"}


def test_resolution_reopen_and_dismissal_events_with_state(ctx: RuleContext, store: Store) -> None:
    slow, leak, stale = (b for b in bug_records(ctx))
    assert [e.kind for e in slow.events] == ["reported", "assigned", "resolved", "reopened"]
    assert [e.kind for e in leak.events] == ["reported", "assigned", "dismissed"]
    assert [e.kind for e in stale.events] == ["reported", "assigned"]
    assert objects(store, bug(slow.key), "ekg:bugState") == {term("ekg:Reopened")}
    assert objects(store, bug(leak.key), "ekg:bugState") == {term("ekg:NoFixNeeded")}
    assert objects(store, bug(stale.key), "ekg:bugState") == {term("ekg:Open")}


def test_a_title_a_later_step_quotes_is_another_name_of_the_bug(store: Store) -> None:
    """The dismissal calls the unquoted "token leak in the login flow" 'Login Token Leak': a skos:altLabel; a
    step quoting the report's own title adds none."""
    assert objects(store, bug("20260101-3-aaaad"), "skos:altLabel") == {Literal("Login Token Leak")}
    assert objects(store, bug("20260101-1-aaaab"), "skos:altLabel") == set()


def test_fixing_pr_is_the_teams_pr_linked_in_the_resolution(store: Store) -> None:
    assert objects(store, bug("20260101-1-aaaab"), "ekg:fixedBy") == {
        node("artifact", "github_com_salesforce_Demo_pull_5")
    }


def test_every_event_derives_from_its_message_and_names_its_agent(store: Store) -> None:
    resolved = [q.subject for q in store.quads_for_pattern(None, term("rdf:type"), term("ekg:BugResolved"))]
    assert len(resolved) == 1
    assert objects(store, resolved[0], "prov:wasDerivedFrom") == {node("artifact", "20260105-0-cccca")}
    assert objects(store, resolved[0], "ekg:agent") == {node("person", "eid_00000002")}
    assert objects(store, resolved[0], "ekg:eventOf") == {bug("20260101-1-aaaab")}


def test_rebuilding_is_idempotent(ctx: RuleContext) -> None:
    again = RuleContext(ctx.product, ORG)
    run_rules(again, ["bug-reports", "bug-components", "bug-lifecycle"])
    mine = {q for q in ctx.out if "bug" in q.subject.value or "component" in q.subject.value}
    assert set(again.out) == mine


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Hi team, the bug titled 'X' has been resolved. You can check the PR.", "resolved"),
        ("Hi team, the customer has reopened the 'X' bug.", "reopened"),
        ("Hi team, I looked into the reported issue about X.", "dismissed"),
        ("Hi team, I've found some interesting open-source bugs that might help us.", "lookalike"),
        ("Hi team, several customers are reporting issues with Demo.", "triage"),
        ("@eid_00000001 created this channel on 2026-01-01.", "admin"),
    ],
)
def test_conversation_kind_from_opening_message(text: str, kind: str) -> None:
    from kg.ingest.rules import Message

    assert conversation_kind(Message("1", CHANNEL, "c", "eid_1", "t", text, 0)) == kind


def test_item_title_keeps_apostrophes_inside_words_out_of_quotes() -> None:
    assert item_title("Great! Let's see: next, we have 'Memory Leak in Parser'. It crashes.") == "Memory Leak in Parser"


def test_component_key_ignores_ampersand_and_case() -> None:
    assert component_key("API Security & Access Control") == component_key("api security and access control")


def test_component_named_in_its_own_words_beats_a_variant_read_as_another() -> None:
    # "User Feedback Interface" is a variant read as User Interface; the item also names Security Module itself
    vocabulary = {
        "user interface": "User Interface",
        "security module": "Security Module",
        "user feedback interface": "User Interface",
    }
    text = (
        "Next, we have a 'Cross-Site Scripting (XSS) in User Feedback Interface' issue. This is also in the "
        "Security Module and poses a significant risk for CUST-0042."
    )
    assert item_component(text, vocabulary) == "Security Module"
    assert item_component("The UI stalls in the User Feedback Interface for CUST-0045.", vocabulary) == "User Interface"


def test_item_title_drops_markdown_emphasis() -> None:
    """A triage item written "an issue with **X**" (as in PitchForce's bug channel) is titled X, without stars."""
    said = "Thanks, @eid_17e55125! Next, we have an issue with **Faulty Data Transformation Logic**. There are errors."
    assert item_title(said) == "Faulty Data Transformation Logic"
    assert item_title("Next up, there's __Slow Export Jobs__: exports time out.") == "Slow Export Jobs"
