"""`kg query FILE.rq|-`: run any SPARQL query on the store or an endpoint."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable

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
from kg.endpoint.policy import HttpError, Limits, check_query
from kg.errors import KGError
from kg.namespaces import expand
from kg.paths import MAX_INPUT, read_input_text
from kg.query.sparql import Term, check_product, product_dataset

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


#: The server's text budgets, with a tighter operator budget: the CLI parses on the main thread's stack
#: (8 MiB, where 10,000 `+1` overflowed), not on a worker's 256 MiB one.
CLI_LIMITS = Limits(max_operators=4000)


def read_query(name: str) -> str:
    """The query text: a file through the CLI's one input opener, or standard input (within the same cap)."""
    if name != "-":
        return read_input_text(name, "query file")
    data = sys.stdin.buffer.read(MAX_INPUT + 1)
    if len(data) > MAX_INPUT:
        raise KGError(f"standard input is larger than the {MAX_INPUT >> 20} MiB a query may be")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KGError(f"cannot read standard input: {exc}") from exc


def check_text(text: str, local: bool) -> None:
    """The endpoint's budgets before any parser runs (a deep nesting overflows the parser's stack: a crash,
    not an error), and on the local store no SERVICE: the store would open the connection itself."""
    try:
        check_query(text, CLI_LIMITS, service_by_text=local)
    except HttpError as exc:
        if exc.status == 403:
            raise KGError(
                "SERVICE (federated query) is refused on the local store: kg query never connects out "
                '(the letters \'service\' in any case or escape count; write a literal as CONCAT("serv", "ice"))'
            ) from None
        raise KGError(exc.message) from None


def parse_binding(spec: str) -> tuple[str, NamedNode | Literal]:
    name, sep, value = spec.partition("=")
    if not sep or not name.lstrip("?"):
        raise KGError(f"--bind expects VAR=VALUE, got {spec!r}")
    try:
        if value.startswith("<") and value.endswith(">"):
            return name.lstrip("?"), NamedNode(value[1:-1])
        if value.startswith(("http://", "https://")) or expand(value) != value:
            return name.lstrip("?"), NamedNode(expand(value))
    except ValueError as exc:
        raise KGError(f"--bind {spec!r}: not an IRI ({exc})") from None
    return name.lstrip("?"), Literal(value)


def run(args: argparse.Namespace) -> int:
    refuse_unused(args, {"token": "endpoint"})  # option mistakes first, before any file is read
    text = read_query(args.file)
    check_text(text, local=not args.endpoint)
    bindings: dict[str, Term] = dict(parse_binding(b) for b in args.bind)
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
        write_bytes(serialized(result.serialize(format=RESULT_FORMATS[fmt])))
    elif isinstance(result, QuerySolutions):
        names = [v.value for v in result.variables]
        print_table(names, [[s[n].value if s[n] is not None else "" for n in names] for s in result])
    elif not isinstance(result, QueryBoolean):
        if fmt != "table":
            print(
                f"kg: note: CONSTRUCT and DESCRIBE give a graph, not {fmt} results: writing N-Triples", file=sys.stderr
            )
        write_bytes(serialized(serialize(result, format=RdfFormat.TURTLE if fmt == "table" else RdfFormat.N_TRIPLES)))


def serialized(data: bytes | None) -> bytes:
    """What a pyoxigraph serializer returns when given no output: the bytes (typed as optional)."""
    assert data is not None
    return data
