"""A query over several shards: the same query on every shard, then an exact merge of their results written here
(no federating engine: Comunica, which did this before, gave wrong rows under LIMIT and took minutes on joins).

Why the merge is exact. The query runs once per product, on the product's shard, over the product's graph and
the organisation graph, as default graph and as named graphs (the SPARQL 1.1 Protocol's `default-graph-uri` /
`named-graph-uri`), and once more over the organisation graph alone. For a monotone pattern (triple patterns,
paths, joins, UNION, FILTER, BIND, VALUES: no OPTIONAL, MINUS, EXISTS or sub-query), a solution that uses a
product's triples arises in that product's run only, and one that uses the organisation graph's alone arises in
every run. So the whole dataset's solutions, as a multiset, are the runs' summed, less the organisation graph's
(products - 1) times. This holds while no solution joins triples of two products' graphs (no query in
`sparql/` does; the data keeps each product's facts in its own graph): a query that did would be answered
without those solutions. The union default graph counts a triple held by two graphs twice, as the embedded
store and the Oxigraph server do. One product a request, not one shard: an engine given a default graph of
many named graphs joins over their union far more slowly (a join with the organisation graph took 340 ms over
a shard's 15 products at once on the Oxigraph server, 60 ms as 15 requests).

On that multiset the merge applies what the query asks: DISTINCT; GROUP BY with COUNT, SUM, MIN and MAX (summed,
less the organisation graph's, or the least and greatest of the shards'), or with COUNT(DISTINCT ?v) (counted
over the union of the shards' distinct (group, value) rows); then ORDER BY, OFFSET and LIMIT. A
LIMIT that would cut between rows that tie on every ORDER BY key is refused, since which of them the embedded
store keeps is its own choice. Anything else (AVG, SUM(DISTINCT), GROUP_CONCAT, SAMPLE, HAVING, an ORDER BY
expression, OPTIONAL, …) is refused with the reason, never answered approximately.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from pyoxigraph import (
    BlankNode,
    Literal,
    NamedNode,
    QueryBoolean,
    QueryResultsFormat,
    QuerySolutions,
    Triple,
    parse_query_results,
)

from kg.errors import KGError
from kg.namespaces import ORG_GRAPH, XSD
from kg.query.remote import bind
from kg.query.sparql import RunBackend, Term, prefixed
from kg.query.tokens import Token, tokens

#: Keywords whose patterns are not monotone, or which read data the per-shard datasets do not hold.
NOT_MONOTONE = {
    "OPTIONAL": "OPTIONAL",
    "MINUS": "MINUS",
    "EXISTS": "EXISTS / NOT EXISTS",
    "SERVICE": "SERVICE",
    "FROM": "a FROM dataset clause",
    "SELECT": "a sub-query",
    "DESCRIBE": "DESCRIBE (each engine chooses what it describes)",
}
#: Requests a fan-out has in flight at once, over all shards.
PARALLEL = 4
#: The aggregates the merge combines exactly, and how.
AGGREGATES = {"COUNT", "SUM", "MIN", "MAX"}
NOT_MERGEABLE = {"AVG", "SAMPLE", "GROUP_CONCAT"}
#: Runs one query on one shard over (default graphs, named graphs), through its replica set's failover:
#: (columns, rows) for SELECT, a boolean for ASK, triples for CONSTRUCT (`RemoteEndpoint.run_dataset`).
ShardRun = Callable[[str, list[NamedNode], list[NamedNode]], Any]


@dataclass(frozen=True)
class Shape:
    """What the merge needs of a query: its form, the text each shard runs, and the modifiers applied after."""

    form: str
    shard_text: str
    distinct: bool = False
    aggregates: tuple[tuple[str, str], ...] = ()  # (variable, function) per aggregate column
    grouped: bool = False
    order: tuple[tuple[str, bool], ...] = ()  # (variable, descending)
    offset: int = 0
    limit: int | None = None
    #: For COUNT(DISTINCT ?v) queries: the result's columns, the GROUP BY keys, and (alias, ?v) per count; the
    #: shards then send their distinct (keys, values) rows and the merge counts over their union.
    columns: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    distinct_counts: tuple[tuple[str, str], ...] = ()


class Federation(RunBackend):
    """One query per product, on the product's shard, merged exactly (see the module's docstring)."""

    def __init__(self, shards: Sequence[tuple[ShardRun, list[NamedNode]]], location: str) -> None:
        self.shards = shards
        self.location = location

    def run(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> QuerySolutions | QueryBoolean | list[Triple]:
        shape = shape_of(bind(prefixed(query), bindings))
        org = [NamedNode(ORG_GRAPH)]
        wanted = None if graphs is None else {g.value for g in graphs}
        with_org = wanted is None or ORG_GRAPH in wanted
        named = graphs is None  # an explicit dataset has no named graphs, as the Protocol defines it
        runs = [
            (shard_run, [g, *org] if with_org else [g])
            for shard_run, held in self.shards
            for g in held
            if wanted is None or g.value in wanted
        ]
        if with_org and len(runs) > 1:
            runs.append((self.shards[0][0], org))
        with ThreadPoolExecutor(max_workers=min(len(runs), PARALLEL)) as pool:
            results = list(pool.map(lambda r: r[0](shape.shard_text, r[1], r[1] if named else []), runs))
        org_result = results.pop() if with_org and len(results) > 1 else None
        return merge(shape, results, org_result)


def shape_of(text: str) -> Shape:
    """The query's form and modifiers, or a KGError saying why the fan-out cannot answer it exactly."""
    toks = list(tokens(text))
    forms = [i for i, t in enumerate(toks) if t.is_keyword("SELECT", "ASK", "CONSTRUCT", "DESCRIBE")]
    if not forms:
        raise KGError("not a SPARQL query (SELECT, ASK, CONSTRUCT or DESCRIBE); updates are refused")
    form = toks[forms[0]].text.upper()
    for t in toks[forms[0] + 1 :]:
        if t.kind == "word" and t.text.upper() in NOT_MONOTONE:
            refuse(f"it uses {NOT_MONOTONE[t.text.upper()]}")
        if t.kind == "word" and t.text.upper() in NOT_MERGEABLE:
            refuse(f"{t.text.upper()} cannot be combined from the shards' values")
    if form == "DESCRIBE":
        refuse(NOT_MONOTONE["DESCRIBE"])
    where = _where(toks, forms[0])
    after = toks[_closing(toks, where) + 1 :]
    modifiers = _modifiers(after)
    cut = after[modifiers["cut"]].start if modifiers["cut"] < len(after) else len(text)
    if form != "SELECT":
        if modifiers["order"] or modifiers["limit"] is not None or modifiers["offset"]:
            refuse(f"ORDER BY, LIMIT and OFFSET in {form} pick solutions the merge cannot")
        return Shape(form, text[:cut])
    projection = toks[forms[0] + 1 : where]
    distinct = bool(projection) and projection[0].is_keyword("DISTINCT", "REDUCED")
    aggregates = _aggregates(projection[1:] if distinct else projection)
    if distinct and aggregates:
        refuse("SELECT DISTINCT with aggregates")
    projected = {t.text[1:] for t in projection if t.kind == "var"}
    star = any(t.kind == "punct" and t.text == "*" for t in projection)
    for name, _ in modifiers["order"]:
        if not star and name not in projected:
            refuse(f"ORDER BY ?{name} is not a column of the result")
    if counted := [(alias, f.split()[-1][1:]) for alias, f in aggregates if f.startswith("COUNT DISTINCT")]:
        if len(counted) != len(aggregates):
            refuse("COUNT(DISTINCT …) beside other aggregates")
        columns = tuple(t.text[1:] for t in projection if t.kind == "var")
        keys = tuple(modifiers["keys"])
        fetched = " ".join("?" + v for v in dict.fromkeys([*keys, *(v for _, v in counted)]))
        prologue = text[: toks[forms[0]].start]
        group = text[toks[where].start : toks[_closing(toks, where)].start + 1]
        return Shape(
            form,
            f"{prologue}SELECT DISTINCT {fetched} WHERE {group}",
            grouped=True,
            order=tuple(modifiers["order"]),
            offset=modifiers["offset"],
            limit=modifiers["limit"],
            columns=tuple(c for c in columns if c in keys or c in dict(counted)),
            keys=keys,
            distinct_counts=tuple(counted),
        )
    return Shape(
        form,
        text[:cut],
        distinct=distinct,
        aggregates=aggregates,
        grouped=bool(aggregates) or modifiers["grouped"],
        order=tuple(modifiers["order"]),
        offset=modifiers["offset"],
        limit=modifiers["limit"],
    )


def refuse(reason: str) -> None:
    raise KGError(
        f"a query over several shards is answered by merging each shard's answer, and this one cannot be merged "
        f"exactly: {reason}. Give it a --product, or run it on one engine holding the whole export"
    )


def _where(toks: list[Token], form: int) -> int:
    """The index of the WHERE group's `{`."""
    for i in range(form + 1, len(toks)):
        if toks[i].kind == "punct" and toks[i].text == "{":
            if toks[form].is_keyword("CONSTRUCT") and not any(t.is_keyword("WHERE") for t in toks[form:i]):
                return _where(toks, _closing(toks, i))  # the template, then the WHERE group
            return i
    raise KGError("the query has no WHERE group")


def _closing(toks: list[Token], open_at: int) -> int:
    depth = 0
    for j in range(open_at, len(toks)):
        if toks[j].kind == "punct" and toks[j].text in "{}":
            depth += 1 if toks[j].text == "{" else -1
            if depth == 0:
                return j
    raise KGError("unbalanced braces in the query")


def _modifiers(after: list[Token]) -> dict[str, Any]:
    """GROUP BY (plain variables), ORDER BY (plain variables, ASC/DESC), LIMIT and OFFSET; `cut` is where the
    text each shard runs ends (before ORDER BY, LIMIT and OFFSET)."""
    out: dict[str, Any] = {"grouped": False, "keys": [], "order": [], "limit": None, "offset": 0, "cut": len(after)}
    i = 0
    while i < len(after):
        t = after[i]
        if t.is_keyword("GROUP"):
            out["grouped"] = True
            i += 2
            while i < len(after) and after[i].kind == "var":
                out["keys"].append(after[i].text[1:])
                i += 1
            if i < len(after) and not after[i].is_keyword("ORDER", "LIMIT", "OFFSET", "HAVING"):
                refuse("GROUP BY an expression (only variables are merged)")
            continue
        if t.is_keyword("HAVING"):
            refuse("HAVING (it needs the merged groups; filter them after)")
        if t.is_keyword("ORDER"):
            out["cut"] = min(out["cut"], i)
            i = _order_keys(after, i + 2, out["order"])
            continue
        if t.is_keyword("LIMIT", "OFFSET") and i + 1 < len(after) and after[i + 1].kind == "number":
            out["cut"] = min(out["cut"], i)
            out[t.text.lower()] = int(after[i + 1].text)
            i += 2
            continue
        if t.is_keyword("VALUES"):
            refuse("a trailing VALUES block")
        refuse(f"{t.text!r} after the WHERE group")
    return out


def _order_keys(after: list[Token], i: int, keys: list[tuple[str, bool]]) -> int:
    while i < len(after):
        t = after[i]
        if t.kind == "var":
            keys.append((t.text[1:], False))
            i += 1
        elif t.is_keyword("ASC", "DESC") and after[i + 1 : i + 4] and after[i + 2].kind == "var":
            if after[i + 1].text != "(" or after[i + 3].text != ")":
                refuse("an ORDER BY expression (only variables, ASC(?v) or DESC(?v), are merged)")
            keys.append((after[i + 2].text[1:], t.is_keyword("DESC")))
            i += 4
        elif t.is_keyword("LIMIT", "OFFSET"):
            return i
        else:
            refuse("an ORDER BY expression (only variables, ASC(?v) or DESC(?v), are merged)")
    return i


def _aggregates(projection: list[Token]) -> tuple[tuple[str, str], ...]:
    """(alias, function) of each `(COUNT|SUM|MIN|MAX(…) AS ?alias)`, the function `COUNT DISTINCT ?v` for
    `(COUNT(DISTINCT ?v) AS ?alias)`; any other use of an aggregate is refused."""
    found = []
    for i, t in enumerate(projection):
        name = t.text.upper() if t.kind == "word" else ""
        if name not in AGGREGATES:
            continue
        opened = i > 0 and projection[i - 1].text == "("
        close = _paren_close(projection, i + 1)
        inner = projection[i + 2 : close]
        if inner and inner[0].is_keyword("DISTINCT"):
            if name != "COUNT" or len(inner) != 2 or inner[1].kind != "var":
                refuse(f"{name}(DISTINCT …) other than COUNT(DISTINCT ?variable)")
            name = f"COUNT DISTINCT {inner[1].text}"
        tail = projection[close + 1 : close + 4]
        if not (
            opened and len(tail) == 3 and tail[0].is_keyword("AS") and tail[1].kind == "var" and tail[2].text == ")"
        ):
            refuse(f"{name} inside an expression (only `({name}(…) AS ?v)` is merged)")
        found.append((tail[1].text[1:], name))
    return tuple(found)


def _paren_close(toks: list[Token], open_at: int) -> int:
    depth = 0
    for j in range(open_at, len(toks)):
        if toks[j].kind == "punct" and toks[j].text in "()":
            depth += 1 if toks[j].text == "(" else -1
            if depth == 0:
                return j
    raise KGError("unbalanced parentheses in the query")


Row = tuple[Any, ...]


def merge(shape: Shape, results: list[Any], org: Any | None) -> QuerySolutions | QueryBoolean | list[Triple]:
    """The shards' results as one, as the embedded store would have answered over the whole dataset."""
    if shape.form == "ASK":
        return _boolean(any(bool(r) for r in results))
    if shape.form == "CONSTRUCT":
        return list(dict.fromkeys(t for r in results for t in r))
    variables, shard_rows = _rows(results)
    org_rows = _rows([org])[1][0] if org is not None else []
    shards = len(results)
    if shape.distinct_counts:
        variables, rows = list(shape.columns), _distinct_counts(variables, shard_rows, shape)
    elif shape.grouped:
        rows = _grouped(variables, shard_rows, org_rows, shards, dict(shape.aggregates))
    else:
        counts: Counter[Row] = Counter()
        for rows_of_shard in shard_rows:
            counts.update(rows_of_shard)
        counts.subtract({row: n * (shards - 1) for row, n in Counter(org_rows).items()})
        if any(n < 0 for n in counts.values()):
            raise KGError("the shards disagree on the organisation graph (reload them from one export)")
        rows = list(counts) if shape.distinct else [row for row, n in counts.items() for _ in range(n)]
    rows = _ordered(variables, rows, shape)
    return _solutions(variables, rows)


def _boolean(value: bool) -> QueryBoolean:
    body = json.dumps({"head": {}, "boolean": value}).encode()
    result = parse_query_results(body, format=QueryResultsFormat.JSON)
    assert isinstance(result, QueryBoolean)
    return result


def _rows(results: list[Any]) -> tuple[list[str], list[list[Row]]]:
    variables: list[str] = []
    out = []
    for result in results:
        if not isinstance(result, tuple):
            raise KGError("a shard did not answer a SELECT query with rows")
        names, rows = result
        variables = variables or names
        if names != variables:
            raise KGError("the shards answered with different columns")
        out.append(rows)
    return variables, out


def _grouped(
    variables: list[str], shard_rows: list[list[Row]], org_rows: list[Row], shards: int, aggregates: dict[str, str]
) -> list[Row]:
    """Groups merged by their key columns: counts and sums added (the organisation graph's counted once), minima
    and maxima taken over the shards."""
    keys = [i for i, v in enumerate(variables) if v not in aggregates]
    merged: dict[Row, list[Any]] = {}
    org = {tuple(r[i] for i in keys): r for r in org_rows}
    for rows in shard_rows:
        for row in rows:
            key = tuple(row[i] for i in keys)
            if key not in merged:
                merged[key] = list(row)
                continue
            for i, name in enumerate(variables):
                if name in aggregates:
                    merged[key][i] = _combine(aggregates[name], merged[key][i], row[i])
    for key, values in merged.items():
        if key in org:
            for i, name in enumerate(variables):
                if aggregates.get(name) in ("COUNT", "SUM") and org[key][i] is not None:
                    values[i] = _add(values[i], org[key][i], -(shards - 1))
    if not keys and len(merged) > 1:
        raise KGError("the shards answered an ungrouped aggregate with more than one row")
    return [tuple(r) for r in merged.values()]


def _distinct_counts(fetched: list[str], shard_rows: list[list[Row]], shape: Shape) -> list[Row]:
    """COUNT(DISTINCT ?v) per group over the union of the shards' distinct (keys, values) rows."""
    index = {v: i for i, v in enumerate(fetched)}
    seen: dict[Row, dict[str, set[Any]]] = {}
    for row in {row for rows in shard_rows for row in rows}:
        values = seen.setdefault(tuple(row[index[k]] for k in shape.keys), {a: set() for a, _ in shape.distinct_counts})
        for alias, var in shape.distinct_counts:
            if row[index[var]] is not None:
                values[alias].add(row[index[var]])
    if not shape.keys and not seen:
        seen[()] = {a: set() for a, _ in shape.distinct_counts}
    out = []
    for key, counts in seen.items():
        cells = dict(zip(shape.keys, key, strict=True)) | {a: Literal(len(v)) for a, v in counts.items()}
        out.append(tuple(cells[c] for c in shape.columns))
    return out


def _combine(function: str, a: Any, b: Any) -> Any:
    if a is None or b is None:
        return b if a is None else a
    if function in ("COUNT", "SUM"):
        return _add(a, b, 1)
    lower = order_key(b) < order_key(a)
    return b if (lower if function == "MIN" else not lower and order_key(b) != order_key(a)) else a


NUMERIC = {XSD + t: t for t in ("integer", "decimal", "float", "double")}
INTEGER_TYPES = {
    XSD + t
    for t in (
        "int",
        "long",
        "short",
        "byte",
        "nonNegativeInteger",
        "positiveInteger",
        "negativeInteger",
        "nonPositiveInteger",
        "unsignedInt",
        "unsignedLong",
        "unsignedShort",
        "unsignedByte",
    )
}


def _number(term: Any) -> tuple[str, Decimal | float]:
    if not isinstance(term, Literal):
        raise KGError("a SUM or COUNT from a shard is not a number")
    kind = "integer" if term.datatype.value in INTEGER_TYPES else NUMERIC.get(term.datatype.value)
    if kind is None:
        raise KGError(f"cannot add {term.value!r} ({term.datatype.value}) from two shards: not a number")
    try:
        return kind, float(term.value) if kind in ("float", "double") else Decimal(term.value)
    except (InvalidOperation, ValueError) as exc:
        raise KGError(f"a shard answered a sum that is not a number: {term.value!r}") from exc


def _add(a: Any, b: Any, times: int) -> Literal:
    """a + times * b with SPARQL's numeric type promotion (integer < decimal < float < double)."""
    ranks = ["integer", "decimal", "float", "double"]
    (ka, va), (kb, vb) = _number(a), _number(b)
    kind = max(ka, kb, key=ranks.index)
    if kind in ("float", "double"):
        total: Any = float(va) + times * float(vb)
    else:
        total = Decimal(va) + times * Decimal(vb)
    if kind == "integer":
        return Literal(str(int(total)), datatype=NamedNode(XSD + "integer"))
    if kind == "decimal":
        text = format(total.normalize(), "f")
        return Literal(text if "." in text else text + ".0", datatype=NamedNode(XSD + "decimal"))
    return Literal(repr(float(total)), datatype=NamedNode(XSD + kind))


def order_key(term: Any) -> tuple[Any, ...]:
    """SPARQL's ORDER BY order: unbound, blank nodes, IRIs, then literals (numbers by value, others by text)."""
    if term is None:
        return (0,)
    if isinstance(term, BlankNode):
        return (1, term.value)
    if isinstance(term, NamedNode):
        return (2, term.value)
    if term.datatype.value in NUMERIC or term.datatype.value in INTEGER_TYPES:
        try:
            return (3, 0, float(term.value), term.value)
        except ValueError:
            pass
    return (3, 1, term.value, term.datatype.value, term.language or "")


def _ordered(variables: list[str], rows: list[Row], shape: Shape) -> list[Row]:
    """ORDER BY, then OFFSET and LIMIT; a LIMIT cutting between rows that tie on every key is refused."""
    if shape.order:
        index = {v: i for i, v in enumerate(variables)}
        for name, descending in reversed(shape.order):
            rows.sort(key=lambda r, i=index[name]: order_key(r[i]), reverse=descending)  # type: ignore[misc]
    if shape.limit is None and not shape.offset:
        return rows
    end = len(rows) if shape.limit is None else shape.offset + shape.limit
    if 0 < end < len(rows):
        if not shape.order:
            refuse("LIMIT without ORDER BY (which rows it keeps is each engine's choice)")
        index = {v: i for i, v in enumerate(variables)}
        tie = [order_key(rows[end - 1][index[n]]) == order_key(rows[end][index[n]]) for n, _ in shape.order]
        if all(tie):
            keys = ", ".join("?" + n for n, _ in shape.order)
            refuse(f"its LIMIT cuts between rows that tie on every ORDER BY key ({keys}): add a key that orders them")
    return rows[shape.offset : end]


def _solutions(variables: list[str], rows: list[Row]) -> QuerySolutions:
    """Rows as pyoxigraph solutions, through SPARQL JSON, so every printer and comparer takes them as a store's."""
    body = {
        "head": {"vars": variables},
        "results": {
            "bindings": [
                {v: _json_term(t) for v, t in zip(variables, row, strict=True) if t is not None} for row in rows
            ]
        },
    }
    result = parse_query_results(json.dumps(body).encode(), format=QueryResultsFormat.JSON)
    assert isinstance(result, QuerySolutions)
    return result


def _json_term(term: Any) -> dict[str, str]:
    if isinstance(term, NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, BlankNode):
        return {"type": "bnode", "value": term.value}
    out = {"type": "literal", "value": term.value}
    if term.language:
        out["xml:lang"] = term.language
    elif term.datatype.value != XSD + "string":
        out["datatype"] = term.datatype.value
    return out
