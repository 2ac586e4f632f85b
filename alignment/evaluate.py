"""Precision, recall and F1 of produced mappings against a curated reference alignment (SSSOM/TSV)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sssom.parsers import parse_sssom_table

EXACT = "skos:exactMatch"
# The reference's source pairs the matcher's weights and cut-offs were tuned on; every other covered pair is
# held out, so the held-out scores say how the method does on pairs it was not fitted to.
TUNING_PAIRS = frozenset(
    frozenset(pair)
    for pair in (
        ("confluence", "google_drive"),
        ("fireflies", "gmail"),
        ("github", "jira"),
        ("jira", "linear"),
    )
)
SPLITS = ("all", "tune", "held-out")


REFERENCE_COLUMNS = ["subject_id", "predicate_id", "object_id"]


def reference_frame(path: Path) -> pd.DataFrame:
    """The reference's rows (subject_id, predicate_id, object_id), parsed by sssom-py.

    A file that is not an SSSOM/TSV mapping set is a ValueError naming it: sssom-py reports one with whatever
    its YAML, pandas or model code raised (KeyError, AttributeError, ...), so every such failure is caught here."""
    try:
        frame = parse_sssom_table(str(path)).df
    except Exception as exc:
        raise ValueError(f"{path}: not an SSSOM/TSV mapping set ({type(exc).__name__}: {exc})") from exc
    missing = [c for c in REFERENCE_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: not an SSSOM/TSV mapping set (no {', '.join(missing)} column)")
    return frame[REFERENCE_COLUMNS]


def source_of(curie: str) -> str:
    return curie.split(":", 1)[0]


def pair_key(subject: str, obj: str) -> tuple[str, str]:
    """Orientation-free key of a correspondence."""
    return (subject, obj) if subject <= obj else (obj, subject)


def source_pair(subject: str, obj: str) -> frozenset[str]:
    return frozenset((source_of(subject), source_of(obj)))


def in_split(frame: pd.DataFrame, split: str) -> pd.DataFrame:
    """The rows of one split: all, the tuning pairs, or the held-out pairs."""
    if split == "all":
        return frame
    tuned = [source_pair(s, o) in TUNING_PAIRS for s, o in zip(frame.subject_id, frame.object_id, strict=True)]
    return frame[pd.Series(tuned, index=frame.index, dtype=bool) == (split == "tune")]


def scores(
    found: pd.DataFrame, reference: pd.DataFrame, exact_only: bool = True, split: str = "all"
) -> dict[str, float]:
    """P/R/F1 restricted to the source pairs the reference covers (it is only curated for those).

    With `exact_only`, both sides keep only skos:exactMatch rows: the exact-match correspondences. `split`
    narrows both sides to the tuning or the held-out source pairs.
    """
    found, reference = in_split(found, split), in_split(reference, split)
    if exact_only:
        found = found[found["predicate_id"] == EXACT]
        reference = reference[reference["predicate_id"] == EXACT]
    covered = {source_pair(s, o) for s, o in zip(reference.subject_id, reference.object_id, strict=True)}
    gold = {pair_key(s, o) for s, o in zip(reference.subject_id, reference.object_id, strict=True)}
    got = {
        pair_key(s, o) for s, o in zip(found.subject_id, found.object_id, strict=True) if source_pair(s, o) in covered
    }
    hits = len(gold & got)
    precision = hits / len(got) if got else 0.0
    recall = hits / len(gold) if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "found": len(got),
        "reference": len(gold),
        "correct": hits,
        "precision": precision,
        "recall": recall,
        "f1": f1,
    }


def score_table(mappings: dict[str, pd.DataFrame], reference: pd.DataFrame) -> pd.DataFrame:
    """One row per split, method and scope: exact-match correspondences, and any predicate. A split the
    reference has no rows in (the tune split of a reference curated for other source pairs) is left out."""
    rows = [
        {"split": split, "method": method, "scope": scope, **scores(found, reference, exact, split)}
        for split in SPLITS
        if not in_split(reference, split).empty
        for method, found in mappings.items()
        for scope, exact in (("exact", True), ("any", False))
    ]
    return pd.DataFrame(rows)
