"""The SPARQL tokenizer behind the remote client's VALUES binding (the endpoint reads no SPARQL)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyoxigraph import BlankNode, Literal, NamedNode, Store, Variable

from kg.errors import KGError
from kg.remote import bind, sparql_term
from kg.sparql_tokens import where_group_start


@pytest.mark.parametrize(
    ("query", "inside"),
    [
        ("SELECT ?x WHERE { ?x ?p ?o }", "{ ?x ?p ?o }"),
        ("PREFIX a: <http://a/> SELECT (CONCAT('{', ?x) AS ?y) # WHERE {\n WHERE { ?x ?p ?o }", "{ ?x ?p ?o }"),
        ("ASK { ?x ?p ?o }", "{ ?x ?p ?o }"),
        ("CONSTRUCT { ?x ?p ?o } { ?x ?p ?o FILTER EXISTS { ?x ?q ?r } }", "{ ?x ?p ?o FILTER"),
        ("SELECT * { { SELECT ?x WHERE { ?x ?p ?o } } }", "{ { SELECT"),
    ],
)
def test_values_go_first_in_the_outermost_where_group(query: str, inside: str) -> None:
    at = where_group_start(query)
    assert query[at - 1 :].startswith(inside)


def test_sub_selects_get_their_own_values_block() -> None:
    """A sub-select has its own scope: the parameter must be bound inside it too, as substitution does."""
    store = Store()
    query = "SELECT ?p ?n WHERE { { SELECT ?p (STRLEN(?p) AS ?n) WHERE { FILTER(STRLEN(?p) > 3) } } }"
    value = Literal("gateway")
    inlined = [(s["p"], s["n"]) for s in store.query(bind(query, {"p": value}))]
    substituted = [(s["p"], s["n"]) for s in store.query(query, substitutions={Variable("p"): value})]
    assert inlined == substituted == [(value, Literal(7))]


def test_construct_where_short_form_cannot_take_bindings() -> None:
    with pytest.raises(KGError, match="CONSTRUCT"):
        bind("CONSTRUCT WHERE { ?x ?p ?o }", {"x": NamedNode("http://x")})
    with pytest.raises(KGError, match="variable"):
        bind("SELECT * { ?x ?p ?o }", {"x y": NamedNode("http://x")})


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
_LITERALS = st.one_of(
    _TEXT.map(Literal),
    st.tuples(_TEXT, st.sampled_from(["en", "fr-BE"])).map(lambda t: Literal(t[0], language=t[1])),
    st.integers().map(Literal),
)


@given(_LITERALS)
def test_bound_literals_round_trip_exactly(value: Literal) -> None:
    """Whatever the text, VALUES binding yields the very term pyoxigraph substitution would."""
    store = Store()
    query = "SELECT ?v WHERE { }"
    inlined = list(store.query(bind(query, {"v": value})))
    substituted = list(store.query("SELECT ?v WHERE { }", substitutions={Variable("v"): value}))
    assert [s["v"] for s in inlined] == [s["v"] for s in substituted] == [value]


def test_iri_terms_are_escaped() -> None:
    assert sparql_term(NamedNode("http://x/a")) == "<http://x/a>"
    for bad in '<>"{}|^`\\ ':
        with pytest.raises(ValueError):  # so an IRI term can never close early or smuggle text
            NamedNode(f"http://x/a{bad}b")
    with pytest.raises(KGError, match="only IRIs and literals"):
        sparql_term(BlankNode())
