"""`kg query FILE.rq|-`: run any SPARQL query on the store or an endpoint."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from pyoxigraph import (
    Literal,
    NamedNode,
    QueryBoolean,
    QueryResultsFormat,
    QuerySolutions,
    RdfFormat,
    Triple,
    serialize,
)

from kg.cli import add_backend_options, add_deployment_option, add_what_if_options, open_args_backend
from kg.cli.output import refuse_unused, write_bytes
from kg.cli.table import print_table
from kg.errors import KGError
from kg.namespaces import expand
from kg.query.sparql import check_product, product_dataset

RESULT_FORMATS = {
    "json": QueryResultsFormat.JSON,
    "csv": QueryResultsFormat.CSV,
    "tsv": QueryResultsFormat.TSV,
    "xml": QueryResultsFormat.XML,
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("query", help="run a SPARQL query (SELECT, ASK, CONSTRUCT, DESCRIBE)")
    p.add_argument("file", metavar="FILE.rq|-", help="query file, or - for standard input")
    add_backend_options(p, "run against")
    add_deployment_option(p)
    p.add_argument(
        "--format",
        choices=["table", *RESULT_FORMATS],
        default="table",
        help="SELECT/ASK output (store or --endpoint); CONSTRUCT/DESCRIBE print Turtle for table, else N-Triples",
    )
    p.add_argument("--product", help="scope the default graph to this product's graph (+ the org graph)")
    p.add_argument(
        "--bind",
        action="append",
        default=[],
        metavar="VAR=VALUE",
        help="bind ?VAR: <iri>, a CURIE like ekg:Bug, or a plain literal (repeatable); the store binds "
        "only variables the result carries (SELECT list, or a pattern of an ASK), an endpoint "
        "every variable the query uses",
    )
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


def run(args: argparse.Namespace) -> int:
    refuse_unused(args, {"token": "endpoint"})  # option mistakes first, before any file is read
    text = read_query(args.file)
    bindings = dict(parse_binding(b) for b in args.bind)
    engine = open_args_backend(args)
    check_product(engine, args.product)
    if args.with_files or args.without_files:
        if args.endpoint or args.deployment:
            raise KGError(
                "--with / --without run on a scratch copy of the local store, not on --endpoint or --deployment"
            )
        from kg.cli.whatif import scratch_store

        engine = scratch_store(args)
    print_result(engine.run(text, bindings, product_dataset(args.product)), args.format)
    return 0


def print_result(result: QueryBoolean | QuerySolutions | Iterable[Triple], fmt: str) -> None:
    """One printer for the embedded store and an endpoint: a table, or the chosen SPARQL results format."""
    if isinstance(result, QueryBoolean) and fmt == "table":
        print("true" if result else "false")
    elif isinstance(result, QueryBoolean | QuerySolutions) and fmt != "table":
        write_bytes(result.serialize(format=RESULT_FORMATS[fmt]))
    elif isinstance(result, QuerySolutions):
        names = [v.value for v in result.variables]
        print_table(names, [[s[n].value if s[n] is not None else "" for n in names] for s in result])
    else:
        if fmt != "table":
            print(
                f"kg: note: CONSTRUCT and DESCRIBE give a graph, not {fmt} results: writing N-Triples", file=sys.stderr
            )
        write_bytes(serialize(result, format=RdfFormat.TURTLE if fmt == "table" else RdfFormat.N_TRIPLES))
