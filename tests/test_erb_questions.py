"""The ontology-driven questions on ERB records (issue 39): `kg ask` scopes a question naming a source record by
its id to that record's graph, reads it with the properties the ontology says of source records, answers citing
the record, or proves the fact absent; every way in (the store, `kg serve`'s endpoint and answer page, `kg mcp`)
grants the ERB graphs as it grants HERB products. Expected values are read from the ERB export files, never
from the graph. Also: every edge of the built ERB graphs carries its provenance."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
import requests
from conftest import erb_data
from endpoints import kg_serve
from mcpkit import stdio_session
from pyoxigraph import NamedNode, Store

from kg.cli import main
from kg.qa.answer import Answer, Answerer
from kg.qa.ontology_reader import scoped_schema
from kg.query.sparql import EmbeddedStore

ERB = erb_data() or Path("ERB_DATA-not-set")
pytestmark = [pytest.mark.erb, pytest.mark.slow]
JIRA_KEY, LINEAR_KEY = "INT-10430", "ENG-100341"
EKG = "https://w3id.org/ekg/ont#"
GRAPH = "https://w3id.org/ekg/graph/"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
DERIVED = NamedNode("http://www.w3.org/ns/prov#wasDerivedFrom")
RDF_TYPE = NamedNode(RDF + "type")
STATEMENT = NamedNode(RDF + "Statement")
TOKENS = {"jira": "amlyYS1vbmx5LXRva2VuLWZvci10ZXN0cw", "linear": "bGluZWFyLW9ubHktdG9rZW4tZm9yLXRlc3Rz"}


def export(source: str, key: str) -> dict:
    """The record's export file, found by its key in the file name."""
    (path,) = (ERB / source).glob(f"*{key}-*.json")
    return json.loads(path.read_text(encoding="utf-8"))


def listed(value: object) -> list[str]:
    """A field's values: a list, or a string holding one (the export writes both)."""
    if isinstance(value, str) and value.startswith("["):
        value = ast.literal_eval(value)
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


@pytest.fixture(scope="module")
def answerer(erb_store: Path) -> Answerer:
    return Answerer(EmbeddedStore(erb_store))


def answered(answer: Answer, graph: str) -> list[str]:
    """The answer's values, after checking it is an answer scoped to the graph, citing the record."""
    assert answer.outcome == "answer", answer.reason
    assert answer.slots["product"] == graph
    return list(answer.answer or [])


def test_who_authored_who_is_assigned_and_the_status_of_a_jira_issue(answerer: Answerer) -> None:
    issue = export("jira", JIRA_KEY)
    asked = {
        f"Who authored {JIRA_KEY}?": [issue["reporter"]],
        f"who is assigned {JIRA_KEY}": [issue["assignee"]],
        f"Who is the assignee of {JIRA_KEY}?": [issue["assignee"]],
        f"what is the status of {JIRA_KEY}": [issue["status"]],
    }
    for question, expected in asked.items():
        answer = answerer.ask(question)
        assert answered(answer, "erb-jira") == expected, question
        assert {JIRA_KEY, issue["dataset_doc_uuid"]} <= set(answer.citations)  # the record cited


def test_what_a_linear_issue_links_to(answerer: Answerer) -> None:
    issue = export("linear", LINEAR_KEY)
    answer = answerer.ask(f"What does {LINEAR_KEY} link to?")
    shown = answered(answer, "erb-linear")
    expected = [*listed(issue["parent_issue"]), *listed(issue["dependencies"]), *listed(issue["links"])]
    assert set(expected) <= set(shown)
    assert any("/pull/" in link for link in shown)  # the pull request the issue links
    assert LINEAR_KEY in answer.citations


def test_which_pull_requests_a_record_links(answerer: Answerer) -> None:
    """ "PRs" in a source record's scope asks for its references that are pull requests (ekg:SourcePullRequest:
    GitHub's records, and references by a pull request's link, path or key), not for every reference."""
    issue = export("jira", JIRA_KEY)
    shown = answered(answerer.ask(f"which PRs does {JIRA_KEY} link"), "erb-jira")
    listed_prs = {re.search(r"pr-\d+", v).group(0) for v in listed(issue["related_github_prs"])}  # type: ignore[union-attr]
    assert {m.group(0) for v in shown if (m := re.search(r"pr-\d+", v))} == listed_prs
    linear = export("linear", LINEAR_KEY)
    shown = answered(answerer.ask(f"Which pull requests does {LINEAR_KEY} link?"), "erb-linear")
    assert shown == [link for link in listed(linear["links"]) if "/pull/" in link]


def test_a_fact_the_record_lacks_is_proved_absent_never_guessed(answerer: Answerer) -> None:
    issue = export("jira", JIRA_KEY)
    assert not any("review" in k for k in issue)  # the export names no reviewer of a Jira issue
    answer = answerer.ask(f"who reviewed {JIRA_KEY}")
    assert answer.outcome == "absent" and answer.answer is None
    proof = answer.proof or {}
    assert proof["result"] is True and proof["graphs"] == [GRAPH + "erb-jira", GRAPH + "org"]
    assert proof["bindings"]["property"] == EKG + "recordReviewer"
    text = proof["text"]
    assert "ASK {" in text and "VALUES" in text and "FILTER NOT EXISTS" in text


def test_herb_and_erb_scopes_read_their_own_properties() -> None:
    """A HERB product's question never reads a property declared for source records alone, nor a source
    record's one declared for HERB's kinds alone: "assigned" is a bug's ekg:assignedTo there, a record's
    ekg:assignee here."""
    herb, erb = scoped_schema(False).properties, scoped_schema(True).properties
    for alone in ("assignee", "recordReviewer", "involves", "recipient", "status", "sourceSystem"):
        assert EKG + alone in erb and EKG + alone not in herb
    assert EKG + "assignedTo" in herb and EKG + "assignedTo" not in erb
    assert "http://www.w3.org/ns/prov#wasAttributedTo" in herb and "http://www.w3.org/ns/prov#wasAttributedTo" in erb


@pytest.fixture(scope="module")
def access(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("erb-access") / "access.yaml"
    path.write_text("".join(f'{s}-team: {{token: "{t}", products: [erb-{s}]}}\n' for s, t in TOKENS.items()))
    return path


def test_the_endpoint_and_the_answer_page_grant_erb_graphs_as_products(
    erb_store: Path, access: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    question = f"who authored {JIRA_KEY}"
    assert main(["ask", "--json", "--store", str(erb_store), question]) == 0
    local = json.loads(capsys.readouterr().out)
    with kg_serve(erb_store, tmp_path, "--access", str(access)) as url:
        base = url.removesuffix("/query")

        def api(token: str) -> requests.Response:
            headers = {"Authorization": f"Bearer {token}"}
            return requests.get(f"{base}/api/ask", params={"q": question}, headers=headers, timeout=60)

        assert api(TOKENS["jira"]).json() == local  # the page answers as kg ask does
        refused = api(TOKENS["linear"])  # a record outside the grant: as a product outside it
        assert refused.status_code == 403 and set(refused.json()) == {"error"}
        over = ["ask", "--json", "--endpoint", url, question, "--token"]
        assert main([*over, TOKENS["jira"]]) == 0
        remote = json.loads(capsys.readouterr().out)
        assert remote["answer"] == local["answer"] and remote["slots"]["product"] == "erb-jira"
        assert main([*over, TOKENS["linear"]]) == 2  # an error, never an abstention
        assert "names no product" in capsys.readouterr().err


def test_mcp_grants_erb_graphs_as_products(erb_store: Path, access: Path) -> None:
    question = {"question": f"who authored {JIRA_KEY}"}
    with stdio_session("--store", str(erb_store), "--access", str(access), "--token", TOKENS["jira"]) as session:
        got = session.call("ask", question).value
        assert got["answer"] == [export("jira", JIRA_KEY)["reporter"]]
    with stdio_session("--store", str(erb_store), "--access", str(access), "--token", TOKENS["linear"]) as session:
        refused = session.call("ask", question)
        assert refused.error and "names no product or record this token reads" in refused.text


def test_every_edge_of_the_erb_graphs_carries_its_provenance(erb_store: Path) -> None:
    """As on the HERB side: an edge's subject is the record it was read from (its export file, dct:source, in
    the same graph), or a node read out of records that says which (prov:wasDerivedFrom, in the same graph);
    another record's name as a record writes it is a reified statement derived from the writer. Only the graph's
    own provenance (the approved mapping set, its reviewers) is said of the graph."""
    store = Store.read_only(str(erb_store))
    records = {(q.subject, q.graph_name) for q in store.quads_for_pattern(None, NamedNode(EKG + "sourceSystem"), None)}
    derived = {
        (q.subject, q.graph_name)
        for q in store.quads_for_pattern(None, DERIVED, None)
        if (q.object, q.graph_name) in records
    }
    reified = {statement for statement, g in derived if any(store.quads_for_pattern(statement, RDF_TYPE, STATEMENT, g))}
    said = {
        (one(store, s, "subject"), one(store, s, "predicate"), one(store, s, "object"), s_graph)
        for s in reified
        for s_graph in {g for x, g in derived if x == s}
    }
    unproven, edges = [], 0
    for quad in store:
        if not quad.graph_name.value.startswith(GRAPH + "erb-") or quad.subject == quad.graph_name:
            continue
        edges += 1
        key = (quad.subject, quad.graph_name)
        if key in records or key in derived:
            continue
        if (quad.subject, quad.predicate, quad.object, quad.graph_name) in said:
            continue  # another record's name or kind, as a record states it: the statement is derived from it
        if any(store.quads_for_pattern(quad.graph_name, None, quad.subject, quad.graph_name)):
            continue  # a reviewer the graph is attributed to
        unproven.append(quad)
    assert edges > 5000 and not unproven, unproven[:5]
    # and an edge to a node read out of a record is matched by that node's derivation from the same record
    to_derived = [
        q
        for q in store
        if q.graph_name.value.startswith(GRAPH + "erb-")
        and (q.subject, q.graph_name) in records
        and (q.object, q.graph_name) in derived
        and not any(store.quads_for_pattern(q.object, DERIVED, q.subject, q.graph_name))
    ]
    assert not to_derived, to_derived[:5]


def one(store: Store, statement: NamedNode, part: str) -> object:
    """The subject, predicate or object a reified statement names."""
    return next(iter(store.quads_for_pattern(statement, NamedNode(RDF + part), None))).object
