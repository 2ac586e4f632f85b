"""`kg stats`: triples per graph, instances per class, edges per property."""

from __future__ import annotations

import argparse
import json

from kg.cli import add_backend_options, add_deployment_option, open_args_backend
from kg.cli.table import print_table
from kg.query.deployment import ShardedBackend, events_path
from kg.query.store import stats

#: Column headers of each `kg stats` table, by its title.
COLUMNS = {
    "triples per graph": ["graph", "triples"],
    "instances per class": ["class", "instances"],
    "edges per property": ["property", "edges"],
}
#: With --deployment: each replica's calls answered in this run, and its failovers and health-check skips as every
#: process recorded them beside the deployment file (kg.query.deployment.events_path).
REPLICAS = "replicas (served: this run; failed and skipped: every run)"
REPLICA_COLUMNS = ["shard", "replica", "served", "failed", "skipped"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("stats", help="triples per graph, instances per class, edges per property")
    add_backend_options(p)
    p.add_argument("--json", action="store_true", help="print the counts as JSON: {table: {name: count}}")
    add_deployment_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    backend = open_args_backend(args)
    tables = stats(backend)
    replicas = backend.counters() if isinstance(backend, ShardedBackend) else []
    events = events_path(backend.deployment.path) if isinstance(backend, ShardedBackend) else None
    if args.json:
        out: dict[str, object] = {title: dict(rows) for title, rows in tables.items()}
        if replicas:
            out[REPLICAS] = [dict(zip(REPLICA_COLUMNS, r, strict=True)) for r in replicas]
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    for i, (title, rows) in enumerate(tables.items()):
        if i:
            print()
        print(title)
        print_table(COLUMNS[title], rows)
    if replicas:
        print(f"\n{REPLICAS}")
        print_table(REPLICA_COLUMNS, [list(r) for r in replicas])
        print(f"failed and skipped are counted from {events} (delete it to start again)")
    return 0
