"""Issue 24's attacks on `kg serve`, against the real server over raw sockets and HTTP clients on 127.0.0.1.

Connections: a slot is always given back, idle and slow connections give way to a newcomer, one address holds at
most --max-per-client. Every loop is bounded in count and time; the limits are small and set by options.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote_plus

import pytest
import requests
from herbkit import herb_layout, small_product
from test_serve import ADMIN, ALPHA_TOKEN, ROOT, TOKENS, fixture_store, start_server

from kg.cli import main
from kg.endpoint.access import token_key
from kg.endpoint.engine import Job, Pool
from kg.endpoint.policy import Dataset, Limits
from kg.ingest.build import build
from kg.ingest.storepath import build_lock
from kg.namespaces import GRAPH

pytestmark = pytest.mark.slow

NORMAL = "SELECT ?l WHERE { ?x <http://www.w3.org/2000/01/rdf-schema#label> ?l }"
KEEP_ALIVE_GET = (
    b"GET /query HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
    + ALPHA_TOKEN.encode()
    + b"\r\nAccept: text/turtle\r\n\r\n"
)


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fixture_store(tmp_path_factory.mktemp("attacks"))


@pytest.fixture(scope="module")
def access(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("attacks-access") / "access.json"
    path.write_text(json.dumps(TOKENS))
    return path


def serve(store_dir: Path, access: Path, log: Path, *extra: str) -> Iterator[str]:
    yield from start_server(store_dir, "--access", str(access), *extra, timeout=4.0, log=log)


def normal(url: str) -> int:
    response = requests.post(
        f"{url}/query",
        data=NORMAL.encode(),
        timeout=10,
        headers={
            "Authorization": f"Bearer {ALPHA_TOKEN}",
            "Content-Type": "application/sparql-query",
            "Accept": "application/sparql-results+json",
            "Connection": "close",
        },
    )
    return response.status_code


def connect(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def closed_by_server(conn: socket.socket, seconds: float) -> bool:
    """True when the server closes `conn` (after whatever it sends) within `seconds`."""
    conn.settimeout(seconds)
    try:
        while conn.recv(65536):
            pass
        return True
    except TimeoutError:
        return False
    except OSError:
        return True


def still_open(conn: socket.socket) -> bool:
    conn.settimeout(0.05)
    try:
        return conn.recv(1) != b""
    except TimeoutError:
        return True
    except OSError:
        return False


def test_connections_idle_past_keep_alive_give_their_slots_back(store_dir: Path, access: Path, tmp_path: Path) -> None:
    """The issue's lockout: five keep-alive requests go idle past the keep-alive limit, then every request got 503."""
    for url in serve(store_dir, access, tmp_path / "serve.log", "--max-connections", "5", "--client-timeout", "1"):
        for _round in range(2):
            held = [connect(url) for _ in range(5)]
            for conn in held:
                conn.sendall(KEEP_ALIVE_GET)
            assert all(closed_by_server(conn, 5) for conn in held)  # answered, then closed when idle
            for conn in held:
                conn.close()
            assert [normal(url) for _ in range(3)] == [200, 200, 200]


def test_slow_and_idle_connections_give_way_to_a_newcomer(store_dir: Path, access: Path, tmp_path: Path) -> None:
    """Slowloris within the connection limit: a normal client is served at once, not after the client timeout."""
    log = tmp_path / "serve.log"
    for url in serve(store_dir, access, log, "--max-connections", "6", "--client-timeout", "30"):
        held = []
        for _ in range(20):
            conn = connect(url)
            conn.sendall(b"GET /query HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # headers never finished
            held.append(conn)
        started = time.monotonic()
        assert [normal(url) for _ in range(5)] == [200] * 5
        assert time.monotonic() - started < 5
        assert sum(still_open(conn) for conn in held) <= 6
        for conn in held:
            conn.close()
        assert "Traceback" not in log.read_text()


def test_one_address_holds_at_most_max_per_client(store_dir: Path, access: Path, tmp_path: Path) -> None:
    for url in serve(store_dir, access, tmp_path / "serve.log", "--max-connections", "50", "--max-per-client", "4"):
        held = []
        for _ in range(10):
            conn = connect(url)
            conn.sendall(b"GET /query HTTP/1.1\r\n")
            held.append(conn)
        time.sleep(0.3)
        assert sum(still_open(conn) for conn in held) == 4  # the newest four; the older six were closed
        assert normal(url) == 200
        for conn in held:
            conn.close()


def test_working_connections_are_not_evicted_and_a_full_server_says_503(
    store_dir: Path, access: Path, tmp_path: Path
) -> None:
    """Two runaway queries running at the workers fill --max-per-client 2: they keep their slots, and a third
    connection gets 503 (the token's share is 2, so neither waits for its turn: see the F2 test below)."""
    runaway = "SELECT (COUNT(*) AS ?n) WHERE { " + " ".join(f"?s{i} ?p{i} ?o{i} ." for i in range(24)) + " }"
    for url in serve(store_dir, access, tmp_path / "serve.log", "--max-per-client", "2", "--max-per-token", "2"):
        body = runaway.encode()
        held = []
        for _ in range(2):
            conn = connect(url)
            conn.sendall(
                b"POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + ALPHA_TOKEN.encode()
                + b"\r\nContent-Type: application/sparql-query\r\nContent-Length: "
                + str(len(body)).encode()
                + b"\r\n\r\n"
                + body
            )
            held.append(conn)
        time.sleep(0.5)
        third = connect(url)
        assert third.recv(200).startswith(b"HTTP/1.1 503")
        for conn in held:  # both run to the time limit: 503 from the supervisor, not a reset
            conn.settimeout(10)
            assert conn.recv(200).startswith(b"HTTP/1.1 503")
            conn.close()
        assert normal(url) == 200


# --- one store at a time ------------------------------------------------------------------------------------


def test_a_build_is_refused_while_the_store_is_served(
    herb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's mix: a build swapped the store under a running server, whose workers then answered from both."""
    store = tmp_path / "store"
    layout = herb_layout(tmp_path / "herb", herb, {"Good": small_product(herb, per_kind=2)})
    assert main(["build", "--herb", str(layout), "--store", str(store)]) == 0
    capsys.readouterr()
    before = sorted(p.name for p in store.iterdir())
    for url in start_server(store, log=tmp_path / "serve.log"):  # open: loopback clients only
        code = main(["build", "--herb", str(layout), "--store", str(store)])
        err = capsys.readouterr().err
        assert code == 2 and "(kg serve or kg mcp, PID" in err and "is serving" in err, err
        assert sorted(p.name for p in store.iterdir()) == before  # the served store was not touched
        assert normal(url) == 200
    assert main(["build", "--herb", str(layout), "--store", str(store)]) == 0  # once the server stopped


def test_serving_is_refused_while_a_build_writes_the_store(store_dir: Path, tmp_path: Path) -> None:
    with build_lock(store_dir):
        done = subprocess.run(
            [sys.executable, "-m", "kg", "serve", "--store", str(store_dir), "--port", "0"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2 and f"a kg build (PID {os.getpid()}) is writing" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


# --- unauthenticated 500s, the log, the /ask existence oracle ------------------------------------------------


@pytest.fixture(scope="module")
def served(store_dir: Path, access: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    log = tmp_path_factory.mktemp("attacks-log") / "serve.log"
    for url in serve(store_dir, access, log):
        yield url, log


def status_of(url: str, head: bytes) -> int:
    """The status of one raw request (`head` without the final blank line) on a fresh connection."""
    conn = connect(url)
    with conn:
        conn.sendall(head + b"Connection: close\r\n\r\n")
        out = b""
        while chunk := conn.recv(65536):
            out += chunk
    return int(out.split(b" ", 2)[1])


def ask_request(question: bytes, token: str = ADMIN) -> bytes:
    return (
        b"GET /ask?q=" + question + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token.encode() + b"\r\n"
    )


@pytest.mark.parametrize(
    ("head", "status"),
    [
        (b"GET /query?query=ASK%7B%7D HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \xff\xfe\r\n", 401),
        (b"GET /ask?q=who HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: kg_token=\xff\xfe\r\n", 401),
        (b"GET /artifact/a1 HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: kg_token=\xc3\x28\r\n", 401),
        (b"GET /query HTTP/1.1\r\nHost: a> <b\r\nAuthorization: Bearer " + ALPHA_TOKEN.encode() + b"\r\n", 421),
        (ask_request(b"Who+wrote+Alpha%27s+design%2C+the+one+Beta+cites%3F"), 400),  # two products named apart
        (ask_request(b"a" * 2100), 400),
        (ask_request(b"who%00wrote"), 400),
    ],
)
def test_hostile_headers_and_questions_get_4xx_never_500(served: tuple[str, Path], head: bytes, status: int) -> None:
    assert status_of(served[0], head) == status


def test_a_newline_in_the_path_cannot_forge_a_log_line(served: tuple[str, Path]) -> None:
    url, log = served
    status_of(url, b"GET /x%0A2026-01-01%2000:00:00,000%20admin%20GET%20/query%20200 HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    time.sleep(0.2)
    lines = log.read_text().splitlines()
    assert not any(line.startswith("2026-01-01") for line in lines)
    assert any("GET /x%0A2026-01-01%2000:00:00,000%20admin" in line for line in lines)


def test_the_answer_page_is_logged_with_the_token_name(served: tuple[str, Path]) -> None:
    url, log = served
    headers = {"Authorization": f"Bearer {ALPHA_TOKEN}"}
    requests.get(f"{url}/ask", params={"q": "Who wrote the Alpha design?"}, headers=headers, timeout=30)
    requests.get(f"{url}/artifact/alpha-sdd-1", headers=headers, timeout=30)
    time.sleep(0.2)
    name = f"sha256:{token_key(ALPHA_TOKEN)[:8]}"
    text = log.read_text()
    assert f"{name} GET /ask " in text and f"{name} GET /artifact/alpha-sdd-1 " in text


def test_the_answer_page_does_not_tell_an_existing_product_from_an_unknown_one(served: tuple[str, Path]) -> None:
    url = served[0]
    headers = {"Authorization": f"Bearer {ALPHA_TOKEN}"}
    replies = [
        requests.get(f"{url}/ask", params={"q": f"Who wrote the {p} design?"}, headers=headers, timeout=30)
        for p in ("Beta", "Zeta")
    ]
    assert [r.status_code for r in replies] == [403, 403]
    assert replies[0].text == replies[1].text


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_a_timeout_that_is_no_number_of_seconds_is_refused(store_dir: Path, value: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kg", "serve", "--store", str(store_dir), "--port", "0", "--timeout", value],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stderr.startswith("kg: error:") and done.stderr.count("\n") == 1


# --- fair shares of the workers, bytes in flight -------------------------------------------------------------

#: 20,000 rows of two 400-character literals: about 18 MB of SPARQL JSON, far past any socket buffer.
BIG = "SELECT ?o1 ?o2 WHERE { ?a <urn:p:0> ?o1 . ?b <urn:p:1> ?o2 } LIMIT 20000"
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { " + " ".join(f"?s{i} ?p{i} ?o{i} ." for i in range(24)) + " }"


@pytest.fixture(scope="module")
def filled_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture graph plus 3,000 long filler literals in Alpha, for large results."""
    filler = "".join(f'<urn:x:{i}> <urn:p:{i % 7}> "filler {i} {"z" * 400}" .\n' for i in range(3000))
    return fixture_store(tmp_path_factory.mktemp("attacks-filled"), filler, GRAPH + "Alpha")


def raw_post(url: str, query: str, token: str = ALPHA_TOKEN) -> socket.socket:
    """A connection that has sent one query and reads nothing."""
    body = query.encode()
    conn = connect(url)
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    conn.sendall(
        b"POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + token.encode()
        + b"\r\nContent-Type: application/sparql-query\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
        + body
    )
    return conn


def test_one_tokens_runaways_leave_the_other_tokens_a_worker(store_dir: Path, access: Path, tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    for url in serve(store_dir, access, log, "--workers", "2", "--max-per-token", "1"):
        runaways = [raw_post(url, RUNAWAY) for _ in range(3)]  # one runs, two wait for the token's turn
        time.sleep(0.5)
        started = time.monotonic()
        other = requests.post(
            f"{url}/query",
            data=NORMAL.encode(),
            timeout=30,
            headers={"Authorization": "Bearer betagamma-token-89", "Content-Type": "application/sparql-query"},
        )
        assert other.status_code == 200 and time.monotonic() - started < 2.5  # not after a 4 s runaway
        for conn in runaways:
            conn.close()


def rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) << 10 for line in status if line.startswith("VmRSS:"))


@contextmanager
def server_process(store: Path, access: Path, log: Path, *extra: str) -> Iterator[tuple[str, int]]:
    """`kg serve` as a subprocess: (base URL, the main process's PID)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "kg", "serve", "--store", str(store), "--port", str(port)]
    with log.open("w") as err:
        proc = subprocess.Popen([*command, "--access", str(access), *extra], cwd=ROOT, stderr=err)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                requests.get(f"{url}/", timeout=1)
                break
            except requests.ConnectionError:
                assert time.monotonic() < deadline, "kg serve did not start"
                time.sleep(0.1)
        yield url, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_reader_too_slow_for_the_send_deadline_is_cut_off(filled_store: Path, access: Path, tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    for url in serve(filled_store, access, log, "--max-result", "32", "--send-timeout", "1"):
        conn = raw_post(url, BIG)
        time.sleep(3)  # read nothing past the deadline
        received = 0
        conn.settimeout(5)
        try:
            while chunk := conn.recv(1 << 16):
                received += len(chunk)
        except OSError:
            pass  # a reset is a close too
        conn.close()
        assert received < 16_000_000  # the headers and what the buffers held, then a reset
        assert "too slowly; closed after 1 s" in log.read_text()
        assert normal(url) == 200


def test_slow_readers_cannot_grow_the_main_process_past_the_inflight_budget(
    filled_store: Path, access: Path, tmp_path: Path
) -> None:
    """Six clients ask for 18 MB each and read nothing: the main process holds at most --max-inflight of it."""
    extra = ("--max-result", "32", "--max-inflight", "40", "--send-timeout", "4", "--max-per-token", "6")
    with server_process(filled_store, access, tmp_path / "serve.log", *extra) as (url, pid):
        assert normal(url) == 200
        before = rss(pid)
        readers = [raw_post(url, BIG) for _ in range(6)]
        peak = before
        for _ in range(30):  # 3 s, within the send deadline: no reply has been given up yet
            peak = max(peak, rss(pid))
            time.sleep(0.1)
        for conn in readers:
            conn.close()
    assert peak - before < 80 << 20, f"grew {(peak - before) >> 20} MiB"  # 145 MiB before the budget


def until(condition: Callable[[], bool], what: str) -> Awaitable[None]:
    """Wait, polling, until `condition()` holds (a state, not a duration); fail after 60 s."""

    async def wait() -> None:
        deadline = time.monotonic() + 60
        while not condition():
            assert time.monotonic() < deadline, f"never: {what}"
            await asyncio.sleep(0.01)

    return wait()


def test_a_freed_worker_goes_first_to_a_token_with_nothing_running(filled_store: Path) -> None:
    """Alpha holds both workers (each reply waits for room the test gives only when told) and queues two more
    jobs; beta queues one after them. The first worker freed goes to beta, whose token has nothing running; first
    come would give it to alpha's. Driven by the pool's state, so no timing decides it."""
    large = "SELECT ?o WHERE { ?x <urn:p:0> ?o }"  # some 180 KB: past SMALL_REPLY, so it asks for room

    async def scenario() -> list[str]:
        pool = Pool(filled_store, 2, Limits(timeout=120))
        done: list[str] = []
        try:
            rooms = [asyncio.Event(), asyncio.Event()]

            async def job(party: str, query: str, room: asyncio.Event | None = None) -> None:
                async def admit(size: int) -> None:
                    if room is not None:
                        await room.wait()

                await pool.run(
                    Job("application/sparql-results+json", query=query, dataset=Dataset(union=True)), admit, party
                )
                done.append(party)

            held = [asyncio.create_task(job("alpha", large, room)) for room in rooms]
            await until(lambda: not pool.free, "alpha holds both workers")
            queued = [asyncio.create_task(job("alpha", NORMAL)) for _ in range(2)]
            await until(lambda: len(pool.waiting) == 2, "alpha queues two more")
            queued.append(asyncio.create_task(job("beta", NORMAL)))
            await until(lambda: len(pool.waiting) == 3, "beta queues behind them")
            rooms[0].set()
            await until(lambda: len(done) >= 2, "the freed worker ran the next job")
            rooms[1].set()
            await asyncio.gather(*held, *queued)
            return done
        finally:
            pool.close()

    assert asyncio.run(scenario())[:2] == ["alpha", "beta"]


# --- issue 36: what the third red team found ----------------------------------------------------------------

BETA_TOKEN = "betagamma-token-89"


def beta_query(url: str) -> int:
    """Another token's ordinary query on a new connection: its status."""
    response = requests.post(
        f"{url}/query",
        data=NORMAL.encode(),
        timeout=60,
        headers={"Authorization": f"Bearer {BETA_TOKEN}", "Content-Type": "application/sparql-query"},
    )
    return response.status_code


def test_requests_queued_for_their_tokens_turn_never_lock_another_token_out(
    store_dir: Path, access: Path, tmp_path: Path
) -> None:
    """F2: one token fills every connection slot with requests waiting for its single turn at the workers. A
    request waiting for its turn is not working: another token's connection takes a slot (landed: 503)."""
    extra = ("--workers", "2", "--max-per-token", "1", "--max-connections", "8", "--max-per-client", "8")
    log = tmp_path / "serve.log"
    for url in serve(store_dir, access, log, *extra):
        held = [raw_post(url, RUNAWAY) for _ in range(8)]  # one runs, seven wait for the token's turn
        time.sleep(1.0)  # for them to arrive; the answers below do not depend on it
        assert [beta_query(url) for _ in range(3)] == [200, 200, 200]
        for conn in held:
            conn.close()
        assert "Traceback" not in log.read_text()


#: Client addresses of the F2 flood (every 127.x address is this machine's loopback).
FLOOD_FROM = [f"127.0.0.{i}" for i in range(2, 10)]


def post_from(url: str, source: str, query: str, token: str) -> socket.socket | None:
    """A connection from `source` that has sent one query (None when the server refused it on the spot)."""
    host, port = url.removeprefix("http://").split(":")
    try:
        conn = socket.create_connection((host, int(port)), timeout=10, source_address=(source, 0))
        body = query.encode()
        conn.sendall(
            f"POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n"
            f"Content-Type: application/sparql-query\r\nContent-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        return conn
    except OSError:
        return None


def status_read(conn: socket.socket) -> int:
    """The status the server answers on `conn` (waiting for it), 0 when it closes the connection unanswered."""
    conn.settimeout(120)
    try:
        head = conn.recv(12)
    except OSError:
        return 0
    return int(head[9:12]) if len(head) == 12 else 0


@contextmanager
def stalled(pid: int) -> Iterator[None]:
    """The server's main process stopped (SIGSTOP) for the block, then resumed: whatever connects meanwhile waits
    in the kernel and arrives in one burst, as on a machine too loaded to read a newcomer before the next ones."""
    os.kill(pid, signal.SIGSTOP)
    try:
        deadline = time.monotonic() + 60
        while Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "T":
            assert time.monotonic() < deadline, "the server did not stop"
            time.sleep(0.01)
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def test_a_flood_arriving_with_a_newcomer_cannot_close_the_newcomers_request(
    store_dir: Path, access: Path, tmp_path: Path
) -> None:
    """F2 on a slowed server: one token's runaways from 8 addresses (8 connections each, so twice the server's 32
    slots) arrive in the same burst as another token's request. Landed, the newcomer's request was still unread
    when the burst's later connections came, so it was the oldest idle connection and was closed (the soak's
    24 % at a load of 20). A request that has arrived is now never closed for its own address's newcomers, and
    the flood's addresses, holding the most, give way first. Counted in answers: the burst is made by stopping
    the server, not by timing."""
    extra = ("--workers", "2", "--max-per-token", "1", "--max-connections", "32", "--max-per-client", "8")
    with server_process(store_dir, access, tmp_path / "serve.log", *extra, "--timeout", "60") as (url, pid):
        flood: list[socket.socket | None] = []
        answers = []
        for _round in range(3):
            flood += [post_from(url, source, RUNAWAY, ALPHA_TOKEN) for _ in range(8) for source in FLOOD_FROM]
            with stalled(pid):
                newcomer = post_from(url, "127.0.0.1", NORMAL, BETA_TOKEN)
                flood += [post_from(url, source, RUNAWAY, ALPHA_TOKEN) for _ in range(8) for source in FLOOD_FROM]
            assert newcomer is not None
            answers.append(status_read(newcomer))
            newcomer.close()
        for conn in flood:
            if conn is not None:
                conn.close()
        assert answers == [200, 200, 200]
        assert beta_query(url) == 200
    assert "Traceback" not in (tmp_path / "serve.log").read_text()


def test_idle_connections_arriving_with_a_newcomer_of_their_address_cannot_close_its_request(
    store_dir: Path, access: Path, tmp_path: Path
) -> None:
    """Clients behind one address (a proxy): a request and then 40 connections that send nothing arrive in one
    burst from the same address, past its --max-per-client 8. Each of those takes the slot of the longest-idle
    connection of the address; the request, unread when they came, looked idle and oldest. It has arrived (it
    waits in the socket), so it is the server's to answer, and the empty connections give way to each other."""
    extra = ("--max-per-client", "8")
    with server_process(store_dir, access, tmp_path / "serve.log", *extra) as (url, pid):
        host, port = url.removeprefix("http://").split(":")
        held, answers = [], []
        for _round in range(3):
            with stalled(pid):
                newcomer = post_from(url, "127.0.0.11", NORMAL, BETA_TOKEN)
                held += [socket.create_connection((host, int(port)), 10, ("127.0.0.11", 0)) for _ in range(40)]
            assert newcomer is not None
            answers.append(status_read(newcomer))
            newcomer.close()
        for conn in held:
            conn.close()
        assert answers == [200, 200, 200]


@pytest.fixture(scope="module")
def open_server(store_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """No access file: loopback clients read everything (the DNS-rebinding target)."""
    yield from start_server(store_dir, log=tmp_path_factory.mktemp("open-log") / "serve.log")


ROUTES = [
    b"/query?query=ASK%7B%7D",
    b"/query",
    b"/ask?q=Who+wrote+the+Alpha+design%3F",
    b"/artifact/alpha-sdd-1",
    b"/store?graph=" + GRAPH.encode() + b"Alpha",
    b"/",
    b"/examples.json",
]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("host", [b"evil.com", b"evil.com:80", b"EVIL.com.", b"127.0.0.1.evil.com", b"localhost.evil"])
def test_a_host_name_the_server_does_not_answer_gets_421_on_every_route(
    open_server: str, route: bytes, host: bytes
) -> None:
    """F1 (DNS rebinding): a page whose name resolves to 127.0.0.1 reads nothing, whatever the route."""
    assert (
        status_of(open_server, b"GET " + route + b" HTTP/1.1\r\nHost: " + host + b"\r\nOrigin: http://evil.com\r\n")
        == 421
    )


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "localhost", "[::1]:{port}", "{name}"])
def test_loopback_addresses_localhost_and_the_machines_name_are_answered(open_server: str, host: str) -> None:
    port = open_server.rsplit(":", 1)[1]
    header = host.format(port=port, name=socket.gethostname()).encode()
    assert status_of(open_server, b"GET /query?query=ASK%7B%7D HTTP/1.1\r\nHost: " + header + b"\r\n") == 200


def test_allow_host_adds_a_name(store_dir: Path, tmp_path: Path) -> None:
    for url in start_server(store_dir, "--allow-host", "kg.example.org, other.example", log=tmp_path / "serve.log"):
        ask = b"GET /query?query=ASK%7B%7D HTTP/1.1\r\nHost: "
        assert status_of(url, ask + b"KG.example.org:8080\r\n") == 200
        assert status_of(url, ask + b"evil.com\r\n") == 421


@pytest.mark.parametrize(
    "route",
    [
        b"/store?graph=not%20an%20iri",
        b"/store?graph=relative",
        b"/query?query=ASK%7B%7D&default-graph-uri=not%20an%20iri",
        b"/query?query=ASK%7B%7D&named-graph-uri=http://a%20b",
    ],
)
def test_a_graph_name_that_is_not_an_iri_is_400_not_500(served: tuple[str, Path], route: bytes) -> None:
    """S1: the admin token may name any graph, so the name reached the engine and failed there (500)."""
    head = b"GET " + route + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + ADMIN.encode() + b"\r\n"
    assert status_of(served[0], head) == 400


@pytest.mark.slow
def test_one_tokens_answer_page_loop_leaves_other_tokens_their_turn(herb: Path, tmp_path: Path) -> None:
    """F3: twelve /ask requests of one token at once, then one of another token's, on two HERB products (an answer
    takes a good fraction of a second there). The page runs one view of a token at a time, so the other token's
    answer comes while some of the first token's still wait; without a share it queued behind all twelve.
    Those refused at once (503) or closed unanswered count neither way. Counted in answers, not in seconds."""
    store = tmp_path / "store"
    build(herb, store, products=["ActionGenie", "FlowForce"], progress=False)
    access = tmp_path / "access.json"
    access.write_text(json.dumps({ALPHA_TOKEN: ["ActionGenie"], BETA_TOKEN: ["FlowForce"]}))
    asked = "Find employee IDs of the authors and key reviewers of the Market Research Report for the {} product?"
    request = (
        f"GET /ask?q={quote_plus(asked.format('ActionGenie'))} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {ALPHA_TOKEN}\r\nConnection: close\r\n\r\n"
    ).encode()
    for url in start_server(store, "--access", str(access), timeout=120.0, log=tmp_path / "serve.log"):
        flood = []
        for _ in range(12):
            conn = connect(url)
            conn.sendall(request)
            flood.append(conn)
        flood[0].settimeout(120)
        assert flood[0].recv(12).startswith(b"HTTP/1.1 200")  # the server is at work on the flood
        other = requests.get(
            f"{url}/ask",
            params={"q": asked.format("FlowForce")},
            headers={"Authorization": f"Bearer {BETA_TOKEN}"},
            timeout=120,
        )
        statuses = [status_sent(conn) for conn in flood[1:]]
        # past the token's waiting room (503), or closed while idle in the queue to make room (0): not waiting
        refused = statuses.count(503) + statuses.count(0)
        answered = statuses.count(200)
        assert other.status_code == 200
        assert set(statuses) <= {200, 503, 0, None} and refused < len(statuses), statuses
        assert answered < len(statuses) - refused, (
            f"all {answered} of the first token's queued requests were answered before the other token's one"
        )
        for conn in flood:
            conn.close()


def status_sent(conn: socket.socket) -> int | None:
    """The status of the reply the server has begun on `conn`, 0 when it closed the connection unanswered (to
    make room for other clients' connections), None while it sends nothing (without waiting)."""
    conn.setblocking(False)
    try:
        head = conn.recv(12, socket.MSG_PEEK)
        return int(head[9:12]) if len(head) == 12 else 0 if not head else None
    except BlockingIOError:
        return None
    except OSError:
        return 0
    finally:
        conn.setblocking(True)


def test_a_build_through_another_spelling_of_a_served_store_is_refused(
    herb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """F4: served through a link, the store was locked beside the link (.link.lock) while the build locked
    beside the folder (s2/.store.lock): the two never met, and the build replaced the served store."""
    real, link = tmp_path / "s2" / "store", tmp_path / "link"
    layout = herb_layout(tmp_path / "herb", herb, {"Good": small_product(herb, per_kind=2)})
    assert main(["build", "--herb", str(layout), "--store", str(real)]) == 0
    link.symlink_to(real, target_is_directory=True)
    capsys.readouterr()
    before = sorted(p.name for p in real.iterdir())
    for url in start_server(link, log=tmp_path / "serve.log"):
        for spelling in (real, tmp_path / "s2" / ".." / "s2" / "store"):
            code = main(["build", "--herb", str(layout), "--store", str(spelling)])
            err = capsys.readouterr().err
            assert code == 2 and "is serving" in err, err
        assert sorted(p.name for p in real.iterdir()) == before
        assert normal(url) == 200
