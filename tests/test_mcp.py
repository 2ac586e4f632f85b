"""`kg mcp` driven by the MCP SDK's own client over stdio and streamable HTTP, on a real two-product store.

Every tool with good and hostile arguments; `ask` equal to `kg ask --json`; a product-scoped session never reads
the other product through any tool (a seeded differential fuzz against an admin session, in the spirit of
tests/test_endpoint_breach.py); and the same tools on `kg serve` through `--endpoint`.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
import yaml
from endpoints import kg_serve
from mcpkit import Session, hostile, http_server, http_session, stdio_session

from kg.cli import main
from kg.cli.ask import EXIT_STATUS
from kg.ingest.build import build
from kg.mcp.guard import MAX_SESSIONS
from kg.namespaces import ORG_GRAPH, product_graph
from kg.query.sparql import EmbeddedStore
from kg.search.index import build_index

pytestmark = [pytest.mark.herb, pytest.mark.slow]

ALPHA, BETA = "FlowForce", "CollaborationForce"
ADMIN, ALPHA_TOKEN, BETA_TOKEN = "admin-token-0123", "alpha-token-4567", "beta-token-89ab"
TOKENS = {ADMIN: "*", ALPHA_TOKEN: [ALPHA], BETA_TOKEN: [BETA]}
TOOLS = {"ask", "intents", "run_intent", "query", "search", "artifact", "timeline", "people"}
ANSWERED = f"Find employee IDs of the authors and key reviewers of the Market Research Report for the {ALPHA} product?"
PROVED_ABSENT = f"Who attended the meeting about the Product Requirements Document of {ALPHA}?"
UNSUPPORTED = f"What is the weather like in {ALPHA}?"


@pytest.fixture(scope="module")
def mcp_store(herb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two products built and indexed (lexical only): about 3 s."""
    path = tmp_path_factory.mktemp("mcp") / "store"
    build(herb, path, products=[ALPHA, BETA], progress=False)
    build_index(path, herb, products=[ALPHA, BETA], use_dense=False, progress=False)
    return path


@pytest.fixture(scope="module")
def access(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mcp-access") / "access.json"
    path.write_text(json.dumps(TOKENS))
    return path


@pytest.fixture(scope="module")
def alpha(mcp_store: Path, access: Path) -> Iterator[Session]:
    """A stdio session scoped to ALPHA by the access file, as an MCP host starts it."""
    with stdio_session("--store", str(mcp_store), "--access", str(access), "--token", ALPHA_TOKEN) as session:
        yield session


@pytest.fixture(scope="module")
def http_url(mcp_store: Path, access: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with http_server(tmp_path_factory.mktemp("mcp-logs"), "--store", str(mcp_store), "--access", str(access)) as url:
        yield url


def kg_ask_json(capsys: pytest.CaptureFixture[str], store: Path, question: str) -> dict:
    capsys.readouterr()
    code = main(["ask", "--json", "--store", str(store), question])
    got = json.loads(capsys.readouterr().out)
    assert code == EXIT_STATUS[got["outcome"]]
    return got


# --- the SDK's client over stdio -----------------------------------------------------------------------------


def test_stdio_lists_typed_read_only_tools_and_the_resources(alpha: Session) -> None:
    tools = {t.name: t for t in alpha.tools()}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert len(tool.description) > 60, tool.name  # written for a model to choose by
        assert tool.input_schema["type"] == "object"
        assert tool.annotations.read_only_hint and not tool.annotations.destructive_hint
    assert tools["ask"].input_schema["required"] == ["question"]
    assert set(tools["search"].input_schema["properties"]) == {"text", "product", "kind", "since", "until", "k"}
    assert set(alpha.resources()) == {"ekg://ontology", "ekg://products"}
    assert "owl:Ontology" in alpha.read("ekg://ontology")
    assert json.loads(alpha.read("ekg://products")) == [ALPHA]


@pytest.mark.parametrize(
    ("question", "outcome"), [(ANSWERED, "answer"), (PROVED_ABSENT, "absent"), (UNSUPPORTED, "unsupported")]
)
def test_ask_through_mcp_equals_kg_ask_json(
    alpha: Session, mcp_store: Path, capsys: pytest.CaptureFixture[str], question: str, outcome: str
) -> None:
    got = alpha.call("ask", {"question": question}).value
    assert got == kg_ask_json(capsys, mcp_store, question) and got["outcome"] == outcome


def test_every_tool_answers_good_arguments(alpha: Session) -> None:
    answered = alpha.call("ask", {"question": ANSWERED}).value
    assert not answered["abstain"] and answered["citations"]
    absent = alpha.call("ask", {"question": PROVED_ABSENT}).value
    assert absent["abstain"] and absent["proof"]["result"] is True

    listed = {i["intent"]: i for i in alpha.call("intents").value["intents"]}
    assert listed["doc_authors_reviewers"]["slots"][0] == {
        "name": "product", "required": True, "says": "the product", "values": [ALPHA]
    }  # fmt: skip
    run = alpha.call(
        "run_intent",
        {"intent": "doc_authors_reviewers", "slots": {"product": ALPHA, "doc_kind": "MarketResearchReport"}},
    ).value
    assert (run["answer"], run["citations"], run["intent"]) == (
        answered["answer"], answered["citations"], answered["intent"]
    )  # fmt: skip
    proof = alpha.call(
        "run_intent",
        {"intent": "doc_meeting_attendees", "slots": {"product": ALPHA, "doc_kind": "ProductRequirementsDocument"}},
    ).value

    # the same proof; its text check differs only as far as the question's words do (run_intent has none)
    def no_textcheck(shown: dict) -> dict:
        return {k: v for k, v in shown.items() if k != "textcheck"}

    assert proof["abstain"] and no_textcheck(proof["proof"]) == no_textcheck(absent["proof"])

    rows = alpha.call(
        "query", {"sparql": "SELECT ?t WHERE { ?b a ekg:Bug ; dct:title ?t } ORDER BY ?t LIMIT 1", "product": ALPHA}
    ).value["results"]["bindings"]
    title = rows[0]["t"]["value"]
    assert alpha.call("query", {"sparql": "ASK { ?s a ekg:Product }"}).value["boolean"] is True
    graph = alpha.call("query", {"sparql": "CONSTRUCT WHERE { ?p a ekg:Product }", "product": ALPHA}).value["graph"]
    assert "Product>" in graph

    events = alpha.call("timeline", {"item": title, "product": ALPHA}).value["items"]
    assert events and events[0]["label"] == title and events[0]["events"][0]["cites"]
    cited = events[0]["events"][0]["cites"][0]
    shown = alpha.call("artifact", {"id": cited}).value
    assert shown["id"] == cited and shown["product"] == ALPHA and shown["text"]

    found = alpha.call("search", {"text": title, "kind": "slack", "k": 5}).value
    assert found["products"] == [ALPHA] and 0 < len(found["hits"]) <= 5
    assert all(h["product"] == ALPHA and h["kind"] == "slack" for h in found["hits"])

    who = alpha.call("people", {"eids": [answered["answer"][0], "eid_00000000"]}).value
    assert who["people"][0]["eid"] == answered["answer"][0] and who["people"][0]["name"] and who["people"][0]["roles"]
    assert who["unknown"] == ["eid_00000000"]


HOSTILE: list[tuple[str, dict, str]] = [
    ("ask", {"question": ""}, "empty"),
    ("ask", {"question": "\x00 who?"}, "control characters"),
    ("ask", {"question": "x" * 2001}, "2000"),
    ("ask", {"question": 42}, "valid string"),
    ("ask", {}, "question"),
    ("ask", {"question": f"Who authored the Market Research Report for {BETA}?"}, "not one this token reads"),
    ("ask", {"question": f"Who authored the Market Research Report for both {ALPHA} and {BETA}?"}, "not one this"),
    ("ask", {"question": f"Who authored {ALPHA}'s Market Research Report, the one {BETA} cites?"}, "2 products"),
    ("run_intent", {"intent": "no_such_intent", "slots": {"product": ALPHA}}, "no intent named"),
    ("run_intent", {"intent": "document_author", "slots": {"doc_kind": "MarketResearchReport"}}, "slot product"),
    ("run_intent", {"intent": "document_author", "slots": {"product": BETA, "doc_kind": "X"}}, "not one this token"),
    ("run_intent", {"intent": "document_author", "slots": {"product": ALPHA}}, "needs the slot doc_kind"),
    ("run_intent", {"intent": "document_author", "slots": {"product": ALPHA, "doc_kind": "Memo"}}, "one of: Market"),
    (
        "run_intent",
        {"intent": "document_author", "slots": {"product": ALPHA, "doc_kind": "PRD", "x": "1"}},
        "no slot x",
    ),
    ("run_intent", {"intent": "bug_fix_prs_by_author_company", "slots": {"product": ALPHA, "eid": "bob"}}, "slot"),
    (
        "run_intent",
        {"intent": "bug_fix_prs_by_author_company", "slots": {"product": ALPHA, "eid": "eid_00000000", "company": "X"}},
        "one of:",
    ),
    (
        "run_intent",
        {"intent": "bug_fix_prs_by_author_company", "slots": {"product": ALPHA, "eid": "eid_00000000"}},
        "needs the slot company",
    ),
    (
        "run_intent",
        {
            "intent": "bug_fix_prs_by_author_company",
            "slots": {"product": ALPHA, "eid": "eid_00000000", "company": "InnovateAI"},
        },
        "no employee 'eid_00000000'",
    ),
    ("run_intent", {"intent": "pr_to_merge", "slots": {"product": ALPHA, "feature": "zzqx"}}, "names no feature"),
    ("run_intent", {"intent": "document_author", "slots": "product=FlowForce"}, "valid dictionary"),
    ("query", {"sparql": ""}, "empty"),
    ("query", {"sparql": "SELECT * WHERE { ?s ?p }"}, "refused (400)"),
    ("query", {"sparql": "INSERT DATA { <urn:a> <urn:b> <urn:c> }"}, "refused"),
    ("query", {"sparql": "SELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }"}, "SERVICE"),
    ("query", {"sparql": "SELECT * WHERE " + "{" * 1200 + "}" * 1200}, "limit is 1000"),
    ("query", {"sparql": "SELECT * WHERE { ?s ?p ?o } # " + "x" * 70000}, "bytes; the limit"),
    ("query", {"sparql": "SELECT * WHERE { ?s ?p ?o }", "product": BETA}, "not one this token reads"),
    ("query", {"sparql": "SELECT * WHERE { ?s ?p ?o }", "product": "Nope"}, "unknown product"),
    ("search", {"text": ""}, "empty"),
    ("search", {"text": "bug", "product": BETA}, "not one this token reads"),
    ("search", {"text": "bug", "kind": "email"}, "kind"),
    ("search", {"text": "bug", "since": "yesterday"}, "YYYY-MM-DD"),
    ("search", {"text": "bug", "k": 0}, "greater than or equal"),
    ("artifact", {"id": ""}, "empty"),
    ("artifact", {"id": "no-such-artifact"}, "no artifact"),
    ("timeline", {"item": "", "product": ALPHA}, "empty"),
    ("timeline", {"item": "no such bug", "product": ALPHA}, "no bug titled"),
    ("timeline", {"item": "x", "product": BETA}, "not one this token reads"),
    ("people", {"eids": []}, "at least 1"),
    ("people", {"eids": ["bob"]}, "not an employee id"),
    ("people", {"eids": ["eid_00000000"] * 101}, "at most 100"),
    ("no_such_tool", {}, "no_such_tool"),
]


@pytest.mark.parametrize(
    ("tool", "arguments", "says"), HOSTILE, ids=[f"{t}-{i}" for i, (t, _, _) in enumerate(HOSTILE)]
)
def test_hostile_arguments_are_tool_errors_with_a_clear_message(
    alpha: Session, tool: str, arguments: dict, says: str
) -> None:
    result = alpha.call(tool, arguments)
    hostile(result)
    assert says in result.text, result.text[:400]


def test_the_session_still_answers_after_the_hostile_calls(alpha: Session) -> None:
    assert not alpha.call("ask", {"question": ANSWERED}).value["abstain"]


def test_a_question_across_all_products_reads_the_sessions_products_only(alpha: Session) -> None:
    """ "Across all products" is every product the token reads, and the answer says which (kg/qa/across.py)."""
    got = alpha.call("ask", {"question": "How many Technical Architects are on the team across all products?"}).value
    assert got["outcome"] == "answer" and got["cross"]["products"] == [ALPHA]


# --- the SDK's client over streamable HTTP, one bearer token per session ---------------------------------------


def test_http_sessions_read_what_their_token_grants(http_url: str) -> None:
    with http_session(http_url, BETA_TOKEN) as beta, http_session(http_url, ADMIN) as admin:
        assert json.loads(beta.read("ekg://products")) == [BETA]
        assert json.loads(admin.read("ekg://products")) == sorted([ALPHA, BETA])
        assert beta.call("ask", {"question": ANSWERED}).text.endswith(f"not one this token reads; it reads: {BETA}")
        assert not admin.call("ask", {"question": ANSWERED}).value["abstain"]
    for token, says in ((None, "a bearer token is required"), ("not-a-token", "unknown bearer token")):
        with pytest.raises(RuntimeError, match=says), http_session(http_url, token):
            pass  # refused before a session is made (issue 36, F8)


def beta_only_markers(store: Path) -> set[str]:
    """Artifact ids and IRIs that only BETA's graph holds: no output of an ALPHA session may show one."""
    backend = EmbeddedStore(store)
    query = "SELECT DISTINCT ?x WHERE { { ?a dct:identifier ?x } UNION { ?x a ekg:Bug } UNION { ?x a ekg:Feature } }"

    def terms(graphs: list[str]) -> set[str]:
        from pyoxigraph import NamedNode

        return {r["x"].value for r in backend.select(query, graphs=[NamedNode(g) for g in graphs])}

    return terms([product_graph(BETA).value]) - terms([product_graph(ALPHA).value, ORG_GRAPH])


def fuzz_calls(rng: random.Random, ids: list[str], titles: list[str], eids: list[str]) -> Iterator[tuple[str, dict]]:
    """Tool calls aimed at both products: their names, ids, bug titles and people, and SPARQL that names graphs."""
    products = [ALPHA, BETA, None]
    beta_graph, alpha_graph = product_graph(BETA).value, product_graph(ALPHA).value
    sparql = [
        "SELECT ?g ?id WHERE { GRAPH ?g { ?a dct:identifier ?id } } LIMIT 50",
        f"SELECT ?id FROM <{beta_graph}> WHERE {{ ?a dct:identifier ?id }} LIMIT 50",
        f"SELECT ?id FROM NAMED <{beta_graph}> WHERE {{ GRAPH ?g {{ ?a dct:identifier ?id }} }} LIMIT 50",
        f"SELECT ?id WHERE {{ GRAPH <{beta_graph}> {{ ?a dct:identifier ?id }} }} LIMIT 50",
        f"SELECT ?id WHERE {{ GRAPH <{alpha_graph}> {{ ?a dct:identifier ?id }} }} LIMIT 50",
        "SELECT ?b WHERE { ?b a ekg:Bug } LIMIT 50",
        "CONSTRUCT { ?b a ekg:Feature } WHERE { ?b a ekg:Feature } LIMIT 50",
        "DESCRIBE ?b WHERE { ?b a ekg:Bug } LIMIT 3",
    ]
    for _ in range(120):
        tool = rng.choice(sorted(TOOLS))
        product = rng.choice(products)
        if tool == "ask":
            kind = rng.choice(["Market Research Report", "Product Vision Document", "System Design Document"])
            yield tool, {"question": f"Who authored the {kind} for {rng.choice([ALPHA, BETA])}?"}
        elif tool == "intents":
            yield tool, {}
        elif tool == "run_intent":
            yield (
                tool,
                {
                    "intent": "document_author",
                    "slots": {"product": product or BETA, "doc_kind": "MarketResearchReport"},
                },
            )
        elif tool == "query":
            yield tool, {"sparql": rng.choice(sparql), **({"product": product} if product else {})}
        elif tool == "search":
            yield tool, {"text": rng.choice(titles), **({"product": product} if product else {}), "k": 20}
        elif tool == "artifact":
            yield tool, {"id": rng.choice(ids)}
        elif tool == "timeline":
            yield tool, {"item": rng.choice(titles), "product": product or BETA}
        else:
            yield tool, {"eids": rng.sample(eids, 3)}


def test_a_product_scoped_session_never_reads_the_other_product_through_any_tool(
    http_url: str, mcp_store: Path
) -> None:
    """The admin session reads BETA-only terms through every kind of call; the ALPHA session, sent the same
    calls, never shows one that its arguments did not name, and answers ALPHA's calls exactly as the admin."""
    markers = beta_only_markers(mcp_store)
    backend = EmbeddedStore(mcp_store)
    ids, titles = [], []
    for product in (ALPHA, BETA):
        graph = [product_graph(product)]
        ids += [
            r["i"].value
            for r in backend.select("SELECT ?i WHERE { ?a dct:identifier ?i } ORDER BY ?i LIMIT 40", graphs=graph)
        ]
        titles += [
            r["t"].value
            for r in backend.select(
                "SELECT ?t WHERE { ?b a ekg:Bug ; dct:title ?t } ORDER BY ?t LIMIT 10", graphs=graph
            )
        ]
    people = backend.select("SELECT ?p WHERE { ?p a ekg:Employee } ORDER BY ?p LIMIT 20")
    eids = [r["p"].value.rsplit("/", 1)[-1] for r in people]
    reached: set[str] = set()  # the tools through which the admin session read BETA-only terms
    with http_session(http_url, ALPHA_TOKEN) as scoped, http_session(http_url, ADMIN) as admin:
        for tool, arguments in fuzz_calls(random.Random(27), ids, titles, eids):
            mine, theirs = scoped.call(tool, arguments), admin.call(tool, arguments)
            named = json.dumps(arguments)
            leaked = [m for m in markers if m in mine.text and m not in named]
            assert not leaked, (tool, arguments, leaked[:3])
            if any(m in theirs.text for m in markers):
                reached.add(tool)
            if BETA not in named and not mine.error and tool != "intents":
                assert mine.text == theirs.text or (tool in ("query", "search") and "product" not in arguments), (
                    tool,
                    arguments,
                )
            assert "Traceback" not in mine.text
    # the calls did reach BETA's data through every tool that reads a product, for a token allowed to read it
    assert reached == TOOLS - {"intents", "people"}


# --- on an endpoint, and the command line's refusals -----------------------------------------------------------


def test_on_an_endpoint_the_endpoint_grants_and_the_answers_are_the_stores(
    mcp_store: Path, access: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path_factory.mktemp("mcp-serve")
    with (
        kg_serve(mcp_store, logs, "--access", str(access), "--workers", "1") as url,
        stdio_session("--endpoint", url, "--token", ALPHA_TOKEN, "--store", str(mcp_store)) as remote,
    ):
        assert json.loads(remote.read("ekg://products")) == [ALPHA]
        assert remote.call("ask", {"question": ANSWERED}).value == kg_ask_json(capsys, mcp_store, ANSWERED)
        beta_graph = product_graph(BETA).value
        rows = remote.call("query", {"sparql": f"SELECT * WHERE {{ GRAPH <{beta_graph}> {{ ?s ?p ?o }} }} LIMIT 5"})
        assert rows.value["results"]["bindings"] == []
        hostile(refused := remote.call("query", {"sparql": "ASK {}", "product": BETA}))
        assert "not one this token reads" in refused.text
        found = remote.call("search", {"text": "bug", "k": 3}).value
        assert found["products"] == [ALPHA] and found["hits"]


def test_over_a_deployment_the_answers_are_the_stores(
    mcp_store: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--deployment`: one shard whose replica is `kg serve` on the same store; routing by product changes no
    answer."""
    logs = tmp_path_factory.mktemp("mcp-shards")
    with kg_serve(mcp_store, logs, "--workers", "1") as url:
        deployment = logs / "deployment.yaml"
        deployment.write_text(
            yaml.safe_dump(
                {"shards": {"shard-0": {"replicas": [url]}}, "products": {ALPHA: "shard-0", BETA: "shard-0"}}
            ),
            encoding="utf-8",
        )
        with stdio_session("--deployment", str(deployment), "--store", str(mcp_store)) as routed:
            assert sorted(json.loads(routed.read("ekg://products"))) == sorted([ALPHA, BETA])
            assert routed.call("ask", {"question": ANSWERED}).value == kg_ask_json(capsys, mcp_store, ANSWERED)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--deployment", "{missing}", "--token", "t"], "give it without --endpoint, --access or --token"),
        (["--deployment", "{missing}"], "cannot read the deployment file"),
        (["--store", "{missing}"], "no store at"),
        (["--store", "{store}", "--token", "t"], "--token without --endpoint"),
        (["--store", "{store}", "--access", "{access}", "--token", "wrong"], "not a token of the access file"),
        (["--endpoint", "http://127.0.0.1:9/query", "--access", "{access}"], "--access is for the local store"),
        (["--store", "{store}", "--workers", "0"], "must be positive"),
        (["--store", "{store}", "--timeout", "nan"], "a finite number of seconds"),
        (["--store", "{store}", "--timeout", "inf"], "a finite number of seconds"),
    ],
)
def test_command_line_mistakes_are_one_line_errors(
    mcp_store: Path, access: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    filled = [a.format(store=mcp_store, access=access, missing=tmp_path / "none") for a in args]
    assert main(["mcp", *filled]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kg: error:") and says in err and err.count("\n") == 1


def test_a_port_in_use_is_a_one_line_error(mcp_store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        assert main(["mcp", "--store", str(mcp_store), "--transport", "http", "--port", port]) == 2
    assert capsys.readouterr().err == f"kg: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_the_query_tool_is_cut_off_at_the_time_limit_and_the_session_goes_on(mcp_store: Path) -> None:
    runaway = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
    with stdio_session("--store", str(mcp_store), "--timeout", "0.5", "--workers", "1") as session:
        hostile(cut := session.call("query", {"sparql": runaway, "product": ALPHA}))
        assert "exceeded the 0.5 s time limit" in cut.text
        assert session.call("query", {"sparql": "ASK { ?s a ekg:Product }"}).value["boolean"] is True


# --- issue 36: the serve lock, the result budget, per-token turns, sessions --------------------------------------

RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def initialize(url: str, token: str | None, **headers: str) -> requests.Response:
    """One raw `initialize` POST, as a client opening a session sends it."""
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.post(url, json=INITIALIZE, headers={**MCP_HEADERS, **auth, **headers}, timeout=60, stream=True)


def test_a_build_is_refused_while_kg_mcp_serves_the_store_by_any_spelling(
    herb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """F5: kg mcp took no lock, so a build replaced the store under it and its tools answered from two stores."""
    real, link = tmp_path / "s2" / "store", tmp_path / "link"
    build(herb, real, products=[ALPHA], progress=False)
    link.symlink_to(real, target_is_directory=True)
    before = sorted(p.name for p in real.iterdir())
    with stdio_session("--store", str(link)) as session:
        assert session.call("query", {"sparql": "ASK { ?s a ekg:Product }"}).value["boolean"] is True
        capsys.readouterr()
        assert main(["build", "--herb", str(herb), "--store", str(real), "--product", ALPHA]) == 2
        assert "kg mcp" in (err := capsys.readouterr().err) and "is serving" in err, err
        assert sorted(p.name for p in real.iterdir()) == before
    assert main(["build", "--herb", str(herb), "--store", str(real), "--product", ALPHA]) == 0  # once it stopped


def test_a_query_result_past_the_tools_budget_is_refused_not_held(alpha: Session) -> None:
    """F6: one 50 MB result took the process from 151 to 1,290 MiB (parsed, then sent again as JSON). The tool's
    results are capped at 4 MiB, and large ones wait for room in a budget of two at once."""
    hostile(refused := alpha.call("query", {"sparql": "SELECT * WHERE { ?s ?p ?o }", "product": ALPHA}))
    assert "exceeds 4 MiB" in refused.text and "LIMIT" in refused.text
    assert alpha.call("query", {"sparql": "SELECT * WHERE { ?s ?p ?o } LIMIT 3"}).value["results"]["bindings"]


@pytest.mark.slow
def test_one_tokens_runaway_queries_leave_other_tokens_a_worker(mcp_store: Path, access: Path, tmp_path: Path) -> None:
    """F7: four runaways of one token held both workers, and another token's `ASK {}` waited 28.8 s. A token now
    has a quarter of the workers (at least one): the other token is answered while all its runaways still run or
    wait. Decided by order (the runaways end only at the 60 s limit), not by a duration."""
    args = ("--store", str(mcp_store), "--access", str(access), "--workers", "2", "--timeout", "60")
    with (
        http_server(tmp_path, *args) as url,
        http_session(url, ALPHA_TOKEN) as runner,
        http_session(url, BETA_TOKEN) as other,
    ):
        runaways = [
            asyncio.run_coroutine_threadsafe(runner.client.call_tool("query", {"sparql": RUNAWAY}), runner.loop)
            for _ in range(3)
        ]
        time.sleep(1.0)  # for them to reach the pool; the order below does not depend on it
        assert other.call("query", {"sparql": "ASK {}"}).value["boolean"] is True
        assert not any(f.done() for f in runaways), "a runaway ended before the other token was answered"


@pytest.mark.slow
def test_ending_a_runaways_session_gives_its_token_no_more_workers(
    mcp_store: Path, access: Path, tmp_path: Path
) -> None:
    """F7 by cancellation: a session ended (DELETE) while its runaway ran cancelled the call, which left its
    worker out of the pool for good and gave the token its turn back. Two such sessions took both workers, and
    another token's `ASK {}` waited out the 60 s limit and failed. A job at a worker now runs to its end, its
    token keeping the turn, and the worker comes back. Decided by answers: each round's runaway is still
    running (the limit is 60 s) when the other token asks."""
    args = ("--store", str(mcp_store), "--access", str(access), "--workers", "2", "--timeout", "60")
    runaway = {"jsonrpc": "2.0", "id": 2, "method": "tools/call"}
    runaway["params"] = {"name": "query", "arguments": {"sparql": RUNAWAY}}
    with http_server(tmp_path, *args) as url, http_session(url, BETA_TOKEN) as other:
        headers = {**MCP_HEADERS, "Authorization": f"Bearer {ALPHA_TOKEN}"}
        answers = []
        with ThreadPoolExecutor(3) as calls:
            for _round in range(3):
                session = {**headers, "mcp-session-id": initialize(url, ALPHA_TOKEN).headers["mcp-session-id"]}
                initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
                requests.post(url, json=initialized, headers=session, timeout=60)
                call = calls.submit(requests.post, url, json=runaway, headers=session, timeout=120)
                time.sleep(1.0)  # for the call to reach a worker; the answers below do not depend on it
                assert requests.delete(url, headers=session, timeout=60).status_code == 200
                call.result()
                answers.append(other.call("query", {"sparql": "ASK {}"}).value["boolean"])
        assert answers == [True, True, True]


def test_without_a_valid_token_no_session_is_made(http_url: str) -> None:
    """F8: 10,000 initialize POSTs without a token made 10,000 sessions (the SDK's limit) for 30 minutes."""
    for token in (None, "not-a-token"):
        for _ in range(20):
            refused = initialize(http_url, token)
            assert refused.status_code == 401 and "mcp-session-id" not in refused.headers
            assert "bearer token" in refused.json()["error"]["message"]


def test_one_client_holds_at_most_its_share_of_sessions(http_url: str) -> None:
    """F8: opening one more session past a client's share ends that client's oldest; other clients keep theirs."""
    with http_session(http_url, BETA_TOKEN) as beta:
        opened = [initialize(http_url, ALPHA_TOKEN).headers["mcp-session-id"] for _ in range(MAX_SESSIONS + 5)]
        delete = {**MCP_HEADERS, "Authorization": f"Bearer {ALPHA_TOKEN}"}
        statuses = [
            requests.delete(http_url, headers={**delete, "mcp-session-id": s}, timeout=60).status_code
            for s in (opened[0], opened[4], opened[5], opened[-1])
        ]
        assert statuses == [404, 404, 200, 200]  # the five oldest were ended, the newer ones live
        assert json.loads(beta.read("ekg://products")) == [BETA]


def test_kg_mcp_refuses_a_host_name_it_does_not_answer(http_url: str) -> None:
    """F1, the same allow-list as kg serve (kg/hosts.py): checked before the token and the session."""
    for host in ("evil.com", "evil.com:7879", "localhost.evil"):
        refused = initialize(http_url, ALPHA_TOKEN, Host=host)
        assert refused.status_code == 421 and "mcp-session-id" not in refused.headers
    port = http_url.split(":")[2].split("/")[0]
    assert initialize(http_url, ALPHA_TOKEN, Host=f"localhost:{port}").status_code == 200
