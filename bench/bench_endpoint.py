"""Load test for `kg serve`: HERB question queries replayed over HTTP by 1, 4 and 16 concurrent clients.

The workload is what `kg ask` really sends: every dev question (answerable and unanswerable) is answered
once against the embedded store through a recording backend, which keeps each ASK proof and SELECT with its
bindings and product dataset. The load mix is then:

- valid (80 %): a recorded query, sent with the token of its own product (expects 200);
- malformed (10 %): a recorded query with its closing brace cut off (expects 400);
- forbidden (10 %): a product token naming another product's graph via GRAPH, FROM or default-graph-uri
  (expects 403, or a 200 that holds no IRI of the other graph: the dataset confines GRAPH and FROM).

Each run is bounded in time (`--duration`) and in count (`--max-requests`), and only ever targets the
127.0.0.1 servers this script starts itself. `--compare-with DIR` runs the same mix, back to back, against
the `kg serve` of another checkout (e.g. an older commit unpacked with `git archive`), so both are measured
on the same machine in the same minute. The attack row runs 4 normal clients while one attacker sends parse
bombs (expects 400 or 413) and runaway queries (expects 503, time or memory limit) in a loop.

    .venv/bin/python bench/bench_endpoint.py --store .kg/store --duration 30
    .venv/bin/python bench/bench_endpoint.py --compare-with /tmp/kg-old --clients 4,16
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from pyoxigraph import NamedNode

from kg.namespaces import GRAPH, product_graph
from kg.paths import herb_path, store_path
from kg.qa.answer import Answerer
from kg.qa.batch import read_questions
from kg.query.remote import protocol_form
from kg.query.sparql import EmbeddedStore, Row, Term
from kg.query.tokens import tokens

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
JSON_RESULTS = "application/sparql-results+json"


@dataclass(frozen=True)
class Call:
    """One recorded backend call: the library query text, its bindings and its product."""

    query: str
    bindings: tuple[tuple[str, Term], ...]
    product: str | None


class Recorder:
    """A Backend that runs on the embedded store and remembers every call the answerer makes."""

    def __init__(self, store: EmbeddedStore) -> None:
        self.store, self.calls = store, []

    def _record(self, query: str, bindings: dict[str, Term] | None, graphs: list[NamedNode] | None) -> None:
        product = next((g.value[len(GRAPH) :] for g in graphs or [] if not g.value.endswith("/org")), None)
        self.calls.append(Call(query, tuple((bindings or {}).items()), product))

    def select(
        self, query: str, bindings: dict[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> list[Row]:
        self._record(query, bindings, graphs)
        return self.store.select(query, bindings, graphs)

    def ask(self, query: str, bindings: dict[str, Term] | None = None, graphs: list[NamedNode] | None = None) -> bool:
        self._record(query, bindings, graphs)
        return self.store.ask(query, bindings, graphs)


def recorded_calls(store: Path, herb: Path, asks_only: bool = False) -> list[Call]:
    """Every product-scoped query `kg ask` sends for the HERB dev questions, deduplicated (or just the ASKs)."""
    recorder = Recorder(EmbeddedStore(store))
    answerer = Answerer(recorder)
    answerer.vocabulary  # noqa: B018 - its query is not a question query: keep it out of the workload
    recorder.calls.clear()
    for name in ("answerable.jsonl", "unanswerable.jsonl"):
        for _, question, _ in read_questions(herb / "qa" / "dev" / name):
            if question:
                answerer.ask(question)
    calls = [c for c in dict.fromkeys(recorder.calls) if c.product]
    return [c for c in calls if is_ask(c.query)] if asks_only else calls


def is_ask(query: str) -> bool:
    return any(t.is_keyword("ASK") for t in tokens(query))


@dataclass(frozen=True)
class Request:
    kind: str  # valid, malformed or forbidden
    expect: int
    token: str
    body: bytes
    other: str = ""  # the other product's graph a forbidden request names


def requests_for(calls: list[Call], tokens: dict[str, str], seed: int = 7) -> list[Request]:
    """The shuffled mix: each recorded call as valid, plus one malformed and one forbidden per eight calls."""
    rng = random.Random(seed)
    products = sorted(tokens)
    out = []
    for i, call in enumerate(calls):
        graphs = [product_graph(call.product), NamedNode(GRAPH + "org")]
        form = protocol_form(call.query, dict(call.bindings), graphs)
        token = tokens[call.product]
        out.append(Request("valid", 200, token, urlencode(form).encode()))
        if i % 8 == 0:
            text = form[0][1]
            broken = [("query", text[: text.rindex("}")]), *form[1:]]  # the WHERE group never closes
            out.append(Request("malformed", 400, token, urlencode(broken).encode()))
        if i % 8 == 4:
            other = product_graph(rng.choice([p for p in products if p != call.product])).value
            out.append(Request("forbidden", 403, token, urlencode(forbidden_form(form, other, i)).encode(), other))
    rng.shuffle(out)
    return out


def forbidden_form(form: list[tuple[str, str]], other: str, i: int) -> list[tuple[str, str]]:
    """Three ways to ask for another product's graph, in turn."""
    route = (i // 8) % 3
    if route == 0:
        return [("query", f"SELECT * WHERE {{ GRAPH <{other}> {{ ?s ?p ?o }} }} LIMIT 5")]
    if route == 1:
        return [("query", f"SELECT * FROM <{other}> WHERE {{ ?s ?p ?o }} LIMIT 5")]
    return [*form, ("default-graph-uri", other)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


JOIN = "{ " + " ".join(f"?s{i} ?p{i} ?o{i} ." for i in range(8)) + " }"
ATTACKS = [
    ("SELECT * WHERE " + "{ " * 5000 + "?s ?p ?o" + " }" * 5000, (400,)),
    ("SELECT * { FILTER(" + "(" * 20000 + "1" + ")" * 20000 + ") }", (400, 413)),
    ("ASK { FILTER(" + "!" * 50000 + "true) }", (400,)),
    ("ASK { BIND(1" + "+1" * 20000 + " AS ?x) }", (400,)),
    (f"SELECT * WHERE {JOIN} ORDER BY ?o0 ?o1", (503,)),  # memory or time limit
    (f"SELECT (COUNT(*) AS ?n) WHERE {JOIN}", (503,)),  # time limit
]


def attacker(port: int, token: str, deadline: float, tally: dict[str, int]) -> None:
    """Parse bombs and runaways in a loop, one at a time, until the deadline."""
    i = 0
    while time.monotonic() < deadline:
        query, expected = ATTACKS[i % len(ATTACKS)]
        i += 1
        conn = http.client.HTTPConnection(HOST, port, timeout=120)
        try:
            conn.request(
                "POST",
                "/query",
                body=query.encode(),
                headers={"Content-Type": "application/sparql-query", "Authorization": f"Bearer {token}"},
            )
            status = conn.getresponse().status
        except (OSError, http.client.HTTPException):
            status = 0
        finally:
            conn.close()
        key = "as expected" if status in expected else f"unexpected {status}"
        tally[key] = tally.get(key, 0) + 1


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    refusals: int = 0
    unexpected: list[str] = field(default_factory=list)


def client(
    port: int,
    requests: list[Request],
    offset: int,
    deadline: float,
    budget: threading.Semaphore,
    tally: Tally,
    lock: threading.Lock,
) -> None:
    """One client: keep-alive HTTP/1.1, replaying the mix from its own offset until time or budget ends."""
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    local, i = Tally(), offset
    while time.monotonic() < deadline and budget.acquire(blocking=False):
        req = requests[i % len(requests)]
        i += 1
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": JSON_RESULTS}
        if req.token:
            headers["Authorization"] = f"Bearer {req.token}"
        started = time.perf_counter()
        try:
            conn.request("POST", "/query", body=req.body, headers=headers)
            response = conn.getresponse()
            body = response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as exc:
            status, body = 0, str(exc).encode()
            conn.close()
        local.latencies.append(time.perf_counter() - started)
        if status != req.expect and not confined(req, status, body):
            local.unexpected.append(f"{req.kind}: expected {req.expect}, got {status}: {body[:120]!r}")
        elif req.expect != 200:
            local.refusals += 1
        if response_closes(status):
            conn.close()
    conn.close()
    with lock:
        tally.latencies += local.latencies
        tally.refusals += local.refusals
        tally.unexpected += local.unexpected


def confined(req: Request, status: int, body: bytes) -> bool:
    """A forbidden request answered 200 from the token's own graphs only (no IRI of another product's graph)."""
    return req.kind == "forbidden" and status == 200 and req.other.encode() not in body and b"/graph/" not in body


def response_closes(status: int) -> bool:
    """The server closes the connection after errors whose request body it did not read."""
    return status == 0 or status >= 500


def run(
    port: int,
    requests: list[Request],
    clients: int,
    duration: float,
    max_requests: int,
    attack_token: str | None = None,
) -> dict:
    tally, lock = Tally(), threading.Lock()
    budget = threading.Semaphore(max_requests)
    deadline = time.monotonic() + duration
    step = max(1, len(requests) // clients)
    threads = [
        threading.Thread(target=client, args=(port, requests, k * step, deadline, budget, tally, lock))
        for k in range(clients)
    ]
    attacks: dict[str, int] = {}
    if attack_token:
        threads.append(threading.Thread(target=attacker, args=(port, attack_token, deadline, attacks)))
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    lat = sorted(tally.latencies)
    return {
        "clients": clients,
        "requests": len(lat),
        "qps": len(lat) / elapsed,
        "p50_ms": 1000 * statistics.median(lat) if lat else 0.0,
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else 0.0,
        "refused_as_expected": tally.refusals,
        "unexpected": len(tally.unexpected),
        "unexpected_sample": tally.unexpected[:3],
        "attacks": attacks,
    }


@contextmanager
def started(cmd: list[str], port: int, checkout: Path = ROOT) -> Iterator[subprocess.Popen]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    proc = subprocess.Popen(cmd, cwd=checkout, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection(HOST, port, timeout=2)
                conn.request("GET", "/query")
                conn.getresponse().read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"server did not start: {' '.join(cmd)}") from None
                time.sleep(0.2)
        yield proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def serve_command(store: Path, port: int, access: Path) -> list[str]:
    return [
        sys.executable,
        "-c",
        "import sys; from kg.cli import main; sys.exit(main())",
        "serve",
        "--store",
        str(store),
        "--port",
        str(port),
        "--access",
        str(access),
    ]


def print_table(results: list[dict]) -> None:
    head = (
        f"{'server':<26} {'clients':>7} {'requests':>9} {'q/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'refused ok':>10} {'unexpected':>10}"
    )
    print(head)
    print("-" * len(head))
    for r in results:
        print(
            f"{r['server']:<26} {r['clients']:>7} {r['requests']:>9} {r['qps']:>8.0f} {r['p50_ms']:>8.1f} "
            f"{r['p99_ms']:>8.1f} {r['refused_as_expected']:>10} {r['unexpected']:>10}"
        )
        for sample in r["unexpected_sample"]:
            print(f"    e.g. {sample}")
        if r["attacks"]:
            print(f"    attacker: {r['attacks']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", help="built store (default: $KG_STORE, else ./.kg/store)")
    ap.add_argument("--herb", help="HERB data folder, for the dev questions")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds per run (default: 30)")
    ap.add_argument("--clients", default="1,4,16", help="comma-separated client counts (default: 1,4,16)")
    ap.add_argument("--max-requests", type=int, default=100_000, help="cap on requests per run")
    ap.add_argument(
        "--asks-only",
        action="store_true",
        help="replay only the ASK proofs (cheap queries: measures the proxy rather than the engine)",
    )
    ap.add_argument(
        "--compare-with",
        type=Path,
        metavar="DIR",
        help="another checkout whose `kg serve` runs the same mix right after this one",
    )
    ap.add_argument("--no-attack", action="store_true", help="skip the run with an attacker")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args()
    store = store_path(args.store)
    calls = recorded_calls(store, herb_path(args.herb), args.asks_only)
    products = sorted({c.product for c in calls if c.product})
    tokens = {p: f"bench-{i}-{p}" for i, p in enumerate(products)}
    mix = requests_for(calls, tokens)
    counts = {k: sum(r.kind == k for r in mix) for k in ("valid", "malformed", "forbidden")}
    print(
        f"workload: {len(calls)} distinct question queries over {len(products)} products; mix {counts}", file=sys.stderr
    )
    clients = [int(c) for c in args.clients.split(",")]
    results = []
    servers = [("kg serve (this checkout)", ROOT)]
    if args.compare_with:
        servers.append((f"kg serve ({args.compare_with.name})", args.compare_with.resolve()))
    with tempfile.TemporaryDirectory() as tmp:
        access = Path(tmp) / "access.json"
        access.write_text(json.dumps({token: [p] for p, token in tokens.items()}))
        for name, checkout in servers:
            port = free_port()
            with started(serve_command(store, port, access), port, checkout):
                for n in clients:
                    results.append({"server": name, **run(port, mix, n, args.duration, args.max_requests)})
                if not args.no_attack and checkout == ROOT:
                    figures = run(port, mix, 4, args.duration, args.max_requests, next(iter(tokens.values())))
                    results.append({"server": f"{name} + attacker", **figures})
    print_table(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
