"""`kg analyze bridges --product P [--top 10]`: who bridges the team (directed betweenness centrality)."""

from __future__ import annotations

import argparse

from kg.analysis.bridges import EDGE_WEIGHTS, Bridge, Tie, bridges
from kg.cli import add_store_option
from kg.errors import KGError
from kg.paths import store_path
from kg.query.sparql import EmbeddedStore

#: How many ties of each direction are shown per person.
SHOWN_TIES = 3


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyze", help="graph analyses of a product (bridges)")
    kinds = p.add_subparsers(dest="analysis", metavar="ANALYSIS", required=True)
    weights = ", ".join(f"{k} {v:g}" for k, v in EDGE_WEIGHTS.items())
    b = kinds.add_parser(
        "bridges",
        help="rank employees by directed betweenness over collaboration edges",
        description="Rank a product's employees by directed betweenness centrality (networkx) over collaboration "
        "edges from sparql/collab_edges.rq: reviewer -> PR author, replier -> thread opener, bug "
        "reporter -> assignee, suggester -> document author. Edge-type weights (per interaction; "
        f"kg/analysis/bridges.py EDGE_WEIGHTS): {weights}. A pair's strength is the weighted sum of its "
        "interactions; shortest paths use distance = 1 / strength.",
    )
    b.add_argument("--product", required=True, help="the product whose team is ranked")
    b.add_argument("--top", type=int, default=10, help="how many people to list (default 10)")
    add_store_option(b)
    b.set_defaults(func=run)


def tie_text(tie: Tie, other: str) -> str:
    return f"{other} {tie.type} ×{tie.count}"


def render(rank: int, b: Bridge) -> list[str]:
    ins = ", ".join(tie_text(t, t.source) for t in b.incoming[:SHOWN_TIES]) or "-"
    outs = ", ".join(tie_text(t, t.target) for t in b.outgoing[:SHOWN_TIES]) or "-"
    return [
        f"{rank:>2}. {b.person}  betweenness {b.betweenness:.3f}  ({len(b.incoming)} ties in, {len(b.outgoing)} out)",
        f"    in:  {ins}",
        f"    out: {outs}",
    ]


def run(args: argparse.Namespace) -> int:
    if args.top < 1:
        raise KGError("--top must be at least 1")
    ranked = bridges(EmbeddedStore(store_path(args.store)), args.product, args.top)
    if not ranked:
        raise KGError(f"no collaboration edges in {args.product}: is it a product of the store?")
    for i, b in enumerate(ranked, start=1):
        print("\n".join(render(i, b)))
    return 0
