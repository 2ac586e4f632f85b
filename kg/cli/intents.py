"""`kg intents`: the intent table (kg/qa/intents/table.toml) as its rows say it — answer type, query (and the
evidence queries read once per product) and proof, the cues each requires and forbids, its slots and free
phrase, its timed form — then what each state word means (kg/qa/states.py), then the readings the ontology
gives (one per labelled property, kg/qa/ontology_reader.py); with --registered, the binders,
finishers and absences the rows can name (their registries)."""

from __future__ import annotations

import argparse
import json

from kg.cli.table import print_table
from kg.qa.intents import ABSENCES, FINISHERS, Intent, as_of, table
from kg.qa.intents.binders import BINDERS
from kg.qa.ontology_reader import askable
from kg.qa.states import INTENT_STATES, STATE_WORDS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("intents", help="list the question intents: their cues, slots, queries and state words")
    p.add_argument(
        "--registered",
        action="store_true",
        help="list instead what the rows can name: the registered binders, finishers and absences",
    )
    p.add_argument("--json", action="store_true", help="print the intents and state words as JSON")
    p.set_defaults(func=run)


def registered() -> list[list[str]]:
    """(kind, name, what it does) for every binder, finisher and absence a row of the table may name."""
    rows = []
    for registry in (BINDERS, FINISHERS, ABSENCES):
        for name in registry:
            doc = (registry[name].__doc__ or "").strip().split("\n")[0]
            reads = registry.meta[name].get("reads")
            rows.append([registry.kind, name, doc + (f" (reads: {', '.join(reads)})" if reads else "")])
    return rows


def constraints(i: Intent) -> str:
    """The row's cue constraints in one line: all cues, then each any-group, then the forbidden ones."""
    parts = [*i.requires, *("(" + " | ".join(g) + ")" for g in i.any_of), *(f"not {c}" for c in i.forbids)]
    return " ".join(parts)


def slots(i: Intent) -> str:
    parts = [*i.slots, *(f"no {s}" for s in i.no_slots), *([f"phrase: {i.residue}"] if i.residue else [])]
    return ", ".join(parts) or "-"


#: (column header, JSON key) of each intent's record, in order
COLUMNS = [
    ("intent", "intent"),
    ("type", "type"),
    ("spec.", "specificity"),
    ("query (+ evidence)", "queries"),
    ("proof (derived)", "proof"),
    ("cues", "cues"),
    ("slots", "slots"),
    ("timed form", "timed_form"),
    ("states", "states"),
    ("wording it covers", "says"),
]


def record(i: Intent) -> dict[str, str]:
    """One intent's row, keyed by COLUMNS' JSON keys."""
    values = [
        i.name,
        i.answer_type,
        str(i.specificity),
        " + ".join(f"sparql/{q}.rq" for q in (i.query, *i.evidence)),
        f"sparql/{i.proof}.rq",
        constraints(i),
        slots(i),
        (v.query if (v := as_of(i)) else "-"),
        ", ".join(INTENT_STATES.get(i.name, ())) or "-",
        i.says,
    ]
    return {key: value for (_, key), value in zip(COLUMNS, values, strict=True)}


def run(args: argparse.Namespace) -> int:
    if getattr(args, "registered", False):
        print_table(["kind", "name", "what it does"], registered())
        return 0
    records = [record(i) for i in table()[1]]
    readings = askable()
    if getattr(args, "json", False):
        shown = {"intents": records, "state_words": STATE_WORDS, "ontology_readings": readings}
        print(json.dumps(shown, indent=2, ensure_ascii=False))
        return 0
    print_table([header for header, _ in COLUMNS], [list(r.values()) for r in records])
    print("\nstate words (what the queries test):")
    for word, meaning in STATE_WORDS.items():
        print(f"  {word}: {meaning}")
    print("\nreadings generated from the ontology (every labelled property; kg/qa/ontology_reader.py):\n")
    rows = [[r["label"], r["words"], r["backwards"], r["asks"]] for r in readings]
    print_table(["property", "words", "read backwards", "asks"], rows)
    return 0
