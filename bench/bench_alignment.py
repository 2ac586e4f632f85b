"""Benchmark `kg align` over all 36 ERB source pairs: stage times, and greedy vs top-1 vs Hungarian side by
side (selection time over the 36 pairs and P/R/F1 against the curated reference and the blind one).

    .venv/bin/python bench/bench_alignment.py [--erb PATH] [--repeat N]

The budget is 5 s for all 36 pairs on 2 cores; the end-to-end time includes reading the JSON files.

With the `[peer]` extra (`pip install -e '.[peer]'`), Valentine's matchers run once on the same fields, over the
18 source pairs the two references cover, 1-to-1 by the Hungarian assignment on their scores, and are scored
against both references next to this project's Hungarian rows: at their default threshold, and at the threshold
that maximises exact-match F1 on that reference (optimistic: chosen on the rows it is scored on). Cupid and
Coma with instances also need NLTK data, built once by `python bench/nltk_offline.py`. `--no-peer` skips them
(Cupid and SimilarityFlooding take up to a minute or more each here).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import pandas as pd
from valentine_peer import PeerRun, best_threshold, mapping_frame, runs

from alignment.evaluate import SPLITS, reference_frame, score_table, scores
from alignment.fields import load_corpus
from alignment.pipeline import align_corpus
from alignment.profile import profiles
from alignment.similarity import similarity
from kg.cli.table import format_table
from kg.paths import erb_path

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
# The curated reference (12 source pairs, 4 of them the tuning pairs) and the blind one (6 other pairs,
# curated without seeing the matcher).
REFERENCES = {
    "curated": DATA / "erb_reference.sssom.tsv",
    "blind": DATA / "erb_blind_reference.sssom.tsv",
}
BUDGET_SECONDS = 5.0


def timed(fn, *args):
    start = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--erb", help="ERB folder (default: $ERB_DATA, else ../shared/erb)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (median reported)")
    parser.add_argument("--no-peer", action="store_true", help="skip Valentine's matchers")
    args = parser.parse_args()
    erb = erb_path(args.erb)

    stage = {"load": [], "profile": [], "similarity": [], "end to end (36 pairs)": []}
    selection = {"greedy": [], "top1": [], "hungarian": []}
    for _ in range(args.repeat):
        corpus, t_load = timed(load_corpus, erb)
        frame, t_profile = timed(profiles, corpus)
        _, t_sim = timed(similarity, frame.reset_index(drop=True))
        start = time.perf_counter()
        result = align_corpus(load_corpus(erb))
        stage["end to end (36 pairs)"].append(time.perf_counter() - start)
        for name, seconds in (("load", t_load), ("profile", t_profile), ("similarity", t_sim)):
            stage[name].append(seconds)
        for method in selection:
            selection[method].append(result.pairs[f"{method}_seconds"].sum())

    print(
        f"ERB sample at {erb}: {result.pairs.shape[0]} source pairs, {len(result.profiles)} fields, "
        f"median of {args.repeat} runs"
    )
    print(format_table(["stage", "seconds"], [[k, f"{statistics.median(v):.3f}"] for k, v in stage.items()]))
    total = statistics.median(stage["end to end (36 pairs)"])
    print(f"budget {BUDGET_SECONDS:.1f} s: {'met' if total <= BUDGET_SECONDS else 'MISSED'} ({total:.2f} s)\n")

    references = {name: reference_frame(path) for name, path in REFERENCES.items()}
    rows = []
    for name, reference in references.items():
        table = score_table(result.mappings, reference).set_index(["split", "method", "scope"])
        for split in SPLITS if name == "curated" else ("all",):  # the blind one has no tuning pair
            for method, times in selection.items():
                exact, any_ = table.loc[(split, method, "exact")], table.loc[(split, method, "any")]
                rows.append(
                    [
                        name,
                        split,
                        method,
                        f"{1000 * statistics.median(times):.2f}",
                        int(result.pairs[method].sum()),
                        f"{exact.precision:.3f}",
                        f"{exact.recall:.3f}",
                        f"{exact.f1:.3f}",
                        f"{any_.precision:.3f}",
                        f"{any_.recall:.3f}",
                        f"{any_.f1:.3f}",
                    ]
                )
    print(
        "selection time and pairs kept over all 36 pairs; P/R/F1 on each reference's source pairs: curated = all "
        "12, the 4 the cut-offs were tuned on, the 8 held out; blind = its 6 pairs, none tuned on (exact = "
        "skos:exactMatch rows only, any = any predicate)"
    )
    print(
        format_table(
            [
                "reference",
                "split",
                "method",
                "select ms",
                "pairs kept",
                "P exact",
                "R exact",
                "F1 exact",
                "P any",
                "R any",
                "F1 any",
            ],
            rows,
        )
    )
    if not args.no_peer:
        print_peer(result.mappings["hungarian"], total, runs(corpus, references), references)


def peer_row(reference: str, name: str, seconds: str, threshold: str, found: pd.DataFrame, ref: pd.DataFrame) -> list:
    exact, any_ = scores(found, ref, True), scores(found, ref, False)
    return [
        reference,
        name,
        seconds,
        threshold,
        *(f"{exact[k]:.3f}" for k in ("precision", "recall", "f1")),
        f"{any_['f1']:.3f}",
    ]


def print_peer(
    ours: pd.DataFrame, ours_seconds: float, peers: list[PeerRun] | None, references: dict[str, pd.DataFrame]
) -> None:
    """Valentine's matchers next to this project's Hungarian selection, on each reference's source pairs."""
    print()
    if peers is None:
        print("Valentine peer: not installed (pip install -e '.[peer]'); its rows are skipped")
        return
    rows = []
    for reference, ref in references.items():
        rows.append(peer_row(reference, "ekg kg align (Hungarian)", f"{ours_seconds:.2f}", "default", ours, ref))
        for run in peers:
            if run.chosen is None:
                rows.append([reference, run.name, "not run", "", "", "", "", ""])
                continue
            seconds = f"{run.seconds:.2f}"
            default = mapping_frame(run.chosen, run.default_threshold)
            rows.append(peer_row(reference, run.name, seconds, f"{run.default_threshold:g} (default)", default, ref))
            best, _ = best_threshold(run.chosen, ref, exact=True)
            found = mapping_frame(run.chosen, best)
            rows.append(peer_row(reference, run.name, seconds, f"{best:.3f} (best on this reference)", found, ref))
    print(
        "peer: Valentine's matchers, 1-to-1 by the Hungarian assignment on their scores (rows typed exactMatch), "
        "scored on each reference's source pairs; seconds: Valentine over the 18 covered pairs, kg align end to "
        "end over all 36; a best threshold is chosen on the reference it is scored on, so it is optimistic"
    )
    print(
        format_table(["reference", "matcher", "seconds", "threshold", "P exact", "R exact", "F1 exact", "F1 any"], rows)
    )
    for run in peers:
        if run.not_run:
            print(f"not run: {run.name}: {run.not_run}")


if __name__ == "__main__":
    main()
