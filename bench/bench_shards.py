"""Shards by product on Virtuoso, in one run: one store against two shards against the deployment file.

    .venv/bin/python bench/bench_shards.py --store .kg/store            # x1 HERB, a store `kg build` made
    .venv/bin/python bench/bench_shards.py --factor 10                  # x10 HERB, built here first
    .venv/bin/python bench/bench_shards.py --placement [--factor 10]    # only what moves when a shard is added

The same data is bulk-loaded into one Virtuoso (the whole `kg export`) and into two (`kg export --shards 2`),
each a private server on free loopback ports (tests/endpoints.py). The dev questions are then asked one at a
time: embedded (the floor), over `--endpoint` on the one Virtuoso, over `--endpoint` on the shard holding each
question's product, through `--deployment` with one replica a shard, and through `--deployment` with the busiest
shard (the one most asked questions are on) on two replicas sharing its reads (round-robin; one more Virtuoso
holds the copy), each question of all five in turn,
in `--rounds` rounds with fresh answerers (the last is shown: the first warms the engines). Each row gives total,
p50 and p99 per question and how many answers (abstention, answer set, citations) equal the embedded store's,
then how many calls each replica served. Also the load time per shard, and last the fan-out
cost: queries that name no product, run on every shard and merged (kg.query.federation), against the same query
on the one Virtuoso and embedded. Timings on a shared machine are noisy: compare the rows of one run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import yaml
from pyoxigraph import QueryBoolean

from kg.cli.table import print_table
from kg.errors import KGError
from kg.ingest.build import build
from kg.paths import herb_path, store_path
from kg.qa.answer import Answerer
from kg.query.deployment import ShardedBackend, open_deployment
from kg.query.remote import RemoteEndpoint
from kg.query.shards import export_shards, moves, place, product_sizes
from kg.query.sparql import EmbeddedStore
from kg.query.store import export

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import synthetic_herb
from bench_virtuoso import qa_row, sparql_count, timed_answers
from endpoints import virtuoso
from test_shards import FAN_OUT  # the queries the fan-out tests check, timed here


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


def fresh_answerers(
    store: Path, one_url: str, urls: dict[str, str], deployments: tuple[str, str], placement: dict[str, str]
) -> tuple[dict[str, Callable[[dict], Answerer]], ShardedBackend]:
    """New answerers (each reads its vocabulary again): embedded, one Virtuoso, the product's shard, the
    deployment with one replica a shard and with two for the busiest shard (returned too, for its replicas'
    counts)."""
    shared = open_deployment(deployments[1])
    embedded, one, routed, two = (
        Answerer(EmbeddedStore(store)),
        Answerer(RemoteEndpoint(one_url)),
        Answerer(open_deployment(deployments[0])),
        Answerer(shared),
    )
    shards = {shard: Answerer(RemoteEndpoint(url)) for shard, url in urls.items()}
    answerers: dict[str, Callable[[dict], Answerer]] = {
        "embedded Oxigraph (floor)": lambda row: embedded,
        "one Virtuoso over --endpoint": lambda row: one,
        "its product's shard over --endpoint": lambda row: shards[placement[row["product"]]],
        "--deployment, 1 replica a shard": lambda row: routed,
        "--deployment, busiest shard on 2 replicas": lambda row: two,
    }
    return answerers, shared


def fan_out_rows(store: Path, one_url: str, deployment: Path) -> list[list[str]]:
    """Seconds per query: embedded, on the one Virtuoso, and on every shard merged; whether the merged rows equal
    the embedded store's as a bag, and in the same order (the one Virtuoso's default graph also holds its own
    system graphs, so its whole-store count differs by design)."""
    backend = open_deployment(str(deployment))
    out = []
    for name, query in FAN_OUT.items():
        timings, results = [], []
        for run in (
            lambda q=query: _rows(EmbeddedStore(store).run(q)),
            lambda q=query: _rows(RemoteEndpoint(one_url).run(q)),
            lambda q=query: _rows(backend.run(q)),
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
            bags = [sorted(r, key=repr) for r in results]
            same_rows, same_order = bags[2] == bags[0], results[2] == results[0]
            out.append(
                [name, *(f"{t:.2f}" for t in timings), *("yes" if ok else "NO" for ok in (same_rows, same_order))]
            )
    return out


def _rows(result: object) -> list:
    return [bool(result)] if isinstance(result, QueryBoolean) else [tuple(s) for s in result]  # type: ignore[attr-defined]


def placement_rows(sizes: dict[str, int]) -> list[list[str]]:
    """Per shard count n: the spread of shard sizes around the mean, and the share of product quads that moves to
    n+1 shards with `--from` (the placement in use kept) and from scratch, against the ideal 1/(n+1)."""
    total = sum(sizes.values())
    rows = []
    for n in range(2, 6):
        old = place(sizes, n)
        kept, fresh = place(sizes, n + 1, old.product_shard), place(sizes, n + 1)
        moved = [sum(sizes[p] for p in moves(old.product_shard, new)) / total for new in (kept, fresh)]
        spread = max(abs(q * (n + 1) / total - 1) for q in kept.quads.values())
        rows.append([f"{n} -> {n + 1}", f"{moved[0]:.1%}", f"{moved[1]:.1%}", f"{1 / (n + 1):.1%}", f"{spread:.1%}"])
    return rows


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
    p.add_argument(
        "--placement",
        action="store_true",
        help="only print how much moves when a shard is added (no Virtuoso; the store's sizes, x --factor copies)",
    )
    args = p.parse_args(argv)
    if args.placement:
        sizes = product_sizes(EmbeddedStore(store_path(args.store)))
        if args.factor:  # the synthetic copies' sizes, each under its own name
            sizes = {f"{p}{i}": q for p, q in sizes.items() for i in range(args.factor)}
        print(f"{len(sizes)} products, {sum(sizes.values()):,} product quads\n")
        print_table(
            ["shards", "moved with --from", "from scratch", "ideal", "widest shard off the mean"], placement_rows(sizes)
        )
        return 0
    if not (shutil.which("virtuoso-t") and shutil.which("isql-vt")):
        raise SystemExit("bench_shards: Virtuoso not installed (apt-get install virtuoso-opensource)")
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
        placement, _ = export_shards(store, work / "shards", 2)
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
        rows = [r for r in dev_rows() if args.product in (None, r["product"])]
        busiest = Counter(placement.product_shard[r["product"]] for r in rows).most_common(1)[0][0]
        copy, seconds = timed_load(stack, work / f"virtuoso-{busiest}-copy", work / "shards" / f"{busiest}.nq")
        loads.append([f"{busiest}'s second replica", f"{sparql_count(copy):,}", f"{seconds:.1f}"])
        deployment = yaml.safe_load((work / "shards" / "deployment.yaml").read_text())
        for shard, url in urls.items():
            deployment["shards"][shard]["replicas"] = [url]
        (work / "shards" / "deployment.yaml").write_text(yaml.safe_dump(deployment, sort_keys=False))
        deployment["shards"][busiest]["replicas"].append(copy)
        (work / "shards" / "shared.yaml").write_text(yaml.safe_dump(deployment, sort_keys=False))

        questions = [r["question"] for r in rows]
        files = (str(work / "shards" / "deployment.yaml"), str(work / "shards" / "shared.yaml"))
        results: dict[str, tuple[list, list]] = {}
        for _ in range(args.rounds):  # fresh answerers each round; the last round's times are shown
            answerers, shared = fresh_answerers(store, one_url, urls, files, placement.product_shard)
            results = interleaved(answerers, rows)
        embedded = results["embedded Oxigraph (floor)"][0]
        qa = [
            qa_row(name, millis, sum(a == b for a, b in zip(embedded, answers, strict=True)), len(questions))
            for name, (answers, millis) in results.items()
        ]
        print_qa(args, loads, qa, len(questions))
        print(f"\ncalls each replica served in the last round ({busiest} on two, round-robin):")
        print_table(["shard", "replica", "served", "failed", "skipped"], [list(r) for r in shared.counters()])
        fan_out = fan_out_rows(store, one_url, work / "shards" / "deployment.yaml")

    print("\nfan-out: a query naming no product (seconds)\n")
    print_table(["query", "embedded", "one Virtuoso", "2 shards merged", "merged = embedded", "same order"], fan_out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
