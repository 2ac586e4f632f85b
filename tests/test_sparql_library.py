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
    result = Store().query(prefixed(query.text))
    assert (not bool(result)) if isinstance(result, QueryBoolean) else list(result) == []
