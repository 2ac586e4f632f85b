"""BM25 (bm25s) over artifact text, saved on disk beside the store and scored against a query."""

from __future__ import annotations

import logging
from pathlib import Path

import bm25s
import numpy as np

STOPWORDS = "en"


def tokens(text: str) -> list[str]:
    """The query's terms as the index tokenises them (lower case, English stopwords out)."""
    return bm25s.tokenize([text], stopwords=STOPWORDS, return_ids=False, show_progress=False)[0]


class LexicalIndex:
    """One bm25s index over a list of texts; `scores` gives every text's BM25 score for a query."""

    def __init__(self, retriever: bm25s.BM25, size: int) -> None:
        self.retriever = retriever
        self.size = size

    @classmethod
    def build(cls, texts: list[str]) -> LexicalIndex:
        retriever = bm25s.BM25()
        retriever.index(bm25s.tokenize(texts, stopwords=STOPWORDS, show_progress=False), show_progress=False)
        return cls(retriever, len(texts))

    def save(self, folder: Path) -> None:
        self.retriever.save(str(folder), show_progress=False)

    @classmethod
    def load(cls, folder: Path, size: int) -> LexicalIndex:
        logging.getLogger("bm25s").setLevel(logging.WARNING)
        return cls(bm25s.BM25.load(str(folder), show_progress=False), size)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every indexed text; terms the corpus never uses are dropped (they score nothing)."""
        known = [t for t in tokens(query) if t in self.retriever.vocab_dict]
        if not known:
            return np.zeros(self.size)
        return np.asarray(self.retriever.get_scores(known), dtype=np.float64)
