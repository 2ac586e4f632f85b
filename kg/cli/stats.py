"""`kg stats`: triples per graph, instances per class, edges per property."""

from __future__ import annotations

import argparse

from kg.cli import add_store_option
from kg.cli.table import print_table
from kg.paths import store_path
from kg.store import stats


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("stats", help="triples per graph, instances per class, edges per property")
    add_store_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for title, rows in stats(store_path(args.store)).items():
        print(f"\n{title}")
        print_table([title.split()[-1].rstrip("s"), title.split()[0]], [[n, f"{c:,}"] for n, c in rows])
    return 0
