"""Artifact text for lexical and dense retrieval: one string per HERB artifact id, per product (what each kind's
record holds to read is `kg.ingest.herb.artifact_text`)."""

from __future__ import annotations

from pathlib import Path

from kg.ingest.herb import artifacts, load_product


def product_corpora(herb: Path, products: list[str]) -> dict[str, tuple[list[str], list[str]]]:
    """product -> (artifact ids, texts), aligned."""
    out = {}
    for name in products:
        rows = list(artifacts(load_product(herb, name)))
        out[name] = ([i for i, _, _ in rows], [t for _, _, t in rows])
    return out
