"""Product shards on real servers, routed by the deployment file: answers, failover, errors, fan-out.

`kg export --shards 2` splits a store of the dev questions' products; shard-0 is bulk-loaded into two Virtuoso
replicas and shard-1 into one (throw-away databases on 127.0.0.1, started once for the module: loading is the
slow part). Through `--deployment`, the 562 dev questions must give the embedded store's answers, abstentions
and citations, also when the replica in use dies mid-batch; shard-1's questions must, too, with shard-1 on the
Oxigraph server; with every replica of a shard down, exactly that shard's questions become error records; a
query naming no product fans out per product and its merge equals the embedded answer.

The tests run in file order against the same servers: the last one kills shard-1.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from endpoints import ROOT, free_port, stopping, virtuoso_binaries, virtuoso_server, wait_for
from pyoxigraph import QueryBoolean
from test_virtuoso import comparable, dev_questions

from kg.cli import main
from kg.qa.answer import Answerer
from kg.query.deployment import open_deployment
from kg.query.sparql import EmbeddedStore, product_dataset

pytestmark = [pytest.mark.herb, pytest.mark.slow]

KG = [sys.executable, "-m", "kg"]
#: Replicas per shard: shard-0 has two, so one can die; shard-1 one, so the whole shard can.
REPLICAS = {"shard-0": 2, "shard-1": 1}

#: Queries naming no product, each answered by every shard and merged (kg.query.federation): counts, GROUP BY
#: with ORDER BY and LIMIT (the issue's PR count per graph among them), joins with the organisation graph, and
#: the organisation graph alone (held by every shard, counted once).
FAN_OUT = {
    "count": "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }",
    "bugs by state": """SELECT ?state (COUNT(?bug) AS ?bugs) WHERE { ?bug a ekg:Bug ; ekg:bugState ?state }
        GROUP BY ?state ORDER BY DESC(?bugs) ?state LIMIT 3""",
    "PRs per graph": """SELECT ?g (COUNT(?pr) AS ?prs) WHERE { GRAPH ?g { ?pr a ekg:PullRequest } }
        GROUP BY ?g ORDER BY DESC(?prs) ?g LIMIT 5""",
    "join with the org graph": """SELECT ?company (COUNT(?pr) AS ?prs) WHERE {
        ?pr a ekg:PullRequest ; ekg:implementedBy ?who . ?who ekg:worksFor ?company }
        GROUP BY ?company ORDER BY DESC(?prs) ?company LIMIT 10""",
    "distinct, offset": "SELECT DISTINCT ?who WHERE { ?pr ekg:implementedBy ?who } ORDER BY ?who LIMIT 7 OFFSET 3",
    "org graph alone": """SELECT ?company (COUNT(?who) AS ?n) (MIN(?who) AS ?first) (MAX(?who) AS ?last)
        WHERE { ?who ekg:worksFor ?company } GROUP BY ?company ORDER BY ?company""",
    "distinct count": """SELECT ?kind (COUNT(DISTINCT ?doc) AS ?docs) WHERE { ?doc ekg:documentKind ?kind }
        GROUP BY ?kind ORDER BY ?kind""",
    "ask": "ASK { ?who ekg:worksFor ?company }",
}


def fan_out_differs(backend: object, store: Path) -> dict[str, tuple[object, object]]:
    """The FAN_OUT queries whose answer through the deployment differs from the embedded store's."""
    embedded = EmbeddedStore(store)
    differ = {}
    for name, query in FAN_OUT.items():
        want, got = (_value(b.run(query)) for b in (embedded, backend))  # type: ignore[attr-defined]
        if got != want:
            differ[name] = (want, got)
    assert len(differ) < len(FAN_OUT)  # the comparison compares something
    return differ


def _value(result: object) -> object:
    return bool(result) if isinstance(result, QueryBoolean) else [tuple(s) for s in result]  # type: ignore[attr-defined]


@dataclass
class Cluster:
    deployment: Path
    processes: dict[str, list[subprocess.Popen]]
    placement: dict[str, str]


@pytest.fixture(scope="module")
def cluster(dev_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    virtuoso_binaries()
    out = tmp_path_factory.mktemp("shards")
    assert main(["export", "--store", str(dev_store), "--shards", "2", "--out", str(out)]) == 0
    deployment = yaml.safe_load((out / "deployment.yaml").read_text())
    processes: dict[str, list[subprocess.Popen]] = {}
    with ExitStack() as stack:
        for shard, n in REPLICAS.items():
            servers = [
                stack.enter_context(virtuoso_server(tmp_path_factory.mktemp(f"{shard}-{i}"), out / f"{shard}.nq"))
                for i in range(n)
            ]
            deployment["shards"][shard]["replicas"] = [url for url, _ in servers]
            processes[shard] = [proc for _, proc in servers]
        (out / "deployment.yaml").write_text(yaml.safe_dump(deployment, sort_keys=False))
        yield Cluster(out / "deployment.yaml", processes, deployment["products"])


@pytest.fixture(scope="module")
def embedded_answers(herb: Path, dev_store: Path) -> dict[str, dict]:
    embedded = Answerer(EmbeddedStore(dev_store))
    return {q["question"]: comparable(embedded, q["question"]) for q in dev_questions(herb)}


def kill(proc: subprocess.Popen) -> None:
    proc.kill()
    proc.wait()


def test_the_export_places_every_product_once_balanced_by_quads(cluster: Cluster) -> None:
    raw = yaml.safe_load(cluster.deployment.read_text())
    assert sorted(raw["products"]) == sorted(Answerer(open_deployment(str(cluster.deployment))).backend.products())
    assert set(raw["products"].values()) == {"shard-0", "shard-1"}
    quads = [raw["shards"][s]["quads"] for s in ("shard-0", "shard-1")]
    assert abs(quads[0] - quads[1]) < 0.05 * sum(quads)
    assert all(raw["shards"][s]["token_env"] is None for s in raw["shards"])


def test_dev_questions_answer_alike_through_the_deployment_when_a_replica_dies_mid_batch(
    herb: Path, cluster: Cluster, embedded_answers: dict[str, dict]
) -> None:
    questions = [q["question"] for q in dev_questions(herb)]
    assert len(questions) == 562
    backend = open_deployment(str(cluster.deployment))
    answerer = Answerer(backend)
    half = len(questions) // 2
    got = [comparable(answerer, q) for q in questions[:half]]
    shard_0 = backend.replicas["shard-0"]
    dying, staying = (e.url for e in shard_0.endpoints)
    assert shard_0.counts[dying, "served"] > 0 and shard_0.counts[staying, "served"] > 0  # reads are shared
    kill(cluster.processes["shard-0"][0])
    served = shard_0.counts[dying, "served"]
    got += [comparable(answerer, q) for q in questions[half:]]
    assert shard_0.counts[dying, "served"] == served and shard_0.counts[dying, "failed"] >= 1
    differ = [q for q, g in zip(questions, got, strict=True) if g != embedded_answers[q]]
    assert differ == [], f"{len(differ)} of {len(questions)} differ, e.g. {differ[:3]}"
    assert sum(g["abstain"] for g in got) > 100 and sum(not g["abstain"] for g in got) > 300


def test_a_query_naming_no_product_runs_on_every_shard_and_merges_to_the_embedded_rows(
    dev_store: Path, cluster: Cluster
) -> None:
    backend = open_deployment(str(cluster.deployment))
    assert fan_out_differs(backend, dev_store) == {}
    product = next(iter(cluster.placement))  # a product's query goes to its shard alone, and agrees too
    query, graphs = FAN_OUT["bugs by state"], product_dataset(product)
    assert _value(backend.run(query, graphs=graphs)) == _value(EmbeddedStore(dev_store).run(query, graphs=graphs))


@contextmanager
def oxigraph_server(nquads: Path, workdir: Path) -> Iterator[str]:
    """`oxigraph serve-read-only` (PyPI `oxigraph`) over a fresh store of the N-Quads, without
    --union-default-graph: `kg` names every dataset, so the engine's default graph must not matter."""
    binary = shutil.which("oxigraph") or shutil.which("oxigraph", path=str(Path(sys.executable).parent))
    if binary is None:
        pytest.skip("the Oxigraph server is not installed: pip install oxigraph (part of the dev extra)")
    location = workdir / "oxigraph"
    subprocess.run(
        [binary, "load", "--location", str(location), "--file", str(nquads)], check=True, capture_output=True
    )
    port, log = free_port(), workdir / "oxigraph.log"
    with log.open("w") as err:
        proc = subprocess.Popen(
            [binary, "serve-read-only", "--location", str(location), "--bind", f"127.0.0.1:{port}"], stderr=err
        )
    with stopping(proc):
        url = f"http://127.0.0.1:{port}/query"
        wait_for(url, proc, log, 60)
        yield url


def test_a_shard_on_the_oxigraph_server_answers_its_questions_as_the_embedded_store(
    herb: Path, cluster: Cluster, embedded_answers: dict[str, dict], tmp_path: Path
) -> None:
    deployment = yaml.safe_load(cluster.deployment.read_text())
    with oxigraph_server(cluster.deployment.parent / "shard-1.nq", tmp_path) as url:
        deployment["shards"]["shard-1"]["replicas"] = [url]
        mixed = tmp_path / "deployment.yaml"
        mixed.write_text(yaml.safe_dump(deployment, sort_keys=False))
        answerer = Answerer(open_deployment(str(mixed)))
        on_oxigraph = [q["question"] for q in dev_questions(herb) if cluster.placement[q["product"]] == "shard-1"]
        assert len(on_oxigraph) > 100
        differ = [q for q in on_oxigraph if comparable(answerer, q) != embedded_answers[q]]
        assert differ == [], f"{len(differ)} of {len(on_oxigraph)} differ on the Oxigraph server, e.g. {differ[:3]}"


def test_with_every_replica_of_a_shard_down_only_its_questions_become_error_records(
    herb: Path, cluster: Cluster, embedded_answers: dict[str, dict], tmp_path: Path
) -> None:
    for proc in cluster.processes["shard-1"]:
        kill(proc)
    batch = tmp_path / "dev.jsonl"
    questions = dev_questions(herb)
    batch.write_text("".join(json.dumps({"question": q["question"]}) + "\n" for q in questions))
    out = tmp_path / "answers.jsonl"
    done = subprocess.run(
        [*KG, "ask", "--batch", str(batch), "--out", str(out), "--jobs", "1", "--deployment", str(cluster.deployment)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == len(questions)
    down = {p for p, s in cluster.placement.items() if s == "shard-1"}
    for q, record in zip(questions, records, strict=True):
        if q["product"] in down:
            assert "abstain" not in record and "every replica of shard-1 is down" in record["error"], record
        else:
            assert "error" not in record, record
            assert comparable_record(record) == embedded_answers[q["question"]]
    failed = sum("error" in r for r in records)
    assert 0 < failed < len(records)
    assert f"{failed} of {len(records)} lines got an error record" in done.stderr


def comparable_record(record: dict) -> dict:
    """A batch record in the form `comparable` gives an answer."""
    if isinstance(record["answer"], list):
        record["answer"] = sorted(record["answer"])
    record["citations"] = sorted(record["citations"])
    if record.get("proof"):  # as `comparable`: the text check reads the search index beside a store
        record["proof"] = {k: v for k, v in record["proof"].items() if k != "textcheck"}
    return record
