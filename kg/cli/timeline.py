"""`kg timeline "<bug title or PR link>" --product P`: an item's events in order, each with its artifact ids."""

from __future__ import annotations

import argparse

from kg.analysis.timeline import timelines
from kg.cli import add_store_option
from kg.cli.table import print_table
from kg.paths import store_path
from kg.query.sparql import EmbeddedStore


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("timeline", help="a bug's, PR's or feature's dated events, each with its artifact ids")
    p.add_argument("name", help="the bug's title, the PR's link or the feature's name (whole, any case)")
    p.add_argument("--product", required=True, help="the product whose graph holds the item")
    add_store_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for line in timelines(EmbeddedStore(store_path(args.store)), args.name, args.product):
        print(f"{line.kind} {line.label!r} ({line.item})")
        print_table(
            ["#", "at", "event", "state after", "by", "artifacts"],
            [[str(e.sequence), e.at, e.what, e.state, e.agent or "", ", ".join(e.cites)] for e in line.events],
        )
    return 0
