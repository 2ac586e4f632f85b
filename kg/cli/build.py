"""`kg build`: HERB -> the on-disk store."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kg.cli import add_herb_option, add_jobs_option, add_store_option
from kg.cli.output import phase_printer, refuse_bad_jobs, show_progress
from kg.errors import KGError
from kg.extras import require
from kg.ingest.build import build
from kg.paths import erb_path, herb_path, store_path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("build", help="build the knowledge graph from HERB (or ERB) into the on-disk store")
    add_store_option(p)
    p.add_argument(
        "--source",
        choices=["herb", "erb"],
        default="herb",
        help="herb: rebuild the HERB graphs (default); erb: add the ERB sources' graphs to the store, mapped "
        "through a steward-approved SSSOM file (--mapping), replacing only earlier ERB graphs (a full HERB build "
        "starts afresh: build HERB first)",
    )
    add_herb_option(p)
    p.add_argument("--erb", metavar="PATH", help="ERB source folder (default: $ERB_DATA, else ../shared/erb)")
    p.add_argument("--mapping", metavar="APPROVED.tsv", help="with --source erb: the approved SSSOM/TSV")
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


def run_erb(args: argparse.Namespace) -> int:
    """`kg build --source erb`: the approved mapping's ERB graphs into the store, beside what it holds."""
    if not args.mapping:
        raise KGError("kg build --source erb needs --mapping APPROVED.tsv (write one with `kg align review`)")
    require("align", "build --source erb")
    from kg.ingest.erb import build_erb

    target = store_path(args.store)
    report = build_erb(erb_path(args.erb), Path(args.mapping), target)
    print(
        f"built {len(report.graphs)} ERB graph(s) ({', '.join(report.graphs)}) from {report.records:,} records in "
        f"{report.seconds:.1f}s -> {target} ({report.quads:,} quads in the store)"
    )
    return 0


def run(args: argparse.Namespace) -> int:
    if args.source == "erb":
        return run_erb(args)
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
