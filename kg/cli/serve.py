"""`kg serve`: the store as a read-only SPARQL 1.1 endpoint (worker processes behind an aiohttp server)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from kg.cli import add_limit_options, add_store_option, limits_from
from kg.paths import store_path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the store as a read-only SPARQL 1.1 endpoint with per-product tokens",
        description="Serve / (a query page), /query (GET, POST), /store?graph=IRI (Graph Store GET), /ask (the "
        "answer page) and a service description; /update is refused. Without --access only loopback clients are "
        "answered. docs/endpoint.md has the threat model and every limit.",
    )
    add_store_option(p)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=7878, help="port to listen on (default: 7878; 0 picks a free one)")
    p.add_argument(
        "--access",
        metavar="FILE",
        type=Path,
        help="YAML/JSON file mapping bearer tokens (or names) to '*' (admin) or a list of products",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=2 * (os.cpu_count() or 1),
        help="query worker processes, one query at a time each (default: twice the CPU count, so a core never "
        "waits while a worker's reply crosses the pipe)",
    )
    add_limit_options(p)
    p.add_argument(
        "--client-timeout",
        type=float,
        default=15.0,
        metavar="SECONDS",
        help="time for a client's headers and body, and idle keep-alive limit (default: 15)",
    )
    p.add_argument(
        "--max-connections",
        type=int,
        default=256,
        help="open client connections; a newcomer takes the slot of the longest-idle one (default: 256)",
    )
    p.add_argument(
        "--max-per-client",
        type=int,
        default=32,
        metavar="N",
        help="open connections from one client address (default: 32)",
    )
    p.add_argument(
        "--max-per-token",
        type=int,
        metavar="N",
        help="queries one token may have at the workers at once; the rest wait their turn (default: a quarter of "
        "the workers, at least 1; no limit without --access)",
    )
    p.add_argument(
        "--max-inflight",
        type=int,
        metavar="MIB",
        help="result bytes the server holds for clients still reading them, in all (default: workers x --max-result)",
    )
    p.add_argument(
        "--send-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="time a client has to read a whole reply before the connection is closed (default: 60)",
    )
    p.add_argument(
        "--allow-host",
        metavar="NAME[,NAME…]",
        default="",
        help="host names clients may reach the server by, besides localhost, this machine's name, --host and any IP "
        "address; other Host headers get 421, a guard against DNS rebinding ('*': any, behind a proxy that checks)",
    )
    p.add_argument(
        "--cors",
        metavar="ORIGIN[,ORIGIN…]",
        default="",
        help="browser origins allowed to call the endpoint, or '*' (default: none)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kg.endpoint import Settings, serve

    cors = tuple(o.strip() for o in args.cors.split(",") if o.strip())
    allow_hosts = tuple(h.strip() for h in args.allow_host.split(",") if h.strip())
    serve(
        Settings(
            store=store_path(args.store),
            host=args.host,
            port=args.port,
            access=args.access,
            workers=args.workers,
            limits=limits_from(args),
            cors=cors,
            allow_hosts=allow_hosts,
            client_timeout=args.client_timeout,
            max_connections=args.max_connections,
            max_per_client=args.max_per_client,
            max_per_token=args.max_per_token,
            max_inflight=args.max_inflight << 20 if args.max_inflight is not None else None,
            send_timeout=args.send_timeout,
        )
    )
    return 0
