"""As-of state on all 30 HERB products: after the last event it is today's state, before the first event nothing
exists (and a timed question abstains saying so), and the state changes exactly at the dates of the events the
rules wrote. Plus timed questions and `kg timeline` end to end."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode

from kg.cli import main
from kg.ingest.herb import product_names
from kg.namespaces import term
from kg.qa.answer import Answerer
from kg.query.sparql import EmbeddedStore, named_query, product_dataset

XSD_DATETIME = NamedNode("http://www.w3.org/2001/XMLSchema#dateTime")
KINDS = ("ekg:Bug", "ekg:PullRequest", "ekg:Feature")
LONG_AGO, FAR_AHEAD = "1900-01-01T00:00:00", "9999-12-31T23:59:59"
#: How many event times per product and kind the change-point test checks (evenly spread; all when fewer).
SAMPLED_TIMES = 4
pytestmark = pytest.mark.herb


@pytest.fixture(scope="module")
def products(herb: Path) -> list[str]:
    return sorted(product_names(herb))


@pytest.fixture(scope="module")
def backend(store: Path) -> EmbeddedStore:
    return EmbeddedStore(store)


def instant(at: str) -> Literal:
    return Literal(at, datatype=XSD_DATETIME)


def states_at(backend: EmbeddedStore, product: str, kind: str, at: str) -> dict[str, str]:
    rows = backend.select(
        named_query("asof_state").text, {"asOf": instant(at), "kind": term(kind)}, product_dataset(product)
    )
    return {r["item"].value: r["state"].value for r in rows}


def today(backend: EmbeddedStore, product: str, kind: str) -> dict[str, str]:
    """Today's state as the graph states it without events: ekg:bugState, ekg:featureStatus of a discussed
    feature, and for a PR its mapped fields (reverted > merged > closed > approved > open)."""
    graphs = product_dataset(product)
    if kind == "ekg:Bug":
        query = "SELECT ?item ?state WHERE { ?item a ekg:Bug ; ekg:bugState ?state }"
    elif kind == "ekg:Feature":
        query = "SELECT ?item ?state WHERE { ?item a ekg:Feature ; ekg:featureStatus ?state }"
    else:
        query = """SELECT ?item ?state WHERE {
          ?item a ekg:PullRequest ; ekg:merged ?merged ; ekg:prState ?open .
          OPTIONAL { ?item ekg:revertedBy ?by } OPTIONAL { ?rv ekg:reviewOf ?item ; ekg:reviewState ekg:Approved }
          BIND(IF(BOUND(?by), ekg:PullRequestReverted, IF(?merged, ekg:PullRequestMerged,
               IF(?open = "closed", ekg:PullRequestClosed,
               IF(BOUND(?rv), ekg:PullRequestApproved, ekg:PullRequestOpen)))) AS ?state) }"""
    return {r["item"].value: r["state"].value for r in backend.select(query, None, graphs)}


@cache
def today_and_latest(backend: EmbeddedStore, product: str, kind: str) -> tuple[dict[str, str], dict[str, str]]:
    """Today's states and the as-of states after the last event: read once, for the two tests that use them."""
    return today(backend, product, kind), states_at(backend, product, kind, FAR_AHEAD)


def test_after_the_last_event_the_state_is_todays(backend: EmbeddedStore, products: list[str]) -> None:
    for product in products:
        for kind in KINDS:
            now, latest = today_and_latest(backend, product, kind)
            assert {i: s for i, s in latest.items() if i in now} == now, (product, kind)
            if kind != "ekg:Feature":  # only discussed features state a status today; every bug and PR does
                assert latest.keys() == now.keys(), (product, kind)


def test_before_the_first_event_nothing_exists(backend: EmbeddedStore, products: list[str]) -> None:
    ask = named_query("asof_state.ask").text
    for product in products:
        for kind in KINDS:
            assert backend.ask(ask, {"asOf": instant(LONG_AGO), "kind": term(kind)}, product_dataset(product))
            assert states_at(backend, product, kind, LONG_AGO) == {}


def test_timed_question_before_any_bug_abstains_saying_so(answerer: Answerer, products: list[str]) -> None:
    for product in products:
        got = answerer.ask(f"Which bugs in {product} were unresolved on 1900-01-01?")
        assert got.abstain and got.intent == "asof_bug_titles_by_state", product
        assert got.reason == f"no bug in {product} was unresolved at 1900-01-01"
        assert got.proof["query"] == "asof_bug_titles_by_state.ask" and got.proof["result"] is True


def model_state(events: list[tuple[int, str, str]], at: str) -> str | None:
    """The state after the latest (by sequence) event at or before `at`: the definition, in Python."""
    seen = [e for e in events if e[1] <= at]
    return max(seen)[2] if seen else None


@pytest.mark.slow
def test_state_changes_exactly_at_event_dates(backend: EmbeddedStore, products: list[str]) -> None:
    """At every sampled event time t the query's state is the model's, and one second before t it is the
    state before that event: the state changes at the events the rules wrote and nowhere else."""
    for product in products:
        rows = backend.select(named_query("asof_events").text, None, product_dataset(product))
        events: dict[str, set[tuple[int, str, str]]] = defaultdict(set)
        for r in rows:
            events[r["item"].value].add((int(r["seq"].value), r["at"].value, r["state"].value))
        for kind in KINDS:
            items = set().union(*today_and_latest(backend, product, kind))
            times = sorted({at for item in items for _, at, _ in events[item]})
            for t in times[:: max(1, len(times) // SAMPLED_TIMES)]:
                before = (datetime.fromisoformat(t) - timedelta(seconds=1)).isoformat()
                for at in (t, before):
                    expected = {i: s for i in items if (s := model_state(sorted(events[i]), at)) is not None}
                    assert states_at(backend, product, kind, at) == expected, (product, kind, at)


def test_timed_question_answers_the_state_then(answerer: Answerer) -> None:
    q = "Which bugs reported by {c} in ConnectForce were unresolved {when}?"
    now = answerer.ask(q.format(c="DataSolutions", when="").replace(" ?", "?"))
    later = answerer.ask(q.format(c="DataSolutions", when="on 2030-01-01"))
    assert later.intent == "asof_bug_titles_by_state" and later.answer == now.answer
    early = answerer.ask(q.format(c="TechCorp", when="on 2026-01-01"))
    assert early.abstain and early.reason == "no bug of TechCorp in ConnectForce was unresolved at 2026-01-01"
    companies = answerer.ask("Which companies had unresolved bugs in ConnectForce at the end of July 2026?")
    assert companies.intent == "asof_bug_companies_by_state" and companies.slots["asOf"] == "2026-07-31T23:59:59"
    assert not companies.abstain and companies.citations


def test_a_timed_question_without_an_as_of_form_is_refused(answerer: Answerer) -> None:
    got = answerer.ask(
        "Who provided insights on the weaknesses of ConnectForce's competitor products as of 2026-08-01?"
    )
    assert got.abstain and got.reason.startswith("unsupported question: competitor_insight_providers has no as-of form")
    routed = answerer.ask("Which company has the most unresolved bugs in ConnectForce as of 2026-08-01?")
    assert routed.intent == "asof_bug_company_max_state", "an intent with sparql/asof_X.rq is routed to it by name"


def test_previous_release_is_a_named_point(answerer: Answerer, backend: EmbeddedStore) -> None:
    shipped = backend.select(named_query("asof_release_time").text, None, product_dataset("LeadForce"))
    assert shipped, "LeadForce's previous release has a date"
    got = answerer.ask("Which companies had unresolved bugs in LeadForce when LeadForce's previous release shipped?")
    assert got.intent == "asof_bug_companies_by_state"
    assert got.slots["asOf"] == max(r["at"].value for r in shipped)
    none = answerer.ask("Which companies had unresolved bugs in ConnectForce at the time of the previous release?")
    assert none.abstain and "has no dated previous release" in none.reason


def test_bug_state_today_and_at_a_time(answerer: Answerer, backend: EmbeddedStore) -> None:
    title = "Cache Invalidation Issues"  # ConnectForce: reported 2026-08-22, resolved 2026-09-21
    assert answerer.ask(f"What is the state of the {title} bug in ConnectForce?").answer == "resolved"
    then = answerer.ask(f"What was the status of {title} in ConnectForce at the end of August 2026?")
    assert then.intent == "asof_bug_state" and then.answer == "open"
    before = answerer.ask(f"What was the state of {title} in ConnectForce before August 2026?")
    assert before.abstain and "had been reported" in before.reason


def test_timeline_prints_events_in_order_with_artifacts(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["timeline", "Cache Invalidation Issues", "--product", "ConnectForce", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    lines = [line.split() for line in out.splitlines()[3:]]
    assert [line[2] for line in lines] == ["reported", "assigned", "resolved"]
    assert lines[0][-1] == "20260821-5-e9503" and lines[2][-1] == "20260921-0-3691f"
    assert "Alice Taylor (Software Engineer, eid_ba9224d2)" in out  # people as name, role and eid
    assert main(["timeline", "no such bug", "--product", "ConnectForce", "--store", str(store)]) == 2
    assert "kg: error: no bug titled" in capsys.readouterr().err
    assert main(["timeline", "cache invalidation", "--product", "ConnectForce", "--store", str(store)]) == 2
    assert "closest: Cache Invalidation Issues" in capsys.readouterr().err
    assert main(["timeline", "Cache Invalidation Issues", "--product", "ConnectForc", "--store", str(store)]) == 2
    assert "did you mean ConnectForce" in capsys.readouterr().err
    args = ["timeline", "Cache Invalidation Issues", "--product", "ConnectForce", "--json", "--store", str(store)]
    assert main(args) == 0
    got = json.loads(capsys.readouterr().out)
    assert [e["what"] for e in got["timelines"][0]["events"]] == ["reported", "assigned", "resolved"]
    assert got["people"]["eid_ba9224d2"] == {"name": "Alice Taylor", "role": "Software Engineer"}


def test_timed_answers_serialise(answerer: Answerer) -> None:
    got = answerer.ask("Which bugs in ConnectForce were resolved as of 2026-07-01?")
    assert json.loads(json.dumps(got.to_json()))["slots"]["time"] == "as of 2026-07-01"


def test_pr_to_merge_as_of_agrees_with_today_and_abstains_before(answerer: Answerer, herb: Path) -> None:
    """Every dev question that reaches pr_to_merge: after the last event the same PRs, before the first none."""
    lines = (herb / "qa" / "dev" / "answerable.jsonl").read_text().splitlines()
    questions = [
        q
        for q in (json.loads(line)["question"].rstrip("?") for line in lines)
        if answerer.ask(q).intent == "pr_to_merge"
    ]
    assert questions, "the dev set asks which PRs need to be merged"
    for q in questions:
        now, later = answerer.ask(q), answerer.ask(f"{q} as of 9999-12-31?")
        assert later.intent == "asof_pr_to_merge" and sorted(later.answer) == sorted(now.answer), q
        early = answerer.ask(f"{q} on 1900-01-01?")
        assert early.abstain and early.reason.endswith("had been opened by 1900-01-01"), q
