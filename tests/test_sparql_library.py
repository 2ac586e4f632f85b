"""Every query in sparql/ is documented (intent, parameters, example) and is valid SPARQL 1.1."""

from __future__ import annotations

import re

import pytest
from pyoxigraph import QueryBoolean, Store

from kg.query.sparql import library, prefixed

QUERIES = sorted(library().values(), key=lambda q: q.name)


@pytest.mark.parametrize("query", QUERIES, ids=[q.name for q in QUERIES])
def test_query_header_documents_intent_params_and_example(query) -> None:
    assert query.intent, f"{query.path.name}: no '# intent:' header line"
    assert query.example, f"{query.path.name}: no '# example:' header line"
    assert re.search(r"(?m)^#\s*param\b", query.text), f"{query.path.name}: no '# param' header line"
    body = "\n".join(line for line in query.text.splitlines() if not line.startswith("#"))
    for param in query.params:
        assert re.search(rf"\?{param}\b", body), f"{query.path.name}: documented ?{param} is not in the query"


@pytest.mark.parametrize("query", QUERIES, ids=[q.name for q in QUERIES])
def test_query_parses_and_runs_on_an_empty_store(query) -> None:
    """An empty store holds no evidence: a proof (`X.ask`) proves absence there, every other query finds nothing."""
    result = Store().query(prefixed(query.text))
    if isinstance(result, QueryBoolean):
        assert bool(result) is query.name.endswith(".ask")
    else:
        assert list(result) == []


PROOFS = [q for q in QUERIES if q.name.endswith(".ask")]
#: `ASK {`, an optional line declaring the bound parameters, `FILTER NOT EXISTS {` … `}` `}`: the card's form.
PROOF_FORM = re.compile(r"^ASK \{\n(  VALUES [^\n]*UNDEF[^\n]*\n)?  FILTER NOT EXISTS \{.*\}\n\}\s*$", re.S)


@pytest.mark.parametrize("query", PROOFS, ids=[q.name for q in PROOFS])
def test_a_proof_reads_as_the_absence_it_proves(query) -> None:
    """Every proof is `ASK { FILTER NOT EXISTS { <evidence> } }`, so `true` reads as "proved absent"."""
    body = "\n".join(line for line in query.text.splitlines() if not line.startswith("#"))
    assert PROOF_FORM.match(body), f"{query.path.name}: not ASK {{ FILTER NOT EXISTS {{ … }} }}"
