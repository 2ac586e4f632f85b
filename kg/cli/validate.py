"""`kg validate`: SHACL report on the built store; exit 0 when it conforms, 1 when there are violations."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from kg.cli import add_store_option
from kg.cli.output import show_progress
from kg.cli.table import curie, print_table
from kg.paths import store_path
from kg.validate import ResultRow, ValidationReport, validate

COLUMNS = ["graph", "severity", "focus", "path", "value", "message"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="check the store against the SHACL shapes (ontology/shapes.ttl)")
    add_store_option(p)
    p.add_argument("--product", metavar="NAME", help="validate only this product's graph")
    p.add_argument("--format", choices=["table", "json"], default="table")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def table_row(row: ResultRow) -> list[str]:
    return [row.graph, row.severity, curie(row.focus), curie(row.path), curie(row.value), row.message]


def graph_bar(quiet: bool):
    """A progress bar over the product graphs (SHACL on all 30 takes over a minute), on a terminal only."""
    if not show_progress(quiet):
        return None
    from tqdm import tqdm

    return lambda graphs: tqdm(graphs, desc="kg validate", unit="graph", leave=False)


def summary(report: ValidationReport) -> str:
    verdict = "conforms" if report.conforms else f"{report.violations} violation(s)"
    others = len(report.rows) - report.violations
    extra = f", {others} warning(s)/info" if others else ""
    return f"{len(report.graphs)} graph(s) validated: {verdict}{extra}"


def run(args: argparse.Namespace) -> int:
    report = validate(store_path(args.store), args.product, progress=graph_bar(args.quiet))
    if args.format == "json":
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
