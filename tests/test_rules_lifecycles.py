"""PR and feature lifecycles as dated state events, on the small product of test_rules_features (its PRs given
review times), and the as-of queries read over them."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, Quad, Store, Variable
from test_rules_features import DAN, MEETINGS, NAMES, ORG, PRS, SLACK, msg

from kg.ingest.herb import Product
from kg.ingest.rules import RuleContext, run_rules
from kg.ingest.rules.lifecycles import Step, pr_lifecycles, pr_steps
from kg.namespaces import node, term
from kg.query.sparql import named_query, prefixed

XSD_DATETIME = NamedNode("http://www.w3.org/2001/XMLSchema#dateTime")


def reviewed(rec: dict, at: str) -> dict:
    """The PR with every review submitted at `at`."""
    out = copy.deepcopy(rec)
    for review in out["reviews"]:
        review["submitted_at"] = at
    return out


#: PR n reviewed one hour after it was opened.
TIMED_PRS = [reviewed(rec, rec["created_at"].replace("T10:", "T11:")) for rec in PRS]


@pytest.fixture(scope="module")
def store() -> Store:
    product = Product(
        "Demo", Path("Demo.json"), list(NAMES), [], {"slack": SLACK, "prs": TIMED_PRS, "meeting_transcripts": MEETINGS}
    )
    ctx = RuleContext(product, ORG)
    run_rules(ctx, ["pr-revert", "pr-decision", "feature-tracks", "feature-discussed", "pr-events", "feature-events"])
    s = Store()
    s.extend(Quad(*statement) for statement in ctx.out)  # in the default graph
    for rec in TIMED_PRS:  # the declarative mapping's type and id, which the queries read
        s.add(_quad(node("artifact", rec["id"]), "rdf:type", term("ekg:PullRequest")))
        s.add(_quad(node("artifact", rec["id"]), "dct:identifier", Literal(rec["id"])))
    for rec in SLACK + MEETINGS:
        s.add(_quad(node("artifact", rec["id"]), "dct:identifier", Literal(rec["id"])))
    return s


def _quad(s: NamedNode, p: str, o: NamedNode | Literal) -> Quad:
    return Quad(s, term(p), o)


def states_at(store: Store, kind: str, at: str) -> dict[str, str]:
    """Item IRI -> state local name at `at`, by sparql/asof_state.rq."""
    rows = store.query(
        prefixed(named_query("asof_state").text),
        use_default_graph_as_union=True,
        substitutions={Variable("asOf"): Literal(at, datatype=XSD_DATETIME), Variable("kind"): term(kind)},
    )
    return {row["item"].value: row["state"].value.rsplit("#", 1)[1] for row in rows}


def pr_iri(number: int) -> str:
    return node("artifact", f"github_com_salesforce_Demo_pull_{number}").value


def test_pr_steps_are_dated_in_order_and_never_before_the_step_they_follow() -> None:
    merged = {
        "id": "p",
        "created_at": "2026-01-05T10:00:00",
        "merged": "True",
        "state": "closed",
        "user": {"login": "eid_1"},
        "reviews": [
            {"state": "COMMENTED", "submitted_at": "2026-01-05T12:00:00", "user": {"login": "eid_2"}},
            {"state": "APPROVED", "submitted_at": "2026-01-05T11:00:00", "user": {"login": "eid_3"}},
        ],
    }
    steps = pr_steps(merged, None)
    assert [(s.kind, s.at, s.agent) for s in steps] == [
        ("opened", "2026-01-05T10:00:00", "eid_1"),
        ("approved", "2026-01-05T11:00:00", "eid_3"),
        ("merged", "2026-01-05T12:00:00", None),
    ]  # merged at the last review: HERB has no merge time
    closed = {**merged, "merged": "False", "reviews": [], "created_at": "2026-01-07T00:00:00"}
    assert [(s.kind, s.at) for s in pr_steps(closed, None)] == [
        ("opened", "2026-01-07T00:00:00"),
        ("closed", "2026-01-07T00:00:00"),
    ]
    open_pr = {**closed, "state": "open"}
    assert [s.kind for s in pr_steps(open_pr, None)] == ["opened"]


def test_pr_state_follows_its_events(store: Store) -> None:
    # PR 3: opened 01-05 10:00, approved and merged 01-05 11:00, reverted by PR 4 opened 01-06 10:00
    assert pr_iri(3) not in states_at(store, "ekg:PullRequest", "2026-01-05T09:59:59")
    assert states_at(store, "ekg:PullRequest", "2026-01-05T10:30:00")[pr_iri(3)] == "PullRequestOpen"
    assert states_at(store, "ekg:PullRequest", "2026-01-05T11:00:00")[pr_iri(3)] == "PullRequestMerged"
    assert states_at(store, "ekg:PullRequest", "2026-01-06T09:59:59")[pr_iri(3)] == "PullRequestMerged"
    assert states_at(store, "ekg:PullRequest", "2026-01-06T10:00:00")[pr_iri(3)] == "PullRequestReverted"
    # PR 6: approved, never merged: approved for good
    assert states_at(store, "ekg:PullRequest", "2030-01-01T00:00:00")[pr_iri(6)] == "PullRequestApproved"


def test_feature_state_discussed_implemented_then_dropped(store: Store) -> None:
    pr3 = next(rec for rec in TIMED_PRS if rec["number"] == "3")  # Bob's feature: the one PR 3 implements
    (bob,) = {
        q.subject.value for q in store.quads_for_pattern(None, term("ekg:implementedBy"), node("artifact", pr3["id"]))
    }
    assert states_at(store, "ekg:Feature", "2026-01-01T09:00:00")[bob] == "Discussed"  # the planning meeting
    assert states_at(store, "ekg:Feature", "2026-01-05T11:00:00")[bob] == "Implemented"  # PR 3 merged
    assert states_at(store, "ekg:Feature", "2026-01-06T10:00:00")[bob] == "Dropped"  # PR 3 reverted


def test_decisions_are_dated_when_taken(store: Store) -> None:
    def created(key: str) -> set[str]:
        return {q.object.value for q in store.quads_for_pattern(node("decision", key), term("dct:created"), None)}

    assert created("Demo/3-reverted") == {"2026-01-06T10:00:00"}  # the revert PR's creation
    assert created("Demo/6-held") == {"2026-01-13T09:00:00"}  # the message that opened the talk
    assert created("Demo/1-merge-later") == {"2026-01-14T09:00:00"}


def test_nothing_before_the_first_event(store: Store) -> None:
    ask = named_query("asof_state.ask").text
    for kind in ("ekg:PullRequest", "ekg:Feature"):
        subs = {Variable("kind"): term(kind)}
        before = {**subs, Variable("asOf"): Literal("2025-12-31T23:59:59", datatype=XSD_DATETIME)}
        after = {**subs, Variable("asOf"): Literal("2026-01-31T00:00:00", datatype=XSD_DATETIME)}
        assert store.query(prefixed(ask), substitutions=before, use_default_graph_as_union=True)  # proved absent
        assert not store.query(prefixed(ask), substitutions=after, use_default_graph_as_union=True)


#: PR 1 with a late comment: opened 01-03 10:00, approved 11:00, last reviewed 12:00.
LATE_REVIEWED = [
    {**rec, "reviews": [*rec["reviews"], {"state": "COMMENTED", "submitted_at": "2026-01-03T12:00:00"}]}
    if rec["number"] == "1"
    else rec
    for rec in TIMED_PRS
]
PR_1 = "github_com_salesforce_Demo_pull_1"


def merge_step(extra: list[dict]) -> Step:
    """PR 1's merge step when the develop channel also holds the messages `extra`."""
    data = {"slack": SLACK + extra, "prs": LATE_REVIEWED, "meeting_transcripts": []}
    ctx = RuleContext(Product("Demo", Path("Demo.json"), list(NAMES), [], data), ORG)
    return next(s for s in pr_lifecycles(ctx)[PR_1] if s.kind == "merged")


def test_a_message_saying_a_pr_was_merged_is_the_merges_evidence_and_its_latest_date() -> None:
    assert merge_step([]) == Step("merged", "2026-01-03T12:00:00", None, (PR_1,))  # the last review
    later = msg("20260104-0-m1000", DAN, "2026-01-04T09:00:00", "Heads up: PR# 1 has been merged.")
    assert merge_step([later]) == Step("merged", "2026-01-03T12:00:00", None, (PR_1, "20260104-0-m1000"))
    link = "https://github.com/salesforce/Demo/pull/1"
    earlier = msg("20260103-0-m1001", DAN, "2026-01-03T11:30:00", f"{link} was merged")
    assert merge_step([later, earlier]) == Step("merged", "2026-01-03T11:30:00", None, (PR_1, "20260103-0-m1001"))
    not_yet = msg("20260103-0-m1002", DAN, "2026-01-03T11:20:00", "PR# 1 was approved but has not been merged yet")
    assert merge_step([not_yet]).sources == (PR_1,)
