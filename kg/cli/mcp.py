"""`kg mcp`: serve the graph to agents over the Model Context Protocol (stdio, or streamable HTTP on 127.0.0.1)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from kg.cli import add_limit_options, add_store_option, limits_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "mcp",
        help="serve questions, intents, SPARQL and evidence as MCP tools (stdio or streamable HTTP)",
        description="An MCP server for agents: tools ask, intents, run_intent, query, search, artifact, timeline "
        "and people, and the ontology and product list as resources. Access is kg serve's: with --access FILE a "
        "bearer token (over HTTP) or --token (over stdio) picks the products a session reads. docs/mcp.md has "
        "client configurations.",
    )
    add_store_option(p)
    p.add_argument("--endpoint", metavar="URL", help="answer from this SPARQL 1.1 endpoint instead of the store")
    p.add_argument(
        "--deployment",
        metavar="FILE",
        type=Path,
        help="answer from the product shards this deployment file lists (written by kg export --shards)",
    )
    p.add_argument(
        "--token",
        help="with --endpoint: its bearer token (HTTP callers' own tokens take precedence); with --access: the "
        "grant of a stdio session",
    )
    p.add_argument("--transport", choices=["stdio", "http"], default="stdio", help="default: stdio")
    p.add_argument(
        "--port",
        type=int,
        default=7879,
        help="with --transport http: port on 127.0.0.1 (default 7879; 0 picks a free one)",
    )
    p.add_argument(
        "--access",
        metavar="FILE",
        type=Path,
        help="kg serve's access file (tokens to products); over stdio, --token picks this session's grant",
    )
    p.add_argument("--workers", type=int, default=2, help="query worker processes for the query tool (default 2)")
    add_limit_options(p, ("--timeout",))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kg.errors import KGError
    from kg.mcp.server import serve
    from kg.mcp.service import Service, Settings
    from kg.paths import store_path

    if args.workers < 1 or not 0 < args.timeout < math.inf or not 0 <= args.port < 65536:
        raise KGError("--workers and --timeout must be positive (a finite number of seconds), --port a port number")
    settings = Settings(
        store=store_path(args.store),
        endpoint=args.endpoint,
        deployment=args.deployment,
        token=args.token,
        access=args.access,
        workers=args.workers,
        limits=limits_from(args),
    )
    serve(Service(settings), args.transport, args.port)
    return 0
