"""Hybrid search on HERB's dev questions: citation recall and precision at k for each retriever and fusion.

Each question is searched at its product's scope (as the BM25 baseline does); its gold citations are only
scored against, never used by the search. One run prints the comparison table and the search latency:

    .venv/bin/python bench/bench_search.py --store /tmp/search-store/store
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from kg.errors import KGError
from kg.paths import qa_path, store_path
from kg.qa.evaluate import read_jsonl
from kg.qa.metrics import recall_precision
from kg.search import Searcher

KS = (10, 100, 500)
#: (row label, signals fused). The first four are the issue's comparison; the rest show what each part adds.
ROWS = [
    ("BM25 alone", ("bm25",)),
    ("dense alone", ("dense",)),
    ("RRF (bm25, bm25_context, dense, dense_context)", ("bm25", "bm25_context", "dense", "dense_context")),
    ("RRF + PPR (full pipeline)", ("bm25", "bm25_context", "dense", "dense_context", "ppr")),
    ("BM25 over conversation context alone", ("bm25_context",)),
    ("RRF lexical only (no dense)", ("bm25", "bm25_context")),
    ("RRF + PPR lexical only (degraded mode)", ("bm25", "bm25_context", "ppr")),
    ("PPR alone (seeded by RRF top + anchors)", ("ppr",)),
]


def measure(searcher: Searcher, questions: list[dict]) -> dict[str, dict[int, tuple[float, float]]]:
    """Mean citation recall and precision at each k, per row, over the questions."""
    scores: dict[str, dict[int, list[tuple[float, float]]]] = {
        label: {k: [] for k in KS} for label, _ in ROWS
    }
    for q in questions:
        vector = searcher.encoder.encode_query(q["question"]) if searcher.encoder else None
        signals = searcher.signals(q["question"], q["product"], query_vector=vector)
        for label, used in ROWS:
            if not all(u in signals.rankings for u in used):
                continue
            ranked = [signals.index.ids[r] for r in signals.order(used)]
            for k in KS:
                recall, precision = recall_precision(ranked[:k], q["citations"])
                scores[label][k].append((recall, precision or 0.0))
    return {
        label: {
            k: (statistics.mean(r for r, _ in v), statistics.mean(p for _, p in v))
            for k, v in per_k.items()
            if v
        }
        for label, per_k in scores.items()
    }


def latency(searcher: Searcher, questions: list[dict], k: int = 20) -> tuple[float, float]:
    """p50 and p90 milliseconds of a full `search` call (model and indexes already loaded)."""
    for q in questions[:5]:
        searcher.search(q["question"], q["product"], k=k)
    times = []
    for q in questions:
        started = time.perf_counter()
        searcher.search(q["question"], q["product"], k=k)
        times.append(1000 * (time.perf_counter() - started))
    quantiles = statistics.quantiles(times, n=10)
    return statistics.median(times), quantiles[-1]


def print_table(results: dict[str, dict[int, tuple[float, float]]], n: int) -> None:
    head = " | ".join(f"R@{k} | P@{k}" for k in KS)
    print(f"\n{n} answerable dev questions, product scope\n")
    print(f"| retrieval | {head} |")
    print("|---|" + "---|" * (2 * len(KS)))
    for label, per_k in results.items():
        if per_k:
            cells = " | ".join(f"{per_k[k][0]:.3f} | {per_k[k][1]:.3f}" for k in KS)
            print(f"| {label} | {cells} |")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--store", help="store directory (its index beside it, from `kg index`)")
    p.add_argument("--qa", help="folder with answerable.jsonl (default: <HERB>/qa/dev)")
    p.add_argument("--no-dense", action="store_true", help="run without the dense extra (degraded mode)")
    args = p.parse_args(argv)
    try:
        questions = read_jsonl((Path(args.qa) if args.qa else qa_path()) / "answerable.jsonl")
        searcher = Searcher(store_path(args.store), use_dense=not args.no_dense)
        if searcher.dense_off:
            print(searcher.dense_off)
        print_table(measure(searcher, questions), len(questions))
        p50, p90 = latency(searcher, questions)
        print(
            f"\nsearch latency ({'full, with query encoding' if searcher.encoder else 'lexical + graph'}, "
            f"k=20, {len(questions)} queries): p50 {p50:.1f} ms, p90 {p90:.1f} ms"
        )
        if searcher.encoder is not None:
            lexical = Searcher(store_path(args.store), use_dense=False)
            p50, p90 = latency(lexical, questions)
            print(f"search latency (lexical + graph, no query encoding): p50 {p50:.1f} ms, p90 {p90:.1f} ms")
    except KGError as exc:
        print(f"bench_search: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
