"""`kg`: a thin command line over the library. Each subcommand lives in `kg/cli/<name>.py`.

Only the module of the command being run is imported (pandas, the search stack or pyshacl load only for the
commands that use them), so one `kg ask` starts in a fraction of a second; `kg --help` imports them all.
User errors (KGError) print one line and exit 2; nothing a user can cause prints a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from typing import TYPE_CHECKING

from kg import __version__
from kg.errors import KGError

if TYPE_CHECKING:
    from kg.query.sparql import Backend

#: Worker processes of `kg build --jobs` and `kg ask --batch --jobs`: one per core, up to two (past two, the
#: one loader or the disk is what waits).
DEFAULT_JOBS = min(2, os.cpu_count() or 1)

#: Subcommand modules, in the order `kg --help` lists them. Each exposes `register(subparsers)`.
COMMANDS = [
    "build",
    "stats",
    "query",
    "validate",
    "export",
    "ask",
    "eval",
    "serve",
    "index",
    "search",
    "align",
    "rules",
    "intents",
    "timeline",
    "analyze",
]


def command_of(argv: list[str]) -> str | None:
    """The subcommand argv names: the first word that is not a top-level option (none of those takes a value)."""
    word = next((w for w in argv if not w.startswith("-")), None)
    return word if word in COMMANDS else None


def parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser for `argv`: with a known command, only that command's module is imported and registered."""
    top = argparse.ArgumentParser(prog="kg", description="Enterprise knowledge graph toolkit over HERB.")
    top.add_argument("--version", action="version", version=f"kg {__version__}")
    top.add_argument("-v", "--verbose", action="store_true", help="log debug detail")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", required=True)
    command = command_of(sys.argv[1:] if argv is None else argv)
    for name in [command] if command else COMMANDS:
        importlib.import_module(f"kg.cli.{name}").register(sub)
    return top


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


def open_args_backend(args: argparse.Namespace) -> Backend:
    """The backend --deployment, --endpoint / --token or --store name; --token without --endpoint is refused."""
    from kg.cli.output import refuse_together, refuse_unused
    from kg.paths import store_path
    from kg.query.backend import open_backend, store_location

    refuse_unused(args, {"token": "endpoint"})
    if getattr(args, "deployment", None):
        from kg.query.deployment import open_deployment

        refuse_together(args, [("deployment", "endpoint"), ("deployment", "store")])
        return open_deployment(args.deployment)
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


def add_herb_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--herb", metavar="PATH", help="HERB data folder (default: $HERB_DATA, else ../shared/herb)")


def main(argv: list[str] | None = None) -> int:
    args = parser(argv).parse_args(argv)
    for level in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR):
        logging.addLevelName(level, logging.getLevelName(level).lower())  # `kg: warning:`, as kg.cli.output.warn
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING, format="kg: %(levelname)s: %(message)s"
    )
    for noisy in ("bm25s", "urllib3", "owlready2"):
        logging.getLogger(noisy).setLevel(logging.DEBUG if args.verbose else logging.WARNING)
    try:
        return int(args.func(args) or 0)
    except KGError as exc:
        print(f"kg: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("kg: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
