"""The options the commands share (where the store or endpoint is, worker processes, HERB, what-if files), so
each is spelt and explained once."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ekg.query.sparql import Backend

#: Worker processes of `kg build --jobs` and `kg ask --batch --jobs`: one per core, up to two (past two, the
#: one loader or the disk is what waits).
DEFAULT_JOBS = min(2, os.cpu_count() or 1)


def add_store_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", metavar="PATH", help="store directory (default: $KG_STORE, else ./.kg/store)")


def add_jobs_option(p: argparse.ArgumentParser, help: str, default: int | None = DEFAULT_JOBS) -> None:
    """--jobs N: worker processes (checked by `ekg.cli.output.refuse_bad_jobs`)."""
    p.add_argument("--jobs", type=int, default=default, metavar="N", help=help)


def add_backend_options(p: argparse.ArgumentParser, what: str = "query") -> None:
    """--store, or --endpoint URL with --token: where a reading command's SPARQL runs (see ekg/query/backend.py)."""
    add_store_option(p)
    p.add_argument("--endpoint", metavar="URL", help=f"{what} this SPARQL 1.1 endpoint instead of the store")
    p.add_argument("--token", help="bearer token for --endpoint")


def add_deployment_option(p: argparse.ArgumentParser) -> None:
    """--deployment FILE: product shards and their replicas (`kg export --shards`; see ekg/query/deployment.py)."""
    p.add_argument(
        "--deployment",
        metavar="FILE",
        help="route by product to the shards and replicas this deployment file lists (written by kg export --shards)",
    )


def open_args_backend(args: argparse.Namespace) -> Backend:
    """The backend --deployment, --endpoint / --token or --store name; --token without --endpoint is refused."""
    from ekg.cli.output import refuse_together, refuse_unused
    from ekg.paths import store_path
    from ekg.query.backend import open_backend, store_location

    refuse_unused(args, {"token": "endpoint"})
    if getattr(args, "deployment", None):
        from ekg.query.deployment import open_deployment

        refuse_together(args, [("deployment", "endpoint"), ("deployment", "store")])
        return open_deployment(args.deployment)
    return open_backend(args.endpoint or store_location(store_path(args.store)), token=args.token)


def add_what_if_options(p: argparse.ArgumentParser) -> None:
    """`--with FILE` / `--without FILE`: run over a scratch copy of the product's graph (see ekg/query/whatif.py)."""
    p.add_argument(
        "--with",
        dest="with_files",
        action="append",
        default=[],
        metavar="FILE",
        help="what-if: add FILE's triples to a scratch copy of the product's graph (repeatable)",
    )
    p.add_argument(
        "--without",
        dest="without_files",
        action="append",
        default=[],
        metavar="FILE",
        help="what-if: remove the triples FILE lists from the scratch copy (repeatable)",
    )


def add_herb_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--herb", metavar="PATH", help="HERB data folder (default: $HERB_DATA, else ../shared/herb)")
