"""`kg eval`: score `kg ask` on HERB's questions, with a BM25 retrieval baseline in the same run."""

from __future__ import annotations

import argparse
import json

from kg.cli import add_backend_options, add_deployment_option, add_herb_option, open_args_backend
from kg.cli.table import print_table
from kg.paths import herb_path, open_output, output_path, qa_path
from kg.qa.answer import Answerer
from kg.qa.evaluate import bm25_baseline, evaluate


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="score answers on HERB dev questions (set F1, token F1, abstention, citations)")
    add_backend_options(p, "answer from")
    add_deployment_option(p)
    p.add_argument(
        "--qa", metavar="DIR", help="folder with answerable.jsonl and unanswerable.jsonl (default: <HERB>/qa/dev)"
    )
    add_herb_option(p)
    p.add_argument(
        "--results",
        metavar="FILE",
        default="eval-results.jsonl",
        help="per-question results (default: eval-results.jsonl)",
    )
    p.add_argument("--no-baseline", action="store_true", help="skip the BM25 baseline row")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    qa_dir = qa_path(args.qa, args.herb)
    output_path(args.results)
    result = evaluate(Answerer(open_args_backend(args)), qa_dir)
    with open_output(args.results) as fh:
        for row in result.rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    n = len(result.rows)
    print(
        f"{n} questions in {result.seconds:.2f}s ({1000 * result.seconds / max(n, 1):.1f} ms/question); "
        f"per-question results in {args.results}\n"
    )
    print_table(
        ["type", "n", "score (F1 | abstain acc.)", "false abstention", "citation recall", "citation precision"],
        result.table(),
    )
    if not args.no_baseline:
        baseline = bm25_baseline(herb_path(args.herb), qa_dir)
        print("\nBM25 baseline (bm25s over the product's artifacts), citation recall / precision at k")
        print_table(["k", "recall", "precision"], [[k, f"{r:.3f}", f"{p:.3f}"] for k, (r, p) in baseline.items()])
    return 0
