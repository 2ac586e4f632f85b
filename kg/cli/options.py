"""The options the commands share (where the store or endpoint is, worker processes, HERB, what-if files), so
each is spelt and explained once."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kg.endpoint.policy import Limits
    from kg.query.sparql import Backend

#: Worker processes of `kg build --jobs` and `kg ask --batch --jobs`: one per core, up to two (past two, the
#: one loader or the disk is what waits).
DEFAULT_JOBS = min(2, os.cpu_count() or 1)


#: The query limits `kg serve` and `kg mcp` take, as fields of kg.endpoint.policy.Limits: option -> (field,
#: type, metavar, how many bits the option's unit is above the field's (MiB options of byte fields: 20), what it
#: bounds).
LIMIT_OPTIONS: dict[str, tuple[str, type, str, int, str]] = {
    "--timeout": ("timeout", float, "SECONDS", 0, "time limit per query"),
    "--max-memory": ("max_memory", int, "MIB", 20, "resident memory limit per worker"),
    "--max-body": ("max_body", int, "BYTES", 0, "largest accepted request body"),
    "--max-query-bytes": ("max_query_bytes", int, "BYTES", 0, "largest accepted query text"),
    "--max-result": ("max_result", int, "MIB", 20, "largest serialized result, else 507"),
    "--max-groups": ("max_groups", int, "N", 0, "budget of `{`, `(` and `[` in a query, a parser-stack guard"),
}


def add_limit_options(p: argparse.ArgumentParser, flags: tuple[str, ...] = tuple(LIMIT_OPTIONS)) -> None:
    """The LIMIT_OPTIONS named, each defaulting to the endpoint's own limit."""
    from kg.endpoint.policy import Limits

    defaults = Limits()
    for flag in flags:
        field, kind, metavar, shift, what = LIMIT_OPTIONS[flag]
        default = getattr(defaults, field) >> shift if shift else getattr(defaults, field)
        shown = f"{default:g}" if isinstance(default, float) else str(default)
        p.add_argument(flag, type=kind, default=default, metavar=metavar, help=f"{what} (default: {shown})")


def limits_from(args: argparse.Namespace) -> Limits:
    """The endpoint's limits with those the command's LIMIT_OPTIONS set."""
    from dataclasses import replace

    from kg.endpoint.policy import Limits

    given = {}
    for flag, (field, _, _, shift, _) in LIMIT_OPTIONS.items():
        value = getattr(args, flag[2:].replace("-", "_"), None)
        if value is not None:
            given[field] = value << shift if shift else value
    return replace(Limits(), **given)


def add_store_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", metavar="PATH", help="store directory (default: $KG_STORE, else ./.kg/store)")


def add_jobs_option(p: argparse.ArgumentParser, help: str, default: int | None = DEFAULT_JOBS) -> None:
    """--jobs N: worker processes (checked by `kg.cli.output.refuse_bad_jobs`)."""
    p.add_argument("--jobs", type=int, default=default, metavar="N", help=help)


def add_backend_options(p: argparse.ArgumentParser, what: str = "query") -> None:
    """--store, or --endpoint URL with --token: where a reading command's SPARQL runs (see kg/query/backend.py)."""
    add_store_option(p)
    p.add_argument("--endpoint", metavar="URL", help=f"{what} this SPARQL 1.1 endpoint instead of the store")
    p.add_argument("--token", help="bearer token for --endpoint")


def add_deployment_option(p: argparse.ArgumentParser) -> None:
    """--deployment FILE: product shards and their replicas (`kg export --shards`; see kg/query/deployment.py)."""
    p.add_argument(
        "--deployment",
        metavar="FILE",
        help="route by product to the shards and replicas this deployment file lists (written by kg export --shards)",
    )
    add_deadline_option(p)


def add_deadline_option(p: argparse.ArgumentParser) -> None:
    """--deadline SECONDS: the whole time one replica call may take (overrides the deployment file's `deadline`)."""
    p.add_argument(
        "--deadline",
        type=seconds,
        metavar="SECONDS",
        help="with --deployment: seconds one replica call may take in all before the next replica is tried "
        "(default: the file's `deadline`, else 20)",
    )


def seconds(text: str) -> float:
    """A finite, positive number of seconds, at most an hour (argparse's type: a bad one is a usage error)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 3600:  # nan and inf fail this too
        raise argparse.ArgumentTypeError(f"not a number of seconds between 0 and 3600: {text!r}")
    return value


def open_args_backend(args: argparse.Namespace) -> Backend:
    """The backend --deployment, --endpoint / --token or --store name; --token without --endpoint is refused."""
    from kg.cli.output import refuse_together, refuse_unused
    from kg.paths import store_path
    from kg.query.backend import open_backend, store_location

    refuse_unused(args, {"token": "endpoint", "deadline": "deployment"})
    if getattr(args, "deployment", None):
        from kg.query.deployment import open_deployment

        refuse_together(args, [("deployment", "endpoint"), ("deployment", "store")])
        return open_deployment(args.deployment, args.deadline)
    return open_backend(args.endpoint or store_location(store_path(args.store)), token=args.token)


def add_what_if_options(p: argparse.ArgumentParser) -> None:
    """`--with FILE` / `--without FILE`: run over a scratch copy of the product's graph (see kg/query/whatif.py)."""
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


def add_force_option(p: argparse.ArgumentParser) -> None:
    """--force: the one way to let a command replace a file that exists (kg.paths.open_output)."""
    p.add_argument("--force", action="store_true", help="replace output files that exist (default: refuse)")


def add_herb_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--herb", metavar="PATH", help="HERB data folder (default: $HERB_DATA, else ../shared/herb)")
