"""The remote client's parameter binding: each use substituted in the text, equal to pyoxigraph's substitution.

Every case runs both ways on a real Oxigraph store -- `substitutions=` (what the embedded store does) and the
text `kg.query.remote.bind` sends to an endpoint -- and requires the same solutions. The HERB test does it for every
library call the 562 dev questions make.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyoxigraph import BlankNode, Literal, NamedNode, Quad, QueryBoolean, Store, Variable

from kg.errors import KGError
from kg.qa.answer import Answerer
from kg.query.remote import bind, sparql_term
from kg.query.sparql import EmbeddedStore, Term, prefixed

EX = "http://ex/"


@pytest.fixture(scope="module")
def small() -> Store:
    """Three subjects with a label each, one of them also typed."""
    store = Store()
    for i in range(3):
        store.add(Quad(NamedNode(f"{EX}s{i}"), NamedNode(f"{EX}label"), Literal(f"v{i}")))
    store.add(Quad(NamedNode(f"{EX}s1"), NamedNode(f"{EX}type"), NamedNode(f"{EX}Kind")))
    return store


def both_ways(store: Store, query: str, bindings: dict[str, Term]) -> tuple[object, object]:
    """(pyoxigraph substitution, text substitution) results, as comparable values."""
    subs = {Variable(k): v for k, v in bindings.items()}
    return _value(store.query(query, substitutions=subs)), _value(store.query(bind(query, bindings)))


def _value(result: object) -> object:
    if isinstance(result, QueryBoolean):
        return bool(result)
    names = [v.value for v in result.variables]
    return names, Counter(tuple(s[n] for n in names) for s in result)


@pytest.mark.parametrize(
    ("query", "bindings"),
    [
        # the UNION branch that never mentions ?o keeps it as a column (Virtuoso drops such a branch when ?o is
        # joined from a leading VALUES or BIND)
        ("SELECT ?o ?x WHERE { { ?s <http://ex/label> ?o BIND(1 AS ?x) } UNION { BIND(2 AS ?x) } }", {"o": "v1"}),
        # a FILTER sees the bound value (SEP-0007 substitutes, it does not join afterwards)
        ("SELECT ?x ?o WHERE { ?s <http://ex/label> ?x FILTER(?x = ?o) }", {"o": "v1"}),
        ("ASK { VALUES ?o { UNDEF } ?s <http://ex/label> ?x FILTER(?x = ?o) }", {"o": "v2"}),
        ("ASK { VALUES ?o { UNDEF } ?s <http://ex/label> ?x FILTER(?x = ?o) }", {"o": "nope"}),
        # a VALUES column keeps only the rows that agree with the bound term (prefixed names, numbers, UNDEF)
        (
            "PREFIX e: <http://ex/> SELECT ?k ?t WHERE { VALUES (?k ?t) { ('a' e:Kind) ('b' e:Other) (UNDEF e:Any) } }",
            {"k": "a"},
        ),
        ("SELECT ?n ?m WHERE { VALUES (?n ?m) { (1 2) (3 4) } }", {"n": 3}),
        ("SELECT ?n ?m WHERE { VALUES (?n ?m) { (1 2) (3 4) } }", {"n": 5}),
        # a sub-select projecting the parameter is bound inside, and its aggregate groups by it
        (
            "SELECT ?o ?n WHERE { { SELECT ?o (COUNT(*) AS ?n) WHERE { ?s <http://ex/label> ?o } GROUP BY ?o } }",
            {"o": "v0"},
        ),
        ("SELECT ?p ?n WHERE { { SELECT ?p (STRLEN(?p) AS ?n) WHERE { FILTER(STRLEN(?p) > 3) } } }", {"p": "gateway"}),
        # a sub-select that does not project it has a variable of its own, untouched
        ("SELECT ?o ?s WHERE { { SELECT ?s WHERE { ?s <http://ex/label> ?o } } }", {"o": "v1"}),
        # SELECT * keeps the column; OPTIONAL, ORDER BY and an IRI in the subject position
        ("SELECT * WHERE { ?s <http://ex/label> ?o }", {"o": "v2"}),
        (
            "SELECT ?s ?t WHERE { ?s <http://ex/label> ?l OPTIONAL { ?s <http://ex/type> ?t } } ORDER BY ?t",
            {"t": NamedNode(EX + "Kind")},
        ),
        ("SELECT ?s ?l WHERE { ?s <http://ex/label> ?l }", {"s": NamedNode(EX + "s0")}),
        ("CONSTRUCT WHERE { ?s <http://ex/label> ?o }", {"s": NamedNode(EX + "s2")}),
    ],
)
def test_text_substitution_equals_pyoxigraph_substitution(small: Store, query: str, bindings: dict) -> None:
    terms = {k: v if isinstance(v, NamedNode) else Literal(v) for k, v in bindings.items()}
    if query.startswith("CONSTRUCT"):
        subs = {Variable(k): v for k, v in terms.items()}
        assert set(small.query(query, substitutions=subs)) == set(small.query(bind(query, terms)))
        return
    embedded, remote = both_ways(small, query, terms)
    assert embedded == remote


def test_no_values_or_bind_is_added_to_join_parameters() -> None:
    text = bind("SELECT ?o ?x WHERE { { ?s <http://ex/p> ?o } UNION { BIND(2 AS ?x) } }", {"o": Literal("v")})
    assert "VALUES" not in text and 'BIND("v"' not in text
    assert text.startswith('SELECT ("v" AS ?o) ?x') and '?s <http://ex/p> "v"' in text


def test_parameters_that_cannot_be_bound_are_clear_errors() -> None:
    with pytest.raises(KGError, match=r"assigns \?x itself"):
        bind("SELECT ?x WHERE { BIND(1 AS ?x) }", {"x": Literal(2)})
    with pytest.raises(KGError, match=r"no variable \?y"):
        bind("SELECT ?x WHERE { ?x ?p ?o }", {"y": Literal(2)})
    with pytest.raises(KGError, match="variable name"):
        bind("SELECT * { ?x ?p ?o }", {"x y": NamedNode("http://x")})


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
_LITERALS = st.one_of(
    _TEXT.map(Literal),
    st.tuples(_TEXT, st.sampled_from(["en", "fr-BE"])).map(lambda t: Literal(t[0], language=t[1])),
    st.integers().map(Literal),
    st.booleans().map(Literal),
)


@given(_LITERALS)
def test_bound_literals_round_trip_exactly(value: Literal) -> None:
    """Whatever the text, the substituted term is the very term pyoxigraph substitution binds."""
    store = Store()
    query = "SELECT ?v ?same WHERE { BIND(sameTerm(?v, ?v) AS ?same) }"
    embedded, remote = both_ways(store, query, {"v": value})
    assert embedded == remote == (["v", "same"], Counter({(value, Literal(True)): 1}))


def test_iri_terms_are_escaped() -> None:
    assert sparql_term(NamedNode("http://x/a")) == "<http://x/a>"
    for bad in '<>"{}|^`\\ ':
        with pytest.raises(ValueError):  # so an IRI term can never close early or smuggle text
            NamedNode(f"http://x/a{bad}b")
    with pytest.raises(KGError, match="only IRIs and literals"):
        sparql_term(BlankNode())


class Recording(EmbeddedStore):
    """The embedded store, remembering every library call the answerer makes."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.calls: list[tuple[str, dict[str, Term] | None, list[NamedNode] | None]] = []

    def select(self, query, bindings=None, graphs=None):  # type: ignore[no-untyped-def]
        self.calls.append((query, bindings, graphs))
        return super().select(query, bindings, graphs)

    def ask(self, query, bindings=None, graphs=None):  # type: ignore[no-untyped-def]
        self.calls.append((query, bindings, graphs))
        return super().ask(query, bindings, graphs)


@pytest.mark.herb
@pytest.mark.slow
def test_every_dev_question_call_binds_alike_both_ways(herb: Path, store: Path) -> None:
    """Each distinct (query, bindings, dataset) the 562 dev questions run gives the same solutions with the text
    an endpoint receives as with pyoxigraph's substitution."""
    recording = Recording(store)
    answerer = Answerer(recording)
    for name in ("answerable.jsonl", "unanswerable.jsonl"):
        for line in (herb / "qa" / "dev" / name).open():
            answerer.ask(json.loads(line)["question"])
    distinct = {(q, tuple(sorted((b or {}).items())), tuple(g or ())): (q, b, g) for q, b, g in recording.calls}
    bound = [(q, b, g) for q, b, g in distinct.values() if b]
    assert len(bound) > 500
    for query, bindings, graphs in bound:
        subs = {Variable(k): v for k, v in bindings.items()}
        dataset = {"default_graph": list(graphs)} if graphs else {"use_default_graph_as_union": True}
        embedded = _value(recording.store.query(prefixed(query), substitutions=subs, **dataset))
        remote = _value(recording.store.query(bind(prefixed(query), bindings), **dataset))
        assert embedded == remote, query.splitlines()[0]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "SELECT",
                "ASK",
                "WHERE",
                "VALUES",
                "?x",
                "?y",
                "(",
                ")",
                "{",
                "}",
                "*",
                "AS",
                "GROUP BY",
                "UNDEF",
                "'a'",
                "1",
                "<http://x>",
                "BIND",
                "FILTER",
                ".",
            ]
        ),
        max_size=20,
    ).map(" ".join)
)
def test_any_text_binds_or_is_a_clear_error(text: str) -> None:
    try:
        bound = bind(text, {"x": Literal("a")})
    except KGError as exc:
        assert str(exc).startswith(("cannot bind parameters: ", "the query has no variable", "not a SPARQL"))
    else:
        assert isinstance(bound, str)
