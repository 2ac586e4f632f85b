"""`kg intents`: the question intents, their answer types, the SPARQL each runs and the state words they use,
then what each state word means (kg/qa/states.py)."""

from __future__ import annotations

import argparse

from kg.cli.table import print_table
from kg.qa.intents import load_intents
from kg.qa.states import INTENT_STATES, STATE_WORDS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("intents", help="list the question intents, their queries and the state words they use")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rows = [
        [
            i.name,
            i.answer_type,
            f"sparql/{i.query}.rq",
            f"sparql/{i.proof}.rq",
            ", ".join(INTENT_STATES.get(i.name, ())) or "-",
            (i.match.__doc__ or "").strip().splitlines()[0] if i.match.__doc__ else "",
        ]
        for i in load_intents()
    ]
    print_table(["intent", "type", "query", "proof", "states", "wording it covers"], rows)
    print("\nstate words (what the queries test):")
    for word, meaning in STATE_WORDS.items():
        print(f"  {word}: {meaning}")
    return 0
