"""`kg index`: build the search index (BM25, graph, optional embeddings) beside the store."""

from __future__ import annotations

import argparse

from kg.cli import add_herb_option, add_store_option
from kg.cli.output import show_progress
from kg.paths import herb_path, store_path
from kg.search.index import build_index, index_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("index", help="build the search index beside the store (after `kg build`)")
    add_store_option(p)
    add_herb_option(p)
    p.add_argument("--product", action="append", metavar="NAME", help="index only this product (repeatable)")
    p.add_argument("--no-dense", action="store_true", help="skip sentence embeddings even if the extra is there")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    target = store_path(args.store)
    report = build_index(
        target,
        herb_path(args.herb),
        products=args.product,
        use_dense=not args.no_dense,
        progress=show_progress(args.quiet),
    )
    print(
        f"indexed {len(report.products)} product(s): {report.artifacts:,} artifacts in {report.seconds:.1f}s "
        f"-> {index_dir(target)}"
    )
    if report.dense:
        print(report.dense)
    return 0
