"""`kg deployment check FILE`: each replica's state, for an operator before a switch and for monitoring."""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from kg.cli.options import add_deadline_option
from kg.cli.table import print_table
from kg.errors import KGError
from kg.query.deployment import Shard, health, load_deployment
from kg.query.remote import RemoteEndpoint

#: The columns `kg deployment check` prints, one row per replica (then why each one not healthy is not).
COLUMNS = ["shard", "replica", "reachable", "manifest", "latency ms", "state"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deployment", help="check the shards and replicas of a deployment file")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check",
        help="print each replica's state (reachable, manifest equal, latency); exit 1 when a shard has no healthy "
        "replica",
    )
    check.add_argument("file", metavar="FILE", help="the deployment file (written by kg export --shards)")
    check.add_argument("--json", action="store_true", help="print the states as JSON, one object per replica")
    add_deadline_option(check)
    check.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    deployment = load_deployment(Path(args.file))
    deadline = args.deadline or deployment.deadline
    rows = [
        replica_state(name, url, shard, deadline) for name, shard in deployment.shards.items() for url in shard.replicas
    ]
    if args.json:
        print(json.dumps([dict(zip([*COLUMNS, "why"], r, strict=True)) for r in rows], indent=2))
    else:
        print_table(COLUMNS, [list(r[:-1]) for r in rows])
        for shard, url, *_, state, why in rows:
            if why:
                print(f"{shard} {url}: {state}: {why}")
    healthy = {r[0] for r in rows if r[5] == "healthy"}
    down = [name for name in deployment.shards if name not in healthy]
    if not args.json:
        for name in down:
            print(f"{name}: no healthy replica: its products cannot be answered")
        if not down:
            print(f"every shard of {args.file} has a healthy replica")
    return 1 if down else 0


def replica_state(name: str, url: str, shard: Shard, deadline: float) -> tuple[str, str, str, str, str, str, str]:
    """One replica's row: reachable (and how fast it answers `ASK {}`), and whether it holds the shard's manifest."""
    endpoint = RemoteEndpoint(url, token=os.environ[shard.token_env] if shard.token_env else None, timeout=deadline)
    began = time.monotonic()
    try:
        endpoint.ask("ASK {}")
    except KGError as exc:
        return (name, url, "no", "-", "-", "unreachable", str(exc))
    latency = f"{(time.monotonic() - began) * 1000:.0f}"
    try:
        health(endpoint, shard)
    except KGError as exc:
        return (name, url, "yes", "differs", latency, "skipped", str(exc))
    return (name, url, "yes", "equal" if shard.build else "not recorded", latency, "healthy", "")
