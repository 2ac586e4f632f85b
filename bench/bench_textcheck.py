"""How well the text check of a proof of absence tells a true absence from a rule that missed (docs/benchmarks.md).

    python bench/bench_textcheck.py [--store .kg/store] [--qa DIR]

For every dev question read completely by an intent, the text check (kg/qa/textcheck.py) is run as if the
intent's proof had found nothing: on an answerable question the graph does hold the evidence, so a check that
flags it would have caught a rule that missed it (the check's reach); on an unanswerable one, a flag would turn
a true proof into "uncertain" (the check's cost). Needs `kg build` and `kg index`.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from kg.paths import qa_path, store_path
from kg.qa.answer import Answerer
from kg.qa.evaluate import read_jsonl
from kg.qa.intents import choose
from kg.qa.question import parse
from kg.qa.textcheck import TextChecker
from kg.query.sparql import EmbeddedStore


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", help="store directory (default: $KG_STORE, else ./.kg/store)")
    ap.add_argument("--qa", help="folder with answerable.jsonl and unanswerable.jsonl (default: HERB's dev)")
    args = ap.parse_args()
    store = store_path(args.store)
    answerer = Answerer(EmbeddedStore(store))
    checker = TextChecker(store)
    for split in ("answerable", "unanswerable"):
        counts: Counter[str] = Counter()
        for row in read_jsonl(qa_path(args.qa) / f"{split}.jsonl"):
            q = parse(row["question"], answerer.vocabulary)
            choice = choose(q, answerer.labels(q.product) if q.product else None)
            w = choice.winner
            if w is None or not w.complete or q.product is None:
                counts["not read completely"] += 1
                continue
            checked = checker.check(q, w.bindings or {})
            kind = (
                "flagged"
                if not checked.stands
                else "searched, none"
                if "best search hits" in checked.check
                else ("no evidence cue" if checked.ran else "could not run")
            )
            counts[kind] += 1
        print(json.dumps({"split": split, **counts}))


if __name__ == "__main__":
    main()
