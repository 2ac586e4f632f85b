"""Soak and attack test for `kg serve` and `kg mcp`: normal clients at mixed load while every attack of issues 24
and 36 runs.

Normal clients replay `bench_endpoint.py`'s mix (what `kg ask` sends for the HERB dev questions: 80 % valid,
10 % malformed, 10 % forbidden), each with its own product's token, on keep-alive connections. A request
counts as a success when it gets the answer the mix expects (200, 400, 403, or a 200 confined to the token's
graphs). Like a browser, a client whose kept-alive connection was closed before any reply byte sends the
request again once on a new connection (counted as a retry). A probe client sends the same mix on a new
connection each time, five a second: it is what a newcomer sees. Meanwhile, all at once:

- idle keep-alives: connections that send one request and then sit idle (the lockout of issue 24);
- slowloris: connections sending their headers one byte a second;
- an idle flood: TCP connections that never send a byte;
- slow readers: admin queries for a ~30 MB result whose reply is never read;
- runaways: one product token keeps 8 queries that run to the time limit in flight;
- queued runaways (issue 36, F2): the same token, from 8 other client addresses (127.0.0.2 to .9), holds 32
  connections on each, every one with a runaway waiting for the token's turn at the workers;
- an answer-page loop (issue 36, F3): the same token asks `/ask` questions on 24 connections without pause
  (a 503 is followed by 50 ms), from 127.0.0.10;
- parse bombs and a deep nesting, in a loop;
- at `kg mcp --transport http` (same access file, its default 2 workers), MCP runaways (issue 36, F7): the
  attacker's token keeps 4 `query` tool calls that run to the time limit in flight, each on its own session;
- an MCP session flood (issue 36, F8): `initialize` POSTs without a token, and with a wrong one, in a loop on
  2 connections each, plus the attacker's own token opening sessions past its share.

Probes of other tokens, each on a new connection: the `/query` mix above (5 a second, from 127.0.0.1, sharing
that address with issue 24's attackers), an `/ask` question about the probe token's own product (one a
second, from 127.0.0.11), and a whole MCP client (`initialize`, `initialized`, a `query` tool call `ASK`
on its product, `DELETE` of the session; one a second, from 127.0.0.12), the product tokens in turn. Each
probe's success is reported per token.

Reported per phase (a baseline without attacks first, then the soak): requests, q/s, p50/p99, the success
rate, the probes' success per kind and per token, and the `kg serve` main process's peak resident memory
(sampled every 0.5 s). Everything targets the 127.0.0.1 servers this script starts; every loop is paced and
bounded by the phase's end.

    .venv/bin/python bench/bench_endpoint_soak.py --store .kg/store --minutes 10
    .venv/bin/python bench/bench_endpoint_soak.py --minutes 3 --compare-with /tmp/kg-old --compare-minutes 1
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_endpoint import (
    ATTACKS,
    HOST,
    JSON_RESULTS,
    ROOT,
    Request,
    confined,
    free_port,
    recorded_calls,
    requests_for,
    serve_command,
    started,
)

from kg.paths import herb_path, store_path

JOIN = "{ " + " ".join(f"?s{i} ?p{i} ?o{i} ." for i in range(8)) + " }"
RUNAWAY = f"SELECT (COUNT(*) AS ?n) WHERE {JOIN}"
BIG = "SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 150000"  # about 30 MB of SPARQL JSON
STALE = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError, ConnectionAbortedError)


@dataclass
class Phase:
    latencies: list[float] = field(default_factory=list)
    successes: int = 0
    failures: list[str] = field(default_factory=list)
    retries: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: token -> [successes, requests]
    by_token: dict[str, list[int]] = field(default_factory=dict)

    def record(self, token: str, elapsed: float, ok: bool, failure: str, retried: bool = False) -> None:
        with self.lock:
            self.latencies.append(elapsed)
            self.retries += retried
            counts = self.by_token.setdefault(token, [0, 0])
            counts[0] += ok
            counts[1] += 1
            if ok:
                self.successes += 1
            else:
                self.failures.append(failure)

    def success(self) -> float:
        return self.successes / len(self.latencies) if self.latencies else 0.0


def normal_client(
    port: int, mix: list[Request], offset: int, deadline: float, phase: Phase, fresh: bool = False
) -> None:
    """Replay the mix on a keep-alive connection, or (`fresh`, a probe) on a new connection each time, 5 a second."""
    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    i = offset
    while time.monotonic() < deadline:
        req = mix[i % len(mix)]
        i += 1
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": JSON_RESULTS}
        headers["Authorization"] = f"Bearer {req.token}"
        if fresh:
            headers["Connection"] = "close"
        started_at = time.perf_counter()
        retried = False
        while True:
            try:
                conn.request("POST", "/query", body=req.body, headers=headers)
                response = conn.getresponse()
                status, body = response.status, response.read()
                break
            except STALE as exc:
                conn.close()
                if retried:
                    status, body = 0, str(exc).encode()
                    break
                retried = True
            except (OSError, http.client.HTTPException) as exc:
                conn.close()
                status, body = 0, str(exc).encode()
                break
        elapsed = time.perf_counter() - started_at
        ok = status == req.expect or confined(req, status, body)
        phase.record(
            req.token, elapsed, ok, f"{req.kind}: expected {req.expect}, got {status}: {body[:100]!r}", retried
        )
        if fresh or status == 0 or status >= 500:
            conn.close()
        if fresh:
            time.sleep(0.2)
    conn.close()


#: The client addresses of issue 36's attacks (every 127.x address is this machine's loopback).
QUEUED_FROM = [f"127.0.0.{i}" for i in range(2, 10)]
ASK_LOOP_FROM = "127.0.0.10"


def connect(port: int, source: str = "") -> socket.socket | None:
    try:
        conn = socket.create_connection((HOST, port), timeout=5, source_address=(source, 0))
        conn.setblocking(False)
        return conn
    except OSError:
        return None


def closed(conn: socket.socket) -> bool:
    """Whether the server closed `conn` (what it sent is discarded)."""
    try:
        while True:
            if not conn.recv(65536):
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def keep(
    port: int,
    count: int,
    opening: Callable[[socket.socket], None],
    deadline: float,
    tally: dict,
    name: str,
    source: str = "",
) -> list[socket.socket]:
    """Hold `count` connections open, each started by `opening`, reopening closed ones at most 20 a second."""
    held: list[socket.socket] = []
    while time.monotonic() < deadline:
        for conn in [c for c in held if closed(c)]:
            held.remove(conn)
            conn.close()
            tally[f"{name} closed by the server"] = tally.get(f"{name} closed by the server", 0) + 1
        if len(held) < count and (conn := connect(port, source)) is not None:
            try:
                opening(conn)
                held.append(conn)
            except OSError:
                conn.close()
        tick(held, name)
        time.sleep(0.05)
    for conn in held:
        conn.close()
    return held


def tick(held: list[socket.socket], name: str) -> None:
    """A slowloris sends one more header byte on each connection, once a second."""
    if name != "slowloris" or int(time.monotonic() * 20) % 20:
        return
    for conn in held:
        with contextlib.suppress(OSError):
            conn.send(b"X")


def request_bytes(query: str, token: str) -> bytes:
    body = query.encode()
    return (
        f"POST /query HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/sparql-query\r\nAccept: {JSON_RESULTS}\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body


def runaway_loop(port: int, token: str, deadline: float, tally: dict) -> None:
    while time.monotonic() < deadline:
        conn = http.client.HTTPConnection(HOST, port, timeout=120)
        try:
            conn.request(
                "POST",
                "/query",
                body=RUNAWAY.encode(),
                headers={"Content-Type": "application/sparql-query", "Authorization": f"Bearer {token}"},
            )
            key = f"runaway {conn.getresponse().status}"
        except (OSError, http.client.HTTPException):
            key = "runaway no reply"
        finally:
            conn.close()
        tally[key] = tally.get(key, 0) + 1
        time.sleep(0.05)


def bomb_loop(port: int, token: str, deadline: float, tally: dict) -> None:
    i = 0
    while time.monotonic() < deadline:
        query = ATTACKS[i % 4][0]  # the four parse bombs (the runaways have their own loop)
        i += 1
        conn = http.client.HTTPConnection(HOST, port, timeout=60)
        try:
            conn.request(
                "POST",
                "/query",
                body=query.encode(),
                headers={"Content-Type": "application/sparql-query", "Authorization": f"Bearer {token}"},
            )
            key = f"bomb {conn.getresponse().status}"
        except (OSError, http.client.HTTPException):
            key = "bomb no reply"
        finally:
            conn.close()
        tally[key] = tally.get(key, 0) + 1
        time.sleep(0.2)


#: The answer page's question, about a product the asking token reads.
QUESTION = "Who authored the Market Research Report for the {} product?"
ASK_PROBE_FROM, MCP_PROBE_FROM = "127.0.0.11", "127.0.0.12"
#: How many `/ask` requests the F3 attacker keeps looping.
ASK_LOOPS = 24


def ask_status(port: int, token: str, product: str, source: str) -> int:
    """The status of one `/ask` about `product` on a new connection from `source` (0: no reply)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=120, source_address=(source, 0))
    try:
        conn.request("GET", "/ask?" + urlencode({"q": QUESTION.format(product)}), headers=bearer(token))
        response = conn.getresponse()
        response.read()
        return response.status
    except (OSError, http.client.HTTPException):
        return 0
    finally:
        conn.close()


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def ask_loop(port: int, token: str, product: str, deadline: float, tally: dict) -> None:
    """The answer page asked without pause by one token (what a page reloaded in a loop sends); 50 ms after a
    refusal, as `keep` paces its reconnects."""
    while time.monotonic() < deadline:
        status = ask_status(port, token, product, ASK_LOOP_FROM)
        key = f"/ask loop {status}" if status else "/ask loop no reply"
        tally[key] = tally.get(key, 0) + 1
        if status != 200:
            time.sleep(0.05)


def probe_loop(tokens: dict[str, str], deadline: float, phase: Phase, attempt: Callable[[str, str], str]) -> None:
    """`attempt(product, token)` (its failure, "" for a success) once a second, the product tokens in turn."""
    turn = list(tokens.items())
    i = 0
    while time.monotonic() < deadline:
        product, token = turn[i % len(turn)]
        i += 1
        started_at = time.perf_counter()
        failure = attempt(product, token)
        phase.record(token, time.perf_counter() - started_at, not failure, failure)
        time.sleep(1.0)


def ask_attempt(port: int) -> Callable[[str, str], str]:
    """Another token's `/ask` about its own product, from its own address."""

    def attempt(product: str, token: str) -> str:
        status = ask_status(port, token, product, ASK_PROBE_FROM)
        return "" if status == 200 else f"/ask {product}: got {status}"

    return attempt


# --- kg mcp: a raw streamable-HTTP client (JSON-RPC over POST, replies as JSON or one SSE event) -------------

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
SESSION = "mcp-session-id"


def initialize(rid: int = 1) -> dict:
    info = {"name": "soak", "version": "1"}
    params = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": info}
    return {"jsonrpc": "2.0", "id": rid, "method": "initialize", "params": params}


def mcp_call(
    conn: http.client.HTTPConnection, message: dict | None, token: str | None, session: str | None = None
) -> tuple[int, str | None, dict | None]:
    """POST `message` (DELETE the session when None): the status, the session id given, the JSON-RPC reply."""
    headers = {**MCP_HEADERS, **bearer(token), **({SESSION: session} if session else {})}
    if message is None:
        conn.request("DELETE", "/mcp", headers=headers)
    else:
        conn.request("POST", "/mcp", body=json.dumps(message).encode(), headers=headers)
    response = conn.getresponse()
    body = response.read().decode("utf-8", "replace")
    return response.status, response.getheader(SESSION), rpc_reply(body, response.getheader("Content-Type") or "")


def rpc_reply(body: str, content_type: str) -> dict | None:
    """The JSON-RPC object of a reply: the body itself, or the last `data:` line of an event stream."""
    if "json" in content_type and body.strip():
        return json.loads(body)
    data = [line[5:].strip() for line in body.splitlines() if line.startswith("data:")]
    return json.loads(data[-1]) if data else None


def mcp_session(port: int, token: str | None, source: str = "") -> tuple[http.client.HTTPConnection, str | None, int]:
    """A new connection with an initialised session (None when refused) and the initialize status."""
    conn = http.client.HTTPConnection(HOST, port, timeout=120, source_address=(source, 0))
    status, session, _ = mcp_call(conn, initialize(), token)
    if status == 200 and session:
        mcp_call(conn, {"jsonrpc": "2.0", "method": "notifications/initialized"}, token, session)
    return conn, session, status


def tool_call(sparql: str, product: str | None = None, rid: int = 2) -> dict:
    arguments = {"sparql": sparql, **({"product": product} if product else {})}
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": "query", "arguments": arguments}}


def asked_true(reply: dict | None) -> bool:
    """Whether a `query` tool reply is an ASK result of true (its text content is the SPARQL JSON)."""
    result = (reply or {}).get("result") or {}
    text = "".join(c.get("text", "") for c in result.get("content", []))
    try:
        return not result.get("isError") and json.loads(text).get("boolean") is True
    except ValueError:
        return False


def mcp_attempt(port: int) -> Callable[[str, str], str]:
    """A new MCP client of another token: a session, `ASK { ?s ?p ?o }` on its product (true), the session
    deleted."""

    def attempt(product: str, token: str) -> str:
        try:
            conn, session, status = mcp_session(port, token, MCP_PROBE_FROM)
            try:
                if session is None:
                    return f"mcp {product}: initialize {status}"
                _, _, reply = mcp_call(conn, tool_call("ASK { ?s ?p ?o }", product), token, session)
                mcp_call(conn, None, token, session)
                return "" if asked_true(reply) else f"mcp {product}: {str(reply)[:100]}"
            finally:
                conn.close()
        except (OSError, http.client.HTTPException, ValueError) as exc:
            return f"mcp {product}: no reply: {exc}"

    return attempt


def mcp_runaway_loop(port: int, token: str, deadline: float, tally: dict) -> None:
    """F7: one `query` tool call that runs to the time limit after another, on one session."""
    while time.monotonic() < deadline:
        try:
            conn, session, status = mcp_session(port, token)
            try:
                while session is not None and time.monotonic() < deadline:
                    _, _, reply = mcp_call(conn, tool_call(RUNAWAY), token, session)
                    result = (reply or {}).get("result")
                    key = "mcp runaway session ended" if result is None else "mcp runaway answered"
                    key = "mcp runaway tool error" if result and result.get("isError") else key
                    tally[key] = tally.get(key, 0) + 1
                    if result is None:  # its session was ended (the attacker's own flood ends its oldest)
                        break
                if session is None:
                    tally[f"mcp runaway initialize {status}"] = tally.get(f"mcp runaway initialize {status}", 0) + 1
                    time.sleep(0.5)
            finally:
                conn.close()
        except (OSError, http.client.HTTPException, ValueError):
            tally["mcp runaway no reply"] = tally.get("mcp runaway no reply", 0) + 1
            time.sleep(0.5)


def session_flood(port: int, token: str | None, deadline: float, tally: dict, name: str) -> None:
    """F8: `initialize` POSTs in a loop on one keep-alive connection (a new one when closed), 10 ms apart."""
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    while time.monotonic() < deadline:
        try:
            status, _, _ = mcp_call(conn, initialize(), token)
            key = f"{name} {status}"
        except (OSError, http.client.HTTPException, ValueError):
            conn.close()
            key = f"{name} no reply"
        tally[key] = tally.get(key, 0) + 1
        time.sleep(0.01)
    conn.close()


def mcp_attack_threads(port: int, attacker: str, deadline: float, tally: dict) -> list[threading.Thread]:
    threads = [threading.Thread(target=mcp_runaway_loop, args=(port, attacker, deadline, tally)) for _ in range(4)]
    floods = [(None, "mcp initialize without a token"), ("not-a-token", "mcp initialize with a wrong token")]
    floods += [(attacker, "mcp initialize by the attacker")]
    threads += [
        threading.Thread(target=session_flood, args=(port, token, deadline, tally, name))
        for token, name in floods
        for _ in range(2 if token != attacker else 1)
    ]
    return threads


def attack_threads(port: int, tokens: dict[str, str], deadline: float, tally: dict) -> list[threading.Thread]:
    admin, attacker = tokens["admin"], tokens["attacker"]
    service = f"GET /query HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Bearer {attacker}\r\n\r\n".encode()
    big = request_bytes(BIG, admin)
    queued = request_bytes(RUNAWAY, attacker)

    def slow_reader(conn: socket.socket) -> None:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        conn.sendall(big)

    plans: list[tuple[str, int, Callable[[socket.socket], None]]] = [
        ("idle keep-alive", 8, lambda c: c.sendall(service)),
        ("slowloris", 64, lambda c: c.sendall(b"GET /query HTTP/1.1\r\n")),
        ("idle flood", 128, lambda c: None),
        ("slow reader", 8, slow_reader),
    ]
    threads = [
        threading.Thread(target=keep, args=(port, count, opening, deadline, tally, name), daemon=True)
        for name, count, opening in plans
    ]
    threads += [
        threading.Thread(
            target=keep,
            args=(port, 32, lambda c: c.sendall(queued), deadline, tally, "queued runaway", source),
            daemon=True,
        )
        for source in QUEUED_FROM
    ]
    threads += [threading.Thread(target=runaway_loop, args=(port, attacker, deadline, tally)) for _ in range(8)]
    threads.append(threading.Thread(target=bomb_loop, args=(port, attacker, deadline, tally)))
    threads += [
        threading.Thread(target=ask_loop, args=(port, attacker, tokens["attacker product"], deadline, tally))
        for _ in range(ASK_LOOPS)
    ]
    return threads


def rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) << 10 for line in status if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0


@dataclass(frozen=True)
class Servers:
    """The two servers under test: `kg serve` (its port and main process) and `kg mcp --transport http`."""

    port: int
    pid: int
    mcp_port: int


#: The probes of other tokens, each on a new connection: kind -> what runs it.
PROBES: dict[str, Callable[[Servers, list[Request], dict[str, str], float, Phase], None]] = {
    "/query": lambda s, mix, tokens, deadline, phase: normal_client(s.port, mix, 7, deadline, phase, True),
    "/ask": lambda s, mix, tokens, deadline, phase: probe_loop(tokens, deadline, phase, ask_attempt(s.port)),
    "mcp": lambda s, mix, tokens, deadline, phase: probe_loop(tokens, deadline, phase, mcp_attempt(s.mcp_port)),
}


def phase(
    servers: Servers, mix: list[Request], clients: int, seconds: float, product_tokens: dict, tokens: dict | None
) -> dict:
    """Run the normal clients and the probes (and, with `tokens`, every attack) for `seconds`; the figures."""
    deadline = time.monotonic() + seconds
    result, tally = Phase(), dict[str, int]()
    probes = {kind: Phase() for kind in PROBES}
    step = max(1, len(mix) // clients)
    threads = [
        threading.Thread(target=normal_client, args=(servers.port, mix, k * step, deadline, result))
        for k in range(clients)
    ]
    threads += [
        threading.Thread(target=run, args=(servers, mix, product_tokens, deadline, probes[kind]))
        for kind, run in PROBES.items()
    ]
    if tokens:
        threads += attack_threads(servers.port, tokens, deadline, tally)
        threads += mcp_attack_threads(servers.mcp_port, tokens["attacker"], deadline, tally)
    peak = rss(servers.pid)
    begun = time.monotonic()
    for t in threads:
        t.start()
    while time.monotonic() < deadline:
        peak = max(peak, rss(servers.pid))
        time.sleep(0.5)
    for t in threads:
        t.join(timeout=180)
    elapsed = time.monotonic() - begun
    lat = sorted(result.latencies)
    names = {token: product for product, token in product_tokens.items()}
    return {
        "attacks": bool(tokens),
        "seconds": round(elapsed, 1),
        "requests": len(lat),
        "qps": len(lat) / elapsed,
        "p50_ms": 1000 * statistics.median(lat) if lat else 0.0,
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else 0.0,
        "success": result.success(),
        "failures": len(result.failures),
        "failure_sample": result.failures[:3],
        "retries": result.retries,
        "probes": {
            kind: {
                "requests": len(probe.latencies),
                "success": probe.success(),
                "p50_ms": 1000 * statistics.median(probe.latencies) if probe.latencies else 0.0,
                "by_token": {names.get(t, t): counts for t, counts in sorted(probe.by_token.items())},
                "failure_sample": probe.failures[:3],
            }
            for kind, probe in probes.items()
        },
        "main_peak_rss_mib": peak / 2**20,
        "attack_tally": tally,
    }


def mcp_command(store: Path, port: int, access: Path) -> list[str]:
    """`kg mcp` over HTTP on the same store and access file as `serve_command`."""
    python = serve_command(store, port, access)[:3]
    return [*python, "mcp", "--transport", "http", "--store", str(store), "--port", str(port), "--access", str(access)]


def run_server(name: str, checkout: Path, store: Path, access: Path, mix: list, tokens: dict, args, minutes: float):
    port, mcp_port = free_port(), free_port()
    product_tokens = tokens["products"]
    with (
        started(serve_command(store, port, access), port, checkout) as proc,
        started(mcp_command(store, mcp_port, access), mcp_port, checkout),
    ):
        servers = Servers(port, proc.pid, mcp_port)
        print(f"{name}: baseline {args.baseline_seconds:g} s, then {minutes:g} min under attack", file=sys.stderr)
        rows = [phase(servers, mix, args.clients, args.baseline_seconds, product_tokens, None)]
        rows.append(phase(servers, mix, args.clients, minutes * 60, product_tokens, tokens))
    return [{"server": name, **row} for row in rows]


def print_table(rows: list[dict]) -> None:
    kinds = list(PROBES)
    head = (
        f"{'server':<28} {'phase':<8} {'s':>5} {'requests':>9} {'q/s':>6} {'p50 ms':>8} {'p99 ms':>9} "
        f"{'success':>8} {'retries':>7} " + " ".join(f"{kind + ' probes':>17}" for kind in kinds) + " main RSS peak"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        shown = " ".join(f"{100 * r['probes'][k]['success']:>7.1f}% of {r['probes'][k]['requests']:<5}" for k in kinds)
        print(
            f"{r['server']:<28} {'attack' if r['attacks'] else 'quiet':<8} {r['seconds']:>5.0f} {r['requests']:>9} "
            f"{r['qps']:>6.0f} {r['p50_ms']:>8.1f} {r['p99_ms']:>9.1f} {100 * r['success']:>7.2f}% "
            f"{r['retries']:>7} {shown} {r['main_peak_rss_mib']:>9.0f} MiB"
        )
        for sample in r["failure_sample"]:
            print(f"    e.g. {sample}")
        for kind in kinds:
            probe = r["probes"][kind]
            per_token = ", ".join(f"{t} {ok}/{n}" for t, (ok, n) in probe["by_token"].items())
            print(f"    {kind} probes per token (answered right / sent): {per_token}")
            for sample in probe["failure_sample"]:
                print(f"      e.g. {sample}")
        if r["attack_tally"]:
            print(f"    attacks: {dict(sorted(r['attack_tally'].items()))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", help="built store (default: $KG_STORE, else ./.kg/store)")
    ap.add_argument("--herb", help="HERB data folder, for the dev questions")
    ap.add_argument("--minutes", type=float, default=10.0, help="length of the soak under attack (default: 10)")
    ap.add_argument("--baseline-seconds", type=float, default=60.0, help="quiet phase first (default: 60)")
    ap.add_argument("--clients", type=int, default=4, help="normal clients (default: 4)")
    ap.add_argument("--compare-with", type=Path, metavar="DIR", help="another checkout, run after this one")
    ap.add_argument("--compare-minutes", type=float, help="its soak length (default: --minutes)")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args()
    store = store_path(args.store)
    calls = recorded_calls(store, herb_path(args.herb))
    products = sorted({c.product for c in calls if c.product})
    product_tokens = {p: f"bench-{i}-{p}" for i, p in enumerate(products)}
    mix = requests_for(calls, product_tokens)
    tokens: dict = {"admin": "bench-admin-token", "attacker": "bench-attacker-token"}
    tokens |= {"attacker product": products[0], "products": product_tokens}
    print(f"workload: {len(calls)} question queries over {len(products)} products", file=sys.stderr)
    servers = [("kg serve (this checkout)", ROOT, args.minutes)]
    if args.compare_with:
        servers.append(
            (f"kg serve ({args.compare_with.name})", args.compare_with.resolve(), args.compare_minutes or args.minutes)
        )
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        access = Path(tmp) / "access.json"
        grants = {token: [p] for p, token in product_tokens.items()}
        grants |= {tokens["admin"]: "*", tokens["attacker"]: [products[0]]}
        access.write_text(json.dumps(grants))
        for name, checkout, minutes in servers:
            rows += run_server(name, checkout, store, access, mix, tokens, args, minutes)
    print_table(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
