"""`kg export`: N-Quads or TriG of every graph, for another SPARQL engine."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kg.cli import add_force_option, add_store_option
from kg.cli.output import phase_printer, show_progress
from kg.errors import KGError
from kg.paths import open_output, store_path
from kg.query.store import EXPORT_FORMATS, export


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="dump the store as N-Quads or TriG (for Fuseki, GraphDB, Virtuoso, QLever)")
    add_store_option(p)
    p.add_argument("--format", choices=list(EXPORT_FORMATS), default="nquads")
    p.add_argument("--out", metavar="FILE", help="output file (default: standard output); with --shards, a folder")
    p.add_argument(
        "--shards",
        type=int,
        metavar="N",
        help="split by product into N N-Quads files balanced by quads, each with the organisation graph, and "
        "write the deployment file that routes them (deployment.yaml) into the --out folder",
    )
    p.add_argument(
        "--from",
        dest="from_deployment",
        metavar="OLD_DEPLOYMENT",
        help="with --shards: the deployment file in use now: keep its products where they are unless balance needs "
        "them elsewhere, and print which products move",
    )
    add_force_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = store_path(args.store)
    if args.shards is not None:
        return run_shards(args)
    phase = phase_printer("kg export") if show_progress() else None
    if phase:
        phase(f"writing every graph as {args.format} to {args.out or 'standard output'}")
    if args.out is None:
        export(path, sys.stdout.buffer, args.format)
    else:
        with open_output(args.out, binary=True, force=args.force) as fh:
            try:
                export(path, fh, args.format)
            except OSError as exc:
                raise KGError(f"cannot write {args.out}: {exc}") from exc
    if phase:
        phase("done")
    return 0


def run_shards(args: argparse.Namespace) -> int:
    from kg.query.shards import DEPLOYMENT_FILE, export_shards, load_placement, moves

    if args.out is None:
        raise KGError("--shards writes several files: give the folder with --out DIR")
    if args.format != "nquads":
        raise KGError("--shards writes N-Quads (one file per shard); leave out --format")
    old = load_placement(Path(args.from_deployment)) if args.from_deployment else None
    out = Path(args.out)
    placement, manifests = export_shards(store_path(args.store), out, args.shards, old, force=args.force)
    for shard in placement.shards:
        count = len(placement.products_of(shard))
        print(
            f"{out / (shard + '.nq')}: {count} products, {placement.quads[shard]} quads + the organisation graph "
            f"(build {manifests[shard].build})"
        )
    print(f"{out / DEPLOYMENT_FILE}: list each shard's replica URLs under `replicas`")
    if old is not None:
        print_moves(old, moves(old, placement), placement.product_shard, placement.sizes, args.from_deployment)
    return 0


def print_moves(
    old: dict[str, str], moved: dict[str, tuple[str, str]], now: dict[str, str], sizes: dict[str, int], source: str
) -> None:
    """Which products change shard against the deployment in use, and the share of product quads that moves."""
    share = sum(sizes[p] for p in moved) / max(1, sum(sizes.values()))
    for product, (was, to) in sorted(moved.items()):
        print(f"move {product}: {was} -> {to} ({sizes[product]} quads)")
    for product in sorted(set(now) - set(old)):
        print(f"new {product}: {now[product]}")
    print(f"against {source}: {len(moved)} of {len(now)} products move, {share:.1%} of the product quads")
