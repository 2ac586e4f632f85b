"""`kg index`: the on-disk search index beside the store, one folder per product.

For each product: the artifacts (HERB ids and kinds), two BM25 indexes — over each artifact's own text and
over its context (the whole conversation a message belongs to, via ekg:inConversation) —, the product graph's
typed edges for PPR, the names of its nodes for anchoring questions, and, with the `[dense]` extra, sentence
embeddings computed here once and cached as .npy.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
from pyoxigraph import NamedNode, Store
from tqdm import tqdm

from kg.errors import KGError
from kg.ingest.herb import artifacts, load_product, product_names
from kg.namespaces import ORG_GRAPH, expand, node, product_graph
from kg.paths import index_dir
from kg.query.sparql import named_query, prefixed, read_only_store
from kg.search import dense
from kg.search.graph import Edge, Label, ProductGraph, graph_of, labels_of, read_edges, read_labels
from kg.search.lexical import LexicalIndex

INDEX_VERSION = 1
#: The name every ERB source graph starts with (`graph/erb-jira`, ...), as `kg build --source erb` names them.
ERB_PREFIX = "erb-"
#: Predicates whose object groups artifacts into one reading context (a conversation of messages).
CONTEXT_PREDICATES = ("ekg:inConversation",)
#: HERB's artifact kinds as the search reports them.
KIND_NAMES = {
    "slack": "slack",
    "documents": "document",
    "meeting_transcripts": "meeting",
    "meeting_chats": "meeting_chat",
    "urls": "url",
    "prs": "pr",
}


@dataclass
class Corpus:
    """One product's artifacts, aligned: HERB id, kind, own text; and their nodes' IRIs where the id does not
    name the node (an ERB record is cited by its export file)."""

    ids: list[str]
    kinds: list[str]
    texts: list[str]
    iris: list[str] = field(default_factory=list)


def product_corpus(herb: Path, product: str) -> Corpus:
    corpus = Corpus([], [], [])
    for herb_id, kind, text in artifacts(load_product(herb, product)):
        corpus.ids.append(herb_id)
        corpus.kinds.append(KIND_NAMES.get(kind, kind))
        corpus.texts.append(text)
    return corpus


def erb_corpus(store: Store, graph: str) -> Corpus:
    """One ERB source graph's records (`search_erb_records.rq`), cited by their export file."""
    corpus = Corpus([], [], [], [])
    query = named_query("search_erb_records").text
    for row in store.query(prefixed(query), default_graph=NamedNode(product_graph(graph).value)):  # type: ignore[union-attr]
        corpus.ids.append(row["source"].value)
        corpus.kinds.append(row["system"].value)
        corpus.texts.append("\n\n".join(t.value for t in (row["title"], row["text"]) if t is not None and t.value))
        corpus.iris.append(row["record"].value)
    return corpus


def erb_graphs(store: Store) -> list[str]:
    """The ERB source graphs the store holds (`kg build --source erb`), by name."""
    prefix = product_graph(ERB_PREFIX).value
    return sorted(
        g.value.removeprefix(product_graph("").value)
        for g in store.named_graphs()
        if isinstance(g, NamedNode) and g.value.startswith(prefix)
    )


def artifact_nodes(graph: ProductGraph, ids: list[str], iris: list[str] | None = None) -> np.ndarray:
    """Each artifact's node index in the graph, -1 when the graph does not hold it."""
    names = iris or [node("artifact", i).value for i in ids]
    return np.array([graph.index.get(iri, -1) for iri in names], dtype=np.int64)


def context_groups(graph: ProductGraph, nodes: np.ndarray) -> list[list[int]]:
    """Artifacts (by row) grouped by the context node they share (their conversation)."""
    row_of = {int(n): r for r, n in enumerate(nodes) if n >= 0}
    wanted = {i for i, p in enumerate(graph.predicates) if p in {expand(c) for c in CONTEXT_PREDICATES}}
    groups: dict[int, list[int]] = defaultdict(list)
    for s, o, p in zip(graph.src.tolist(), graph.dst.tolist(), graph.pred.tolist(), strict=True):
        if p in wanted and s in row_of:
            groups[o].append(row_of[s])
    return [sorted(set(g)) for g in groups.values()]


def context_texts(texts: list[str], groups: list[list[int]]) -> list[str]:
    """Each artifact's text in context: its whole conversation for a message, its own text otherwise."""
    out = list(texts)
    for members in groups:
        joined = "\n".join(texts[m] for m in members)
        for m in members:
            out[m] = joined
    return out


@dataclass
class ProductIndex:
    """Everything search needs about one product, loaded from its index folder."""

    product: str
    folder: Path
    ids: list[str]
    kinds: list[str]
    graph: ProductGraph
    labels: dict[str, list[str]]
    has_dense: bool
    iris: list[str] = field(default_factory=list)

    @cached_property
    def lexical(self) -> LexicalIndex:
        return LexicalIndex.load(self.folder / "bm25", len(self.ids))

    @cached_property
    def lexical_context(self) -> LexicalIndex:
        return LexicalIndex.load(self.folder / "bm25-context", len(self.ids))

    @cached_property
    def embeddings(self) -> np.ndarray:
        return np.load(self.folder / "dense.npy")

    @cached_property
    def embeddings_context(self) -> np.ndarray:
        return np.load(self.folder / "dense-context.npy")

    @cached_property
    def texts(self) -> list[str]:
        return json.loads((self.folder / "texts.json").read_text(encoding="utf-8"))

    @cached_property
    def nodes(self) -> np.ndarray:
        return artifact_nodes(self.graph, self.ids, self.iris)

    @cached_property
    def row(self) -> dict[str, int]:
        return {i: r for r, i in enumerate(self.ids)}

    @classmethod
    def load(cls, folder: Path, product: str) -> ProductIndex:
        meta = json.loads((folder / "artifacts.json").read_text(encoding="utf-8"))
        labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
        return cls(
            product,
            folder,
            meta["ids"],
            meta["kinds"],
            ProductGraph.load(folder),
            labels,
            (folder / "dense.npy").exists(),
            meta.get("iris", []),
        )


def cached_embeddings(folder: Path, texts: list[str], encoder: dense.Encoder) -> np.ndarray:
    """The texts' embeddings: reused from dense.npy when the same model saw the same texts, else computed."""
    digest = hashlib.sha256("\x00".join(texts).encode("utf-8")).hexdigest()
    stamp = {"model": dense.MODEL_NAME, "texts_sha256": digest}
    stamp_path = folder / "dense.json"
    if stamp_path.exists() and json.loads(stamp_path.read_text(encoding="utf-8")) == stamp:
        return np.load(folder / "dense.npy")
    vectors = encoder.encode(texts)
    np.save(folder / "dense.npy", vectors)
    stamp_path.write_text(json.dumps(stamp), encoding="utf-8")
    return vectors


@dataclass
class IndexReport:
    products: list[str] = field(default_factory=list)
    artifacts: int = 0
    dense: str | None = None  # why dense is off, None when on
    seconds: float = 0.0


@dataclass(frozen=True)
class Shared:
    """The organisation graph's edges and names, part of every product's dataset: read once per run, since
    re-reading them for each product costs products x employees (at x10 HERB, 300 times 18 k edges)."""

    edges: list[Edge]
    labels: list[Label]

    @classmethod
    def read(cls, store: Store) -> Shared:
        org = NamedNode(ORG_GRAPH)
        return cls(read_edges(store, org), read_labels(store, org))


def build_product(
    store: Store, corpus: Corpus, product: str, folder: Path, encoder: dense.Encoder | None, shared: Shared
) -> tuple[int, list[str]]:
    """Write one product's index folder; returns its artifact count and the names the product goes by. Its
    dataset is what a product-scoped query sees: its own graph and the organisation graph."""
    own = product_graph(product)
    graph = graph_of(read_edges(store, own), shared.edges)
    groups = context_groups(graph, artifact_nodes(graph, corpus.ids, corpus.iris))
    folder.mkdir(parents=True, exist_ok=True)
    meta = {"ids": corpus.ids, "kinds": corpus.kinds, **({"iris": corpus.iris} if corpus.iris else {})}
    (folder / "artifacts.json").write_text(json.dumps(meta), encoding="utf-8")
    (folder / "texts.json").write_text(json.dumps(corpus.texts), encoding="utf-8")
    labels = labels_of(read_labels(store, own), shared.labels)
    (folder / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    graph.save(folder)
    LexicalIndex.build(corpus.texts).save(folder / "bm25")
    LexicalIndex.build(context_texts(corpus.texts, groups)).save(folder / "bm25-context")
    if encoder is not None:
        vectors = cached_embeddings(folder, corpus.texts, encoder)
        np.save(folder / "dense-context.npy", dense.group_means(vectors, groups))
    product_iri = node("product", product).value
    return len(corpus.ids), sorted(name for name, iris in labels.items() if product_iri in iris)


def build_index(
    store_path: Path,
    herb: Path,
    products: list[str] | None = None,
    use_dense: bool = True,
    progress: bool = True,
) -> IndexReport:
    """Index the given products (default: every HERB product and ERB source graph the store holds) of the store
    at `store_path`."""
    started = time.perf_counter()
    if not store_path.exists():
        raise KGError(f"no store at {store_path}: run `kg build` first (or pass --store PATH / set KG_STORE)")
    store = read_only_store(store_path)
    erb = erb_graphs(store)
    built = [p for p in product_names(herb) if store.contains_named_graph(product_graph(p))]
    names = products or [*built, *erb]
    unknown = sorted(set(names) - set(product_names(herb)) - set(erb))
    if unknown:
        raise KGError(f"unknown product(s): {', '.join(unknown)}")
    report = IndexReport(dense=dense.unavailable() if use_dense else "dense retrieval off: --no-dense")
    encoder = dense.Encoder() if report.dense is None else None
    root = index_dir(store_path)
    manifest = read_manifest(root)
    shared = Shared.read(store)
    for product in tqdm(names, desc="kg index", unit="product", disable=not progress):
        corpus = erb_corpus(store, product) if product in erb else product_corpus(herb, product)
        count, aliases = build_product(store, corpus, product, root / product, encoder, shared)
        report.artifacts += count
        report.products.append(product)
        manifest["products"][product] = {"dense": encoder is not None, "names": aliases, "artifacts": count}
        manifest["store_mtime"] = os.stat(store_path).st_mtime
        write_manifest(root, manifest)  # after each product, so an interrupted run leaves usable indexes
    report.seconds = time.perf_counter() - started
    return report


def write_manifest(root: Path, manifest: dict) -> None:
    tmp = root / "manifest.json.tmp"
    tmp.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    tmp.replace(root / "manifest.json")


def read_manifest(root: Path) -> dict:
    path = root / "manifest.json"
    if not path.exists():
        return {"version": INDEX_VERSION, "products": {}}
    manifest = json.loads(path.read_text(encoding="utf-8"))
    if manifest.get("version") != INDEX_VERSION:
        return {"version": INDEX_VERSION, "products": {}}
    return manifest
