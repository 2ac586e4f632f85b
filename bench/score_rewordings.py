"""Score a batch of reworded HERB dev questions against HERB's own wording of the same questions.

Each line of a batch names its original by split and line number in HERB's dev files (the batch holds the
rewording only; the questions and gold stay in HERB's folder) and carries the rewording, its product, voice and
style. Every rewording and every original is asked of the same store, and the batch is scored on what the issue
of reading questions the way people ask them measures:

- structured F1 (person, PR, company and URL answers) of the rewordings, of the originals, and their ratio;
- the share of answerable rewordings not answered, split by outcome (uncertain reading, unsupported question,
  proof of absence), and how many of those proofs the original did not give (a proof built on a misreading);
- the share of unanswerable rewordings that do not answer;
- the rewordings whose answer differs from their original's.

    python bench/score_rewordings.py tests/data/rewordings_blind_7.jsonl [--store .kg/store] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from statistics import mean
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.errors import KGError  # noqa: E402
from kg.paths import herb_path, store_path  # noqa: E402
from kg.qa.answer import Answerer  # noqa: E402
from kg.qa.evaluate import read_jsonl, score_answerable  # noqa: E402
from kg.query.backend import open_backend, store_location  # noqa: E402

STRUCTURED = ("person", "pr", "company", "url")


def outcome(got: dict[str, Any]) -> str:
    """answer | uncertain | unsupported | absent (a proof of absence, or a phrase proved to name nothing)."""
    if "outcome" in got:
        return str(got["outcome"])
    if not got["abstain"]:
        return "answer"
    return "unsupported" if (got.get("reason") or "").startswith("unsupported") else "absent"


def originals(qa_dir: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """HERB's dev questions by (split, 1-based line number)."""
    out = {}
    for split in ("answerable", "unanswerable"):
        for number, q in enumerate(read_jsonl(qa_dir / f"{split}.jsonl"), start=1):
            out[split, number] = q
    return out


def answers_of(answerer: Answerer, question: str) -> dict[str, Any]:
    try:
        return answerer.ask(question).to_json()
    except KGError as exc:
        return {"abstain": True, "outcome": "error", "reason": str(exc), "answer": None}


def score(answerer: Answerer, batch: list[dict[str, Any]], qa_dir: Path) -> dict[str, Any]:
    """The batch's figures (see the module docstring) and its per-line rows."""
    source = originals(qa_dir)
    rows = []
    for line in batch:
        orig = source[line["split"], line["line"]]
        got, base = answers_of(answerer, line["question"]), answers_of(answerer, orig["question"])
        row = {
            "question": line["question"],
            "original": orig["question"],
            "split": line["split"],
            "style": line.get("style"),
            "outcome": outcome(got),
            "original_outcome": outcome(base),
            "intent": got.get("intent"),
            "original_intent": base.get("intent"),
            "same": (got.get("answer") == base.get("answer") and outcome(got) == outcome(base)),
        }
        if line["split"] == "answerable":
            row["type"] = orig["type"]
            row["f1"] = score_answerable(orig, got) if row["outcome"] == "answer" else 0.0
            row["original_f1"] = score_answerable(orig, base) if row["original_outcome"] == "answer" else 0.0
        rows.append(row)
    answerable = [r for r in rows if r["split"] == "answerable"]
    structured = [r for r in answerable if r["type"] in STRUCTURED]
    unanswerable = [r for r in rows if r["split"] == "unanswerable"]
    not_answered = Counter(r["outcome"] for r in answerable if r["outcome"] != "answer")
    f1 = mean(r["f1"] for r in structured) if structured else 0.0
    base_f1 = mean(r["original_f1"] for r in structured) if structured else 0.0
    by_style: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_style[r["style"] or "-"].append(r)
    return {
        "lines": len(rows),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "structured_f1": round(f1, 4),
        "original_structured_f1": round(base_f1, 4),
        "f1_ratio": round(f1 / base_f1, 4) if base_f1 else None,
        "answerable_not_answered": round(sum(not_answered.values()) / len(answerable), 4) if answerable else 0,
        "answerable_not_answered_by_outcome": dict(sorted(not_answered.items())),
        "answerable_proofs": not_answered.get("absent", 0),
        "answerable_proofs_original_answered": sum(
            1 for r in answerable if r["outcome"] == "absent" and r["original_outcome"] == "answer"
        ),
        "unanswerable_abstain": (
            round(mean(r["outcome"] != "answer" for r in unanswerable), 4) if unanswerable else None
        ),
        "same_as_original": round(mean(r["same"] for r in rows), 4) if rows else 0,
        "same_by_style": {s: round(mean(r["same"] for r in rs), 3) for s, rs in sorted(by_style.items())},
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("batch", type=Path)
    p.add_argument("--store", help="store directory (default: $KG_STORE, else ./.kg/store)")
    p.add_argument("--herb", help="HERB data folder (default: $HERB_DATA, else ../shared/herb)")
    p.add_argument("--json", type=Path, help="write the figures and per-line rows here")
    p.add_argument("--misses", action="store_true", help="print every line whose answer differs from its original")
    args = p.parse_args(argv)
    answerer = Answerer(open_backend(store_location(store_path(args.store))))
    result = score(answerer, read_jsonl(args.batch), herb_path(args.herb) / "qa" / "dev")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.misses:
        for r in result["rows"]:
            if not r["same"]:
                print(f"{r['outcome']:>11} {r['intent']} <- {r['original_intent']}: {r['question']}")
    print(json.dumps({k: v for k, v in result.items() if k != "rows"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
