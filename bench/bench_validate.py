"""Benchmark `kg validate` engines side by side on a built store: seconds, violations, and whether each engine's
rows equal the reference's (pyshacl) row for row: graph, focus, path, value, message, shape, component.

    .venv/bin/python bench/bench_validate.py --store /tmp/kgfull/store [--repeat 3]

The floor row is what any engine that copies the data out of the store pays before validating anything:
dumping every graph as N-Triples (pyshacl then parses that into rdflib; so would pyrudof or any external
engine). Timings on a shared machine are noisy: compare the rows of one run, not runs of different days.
Target (issue 16): all products in <= 8 s with the reference's 22 violations.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from pyoxigraph import RdfFormat

from kg.cli.table import print_table
from kg.errors import KGError
from kg.ingest.validate import ENGINES, ResultRow, validate
from kg.paths import store_path
from kg.query.sparql import EmbeddedStore

TARGET_S = 8.0
REFERENCE = "pyshacl"


def identity(row: ResultRow) -> tuple[str, ...]:
    return (row.graph, row.focus, row.path, row.value, row.message, row.shape, row.component, row.severity)


def timed_validate(store: Path, engine: str, repeat: int) -> tuple[float, list[ResultRow]]:
    times, rows = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        rows = validate(store, engine=engine).rows
        times.append(time.perf_counter() - started)
    return statistics.median(times), rows


def dump_floor(store: Path) -> float:
    """Seconds to serialise every named graph to N-Triples: the copy a non-Oxigraph engine cannot avoid."""
    started = time.perf_counter()
    oxi = EmbeddedStore(store).store
    for graph in oxi.named_graphs():
        oxi.dump(format=RdfFormat.N_TRIPLES, from_graph=graph)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--store", help="store directory (default: $KG_STORE, else ./.kg/store)")
    p.add_argument("--repeat", type=int, default=1, help="runs per engine; the median is reported")
    p.add_argument("--engines", nargs="+", choices=ENGINES, default=list(ENGINES))
    args = p.parse_args(argv)
    try:
        store = store_path(args.store)
        results = {engine: timed_validate(store, engine, max(1, args.repeat)) for engine in args.engines}
        floor = dump_floor(store)
    except KGError as exc:
        print(f"bench_validate: {exc}", file=sys.stderr)
        return 2
    reference = sorted(map(identity, results[REFERENCE][1])) if REFERENCE in results else None
    table = []
    for engine, (seconds, rows) in results.items():
        equal = (
            "(reference)"
            if engine == REFERENCE
            else "n/a"
            if reference is None
            else ("yes" if sorted(map(identity, rows)) == reference else "NO")
        )
        violations = sum(r.severity == "Violation" for r in rows)
        table.append([engine, f"{seconds:.2f}", violations, equal])
    table.append(["floor: dump all graphs as N-Triples", f"{floor:.2f}", "", ""])
    print(f"\nkg validate on {store}, median of {max(1, args.repeat)} run(s); target <= {TARGET_S} s\n")
    print_table(["engine", "seconds", "violations", "equal to reference"], table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
