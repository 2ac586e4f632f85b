"""Score a batch of reworded HERB dev questions against HERB's own wording of the same questions.

Each line of a batch names its original by split and line number in HERB's dev files (the batch holds the
rewording only; the questions and gold stay in HERB's folder) and carries the rewording, its product, voice and
style. Every rewording and every original is asked of the same answerer, and the batch is scored on what reading
questions the way people ask them is measured by:

- structured F1 (person, PR, company and URL answers) of the rewordings, of the originals, and their ratio;
- the share of answerable rewordings not answered, split by outcome (uncertain reading, unsupported question,
  proof of absence), and how many of those proofs the original did not give (a proof built on a misreading);
- the share of unanswerable rewordings that do not answer, and that share among those whose original does not
  answer either (an unanswerable the graph's evidence answers, as HERB's noise makes some, is answered however it
  is worded: that is no misreading);
- the rewordings whose answer differs from their original's.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from statistics import mean
from typing import Any

from kg.errors import KGError
from kg.qa.answer import Answerer
from kg.qa.evaluate import read_jsonl, score_answerable

STRUCTURED = ("person", "pr", "company", "url")


def originals(qa_dir: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """HERB's dev questions by (split, 1-based line number)."""
    out = {}
    for split in ("answerable", "unanswerable"):
        for number, q in enumerate(read_jsonl(qa_dir / f"{split}.jsonl"), start=1):
            out[split, number] = q
    return out


def original_of(source: dict[tuple[str, int], dict[str, Any]], line: Any, number: int) -> dict[str, Any]:
    """The dev question a batch line names; a line that names none is the batch's error, said with its number."""
    key = (line.get("split"), line.get("line")) if isinstance(line, dict) else None
    if key not in source or not isinstance(line.get("question"), str):
        raise KGError(
            f"batch line {number}: expected a string `question`, a `split` (answerable | unanswerable) and the "
            "`line` number of its original in that dev file"
        )
    return source[key]


def answers_of(answerer: Answerer, question: str) -> dict[str, Any]:
    try:
        return answerer.ask(question).to_json()
    except KGError as exc:
        return {"abstain": True, "outcome": "error", "reason": str(exc), "answer": None}


def score_rewordings(
    answerer: Answerer, batch: list[dict[str, Any]], qa_dir: Path, asked: dict[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The batch's figures (see the module docstring) and its per-line rows. An original has several rewordings,
    so it is asked once; `asked` (the originals' answers by this answerer) lets batches share them too."""
    source = originals(qa_dir)
    rows = []
    asked = {} if asked is None else asked
    for number, line in enumerate(batch, start=1):
        orig = original_of(source, line, number)
        if orig["question"] not in asked:
            asked[orig["question"]] = answers_of(answerer, orig["question"])
        got, base = answers_of(answerer, line["question"]), asked[orig["question"]]
        row = {
            "question": line["question"],
            "original": orig["question"],
            "split": line["split"],
            "style": line.get("style"),
            "outcome": got["outcome"],
            "original_outcome": base["outcome"],
            "intent": got.get("intent"),
            "original_intent": base.get("intent"),
            "same": (got.get("answer") == base.get("answer") and got["outcome"] == base["outcome"]),
        }
        if line["split"] == "answerable":
            row["type"] = orig["type"]
            row["f1"] = score_answerable(orig, got) if row["outcome"] == "answer" else 0.0
            row["original_f1"] = score_answerable(orig, base) if row["original_outcome"] == "answer" else 0.0
        rows.append(row)
    answerable = [r for r in rows if r["split"] == "answerable"]
    structured = [r for r in answerable if r["type"] in STRUCTURED]
    unanswerable = [r for r in rows if r["split"] == "unanswerable"]
    abstained = [r for r in unanswerable if r["original_outcome"] != "answer"]
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
        "unanswerable_abstain_original_abstained": (
            round(mean(r["outcome"] != "answer" for r in abstained), 4) if abstained else None
        ),
        "same_as_original": round(mean(r["same"] for r in rows), 4) if rows else 0,
        "same_by_style": {s: round(mean(r["same"] for r in rs), 3) for s, rs in sorted(by_style.items())},
        "rows": rows,
    }
