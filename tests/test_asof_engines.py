"""The as-of queries (every family) and the collaboration query run unchanged on other engines: through `kg serve`
(the Oxigraph server over HTTP) and on Virtuoso 7.2 from Debian, with the same rows as the embedded store on
ConnectForce."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from endpoints import virtuoso as start_virtuoso
from pyoxigraph import Literal, NamedNode, RdfFormat, Store, serialize
from test_serve import start_server

from kg.namespaces import ORG_GRAPH, product_graph, term
from kg.query.remote import RemoteEndpoint
from kg.query.sparql import EmbeddedStore, named_query, product_dataset

pytestmark = [pytest.mark.herb, pytest.mark.slow]
PRODUCT = "ConnectForce"


def dt(at: str) -> Literal:
    return Literal(at, datatype=term("xsd:dateTime"))


TOPIC = {"topic": Literal(" anomal detect "), "ntok": Literal("2", datatype=term("xsd:integer"))}
NLP_TOPIC = {"topic": Literal(" enhanc nlp capabiliti "), "ntok": Literal("3", datatype=term("xsd:integer"))}
#: The as-of form of each PR, feature and bug-superlative intent, with bindings that give rows on ConnectForce.
FAMILY_BINDINGS = [
    ("asof_pr_topic_state", {**TOPIC, "asked": Literal("open")}),
    ("asof_pr_topic_state", {**TOPIC, "asked": Literal("merged")}),
    ("asof_pr_feature_review", {**TOPIC, "approved": Literal(True)}),
    ("asof_pr_feature_review", {**TOPIC, "approved": Literal(False)}),
    ("asof_pr_to_close", NLP_TOPIC),
    ("asof_pr_reverted", {**TOPIC, "reason": term("ekg:IntroducedBugs")}),
    ("asof_feature_added_topic", TOPIC),
    ("asof_feature_dropped", {"reason": term("ekg:IntroducedBugs")}),
    ("asof_feature_delayed", {"reason": term("ekg:ProductDirectionChange")}),
    ("asof_feature_discussed", {}),
    ("asof_feature_discussed_people", {}),
    ("asof_pr_top_author", {"approved": Literal(True)}),
    ("asof_bug_company_max_state", {"asked": Literal("unresolved")}),
    ("asof_bug_assignee_max_state", {"asked": Literal("resolved")}),
    ("asof_bug_resolver_max", {}),
]
TITLE_TEXT = Literal(" what was the state of cache invalidation issues in connectforce ")
PR_10 = NamedNode("https://w3id.org/ekg/id/artifact/github_com_salesforce_ectAIX_pull_10")
CASES = [
    *[
        ("asof_state", {"kind": term(k), "asOf": dt(t)})
        for k in ("ekg:Bug", "ekg:PullRequest", "ekg:Feature")
        for t in ("2026-05-03T06:59:00", "2026-08-31T23:59:59", "9999-12-31T23:59:59")
    ],
    ("asof_state.ask", {"kind": term("ekg:Bug"), "asOf": dt("1900-01-01T00:00:00")}),
    ("asof_state.ask", {"kind": term("ekg:Bug"), "asOf": dt("2026-08-01T00:00:00")}),
    ("asof_events", {"item": PR_10}),
    ("asof_events", {}),
    ("asof_items", {"name": Literal("cache invalidation issues")}),
    ("asof_items", {"name": Literal("https://github.com/salesforce/ectAIX/pull/10")}),
    ("asof_release_time", {}),
    (
        "asof_bug_titles_by_state",
        {"asOf": dt("2026-08-31T23:59:59"), "asked": Literal("unresolved"), "company": Literal("DataSolutions")},
    ),
    ("asof_bug_titles_by_state", {"asOf": dt("2026-08-31T23:59:59"), "asked": Literal("no fix")}),
    ("asof_bug_companies_by_state", {"asOf": dt("2026-07-31T23:59:59"), "asked": Literal("unresolved")}),
    (
        "asof_bug_titles_by_state.ask",
        {"asOf": dt("2026-01-01T23:59:59"), "asked": Literal("unresolved"), "company": Literal("TechCorp")},
    ),
    (
        "asof_bug_titles_by_state.ask",
        {"asOf": dt("2026-12-01T23:59:59"), "asked": Literal("unresolved"), "company": Literal("TechCorp")},
    ),
    ("bug_state", {"text": TITLE_TEXT}),
    ("bug_state.ask", {"text": TITLE_TEXT}),
    ("asof_bug_state", {"text": TITLE_TEXT, "asOf": dt("2026-08-31T23:59:59")}),
    ("asof_bug_state.ask", {"text": TITLE_TEXT, "asOf": dt("2026-08-01T23:59:59")}),
    ("asof_bug_state.ask", {"text": TITLE_TEXT, "asOf": dt("2026-08-31T23:59:59")}),
    ("collab_edges", {}),
    *[
        (
            name,
            {"topic": Literal(" anomal detect "), "ntok": Literal("2", datatype=term("xsd:integer")), "asOf": dt(at)},
        )
        for name in ("asof_pr_to_merge", "asof_pr_to_merge.ask")
        for at in ("2025-01-01T23:59:59", "2026-05-15T23:59:59", "9999-12-31T23:59:59")
    ],
    *[
        (f"{name}{suffix}", {**bindings, "asOf": dt(at)})
        for name, bindings in FAMILY_BINDINGS
        for suffix in ("", ".ask")
        for at in ("2026-05-15T23:59:59", "9999-12-31T23:59:59")
    ],
    *[(f"pr_topic_state{suffix}", bindings) for _, bindings in FAMILY_BINDINGS[:2] for suffix in ("", ".ask")],
    *[
        (name, {"asked": Literal("unresolved"), "asOf": dt(at), **company})
        for name, company in [
            ("asof_bug_titles_by_state.ask", {"company": Literal("TechCorp")}),
            ("asof_bug_companies_by_state.ask", {}),
        ]
        for at in ("2026-01-01T23:59:59", "2026-08-31T23:59:59")
    ],
]


def rows_of(backend: EmbeddedStore | RemoteEndpoint, name: str, bindings: dict) -> object:
    """The rows, without the columns that echo a boolean parameter back (Virtuoso, with no boolean type, echoes
    `true` as 1): those are the caller's own values, not the answer."""
    query, graphs = named_query(name).text, product_dataset(PRODUCT)
    if name.endswith(".ask"):
        return backend.ask(query, bindings, graphs)
    echoed = {k for k, v in bindings.items() if isinstance(v, Literal) and v.datatype == term("xsd:boolean")}
    return sorted(
        tuple(sorted((k, v.value) for k, v in row.items() if k not in echoed))
        for row in backend.select(query, bindings, graphs)
    )


def same_as_embedded(embedded: EmbeddedStore, remote: RemoteEndpoint) -> None:
    for name, bindings in CASES:
        want = rows_of(embedded, name, bindings)
        assert rows_of(remote, name, bindings) == want, (name, bindings)
    assert rows_of(embedded, *CASES[2]), "the cases read real rows (every bug's state today)"


@pytest.fixture(scope="module")
def kg_serve(store: Path) -> Iterator[str]:
    yield from start_server(store)


def test_kg_serve_runs_the_as_of_family_unchanged(store: Path, kg_serve: str) -> None:
    same_as_embedded(EmbeddedStore(store), RemoteEndpoint(f"{kg_serve}/query"))


@pytest.fixture(scope="module")
def virtuoso(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Debian's Virtuoso 7.2 (tests/endpoints.py starts it), loaded with ConnectForce + the organisation graph."""
    home = tmp_path_factory.mktemp("virtuoso")
    data = home / "data"
    data.mkdir()
    real = Store.read_only(str(store))
    quads = [
        q for g in (product_graph(PRODUCT), NamedNode(ORG_GRAPH)) for q in real.quads_for_pattern(None, None, None, g)
    ]
    serialize(quads, output=str(data / "product.nq"), format=RdfFormat.N_QUADS)
    with start_virtuoso(home / "server", data / "product.nq") as url:
        yield url


def test_virtuoso_runs_the_as_of_family_unchanged(store: Path, virtuoso: str) -> None:
    same_as_embedded(EmbeddedStore(store), RemoteEndpoint(virtuoso))
