"""Time every question of the blind sets (tests/data: new kinds, meaning shifts, negation rewordings) against
HERB's dev questions, in one process on one store, so a question people ask in their own words costs what a
HERB question costs (issue 34; docs/benchmarks.md).

    python bench/bench_blind_time.py [--store .kg/store] [--qa DIR] [--rounds 1]

Each question is asked once per round after one warm-up pass over the dev questions (the vocabulary and the
per-product tables are read then). Prints p50 / p99 / max per group and the slowest blind questions. Floors:
the blind sets' p99 within 3x the dev questions' p99, and no blind question over 2 s.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import time
from pathlib import Path

from kg.errors import KGError
from kg.paths import qa_path, store_path
from kg.qa.answer import Answerer
from kg.qa.evaluate import read_jsonl
from kg.query.sparql import EmbeddedStore

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
BLIND = ("new_kinds_blind_*.jsonl", "shifts_blind_*.jsonl", "negation_blind_*.jsonl")
P99_RATIO = 3.0
MAX_SECONDS = 2.0


def timed(answerer: Answerer, questions: list[str]) -> list[tuple[float, str]]:
    """(seconds, question) for each question, asked in turn."""
    out = []
    for q in questions:
        start = time.perf_counter()
        with contextlib.suppress(KGError):  # a question the parser refuses with its reason: timed as asked
            answerer.ask(q)
        out.append((time.perf_counter() - start, q))
    return out


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", help="store directory (default: $KG_STORE, else ./.kg/store)")
    ap.add_argument("--qa", help="folder with answerable.jsonl and unanswerable.jsonl (default: HERB's dev)")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    answerer = Answerer(EmbeddedStore(store_path(args.store)))
    dev = [r["question"] for s in ("answerable", "unanswerable") for r in read_jsonl(qa_path(args.qa) / f"{s}.jsonl")]
    blind = list(dict.fromkeys(r["question"] for p in BLIND for f in sorted(DATA.glob(p)) for r in read_jsonl(f)))
    timed(answerer, dev)  # warm-up: vocabularies and per-product tables
    dev_times: list[float] = []
    blind_runs: list[tuple[float, str]] = []
    for _ in range(args.rounds):
        dev_times += [t for t, _ in timed(answerer, dev)]
        blind_runs += timed(answerer, blind)
    dev_s, blind_s = summary(dev_times), summary([t for t, _ in blind_runs])
    print(json.dumps({"dev": dev_s, "blind": blind_s}))
    for seconds, question in sorted(blind_runs, reverse=True)[:5]:
        print(f"  {seconds * 1000:8.1f} ms  {question[:100]}")
    ratio = blind_s["p99_ms"] / max(dev_s["p99_ms"], 1e-9)
    slow = blind_s["max_ms"] / 1000
    verdict = "OK" if ratio <= P99_RATIO and slow <= MAX_SECONDS else "OVER"
    print(f"blind p99 / dev p99 = {ratio:.2f} (floor {P99_RATIO}); slowest {slow:.2f} s (floor {MAX_SECONDS} s)")
    print(verdict)


if __name__ == "__main__":
    main()
