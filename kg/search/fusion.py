"""Rank lists from scores, and Reciprocal Rank Fusion of several lists.

RRF adds 1 / (k + rank) over the lists an item appears in. It reads ranks only, so a retriever can change its
score scale without anything being re-tuned. Ties are broken by a fixed hash of the HERB id rather than by the
corpus order, which would otherwise quietly favour whatever kind of artifact the data file lists first.
"""

from __future__ import annotations

import zlib

import numpy as np

RRF_K = 60


def tiebreak_keys(ids: list[str]) -> np.ndarray:
    """A fixed pseudo-random order over ids (CRC-32), independent of file order."""
    return np.array([zlib.crc32(i.encode("utf-8")) for i in ids], dtype=np.int64)


def full_order(scores: np.ndarray, tiebreak: np.ndarray) -> np.ndarray:
    """Every row, best score first; equal scores in tiebreak order."""
    return np.lexsort((tiebreak, -scores))


def ranking(scores: np.ndarray, tiebreak: np.ndarray, allowed: np.ndarray | None = None) -> np.ndarray:
    """The rows this signal actually ranks: positive score (and allowed by the facets), best first."""
    keep = scores > 0
    if allowed is not None:
        keep &= allowed
    order = full_order(scores, tiebreak)
    return order[keep[order]]


def rrf(rankings: dict[str, np.ndarray], size: int, k: int = RRF_K) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Fused score per row, and each list's contribution 1/(k + rank) per row (0 where the list lacks it)."""
    contributions = {}
    for name, ranked in rankings.items():
        part = np.zeros(size)
        part[ranked] = 1.0 / (k + 1 + np.arange(len(ranked)))
        contributions[name] = part
    fused = np.sum(list(contributions.values()), axis=0) if contributions else np.zeros(size)
    return fused, contributions
