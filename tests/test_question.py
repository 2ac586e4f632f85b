"""Question parsing: normalisation, slots, and input validation; plus a hypothesis fuzz of the whole path."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.errors import KGError
from kg.qa.answer import Answerer
from kg.qa.question import Vocabulary, clean_text, normalise, parse, spelled_out
from kg.qa.time import find_time

VOCAB = Vocabulary(
    products={"actiongenie": "ActionGenie", "searchflow": "SearchFlow", "searchforce": "SearchForce"},
    roles={"qa specialist": "QA Specialist", "engineering lead": "Engineering Lead"},
    companies={"techcorp": "TechCorp", "bluewave": "BlueWave"},
)


def test_normalise_unifies_quotes_dashes_and_case() -> None:
    assert normalise("Didn’t  NEED—fixes?") == "didn't need-fixes"


@pytest.mark.parametrize(
    "text",
    [
        "Find employee IDs of QA Specialists who reviewed the Product Vision Document for ActionGenie?",
        "which eids belong to qa specialists reviewing actiongenie's product vision document",
        "Who among the QA specialist(s) reviewed ActionGenie’s PVD?",
    ],
)
def test_slots_survive_paraphrase(text: str) -> None:
    q = parse(text, VOCAB)
    assert q.product == "ActionGenie"
    assert q.doc_kind == "ProductVisionDocument"
    assert q.roles == ["QA Specialist"]


def test_longest_product_name_wins_and_possessive_is_handled() -> None:
    assert parse("What did SearchForce's team ship?", VOCAB).product == "SearchForce"
    assert parse("bugs in searchflow", VOCAB).product == "SearchFlow"


def test_companies_eids_and_customer_ids_are_slots() -> None:
    q = parse("PR links submitted by eid_1a2b3c4d for bugs reported by TechCorp (CUST-0042) in ActionGenie", VOCAB)
    assert q.companies == ["TechCorp"]
    assert q.eids == ["eid_1a2b3c4d"]
    assert q.customer_ids == ["CUST-0042"]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "empty"),
        ("   \n\t", "empty"),
        ("x" * 1_000_000, "limit"),
        (b"\xff\xfe\x00bad", "not valid UTF-8"),
        ("hello\x00world", "control characters"),
    ],
)
def test_bad_input_is_a_clear_error(raw: str | bytes, message: str) -> None:
    with pytest.raises(KGError, match=message):
        clean_text(raw)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=400), st.binary(max_size=200)))
def test_parse_never_raises_anything_but_kgerror(raw: str | bytes) -> None:
    try:
        q = parse(raw, VOCAB)
    except KGError:
        return
    assert q.norm == find_time(spelled_out(normalise(q.text)))[1]
    assert q.product in (None, "ActionGenie", "SearchFlow", "SearchForce")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.sampled_from(
            [
                "find",
                "employee",
                "ids",
                "who",
                "PRs",
                "pull requests",
                "bugs",
                "ActionGenie",
                "reviewed",
                "the",
                "Market Research Report",
                "QA Specialists",
                "TechCorp",
                "not",
                "approved",
                "?",
                "'",
                "SELECT * WHERE {",
                "} ; DROP ALL",
                "eid_1a2b3c4d",
                "competitor",
                "previous release",
                "features",
                "CUST-0001",
                '"',
                "<",
                ">",
            ]
        ),
        max_size=14,
    ).map(" ".join)
)
def test_answerer_always_returns_an_answer_or_a_reasoned_abstention(answerer: Answerer, text: str) -> None:
    if not text.strip():
        with pytest.raises(KGError, match="invalid question: the question is empty"):
            answerer.ask(text)
        return
    got = answerer.ask(text)
    assert got.abstain or got.answer
    if got.abstain:
        assert got.reason and got.answer is None


def test_a_roles_initials_name_it_for_any_role_the_graph_holds() -> None:
    """Acronyms come from the vocabulary, not a list: three letters or more, capitals kept whole."""
    vocab = Vocabulary(
        products={"actiongenie": "ActionGenie"},
        roles={"marketing research analyst": "Marketing Research Analyst", "ux researcher": "UX Researcher",
               "vp of engineering": "VP of Engineering", "engineering lead": "Engineering Lead"},
        companies={},
    )  # fmt: skip
    assert parse("Which MRAs worked on ActionGenie's last release?", vocab).roles == ["Marketing Research Analyst"]
    assert parse("the UXR's suggestions for the ActionGenie PRD", vocab).roles == ["UX Researcher"]
    assert parse("did the VPE review the ActionGenie PRD", vocab).roles == ["VP of Engineering"]
    assert parse("which EL reviewed the ActionGenie PRD", vocab).roles == []  # two letters: too often something else


def test_a_former_name_is_read_as_the_product_but_a_repository_is_not() -> None:
    vocab = Vocabulary({"actiongenie": "ActionGenie", "onforcex": "ActionGenie"}, {}, {})
    renamed = parse("Which onForceX PRs were reverted?", vocab)
    assert renamed.product == "ActionGenie" and "actiongenie" in renamed.norm
    linked = parse("Who approved https://github.com/salesforce/onForceX/pull/11?", vocab)
    assert linked.product is None and "onforcex/pull" in linked.norm  # a link keeps its own words
    repo = parse("Just within the onForceX repo, who approved the most PRs?", vocab)
    assert repo.product is None  # a repository is not the whole product
