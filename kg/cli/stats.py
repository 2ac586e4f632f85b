"""`kg stats`: triples per graph, instances per class, edges per property."""

from __future__ import annotations

import argparse
import json

from kg.cli import add_backend_options, add_deployment_option, open_args_backend
from kg.cli.table import print_table
from kg.query.store import stats

#: Column headers of each `kg stats` table, by its title.
COLUMNS = {
    "triples per graph": ["graph", "triples"],
    "instances per class": ["class", "instances"],
    "edges per property": ["property", "edges"],
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("stats", help="triples per graph, instances per class, edges per property")
    add_backend_options(p)
    p.add_argument("--json", action="store_true", help="print the counts as JSON: {table: {name: count}}")
    add_deployment_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    tables = stats(open_args_backend(args))
    if args.json:
        print(json.dumps({title: dict(rows) for title, rows in tables.items()}, indent=2, ensure_ascii=False))
        return 0
    for i, (title, rows) in enumerate(tables.items()):
        if i:
            print()
        print(title)
        print_table(COLUMNS[title], rows)
    return 0
