"""`kg serve` over HTTP: the real server (aiohttp + pyoxigraph worker processes) on a real on-disk fixture store.

Three products (Alpha, Beta, Gamma) and the organisation graph. Beta and Gamma hold marker literals; the Alpha
token must never see them, by any route, while the admin token does (so their absence means something).
"""

from __future__ import annotations

import csv
import io
import json
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from pyoxigraph import (
    Literal,
    NamedNode,
    QueryResultsFormat,
    RdfFormat,
    Store,
    parse,
    parse_query_results,
)
from rdflib import Graph
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from SPARQLWrapper import JSON, SPARQLWrapper

from kg.errors import KGError
from kg.namespaces import EKG, GRAPH, ORG_GRAPH
from kg.qa.answer import Answerer
from kg.query.remote import RemoteEndpoint
from kg.query.sparql import EmbeddedStore, library, product_dataset
from kg.search.index import build_index

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
ALPHA, BETA, GAMMA, ORG = GRAPH + "Alpha", GRAPH + "Beta", GRAPH + "Gamma", ORG_GRAPH
SECRETS = ("BETA-SECRET", "GAMMA-SECRET")
TOKENS = {"admin-token-0123": "*", "alpha-token-4567": ["Alpha"], "betagamma-token-89": ["Beta", "Gamma"]}
ADMIN, ALPHA_TOKEN = "admin-token-0123", "alpha-token-4567"
TIMEOUT = 2.0
MAX_BODY = 8192
# A join of 24 patterns over the whole store: Oxigraph streams it for hours unless something cuts it off.
JOIN_24 = "{ " + " ".join(f"?s{i} ?p{i} ?o{i} ." for i in range(24)) + " }"
RUNAWAY_COUNT = f"SELECT (COUNT(*) AS ?n) WHERE {JOIN_24}"
# Sorting that join: Oxigraph's own --timeout-s does not stop it, so the proxy must replace the process.
RUNAWAY_SORT = f"SELECT * WHERE {JOIN_24} ORDER BY ?o0"

FIXTURE = f"""
@prefix ekg: <{EKG}> .
@prefix prov: <http://www.w3.org/ns/prov#> .
@prefix dct: <http://purl.org/dc/terms/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix id: <https://w3id.org/ekg/id/> .
<{ORG}> {{
  id:person\\/alice a ekg:Person ; rdfs:label "Alice Ng" .
  id:person\\/bob a ekg:Person ; rdfs:label "Bob Ruiz" .
}}
<{ALPHA}> {{
  id:product\\/Alpha a ekg:Product ; rdfs:label "Alpha" .
  id:artifact\\/a1 a ekg:Document ; ekg:documentKind ekg:SystemDesignDocument ;
      prov:wasAttributedTo id:person\\/alice ; dct:identifier "alpha-sdd-1" ;
      rdfs:label "Alpha design, customer service" .
  id:artifact\\/a2 a ekg:Document ; ekg:documentKind ekg:MarketResearchReport ;
      prov:wasAttributedTo id:person\\/bob ; dct:identifier "alpha-mrr-1" ;
      rdfs:label "Alpha \\"market\\" report"@en .
}}
<{BETA}> {{
  id:product\\/Beta a ekg:Product ; rdfs:label "Beta" .
  id:artifact\\/b1 a ekg:Document ; ekg:documentKind ekg:SystemDesignDocument ;
      prov:wasAttributedTo id:person\\/bob ; dct:identifier "BETA-SECRET" ; rdfs:label "BETA-SECRET design" .
  id:artifact\\/a1 rdfs:comment "BETA-SECRET note on an Alpha document" .
}}
<{GAMMA}> {{
  id:product\\/Gamma a ekg:Product ; rdfs:label "GAMMA-SECRET" .
}}
"""


def fixture_store(folder: Path, filler: str = "", graph: str = "") -> Path:
    """A store on disk holding FIXTURE (and the N-Triples `filler` in `graph`), closed so a server can open it."""
    path = folder / "store"
    store = Store(str(path))
    store.load(FIXTURE.encode(), format=RdfFormat.TRIG)
    if filler:
        store.load(filler.encode(), format=RdfFormat.N_TRIPLES, to_graph=NamedNode(graph))
    store.flush()
    del store
    return path


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fixture_store(tmp_path_factory.mktemp("serve"))


@pytest.fixture(scope="module")
def embedded(store_dir: Path) -> EmbeddedStore:
    return EmbeddedStore(store_dir)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def kg(*args: str) -> list[str]:
    """The command line of `kg ARGS` under this interpreter."""
    return [sys.executable, "-c", "import sys; from kg.cli import main; sys.exit(main())", *args]


def start_server(store: Path, *extra: str, timeout: float = TIMEOUT, log: Path | None = None) -> Iterator[str]:
    """Run `kg serve` as a real subprocess on a free loopback port; yield its base URL (stderr goes to `log`)."""
    port = free_port()
    cmd = kg(
        "serve",
        "--store",
        str(store),
        "--port",
        str(port),
        "--timeout",
        str(timeout),
        "--max-body",
        str(MAX_BODY),
        *extra,
    )
    log = log or Path(tempfile.gettempdir()) / f"kg-serve-test-{port}.log"
    with log.open("w") as err:
        proc = subprocess.Popen(cmd, cwd=ROOT, stderr=err)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"kg serve exited: {log.read_text()}")
            try:
                requests.get(f"{url}/query", timeout=1)
                break
            except requests.ConnectionError:
                if time.monotonic() > deadline:
                    pytest.fail("kg serve did not start within 60 s")
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture(scope="module")
def server(store_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    access = tmp_path_factory.mktemp("access") / "access.yaml"
    access.write_text(json.dumps(TOKENS))  # JSON is YAML: the access file takes either
    yield from start_server(store_dir, "--access", str(access))


@pytest.fixture(scope="module")
def open_server(store_dir: Path) -> Iterator[str]:
    yield from start_server(store_dir)


def ask(
    url: str,
    query: str,
    token: str | None = ALPHA_TOKEN,
    method: str = "GET",
    accept: str = "application/sparql-results+json",
    **params: str,
) -> requests.Response:
    headers = {"Accept": accept, **({"Authorization": f"Bearer {token}"} if token else {})}
    if method == "GET":
        return requests.get(f"{url}/query", params={"query": query, **params}, headers=headers, timeout=30)
    return requests.post(
        f"{url}/query",
        params=params,
        data=query.encode(),
        timeout=30,
        headers={**headers, "Content-Type": "application/sparql-query"},
    )


def rows(response: requests.Response) -> list[dict]:
    assert response.status_code == 200, response.text
    solutions = parse_query_results(response.content, format=QueryResultsFormat.JSON)
    return sorted(
        ({v.value: s[v.value] for v in solutions.variables if s[v.value] is not None} for s in solutions), key=repr
    )


def embedded_rows(store: EmbeddedStore, query: str, graphs: list[str] | None) -> list[dict]:
    return sorted(store.select(query, graphs=[NamedNode(g) for g in graphs] if graphs else None), key=repr)


# --- answers equal the embedded store's --------------------------------------------------------------------

QUERIES = [
    "SELECT ?s ?p ?o WHERE { ?s ?p ?o }",
    "SELECT ?doc ?who WHERE { ?doc a ekg:Document ; prov:wasAttributedTo ?who }",
    "SELECT ?kind (COUNT(?doc) AS ?n) WHERE { ?doc ekg:documentKind ?kind } GROUP BY ?kind",
    "SELECT ?label WHERE { ?x rdfs:label ?label "
    "FILTER(LANG(?label) = 'en' || CONTAINS(?label, CONCAT('serv', 'ice'))) }",
]
PREFIXES = (
    "PREFIX ekg: <https://w3id.org/ekg/ont#> PREFIX prov: <http://www.w3.org/ns/prov#> "
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
)


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_admin_answers_equal_embedded_union(server: str, embedded: EmbeddedStore, query: str, method: str) -> None:
    want = embedded_rows(embedded, PREFIXES + query, None)
    assert rows(ask(server, PREFIXES + query, ADMIN, method)) == want


@pytest.mark.parametrize("query", QUERIES)
def test_product_token_answers_equal_embedded_product_dataset(server: str, embedded: EmbeddedStore, query: str) -> None:
    got = rows(ask(server, PREFIXES + query))
    assert got == embedded_rows(embedded, PREFIXES + query, [ALPHA, ORG])
    assert got, "the Alpha dataset is not empty"


def test_sparqlwrapper_client_with_token(server: str, embedded: EmbeddedStore) -> None:
    client = SPARQLWrapper(f"{server}/query")
    client.addCustomHttpHeader("Authorization", f"Bearer {ALPHA_TOKEN}")
    client.setQuery(PREFIXES + QUERIES[1])
    client.setReturnFormat(JSON)
    bindings = client.query().convert()["results"]["bindings"]
    got = sorted((b["doc"]["value"], b["who"]["value"]) for b in bindings)
    embedded_answer = embedded_rows(embedded, PREFIXES + QUERIES[1], [ALPHA, ORG])
    want = sorted((r["doc"].value, r["who"].value) for r in embedded_answer)
    assert got == want and len(got) == 2


def test_rdflib_sparqlstore_on_open_endpoint(open_server: str, embedded: EmbeddedStore) -> None:
    graph = Graph(SPARQLStore(f"{open_server}/query"))
    query = PREFIXES + "SELECT ?l WHERE { ?x rdfs:label ?l }"
    got = sorted(str(row[0]) for row in graph.query(query))
    want = sorted(r["l"].value for r in embedded_rows(embedded, query, None))
    assert got == want and "GAMMA-SECRET" in got


def test_remote_endpoint_runs_the_library_like_embedded(server: str, embedded: EmbeddedStore) -> None:
    queries = library()
    if "document_author" not in queries:
        pytest.skip("sparql/document_author.rq is not in the library")
    kind = {"kind": NamedNode(EKG + "SystemDesignDocument")}
    for token, product in [(ADMIN, "Alpha"), (ADMIN, "Beta"), (ALPHA_TOKEN, "Alpha")]:
        remote = RemoteEndpoint(f"{server}/query", token=token)
        graphs = product_dataset(product)
        want = embedded.select(queries["document_author"].text, kind, graphs)
        assert want, f"fixture has a {product} design document"
        assert remote.select(queries["document_author"].text, kind, graphs) == want
        if "document_author.ask" in queries:
            assert remote.ask(queries["document_author.ask"].text, kind, graphs) is False  # the evidence exists


def test_remote_bindings_are_escaped_terms_not_text(server: str, embedded: EmbeddedStore) -> None:
    remote = RemoteEndpoint(f"{server}/query", token=ADMIN)
    query = "SELECT ?x ?label WHERE { ?x rdfs:label ?label }"
    tricky = Literal('Alpha "market" report', language="en")
    assert remote.select(query, {"label": tricky}) == embedded.select(query, {"label": tricky})
    hostile = Literal('x" } } GRAPH ?g { ?a ?b ?c } # ')
    assert remote.select(query, {"label": hostile}) == []
    # a literal is a literal, even one that spells SERVICE: escaped, it runs as text and matches nothing
    assert remote.select(query, {"label": Literal('x" } } SERVICE <http://127.0.0.1:1/> { ?a ?b ?c } # ')}) == []
    service = Literal("Alpha design, customer service")
    assert remote.select(query, {"label": service}) == embedded.select(query, {"label": service}) != []
    construct = "CONSTRUCT { ?x rdfs:label ?label } WHERE { ?x rdfs:label ?label }"
    triples = remote.construct(construct, {"label": Literal("Alpha")})
    assert [t.subject.value for t in triples] == ["https://w3id.org/ekg/id/product/Alpha"]


def test_remote_errors_are_kgerrors(server: str) -> None:
    with pytest.raises(KGError, match="401"):
        RemoteEndpoint(f"{server}/query", token="wrong").select("SELECT * WHERE { ?s ?p ?o }")
    with pytest.raises(KGError, match="400"):
        RemoteEndpoint(f"{server}/query", token=ADMIN).select("SELECT * WHERE { ?s ?p ")
    with pytest.raises(KGError, match="cannot reach"):
        RemoteEndpoint(f"http://127.0.0.1:{free_port()}/query").select("SELECT * WHERE { ?s ?p ?o }")


# --- content negotiation, Graph Store GET, service description --------------------------------------------


@pytest.mark.parametrize(
    ("accept", "fmt"),
    [
        ("application/sparql-results+json", QueryResultsFormat.JSON),
        ("application/sparql-results+xml", QueryResultsFormat.XML),
        ("text/csv", None),  # lossy: pyoxigraph will not parse it back, the csv module does
        ("text/tab-separated-values", QueryResultsFormat.TSV),
    ],
)
def test_select_result_formats(server: str, accept: str, fmt: QueryResultsFormat | None) -> None:
    response = ask(server, PREFIXES + "SELECT ?l WHERE { ?x rdfs:label ?l }", accept=accept)
    assert response.status_code == 200 and response.headers["Content-Type"].startswith(accept)
    if fmt is None:
        labels = {row["l"] for row in csv.DictReader(io.StringIO(response.text))}
    else:
        labels = {s["l"].value for s in parse_query_results(response.content, format=fmt)}
    assert labels == {"Alpha", "Alice Ng", "Bob Ruiz", "Alpha design, customer service", 'Alpha "market" report'}


@pytest.mark.parametrize(
    ("accept", "fmt"), [("text/turtle", RdfFormat.TURTLE), ("application/n-triples", RdfFormat.N_TRIPLES)]
)
def test_construct_and_describe_formats(server: str, accept: str, fmt: RdfFormat) -> None:
    for query in ["CONSTRUCT WHERE { ?s ?p ?o }", "DESCRIBE <https://w3id.org/ekg/id/artifact/a1>"]:
        response = ask(server, query, accept=accept)
        assert response.status_code == 200 and response.headers["Content-Type"].startswith(accept)
        triples = list(parse(response.content, format=fmt))
        assert triples and not any(s in response.text for s in SECRETS)


def test_graph_store_get_of_own_product_graph(server: str) -> None:
    headers = {"Authorization": f"Bearer {ALPHA_TOKEN}", "Accept": "application/n-triples"}
    response = requests.get(f"{server}/store", params={"graph": ALPHA}, headers=headers, timeout=10)
    assert response.status_code == 200
    assert len(list(parse(response.content, format=RdfFormat.N_TRIPLES))) == 12


def test_service_description(server: str) -> None:
    response = requests.get(f"{server}/query", headers={"Authorization": f"Bearer {ALPHA_TOKEN}"}, timeout=10)
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/turtle")
    graph = Graph().parse(data=response.text, format="turtle")
    names = {str(o) for o in graph.objects(None, None) if str(o).startswith(GRAPH)}
    assert names == {ALPHA, ORG}
    assert "SPARQL11Query" in response.text and "BasicFederatedQuery" not in response.text


# --- isolation: every escape is refused -------------------------------------------------------------------

REFUSED = [
    f"SELECT * WHERE {{ GRAPH <{BETA}> {{ ?s ?p ?o }} }}",
    f"SELECT * WHERE {{ graph <{BETA}> {{ ?s ?p ?o }} }}",
    "PREFIX g: <https://w3id.org/ekg/graph/> SELECT * WHERE { GRAPH g:Beta { ?s ?p ?o } }",
    "BASE <https://w3id.org/ekg/graph/> SELECT * WHERE { GRAPH <Beta> { ?s ?p ?o } }",
    "SELECT * WHERE { GRAPH <https://w3id.org/ekg/graph/\\u0042eta> { ?s ?p ?o } }",
    f"SELECT * FROM <{BETA}> WHERE {{ ?s ?p ?o }}",
    f"SELECT * FROM <{ALPHA}> FROM <{GAMMA}> WHERE {{ ?s ?p ?o }}",
    f"SELECT * FROM NAMED <{BETA}> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}",
    f"ASK FROM <{BETA}> {{ ?s ?p 'BETA-SECRET' }}",
    f"CONSTRUCT {{ ?s ?p ?o }} FROM <{BETA}> WHERE {{ ?s ?p ?o }}",
    f"DESCRIBE <https://w3id.org/ekg/id/artifact/b1> FROM <{BETA}>",
    f"SELECT * WHERE {{ OPTIONAL {{ GRAPH <{GAMMA}> {{ ?s ?p ?o }} }} }}",
    f"SELECT * WHERE {{ SERVICE <{BETA}> {{ ?s ?p ?o }} }}",
    "SELECT * WHERE { SERVICE <http://127.0.0.1:7878/query> { ?s ?p ?o } }",
    "select * where { service silent <http://127.0.0.1:1/query> { ?s ?p ?o } }",
    "SELECT * WHERE { BIND(<http://127.0.0.1:1/query> AS ?u) SERVICE ?u { ?s ?p ?o } }",
    "SELECT * WHERE { ?s ?p ?o OPTIONAL { { SERVICE#comment\n<http://127.0.0.1:1/q> { ?a ?b ?c } } } }",
    # `<` read as an IRI start would hide the SERVICE keyword inside a fake IRI and a fake string:
    "SELECT * WHERE { ?a ?b ?c FILTER(?a<?b*'>\"')SERVICE?c{?s ?p ?o}#\"\n}",
]


@pytest.mark.parametrize("query", REFUSED)
def test_escape_attempt_sees_only_the_grant(server: str, query: str) -> None:
    """The dataset, not a reading of the text, keeps other graphs out: naming them reaches nothing."""
    for method in ("GET", "POST"):
        response = ask(server, query, method=method, accept="application/n-triples, */*;q=0.5")
        # SERVICE runs in a worker with no network: it fails to connect (403), or SILENT gives an empty row
        expected = {200, 403} if "service" in query.lower() else {200}
        assert response.status_code in expected, response.text
        assert not any(s in response.text for s in SECRETS)


def test_admin_does_see_the_secrets(server: str) -> None:
    body = ask(server, f"SELECT * WHERE {{ GRAPH <{BETA}> {{ ?s ?p ?o }} }}", ADMIN).text
    assert "BETA-SECRET" in body


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * WHERE { ?s ?p ?o }",
        "SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }",
        f"SELECT * FROM <{ALPHA}> FROM NAMED <{ORG}> {{ {{ ?s ?p ?o }} UNION {{ GRAPH ?g {{ ?s ?p ?o }} }} }}",
        "SELECT * WHERE { ?s ?p ?o FILTER(CONTAINS(STR(?o), CONCAT('serv', 'ice'))) }",
        "DESCRIBE <https://w3id.org/ekg/id/artifact/b1> <https://w3id.org/ekg/id/artifact/a1>",
        "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g",
    ],
)
def test_open_routes_only_show_the_tokens_graphs(server: str, query: str) -> None:
    response = ask(
        server,
        query,
        accept="application/n-triples" if query.startswith("DESCRIBE") else "application/sparql-results+json",
    )
    assert response.status_code == 200, response.text
    assert not any(s in response.text for s in SECRETS)
    assert set(re.findall(r"https://w3id\.org/ekg/graph/\w+", response.text)) <= {ALPHA, ORG}


@pytest.mark.parametrize("param", ["default-graph-uri", "named-graph-uri"])
def test_protocol_dataset_parameters_cannot_name_other_graphs(server: str, param: str) -> None:
    for method in ("GET", "POST"):
        response = ask(
            server, "SELECT * WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }", method=method, **{param: BETA}
        )
        assert response.status_code == 403 and "BETA-SECRET" not in response.text


def test_named_graph_only_dataset_has_an_empty_default_graph(server: str) -> None:
    got = rows(ask(server, "SELECT ?s WHERE { ?s ?p ?o }", **{"named-graph-uri": ALPHA}))
    assert got == []


@pytest.mark.parametrize("params", [{"graph": BETA}, {"graph": GAMMA}, {"default": ""}, {}])
def test_graph_store_get_of_other_graphs_is_refused(server: str, params: dict) -> None:
    response = requests.get(
        f"{server}/store", params=params, timeout=10, headers={"Authorization": f"Bearer {ALPHA_TOKEN}"}
    )
    assert response.status_code == 403 and not any(s in response.text for s in SECRETS)


# --- status codes -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Bearer "}, {"Authorization": "Basic YWRtaW46eA=="}],
)
def test_missing_or_unknown_token_is_401(server: str, headers: dict) -> None:
    for path in ("/query?query=ASK%7B%7D", "/store?graph=" + ALPHA, "/query"):
        response = requests.get(server + path, headers=headers, timeout=10)
        assert response.status_code == 401 and response.headers["WWW-Authenticate"].startswith("Bearer")


def test_updates_are_403(server: str) -> None:
    auth = {"Authorization": f"Bearer {ADMIN}"}
    update = "INSERT DATA { <http://x/a> <http://x/b> <http://x/c> }"
    responses = [
        requests.post(f"{server}/update", data={"update": update}, headers=auth, timeout=10),
        requests.post(
            f"{server}/update", data=update, timeout=10, headers={**auth, "Content-Type": "application/sparql-update"}
        ),
        requests.post(f"{server}/query", data={"update": update}, headers=auth, timeout=10),
        requests.put(f"{server}/store", params={"graph": ALPHA}, data="<a:a> <a:b> <a:c> .", headers=auth, timeout=10),
        requests.delete(f"{server}/store", params={"graph": ALPHA}, headers=auth, timeout=10),
        requests.post(f"{server}/update", data={"update": update}, timeout=10),
    ]
    assert [r.status_code for r in responses] == [403] * 5 + [403]
    assert rows(ask(server, "SELECT * WHERE { <http://x/a> ?p ?o }", ADMIN)) == []


def test_oversized_body_is_413(server: str) -> None:
    query = "SELECT * WHERE { ?s ?p ?o } # " + "x" * MAX_BODY
    assert ask(server, query, method="POST").status_code == 413
    assert ask(server, "ASK {}", method="POST").status_code == 200


@pytest.mark.parametrize("query", ["SELECT * WHERE { ?s ?p ", "SELEKT ?x {}", "SELECT * { ?s <a b> ?o }"])
def test_malformed_query_is_400_with_the_parsers_message(server: str, query: str) -> None:
    response = ask(server, query)
    assert response.status_code == 400 and re.search(r"error at \d+:\d+", response.text), response.text


def test_other_requests_get_clear_codes(server: str) -> None:
    auth = {"Authorization": f"Bearer {ALPHA_TOKEN}"}
    assert (
        requests.get(
            f"{server}/query", params=[("query", "ASK {}"), ("query", "ASK {}")], headers=auth, timeout=10
        ).status_code
        == 400
    )
    assert (
        requests.post(
            f"{server}/query", data=b"ASK {}", headers={**auth, "Content-Type": "text/plain"}, timeout=10
        ).status_code
        == 415
    )
    assert requests.get(f"{server}/nowhere", headers=auth, timeout=10).status_code == 404


def test_open_endpoint_serves_loopback_without_token_and_stays_read_only(open_server: str) -> None:
    assert "GAMMA-SECRET" in ask(open_server, "SELECT * WHERE { ?s ?p ?o }", token=None).text
    assert requests.post(f"{open_server}/update", data={"update": "CLEAR ALL"}, timeout=10).status_code == 403


# --- time limit -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("query", [RUNAWAY_COUNT, RUNAWAY_SORT])
def test_runaway_query_is_cut_off_and_the_server_keeps_serving(server: str, query: str) -> None:
    started = time.monotonic()
    response = ask(server, query, ADMIN)
    assert response.status_code == 503 and ("time limit" in response.text or "memory limit" in response.text)
    assert time.monotonic() - started < TIMEOUT + 10
    assert rows(ask(server, "SELECT ?l WHERE { ?x <http://www.w3.org/2000/01/rdf-schema#label> ?l }"))


# --- start-up checks --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--store", "/nonexistent/store"], "no store at"),
        (["--host", "0.0.0.0"], "without --access"),
        (["--workers", "0"], "must be positive"),
    ],
)
def test_bad_start_is_one_clear_line(store_dir: Path, args: list[str], message: str) -> None:
    cmd = kg("serve", "--store", str(store_dir), "--port", str(free_port()), *args)
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


# --- the real HERB store: `kg ask` over the endpoint answers as it does embedded ---------------------------


@pytest.fixture(scope="module")
def herb_server(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    access = tmp_path_factory.mktemp("herb-access") / "access.yaml"
    access.write_text(json.dumps({ADMIN: "*", ALPHA_TOKEN: ["ActionGenie"]}))
    yield from start_server(store, "--access", str(access), timeout=120)


def comparable(answer: dict) -> dict:
    """An answer with row order ignored: queries without ORDER BY may list rows in any order."""
    value = answer["answer"]
    value = sorted(value) if isinstance(value, list) else sorted(value.splitlines()) if value else value
    return {**answer, "answer": value, "citations": sorted(answer["citations"])}


@pytest.mark.herb
def test_kg_ask_over_the_endpoint_equals_embedded(herb: Path, store: Path, herb_server: str) -> None:
    questions = [json.loads(line) for line in (herb / "qa" / "dev" / "answerable.jsonl").open()][:400:10]
    embedded = Answerer(EmbeddedStore(store))
    for token, product in [(ADMIN, None), (ALPHA_TOKEN, "ActionGenie")]:
        remote = Answerer(RemoteEndpoint(f"{herb_server}/query", token=token))
        asked = [q["question"] for q in questions if product in (None, q["product"])]
        assert asked
        for question in asked:
            assert comparable(remote.ask(question).to_json()) == comparable(embedded.ask(question).to_json())


@pytest.mark.herb
@pytest.mark.slow
def test_kg_ask_over_the_endpoint_checks_proofs_against_a_local_index(
    herb: Path, store: Path, herb_server: str, tmp_path: Path
) -> None:
    """`--text-index STORE` gives a question read over the network the text check a local store gets: the
    proof says which check it passed, where without it the check could not run; misused, a clear error."""
    here = tmp_path / "store"
    here.symlink_to(store, target_is_directory=True)
    build_index(here, herb, ["ActionGenie"], use_dense=False, progress=False)
    question = "What features were temporarily delayed due to security concerns but eventually added to ActionGenie?"
    remote = ["--endpoint", f"{herb_server}/query", "--token", ALPHA_TOKEN, "--json"]
    checked = subprocess.run(kg("ask", question, *remote, "--text-index", str(here)), capture_output=True, text=True)
    unchecked = subprocess.run(kg("ask", question, *remote), capture_output=True, text=True)
    assert checked.returncode == 0 and unchecked.returncode == 0, checked.stderr + unchecked.stderr
    proof, bare = json.loads(checked.stdout)["proof"], json.loads(unchecked.stdout)["proof"]
    assert proof["textcheck"]["ran"] and proof["textcheck"]["check"].startswith("passed")
    assert not bare["textcheck"]["ran"] and "could not run" in bare["textcheck"]["check"]
    local = subprocess.run(
        kg("ask", question, "--store", str(store), "--text-index", str(here)), capture_output=True, text=True
    )
    missing = subprocess.run(
        kg("ask", question, *remote, "--text-index", str(tmp_path / "none")), capture_output=True, text=True
    )
    assert local.returncode == missing.returncode == 2
    assert "Traceback" not in local.stderr + missing.stderr and "no search index" in missing.stderr


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("ASK { ?s ?p ?o }", "true"),
        ("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o } LIMIT 1", None),
        ("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 1", " ."),
    ],
)
def test_kg_query_over_the_endpoint_runs_every_form(
    open_server: str, tmp_path: Path, query: str, expected: str | None
) -> None:
    src = tmp_path / "q.rq"
    src.write_text(query)
    out = subprocess.run(
        [sys.executable, "-m", "kg", "query", str(src), "--endpoint", f"{open_server}/query"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    if expected is None:
        assert lines[0].strip() == "n" and int(lines[-1]) > 0
    else:
        assert lines and lines[0].endswith(expected)


# --- the access file --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"tok-1": ["Alpah"]}, "unknown product 'Alpah'; closest: Alpha"),
        ({"team": {"token": "tok-2", "products": ["Gama"]}}, "'team' names unknown product 'Gama'; closest: Gamma"),
        ({"team": {"token": "tok 3", "products": ["Beta"]}}, "without spaces"),
        ({"tok-4": "everything"}, "must map to '*'"),
    ],
)
def test_bad_access_file_is_one_clear_line(store_dir: Path, tmp_path: Path, entries: dict, message: str) -> None:
    access = tmp_path / "access.yaml"
    access.write_text(json.dumps(entries))
    cmd = kg("serve", "--store", str(store_dir), "--port", str(free_port()), "--access", str(access))
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_request_log_names_tokens_never_shows_them(store_dir: Path, tmp_path: Path) -> None:
    """One line a request: time, token name (given, or a SHA-256 label), status, milliseconds, bytes."""
    access, log = tmp_path / "access.yaml", tmp_path / "serve.log"
    access.write_text("alpha-team: {token: named-secret-1, products: [Alpha]}\n'plain-secret-2': '*'\n")
    for url in start_server(store_dir, "--access", str(access), log=log):
        assert ask(url, "ASK {}", token="named-secret-1").status_code == 200
        assert ask(url, "SELECT * WHERE {", token="plain-secret-2").status_code == 400
        assert ask(url, "ASK {}", token="wrong-secret-3").status_code == 401
        time.sleep(0.5)
    text = log.read_text()
    lines = [line for line in text.splitlines() if " GET /query " in line][1:]
    assert not re.search(r"secret-\d", text)
    assert re.search(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ alpha-team GET /query 200 [\d.]+ ms \d+ B$", lines[0])
    label = "sha256:" + __import__("hashlib").sha256(b"plain-secret-2").hexdigest()[:8]
    assert f" {label} GET /query 400 " in lines[1] and " - GET /query 401 " in lines[2]
