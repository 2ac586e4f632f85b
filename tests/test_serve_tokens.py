"""The SPARQL tokenizer behind the endpoint's checks."""

from __future__ import annotations

import pytest

from kg.serve import EMPTY_GRAPH, EVERYTHING, HttpError, dataset_params, product_grant, service_reason
from kg.sparql_tokens import shape, tokens, where_group_start

G = "https://w3id.org/ekg/graph/"


def test_strings_comments_and_escaped_names_hide_no_keywords() -> None:
    query = ("PREFIX e: <http://e/> SELECT * WHERE { ?s e:a\\#b 'GRAPH <x>' ; e:c \"\"\"SERVICE\n<y>\"\"\" . "
             "# FROM <z>\n }")
    assert [t.text for t in tokens(query) if t.kind == "word"] == ["PREFIX", "SELECT", "WHERE"]
    assert shape(query).named_graphs() == set() and not shape(query).service


def test_less_than_after_an_operand_in_parentheses_is_an_operator() -> None:
    query = "SELECT * { ?a ?b ?c FILTER(?a<?b*'>\"')SERVICE?c{?s ?p ?o}#\"\n}"
    assert shape(query).service
    kinds = [(t.kind, t.text) for t in tokens("SELECT * { ?s <http://p> ?o FILTER(?o<<http://x>) }")]
    assert kinds[4] == ("iri", "<http://p>")
    assert kinds[8:11] == [("var", "?o"), ("punct", "<"), ("iri", "<http://x>")]


def test_graph_names_resolve_through_prefix_base_and_escapes() -> None:
    query = (f"PREFIX g: <{G}> BASE <{G}> SELECT * FROM <Beta> FROM NAMED g:Ga\\-mma "
             f"WHERE {{ GRAPH <{G}\\u0044elta> {{ }} GRAPH ?g {{ }} }}")
    found = shape(query)
    assert found.from_default == [G + "Beta"] and found.from_named == [G + "Ga-mma"]
    assert found.graph_names == [G + "Delta"]


def test_service_needs_both_readings_to_clear() -> None:
    assert service_reason("SELECT * { ?s ?p 'customer service' }") is None
    assert service_reason("SELECT * { ?s <http://e/Service> ?o }") is None
    assert service_reason("SELECT * { SeRvIcE <http://x/> { } }")
    assert service_reason("SELECT * { ?s ?p 'service' ") is not None  # unparseable: cannot be cleared


def test_product_dataset_is_forced_and_checked() -> None:
    alpha = product_grant(["Alpha"])
    assert dataset_params(alpha, shape("SELECT * { ?s ?p ?o }"), {}) == [
        ("default-graph-uri", G + "Alpha"), ("default-graph-uri", G + "org"),
        ("named-graph-uri", G + "Alpha"), ("named-graph-uri", G + "org")]
    assert dataset_params(alpha, shape(f"SELECT * FROM NAMED <{G}Alpha> {{ }}"), {}) == [
        ("default-graph-uri", EMPTY_GRAPH), ("named-graph-uri", G + "Alpha")]
    with pytest.raises(HttpError, match="Beta"):
        dataset_params(alpha, shape("SELECT * { }"), {"named-graph-uri": [G + "Beta"]})
    assert dataset_params(EVERYTHING, shape("SELECT * { }"), {}) == [("union-default-graph", "")]
    assert dataset_params(EVERYTHING, shape(f"SELECT * FROM <{G}Beta> {{ }}"), {}) == []


@pytest.mark.parametrize(("query", "inside"), [
    ("SELECT ?x WHERE { ?x ?p ?o }", "{ ?x ?p ?o }"),
    ("PREFIX a: <http://a/> SELECT (CONCAT('{', ?x) AS ?y) # WHERE {\n WHERE { ?x ?p ?o }", "{ ?x ?p ?o }"),
    ("ASK { ?x ?p ?o }", "{ ?x ?p ?o }"),
    ("CONSTRUCT { ?x ?p ?o } { ?x ?p ?o FILTER EXISTS { ?x ?q ?r } }", "{ ?x ?p ?o FILTER"),
    ("SELECT * { { SELECT ?x WHERE { ?x ?p ?o } } }", "{ { SELECT"),
])
def test_values_go_first_in_the_outermost_where_group(query: str, inside: str) -> None:
    at = where_group_start(query)
    assert query[at - 1:].startswith(inside)
