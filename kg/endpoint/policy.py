"""What a query may be and which dataset it runs on: decided without parsing SPARQL.

Two rules keep "what is checked" equal to "what runs":

- isolation is the engine's dataset, never a reading of the text: a product token's query always runs with
  `default_graph = named_graphs = ` its granted graphs, which override FROM / FROM NAMED and leave GRAPH
  nothing else to reach;
- SERVICE cannot call out. Normally the workers run in an empty network namespace, so whatever the engine
  reads as SERVICE fails to connect (and the client gets 403); the text is not read for it at all, so a
  literal such as "self-service analytics" passes. Where no namespace can be made, SERVICE is refused on a
  superset of every spelling instead: the letters "service" anywhere in the text, or in the text with its
  `\\uXXXX` / `\\UXXXXXXXX` escapes decoded (repeatedly), case-folded. No parser can find a SERVICE keyword in
  a text that has no such letters.

The size and nesting budgets run on raw text before any parser sees it, so a parse bomb never reaches one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kg.endpoint.access import Grant

_UCHAR = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
_WORD_UNION = re.compile(r"union", re.IGNORECASE)
_OPERATORS = re.compile(r"&&|\|\||[-+*/=<>|^]")


class HttpError(Exception):
    """A refusal: the status code and a one-line reason for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Limits:
    """Every bound the endpoint enforces; docs/endpoint.md lists the defaults and why."""

    max_body: int = 1 << 20
    max_query_bytes: int = 64 << 10
    # Measured on pyoxigraph 0.5.13 (docs/endpoint.md): an 8 MiB stack overflowed at 2,000 nested OPTIONAL,
    # 5,000 `{` or `(`, 10,000 UNION, `!` or `+1`; the worker's 256 MiB stack passed 20,000 `+1`.
    max_groups: int = 1000  # `{`, `(` and `[`, nested or not
    max_unions: int = 1000
    max_negations: int = 1000  # `!`
    max_operators: int = 16000  # `+ - * / = < > | ^ && ||`; IRIs count too, so 64 KiB of IRIs stays below
    timeout: float = 30.0
    max_memory: int = 1 << 30
    max_result: int = 64 << 20


def decoded(text: str) -> str:
    """The text with `\\uXXXX` / `\\UXXXXXXXX` escapes replaced, repeated until nothing changes."""
    while True:
        out = _UCHAR.sub(_unescape, text)
        if out == text:
            return out
        text = out


def _unescape(match: re.Match[str]) -> str:
    code = int(match.group(1) or match.group(2), 16)
    return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else match.group()


def mentions_service(text: str) -> bool:
    return "service" in text.casefold() or "service" in decoded(text).casefold()


SERVICE_REFUSAL = (
    'the query contains the letters "service" (or escapes that spell them): SERVICE (federated query) is '
    'disabled, and any text that could spell it is refused. In a string, split the word: CONCAT("serv", "ice")'
)


def check_query(text: str, limits: Limits, *, service_by_text: bool = True) -> None:
    """Refuse (413 / 400 / 403) a query over the size or nesting budgets, or, with `service_by_text` (the
    workers have network access), one whose text could spell SERVICE."""
    size = len(text.encode())
    if size > limits.max_query_bytes:
        raise HttpError(413, f"the query is {size} bytes; the limit is {limits.max_query_bytes}")
    budgets = [
        ("groups ({, ( and [)", sum(text.count(c) for c in "{(["), limits.max_groups),
        ("UNIONs", len(_WORD_UNION.findall(text)), limits.max_unions),
        ("negations (!)", text.count("!"), limits.max_negations),
        ("operators", len(_OPERATORS.findall(text)), limits.max_operators),
    ]
    for what, count, limit in budgets:
        if count > limit:
            raise HttpError(
                400, f"the query has {count} {what}; the limit is {limit} (a guard against parser stack overflow)"
            )
    if service_by_text and mentions_service(text):
        raise HttpError(403, SERVICE_REFUSAL)


def check_iris(iris: list[str]) -> None:
    """400 for a graph name that is not an IRI (the engine would fail on it later, as a 500)."""
    from pyoxigraph import NamedNode

    for iri in iris:
        try:
            NamedNode(iri)
        except ValueError:
            shown = iri[:200].encode("unicode_escape").decode()
            raise HttpError(400, f"not an IRI: {shown!r} (a graph is named by an absolute IRI)") from None


@dataclass(frozen=True)
class Dataset:
    """The engine's dataset for one query: explicit graphs (None: not set) or the union of all graphs."""

    default: tuple[str, ...] | None = None
    named: tuple[str, ...] | None = None
    union: bool = False


def dataset_for(grant: Grant, default_uris: list[str], named_uris: list[str]) -> Dataset:
    """The dataset a query runs on, from the grant and the Protocol's default-graph-uri / named-graph-uri.

    A product token gets its granted graphs unless it asks for a subset (403 for any graph outside the
    grant). As the Protocol says, a request naming only default graphs sees no named graphs, and the other
    way round. The admin token reads the union of all graphs by default.
    """
    check_iris([*default_uris, *named_uris])
    if forbidden := grant.refused([*default_uris, *named_uris]):
        raise HttpError(403, f"this token may not read graph <{forbidden[0]}>")
    if default_uris or named_uris:
        return Dataset(tuple(default_uris), tuple(named_uris))
    if grant.graphs is None:
        return Dataset(union=True)
    graphs = tuple(sorted(grant.graphs))
    return Dataset(graphs, graphs)
