"""`kg timeline "<bug title or PR link>" --product P`: an item's events in order, each with its artifact ids."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from kg.analysis.timeline import timelines
from kg.cli import add_store_option
from kg.cli.table import print_table
from kg.paths import store_path
from kg.query.people import People
from kg.query.sparql import EmbeddedStore


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("timeline", help="a bug's, PR's or feature's dated events, each with its artifact ids")
    p.add_argument("name", help="the bug's title, the PR's link or the feature's name (whole, any case)")
    p.add_argument("--product", required=True, help="the product whose graph holds the item")
    p.add_argument("--json", action="store_true", help="print the timelines as JSON (with a `people` map)")
    add_store_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    store = EmbeddedStore(store_path(args.store))
    lines = timelines(store, args.name, args.product)
    people = People(store)
    if args.json:
        agents = [e.agent for line in lines for e in line.events if e.agent]
        out = {"timelines": [asdict(line) for line in lines], "people": people.people_map(agents)}
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    for line in lines:
        print(f"{line.kind} {line.label!r} ({line.item})")
        print_table(
            ["#", "at", "event", "state after", "by", "artifacts"],
            [
                [str(e.sequence), e.at, e.what, e.state, people.shown(e.agent) if e.agent else "", ", ".join(e.cites)]
                for e in line.events
            ],
        )
    return 0
