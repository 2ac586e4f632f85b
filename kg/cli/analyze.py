"""`kg analyze bridges --product P [--top 10]`: who bridges the team (directed betweenness centrality)."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from kg.analysis.bridges import EDGE_WEIGHTS, Bridge, Tie, bridges
from kg.cli import add_store_option
from kg.errors import KGError
from kg.paths import store_path
from kg.query.people import People
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
    b.add_argument("--json", action="store_true", help="print the ranking as JSON (with a `people` map)")
    add_store_option(b)
    b.set_defaults(func=run)


def tie_text(tie: Tie, other: str, people: People) -> str:
    return f"{people.shown(other)} {tie.type} ×{tie.count}"


def render(rank: int, b: Bridge, people: People) -> list[str]:
    ins = "; ".join(tie_text(t, t.source, people) for t in b.incoming[:SHOWN_TIES]) or "-"
    outs = "; ".join(tie_text(t, t.target, people) for t in b.outgoing[:SHOWN_TIES]) or "-"
    return [
        f"{rank:>2}. {people.shown(b.person)}  betweenness {b.betweenness:.3f}  "
        f"({len(b.incoming)} ties in, {len(b.outgoing)} out)",
        f"    in:  {ins}",
        f"    out: {outs}",
    ]


def run(args: argparse.Namespace) -> int:
    if args.top < 1:
        raise KGError("--top must be at least 1")
    store = EmbeddedStore(store_path(args.store))
    ranked = bridges(store, args.product, args.top)
    if not ranked:
        raise KGError(f"no collaboration edges in {args.product}")
    people = People(store)
    if args.json:
        eids = [e for b in ranked for t in (*b.incoming, *b.outgoing) for e in (t.source, t.target)]
        out = {"bridges": [asdict(b) for b in ranked], "people": people.people_map(eids)}
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    for i, b in enumerate(ranked, start=1):
        print("\n".join(render(i, b, people)))
    return 0
