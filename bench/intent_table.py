"""Per-intent table of a `kg eval --results` file, or the before/after of two such files.

    python bench/intent_table.py /tmp/rules-before.jsonl [/tmp/rules-after.jsonl]

Rows are (intent, split): n, mean score, abstentions, citation recall; with two files, the second's
figures and the change in mean score, so a regression in one intent is visible even when the per-type
table does not move.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path


def rows_of(path: Path) -> dict[tuple[str, str], list[dict]]:
    """Result lines grouped by (intent, split); a question no intent took is grouped under '-'."""
    out: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        out[(rec.get("intent") or "-", rec["split"])].append(rec)
    return out


def score_of(rec: dict) -> float:
    """The result's score; an unanswerable line carries none, and scores 1 exactly when it abstained."""
    return float(rec["score"]) if "score" in rec else float(bool(rec["abstain"]))


def figures(recs: list[dict]) -> tuple[int, float, int, float]:
    """n, mean score (an unanswerable scores 1 when abstained), abstentions, mean citation recall (answerable
    only; nan for unanswerable rows)."""
    recalls = [r["citation_recall"] for r in recs if r.get("citation_recall") is not None]
    recall = sum(recalls) / len(recalls) if recalls else float("nan")
    return len(recs), sum(score_of(r) for r in recs) / len(recs), sum(bool(r["abstain"]) for r in recs), recall


def main(argv: list[str]) -> int:
    tables = [rows_of(Path(p)) for p in argv]
    keys = sorted(set().union(*tables))
    head = ["intent", "split", "n", "score", "abstain", "cit.rec"]
    if len(tables) == 2:
        head += ["n'", "score'", "abstain'", "cit.rec'", "Δscore"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for key in keys:
        cells = [key[0], key[1]]
        scores = []
        for table in tables:
            if key in table:
                n, score, abst, rec = figures(table[key])
                cells += [str(n), f"{score:.3f}", str(abst), f"{rec:.3f}"]
                scores.append(score)
            else:
                cells += ["0", "-", "-", "-"]
                scores.append(float("nan"))
        if len(tables) == 2:
            cells.append(f"{scores[1] - scores[0]:+.3f}")
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
