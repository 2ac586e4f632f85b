"""Issue 10's denial-of-service table, D1 to D8, against the real server over raw sockets and HTTP clients.

Every loop here is bounded in count and time, and every target is the 127.0.0.1 server the test started.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from pyoxigraph import RdfFormat, Store
from test_serve import ADMIN, ALPHA_TOKEN, FIXTURE, TOKENS, start_server

pytestmark = pytest.mark.slow

CLIENT_TIMEOUT = 2.0
NORMAL = "SELECT ?l WHERE { ?x <http://www.w3.org/2000/01/rdf-schema#label> ?l }"
JOIN = "{ " + " ".join(f"?s{i} ?p{i} ?o{i} ." for i in range(8)) + " }"


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture graph plus 3,000 filler triples in Alpha, so a cross join can grow without end."""
    path = tmp_path_factory.mktemp("limits") / "store"
    store = Store(str(path))
    store.load(FIXTURE.encode(), format=RdfFormat.TRIG)
    filler = "".join(f'<urn:x:{i}> <urn:p:{i % 7}> "filler {i} {"z" * 400}" .\n' for i in range(3000))
    store.load(
        filler.encode(),
        format=RdfFormat.N_TRIPLES,
        to_graph=__import__("pyoxigraph").NamedNode("https://w3id.org/ekg/graph/Alpha"),
    )
    store.flush()
    del store
    return path


@pytest.fixture(scope="module")
def served(store_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("limits-server")
    access, log = folder / "access.json", folder / "serve.log"
    access.write_text(json.dumps(TOKENS))
    for url in start_server(
        store_dir,
        "--access",
        str(access),
        "--client-timeout",
        str(CLIENT_TIMEOUT),
        "--max-memory",
        "300",
        "--max-result",
        "1",
        "--max-connections",
        "40",
        timeout=4.0,
        log=log,
    ):
        yield url, log


def post(url: str, query: str, token: str = ALPHA_TOKEN, timeout: float = 60) -> requests.Response:
    return requests.post(
        f"{url}/query",
        data=query.encode(),
        timeout=timeout,
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/sparql-query",
            "Accept": "application/sparql-results+json",
        },
    )


def exchange(url: str, raw: bytes, wait: float = 10.0) -> tuple[bytes, float]:
    """Send raw bytes on a fresh connection; everything the server sends until it closes, and how long."""
    host, port = url.removeprefix("http://").split(":")
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=wait) as conn:
        conn.sendall(raw)
        out = b""
        try:
            while chunk := conn.recv(65536):
                out += chunk
        except TimeoutError:
            out += b"<still open>"
    return out, time.monotonic() - started


def statuses(raw: bytes) -> list[int]:
    return [int(line.split()[1]) for line in raw.split(b"\r\n") if line.startswith(b"HTTP/1.")]


HEAD = (
    b"POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
    + ALPHA_TOKEN.encode()
    + b"\r\nContent-Type: application/sparql-query\r\n"
)
SMUGGLED = (
    b"GET /query?query=ASK%7B%7D HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
    + ALPHA_TOKEN.encode()
    + b"\r\n\r\n"
)


# --- D1 / D2: parse bombs and crashes ---------------------------------------------------------------------


def bombs() -> list[str]:
    return [
        "SELECT * WHERE " + "{ " * 5000 + "?s ?p ?o" + " }" * 5000,
        "SELECT * { FILTER(" + "(" * 20000 + "1" + ")" * 20000 + ") }",
        "ASK { FILTER(" + "!" * 50000 + "true) }",
        "ASK { BIND(1" + "+1" * 50000 + " AS ?x) }",
        "ASK { } #" + " UNION" * 20000,
    ]


def test_d1_d2_parse_bombs_are_refused_fast_and_normal_requests_never_fail(served: tuple[str, Path]) -> None:
    url, _ = served
    stop = time.monotonic() + 8
    failures: list[int] = []

    def normal_client() -> int:
        done = 0
        with requests.Session() as session:
            while time.monotonic() < stop:
                response = session.get(
                    f"{url}/query",
                    params={"query": NORMAL},
                    timeout=30,
                    headers={"Authorization": f"Bearer {ALPHA_TOKEN}"},
                )
                failures.extend([response.status_code] if response.status_code != 200 else [])
                done += 1
        return done

    with ThreadPoolExecutor(3) as pool:
        normal = [pool.submit(normal_client) for _ in range(2)]
        for _ in range(3):
            for bomb in bombs():
                started = time.monotonic()
                response = post(url, bomb)
                assert response.status_code in (400, 413), response.text
                assert time.monotonic() - started < 5
            service_bomb = "SELECT * { " + "{ " * 60 + "?s ?p 'service'" + " }" * 60 + " }"
            assert post(url, service_bomb).status_code == 200  # no second parser, no recursion: just a literal
        assert sum(f.result() for f in normal) > 10
    assert failures == []


def test_d1_d8_a_crashing_query_fails_alone_and_the_log_says_crash(store_dir: Path, tmp_path: Path) -> None:
    """Past the raw-text budgets (raised for this server), 100,000 nested groups overflow even the worker's
    256 MiB stack: that request gets a 500 naming the crash, and requests in flight on the other worker, as
    well as every request after, still succeed."""
    access, log = tmp_path / "access.json", tmp_path / "serve.log"
    access.write_text(json.dumps(TOKENS))
    for url in start_server(
        store_dir,
        "--access",
        str(access),
        "--max-query-bytes",
        "500000",
        "--max-groups",
        "300000",
        "--max-body",
        "500000",
        log=log,
    ):
        crash_alone(url, log)


def crash_alone(url: str, log: Path) -> None:
    crash = "SELECT * WHERE " + "{ " * 100000 + "?s ?p ?o" + " }" * 100000

    def normal_requests() -> list[int]:  # another token's: its turn is not behind the crash (per-token shares)
        return [post(url, NORMAL, token="betagamma-token-89").status_code for _ in range(20)]

    with ThreadPoolExecutor(1) as pool:
        others = pool.submit(normal_requests)
        crashed = post(url, crash)
        assert others.result() == [200] * 20
    assert crashed.status_code == 500 and "crashed" in crashed.text, crashed.text
    assert [post(url, NORMAL).status_code for _ in range(5)] == [200] * 5
    time.sleep(0.3)
    assert "crashed (exit code -11)" in log.read_text()


# --- D3 / D4: framing ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("negative length", HEAD + b"Content-Length: -1\r\n\r\nASK {}" + SMUGGLED),
        ("two lengths", HEAD + b"Content-Length: 6\r\nContent-Length: 60\r\n\r\nASK {}" + SMUGGLED),
        ("equal lengths", HEAD + b"Content-Length: 6\r\nContent-Length: 6\r\n\r\nASK {}" + SMUGGLED),
        (
            "length and chunked",
            HEAD + b"Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nASK {}\r\n0\r\n\r\n" + SMUGGLED,
        ),
        ("bad chunk size", HEAD + b"Transfer-Encoding: chunked\r\n\r\nzz\r\nASK {}\r\n0\r\n\r\n" + SMUGGLED),
        ("plus sign", HEAD + b"Content-Length: +6\r\n\r\nASK {}" + SMUGGLED),
        ("unknown coding", HEAD + b"Transfer-Encoding: xchunked\r\n\r\nASK {}" + SMUGGLED),
    ],
)
def test_d3_d4_bad_framing_is_400_and_nothing_is_served_after_it(
    served: tuple[str, Path], name: str, raw: bytes
) -> None:
    out, _ = exchange(served[0], raw)
    assert statuses(out) == [400], (name, out[:300])


def test_d3_d4_chunked_bodies_are_read_and_bounded(served: tuple[str, Path]) -> None:
    url = served[0]
    chunks = b"3\r\nASK\r\n3\r\n {}\r\n0\r\n\r\n"
    out, _ = exchange(url, HEAD + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunks)
    assert statuses(out) == [200] and out.endswith(b'"boolean":true}')
    huge = HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + (b"400\r\n" + b"#" * 1024 + b"\r\n") * 12 + b"0\r\n\r\n"
    out, _ = exchange(url, huge)
    assert statuses(out) == [413]
    out, elapsed = exchange(url, HEAD + b"Content-Length: 1073741824\r\n\r\nASK {}")
    assert statuses(out) == [413] and elapsed < 5


# --- D5: slow and idle clients -------------------------------------------------------------------------------


def test_d5_slow_headers_slow_bodies_and_idle_connections_are_closed(served: tuple[str, Path]) -> None:
    url = served[0]
    out, elapsed = exchange(url, b"GET /query HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    assert out == b"" and elapsed < CLIENT_TIMEOUT + 3
    out, elapsed = exchange(url, HEAD + b"Content-Length: 100\r\n\r\nASK")
    assert statuses(out) == [408] and elapsed < CLIENT_TIMEOUT + 3
    out, elapsed = exchange(url, SMUGGLED)  # answered, then idle on keep-alive
    assert statuses(out) == [200] and elapsed < CLIENT_TIMEOUT + 3


def test_d5_connection_flood_is_bounded_and_leaves_no_tracebacks(served: tuple[str, Path]) -> None:
    url, log = served
    host, port = url.removeprefix("http://").split(":")
    held = []
    for _ in range(120):
        conn = socket.create_connection((host, int(port)), timeout=5)
        conn.sendall(b"GET /query HTTP/1.1\r\n")  # never finished
        held.append(conn)
    time.sleep(0.5)
    still_open = 0
    for conn in held:
        conn.settimeout(0.05)
        try:
            conn.recv(200)  # b"" (or a reset) once the server closed it
        except TimeoutError:
            still_open += 1
        except OSError:
            pass
    assert still_open <= 32  # one address holds --max-per-client (32) slots: the older connections were closed
    for conn in held:  # disconnect abruptly, as the 4,000 clients did
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        conn.close()
    started = time.monotonic()
    while (status := post(url, NORMAL).status_code) == 503 and time.monotonic() - started < 5:
        time.sleep(0.1)  # the closed connections are released as the server reads their resets
    assert status == 200 and time.monotonic() - started < 5
    time.sleep(0.3)
    assert "Traceback" not in log.read_text() and "BrokenPipe" not in log.read_text()


# --- D6 / D7 / D8: memory, partial results, causes in the log -------------------------------------------------


def test_d6_d8_memory_runaway_is_cut_at_the_limit(served: tuple[str, Path]) -> None:
    url, log = served
    started = time.monotonic()
    response = post(url, f"SELECT * WHERE {JOIN} ORDER BY ?o0 ?o1", ADMIN)
    assert response.status_code == 503 and "memory limit" in response.text, response.text[:300]
    assert time.monotonic() - started < 4.0 + 5
    assert post(url, NORMAL).status_code == 200
    time.sleep(0.3)
    assert "exceeded the memory limit" in log.read_text()


def test_d7_d8_time_runaway_is_503_never_a_partial_200(served: tuple[str, Path]) -> None:
    url, log = served
    response = post(url, f"SELECT (COUNT(*) AS ?n) WHERE {JOIN}", ADMIN)
    assert response.status_code == 503 and "time limit" in response.text, response.text[:300]
    time.sleep(0.3)
    assert "exceeded the time limit" in log.read_text()


def test_d7_a_result_over_the_cap_is_507_with_a_whole_body(served: tuple[str, Path]) -> None:
    url = served[0]
    response = post(url, "SELECT * WHERE { ?s ?p ?o }")  # about 3 MiB of JSON: over --max-result 1 MiB
    assert response.status_code == 507 and response.text.startswith("the result exceeds 1 MiB"), response.text[:300]
    small = post(url, "SELECT * WHERE { ?s ?p ?o } LIMIT 100")
    assert small.status_code == 200 and len(small.json()["results"]["bindings"]) == 100


# --- browsers: CORS, the page ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cors_server(store_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    access = tmp_path_factory.mktemp("cors") / "access.json"
    access.write_text(json.dumps(TOKENS))
    yield from start_server(store_dir, "--access", str(access), "--cors", "http://app.example,http://b.example")


def test_cors_preflight_and_allowed_origins(cors_server: str, served: tuple[str, Path]) -> None:
    preflight = requests.options(
        f"{cors_server}/query",
        timeout=10,
        headers={
            "Origin": "http://app.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type",
        },
    )
    assert preflight.status_code == 204
    assert preflight.headers["Access-Control-Allow-Origin"] == "http://app.example"
    assert set(preflight.headers["Access-Control-Allow-Headers"].split(", ")) == {"Authorization", "Content-Type"}
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    answer = requests.get(
        f"{cors_server}/query",
        params={"query": "ASK {}"},
        timeout=10,
        headers={"Origin": "http://b.example", "Authorization": f"Bearer {ALPHA_TOKEN}"},
    )
    assert answer.status_code == 200 and answer.headers["Access-Control-Allow-Origin"] == "http://b.example"
    denied = requests.get(
        f"{cors_server}/query",
        params={"query": "ASK {}"},
        timeout=10,
        headers={"Origin": "http://evil.example", "Authorization": f"Bearer {ALPHA_TOKEN}"},
    )
    assert "Access-Control-Allow-Origin" not in denied.headers
    unauthorised = requests.get(f"{cors_server}/query", timeout=10, headers={"Origin": "http://app.example"})
    assert unauthorised.status_code == 401 and unauthorised.headers["Access-Control-Allow-Origin"]
    default = requests.options(f"{served[0]}/query", timeout=10, headers={"Origin": "http://app.example"})
    assert "Access-Control-Allow-Origin" not in default.headers  # no --cors: no cross-origin reads


def test_cors_star(store_dir: Path, tmp_path: Path) -> None:
    access = tmp_path / "access.json"
    access.write_text(json.dumps(TOKENS))
    for url in start_server(store_dir, "--access", str(access), "--cors", "*"):
        response = requests.options(
            f"{url}/query", timeout=10, headers={"Origin": "http://any.example", "Access-Control-Request-Method": "GET"}
        )
        assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_the_page_and_its_assets_come_from_the_package(served: tuple[str, Path]) -> None:
    url = served[0]
    page = requests.get(f"{url}/", timeout=10)
    assert page.status_code == 200 and "static/yasgui.min.js" in page.text
    assert "connect-src 'self'" in page.headers["Content-Security-Policy"]
    assert "http" not in page.text.replace("http-equiv", "")  # no CDN, no other origin
    for asset in ("yasgui.min.js", "yasgui.min.css", "page.js"):
        response = requests.get(f"{url}/static/{asset}", timeout=10)
        assert response.status_code == 200 and len(response.content) > 100
    assert requests.get(f"{url}/static/..%2F..%2Fengine.py", timeout=10).status_code == 404
    assert requests.get(f"{url}/static/LICENSE", timeout=10).status_code == 404


def alive(pid: int) -> bool:
    """The process runs (a zombie waiting for its reaper has ended)."""
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


def test_a_worker_ends_with_its_server_even_when_the_server_is_killed(store_dir: Path) -> None:
    """A server killed outright (SIGKILL: no shutdown runs) while its worker runs a runaway query leaves no
    worker behind: the query ignores the closed pipe, and an orphan would hold a core for ever."""
    runaway = f"SELECT (COUNT(*) AS ?n) WHERE {JOIN}"
    script = (
        "import time\nfrom pathlib import Path\nfrom kg.endpoint.engine import Job, Worker\n"
        "from kg.endpoint.policy import Dataset, Limits\n"
        f"worker = Worker(Path({str(store_dir)!r}), Limits())\n"
        f"worker.conn.send(Job('application/sparql-results+json', {runaway!r}, Dataset(union=True)))\n"
        "print(worker.process.pid, flush=True)\ntime.sleep(600)\n"
    )
    server = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    pid = int(server.stdout.readline())
    assert alive(pid)
    os.kill(server.pid, signal.SIGKILL)
    server.wait()
    deadline = time.monotonic() + 15
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(pid), f"the worker {pid} outlived its server"
