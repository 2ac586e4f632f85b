"""Errors are errors, not abstentions: every endpoint failure is `kg: error:` and exit 2 for `kg ask`, an error
record in `--batch`; names are checked; `kg query` options mean what they say.

The endpoints are real: a dead loopback port, a tiny http.server answering 401 / 500 / garbage / slowly, and
`kg serve` over a real store with a wrong token or no data.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from endpoints import ROOT, free_port, kg_serve
from misbehaving import ask_true, not_found, redirect_to, serving, trickle
from pyoxigraph import Store

from kg.errors import KGError, Unavailable
from kg.query.remote import RemoteEndpoint

QUESTION = "Who wrote the Market Research Report for ActionGenie?"
TOKEN = "engines-test-token-0123"

#: path -> (status, content type, body) the broken server answers with.
BROKEN = {
    "/unauthorized": (401, "text/plain", b"Unauthorized\n"),
    "/forbidden": (403, "text/plain", b"Forbidden\n"),
    "/error": (500, "text/plain", b"Internal Server Error: the engine fell over\n"),
    "/unavailable": (503, "text/html", b""),
    "/garbage": (200, "text/html", b"<html><body>Welcome to nginx!</body></html>"),
    "/truncated": (
        200,
        "application/sparql-results+json",
        b'{"head": {"vars": ["label"]}, "results": {"bindings": [{"label": {"type": "literal", "val',
    ),
    "/rows-for-ask": (200, "application/sparql-results+json", b'{"head": {"vars": []}, "results": {"bindings": []}}'),
    # Virtuoso's documented ASK answer when its CaseMode is not 2
    "/ask-retval": (
        200,
        "application/sparql-results+json",
        b'{"head": {"vars": ["__ASK_RETVAL"]}, "results": {"bindings": [{"__ASK_RETVAL": {"type": "typed-literal", '
        b'"datatype": "http://www.w3.org/2001/XMLSchema#integer", "value": "1"}}]}}',
    ),
    "/ask-retval-false": (
        200,
        "application/sparql-results+json",
        b'{"head": {"link": [], "vars": ["__ASK_RETVAL"]}, "results": {"bindings": []}}',
    ),
}


class Broken(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path == "/slow":
            time.sleep(3)
        status, kind, body = BROKEN.get(self.path, (200, "application/sparql-results+json", b"{}"))
        self.send_response(status)
        if self.path == "/capped":  # what Virtuoso sends when ResultSetMaxRows cut a result short
            self.send_header("X-SPARQL-MaxRows", "10000")
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def broken() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Broken)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def kg(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def assert_one_line_error(done: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert done.returncode == 2 and done.stdout == "", (done.stdout, done.stderr)
    assert done.stderr.startswith("kg: error: ") and "Traceback" not in done.stderr
    assert "ABSTAIN" not in done.stderr
    for needle in needles:
        assert needle in done.stderr


@pytest.mark.parametrize(
    ("path", "needles"),
    [
        ("/unauthorized", ["answered 401", "check --token"]),
        ("/forbidden", ["answered 403"]),
        ("/error", ["answered 500", "the engine fell over"]),
        ("/unavailable", ["answered 503"]),
        ("/garbage", ["did not answer with SPARQL JSON results"]),
        ("/truncated", ["did not answer with SPARQL JSON results"]),
    ],
)
def test_kg_ask_on_a_failing_endpoint_is_an_error(broken: str, path: str, needles: list[str]) -> None:
    assert_one_line_error(kg("ask", QUESTION, "--endpoint", broken + path), broken + path, *needles)


def test_kg_ask_on_a_dead_port_is_an_error() -> None:
    url = f"http://127.0.0.1:{free_port()}/query"
    assert_one_line_error(kg("ask", QUESTION, "--endpoint", url), f"cannot reach the SPARQL endpoint {url}")


def test_a_timeout_a_cut_off_and_a_wrong_result_form_are_errors(broken: str) -> None:
    with pytest.raises(KGError, match=r"did not answer within 0.5 s"):
        RemoteEndpoint(broken + "/slow", timeout=0.5).select("SELECT * WHERE { ?s ?p ?o }")
    with pytest.raises(KGError, match="cut the result off at 10000 rows"):
        RemoteEndpoint(broken + "/capped").select("SELECT * WHERE { ?s ?p ?o }")
    with pytest.raises(KGError, match=r"answered an ASK query with rows.*CaseMode is not 2"):
        RemoteEndpoint(broken + "/rows-for-ask").ask("ASK { ?s ?p ?o }")


def test_virtuosos_ask_row_form_is_read_as_the_boolean_it_documents(broken: str) -> None:
    """What Virtuoso 7.2 with CaseMode = 1 sends (checked by hand): one row of 1 for true, no row for false."""
    assert RemoteEndpoint(broken + "/ask-retval").ask("ASK { ?s ?p ?o }") is True
    assert RemoteEndpoint(broken + "/ask-retval-false").ask("ASK { ?s ?p ?o }") is False


def test_every_failure_of_the_exchange_is_unavailable_so_a_replica_may_stand_in(broken: str) -> None:
    """A dead port, a 5xx, a 4xx, a body that is not results and a timeout all let the next replica answer."""
    urls = [f"http://127.0.0.1:{free_port()}/query"] + [
        broken + path for path in ("/error", "/unavailable", "/forbidden", "/garbage", "/truncated")
    ]
    for url in urls:
        with pytest.raises(Unavailable):
            RemoteEndpoint(url).ask("ASK {}")
    with pytest.raises(Unavailable, match=r"did not answer within 0\.5 s"):
        RemoteEndpoint(broken + "/slow", timeout=0.5).ask("ASK {}")
    with serving(not_found) as missing, pytest.raises(Unavailable, match="answered 404"):
        RemoteEndpoint(missing.url).ask("ASK {}")


def test_a_trickling_endpoint_is_cut_at_the_total_deadline_not_per_read() -> None:
    """One byte every half second never trips a per-read timeout; the whole request's deadline cuts it (the
    server would go on for 30 s)."""
    with serving(trickle) as slow_drip:
        began = time.monotonic()
        with pytest.raises(Unavailable, match="did not answer within 2 s"):
            RemoteEndpoint(slow_drip.url, timeout=2).select("SELECT * WHERE { ?s ?p ?o }")
        assert time.monotonic() - began < 25  # cut well before the server is done (a hang would take 30 s)


def test_a_redirect_is_never_followed() -> None:
    """A 307 would send the query (and a token) to a URL the operator never listed: it is a failure instead."""
    with serving(ask_true) as elsewhere, serving(redirect_to(elsewhere.url)) as redirecting:
        with pytest.raises(Unavailable, match=r"answered 307.*never followed"):
            RemoteEndpoint(redirecting.url, token="KG-secret").ask("ASK {}")
        assert redirecting.hits == ["/sparql"] and elsewhere.hits == []


def test_batch_on_a_dead_endpoint_writes_error_records_and_exits_non_zero(tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("".join(json.dumps({"question": q}) + "\n" for q in (QUESTION, "", QUESTION)))
    done = kg("ask", "--batch", str(src), "--out", str(out), "--endpoint", f"http://127.0.0.1:{free_port()}/query")
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 3 and all("abstain" not in r for r in rows)
    assert [r["line"] for r in rows] == [1, 2, 3] and all("cannot reach" in r["error"] for r in rows)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "kg: error: 3 of 3 lines got an error record instead of an answer (3 failed, 0 malformed)"
    )


@pytest.fixture(scope="module")
def guarded(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`kg serve` over the real store with an access file."""
    folder = tmp_path_factory.mktemp("guarded")
    (folder / "access.json").write_text(json.dumps({TOKEN: "*"}))
    with kg_serve(store, folder, "--access", str(folder / "access.json")) as url:
        yield url


@pytest.mark.herb
def test_kg_serve_with_a_wrong_token_is_an_error_and_the_right_one_answers(guarded: str) -> None:
    assert_one_line_error(kg("ask", QUESTION, "--endpoint", guarded, "--token", "wrong"), "answered 401")
    assert_one_line_error(kg("ask", QUESTION, "--endpoint", guarded), "answered 401")
    done = kg("ask", QUESTION, "--endpoint", guarded, "--token", TOKEN, "--json")
    assert done.returncode == 0 and "eid_13fdff84" in json.loads(done.stdout)["answer"]


def test_an_endpoint_without_products_is_an_error_naming_it(tmp_path: Path) -> None:
    """No product graph at the URL (nothing loaded, or loaded without graph names): one error, not an
    abstention per question."""
    Store(str(tmp_path / "empty"))  # a real, empty store
    with kg_serve(tmp_path / "empty", tmp_path) as url:
        assert_one_line_error(
            kg("ask", QUESTION, "--endpoint", url),
            f"no products found at {url}: is the data loaded, and with its graph names",
        )


@pytest.mark.herb
def test_unknown_product_names_the_closest(store: Path, tmp_path: Path) -> None:
    query = tmp_path / "q.rq"
    query.write_text("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
    assert_one_line_error(
        kg("query", str(query), "--store", str(store), "--product", "ActionGenei"),
        "unknown product 'ActionGenei'",
        "did you mean ActionGenie?",
    )
    assert_one_line_error(
        kg("query", str(query), "--store", str(store), "--product", "Zzz"), "known products: ActionGenie, AnomalyForce"
    )


@pytest.mark.herb
def test_a_question_naming_two_products_is_refused(store: Path) -> None:
    done = kg("ask", "Who wrote ActionGenie's Market Research Report? SearchFlow's?", "--store", str(store))
    assert_one_line_error(
        done, "invalid question: the question names 2 products (ActionGenie, SearchFlow)", "one product at a time"
    )


@pytest.mark.herb
def test_kg_query_on_an_endpoint_honours_format_product_and_bind(store: Path, guarded: str, tmp_path: Path) -> None:
    query = tmp_path / "q.rq"
    query.write_text("SELECT ?kind (COUNT(*) AS ?n) WHERE { ?d ekg:documentKind ?kind } GROUP BY ?kind ORDER BY ?kind")
    where = ["--endpoint", guarded, "--token", TOKEN]
    local = kg("query", str(query), "--store", str(store), "--product", "ActionGenie", "--format", "json")
    remote = kg("query", str(query), *where, "--product", "ActionGenie", "--format", "json")
    assert local.returncode == remote.returncode == 0
    assert json.loads(remote.stdout) == json.loads(local.stdout) and json.loads(local.stdout)["results"]["bindings"]
    csv = kg("query", str(query), *where, "--product", "ActionGenie", "--format", "csv")
    assert csv.stdout.splitlines()[0] == "kind,n"
    assert_one_line_error(kg("query", str(query), *where, "--product", "ActionGenei"), "did you mean ActionGenie?")
    # a variable outside the projection: the endpoint binds it; the store says why it cannot
    query.write_text("SELECT ?d WHERE { ?d ekg:documentKind ?kind } ORDER BY ?d")
    bound = ["--product", "ActionGenie", "--bind", "kind=ekg:MarketResearchReport", "--format", "csv"]
    remote = kg("query", str(query), *where, *bound)
    assert remote.returncode == 0 and len(remote.stdout.splitlines()) > 1
    assert_one_line_error(kg("query", str(query), "--store", str(store), *bound), "add the variable to the SELECT")
    query.write_text("SELECT ?d ?kind WHERE { ?d ekg:documentKind ?kind } ORDER BY ?d")
    local = kg("query", str(query), "--store", str(store), *bound)
    assert local.returncode == 0 and local.stdout.splitlines()[1:] == [
        f"{line},https://w3id.org/ekg/ont#MarketResearchReport" for line in remote.stdout.splitlines()[1:]
    ]


@pytest.mark.herb
def test_construct_with_a_results_format_says_it_writes_n_triples(store: Path, tmp_path: Path) -> None:
    query = tmp_path / "q.rq"
    query.write_text("CONSTRUCT { ?d a ekg:Document } WHERE { ?d a ekg:Document } ")
    done = kg("query", str(query), "--store", str(store), "--product", "ActionGenie", "--format", "json")
    assert done.returncode == 0 and "writing N-Triples" in done.stderr
    assert all(line.endswith(" .") and line.startswith("<") for line in done.stdout.splitlines())


@pytest.mark.herb
def test_syntax_error_positions_are_the_users_lines(store: Path, tmp_path: Path) -> None:
    query = tmp_path / "q.rq"
    query.write_text("SELECT ?d WHERE {\n  ?d a nope:Document .\n}\n")  # the project's prefixes are not lines
    done = kg("query", str(query), "--store", str(store))
    assert_one_line_error(done, "SPARQL syntax error: error at 2:21:", "Prefix not found")
