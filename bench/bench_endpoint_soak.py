"""Soak and attack test for `kg serve`: normal clients at mixed load while every attack of issue 24 runs.

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
- an answer-page loop (issue 36, F3): the same token asks `/ask` questions on 4 connections without pause, from
  127.0.0.10;
- parse bombs and a deep nesting, in a loop.

Reported per phase (a baseline without attacks first, then the soak): requests, q/s, p50/p99, the success
rate, and the server's main process's peak resident memory (sampled every 0.5 s). Everything targets the
127.0.0.1 servers this script starts; every loop is paced and bounded by the phase's end.

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
        with phase.lock:
            phase.latencies.append(elapsed)
            phase.retries += retried
            if ok:
                phase.successes += 1
            else:
                phase.failures.append(f"{req.kind}: expected {req.expect}, got {status}: {body[:100]!r}")
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


def ask_loop(port: int, token: str, deadline: float, tally: dict) -> None:
    """The answer page asked without pause by one token (what a page reloaded in a loop sends)."""
    question = "/ask?q=Who+authored+the+Market+Research+Report+for+the+ActionGenie+product%3F"
    while time.monotonic() < deadline:
        conn = http.client.HTTPConnection(HOST, port, timeout=120, source_address=(ASK_LOOP_FROM, 0))
        try:
            conn.request("GET", question, headers={"Authorization": f"Bearer {token}"})
            response = conn.getresponse()
            response.read()
            key = f"/ask loop {response.status}"
        except (OSError, http.client.HTTPException):
            key = "/ask loop no reply"
        finally:
            conn.close()
        tally[key] = tally.get(key, 0) + 1


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
    threads += [threading.Thread(target=ask_loop, args=(port, attacker, deadline, tally)) for _ in range(4)]
    return threads


def rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) << 10 for line in status if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0


def phase(port: int, pid: int, mix: list[Request], clients: int, seconds: float, tokens: dict | None) -> dict:
    """Run the normal clients (and, with `tokens`, every attack) for `seconds`; the figures."""
    deadline = time.monotonic() + seconds
    result, probes, tally = Phase(), Phase(), {}
    step = max(1, len(mix) // clients)
    threads = [
        threading.Thread(target=normal_client, args=(port, mix, k * step, deadline, result)) for k in range(clients)
    ]
    threads.append(threading.Thread(target=normal_client, args=(port, mix, 7, deadline, probes, True)))
    if tokens:
        threads += attack_threads(port, tokens, deadline, tally)
    peak = rss(pid)
    begun = time.monotonic()
    for t in threads:
        t.start()
    while time.monotonic() < deadline:
        peak = max(peak, rss(pid))
        time.sleep(0.5)
    for t in threads:
        t.join(timeout=180)
    elapsed = time.monotonic() - begun
    lat = sorted(result.latencies)
    return {
        "attacks": bool(tokens),
        "seconds": round(elapsed, 1),
        "requests": len(lat),
        "qps": len(lat) / elapsed,
        "p50_ms": 1000 * statistics.median(lat) if lat else 0.0,
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else 0.0,
        "success": result.successes / len(lat) if lat else 0.0,
        "failures": len(result.failures),
        "failure_sample": result.failures[:3],
        "retries": result.retries,
        "probes": len(probes.latencies),
        "probe_success": probes.successes / len(probes.latencies) if probes.latencies else 0.0,
        "probe_failure_sample": probes.failures[:2],
        "main_peak_rss_mib": peak / 2**20,
        "attack_tally": tally,
    }


def run_server(name: str, checkout: Path, store: Path, access: Path, mix: list, tokens: dict, args, minutes: float):
    port = free_port()
    with started(serve_command(store, port, access), port, checkout) as proc:
        print(f"{name}: baseline {args.baseline_seconds:g} s, then {minutes:g} min under attack", file=sys.stderr)
        rows = [phase(port, proc.pid, mix, args.clients, args.baseline_seconds, None)]
        rows.append(phase(port, proc.pid, mix, args.clients, minutes * 60, tokens))
    return [{"server": name, **row} for row in rows]


def print_table(rows: list[dict]) -> None:
    head = (
        f"{'server':<28} {'phase':<8} {'s':>5} {'requests':>9} {'q/s':>6} {'p50 ms':>8} {'p99 ms':>9} "
        f"{'success':>8} {'retries':>7} {'probes ok':>13} {'main RSS peak':>13}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        print(
            f"{r['server']:<28} {'attack' if r['attacks'] else 'quiet':<8} {r['seconds']:>5.0f} {r['requests']:>9} "
            f"{r['qps']:>6.0f} {r['p50_ms']:>8.1f} {r['p99_ms']:>9.1f} {100 * r['success']:>7.2f}% "
            f"{r['retries']:>7} {100 * r['probe_success']:>6.1f}% of {r['probes']:<4} "
            f"{r['main_peak_rss_mib']:>9.0f} MiB"
        )
        for sample in r["failure_sample"] + r["probe_failure_sample"]:
            print(f"    e.g. {sample}")
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
    tokens = {"admin": "bench-admin-token", "attacker": "bench-attacker-token"}
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
