"""Choosing correspondences from one source pair's score block.

Greedy 1-to-1 is the method; top-1 per row (no 1-to-1 constraint) and the Hungarian optimum are the
ablations reported next to it. All three see the same `eligible` mask, so only the selection differs.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.optimize import linear_sum_assignment

Pairs = list[tuple[int, int]]


def greedy(score: np.ndarray, eligible: np.ndarray) -> Pairs:
    """Take the best remaining pair, drop its row and column, stop when no eligible pair is left."""
    masked = np.where(eligible, score, -np.inf)
    order = np.argsort(-masked, axis=None, kind="stable")
    used_rows: set[int] = set()
    used_cols: set[int] = set()
    pairs: Pairs = []
    for flat in order:
        i, j = divmod(int(flat), score.shape[1])
        if masked[i, j] == -np.inf:
            break
        if i not in used_rows and j not in used_cols:
            pairs.append((i, j))
            used_rows.add(i)
            used_cols.add(j)
    return pairs


def top1(score: np.ndarray, eligible: np.ndarray) -> Pairs:
    """Each subject field's best object field, with no 1-to-1 constraint (objects may repeat)."""
    if score.size == 0:
        return []
    masked = np.where(eligible, score, -np.inf)
    best = masked.argmax(axis=1)
    return [(i, int(j)) for i, j in enumerate(best) if masked[i, j] > -np.inf]


def hungarian(score: np.ndarray, eligible: np.ndarray) -> Pairs:
    """The 1-to-1 assignment maximising total score (scipy's linear_sum_assignment), eligible pairs only."""
    if score.size == 0:
        return []
    rows, cols = linear_sum_assignment(np.where(eligible, score, 0.0), maximize=True)
    return [(int(i), int(j)) for i, j in zip(rows, cols, strict=True) if eligible[i, j]]


METHODS: dict[str, Callable[[np.ndarray, np.ndarray], Pairs]] = {
    "greedy": greedy,
    "top1": top1,
    "hungarian": hungarian,
}
