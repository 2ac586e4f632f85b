"""Artifact text for lexical and dense retrieval: one string per HERB artifact id, per product."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kg.ingest.herb import load_product


def artifact_texts(kind: str, rec: dict[str, Any]) -> str:
    """The searchable text of one artifact: what a person would read in it."""
    if kind == "slack":
        return str(rec["Message"]["User"].get("text", ""))
    if kind == "documents":
        return f"{rec.get('type', '')}\n{rec.get('content', '')}\n{rec.get('feedback', '')}"
    if kind == "meeting_transcripts":
        return str(rec.get("transcript", ""))
    if kind == "meeting_chats":
        return str(rec.get("text", ""))
    if kind == "urls":
        return f"{rec.get('link', '')} {rec.get('description', '')}"
    if kind == "prs":
        reviews = " ".join(str(r.get("comment", "")) for r in rec.get("reviews", []) if isinstance(r, dict))
        return f"{rec.get('title', '')}\n{rec.get('summary', '')}\n{reviews}"
    return ""


def product_corpora(herb: Path, products: list[str]) -> dict[str, tuple[list[str], list[str]]]:
    """product -> (artifact ids, texts), aligned."""
    out = {}
    for name in products:
        product = load_product(herb, name)
        ids, texts = [], []
        for kind, records in product.artifacts.items():
            for rec in records:
                ids.append(rec["id"])
                texts.append(artifact_texts(kind, rec))
        out[name] = (ids, texts)
    return out
