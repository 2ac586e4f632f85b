"""`kg serve`: the store as a read-only SPARQL 1.1 endpoint (Oxigraph behind an access-checking proxy)."""

from __future__ import annotations

import argparse
from pathlib import Path

from kg.cli import add_store_option
from kg.paths import store_path
from kg.serve import Settings, serve


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve", help="serve the store as a read-only SPARQL 1.1 endpoint with per-product tokens",
        description="Serve /query (GET, POST), /store?graph=IRI (Graph Store GET) and a service description; "
                    "/update is refused. Without --access only loopback clients are answered.")
    add_store_option(p)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=7878, help="port to listen on (default: 7878)")
    p.add_argument("--access", metavar="FILE", type=Path,
                   help="YAML/JSON file mapping bearer tokens to '*' (admin) or a list of product names")
    p.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                   help="time limit per query (default: 30)")
    p.add_argument("--max-body", type=int, default=1 << 20, metavar="BYTES",
                   help="largest accepted request body (default: 1 MiB)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    serve(Settings(store=store_path(args.store), host=args.host, port=args.port, access=args.access,
                   timeout=args.timeout, max_body=args.max_body))
    return 0
