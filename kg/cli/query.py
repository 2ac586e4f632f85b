"""`kg query FILE.rq|-`: run any SPARQL query on the store or an endpoint."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pyoxigraph import Literal, NamedNode, QueryBoolean, QueryResultsFormat, QuerySolutions, RdfFormat

from kg.cli import add_store_option, add_what_if_options
from kg.cli.table import print_table
from kg.errors import KGError
from kg.namespaces import expand
from kg.paths import store_path
from kg.sparql import EmbeddedStore, product_dataset

RESULT_FORMATS = {"json": QueryResultsFormat.JSON, "csv": QueryResultsFormat.CSV, "tsv": QueryResultsFormat.TSV,
                  "xml": QueryResultsFormat.XML}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("query", help="run a SPARQL query (SELECT, ASK, CONSTRUCT, DESCRIBE)")
    p.add_argument("file", metavar="FILE.rq|-", help="query file, or - for standard input")
    add_store_option(p)
    p.add_argument("--format", choices=["table", *RESULT_FORMATS], default="table")
    p.add_argument("--product", help="scope the default graph to this product's graph (+ the org graph)")
    p.add_argument("--bind", action="append", default=[], metavar="VAR=VALUE",
                   help="bind ?VAR: <iri>, a CURIE like ekg:Bug, or a plain literal (repeatable)")
    p.add_argument("--endpoint", metavar="URL", help="run against this SPARQL 1.1 endpoint instead of the store")
    p.add_argument("--token", help="bearer token for --endpoint")
    add_what_if_options(p)
    p.set_defaults(func=run)


def read_query(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KGError(f"cannot read query file {name}: {exc}") from exc


def parse_binding(spec: str) -> tuple[str, NamedNode | Literal]:
    name, sep, value = spec.partition("=")
    if not sep or not name.lstrip("?"):
        raise KGError(f"--bind expects VAR=VALUE, got {spec!r}")
    if value.startswith("<") and value.endswith(">"):
        return name.lstrip("?"), NamedNode(value[1:-1])
    if value.startswith(("http://", "https://")) or expand(value) != value:
        return name.lstrip("?"), NamedNode(expand(value))
    return name.lstrip("?"), Literal(value)


def run_remote(args: argparse.Namespace, text: str, bindings: dict[str, NamedNode | Literal],
               graphs: list[NamedNode] | None) -> int:
    """The same query over the SPARQL 1.1 Protocol; the form decides which client call runs it."""
    from kg.remote import RemoteEndpoint
    from kg.sparql_tokens import query_form

    endpoint = RemoteEndpoint(args.endpoint, token=args.token)
    form = query_form(text)
    if form == "ASK":
        print("true" if endpoint.ask(text, bindings, graphs) else "false")
    elif form in ("CONSTRUCT", "DESCRIBE"):
        for triple in endpoint.construct(text, bindings, graphs):
            print(f"{triple} .")
    elif form == "SELECT":
        rows = endpoint.select(text, bindings, graphs)
        names = list(dict.fromkeys(k for r in rows for k in r))
        print_table(names, [[r[n].value if n in r else "" for n in names] for r in rows])
    else:
        raise KGError("not a SPARQL query (SELECT, ASK, CONSTRUCT or DESCRIBE); updates are refused")
    return 0


def run(args: argparse.Namespace) -> int:
    text = read_query(args.file)
    bindings = dict(parse_binding(b) for b in args.bind)
    graphs = product_dataset(args.product)
    if args.endpoint:
        return run_remote(args, text, bindings, graphs)
    if args.with_files or args.without_files:
        from kg.cli.whatif import scratch_store

        store = scratch_store(args)
    else:
        store = EmbeddedStore(store_path(args.store))
    result = store.run(text, bindings, graphs)
    out = sys.stdout.buffer
    if isinstance(result, QueryBoolean):
        print("true" if result else "false")
    elif isinstance(result, QuerySolutions):
        if args.format == "table":
            names = [v.value for v in result.variables]
            print_table(names, [[s[n].value if s[n] is not None else "" for n in names] for s in result])
        else:
            result.serialize(out, RESULT_FORMATS[args.format])
    else:
        result.serialize(out, RdfFormat.N_TRIPLES if args.format != "table" else RdfFormat.TURTLE)
    return 0
