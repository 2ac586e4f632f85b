"""Shards by product on Virtuoso, in one run: one store against two shards against the deployment file.

    .venv/bin/python bench/bench_shards.py --store .kg/store            # x1 HERB, a store `kg build` made
    .venv/bin/python bench/bench_shards.py --factor 10                  # x10 HERB, built here first

The same data is bulk-loaded into one Virtuoso (the whole `kg export`) and into two (`kg export --shards 2`),
each a private server on free loopback ports (tests/endpoints.py). The dev questions are then asked one at a
time: embedded (the floor), over `--endpoint` on the one Virtuoso, over `--endpoint` on the shard holding each
question's product, and through `--deployment` (routing, replica probe and all), each question of all four in
turn, in `--rounds` rounds with fresh answerers (the last is shown: the first warms the engines). Each row gives
total, p50 and p99 per question and how many answers (abstention, answer set, citations) equal the embedded
store's. Also the load time per shard, and last the fan-out cost: queries that name no product, run through
Comunica over the two shards, against the same query on the one Virtuoso and embedded. Timings on a shared
machine are noisy: compare the rows of one run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import yaml

from kg.cli.table import print_table
from kg.errors import KGError
from kg.ingest.build import build
from kg.paths import herb_path, store_path
from kg.qa.answer import Answerer
from kg.query.deployment import open_deployment
from kg.query.federation import comunica
from kg.query.remote import RemoteEndpoint
from kg.query.shards import export_shards
from kg.query.sparql import EmbeddedStore
from kg.query.store import export

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import synthetic_herb
from bench_virtuoso import qa_row, sparql_count, timed_answers
from endpoints import virtuoso

#: Queries naming no product: a company-wide count over the product graphs, and one over the organisation graph
#: (which every shard holds; the fan-out must count it once).
FAN_OUT = {
    "bugs by state (product graphs)": """SELECT ?state (COUNT(?bug) AS ?bugs) WHERE { ?bug a ekg:Bug ;
  ekg:bugState ?state } GROUP BY ?state ORDER BY DESC(?bugs) ?state""",
    "people per role (organisation graph)": """SELECT ?role (COUNT(?person) AS ?people) WHERE { ?person ekg:hasRole
  ?r . ?r rdfs:label ?role } GROUP BY ?role ORDER BY DESC(?people) ?role LIMIT 10""",
}


def dev_rows() -> list[dict]:
    folder = herb_path() / "qa" / "dev"
    return [json.loads(line) for name in ("answerable.jsonl", "unanswerable.jsonl") for line in (folder / name).open()]


def timed_load(stack: ExitStack, workdir: Path, nquads: Path) -> tuple[str, float]:
    started = time.perf_counter()
    url = stack.enter_context(virtuoso(workdir, nquads))
    return url, time.perf_counter() - started


def interleaved(answerers: dict[str, Callable[[dict], Answerer]], rows: list[dict]) -> dict[str, tuple[list, list]]:
    """Each question asked of every engine in turn (so a busy minute costs them alike): per engine, the comparable
    answers and the milliseconds per question. `answerers[name](row)` is the answerer for that question."""
    out: dict[str, tuple[list, list]] = {name: ([], []) for name in answerers}
    for row in rows:
        for name, answerer_for in answerers.items():
            got, ms = timed_answers(answerer_for(row), [row["question"]])
            out[name][0].extend(got)
            out[name][1].extend(ms)
    return out


def fresh_answerers(store: Path, one_url: str, urls: dict[str, str], deployment: str, placement: dict[str, str]):
    """New answerers (each reads its vocabulary again): embedded, one Virtuoso, the product's shard, the
    deployment."""
    embedded, one, routed = (
        Answerer(EmbeddedStore(store)),
        Answerer(RemoteEndpoint(one_url)),
        Answerer(open_deployment(deployment)),
    )
    shards = {shard: Answerer(RemoteEndpoint(url)) for shard, url in urls.items()}
    return {
        "embedded Oxigraph (floor)": lambda row: embedded,
        "one Virtuoso over --endpoint": lambda row: one,
        "its product's shard over --endpoint": lambda row: shards[placement[row["product"]]],
        "through --deployment (2 shards)": lambda row: routed,
    }


def fan_out_rows(store: Path, one_url: str, deployment: Path) -> list[list[str]]:
    """Seconds per query: embedded, on the one Virtuoso, and through Comunica over the shards (a new process
    each, as `kg query --deployment` runs it); whether the rows agree as a bag, and in the same order."""
    backend = open_deployment(str(deployment))
    out = []
    for name, query in FAN_OUT.items():
        timings, results = [], []
        for run in (
            lambda q=query: EmbeddedStore(store).select(q),
            lambda q=query: RemoteEndpoint(one_url).select(q),
            lambda q=query: backend.select(q),
        ):
            started = time.perf_counter()
            try:
                results.append(run())
            except KGError as exc:  # a refused fan-out is a figure too
                print(f"fan-out of {name!r} refused: {exc}")
                out.append([name, *(f"{t:.2f}" for t in timings), "refused", "", ""])
                break
            timings.append(time.perf_counter() - started)
        else:
            bags = [sorted(tuple(sorted((k, v.value) for k, v in row.items())) for row in r) for r in results]
            same_rows, same_order = bags[0] == bags[1] == bags[2], results[0] == results[1] == results[2]
            out.append(
                [name, *(f"{t:.2f}" for t in timings), *("yes" if ok else "NO" for ok in (same_rows, same_order))]
            )
    return out


def print_qa(args: argparse.Namespace, loads: list[list[str]], qa: list[list[str]], n: int) -> None:
    """The load and question tables, printed as soon as they are known (the fan-out may take long)."""
    print(f"\nx{args.factor or 1} HERB; bulk load into Virtuoso (start + ld_dir + rdf_loader_run + checkpoint)\n")
    print_table(["store", "quads read back", "load (s)"], loads)
    print(f"\n{n} dev question(s){' of ' + args.product if args.product else ''}, one at a time\n")
    print_table(
        ["where", "total (s)", "p50 (ms)", "p99 (ms)", "answers equal to embedded"],
        qa,
    )
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--store", help="an existing store (default: $KG_STORE, else ./.kg/store)")
    p.add_argument("--factor", type=int, help="build HERB times this factor first (as bench_scale.py does)")
    p.add_argument("--product", help="ask only this product's dev questions (default: all of them)")
    p.add_argument(
        "--rounds",
        type=int,
        default=2,
        help="ask every question this many times per engine, in turn; the last "
        "round is shown (the first warms the engines' caches)",
    )
    p.add_argument("--workdir", help="where the copies, stores and databases go (default: a temporary folder)")
    args = p.parse_args(argv)
    if not (shutil.which("virtuoso-t") and shutil.which("isql-vt")):
        raise SystemExit("bench_shards: Virtuoso not installed (apt-get install virtuoso-opensource)")
    comunica()  # fail before the loads when the fan-out cannot run
    with tempfile.TemporaryDirectory(prefix="kg-shards-", dir=args.workdir) as tmp, ExitStack() as stack:
        work = Path(tmp)
        store = store_path(args.store)
        if args.factor:
            started = time.perf_counter()
            store = work / "store"
            build(synthetic_herb(herb_path(), work / "herb", args.factor), store, progress=False, jobs=2)
            print(f"built x{args.factor} HERB in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        (work / "one").mkdir()
        with (work / "one" / "ekg.nq").open("wb") as fh:
            export(store, fh, "nquads")
        placement = export_shards(store, work / "shards", 2)
        one_url, one_s = timed_load(stack, work / "virtuoso-one", work / "one" / "ekg.nq")
        loads = [["one store", f"{sparql_count(one_url):,}", f"{one_s:.1f}"]]
        urls = {}
        for shard in placement.shards:
            urls[shard], seconds = timed_load(stack, work / f"virtuoso-{shard}", work / "shards" / f"{shard}.nq")
            loads.append(
                [
                    f"{shard} ({len(placement.products_of(shard))} products)",
                    f"{sparql_count(urls[shard]):,}",
                    f"{seconds:.1f}",
                ]
            )
        deployment = yaml.safe_load((work / "shards" / "deployment.yaml").read_text())
        for shard, url in urls.items():
            deployment["shards"][shard]["replicas"] = [url]
        (work / "shards" / "deployment.yaml").write_text(yaml.safe_dump(deployment, sort_keys=False))

        rows = [r for r in dev_rows() if args.product in (None, r["product"])]
        questions = [r["question"] for r in rows]
        deployment_file = str(work / "shards" / "deployment.yaml")
        results: dict[str, tuple[list, list]] = {}
        for _ in range(args.rounds):  # fresh answerers each round; the last round's times are shown
            results = interleaved(fresh_answerers(store, one_url, urls, deployment_file, placement.product_shard), rows)
        embedded = results["embedded Oxigraph (floor)"][0]
        qa = [
            qa_row(name, millis, sum(a == b for a, b in zip(embedded, answers, strict=True)), len(questions))
            for name, (answers, millis) in results.items()
        ]
        print_qa(args, loads, qa, len(questions))
        fan_out = fan_out_rows(store, one_url, work / "shards" / "deployment.yaml")

    print("\nfan-out: a query naming no product (seconds)\n")
    print_table(["query", "embedded", "one Virtuoso", "Comunica over 2 shards", "same rows", "same order"], fan_out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
