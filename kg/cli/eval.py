"""`kg eval`: score `kg ask` on HERB's questions, with a BM25 retrieval baseline in the same run."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from kg.cli import add_backend_options, add_deployment_option, add_force_option, add_herb_option, open_args_backend
from kg.cli.table import print_table
from kg.errors import KGError
from kg.paths import herb_path, open_output, output_path, qa_path
from kg.qa.answer import Answerer
from kg.qa.evaluate import COLUMNS, bm25_baseline, evaluate, read_jsonl
from kg.qa.rewordings import score_rewordings


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
    p.add_argument(
        "--rewordings",
        metavar="FILE",
        help="score a batch of reworded dev questions (JSON lines naming their original by split and line) "
        "against HERB's own wording instead: F1 ratio, answerables not answered by outcome, proofs the "
        "original did not give, unanswerables abstaining",
    )
    add_force_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    qa_dir = qa_path(args.qa, args.herb)
    if args.rewordings:
        return run_rewordings(args, qa_dir)
    output_path(args.results, args.force)
    result = evaluate(Answerer(open_args_backend(args)), qa_dir)
    with open_output(args.results, force=args.force) as fh:
        for row in result.rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    n = len(result.rows)
    print(
        f"{n} questions in {result.seconds:.2f}s ({1000 * result.seconds / max(n, 1):.1f} ms/question); "
        f"per-question results in {args.results}\n"
    )
    print_table(
        ["type", "n", "F1 | abst. acc.", "false abstention", "citation recall", "citation precision"],
        result.table(),
    )
    print()
    print_table(["outcomes", "n", *(name for name, _ in COLUMNS)], result.outcomes())
    if not args.no_baseline:
        baseline = bm25_baseline(herb_path(args.herb), qa_dir)
        print("\nBM25 baseline (bm25s over the product's artifacts), citation recall / precision at k")
        print_table(["k", "recall", "precision"], [[k, f"{r:.3f}", f"{p:.3f}"] for k, (r, p) in baseline.items()])
    return 0


def run_rewordings(args: argparse.Namespace, qa_dir: Path) -> int:
    """`--rewordings FILE`: the batch's figures beside its originals', and one line per reworded question
    whose answer differs in the results file."""
    batch = read_jsonl(Path(args.rewordings), "rewordings file")
    if not batch:
        raise KGError(f"rewordings file {args.rewordings} holds no questions: nothing to score")
    output_path(args.results, args.force)
    result = score_rewordings(Answerer(open_args_backend(args)), batch, qa_dir)
    with open_output(args.results, force=args.force) as fh:
        for row in result["rows"]:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    outcomes = ", ".join(f"{k} {v}" for k, v in result["answerable_not_answered_by_outcome"].items()) or "-"
    print_table(
        ["figure", "value"],
        [
            [
                "lines (answerable / unanswerable)",
                f"{result['lines']} ({result['answerable']} / {result['unanswerable']})",
            ],
            ["structured F1, rewordings", f"{result['structured_f1']:.3f}"],
            ["structured F1, originals", f"{result['original_structured_f1']:.3f}"],
            ["ratio", f"{result['f1_ratio']:.3f}" if result["f1_ratio"] is not None else "-"],
            ["answerables not answered", f"{result['answerable_not_answered']:.3f} ({outcomes})"],
            ["answerables proved absent, original answered", str(result["answerable_proofs_original_answered"])],
            ["unanswerables abstaining", f"{result['unanswerable_abstain']:.3f}" if result["unanswerable"] else "-"],
            [
                "unanswerables abstaining, where the original abstains",
                f"{share:.3f}" if (share := result["unanswerable_abstain_original_abstained"]) is not None else "-",
            ],
            ["same outcome and answer as the original", f"{result['same_as_original']:.3f}"],
        ],
    )
    return 0
