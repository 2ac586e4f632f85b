"""`kg search "text"`: ranked evidence (HERB ids) with each signal's rank and contribution."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from kg.cli import add_backend_options, open_args_backend
from kg.cli.output import refuse_together
from kg.cli.table import print_table
from kg.errors import KGError
from kg.paths import store_path
from kg.search.facets import KIND_CLASSES
from kg.search.index import index_dir
from kg.search.searcher import DENSE_SIGNALS, MODES, Facets, Searcher, SearchResult


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("search", help="evidence search: BM25 reranked by graph PageRank (dense retrieval with --dense)")
    add_backend_options(p, "run the facet filters (--kind, --channel, …) on")
    p.add_argument("text", help="what to look for (a question or keywords)")
    p.add_argument("--product", help="search this product only (default: the products the text names, else all)")
    p.add_argument("--kind", choices=sorted(KIND_CLASSES), help="only artifacts of this kind")
    p.add_argument("--channel", help="only Slack messages of this channel (its name)")
    p.add_argument("--author", metavar="EID", help="only artifacts attributed to this employee id")
    p.add_argument("--role", help="only artifacts whose author holds this role (e.g. 'Engineering Lead')")
    p.add_argument("--since", metavar="DATE", help="only artifacts created on or after DATE (YYYY-MM-DD)")
    p.add_argument("--until", metavar="DATE", help="only artifacts created on or before DATE (YYYY-MM-DD)")
    p.add_argument("--k", type=int, default=20, help="how many hits (default 20)")
    p.add_argument(
        "--mode", choices=list(MODES), default="rrf+ppr", help="signals to fuse (default rrf+ppr; dense needs --dense)"
    )
    p.add_argument("--explain", action="store_true", help="each signal's contribution, anchors, timings (table only)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument(
        "--dense",
        action="store_true",
        help="also fuse the dense retrievers (needs the [dense] extra and embeddings in the index)",
    )
    p.add_argument("--log", metavar="FILE", help="signal log (default: <store>.search/search-log.jsonl)")
    p.add_argument("--no-log", action="store_true", help="do not log this query's signals")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    refuse_together(args, [("explain", "json"), ("log", "no_log")])
    if args.dense and not set(MODES[args.mode]) & DENSE_SIGNALS:
        raise KGError(f"--dense has no effect with --mode {args.mode}, which fuses no dense signal")
    facets = Facets(  # checked before anything loads: a date that is no date is an error at once
        kind=args.kind,
        channel=args.channel,
        author=args.author,
        role=args.role,
        since=args.since,
        until=args.until,
    )
    store = store_path(args.store)
    log = None if args.no_log else (args.log or index_dir(store) / "search-log.jsonl")
    # The ranking reads the index beside the local store (`kg index`); only the facet filters are SPARQL, so
    # they run where --endpoint points.
    backend = open_args_backend(args) if args.endpoint or args.token else None
    searcher = Searcher(store, log_path=Path(log) if log else None, use_dense=args.dense, backend=backend)
    result = searcher.search(args.text, product=args.product, facets=facets, k=args.k, mode=args.mode)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
        return 0
    show(result, args.explain)
    return 0


def show(result: SearchResult, explain: bool) -> None:
    for note in result.notes:
        print(f"note: {note}")
    if not result.hits:
        print("no artifact matches")
        return
    if explain:
        columns = [s for s in MODES[result.mode] if any(s in h.signals for h in result.hits)]
        header = ["#", "id", "kind", "product", "score", *(f"{s} rank:contrib" for s in columns)]
        rows = [
            [
                h.rank,
                h.id,
                h.kind,
                h.product,
                f"{h.score:.4f}",
                *(
                    f"{h.signals[s]['rank']}:{h.signals[s]['contribution']:.4f}" if s in h.signals else "-"
                    for s in columns
                ),
            ]
            for h in result.hits
        ]
    else:
        header = ["#", "id", "kind", "product", "score", "text"]
        rows = [[h.rank, h.id, h.kind, h.product, f"{h.score:.4f}", h.snippet[:70]] for h in result.hits]
    print_table(header, rows)
    if explain:
        print(f"\nscope: {', '.join(result.products)}   mode: {result.mode}   facets: {result.facets or '-'}")
        print("anchors: " + (", ".join(f"{n} -> {len(i)} node(s)" for n, i in result.anchors.items()) or "-"))
        print("ms: " + ", ".join(f"{k} {v:.1f}" for k, v in result.millis.items()))
