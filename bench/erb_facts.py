"""Score the ERB graphs against a gold set of typed facts: how many gold facts the graph holds, how many it
states wrongly.

    python bench/erb_facts.py --gold /work/blind/erb_gold.jsonl --store .kg/store [--json OUT]

The gold is JSON lines: file, source, record_id (dataset_doc_uuid), fact (author | title | created | updated |
status | assignee | reviewer | participant | recipient | links_to), value as written in the record, field.

- A gold fact is **present** when the record (found by its export file, else by its record id) has the fact's
  property with a value equal to the gold value: dates and times as the same instant (or the same day when one
  side is a bare day); any other value after the same normalisation on both sides (alignment.profile.normalise:
  case, `_`/`-`, a role suffix in parentheses, a named mail address); for a node, any of its labels or ids.
- A graph fact is **wrong** when, for a record and fact type the gold gives values for, the graph states a value
  the gold does not list. A fact type the gold says nothing about for a record is counted apart as unconfirmed
  (the gold writer may have left it out), never as right or wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Store

from alignment.profile import EPOCH, normalise

PROPERTY = {
    "author": "http://www.w3.org/ns/prov#wasAttributedTo",
    "title": "http://purl.org/dc/terms/title",
    "created": "http://purl.org/dc/terms/created",
    "updated": "http://purl.org/dc/terms/modified",
    "status": "https://w3id.org/ekg/ont#status",
    "assignee": "https://w3id.org/ekg/ont#assignee",
    "reviewer": "https://w3id.org/ekg/ont#recordReviewer",
    "participant": "https://w3id.org/ekg/ont#involves",
    "recipient": "https://w3id.org/ekg/ont#recipient",
    "links_to": "http://purl.org/dc/terms/references",
}
DATES = {"created", "updated"}
NAMES = [
    "http://www.w3.org/2000/01/rdf-schema#label",
    "http://www.w3.org/2004/02/skos/core#altLabel",
    "http://purl.org/dc/terms/identifier",
]
SOURCE = NamedNode("http://purl.org/dc/terms/source")
IDENTIFIER = NamedNode("http://purl.org/dc/terms/identifier")


def moment(text: str) -> tuple[str, datetime | None] | None:
    """A date or time as (day, instant or None for a bare day); None when the text is neither."""
    value = text.strip().removesuffix(" UTC").removesuffix(" GMT")
    try:
        if EPOCH.match(value):
            when = datetime.fromtimestamp(float(value), tz=UTC)
        else:
            when = datetime.fromisoformat(value.replace(" ", "T", 1))
    except ValueError:
        return None
    if len(value) <= 10 and not EPOCH.match(value):
        return when.date().isoformat(), None
    when = when if when.tzinfo else when.replace(tzinfo=UTC)
    return when.astimezone(UTC).date().isoformat(), when


def same(fact: str, gold: str, stated: set[str]) -> bool:
    """Whether a stated value (any of a node's names) equals the gold value, as the module docstring says."""
    if fact in DATES and (g := moment(gold)) is not None:
        for value in stated:
            if (s := moment(value)) is None:
                continue
            if g[1] is not None and s[1] is not None:
                if g[1] == s[1]:
                    return True
            elif g[0] == s[0]:
                return True
        return False
    return normalise(gold) in {normalise(v) for v in stated}


def record_of(store: Store, row: dict) -> NamedNode | None:
    """The record node for a gold row: by export file, else by the export's record id."""
    for pred, value in ((SOURCE, row["file"]), (IDENTIFIER, row["record_id"])):
        for quad in store.quads_for_pattern(None, pred, Literal(value)):
            if isinstance(quad.subject, NamedNode):
                return quad.subject
    return None


def stated_values(store: Store, record: NamedNode, fact: str) -> list[set[str]]:
    """The record's values of the fact's property, each as the set of strings that name it."""
    out = []
    for quad in store.quads_for_pattern(record, NamedNode(PROPERTY[fact]), None):
        obj = quad.object
        if isinstance(obj, Literal):
            out.append({obj.value})
        else:
            names = {q.object.value for p in NAMES for q in store.quads_for_pattern(obj, NamedNode(p), None)}
            out.append(names or {obj.value})
    return out


def score(store: Store, gold: list[dict]) -> dict:
    """Present and wrong counts, overall and per fact type, with the misses and wrong facts listed."""
    by_record: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for row in gold:
        by_record[(row["file"], row["record_id"])].append(row)
    present: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    wrong: list[dict] = []
    missing: list[dict] = []
    unconfirmed = 0
    records_found = 0
    for rows in by_record.values():
        record = record_of(store, rows[0])
        records_found += record is not None
        for fact in PROPERTY:
            golds = [r for r in rows if r["fact"] == fact]
            stated = stated_values(store, record, fact) if record is not None else []
            for row in golds:
                total[fact] += 1
                if any(same(fact, row["value"], names) for names in stated):
                    present[fact] += 1
                else:
                    missing.append(row)
            if not golds:
                unconfirmed += len(stated)
                continue
            for names in stated:
                if not any(same(fact, row["value"], names) for row in golds):
                    wrong.append({"file": rows[0]["file"], "fact": fact, "stated": sorted(names)})
    n_total, n_present = sum(total.values()), sum(present.values())
    return {
        "records": len(by_record),
        "records_found": records_found,
        "gold_facts": n_total,
        "present": n_present,
        "present_share": round(n_present / n_total, 4) if n_total else 0.0,
        "wrong": len(wrong),
        "unconfirmed": unconfirmed,
        "per_fact": {f: {"gold": total[f], "present": present[f]} for f in PROPERTY if total[f]},
        "missing": missing,
        "wrong_facts": wrong,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gold", required=True, type=Path, help="the gold facts, JSON lines")
    parser.add_argument("--store", default=".kg/store", type=Path, help="the store holding the ERB graphs")
    parser.add_argument("--json", type=Path, help="also write the full result (misses, wrong facts) here")
    parser.add_argument("--details", action="store_true", help="print every miss and wrong fact")
    args = parser.parse_args()
    gold = [json.loads(line) for line in args.gold.read_text(encoding="utf-8").splitlines() if line.strip()]
    result = score(Store.read_only(str(args.store)), gold)
    print(
        f"{result['records_found']}/{result['records']} records found; {result['present']}/{result['gold_facts']} "
        f"gold facts present ({result['present_share']:.1%}); {result['wrong']} wrong; "
        f"{result['unconfirmed']} stated facts of types the gold does not give for the record"
    )
    for fact, n in result["per_fact"].items():
        print(f"  {fact:12} {n['present']:4}/{n['gold']}")
    if args.details:
        for row in result["missing"]:
            print(f"missing\t{row['file']}\t{row['fact']}\t{row['value']}\t{row['field']}")
        for row in result["wrong_facts"]:
            print(f"wrong\t{row['file']}\t{row['fact']}\t{row['stated']}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
