"""The product graph as a sparse matrix, and Personalized PageRank over it.

Edges are read from the store once at index time (every IRI-to-IRI triple of the product's dataset) and kept
with their predicate, so edge weights are a query-time table: a predicate another rule adds tomorrow gets
`DEFAULT_WEIGHT` without re-indexing, and changing a weight needs no rebuild. Edges are walked both ways: a
message is as much evidence for its conversation as the conversation is for the message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import cast

import numpy as np
import scipy.sparse as sp
from pyoxigraph import NamedNode, Store

from kg.namespaces import expand
from kg.query.sparql import named_query, prefixed, solutions
from kg.text import normalise

#: How much prior flows along an edge of each predicate (both directions). Thread and derivation edges carry
#: evidence; authorship, channel and participation edges reach hubs (a person, a channel) whose neighbours are
#: mostly unrelated, so they carry little; classification edges (type, product, role, state) carry none.
EDGE_WEIGHTS: dict[str, float] = {
    "ekg:inConversation": 1.0,
    "prov:wasDerivedFrom": 1.0,
    "prov:wasRevisionOf": 1.0,
    "ekg:linksTo": 1.0,
    "ekg:sharesLink": 1.0,
    "ekg:reviewOf": 1.0,
    "ekg:eventOf": 1.0,
    "ekg:fixedBy": 0.8,
    "ekg:implementedBy": 0.8,
    "ekg:documentKind": 0.5,
    "ekg:affectsComponent": 0.5,
    "ekg:affectsCustomer": 0.5,
    "ekg:mentionsCustomer": 0.5,
    "ekg:worksFor": 0.5,
    "ekg:mentions": 0.2,
    "ekg:assignedTo": 0.1,
    "ekg:suggestedBy": 0.1,
    "ekg:inChannel": 0.05,
    "ekg:conversationIn": 0.05,
    "prov:wasAttributedTo": 0.05,
    "ekg:participant": 0.05,
    "ekg:attendee": 0.05,
    "ekg:reviewer": 0.05,
    "ekg:agent": 0.05,
    "rdf:type": 0.0,
    "ekg:aboutProduct": 0.0,
    "ekg:memberOf": 0.0,
    "ekg:teamOf": 0.0,
    "ekg:hasRole": 0.0,
    "ekg:reportsTo": 0.0,
    "ekg:customerOf": 0.0,
    "ekg:versionStatus": 0.0,
    "ekg:reviewState": 0.0,
    "ekg:bugState": 0.0,
    "ekg:stateAfter": 0.0,
    "ekg:stateEventOf": 0.0,
    "ekg:featureStatus": 0.0,
    "ekg:statusReason": 0.0,
    "ekg:inRepository": 0.0,
    "skos:inScheme": 0.0,
    # a reified statement (an ERB record's statement about another record, kept for its provenance) is
    # bookkeeping: the records are linked by the statement itself, not again through it
    "rdf:subject": 0.0,
    "rdf:predicate": 0.0,
    "rdf:object": 0.0,
}
#: Weight of a predicate the table does not name (a typed edge added by a rule written after this table).
DEFAULT_WEIGHT = 0.3


def weight_table(overrides: dict[str, float] | None = None) -> dict[str, float]:
    """EDGE_WEIGHTS (plus overrides) keyed by full predicate IRI."""
    return {expand(k): v for k, v in {**EDGE_WEIGHTS, **(overrides or {})}.items()}


@dataclass
class ProductGraph:
    """Nodes (IRIs) and typed edges (src, dst, predicate index) of one product's dataset."""

    nodes: list[str]
    predicates: list[str]
    src: np.ndarray
    dst: np.ndarray
    pred: np.ndarray
    weights: dict[str, float] = field(default_factory=weight_table)

    @cached_property
    def index(self) -> dict[str, int]:
        return {iri: i for i, iri in enumerate(self.nodes)}

    @cached_property
    def transition_t(self) -> sp.csr_matrix:
        """The transposed row-stochastic walk matrix under `weights` (undirected, weighted)."""
        per_pred = np.array([self.weights.get(p, DEFAULT_WEIGHT) for p in self.predicates] or [0.0])
        w = per_pred[self.pred] if len(self.pred) else np.zeros(0)
        keep = w > 0
        rows = np.concatenate([self.src[keep], self.dst[keep]])
        cols = np.concatenate([self.dst[keep], self.src[keep]])
        vals = np.concatenate([w[keep], w[keep]])
        n = len(self.nodes)
        adj = sp.csr_matrix((vals, (rows, cols)), shape=(n, n))
        degree = np.asarray(adj.sum(axis=1)).ravel()
        inv = np.divide(1.0, degree, out=np.zeros(n), where=degree > 0)
        return (sp.diags(inv) @ adj).T.tocsr()

    def ppr(self, seeds: np.ndarray, alpha: float = 0.85, iterations: int = 30, tol: float = 1e-9) -> np.ndarray:
        """Personalized PageRank: the stationary visit probability of a walk that restarts at `seeds`
        with probability 1 - alpha at every step. `seeds` is a non-negative vector over nodes."""
        total = seeds.sum()
        if total <= 0:
            return np.zeros(len(self.nodes))
        restart = seeds / total
        x = restart.copy()
        walk = self.transition_t
        for _ in range(iterations):
            nxt = (1 - alpha) * restart + alpha * (walk @ x)
            if np.abs(nxt - x).sum() < tol:
                return nxt
            x = nxt
        return x

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        np.savez(folder / "graph.npz", src=self.src, dst=self.dst, pred=self.pred)
        (folder / "graph.json").write_text(
            json.dumps({"nodes": self.nodes, "predicates": self.predicates}), encoding="utf-8"
        )

    @classmethod
    def load(cls, folder: Path, weights: dict[str, float] | None = None) -> ProductGraph:
        arrays = np.load(folder / "graph.npz")
        meta = json.loads((folder / "graph.json").read_text(encoding="utf-8"))
        return cls(
            meta["nodes"],
            meta["predicates"],
            arrays["src"],
            arrays["dst"],
            arrays["pred"],
            weights or weight_table(),
        )


Edge = tuple[str, str, str]


def graph_rows(store: Store, query: str, graph: NamedNode, names: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The values of `names` in each row of a library query over one named graph."""
    rows = solutions(store.query(prefixed(named_query(query).text), default_graph=[graph]))
    return [tuple(row[n].value for n in names) for row in rows]


def read_edges(store: Store, graph: NamedNode) -> list[Edge]:
    """Every IRI-to-IRI triple (s, p, o) of one named graph."""
    return cast(list[Edge], graph_rows(store, "search_graph_edges", graph, ("s", "p", "o")))


def graph_of(*edge_lists: list[Edge]) -> ProductGraph:
    """The graph of these edges, nodes and predicates numbered in first-seen order. A product's dataset is its
    own graph's edges plus the organisation graph's, which the index reads once for every product."""
    nodes: dict[str, int] = {}
    predicates: dict[str, int] = {}
    src, dst, pred = [], [], []
    for edges in edge_lists:
        for s, p, o in edges:
            src.append(nodes.setdefault(s, len(nodes)))
            dst.append(nodes.setdefault(o, len(nodes)))
            pred.append(predicates.setdefault(p, len(predicates)))
    return ProductGraph(
        list(nodes),
        list(predicates),
        np.array(src, dtype=np.int32),
        np.array(dst, dtype=np.int32),
        np.array(pred, dtype=np.int32),
    )


Label = tuple[str, str]


def read_labels(store: Store, graph: NamedNode) -> list[Label]:
    """(node IRI, label) for every name of a node in one named graph (rdfs:label, skos labels, foaf:name,
    former names)."""
    return cast(list[Label], graph_rows(store, "search_node_labels", graph, ("node", "label")))


def labels_of(*label_lists: list[Label]) -> dict[str, list[str]]:
    """Normalised name -> the node IRIs carrying it, in first-seen order."""
    out: dict[str, list[str]] = {}
    for labels in label_lists:
        for node, label in labels:
            key = normalise(label)
            if key and node not in out.setdefault(key, []):
                out[key].append(node)
    return out
