"""Rows marked `org = false` read the product's graph alone: proved from their queries' algebra (no triple
pattern, path, sub-select, EXISTS or MINUS of the query or proof can match a predicate or class the
organisation graph holds), and checked on the data (the same rows and the same proof with the organisation
graph as without it, for every dev question those rows answer). A row wrongly marked would make an ASK false
that is true: an abstention that proves nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from rdflib import Namespace
from rdflib.paths import AlternativePath, InvPath, MulPath, NegatedPath, SequencePath
from rdflib.plugins.sparql import prepareQuery
from rdflib.term import URIRef, Variable

from kg.namespaces import ORG_GRAPH
from kg.qa.answer import Answerer
from kg.qa.intents import match_intent, table
from kg.qa.question import parse
from kg.query.sparql import PREFIXES, EmbeddedStore, named_query, product_dataset

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
PRODUCT_ONLY = [i for i in table()[1] if not i.org]


@dataclass
class Reach:
    """What a query's triple patterns can match: predicates, rdf:type classes, or anything at all."""

    predicates: set[str] = field(default_factory=set)
    classes: set[str] = field(default_factory=set)
    anything: bool = False


def reach(text: str) -> Reach:
    found = Reach()
    query = prepareQuery(text, initNs={k: Namespace(v) for k, v in PREFIXES.items()})
    _walk(query.algebra, found)
    return found


def _walk(node: Any, found: Reach) -> None:
    if hasattr(node, "items"):  # an algebra node (a dict); a BGP keeps its patterns under "triples"
        for key, value in node.items():
            if key == "triples":
                for _s, p, o in _triples(value):
                    _pattern(p, o, found)
            else:
                _walk(value, found)
    elif isinstance(node, list | tuple):
        for item in node:
            _walk(item, found)


def _triples(block: list[Any]) -> list[tuple[Any, Any, Any]]:
    """A block's patterns: (s, p, o) tuples in the algebra; inside an EXISTS of an expression rdflib keeps the
    parse form, flat lists of terms three by three. Anything else fails the proof rather than pass unread."""
    out = []
    for item in block:
        terms = list(item)
        assert len(terms) % 3 == 0, f"unread pattern block {item!r}"
        out += [tuple(terms[i : i + 3]) for i in range(0, len(terms), 3)]
    return out


def _pattern(predicate: Any, obj: Any, found: Reach) -> None:
    for p in _predicates(predicate):
        if p is None:
            found.anything = True
        elif p == RDF_TYPE and isinstance(predicate, URIRef):
            if isinstance(obj, Variable):
                found.anything = True
            else:
                found.classes.add(str(obj))
        else:
            found.predicates.add(p)


def _predicates(path: Any) -> list[str | None]:
    """The predicate IRIs a predicate position can match (None: any predicate at all). A path in rdflib's parse
    form (inside an expression's EXISTS) counts every IRI it names, unless it negates a set."""
    if isinstance(path, URIRef):
        return [str(path)]
    if isinstance(path, SequencePath | AlternativePath):
        return [p for arg in path.args for p in _predicates(arg)]
    if isinstance(path, InvPath):
        return _predicates(path.arg)
    if isinstance(path, MulPath):
        return _predicates(path.path)
    if isinstance(path, NegatedPath | Variable):
        return [None]
    if hasattr(path, "items"):
        if "Negated" in repr(path):
            return [None]
        return [str(t) for t in _iris(path)]
    raise AssertionError(f"unexpected predicate {path!r}")


def _iris(node: Any) -> list[URIRef]:
    if isinstance(node, URIRef):
        return [node]
    if hasattr(node, "items"):
        return [i for v in node.values() for i in _iris(v)]
    if isinstance(node, list | tuple):
        return [i for v in node for i in _iris(v)]
    return []


@pytest.fixture(scope="module")
def organisation(store: Path) -> Reach:
    """The predicates and classes the organisation graph holds."""
    backend = EmbeddedStore(store)
    graph = f"GRAPH <{ORG_GRAPH}>"
    return Reach(
        {r["p"].value for r in backend.select(f"SELECT DISTINCT ?p WHERE {{ {graph} {{ ?s ?p ?o }} }}")},
        {r["c"].value for r in backend.select(f"SELECT DISTINCT ?c WHERE {{ {graph} {{ ?s a ?c }} }}")},
    )


@pytest.mark.parametrize("intent", PRODUCT_ONLY, ids=[i.name for i in PRODUCT_ONLY])
def test_a_product_only_row_reads_nothing_the_organisation_holds(intent, organisation: Reach) -> None:
    assert organisation.predicates and organisation.classes
    for name in (intent.query, intent.proof):
        got = reach(named_query(name).text)
        assert not got.anything, f"{name}: a variable predicate or class could match an organisation triple"
        assert not got.predicates & organisation.predicates, f"{name} reads {got.predicates & organisation.predicates}"
        assert not got.classes & organisation.classes, f"{name} reads {got.classes & organisation.classes}"


def test_the_reach_sees_paths_sub_selects_exists_and_minus() -> None:
    ekg = "https://w3id.org/ekg/ont#"
    got = reach(
        "PREFIX ekg: <https://w3id.org/ekg/ont#> SELECT ?x WHERE { { SELECT ?x WHERE { ?x ekg:a/^ekg:b ?y } } "
        "FILTER EXISTS { ?x ekg:hasRole ?r } MINUS { ?x a ekg:Employee } OPTIONAL { ?x (ekg:c|ekg:d)* ?z } "
        "BIND(EXISTS { ?x ekg:e ?w ; ekg:f/ekg:g ?v } AS ?b) }"
    )
    assert got.predicates == {ekg + p for p in ("a", "b", "hasRole", "c", "d", "e", "f", "g")} and not got.anything
    assert got.classes == {ekg + "Employee"}
    assert reach("SELECT * WHERE { ?s ?p ?o }").anything
    assert reach("SELECT * WHERE { ?s a ?class }").anything
    assert reach("SELECT * WHERE { ?s !<http://x/p> ?o }").anything
    assert reach("SELECT * WHERE { BIND(EXISTS { ?s ?p ?o } AS ?b) }").anything
    assert reach("SELECT * WHERE { BIND(EXISTS { ?s !<http://x/p> ?o } AS ?b) }").anything


def test_rows_that_read_people_or_companies_keep_the_organisation_graph(organisation: Reach) -> None:
    """The proof is not vacuous: rows whose queries read roles, employers or company names are caught."""
    kept = {i.name for i in table()[1] if i.org}
    assert {"doc_suggestions_by_role", "bug_company_max_state", "release_contributors_by_role"} <= kept
    for name in ("doc_suggestions_by_role", "bug_company_max_state"):
        assert reach(named_query(name).text).predicates & organisation.predicates


def test_product_only_rows_give_the_same_rows_and_proofs_with_the_organisation_graph(store: Path, herb: Path) -> None:
    backend = EmbeddedStore(store)
    answerer = Answerer(backend)
    checked = 0
    for name in ("answerable", "unanswerable"):
        for line in (herb / "qa" / "dev" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            q = parse(json.loads(line)["question"], answerer.vocabulary)
            matched = match_intent(q, answerer.labels(q.product)) if q.product else None
            if matched is None or matched[0].org or q.time is not None:
                continue
            intent, bindings = matched
            alone, both = product_dataset(q.product, org=False), product_dataset(q.product)
            proof = named_query(intent.proof).text
            assert backend.ask(proof, bindings, alone) == backend.ask(proof, bindings, both), q.text
            select = named_query(intent.query).text
            rows = [sorted((k, str(v)) for k, v in r.items()) for r in backend.select(select, bindings, alone)]
            again = [sorted((k, str(v)) for k, v in r.items()) for r in backend.select(select, bindings, both)]
            assert sorted(rows) == sorted(again), q.text
            checked += 1
    assert checked > 150, "most dev questions go to product-only rows"
