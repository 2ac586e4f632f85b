"""The remote backend: the same `sparql/` library run against any SPARQL 1.1 Protocol endpoint.

Parameters cannot travel as pyoxigraph substitutions over HTTP, so each use of a parameter in the text is
replaced by its term, written as an escaped N-Triples term (never raw text), following the same SEP-0007
semantics pyoxigraph applies embedded (`bind`). Nothing is joined from outside the query's patterns: engines
disagree on how a leading VALUES or BIND meets a UNION (Virtuoso drops the branches that do not mention it).
A product scope travels as the Protocol's `default-graph-uri`. Results come back as SPARQL JSON and are parsed
into pyoxigraph terms, so they compare equal with the embedded store's. Every failure (unreachable, refused,
timed out, a refusal, a redirect, a body that is not SPARQL results) raises `Unavailable` (a KGError) naming the
URL: never a silent empty result, so it can never pass for an abstention.
"""

from __future__ import annotations

import contextlib
import http.client
import re
import socket
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import Message
from urllib.parse import urlencode, urlsplit

from pyoxigraph import (
    Literal,
    NamedNode,
    QueryBoolean,
    QueryResultsFormat,
    QuerySolutions,
    RdfFormat,
    Store,
    Triple,
    parse,
    parse_query_results,
)

from kg.errors import KGError, Unavailable
from kg.namespaces import XSD
from kg.query.sparql import Row, Term, prefixed, solution_rows, solutions
from kg.query.tokens import Token, query_form, tokens

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


def bind(query: str, bindings: Mapping[str, Term] | None) -> str:
    """The query with each parameter substituted where it is used, as pyoxigraph substitution binds it.

    No VALUES or BIND block is added (some engines, Virtuoso among them, drop the UNION branches that do not
    mention a variable joined from outside). Each use becomes the term itself; a projected parameter becomes
    `(term AS ?v)` (kept bare where a sub-select already yields it), a GROUP BY / ORDER BY key `(term)`, a
    VALUES column is filtered to the rows that agree with the term, and `SELECT *` gets `BIND(term AS ?v)` so
    the column stays. A sub-select that does not project the parameter keeps its own variable, untouched.
    """
    if not bindings:
        return query
    names = {name.lstrip("?$"): value for name, value in bindings.items()}
    if bad := [n for n in names if not _VARIABLE.fullmatch(n)]:
        raise KGError(f"not a SPARQL variable name: {bad[0]!r}")
    try:
        return _Substitution(query, names).text()
    except (ValueError, IndexError, SyntaxError) as exc:  # text too broken to bind in: say so, never a traceback
        raise KGError(f"cannot bind parameters: {exc or 'the query is incomplete'}") from exc


@dataclass
class _Select:
    """One SELECT (the query's or a sub-select's) as token indices: projection, WHERE group, extent."""

    start: int
    projection_end: int
    group_start: int
    group_end: int
    end: int
    projected: set[str] | None  # None for SELECT *
    parent: _Select | None = None

    def contains(self, i: int) -> bool:
        return self.start <= i < self.end

    def hides(self, name: str) -> bool:
        """A sub-select that does not project the variable has its own, unbound one."""
        return self.parent is not None and self.projected is not None and name not in self.projected


class _Substitution:
    """One query's substitution: the edits are collected by token position, then applied back to front."""

    def __init__(self, query: str, bindings: dict[str, Term]) -> None:
        self.query, self.bindings = query, bindings
        self.toks = list(tokens(query))
        self.depth = _brace_depths(self.toks)
        self.selects = self._selects()
        self.edits: list[tuple[int, int, str]] = []

    def text(self) -> str:
        seen: set[str] = set()
        in_values = self._values_blocks(seen)
        for i, tok in enumerate(self.toks):
            name = tok.text[1:]
            if tok.kind != "var" or name not in self.bindings or i in in_values or self._hidden(i, name):
                continue
            seen.add(name)
            if i and self.toks[i - 1].is_keyword("AS"):
                raise ValueError(f"the query assigns ?{name} itself (… AS ?{name}); it cannot be bound")
            self._replace(i, self._use(i, name))
        for select in self.selects:
            self._star_binds(select, seen)
        if missing := sorted(set(self.bindings) - seen):
            raise ValueError(f"the query has no variable ?{missing[0]} to bind")
        out = self.query
        for start, end, new in sorted(self.edits, reverse=True):
            out = out[:start] + new + out[end:]
        return out

    def _use(self, i: int, name: str) -> str:
        """What one occurrence of a bound variable becomes, by where it stands."""
        term = sparql_term(self.bindings[name])
        select = self._innermost(i)
        if select is None or self._paren_depth(select, i):
            return term
        if select.start < i < select.projection_end:
            if select.parent is not None and not self._yields(select, name):
                return ""  # a sub-select drops the constant column, so its parent can project the term
            return f"?{name}" if self._yielded_below(select, name) else f"({term} AS ?{name})"
        if i > select.group_end:  # GROUP BY / ORDER BY / HAVING key
            return f"?{name}" if self._yielded_below(select, name) else f"({term})"
        return term

    def _selects(self) -> list[_Select]:
        found: list[_Select] = []
        for i, tok in enumerate(self.toks):
            if not tok.is_keyword("SELECT"):
                continue
            projection_end = self._projection_end(i)
            group_start = next((j for j in range(projection_end, len(self.toks)) if self._is(j, "{")), None)
            if group_start is None:
                raise ValueError("a SELECT has no WHERE group")
            group_end = self._closing(group_start)
            end = len(self.toks) if self.depth[i] == 0 else self._closing_at(i, self.depth[i])
            projection = self.toks[i + 1 : projection_end]
            star = any(t.text == "*" for t in projection)
            projected = None if star else {t.text[1:] for t in projection if t.kind == "var"}
            parent = next((s for s in reversed(found) if s.contains(i)), None)
            found.append(_Select(i, projection_end, group_start, group_end, end, projected, parent))
        return found

    def _projection_end(self, i: int) -> int:
        parens = 0
        for j in range(i + 1, len(self.toks)):
            tok = self.toks[j]
            parens += (tok.text == "(") - (tok.text == ")") if tok.kind == "punct" else 0
            if parens == 0 and (tok.is_keyword("WHERE", "FROM") or (tok.kind == "punct" and tok.text == "{")):
                return j
        raise ValueError("a SELECT has no WHERE group")

    def _closing(self, j: int) -> int:
        """The index of the `}` matching the `{` at j."""
        return self._closing_at(j + 1, self.depth[j] + 1)

    def _closing_at(self, i: int, depth: int) -> int:
        """The first `}` after i that closes the group open at this depth."""
        for j in range(i, len(self.toks)):
            if self.toks[j].kind == "punct" and self.toks[j].text == "}" and self.depth[j] == depth:
                return j
        raise ValueError("unbalanced braces")

    def _innermost(self, i: int) -> _Select | None:
        return next((s for s in reversed(self.selects) if s.contains(i)), None)

    def _hidden(self, i: int, name: str) -> bool:
        select = self._innermost(i)
        while select is not None:
            if select.hides(name):
                return True
            select = select.parent
        return False

    def _paren_depth(self, select: _Select, i: int) -> int:
        parens = 0
        for tok in self.toks[select.start + 1 : i]:
            if tok.kind == "punct" and tok.text in "()":
                parens += 1 if tok.text == "(" else -1
        return parens if select.start < i < select.projection_end or i > select.group_end else 0

    def _yielded_below(self, select: _Select, name: str) -> bool:
        """True when a sub-select directly inside this one still yields the variable (as the term)."""
        return any(c.parent is select and self._yields(c, name) for c in self.selects)

    def _yields(self, select: _Select, name: str) -> bool:
        """A sub-select keeps a bound column only under `SELECT *` or when every column it projects is bound
        (a projection cannot be empty); otherwise it drops it."""
        if select.projected is None:
            return self._mentions(select, name) and not self._hidden(select.start, name)
        return name in select.projected and not select.projected - set(self.bindings)

    def _mentions(self, select: _Select, name: str) -> bool:
        return any(t.kind == "var" and t.text[1:] == name for t in self.toks[select.start : select.end])

    def _star_binds(self, select: _Select, seen: set[str]) -> None:
        """`SELECT *` keeps a bound variable as a column: bind it first in its WHERE group."""
        if select.projected is not None:
            return
        for name in sorted(seen):
            if (
                self._mentions(select, name)
                and not self._hidden(select.start, name)
                and not self._yielded_below(select, name)
            ):
                at = self.toks[select.group_start].start + 1
                self.edits.append((at, at, f" BIND({sparql_term(self.bindings[name])} AS ?{name}) "))

    def _values_blocks(self, seen: set[str]) -> set[int]:
        """Rewrite each VALUES block with a bound column; the indices of their variable tokens."""
        skipped: set[int] = set()
        for i, tok in enumerate(self.toks):
            if not tok.is_keyword("VALUES"):
                continue
            columns, close = self._values_columns(i)
            skipped |= set(range(i + 1, close))
            bound = [c for c in columns if c in self.bindings and not self._hidden(i, c)]
            if bound:
                seen.update(bound)
                end = self._closing(close)
                self.edits.append((tok.start, self.toks[end].start + 1, self._filtered_values(i, end, columns)))
        return skipped

    def _values_columns(self, i: int) -> tuple[list[str], int]:
        """The VALUES block's variable names and the index of its `{`."""
        j = i + 1
        if self.toks[j].kind == "var":
            return [self.toks[j].text[1:]], j + 1
        names = []
        while j + 1 < len(self.toks) and self.toks[j + 1].kind == "var":
            j += 1
            names.append(self.toks[j].text[1:])
        return names, j + 2

    def _filtered_values(self, i: int, end: int, columns: list[str]) -> str:
        """The block's rows that agree with the bound terms, without the bound columns (pyoxigraph reads the
        rows, so every term form -- prefixed names, numbers, language tags -- compares exactly)."""
        prologue = self.query[: self.toks[self._form_index()].start]
        block = self.query[self.toks[i].start : self.toks[end].start + 1]
        rows = solutions(Store().query(f"{prologue} SELECT * WHERE {{ {block} }}"))
        kept = [c for c in columns if c not in self.bindings]
        agree = [s for s in rows if all(s[c] is None or s[c] == v for c, v in self.bindings.items() if c in columns)]
        if not agree:
            if self.depth[i] == 0:
                raise ValueError("no row of the trailing VALUES block agrees with the bound parameters")
            return "FILTER(false)"
        if not kept:
            return ""
        body = " ".join(
            "(" + " ".join("UNDEF" if s[c] is None else sparql_term(s[c]) for c in kept) + ")" for s in agree
        )
        return f"VALUES ({' '.join('?' + c for c in kept)}) {{ {body} }}"

    def _form_index(self) -> int:
        found = (j for j, t in enumerate(self.toks) if t.is_keyword("SELECT", "ASK", "CONSTRUCT", "DESCRIBE"))
        if (index := next(found, None)) is None:
            raise ValueError("not a query (SELECT, ASK, CONSTRUCT or DESCRIBE)")
        return index

    def _is(self, j: int, punct: str) -> bool:
        return self.toks[j].kind == "punct" and self.toks[j].text == punct

    def _replace(self, i: int, new: str) -> None:
        tok = self.toks[i]
        self.edits.append((tok.start, tok.start + len(tok.text), new))


def _brace_depths(toks: list[Token]) -> list[int]:
    """The brace depth before each token."""
    depths, depth = [], 0
    for tok in toks:
        depths.append(depth)
        if tok.kind == "punct":
            depth += (tok.text == "{") - (tok.text == "}")
    return depths


def protocol_form(
    query: str,
    bindings: Mapping[str, Term] | None = None,
    graphs: list[NamedNode] | None = None,
    named: list[NamedNode] | None = None,
) -> list[tuple[str, str]]:
    """The SPARQL 1.1 Protocol form fields for a library query: bound text plus the product's dataset (and, for
    a fan-out's part, the named graphs it may read)."""
    dataset = [("default-graph-uri", g.value) for g in graphs or []]
    dataset += [("named-graph-uri", g.value) for g in named or []]
    return [("query", bind(prefixed(query), bindings)), *dataset]


#: The largest response body a client reads: twice `kg serve`'s default result limit.
MAX_RESPONSE = 128 << 20
#: Seconds a whole request may take (connect, send, headers and body): a replica slower than this is failed over.
DEFAULT_DEADLINE = 60.0


class RemoteEndpoint:
    """Any SPARQL 1.1 Protocol endpoint (kg serve, Fuseki, GraphDB, Virtuoso, QLever), optional token.

    Each request has a total deadline (`timeout`): a reply that trickles in byte by byte is cut at it, as one
    that never comes is. Redirects are never followed: a query goes only to the URL given. Every failure of the
    exchange (unreachable, timed out, a 3xx/4xx/5xx, a body that is not the result form asked for) raises
    `Unavailable`, so a replica set moves on to the next replica; a lone endpoint shows it as one error."""

    def __init__(
        self,
        url: str,
        token: str | None = None,
        timeout: float = DEFAULT_DEADLINE,
        max_response: int = MAX_RESPONSE,
    ) -> None:
        self.url, self.location, self.timeout, self.max_response = url, url, timeout, max_response
        self.token = token
        self.hides_graphs = bool(token)

    def select(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> list[Row]:
        result = self._results(self._post(query, bindings, graphs, SPARQL_JSON))
        if isinstance(result, QueryBoolean):
            raise Unavailable(f"{self.url} answered a SELECT query with a boolean")
        return result

    def ask(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> bool:
        evidence = evidence_of_proof(query)
        if evidence is not None:  # Virtuoso 7.2 answers true to ASK { FILTER NOT EXISTS { … } } whatever it holds
            return not self.ask(evidence, bindings, graphs)
        body = self._post(query, bindings, graphs, SPARQL_JSON)
        result = self._results(body)
        if isinstance(result, QueryBoolean):
            return bool(result)
        if (verdict := ask_retval(body)) is not None:
            return verdict
        raise Unavailable(
            f"{self.url} answered an ASK query with rows, not a boolean (Virtuoso does so, with a column "
            "other than __ASK_RETVAL, when its [Parameters] CaseMode is not 2)"
        )

    def construct(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> list[Triple]:
        """The triples of a CONSTRUCT or DESCRIBE query."""
        body = self._post(query, bindings, graphs, "application/n-triples")
        try:
            return [q.triple for q in parse(body, format=RdfFormat.N_TRIPLES)]
        except (SyntaxError, ValueError) as exc:
            raise Unavailable(f"{self.url} did not answer with N-Triples: {exc}") from exc

    def run(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> QuerySolutions | QueryBoolean | list[Triple]:
        """Any query form, as the embedded store's `run` returns it, so one printer serves both."""
        form = query_form(query)
        if form in ("CONSTRUCT", "DESCRIBE"):
            return self.construct(query, bindings, graphs)
        if form not in ("SELECT", "ASK"):
            raise KGError("not a SPARQL query (SELECT, ASK, CONSTRUCT or DESCRIBE); updates are refused")
        body = self._post(query, bindings, graphs, SPARQL_JSON)
        self._results(body)  # checked whole first: a reader fails mid-stream on a truncated body
        return parse_query_results(body, format=QueryResultsFormat.JSON)

    def run_dataset(
        self, query: str, default: list[NamedNode], named: list[NamedNode]
    ) -> tuple[list[str], list[tuple[Term | None, ...]]] | bool | list[Triple]:
        """A query over an explicit dataset (default and named graphs), as a fan-out sends each shard its part:
        plain values (column names and rows, a boolean, or triples), read whole here, so no pyoxigraph result
        object leaves the thread that ran it."""
        if query_form(query) in ("CONSTRUCT", "DESCRIBE"):
            body = self._post(query, None, default, "application/n-triples", named)
            try:
                return [q.triple for q in parse(body, format=RdfFormat.N_TRIPLES)]
            except (SyntaxError, ValueError) as exc:
                raise Unavailable(f"{self.url} did not answer with N-Triples: {exc}") from exc
        body = self._post(query, None, default, SPARQL_JSON, named)
        try:
            result = parse_query_results(body, format=QueryResultsFormat.JSON)
            if isinstance(result, QueryBoolean):
                return bool(result)
            return [v.value for v in result.variables], [tuple(s) for s in result]
        except (SyntaxError, ValueError) as exc:
            raise Unavailable(f"{self.url} did not answer with SPARQL JSON results: {_first_line(str(exc))}") from exc

    def _results(self, body: bytes) -> list[Row] | QueryBoolean:
        """The body read whole as SPARQL JSON results (SELECT rows or an ASK boolean)."""
        try:
            result = parse_query_results(body, format=QueryResultsFormat.JSON)
            return result if isinstance(result, QueryBoolean) else solution_rows(result)
        except (SyntaxError, ValueError) as exc:
            raise Unavailable(f"{self.url} did not answer with SPARQL JSON results: {_first_line(str(exc))}") from exc

    def _post(
        self,
        query: str,
        bindings: Mapping[str, Term] | None,
        graphs: list[NamedNode] | None,
        accept: str,
        named: list[NamedNode] | None = None,
    ) -> bytes:
        data = urlencode(protocol_form(query, bindings, graphs, named)).encode()
        headers = {"Accept": accept, "Content-Type": "application/x-www-form-urlencoded"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        status, reason, response_headers, body = self._exchange(data, headers)
        if 300 <= status < 400:
            raise Unavailable(
                f"the SPARQL endpoint {self.url} answered {status} (a redirect to "
                f"{response_headers.get('Location', 'nowhere')}): redirects are never followed, list the URL "
                "that answers itself"
            )
        if status >= 400:
            text = _first_line(body.decode("utf-8", "replace").strip()) or reason
            raise Unavailable(f"the SPARQL endpoint {self.url} answered {status}{HTTP_HINTS.get(status, '')}: {text}")
        if cap := response_headers.get("X-SPARQL-MaxRows"):
            raise KGError(
                f"the SPARQL endpoint {self.url} cut the result off at {cap} rows (Virtuoso's "
                "ResultSetMaxRows): raise that limit, as a partial result would be a wrong answer"
            )
        return body

    def _exchange(self, data: bytes, headers: dict[str, str]) -> tuple[int, str, Message, bytes]:
        """One POST within the deadline: a timer shuts the socket when it passes, whatever the read is doing."""
        parts = urlsplit(self.url)
        kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        target = parts.path or "/"
        target += f"?{parts.query}" if parts.query else ""
        try:
            connection = kind(parts.hostname or "", parts.port, timeout=self.timeout)
        except ValueError as exc:  # a malformed port
            raise KGError(f"not a usable SPARQL endpoint URL: {self.url} ({exc})") from exc
        cut = threading.Event()
        timer = threading.Timer(self.timeout, _cut_off, (connection, cut))
        timer.start()
        try:
            connection.request("POST", target, body=data, headers=headers)
            response = connection.getresponse()
            body = self._capped_body(response)
        except (OSError, http.client.HTTPException) as exc:
            if cut.is_set() or isinstance(exc, TimeoutError):
                raise Unavailable(self._late()) from exc
            raise Unavailable(
                f"cannot reach the SPARQL endpoint {self.url}: {_first_line(str(exc)) or type(exc).__name__}"
            ) from exc
        finally:
            timer.cancel()
            connection.close()
        if cut.is_set():  # the socket was shut mid-body: what came is not the whole answer
            raise Unavailable(self._late())
        return response.status, response.reason, response.headers, body

    def _late(self) -> str:
        return f"the SPARQL endpoint {self.url} did not answer within {self.timeout:g} s"

    def _capped_body(self, response: http.client.HTTPResponse) -> bytes:
        """The body, read in chunks and refused past `max_response` bytes: a hostile or runaway endpoint
        cannot make the client hold more (a 300 MB body took an uncapped client to 634 MB)."""
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > self.max_response:
            raise KGError(self._too_large())
        body = bytearray()
        while chunk := response.read1(1 << 16):
            body += chunk
            if len(body) > self.max_response:
                raise KGError(self._too_large())
        return bytes(body)

    def _too_large(self) -> str:
        return (
            f"the SPARQL endpoint {self.url} sent more than {self.max_response / 2**20:g} MiB: add a LIMIT, or use "
            "`kg export` on the store for whole-graph dumps"
        )


def _cut_off(connection: http.client.HTTPConnection, cut: threading.Event) -> None:
    """End a request at its deadline: shut its socket, so a blocked read returns at once."""
    cut.set()
    if connection.sock is not None:
        with contextlib.suppress(OSError):
            connection.sock.shutdown(socket.SHUT_RDWR)


#: A proof of absence in the library's form: ASK { [VALUES … UNDEF …] FILTER NOT EXISTS { <evidence> } }.
PROOF = re.compile(
    r"^(?P<head>.*?\bASK\s*\{(?:\s*VALUES[^\n]*UNDEF[^\n]*\n)?)\s*FILTER\s+NOT\s+EXISTS\s*\{(?P<body>.*)\}\s*\}\s*$",
    re.S,
)


def evidence_of_proof(query: str) -> str | None:
    """A proof's evidence as a plain ASK (the same prologue and parameters): its negation is the proof's answer,
    on engines that mis-evaluate a group holding only FILTER NOT EXISTS. None for any other query."""
    m = PROOF.match(query)
    return f"{m['head']}\n{m['body']}\n}}" if m else None


def ask_retval(body: bytes) -> bool | None:
    """Virtuoso's documented row form of an ASK result, given when its CaseMode is not 2: one column
    `__ASK_RETVAL`, with one row holding 1 for true and no row for false. None for any other rows."""
    result = parse_query_results(body, format=QueryResultsFormat.JSON)
    if not isinstance(result, QuerySolutions) or [v.value.upper() for v in result.variables] != ["__ASK_RETVAL"]:
        return None
    values = [s[0] for s in result]
    if not values:
        return False
    if len(values) > 1 or values[0] is None or values[0].value not in ("0", "1"):
        return None
    return values[0].value == "1"


SPARQL_JSON = "application/sparql-results+json"
#: What a refusal usually means, added to its message.
HTTP_HINTS = {401: " (no or unknown token: check --token)", 403: " (the token may not read this)"}


def _first_line(text: str) -> str:
    return text.splitlines()[0][:300] if text else text
