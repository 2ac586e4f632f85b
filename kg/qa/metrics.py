"""Scoring as HERB scores: set F1 for lists, SQuAD token F1 for prose, citation recall and precision."""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable

_ARTICLES = re.compile(r"\b(a|an|the)\b")


def norm_item(text: str) -> str:
    return " ".join(str(text).casefold().split())


def set_f1(predicted: Iterable[str], gold: Iterable[str]) -> float:
    pred, ref = {norm_item(p) for p in predicted}, {norm_item(g) for g in gold}
    if not pred and not ref:
        return 1.0
    hit = len(pred & ref)
    if hit == 0:
        return 0.0
    p, r = hit / len(pred), hit / len(ref)
    return 2 * p * r / (p + r)


def squad_tokens(text: str) -> list[str]:
    text = text.casefold()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    return _ARTICLES.sub(" ", text).split()


def token_f1(predicted: str, gold: str) -> float:
    pred, ref = squad_tokens(predicted), squad_tokens(gold)
    common = Counter(pred) & Counter(ref)
    same = sum(common.values())
    if same == 0:
        return 0.0
    p, r = same / len(pred), same / len(ref)
    return 2 * p * r / (p + r)


def recall_precision(predicted: Iterable[str], gold: Iterable[str]) -> tuple[float, float | None]:
    """Citation recall and precision; precision is None when nothing was cited."""
    pred, ref = set(predicted), set(gold)
    hit = len(pred & ref)
    recall = hit / len(ref) if ref else 1.0
    return recall, (hit / len(pred) if pred else None)
