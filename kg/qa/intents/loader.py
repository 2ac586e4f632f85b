"""The intent table (table.toml) read into rows: each row's finisher, absence and binders looked up in their
registries, its evidence queries checked against the library, then the timed forms found in sparql/.

The modules that register finishers, absences and binders are imported here, so that loading the table sees
every one of them."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

# Imported for what they register: the absences and the bug_states finisher; best_features and top_authors.
import kg.qa.intents.asof
import kg.qa.intents.features  # noqa: F401
from kg.qa.intents.binders import BINDERS
from kg.qa.intents.rows import ABSENCES, FINISHERS, Intent, as_of
from kg.query.sparql import library
from kg.registry import Registry

TABLE = Path(__file__).with_name("table.toml")


def subject_rank(row: dict[str, Any], order: list[str]) -> int:
    """Rule 3: how narrow the row's subject is (0 = narrowest; rows naming none come last): the row's `subject`
    where it names one (its subject cue stands in an `any` group), else the first it requires."""
    if "subject" in row and row["subject"] not in order:
        raise ValueError(f"subject {row['subject']!r} is none of [subjects] order ({', '.join(order)})")
    named = [row["subject"]] if "subject" in row else [*row.get("all", ()), *row.get("slots", ())]
    return next((i for i, subject in enumerate(order) if subject in named), len(order))


def _row(name: str, row: dict[str, Any], order: list[str]) -> Intent:
    def pick(key: str, registry: Registry[Any]) -> Any:
        if key not in row:
            return None
        if row[key] not in registry:
            raise ValueError(f"intent {name}: unknown {key} {row[key]!r} (registered: {', '.join(registry)})")
        return registry[row[key]]

    return Intent(
        name=name,
        answer_type=row["type"],
        query=row.get("query", name),
        says=row.get("says", ""),
        ask=row.get("ask", ""),
        requires=tuple(row.get("all", ())),
        any_of=tuple(tuple(g) for g in row.get("any", ())),
        forbids=tuple(row.get("none", ())),
        slots=tuple(row.get("slots", ())),
        no_slots=tuple(row.get("no_slots", ())),
        binders=tuple(row.get("bind", ())),
        residue=row.get("residue"),
        subject=subject_rank(row, order),
        finish=pick("finish", FINISHERS),
        evidence=tuple(row.get("evidence", ())),
        explains=tuple(row.get("explains", ())),
        org=row.get("org", True),
        asof_absent=pick("asof_absent", ABSENCES),
        states=tuple(row.get("states", ())),
        empty=row.get("empty", "absent"),
        filters=tuple(row.get("filters", ())),
        every=row.get("every"),
        universe=tuple(row.get("universe", ())),
    )


@cache
def table_file() -> dict[str, Any]:
    """table.toml as read."""
    return tomllib.loads(TABLE.read_text(encoding="utf-8"))


def constraints() -> frozenset[str]:
    """The cues a complete reading must explain (table.toml's [reading])."""
    return frozenset(table_file()["reading"]["constraints"])


def narrowing() -> frozenset[str]:
    """The cues whose words a reading must use or place otherwise (table.toml's [reading] narrowing)."""
    return frozenset(table_file()["reading"].get("narrowing", ()))


def state_words() -> dict[str, str]:
    """State word -> what it means (table.toml's [states]), in the table's order."""
    return dict(table_file().get("states", {}))


@cache
def table() -> tuple[dict[str, Any], tuple[Intent, ...]]:
    """The table's settings and its rows, in file order (order never decides a choice)."""
    data = table_file()
    order = data["subjects"]["order"]
    rows = tuple(_row(name, row, order) for name, row in data["intent"].items())
    for intent in rows:
        if unknown := BINDERS.missing(intent.binders):
            raise ValueError(f"intent {intent.name}: unknown binder(s) {unknown} (registered: {', '.join(BINDERS)})")
    validate_evidence(rows)
    for intent in rows:
        if unknown := [w for w in intent.states if w not in data.get("states", {})]:
            raise ValueError(f"intent {intent.name}: state word(s) {unknown} not defined in [states]")
    return data.get("residue", {}), rows


def validate_evidence(rows: Sequence[Intent]) -> None:
    """Every evidence query a row names is in the library (a misspelt one would fail only when asked)."""
    for intent in rows:
        if unknown := [e for e in intent.evidence if e not in library()]:
            raise ValueError(f"intent {intent.name}: no evidence query {unknown} in sparql/")


def load_intents() -> list[Intent]:
    """Every row of the table, then the timed forms found in sparql/ (asof_X.rq with asof_X.ask.rq)."""
    rows = list(table()[1])
    return rows + [v for i in rows if (v := as_of(i)) is not None]
