"""Replicas between "healthy" and "dead", on real servers: the Oxigraph server holding a shard whole, nothing
(mid-reload), part of it, or another export (stale), and small HTTP servers that are slow, trickle, answer
garbage, 404, 500 or a redirect. Each is listed first before a healthy replica: the question must get the
embedded store's answer, on its own shard and on the other, the misbehaving replica must never answer, and
only a shard with no healthy replica is an error (for its questions only, never an abstention).

`kg export --shards 2` splits the dev questions' store; every server is started once for the module.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from endpoints import ROOT, free_port
from misbehaving import Switch, garbage, not_found, proxy_to, redirect_to, server_error, serving, slow, trickle
from test_shards import FAN_OUT, fan_out_differs, oxigraph_server
from test_virtuoso import comparable, dev_questions

from kg.cli import main
from kg.cli.stats import REPLICAS
from kg.qa.answer import Answerer
from kg.query.deployment import ShardedBackend, events_path, open_deployment
from kg.query.sparql import EmbeddedStore, product_dataset
from kg.query.store import stats

pytestmark = [pytest.mark.herb, pytest.mark.slow]

#: The deadline the deployment files here give each replica call: the slow server answers after 120 s.
DEADLINE = 2
#: Quads taken out of one product's graph for the partly loaded replica (as the scale check found).
MISSING = 56


@dataclass
class Replicas:
    out: Path
    deployment: dict
    urls: dict[str, str]
    placement: dict[str, str]


def _partial(shard: Path, product_graph: str, target: Path) -> None:
    """The shard's file without MISSING quads of one product's graph: a load that stopped short."""
    dropped = 0
    with shard.open("rb") as src, target.open("wb") as out:
        for line in src:
            if dropped < MISSING and line.rstrip().endswith(f"<{product_graph}> .".encode()):
                dropped += 1
                continue
            out.write(line)


@pytest.fixture(scope="module")
def replicas(dev_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Replicas]:
    out = tmp_path_factory.mktemp("replicas")
    assert main(["export", "--store", str(dev_store), "--shards", "2", "--out", str(out / "now")]) == 0
    assert main(["export", "--store", str(dev_store), "--shards", "3", "--out", str(out / "before")]) == 0
    deployment = yaml.safe_load((out / "now" / "deployment.yaml").read_text())
    first = sorted(p for p, s in deployment["products"].items() if s == "shard-0")[0]
    _partial(out / "now" / "shard-0.nq", f"https://w3id.org/ekg/graph/{first}", out / "partial.nq")
    (out / "empty.nq").write_bytes(b"")
    files = {
        "shard-0": out / "now" / "shard-0.nq",
        "shard-0 again": out / "now" / "shard-0.nq",
        "shard-1": out / "now" / "shard-1.nq",
        "empty": out / "empty.nq",
        "partial": out / "partial.nq",
        "stale": out / "before" / "shard-0.nq",
    }
    with ExitStack() as stack:
        urls = {
            name: stack.enter_context(oxigraph_server(nq, tmp_path_factory.mktemp(name.replace(" ", "-"))))
            for name, nq in files.items()
        }
        for name, handler in [
            ("slow", slow),
            ("trickle", trickle),
            ("garbage", garbage),
            ("404", not_found),
            ("500", server_error),
            ("redirect", redirect_to(urls["shard-0"])),
        ]:
            urls[name] = stack.enter_context(serving(handler)).url
        yield Replicas(out, deployment, urls, deployment["products"])


def deployment_file(replicas: Replicas, path: Path, shards: dict[str, list[str]]) -> Path:
    """The export's deployment file with these replicas (by name; a shard not given has its healthy one) and the
    test's deadline."""
    body = json.loads(json.dumps(replicas.deployment))
    for shard, names in ({"shard-0": ["shard-0"], "shard-1": ["shard-1"]} | shards).items():
        body["shards"][shard]["replicas"] = [replicas.urls[n] for n in names]
    body["deadline"] = DEADLINE
    path.write_text(yaml.safe_dump(body, sort_keys=False))
    return path


@pytest.fixture(scope="module")
def questions(herb: Path, replicas: Replicas, dev_store: Path) -> dict[str, list[tuple[str, dict]]]:
    """Three dev questions a shard (an abstention among them), each with the embedded store's answer."""
    embedded = Answerer(EmbeddedStore(dev_store))
    by_shard: dict[str, list[tuple[str, dict]]] = {"shard-0": [], "shard-1": []}
    for q in dev_questions(herb):
        shard = by_shard[replicas.placement[q["product"]]]
        if len(shard) < 3 and (len(shard) < 2 or comparable(embedded, q["question"]).get("abstain")):
            shard.append((q["question"], comparable(embedded, q["question"])))
    return by_shard


BROKEN = ["empty", "partial", "stale", "slow", "trickle", "garbage", "404", "500", "redirect"]


@pytest.mark.parametrize("broken", BROKEN)
def test_a_broken_replica_listed_first_never_answers_and_every_question_gets_the_embedded_answer(
    replicas: Replicas, questions: dict[str, list[tuple[str, dict]]], tmp_path: Path, broken: str
) -> None:
    path = deployment_file(replicas, tmp_path / "d.yaml", {"shard-0": [broken, "shard-0"], "shard-1": ["shard-1"]})
    backend = open_deployment(str(path))
    answerer = Answerer(backend)
    began = time.monotonic()
    for shard in ("shard-1", "shard-0"):  # the other shard's question first: it must not wait on shard-0
        for question, want in questions[shard]:
            assert comparable(answerer, question) == want, (broken, question)
    counts = {(url, event): n for (url, event), n in backend.replicas["shard-0"].counts.items()}
    url = replicas.urls[broken]
    assert counts.get((url, "served"), 0) == 0
    assert counts.get((url, "failed"), 0) + counts.get((url, "skipped"), 0) == 1  # tried once, then last
    print(f"{broken} listed first: 6 questions in {time.monotonic() - began:.1f} s (deadline {DEADLINE} s)")


def test_a_partly_loaded_or_empty_replica_alone_is_an_error_never_a_proof_of_absence(
    replicas: Replicas, questions: dict[str, list[tuple[str, dict]]], tmp_path: Path
) -> None:
    absent = next(q for q, want in questions["shard-0"] if want.get("abstain"))
    for broken, needle in [("partial", "where shard-0's manifest records"), ("empty", "does not hold build")]:
        path = deployment_file(replicas, tmp_path / f"{broken}.yaml", {"shard-0": [broken]})
        done = subprocess.run(
            [sys.executable, "-m", "kg", "ask", absent, "--deployment", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 2 and done.stdout == "" and "ABSTAIN" not in done.stderr, done.stderr
        *warnings, error = done.stderr.strip().splitlines()
        assert error.startswith("kg: error: every replica of shard-0 is down") and needle in error
        assert warnings and all(w.startswith("kg: warning: shard-0: replica skipped: ") for w in warnings)


def test_two_healthy_replicas_each_serve_about_half_the_reads(
    replicas: Replicas, questions: dict[str, list[tuple[str, dict]]], tmp_path: Path
) -> None:
    path = deployment_file(replicas, tmp_path / "d.yaml", {"shard-0": ["shard-0", "shard-0 again"]})
    backend = open_deployment(str(path))
    answerer = Answerer(backend)
    for question, want in questions["shard-0"] * 3:
        assert comparable(answerer, question) == want
    served = [n for shard, _, n, failed, skipped in backend.counters() if shard == "shard-0"]
    assert len(served) == 2 and sum(served) > 10
    assert all(abs(n - sum(served) / 2) <= 1 for n in served), served  # round-robin: an even split, give or take one


def test_a_shard_that_fails_is_not_retried_for_every_question_of_another_shard(
    replicas: Replicas, questions: dict[str, list[tuple[str, dict]]], tmp_path: Path
) -> None:
    """The vocabulary read that failed on the slow shard is not read again per question (each would wait out
    the deadline): the other shard's questions are answered, the slow replica was asked once."""
    path = deployment_file(replicas, tmp_path / "d.yaml", {"shard-1": ["slow"]})
    backend: ShardedBackend = open_deployment(str(path))
    answerer = Answerer(backend)
    for question, want in questions["shard-0"]:
        assert comparable(answerer, question) == want
    assert [(s, failed + skipped) for s, _, _, failed, skipped in backend.counters() if s == "shard-1"] == [
        ("shard-1", 1)
    ]
    for question, _ in questions["shard-1"]:
        assert "every replica of shard-1 is down" in comparable(answerer, question)["error"]


def kg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_kg_deployment_check_prints_each_replicas_state_and_fails_when_a_shard_has_none_healthy(
    replicas: Replicas, tmp_path: Path
) -> None:
    names = ["empty", "shard-0", "stale", "partial", "trickle"]
    path = deployment_file(replicas, tmp_path / "d.yaml", {"shard-0": names, "shard-1": ["shard-1"]})
    done = kg("deployment", "check", str(path), "--json")
    assert done.returncode == 0, done.stderr
    states = {(r["shard"], r["replica"]): r for r in json.loads(done.stdout)}
    got = {name: states["shard-0", replicas.urls[name]] for name in names}
    assert {n: (r["reachable"], r["manifest"], r["state"]) for n, r in got.items()} == {
        "empty": ("yes", "differs", "skipped"),
        "shard-0": ("yes", "equal", "healthy"),
        "stale": ("yes", "differs", "skipped"),
        "partial": ("yes", "differs", "skipped"),
        "trickle": ("no", "-", "unreachable"),
    }
    assert states["shard-1", replicas.urls["shard-1"]]["state"] == "healthy"
    assert (
        "holds" in got["partial"]["why"]
        and f"build {replicas.deployment['shards']['shard-0']['manifest']['build']}" in got["stale"]["why"]
    )
    dead = f"http://127.0.0.1:{free_port()}/sparql"
    replicas.urls["dead"] = dead
    path = deployment_file(replicas, tmp_path / "down.yaml", {"shard-0": ["shard-0"], "shard-1": ["stale", "dead"]})
    done = kg("deployment", "check", str(path))
    assert done.returncode == 1 and "shard-1: no healthy replica" in done.stdout and "Traceback" not in done.stderr
    assert "shard-0   " in done.stdout and "healthy" in done.stdout


def test_a_query_naming_no_product_merges_to_the_embedded_rows_with_a_broken_replica_first(
    replicas: Replicas, dev_store: Path, tmp_path: Path
) -> None:
    path = deployment_file(
        replicas, tmp_path / "d.yaml", {"shard-0": ["garbage", "shard-0"], "shard-1": ["stale", "shard-1"]}
    )
    backend = open_deployment(str(path))
    began = time.monotonic()
    assert fan_out_differs(backend, dev_store) == {}
    took = time.monotonic() - began
    embedded = EmbeddedStore(dev_store)
    began = time.monotonic()
    for query in FAN_OUT.values():
        embedded.run(query)
    embedded_took = time.monotonic() - began
    print(f"{len(FAN_OUT)} fan-out queries: {took:.2f} s through the deployment, {embedded_took:.2f} s embedded")
    tables = ({t: dict(r) for t, r in stats(b).items()} for b in (backend, embedded))
    assert next(tables) == next(tables)


def test_a_limit_cutting_through_tied_rows_is_refused_not_answered_with_some_of_them(
    replicas: Replicas, tmp_path: Path
) -> None:
    path = deployment_file(replicas, tmp_path / "d.yaml", {})
    query = tmp_path / "tied.rq"
    query.write_text("SELECT ?state WHERE { ?bug ekg:bugState ?state } ORDER BY ?state LIMIT 1")
    done = kg("query", str(query), "--deployment", str(path))
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert "its LIMIT cuts between rows that tie on every ORDER BY key (?state)" in done.stderr


def test_a_replica_emptied_after_its_health_check_proves_nothing(
    replicas: Replicas, questions: dict[str, list[tuple[str, dict]]], tmp_path: Path
) -> None:
    """A reload in place begins between two health checks: the replica (a proxy in front of the real shard, then
    of a real empty store) answers ASK proofs with `true` (absent) and SELECTs with nothing. Neither is used:
    each is checked against the build the replica must still hold, and the other replica answers."""
    switch = Switch(replicas.urls["shard-0"])
    with serving(proxy_to(switch)) as reloading:
        replicas.urls["reloading"] = reloading.url
        path = deployment_file(replicas, tmp_path / "d.yaml", {"shard-0": ["reloading", "shard-0 again"]})
        backend = open_deployment(str(path))
        answerer = Answerer(backend)
        first, want = questions["shard-0"][0]
        assert comparable(answerer, first) == want  # both replicas healthy and used
        switch.upstream = replicas.urls["empty"]
        for question, want in questions["shard-0"] * 2:
            assert comparable(answerer, question) == want, question
    counts = backend.replicas["shard-0"].counts
    assert counts[reloading.url, "failed"] >= 1


def test_failovers_and_skips_of_every_process_are_logged_once_each_and_counted_in_kg_stats(
    replicas: Replicas, questions: dict[str, list[tuple[str, dict]]], tmp_path: Path
) -> None:
    """Each process reading the deployment records its failovers and skips beside the file; `kg stats
    --deployment`, a later process, counts all of them: as many as the warning lines every process printed."""
    replicas.urls["dead"] = f"http://127.0.0.1:{free_port()}/query"
    path = deployment_file(
        replicas, tmp_path / "d.yaml", {"shard-0": ["empty", "shard-0"], "shard-1": ["dead", "shard-1"]}
    )
    runs = [kg("ask", questions[shard][0][0], "--deployment", str(path)) for shard in ("shard-0", "shard-1")]
    runs.append(kg("stats", "--deployment", str(path), "--json"))
    assert all(r.returncode in (0, 3, 4) and "Traceback" not in r.stderr for r in runs), [r.stderr for r in runs]
    logged = Counter(
        (url, event)
        for r in runs
        for line in r.stderr.splitlines()
        for event in ("failed", "skipped")
        for url in replicas.urls.values()
        if line.startswith("kg: warning: shard-") and f"replica {event}: " in line and url in line
    )
    table = {r["replica"]: r for r in json.loads(runs[-1].stdout)[REPLICAS]}
    for name in ("empty", "dead"):  # every process read both shards (the vocabulary), each met both first
        url = replicas.urls[name]
        assert table[url]["skipped"] == logged[url, "skipped"] >= len(runs), (name, table[url], logged)
        assert table[url]["served"] == 0
    assert all(
        table[replicas.urls[n]]["failed"] + table[replicas.urls[n]]["skipped"] == 0 for n in ("shard-0", "shard-1")
    )
    events = [json.loads(line) for line in events_path(path).read_text().splitlines()]
    assert len(events) == sum(logged.values()) and {e["shard"] for e in events} == {"shard-0", "shard-1"}


def test_an_events_file_that_is_a_link_is_never_followed_and_the_events_are_counted_in_process(
    replicas: Replicas, tmp_path: Path
) -> None:
    replicas.urls["dead"] = f"http://127.0.0.1:{free_port()}/query"
    path = deployment_file(replicas, tmp_path / "d.yaml", {"shard-1": ["dead", "shard-1"]})
    target = tmp_path / "elsewhere.txt"
    target.write_text("untouched\n")
    events_path(path).symlink_to(target)
    backend = open_deployment(str(path))
    product = next(p for p, s in replicas.placement.items() if s == "shard-1")
    assert backend.select("SELECT * WHERE { ?s ?p ?o } LIMIT 1", graphs=product_dataset(product))
    assert target.read_text() == "untouched\n"
    dead = [(failed, skipped) for _, url, _, failed, skipped in backend.counters() if url == replicas.urls["dead"]]
    assert dead == [(0, 1)]  # not in the file (a link is refused), counted in this process
