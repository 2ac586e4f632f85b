"""`kg build`: HERB -> the on-disk store."""

from __future__ import annotations

import argparse
import sys

from kg.cli import add_herb_option, add_jobs_option, add_store_option
from kg.cli.output import phase_printer, refuse_bad_jobs, show_progress
from kg.ingest.build import build
from kg.paths import herb_path, store_path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("build", help="build the knowledge graph from HERB into the on-disk store")
    add_store_option(p)
    add_herb_option(p)
    p.add_argument(
        "--product",
        action="append",
        metavar="NAME",
        help="rebuild only this product's graph (repeatable); the others are kept",
    )
    add_jobs_option(
        p,
        "map the products in N worker processes while this one loads the store (default: %(default)s; "
        "1 maps them in this process)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    target = store_path(args.store)
    refuse_bad_jobs(args.jobs)
    progress = show_progress(args.quiet)
    report = build(
        herb_path(args.herb),
        target,
        products=args.product,
        progress=progress,
        jobs=args.jobs,
        phase=phase_printer("kg build") if progress else None,
    )
    print(
        f"built {len(report.products)} product graph(s) from {report.artifacts:,} artifacts in "
        f"{report.seconds:.1f}s -> {target} ({report.quads:,} quads in the store)"
    )
    if report.skipped:
        # each one was already logged as `kg: warning: ...` when it was read
        print(f"{len(report.skipped)} malformed record(s) skipped (see the warnings above)", file=sys.stderr)
    return 0
