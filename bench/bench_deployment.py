"""The 1,514-question batch and the fan-out set through a sharded deployment, against the embedded store.

    .venv/bin/python bench/bench_deployment.py --store .kg/store                 # x1 HERB, a store `kg build` made
    .venv/bin/python bench/bench_deployment.py --factor 10                       # x10, built as bench_scale.py does
    .venv/bin/python bench/bench_deployment.py --factor 10 --store /tmp/x10/store   # x10, a store built before
    .venv/bin/python bench/bench_deployment.py --store .kg/store --size 300     # a smaller batch

What issue 37 measures: `kg export --shards 2`, each shard on two replicas (by default one Virtuoso and one
Oxigraph server, `--engines`; private servers on loopback ports, tests/endpoints.py), then

1. the batch (`kg ask --batch`, the 1,514 lines bench_reading.py times: HERB's dev questions cycled) in new
   processes, embedded and through `--deployment` with every replica healthy, then again through the deployment
   with the Virtuoso replica of the busiest shard killed once `--kill-at` of the output is written; each
   deployment output is compared line by line with the embedded one: byte-identical lines, whole records but
   for the proof's text check (which reads the search index beside a store: through a deployment its note says
   "the backend is not a local store"; tests/test_shards.py leaves it out too), and outcome, answer and citations;
2. the fan-out set (tests/test_shards.py's FAN_OUT: counts, GROUP BY with ORDER BY and LIMIT, a join with the
   organisation graph, …) embedded and through the deployment, rows compared exactly (same rows, same order),
   with the time of each;
3. `kg stats --deployment`'s replica table after the batches, which holds the failovers and skips of every
   process (the batches' workers included).

Timings on a shared machine are noisy: compare the rows of one run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path

import yaml

from kg.cli.table import print_table
from kg.ingest.build import build
from kg.paths import herb_path, store_path
from kg.query.deployment import open_deployment
from kg.query.shards import export_shards
from kg.query.sparql import EmbeddedStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_reading import batch_file
from bench_scale import synthetic_herb
from endpoints import virtuoso_server
from test_shards import FAN_OUT, _value, oxigraph_server

ROOT = Path(__file__).resolve().parents[1]
KG = [sys.executable, "-m", "kg"]
#: What a record of the batch must keep through the deployment.
COMPARED = ("outcome", "answer", "citations")


@contextmanager
def replica(engine: str, workdir: Path, nquads: Path) -> Iterator[tuple[str, subprocess.Popen | None]]:
    """One replica loaded from the shard's file: its URL, and its process where the bench can kill it."""
    if engine == "virtuoso":
        with virtuoso_server(workdir, nquads) as (url, proc):
            yield url, proc
    else:
        workdir.mkdir(parents=True)
        with oxigraph_server(nquads, workdir) as url:
            yield url, None


def written(out: Path) -> int:
    """Lines the batch has written so far: `kg ask --batch --out` writes a part file beside OUT, moved in place
    at the end."""
    n = 0
    for part in out.parent.glob(f".{out.name}.part-*"):
        with suppress(FileNotFoundError), part.open("rb") as fh:
            n += sum(1 for _ in fh)
    return n


def batch(source: str, path: Path, questions: Path, out: Path, kill: Callable[[], None] | None = None) -> dict:
    """`kg ask --batch` in a new process (default workers), timed; with `kill`, called once the output holds
    that many lines. Returns seconds, exit status, the warning lines and the line count at the kill."""
    args = [*KG, "ask", f"--{source}", str(path), "--batch", str(questions), "--out", str(out), "--force"]
    started = time.perf_counter()
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    killed_at: list[int] = []
    watcher = threading.Thread(target=lambda: killed_at.append(kill()) if kill else None, daemon=True)
    watcher.start()
    _, err = proc.communicate()
    seconds = time.perf_counter() - started
    watcher.join(timeout=10)
    warnings = [line for line in err.splitlines() if line.startswith("kg: warning:")]
    return {"s": seconds, "rc": proc.returncode, "stderr": err, "warnings": warnings, "killed_at": killed_at}


def killer(proc: subprocess.Popen, out: Path, at: int) -> Callable[[], int]:
    """Kill the replica once `at` lines of `out` are written; returns the lines written then (-1: the batch ended
    first, nothing killed)."""

    def run() -> int:
        while (n := written(out)) < at:
            if out.exists():
                return -1
            time.sleep(0.05)
        proc.kill()
        proc.wait()
        return n

    return run


def compare(embedded: Path, routed: Path) -> dict[str, int]:
    """Lines byte-identical; records equal whole but for the proof's text check; records equal in outcome, answer
    and citations; error records."""
    want, got = embedded.read_text().splitlines(), routed.read_text().splitlines()
    same = dict.fromkeys(("lines", "byte-identical", "records equal", "outcome, answer, citations equal", "errors"), 0)
    same["lines"] = len(got) if len(got) == len(want) else -len(got)
    for a, b in zip(want, got, strict=False):
        same["byte-identical"] += a == b
        ra, rb = json.loads(a), json.loads(b)
        same["errors"] += "error" in rb
        same["records equal"] += _checked_aside(ra) == _checked_aside(rb)
        same["outcome, answer, citations equal"] += all(ra.get(k) == rb.get(k) for k in COMPARED)
    return same


def _checked_aside(record: dict) -> dict:
    """The record without its proof's text check, whose note names the store's search index (or its absence)."""
    proof = record.get("proof")
    if isinstance(proof, dict):
        return record | {"proof": {k: v for k, v in proof.items() if k != "textcheck"}}
    return record


def fan_out(store: Path, deployment: Path) -> list[list[str]]:
    """Per FAN_OUT query: seconds embedded and through the deployment, and whether the rows are equal exactly."""
    embedded, routed = EmbeddedStore(store), open_deployment(str(deployment))
    rows = []
    for name, query in FAN_OUT.items():
        timed = []
        for backend in (embedded, routed):
            started = time.perf_counter()
            timed.append((_value(backend.run(query)), time.perf_counter() - started))  # type: ignore[attr-defined]
        (want, a), (got, b) = timed
        rows.append([name, f"{a:.2f}", f"{b:.2f}", f"{b / a:.1f}" if a else "-", "yes" if got == want else "NO"])
    return rows


def stats_replicas(deployment: Path) -> list[list[str]]:
    done = subprocess.run(
        [*KG, "stats", "--deployment", str(deployment), "--json"], cwd=ROOT, capture_output=True, text=True
    )
    if done.returncode:
        return [["kg stats failed", done.stderr.strip()[-300:], "", "", ""]]
    table = next(v for k, v in json.loads(done.stdout).items() if k.startswith("replicas"))
    return [[str(v) for v in r.values()] for r in table]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--store", help="an existing store (default: $KG_STORE, else ./.kg/store; with --factor: built)")
    p.add_argument("--factor", type=int, default=1, help="HERB times this factor (built as bench_scale.py does)")
    p.add_argument("--size", type=int, default=1514, help="lines in the batch (HERB's dev questions cycled)")
    p.add_argument("--engines", nargs=2, default=["virtuoso", "oxigraph"], choices=["virtuoso", "oxigraph"])
    p.add_argument("--kill-at", type=float, default=0.5, help="share of the batch written when a replica is killed")
    p.add_argument("--workdir", help="where the copies, stores and databases go (default: a temporary folder)")
    p.add_argument("--keep", help="copy the batch outputs and the deployment file into this folder")
    args = p.parse_args(argv)
    if "virtuoso" not in args.engines:
        raise SystemExit("bench_deployment: the replica killed mid-batch is a Virtuoso one: list virtuoso")
    with tempfile.TemporaryDirectory(prefix="kg-deploy-", dir=args.workdir) as tmp, ExitStack() as stack:
        work, figures = Path(tmp), []
        store = store_path(args.store) if args.store or args.factor == 1 else work / "store"
        if not store.exists():
            started = time.perf_counter()
            build(synthetic_herb(herb_path(), work / "herb", args.factor), store, progress=False, jobs=2)
            figures.append(["build", f"{time.perf_counter() - started:.1f}"])
        started = time.perf_counter()
        placement, _ = export_shards(store, work / "shards", 2)
        figures.append(["kg export --shards 2", f"{time.perf_counter() - started:.1f}"])
        raw = yaml.safe_load((work / "shards" / "deployment.yaml").read_text())
        procs: dict[str, subprocess.Popen] = {}
        for shard in placement.shards:
            urls = []
            for i, engine in enumerate(args.engines):
                started = time.perf_counter()
                url, proc = stack.enter_context(
                    replica(engine, work / f"{shard}-{i}-{engine}", work / "shards" / f"{shard}.nq")
                )
                figures.append([f"load {shard} into {engine}", f"{time.perf_counter() - started:.1f}"])
                urls.append(url)
                if proc is not None:
                    procs.setdefault(shard, proc)
            raw["shards"][shard]["replicas"] = urls
        deployment = work / "shards" / "deployment.yaml"
        deployment.write_text(yaml.safe_dump(raw, sort_keys=False))
        questions = batch_file(herb_path(), args.size, work)
        outputs = {name: work / f"{name}.jsonl" for name in ("embedded", "healthy", "killed")}
        runs = {
            "embedded": batch("store", store, questions, outputs["embedded"]),
            "healthy": batch("deployment", deployment, questions, outputs["healthy"]),
        }
        fan = fan_out(store, deployment)
        busiest = max(placement.shards, key=lambda s: len(placement.products_of(s)))
        victim = killer(procs[busiest], outputs["killed"], int(args.size * args.kill_at))
        runs["killed"] = batch("deployment", deployment, questions, outputs["killed"], victim)
        replicas = stats_replicas(deployment)
        sames = {name: compare(outputs["embedded"], outputs[name]) for name in ("healthy", "killed")}
        if args.keep:
            Path(args.keep).mkdir(parents=True, exist_ok=True)
            for path in [*outputs.values(), deployment]:
                shutil.copy(path, Path(args.keep) / path.name)

    quads = sum(raw["shards"][s]["quads"] for s in raw["shards"])
    print(f"\nx{args.factor} HERB, {quads:,} quads in 2 shards ({' + '.join(args.engines)} replicas each)\n")
    print_table(["step", "seconds"], figures)
    print(f"\n{args.size}-question batch (`kg ask --batch`, new process, default workers)\n")
    table = []
    for name, run in runs.items():
        same = sames.get(name, {})
        kill = "" if not run["killed_at"] else f"killed at line {run['killed_at'][0]}"
        kill = kill.replace("killed at line -1", "ended before the kill")
        table.append(
            [
                name,
                f"{run['s']:.1f}",
                str(run["rc"]),
                str(same.get("byte-identical", "")),
                str(same.get("records equal", "")),
                str(same.get("outcome, answer, citations equal", "")),
                str(same.get("errors", "")),
                str(len(run["warnings"])),
                kill,
            ]
        )
    print_table(["run", "s", "exit", "same bytes", "same record*", "same answer", "errors", "warnings", "note"], table)
    print("  lines equal to the embedded output's: byte for byte; as whole records, the proof's text check aside")
    print("  (*: its note says why it could not run); in outcome, answer and citations")
    for warning in sorted(set(runs["killed"]["warnings"]))[:5]:
        print(f"  {warning[:220]}")
    print("\nfan-out: a query naming no product (seconds; rows compared exactly, order included)\n")
    print_table(["query", "embedded", "deployment", "ratio", "rows equal"], fan)
    print(
        "\n`kg stats --deployment` afterwards: each replica's calls (served in that run; failed and skipped by all)\n"
    )
    print_table(["shard", "replica", "served", "failed", "skipped"], replicas)
    return 0


if __name__ == "__main__":
    sys.exit(main())
