"""Time the steward's cycle as a steward runs it: `kg align --target ontology` -> `kg align review` ->
`kg build --source erb`, each a fresh `kg` process, into a fresh store.

    ERB_DATA=../shared/erb python bench/bench_cycle.py [--repeat 3] [--reject gmail:mailbox_owner=prov:wasAttributedTo]

`--reject SUBJECT=OBJECT` sets that row's predicate_modifier to Not before the review, as a steward would in a
spreadsheet. Prints the seconds of each step (median over the runs) and the whole cycle.
"""

from __future__ import annotations

import argparse
import csv
import io
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KG = [sys.executable, "-m", "kg"]


def reject(path: Path, rows: set[tuple[str, str]]) -> None:
    """The steward's edit: predicate_modifier Not on the named rows (the YAML header kept as it is)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = "".join(x for x in lines if x.startswith("#"))
    table = list(csv.DictReader(io.StringIO("".join(x for x in lines if not x.startswith("#"))), delimiter="\t"))
    for row in table:
        if (row["subject_id"], row["object_id"]) in rows:
            row["predicate_modifier"] = "Not"
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(table[0]), delimiter="\t", lineterminator="\n")
    writer.writeheader()
    writer.writerows(table)
    path.write_text(header + out.getvalue(), encoding="utf-8")


def timed(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def one_cycle(folder: Path, rejected: set[tuple[str, str]]) -> dict[str, float]:
    proposed, approved, store = folder / "proposed.tsv", folder / "approved.tsv", folder / "store"
    seconds = {"align": timed([*KG, "align", "--target", "ontology", "--out", str(proposed)])}
    reject(proposed, rejected)
    review = [*KG, "align", "review", str(proposed), "--reviewer", "orcid:0000-0002-1825-0097"]
    seconds["review"] = timed([*review, "--out", str(approved)])
    build = [*KG, "build", "--source", "erb", "--mapping", str(approved), "--store", str(store)]
    seconds["build"] = timed(build)
    seconds["cycle"] = sum(seconds.values())
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reject", action="append", default=[], metavar="SUBJECT=OBJECT")
    args = parser.parse_args()
    rejected = {(s, o) for s, _, o in (r.partition("=") for r in args.reject)}
    runs = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            runs.append(one_cycle(Path(tmp), rejected))
    print("step     median s   runs")
    for step in ("align", "review", "build", "cycle"):
        values = [r[step] for r in runs]
        print(f"{step:8} {statistics.median(values):8.2f}   {' '.join(f'{v:.2f}' for v in values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
