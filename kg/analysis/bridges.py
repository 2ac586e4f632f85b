"""Who bridges a product's team: directed betweenness centrality (networkx) over collaboration edges.

The edges come from `sparql/collab_edges.rq`: someone reviewed, replied to, assigned to or suggested on
someone else's work. Each edge type has a weight (`EDGE_WEIGHTS`, data); a pair's strength is the weighted sum
of its interactions, and a shortest path walks the strongest ties (distance = 1 / strength). A person's
betweenness is the share of shortest paths between two others that pass through them; each ranked person
comes with the edges that put them there: their incoming and outgoing ties by type, strongest first.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import networkx as nx

from kg.query.sparql import Backend, check_product, named_query, product_dataset

#: How strong a tie one interaction of each type makes. A review or an assignment is directed work on
#: someone's output; a suggestion on a document a little less; a reply in a thread is the weakest tie.
EDGE_WEIGHTS: dict[str, float] = {"reviewed": 1.0, "assigned": 1.0, "suggested": 0.75, "replied": 0.5}


@dataclass(frozen=True)
class Tie:
    """Interactions of one type between two people, in one direction."""

    source: str
    target: str
    type: str
    count: int

    @property
    def strength(self) -> float:
        return EDGE_WEIGHTS[self.type] * self.count


@dataclass
class Bridge:
    person: str
    betweenness: float
    incoming: list[Tie] = field(default_factory=list)
    outgoing: list[Tie] = field(default_factory=list)


def local(iri: str) -> str:
    return iri.rsplit("/", 1)[-1]


def collaboration_ties(backend: Backend, product: str) -> list[Tie]:
    rows = backend.select(named_query("collab_edges").text, None, product_dataset(product))
    return [
        Tie(local(r["source"].value), local(r["target"].value), r["type"].value, int(r["n"].value))
        for r in rows
        if r["type"].value in EDGE_WEIGHTS
    ]


def collaboration_graph(ties: list[Tie]) -> nx.DiGraph[str]:
    """One directed edge per ordered pair: strength = the weighted sum of its ties, distance = 1 / strength."""
    strength: dict[tuple[str, str], float] = defaultdict(float)
    for tie in ties:
        strength[tie.source, tie.target] += tie.strength
    graph: nx.DiGraph[str] = nx.DiGraph()
    for (s, t), w in strength.items():
        graph.add_edge(s, t, strength=w, distance=1.0 / w)
    return graph


def rank_bridges(ties: list[Tie], top: int = 10) -> list[Bridge]:
    """The `top` people by directed betweenness (normalised; ties in score broken by name), with their ties."""
    graph = collaboration_graph(ties)
    scores = nx.betweenness_centrality(graph, weight="distance", normalized=True)
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    by_strength = sorted(ties, key=lambda t: (-t.strength, t.source, t.target, t.type))
    return [
        Bridge(p, score, [t for t in by_strength if t.target == p], [t for t in by_strength if t.source == p])
        for p, score in ranked
    ]


def bridges(backend: Backend, product: str, top: int = 10) -> list[Bridge]:
    """The product's top bridges; KGError naming the closest products when the store has no such product."""
    check_product(backend, product)
    return rank_bridges(collaboration_ties(backend, product), top)
