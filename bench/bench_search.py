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
from kg.qa.answer import Answerer
from kg.qa.evaluate import read_jsonl
from kg.qa.fallback import fallback_answer
from kg.qa.metrics import recall_precision, token_f1
from kg.qa.question import parse
from kg.query.sparql import EmbeddedStore
from kg.search.searcher import MODES, Searcher, Signals

KS = (10, 100, 500)
#: (row label, signals fused, with the dense retrievers on). The first four are the issue's comparison (with
#: dense); the default pipeline is lexical + graph; the rest show what each part adds. With dense on, the PPR
#: seeds come from the fused lexical and dense lists; with it off, from the lexical list alone.
ROWS = [
    ("BM25 alone (artifact text)", MODES["bm25"], True),
    ("dense alone (artifact text)", MODES["dense"], True),
    ("RRF (bm25_context, dense_context)", MODES["rrf"], True),
    ("RRF + PPR (bm25_context, dense_context, ppr)", MODES["rrf+ppr"], True),
    ("default: BM25 context + PPR (no dense)", ("bm25_context", "ppr"), False),
    ("BM25 over conversation context alone", ("bm25_context",), False),
    ("dense over conversation context alone", ("dense_context",), True),
    ("RRF of message- and context-level lists + PPR", ("bm25", "bm25_context", "dense", "dense_context", "ppr"), True),
    ("PPR alone (seeded by BM25 context top + anchors)", ("ppr",), False),
]


def measure(searchers: dict[bool, Searcher], questions: list[dict]) -> dict[str, dict[int, tuple[float, float]]]:
    """Mean citation recall and precision at each k, per row, over the questions."""
    scores: dict[str, dict[int, list[tuple[float, float]]]] = {label: {k: [] for k in KS} for label, _, _ in ROWS}
    for q in questions:
        for with_dense, searcher in searchers.items():
            vector = searcher.encoder.encode_query(q["question"]) if searcher.encoder else None
            signals = searcher.signals(q["question"], q["product"], query_vector=vector)
            rows = [(label, used) for label, used, d in ROWS if d == with_dense]
            score_rows(scores, rows, signals, q)
    return {
        label: {k: (statistics.mean(r for r, _ in v), statistics.mean(p for _, p in v)) for k, v in per_k.items() if v}
        for label, per_k in scores.items()
    }


def score_rows(scores: dict, rows: list[tuple[str, tuple[str, ...]]], signals: Signals, q: dict) -> None:
    for label, used in rows:
        if not all(u in signals.rankings for u in used):
            continue
        ranked = [signals.index.ids[r] for r in signals.order(used)]
        for k in KS:
            recall, precision = recall_precision(ranked[:k], q["citations"])
            scores[label][k].append((recall, precision or 0.0))


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


def fallback_effect(searcher: Searcher, qa_dir: Path) -> None:
    """Token F1 on answerable questions no intent covers, without (abstain) and with the search fallback;
    and how often the fallback answers an unanswerable question no intent covers (it should abstain)."""
    answerer = Answerer(EmbeddedStore(searcher.store_path))
    f1s, answered = [], []
    for split in ("answerable", "unanswerable"):
        path = qa_dir / f"{split}.jsonl"
        for q in read_jsonl(path) if path.exists() else []:
            if answerer.ask(q["question"]).intent is not None:
                continue
            found = fallback_answer(searcher, parse(q["question"], answerer.vocabulary))
            if split == "answerable":
                f1s.append(token_f1(found.answer, str(q["ground_truth"])) if found else 0.0)
            else:
                answered.append(found is not None)
    print(
        f"\nQA fallback: {len(f1s)} answerable questions no intent covers: token F1 without fallback 0.000 "
        f"(abstains), with fallback {statistics.mean(f1s) if f1s else 0:.3f}; "
        f"{sum(answered)} of {len(answered)} unanswerable questions no intent covers answered (should abstain)"
    )
    content = [q for q in read_jsonl(qa_dir / "answerable.jsonl") if q.get("type") == "content"]
    stress = [fallback_answer(searcher, parse(q["question"], answerer.vocabulary)) for q in content]
    scores = [token_f1(f.answer, str(q["ground_truth"])) if f else 0.0 for f, q in zip(stress, content, strict=True)]
    print(
        f"stress test, the fallback alone on all {len(content)} content questions (intents ignored): "
        f"token F1 {statistics.mean(scores):.3f}, abstained on {sum(f is None for f in stress)}"
    )


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
    p.add_argument("--no-dense", action="store_true", help="skip the dense rows (as without the extra)")
    p.add_argument("--fallback", action="store_true", help="also score the QA fallback on uncovered questions")
    args = p.parse_args(argv)
    try:
        qa_dir = Path(args.qa) if args.qa else qa_path()
        questions = read_jsonl(qa_dir / "answerable.jsonl")
        lexical = Searcher(store_path(args.store))
        searchers = {False: lexical}
        if not args.no_dense:
            searchers[True] = Searcher(store_path(args.store), use_dense=True)
            if searchers[True].dense_off:
                print(f"{searchers[True].dense_off}: dense rows left out")
        print_table(measure(searchers, questions), len(questions))
        print()
        for with_dense, searcher in searchers.items():
            if with_dense and searcher.encoder is None:
                continue
            p50, p90 = latency(searcher, questions)
            what = "with dense, query encoding included" if with_dense else "default, lexical + graph"
            print(f"search latency ({what}, k=20, {len(questions)} queries): p50 {p50:.1f} ms, p90 {p90:.1f} ms")
        if args.fallback:
            fallback_effect(lexical, qa_dir)
    except KGError as exc:
        print(f"bench_search: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
