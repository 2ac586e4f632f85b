"""The remote backend: the same `sparql/` library run against any SPARQL 1.1 Protocol endpoint.

Parameters cannot travel as pyoxigraph substitutions over HTTP, so they are inlined as a VALUES block placed
first in the query's outermost WHERE group (and in each sub-select's, which has its own scope), each term
written as an escaped N-Triples term (never raw text).
A product scope travels as the Protocol's `default-graph-uri`. Results come back as SPARQL JSON and are parsed
into pyoxigraph terms, so they compare equal with the embedded store's.
"""

from __future__ import annotations

import re

import requests
from pyoxigraph import (
    Literal,
    NamedNode,
    QueryBoolean,
    QueryResultsFormat,
    QuerySolutions,
    RdfFormat,
    Triple,
    parse,
    parse_query_results,
)

from kg.errors import KGError
from kg.namespaces import XSD
from kg.sparql import Row, Term, boolean, prefixed, solution_rows
from kg.sparql_tokens import binding_points

_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def iri_term(node: NamedNode) -> str:
    """`<iri>` as is: NamedNode already refuses every character an IRIREF cannot hold."""
    return f"<{node.value}>"


def literal_term(literal: Literal) -> str:
    """`"text"`, `"text"@lang` or `"text"^^<datatype>`, escaped as in N-Triples."""
    text = '"' + "".join(_STRING_ESCAPES.get(c, c) for c in literal.value) + '"'
    if literal.language:
        return f"{text}@{literal.language}"
    if literal.datatype.value == XSD + "string":
        return text
    return f"{text}^^{iri_term(literal.datatype)}"


def sparql_term(value: Term) -> str:
    if isinstance(value, NamedNode):
        return iri_term(value)
    if isinstance(value, Literal):
        return literal_term(value)
    raise KGError(f"cannot bind {value!r} on a remote endpoint: only IRIs and literals can be sent")


def values_block(bindings: dict[str, Term]) -> str:
    """`VALUES (?a ?b) { (<iri> "literal") }` for one row of bindings."""
    names = [name.lstrip("?$") for name in bindings]
    if bad := [n for n in names if not _VARIABLE.fullmatch(n)]:
        raise KGError(f"not a SPARQL variable name: {bad[0]!r}")
    terms = " ".join(sparql_term(v) for v in bindings.values())
    return f"VALUES ({' '.join('?' + n for n in names)}) {{ ({terms}) }}"


def bind(query: str, bindings: dict[str, Term] | None) -> str:
    """The query with its parameters inlined as a VALUES block, first in the outermost WHERE group and in
    every sub-select's, so each scope sees them as pyoxigraph substitution would."""
    if not bindings:
        return query
    try:
        points = binding_points(query)
    except ValueError as exc:
        raise KGError(f"cannot bind parameters: {exc}") from exc
    block = values_block(bindings)
    for at in sorted(points, reverse=True):
        query = f"{query[:at]} {block} {query[at:]}"
    return query


def protocol_form(query: str, bindings: dict[str, Term] | None = None,
                  graphs: list[NamedNode] | None = None) -> list[tuple[str, str]]:
    """The SPARQL 1.1 Protocol form fields for a library query: bound text plus the product's dataset."""
    dataset = [("default-graph-uri", g.value) for g in graphs or []]
    return [("query", bind(prefixed(query), bindings)), *dataset]


class RemoteEndpoint:
    """Any SPARQL 1.1 Protocol endpoint (kg serve, Fuseki, GraphDB, Virtuoso, QLever), optional token."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 60.0) -> None:
        self.url, self.timeout = url, timeout
        self.session = requests.Session()
        if token:
            self.session.headers["Authorization"] = f"Bearer {token}"

    def select(self, query: str, bindings: dict[str, Term] | None = None,
               graphs: list[NamedNode] | None = None) -> list[Row]:
        return solution_rows(self._results(query, bindings, graphs))

    def ask(self, query: str, bindings: dict[str, Term] | None = None,
            graphs: list[NamedNode] | None = None) -> bool:
        return boolean(self._results(query, bindings, graphs))

    def construct(self, query: str, bindings: dict[str, Term] | None = None,
                  graphs: list[NamedNode] | None = None) -> list[Triple]:
        """The triples of a CONSTRUCT or DESCRIBE query."""
        body = self._post(query, bindings, graphs, "application/n-triples")
        try:
            return [q.triple for q in parse(body, format=RdfFormat.N_TRIPLES)]
        except SyntaxError as exc:
            raise KGError(f"{self.url} did not answer with N-Triples: {exc}") from exc

    def _results(self, query: str, bindings: dict[str, Term] | None,
                 graphs: list[NamedNode] | None) -> QuerySolutions | QueryBoolean:
        body = self._post(query, bindings, graphs, "application/sparql-results+json")
        try:
            return parse_query_results(body, format=QueryResultsFormat.JSON)
        except SyntaxError as exc:
            raise KGError(f"{self.url} did not answer with SPARQL JSON results: {exc}") from exc

    def _post(self, query: str, bindings: dict[str, Term] | None, graphs: list[NamedNode] | None,
              accept: str) -> bytes:
        data = protocol_form(query, bindings, graphs)
        try:
            response = self.session.post(self.url, data=data, headers={"Accept": accept},
                                         timeout=self.timeout)
        except requests.RequestException as exc:
            raise KGError(f"cannot reach the SPARQL endpoint {self.url}: {exc}") from exc
        if response.status_code >= 400:
            reason = response.text.strip().splitlines()[0] if response.text.strip() else response.reason
            raise KGError(f"the SPARQL endpoint {self.url} answered {response.status_code}: {reason}")
        return response.content
