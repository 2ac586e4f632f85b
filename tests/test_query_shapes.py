"""The library's queries keep the shape that lets an engine evaluate their citation unions per row.

Oxigraph (like most engines) evaluates a UNION with the rows before it bound only when every branch binds a
variable those rows bind; a union whose branches share no such variable is evaluated whole, over the product,
and joined by hash (`oxigraph query --explain` shows `Join(HashBuildLeftProbeRight, keys = )` and the union's
row counts for the whole product). So each citation branch restates the edge it hangs from. This test reads
every query in sparql/ through rdflib's algebra and fails on a join of a union whose branches share no
variable with the other side.
"""

from __future__ import annotations

from typing import Any

import pytest
from rdflib import Namespace
from rdflib.plugins.sparql import prepareQuery
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.term import Variable

from kg.query.sparql import PREFIXES, library, named_query

NAMES = sorted(library())


def bound(node: Any) -> set[Variable]:
    """The variables every solution of an algebra node binds."""
    if not isinstance(node, CompValue):
        return set()
    if node.name == "BGP":
        return {t for triple in node.triples for t in triple if isinstance(t, Variable)}
    if node.name == "Join":
        return bound(node.p1) | bound(node.p2)
    if node.name in ("LeftJoin", "Minus"):
        return bound(node.p1)
    if node.name == "Union":
        return bound(node.p1) & bound(node.p2)
    if node.name == "Extend":
        return bound(node.p) | {node.var}
    if node.name == "Project":
        return bound(node.p) & set(node.PV)
    return bound(node.p) if "p" in node else set()


def branches(node: Any) -> list[Any]:
    if isinstance(node, CompValue) and node.name == "ToMultiSet":
        return branches(node.p)
    if isinstance(node, CompValue) and node.name == "Union":
        return branches(node.p1) + branches(node.p2)
    return [node]


def unanchored_unions(node: Any) -> list[str]:
    """Each join of a union whose branches share no variable with the other side, as 'left vars' text."""
    found: list[str] = []
    if isinstance(node, CompValue):
        if node.name == "Join":
            for side, other in ((node.p1, node.p2), (node.p2, node.p1)):
                parts = branches(other)
                left = bound(side)
                if len(parts) > 1 and left and not set.intersection(*(bound(b) for b in parts)) & left:
                    found.append(" ".join(sorted(f"?{v}" for v in left)))
        for value in node.values():
            found += unanchored_unions(value)
    elif isinstance(node, list | tuple):
        for item in node:
            found += unanchored_unions(item)
    return found


@pytest.mark.parametrize("name", NAMES)
def test_every_joined_union_shares_a_variable_with_the_rows_before_it(name: str) -> None:
    query = prepareQuery(named_query(name).text, initNs={k: Namespace(v) for k, v in PREFIXES.items()})
    found = unanchored_unions(query.algebra)
    assert not found, (
        f"sparql/{name}.rq joins a union none of whose shared variables the rows beside it bind "
        f"({found}): restate in each branch the edge it hangs from"
    )


def test_the_check_sees_an_unanchored_union() -> None:
    text = "SELECT * WHERE { ?a ekg:p ?b . { ?b ekg:q ?c } UNION { ?d ekg:r ?c } }"
    anchored = "SELECT * WHERE { ?a ekg:p ?b . { ?b ekg:q ?c } UNION { ?b ekg:p/ekg:r ?c } }"
    ns = {k: Namespace(v) for k, v in PREFIXES.items()}
    assert unanchored_unions(prepareQuery(text, initNs=ns).algebra) == ["?a ?b"]
    assert unanchored_unions(prepareQuery(anchored, initNs=ns).algebra) == []
