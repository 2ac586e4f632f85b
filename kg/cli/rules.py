"""`kg rules`: the named text-derivation rules and what each does."""

from __future__ import annotations

import argparse
import json

from kg.cli.table import print_table
from kg.ingest.rules import load_rules


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help="list the named extraction rules")
    p.add_argument("--json", action="store_true", help="print the rules as JSON: {rule: what it derives}")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "json", False):
        print(json.dumps({r.name: r.summary for r in load_rules().values()}, indent=2, ensure_ascii=False))
        return 0
    print_table(["rule", "what it derives"], [[r.name, r.summary] for r in load_rules().values()])
    return 0
