"""`kg validate`: SHACL report on the built store; exit 0 when it conforms, 1 when there are violations."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict

from kg.cli import add_backend_options, open_args_backend
from kg.cli.table import print_table
from kg.ingest.validate import ENGINES, Progress, ResultRow, ValidationReport, validate
from kg.namespaces import curie

COLUMNS = ["graph", "severity", "focus", "path", "value", "message"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="check the store against the SHACL shapes (ontology/shapes.ttl)")
    add_backend_options(p, "validate the data of")
    p.add_argument("--product", metavar="NAME", help="validate only this product's graph")
    p.add_argument(
        "--format",
        choices=["table", "json", "turtle"],
        default="table",
        help="table (default), json, or turtle: a W3C SHACL sh:ValidationReport other SHACL tools read",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default="sparql",
        help="sparql: the shapes compiled to SPARQL, run in the store or --endpoint (default); pyshacl: the reference "
        "(local store only)",
    )
    p.set_defaults(func=run)


def table_row(row: ResultRow) -> list[str]:
    return [row.graph, row.severity, curie(row.focus), curie(row.path), curie(row.value), row.message]


def summary(report: ValidationReport) -> str:
    verdict = "conforms" if report.conforms else f"{report.violations} violation(s)"
    others = len(report.rows) - report.violations
    extra = f", {others} warning(s)/info" if others else ""
    return f"{len(report.graphs)} graph(s) validated: {verdict}{extra}"


@contextmanager
def terminal_bar(quiet: bool = False) -> Iterator[Callable[[int], Progress]]:
    """A progress bar on stderr when it is a terminal (and not --quiet); nothing in pipes, files and CI logs."""
    from tqdm import tqdm

    bars = []

    def start(steps: int) -> Progress:
        shown = not quiet and sys.stderr.isatty()
        bars.append(tqdm(total=steps, desc="kg validate", unit="step", leave=False, disable=not shown))

        def step(name: str, done: int) -> None:
            bars[0].set_postfix_str(name.rsplit("#", 1)[-1], refresh=False)
            bars[0].update(done - bars[0].n)

        return step

    try:
        yield start
    finally:
        for bar in bars:
            bar.close()


def run(args: argparse.Namespace) -> int:
    backend = open_args_backend(args)
    with terminal_bar(args.quiet) as progress:
        report = validate(backend, args.product, args.engine, progress)
    if args.format == "turtle":
        from kg.ingest.report import report_turtle

        print(report_turtle(report, backend), end="")
    elif args.format == "json":
        print(
            json.dumps(
                {
                    "conforms": report.conforms,
                    "violations": report.violations,
                    "graphs": report.graphs,
                    "results": [asdict(r) for r in report.rows],
                },
                indent=2,
            )
        )
    else:
        if report.rows:
            print_table(COLUMNS, [table_row(r) for r in report.rows])
        print(summary(report))
    return 0 if report.conforms else 1
