"""The search pipeline over one or more product scopes (the stages are in kg/search/__init__.py)."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from kg.errors import KGError
from kg.query.sparql import Backend, EmbeddedStore, known_products
from kg.search import dense
from kg.search.anchors import anchors, word_ngrams
from kg.search.facets import Facets, allowed_ids
from kg.search.fusion import RRF_K, full_order, ranking, rrf, tiebreak_keys
from kg.search.index import ProductIndex, index_dir, read_manifest
from kg.text import normalise

#: Which signals each mode fuses; "rrf+ppr" is the full pipeline, the others are its ablations.
MODES: dict[str, tuple[str, ...]] = {
    "bm25": ("bm25",),
    "dense": ("dense",),
    "rrf": ("bm25_context", "dense_context"),
    "rrf+ppr": ("bm25_context", "dense_context", "ppr"),
}
#: The retrievers fused (and seeding PPR). They read an artifact in its context, its whole conversation for a
#: message, because evidence comes in threads: on HERB's dev questions fusing the message-level lists as well
#: lowered recall@100 from 0.636 to 0.541 (lexical only; see docs/search.md).
RETRIEVERS = ("bm25_context", "dense_context")
DENSE_SIGNALS = {"dense", "dense_context"}
#: PPR restart mass on the anchors, as a share of the mass on the top fused hits.
ANCHOR_SHARE = 0.3


@dataclass
class Hit:
    id: str
    product: str
    kind: str
    rank: int
    score: float
    signals: dict[str, dict[str, float]]  # signal -> {"rank": r (1-based), "contribution": 1/(k+r)}
    snippet: str = ""


@dataclass
class SearchResult:
    query: str
    mode: str
    products: list[str]
    hits: list[Hit]
    notes: list[str] = field(default_factory=list)
    anchors: dict[str, list[str]] = field(default_factory=dict)
    facets: dict[str, str] = field(default_factory=dict)
    millis: dict[str, float] = field(default_factory=dict)

    def ids(self) -> list[str]:
        return [h.id for h in self.hits]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Signals:
    """One product's signals for one query: each retriever's rank list, the PPR list, the admitted rows."""

    index: ProductIndex
    rankings: dict[str, np.ndarray]
    tiebreak: np.ndarray
    allowed: np.ndarray | None
    anchors: dict[str, list[str]]
    millis: dict[str, float]

    def fused(self, signals: tuple[str, ...]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        used = {n: r for n, r in self.rankings.items() if n in signals}
        return rrf(used, len(self.index.ids))

    def order(self, signals: tuple[str, ...]) -> np.ndarray:
        """Every admitted row, best first by RRF over `signals`; ties (and unranked rows) by fixed hash."""
        score, _ = self.fused(signals)
        order = full_order(score, self.tiebreak)
        return order if self.allowed is None else order[self.allowed[order]]


class Searcher:
    """Searches the index beside one store; product indexes load once and stay cached."""

    def __init__(
        self,
        store_path: Path,
        log_path: Path | None = None,
        use_dense: bool = False,
        seed_top: int = 30,
        alpha: float = 0.85,
        backend: Backend | None = None,
    ) -> None:
        """The index is read beside `store_path`; facets query `backend` (an endpoint holding the same data) when
        given, else the store itself."""
        self.store_path = store_path
        self.root = index_dir(store_path)
        self.manifest = read_manifest(self.root)
        if not self.manifest["products"]:
            raise KGError(f"no search index at {self.root}: run `kg index` (after `kg build`)")
        self.log_path = log_path
        self.seed_top = seed_top
        self.alpha = alpha
        self._indexes: dict[str, ProductIndex] = {}
        self._backend = backend
        self.facets_elsewhere = backend is not None
        self.use_dense = use_dense
        self.dense_off = dense.unavailable() if use_dense else "dense retrieval off (not requested)"
        self.encoder = dense.Encoder() if self.dense_off is None else None

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            self._backend = EmbeddedStore(self.store_path)
        return self._backend

    @cached_property
    def readable(self) -> set[str] | None:
        """The products the facet backend reads (an endpoint's token may read only some), or None: all."""
        return set(known_products(self._backend)) if self.facets_elsewhere and self._backend is not None else None

    def products(self) -> list[str]:
        """The indexed products this search may show: with an endpoint, only those its token reads."""
        indexed = sorted(self.manifest["products"])
        return indexed if self.readable is None else [p for p in indexed if p in self.readable]

    def product_index(self, product: str) -> ProductIndex:
        if product not in self.manifest["products"]:
            raise KGError(f"product {product!r} is not indexed; indexed: {', '.join(self.products())}")
        if product not in self._indexes:
            self._indexes[product] = ProductIndex.load(self.root / product, product)
        return self._indexes[product]

    def scope(self, text: str, product: str | None, within: list[str] | None = None) -> list[str]:
        """The given product; else the products the text names (by any name they go by); else all. `within`
        (a caller's readable products) bounds the last two; the caller checks a given product itself."""
        if product:
            self.product_index(product)
            if self.readable is not None and product not in self.readable:
                raise KGError(f"this token does not read the product {product}")
            return [product]
        grams = word_ngrams(normalise(text)) | word_ngrams(normalise(text.replace("'s", "")))
        candidates = self.products() if within is None else [p for p in self.products() if p in within]
        named = [
            p
            for p in candidates
            if any(normalise(n) in grams for n in [p, *self.manifest["products"][p].get("names", [])])
        ]
        return named or candidates

    def dense_reason(self) -> str:
        if not self.use_dense:
            return "pass --dense (needs the [dense] extra and embeddings in the index)"
        return self.dense_off or "the index has no embeddings (run `kg index` with the [dense] extra)"

    def notes(self, indexes: list[ProductIndex]) -> list[str]:
        out = []
        if not self.use_dense:
            pass  # the default: lexical + graph (dense lowered recall on HERB, see docs/search.md)
        elif self.dense_off:
            out.append(f"{self.dense_off}; ranking on lexical + graph signals")
        elif any(not i.has_dense for i in indexes):
            out.append("dense retrieval off: the index has no embeddings (run `kg index` with the [dense] extra)")
        if not self.store_path.exists() and not self.facets_elsewhere:
            out.append(f"no store at {self.store_path}: facets need it (`kg build`)")
        elif self.store_path.exists() and self.manifest.get("store_mtime", 0) < self.store_path.stat().st_mtime - 1:
            out.append("the store was rebuilt after the index: run `kg index` again")
        return out

    def signals(
        self, text: str, product: str, facets: Facets | None = None, query_vector: np.ndarray | None = None
    ) -> Signals:
        """Every signal of one product for one query (the costly part; `order(mode)` is then cheap)."""
        index = self.product_index(product)
        facets = facets or Facets()
        millis: dict[str, float] = {}
        started = time.perf_counter()
        ids = allowed_ids(self.backend, product, facets) if facets.active() else None
        allowed = None if ids is None else np.array([i in ids for i in index.ids])
        tiebreak = tiebreak_keys(index.ids)
        millis["facets"] = _lap(started)
        rankings = {
            "bm25": ranking(index.lexical.scores(text), tiebreak, allowed),
            "bm25_context": ranking(index.lexical_context.scores(text), tiebreak, allowed),
        }
        millis["lexical"] = _lap(started) - millis["facets"]
        if query_vector is not None and index.has_dense:
            for name, matrix in (("dense", index.embeddings), ("dense_context", index.embeddings_context)):
                rankings[name] = ranking(matrix @ query_vector + 1.0, tiebreak, allowed)
        mark = time.perf_counter()
        found = anchors(text, index.labels, index.graph.index)
        seeds = self.seed_vector(index, rankings, found)
        prior = index.graph.ppr(seeds, alpha=self.alpha)
        rows = index.nodes
        artifact_prior = np.where(rows >= 0, prior[np.maximum(rows, 0)], 0.0)
        rankings["ppr"] = ranking(artifact_prior, tiebreak, allowed)
        millis["ppr"] = _lap(mark)
        names = {k: [index.graph.nodes[n] for n in v] for k, v in found.items()}
        return Signals(index, rankings, tiebreak, allowed, names, millis)

    def seed_vector(
        self, index: ProductIndex, rankings: dict[str, np.ndarray], found: dict[str, list[int]]
    ) -> np.ndarray:
        """PPR restart mass: the top fused retriever hits by their RRF score, plus the anchors."""
        seeds = np.zeros(len(index.graph.nodes))
        fused, _ = rrf({n: r for n, r in rankings.items() if n in RETRIEVERS}, len(index.ids))
        top = full_order(fused, tiebreak_keys(index.ids))[: self.seed_top]
        top = top[(fused[top] > 0) & (index.nodes[top] >= 0)]
        np.add.at(seeds, index.nodes[top], fused[top])
        anchored = sorted({n for nodes in found.values() for n in nodes})
        if anchored:
            mass = seeds.sum() or 1.0
            seeds[anchored] += ANCHOR_SHARE * mass / len(anchored)
        return seeds

    def search(
        self,
        text: str,
        product: str | None = None,
        facets: Facets | None = None,
        k: int = 20,
        mode: str = "rrf+ppr",
        within: list[str] | None = None,
    ) -> SearchResult:
        if mode not in MODES:
            raise KGError(f"unknown mode {mode!r}; one of: {', '.join(MODES)}")
        if not text.strip():
            raise KGError("the search text is empty")
        if k < 1:
            raise KGError("k must be at least 1")
        started = time.perf_counter()
        facets = facets or Facets()
        products = self.scope(text, product, within)
        if not products:
            raise KGError("none of the products you may read is indexed (run `kg index`)")
        scoped = _lap(started)
        vector = None
        if self.encoder is not None and any(self.product_index(p).has_dense for p in products):
            vector = self.encoder.encode_query(text)
        if vector is None and not set(MODES[mode]) - DENSE_SIGNALS:
            raise KGError(f"--mode {mode} ranks by dense retrieval alone, which is off: {self.dense_reason()}")
        encoded = _lap(started) - scoped
        per_product = [self.signals(text, p, facets, vector) for p in products]
        hits = merge_hits(per_product, mode, k)
        result = SearchResult(
            query=text,
            mode=mode,
            products=products,
            hits=hits,
            notes=self.notes([s.index for s in per_product]),
            anchors={n: iris for s in per_product for n, iris in s.anchors.items()},
            facets=facets.active(),
        )
        result.millis = {"scope": scoped, "encode": encoded, **_sum_millis(per_product), "total": _lap(started)}
        self.log(result)
        return result

    def log(self, result: SearchResult) -> None:
        if self.log_path is None:
            return
        entry = {
            "time": time.time(),
            "query": result.query,
            "mode": result.mode,
            "products": result.products,
            "facets": result.facets,
            "anchors": sorted(result.anchors),
            "notes": result.notes,
            "millis": result.millis,
            "hits": [
                {
                    "id": h.id,
                    "rank": h.rank,
                    "score": round(h.score, 6),
                    "signals": {s: v["rank"] for s, v in h.signals.items()},
                }
                for h in result.hits
            ],
        }
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry) + "\n")


def merge_hits(per_product: list[Signals], mode: str, k: int) -> list[Hit]:
    """The k best rows over the products in scope, with each signal's rank and contribution."""
    candidates: list[tuple[float, int, Signals, int]] = []
    for s in per_product:
        score, _ = s.fused(MODES[mode])
        for row in s.order(MODES[mode])[:k]:
            candidates.append((float(score[row]), int(s.tiebreak[row]), s, int(row)))
    candidates.sort(key=lambda c: (-c[0], c[1]))
    hits = []
    for rank, (fused, _, s, row) in enumerate(candidates[:k], start=1):
        signals = {}
        for name in MODES[mode]:
            ranked = s.rankings.get(name)
            where = np.flatnonzero(ranked == row) if ranked is not None else np.zeros(0, dtype=np.intp)
            if len(where):
                r = int(where[0]) + 1
                signals[name] = {"rank": r, "contribution": round(1.0 / (RRF_K + r), 6)}
        text = s.index.texts[row]
        hits.append(
            Hit(
                s.index.ids[row],
                s.index.product,
                s.index.kinds[row],
                rank,
                fused,
                signals,
                " ".join(text.split())[:160],
            )
        )
    return hits


def search(
    text: str,
    store_path: Path,
    product: str | None = None,
    facets: Facets | None = None,
    k: int = 20,
    log_path: Path | None = None,
) -> SearchResult:
    """One search with a fresh Searcher (a CLI call); keep a Searcher for many queries."""
    return Searcher(store_path, log_path).search(text, product, facets, k)


def _lap(started: float) -> float:
    return round(1000 * (time.perf_counter() - started), 3)


def _sum_millis(per_product: list[Signals]) -> dict[str, float]:
    out: dict[str, float] = {}
    for s in per_product:
        for k, v in s.millis.items():
            out[k] = round(out.get(k, 0.0) + v, 3)
    return out
