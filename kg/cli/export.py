"""`kg export`: N-Quads or TriG of every graph, for another SPARQL engine."""

from __future__ import annotations

import argparse
import sys

from kg.cli import add_store_option
from kg.cli.output import phase_printer, show_progress
from kg.errors import KGError
from kg.paths import open_output, store_path
from kg.query.store import EXPORT_FORMATS, export


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="dump the store as N-Quads or TriG (for Fuseki, GraphDB, Virtuoso, QLever)")
    add_store_option(p)
    p.add_argument("--format", choices=list(EXPORT_FORMATS), default="nquads")
    p.add_argument("--out", metavar="FILE", help="output file (default: standard output)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = store_path(args.store)
    phase = phase_printer("kg export") if show_progress() else None
    if phase:
        phase(f"writing every graph as {args.format} to {args.out or 'standard output'}")
    if args.out is None:
        export(path, sys.stdout.buffer, args.format)
    else:
        with open_output(args.out, binary=True) as fh:
            try:
                export(path, fh, args.format)
            except OSError as exc:
                raise KGError(f"cannot write {args.out}: {exc}") from exc
    if phase:
        phase("done")
    return 0
