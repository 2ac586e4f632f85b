"""Finishers of the feature and PR intents: keep the features that best name the question's topic, and the
author(s) with the most PRs.

A question names a feature by a free phrase (its residue, kg/qa/residue.py), bound as ?topic: the query returns
every feature sharing a word with it, and `keep_best_features` keeps those naming at least half of the phrase's
words (FEATURE_FLOOR, the floor the free phrase's resolution uses too) and at least three quarters as many as
the best one. When no feature qualifies the answer is empty and the system abstains; no phrase is ever matched
to text.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from kg.qa.intents.rows import FINISHERS
from kg.qa.residue import FEATURE_FLOOR
from kg.query.sparql import Row, term_text


@FINISHERS.register("best_features")
def keep_best_features(rows: list[Row]) -> tuple[list[str], list[str]]:
    """Answers and citations of the features naming most of the topic's words (see the module docstring)."""
    hits: dict[str, set[str]] = defaultdict(set)
    ntok = 0
    for row in rows:
        if "feature" in row and "hit" in row:
            hits[term_text(row["feature"])].add(term_text(row["hit"]))
        if "ntok" in row:
            ntok = int(term_text(row["ntok"]))
    if not hits:
        return [], []
    best = max(len(h) for h in hits.values())
    chosen = {f for f, h in hits.items() if len(h) >= FEATURE_FLOOR * ntok and 4 * len(h) >= 3 * best}
    kept = [r for r in rows if term_text(r.get("feature", "")) in chosen]
    answers = dict.fromkeys(term_text(r["answer"]) for r in kept if "answer" in r)
    cites = dict.fromkeys(term_text(r["cite"]) for r in kept if "cite" in r)
    return list(answers), list(cites) if answers else []


@FINISHERS.register("top_authors")
def keep_top_authors(rows: list[Row]) -> tuple[list[str], list[str]]:
    """The author(s) with the most distinct PRs, citing every counted PR's evidence."""
    prs: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        if "answer" in row and "pr" in row:
            prs[term_text(row["answer"])].add(term_text(row["pr"]))
    counts = Counter({author: len(p) for author, p in prs.items()})
    if not counts:
        return [], []
    top = max(counts.values())
    cites = dict.fromkeys(term_text(r["cite"]) for r in rows if "cite" in r)
    return sorted(a for a, n in counts.items() if n == top), list(cites)
