"""`kg eval`: score the answerer on HERB's dev questions, beside a BM25 retrieval baseline, per type.

Per-question results go to a JSONL file so a regression can be traced to its question.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean
from typing import Any

from kg.errors import KGError
from kg.paths import read_input_text
from kg.qa.answer import Answerer
from kg.qa.metrics import recall_precision, set_f1, token_f1

BM25_KS = (10, 100, 500)


def read_jsonl(path: Path, what: str = "JSON lines file") -> list[dict[str, Any]]:
    """The JSON value of each non-blank line, read through the CLI's one input opener."""
    lines = read_input_text(path, what).splitlines()
    out = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except (ValueError, RecursionError) as exc:  # not JSON, too deep, or an over-long integer
                raise KGError(f"{path}:{number}: not JSON ({exc})") from exc
    return out


@dataclass
class EvalResult:
    rows: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    def table(self) -> list[list[str]]:
        """One row per answer type plus 'all': n, score, false abstention, citation recall/precision."""
        by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in self.rows:
            if r["split"] == "answerable":
                by_type[r["type"]].append(r)
                by_type["structured" if r["type"] != "content" else "content (prose)"].append(r)
                by_type["all answerable"].append(r)
        order = ["person", "pr", "company", "url", "structured", "content", "content (prose)", "all answerable"]
        out = []
        for name in [n for n in order if n in by_type]:
            rs = by_type[name]
            if name == "content (prose)":
                continue
            precisions = [r["citation_precision"] for r in rs if r["citation_precision"] is not None]
            out.append(
                [
                    name,
                    str(len(rs)),
                    f"{mean(r['score'] for r in rs):.3f}",
                    f"{mean(r['abstain'] for r in rs):.3f}",
                    f"{mean(r['citation_recall'] for r in rs):.3f}",
                    f"{mean(precisions):.3f}" if precisions else "-",
                ]
            )
        un = [r for r in self.rows if r["split"] == "unanswerable"]
        if un:
            out.append(["unanswerable", str(len(un)), f"{mean(r['abstain'] for r in un):.3f}", "-", "-", "-"])
        # HERB lists some (product, question) pairs in both files (benchmark noise): no answer can score on both
        clean = [r for r in un if not r["also_answerable"]]
        if un and len(clean) < len(un):
            out.append(
                [
                    "unanswerable, not also answerable",
                    str(len(clean)),
                    f"{mean(r['abstain'] for r in clean):.3f}",
                    "-",
                    "-",
                    "-",
                ]
            )
        return out

    def outcomes(self) -> list[list[str]]:
        """Per split, how many questions got each outcome: the three abstentions (a proof of absence, an
        uncertain reading, an unsupported question) are counted apart, and the proofs by their text check
        (OUTCOME_COLUMNS)."""
        out = []
        for split in ("answerable", "unanswerable"):
            rows = [r for r in self.rows if r["split"] == split]
            if rows:
                out.append([f"{split} questions", str(len(rows)), *(str(sum(map(f, rows))) for _, f in COLUMNS)])
        return out


def proof_check(got: dict[str, Any]) -> str | None:
    """What became of an answer's proof of absence under the text check (kg/qa/textcheck.py): "passed" (the
    proof stands), "not run" (it stands unchecked), "artifacts" (the artifacts speak of it: uncertain); None
    when no proof ran."""
    if got.get("unheld"):
        return "artifacts"
    proof = got.get("proof") or {}
    if "textcheck" not in proof:
        return None
    return "passed" if proof["textcheck"]["ran"] else "not run"


#: The outcome table's columns: a heading and which rows it counts. A proof is held when its text check passed,
#: unchecked when the check could not run (no search index), and turned uncertain when artifacts speak of it.
COLUMNS: tuple[tuple[str, Callable[[dict[str, Any]], bool]], ...] = (
    ("answered", lambda r: r["outcome"] == "answer"),
    ("proof held", lambda r: r["outcome"] == "absent" and r.get("proof_check") != "not run"),
    ("unchecked proof", lambda r: r["outcome"] == "absent" and r.get("proof_check") == "not run"),
    ("proof -> uncertain", lambda r: r.get("proof_check") == "artifacts"),
    ("uncertain", lambda r: r["outcome"] == "uncertain" and r.get("proof_check") != "artifacts"),
    ("unsupported", lambda r: r["outcome"] == "unsupported"),
)


def score_answerable(q: dict[str, Any], got: dict[str, Any]) -> float:
    if got["abstain"] or got["answer"] is None:
        return 0.0
    if q["type"] == "content":
        predicted = got["answer"] if isinstance(got["answer"], str) else "\n".join(got["answer"])
        return token_f1(predicted, str(q["ground_truth"]))
    items = got["answer"] if isinstance(got["answer"], list) else [got["answer"]]
    return set_f1(items, q["ground_truth"])


def evaluate(answerer: Answerer, qa_dir: Path) -> EvalResult:
    answerable = read_jsonl(qa_dir / "answerable.jsonl")
    unanswerable_path = qa_dir / "unanswerable.jsonl"
    unanswerable = read_jsonl(unanswerable_path) if unanswerable_path.exists() else []
    asked = {(q.get("product"), q["question"]) for q in answerable}
    result = EvalResult()
    started = time.perf_counter()
    for split, questions in (("answerable", answerable), ("unanswerable", unanswerable)):
        for q in questions:
            got = answerer.ask(q["question"]).to_json()
            row: dict[str, Any] = {
                "split": split,
                "product": q.get("product"),
                "question": q["question"],
                "type": q.get("type", got["type"]),
                "intent": got["intent"],
                "abstain": got["abstain"],
                "outcome": got["outcome"],
                "reason": got["reason"],
                "answer": got["answer"],
                "proof_check": proof_check(got),
            }
            if split == "unanswerable":
                row["also_answerable"] = (q.get("product"), q["question"]) in asked
            if split == "answerable":
                recall, precision = recall_precision(got["citations"], q.get("citations", []))
                row.update(
                    score=score_answerable(q, got),
                    citation_recall=recall,
                    citation_precision=precision,
                    gold=q["ground_truth"],
                    n_citations=len(got["citations"]),
                    n_gold_citations=len(q.get("citations", [])),
                )
            result.rows.append(row)
    result.seconds = time.perf_counter() - started
    return result


def bm25_baseline(herb: Path, qa_dir: Path, ks: tuple[int, ...] = BM25_KS) -> dict[int, tuple[float, float]]:
    """Citation recall and precision at k of BM25 over each question's product artifacts (bm25s)."""
    import bm25s

    from kg.search.text import product_corpora

    answerable = read_jsonl(qa_dir / "answerable.jsonl")
    corpora = product_corpora(herb, sorted({q["product"] for q in answerable}))
    scores: dict[int, list[tuple[float, float]]] = {k: [] for k in ks}
    for product, (ids, texts) in corpora.items():
        retriever = bm25s.BM25()
        retriever.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)
        questions = [q for q in answerable if q["product"] == product]
        if not questions:
            continue
        query_tokens = bm25s.tokenize([q["question"] for q in questions], stopwords="en", show_progress=False)
        top, _ = retriever.retrieve(query_tokens, k=min(max(ks), len(ids)), show_progress=False)
        for q, ranked in zip(questions, top, strict=True):
            for k in ks:
                recall, precision = recall_precision([ids[i] for i in ranked[:k]], q.get("citations", []))
                scores[k].append((recall, precision or 0.0))
    return {k: (mean(r for r, _ in v), mean(p for _, p in v)) for k, v in scores.items() if v}
