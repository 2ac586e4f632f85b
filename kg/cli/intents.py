"""`kg intents`: the question intents, their answer types and the SPARQL each runs."""

from __future__ import annotations

import argparse

from kg.cli.table import print_table
from kg.qa.intents import load_intents


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("intents", help="list the question intents and their queries")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rows = [[i.name, i.answer_type, f"sparql/{i.query}.rq", f"sparql/{i.proof}.rq",
             (i.match.__doc__ or "").strip().splitlines()[0] if i.match.__doc__ else ""]
            for i in load_intents()]
    print_table(["intent", "type", "query", "proof", "wording it covers"], rows)
    return 0
