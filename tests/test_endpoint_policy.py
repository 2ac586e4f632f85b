"""The endpoint's policy on raw text and datasets: unit checks beside the HTTP tests of test_endpoint_*.py."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kg.endpoint.access import LOCAL, product_grant
from kg.endpoint.policy import Dataset, HttpError, Limits, check_query, dataset_for, decoded, mentions_service

G = "https://w3id.org/ekg/graph/"


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * { SERVICE <x> {} }",
        "select * { sErViCe <x> {} }",
        "# service\nASK {}",
        "ASK { FILTER('customer service') }",
        r"ASK { \u0053ERVICE <x> {} }",
        r"ASK { \U00000073ervice <x> {} }",
        r"ASK { \u005Cu0053ERVICE }",  # an escape of an escape: decoded to a fixpoint
        "ASK { ſervice <x> {} }",  # U+017F folds to "s"
    ],
)
def test_every_spelling_of_service_is_caught(text: str) -> None:
    assert mentions_service(text)
    with pytest.raises(HttpError) as refused:
        check_query(text, Limits())
    assert refused.value.status == 403 and 'CONCAT("serv", "ice")' in refused.value.message


@given(st.text(max_size=40), st.text(max_size=40), st.sampled_from(["service", "SERVICE", "Service"]))
def test_service_anywhere_in_any_text_is_caught(before: str, after: str, word: str) -> None:
    assert mentions_service(before + word + after)


def test_decoding_leaves_bad_escapes_alone() -> None:
    assert decoded(r"\uD800 \U00110000 \u00") == r"\uD800 \U00110000 \u00"
    assert decoded(r"\u0041\u005Cu0042") == "AB"


@pytest.mark.parametrize(
    ("text", "status", "what"),
    [
        ("SELECT * WHERE " + "{ " * 5000 + "?s ?p ?o" + " }" * 5000, 400, "groups"),
        ("SELECT * { FILTER(" + "(" * 20000 + "1" + ")" * 20000 + ") }", 400, "groups"),
        ("ASK { } # " + "UNION " * 2000, 400, "UNION"),  # counted anywhere: a conservative bound
        ("ASK { FILTER(" + "!" * 5000 + "true) }", 400, "negations"),
        ("ASK { BIND(1" + "+1" * 20000 + " AS ?x) }", 400, "operators"),
        ("ASK {} #" + "x" * (64 << 10), 413, "bytes"),
    ],
)
def test_parse_bombs_are_refused_on_raw_text(text: str, status: int, what: str) -> None:
    with pytest.raises(HttpError) as refused:
        check_query(text, Limits())
    assert refused.value.status == status and what in refused.value.message


def test_product_dataset_is_the_grant_or_a_subset_of_it() -> None:
    alpha = product_grant("alpha", ["Alpha"])
    both = (G + "Alpha", G + "org")
    assert dataset_for(alpha, [], []) == Dataset(both, both)
    assert dataset_for(alpha, [G + "Alpha"], []) == Dataset((G + "Alpha",), ())  # the Protocol: no named graphs
    assert dataset_for(alpha, [], [G + "org"]) == Dataset((), (G + "org",))
    with pytest.raises(HttpError, match="Beta"):
        dataset_for(alpha, [G + "Alpha"], [G + "Beta"])
    assert dataset_for(LOCAL, [], []) == Dataset(union=True)
    assert dataset_for(LOCAL, [G + "Beta"], []) == Dataset((G + "Beta",), ())
