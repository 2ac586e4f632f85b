"""Benchmark what checking a reading's completeness costs: `kg ask --batch` over 1,514 questions and one `kg ask`
in a fresh process, for this checkout and for an earlier revision (the peer), run in turn in the same minutes on
the same store.

    .venv/bin/python bench/bench_reading.py [--base 6b0cbaa] [--rounds 3] [--store .kg/store]

The peer is checked out with `git worktree add --detach` into a temporary folder and run from there with this
interpreter. Targets: the batch within 1.15x the peer's time, and one question in a fresh process <= 0.4 s.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.paths import herb_path, store_path  # noqa: E402

#: The reader before every word of a question was accounted for and operators were read (issue 33).
DEFAULT_BASE = "6b0cbaa"
QUESTION = "Which company has the most unresolved bugs in SentimentForce?"


def batch_file(herb: Path, size: int, folder: Path) -> Path:
    questions = [
        json.loads(line)["question"]
        for name in ("answerable", "unanswerable")
        for line in (herb / "qa" / "dev" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    path = folder / "batch.jsonl"
    lines = (json.dumps({"question": q}) for q in itertools.islice(itertools.cycle(questions), size))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def timed(code: Path, *args: str) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ekg" if (code / "ekg").is_dir() else "kg", *args],
        cwd=code,
        capture_output=True,
        env={"PYTHONPATH": str(code)},
    )
    if done.returncode == 2:  # 3 and 4 are outcomes (uncertain, unsupported), not failures
        raise SystemExit(done.stderr.decode())
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base", default=DEFAULT_BASE, help=f"the peer revision (default: {DEFAULT_BASE})")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--size", type=int, default=1514)
    p.add_argument("--store", help="store directory (default: $KG_STORE, else ./.kg/store)")
    p.add_argument("--herb", help="HERB data folder (default: $HERB_DATA, else ../shared/herb)")
    args = p.parse_args(argv)
    store = str(store_path(args.store).resolve())
    with tempfile.TemporaryDirectory() as tmp:
        peer = Path(tmp) / "peer"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(peer), args.base], cwd=ROOT, check=True)
        try:
            batch = batch_file(herb_path(args.herb), args.size, Path(tmp))
            times: dict[str, dict[str, list[float]]] = {
                "peer": {"batch": [], "ask": []},
                "this": {"batch": [], "ask": []},
            }
            for _ in range(args.rounds):
                for name, code in (("peer", peer), ("this", ROOT)):
                    times[name]["batch"].append(
                        timed(code, "ask", "--store", store, "--batch", str(batch), "--out", f"{tmp}/{name}.jsonl")
                    )
                    times[name]["ask"].append(timed(code, "ask", "--store", store, QUESTION))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(peer)], cwd=ROOT, check=False)
    med = {n: {k: statistics.median(v) for k, v in t.items()} for n, t in times.items()}
    print(f"{args.size}-question batch and one question, median of {args.rounds} rounds (wall s)")
    for name in ("peer", "this"):
        runs = ", ".join(f"{x:.2f}" for x in times[name]["batch"])
        label = args.base if name == "peer" else "checkout"
        print(f"  {name:5} ({label}): batch {med[name]['batch']:.2f} [{runs}]  ask {med[name]['ask']:.2f}")
    ratio = med["this"]["batch"] / med["peer"]["batch"]
    print(f"  batch ratio this/peer: {ratio:.2f} (target <= 1.15)")
    print(f"  one question in a fresh process: {med['this']['ask']:.2f} s (target <= 0.4)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
