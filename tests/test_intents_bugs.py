"""Bug intents: paraphrases (plurals, PRs/pull requests, eids/who, punctuation) map to intent + slots."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from pyoxigraph import Literal

from kg.namespaces import node
from kg.qa.answer import Answerer
from kg.qa.intents import choose, match_intent, table, validate_evidence
from kg.qa.question import Vocabulary, parse
from kg.qa.residue import Labels
from kg.query.sparql import EmbeddedStore, named_query, product_dataset

VOCAB = Vocabulary(products={"demoforce": "DemoForce"}, roles={}, companies={"acme": "Acme", "globex": "Globex"})
#: Component keys as a product's graph holds them (skos:hiddenLabel), near neighbours included, so a free phrase
#: must resolve to the right one.
LABELS = Labels(
    components=(
        "api security access control",
        "security access control",
        "security module",
        "log analysis module",
        "ai processing engine",
        "backend processing task queue management",
        "database management",
        "user interface frontend performance",
        "user interface",
        "api gateway",
        "data storage",
    )
)


def intent_of(text: str) -> tuple[str | None, dict]:
    matched = match_intent(parse(text, VOCAB), LABELS)
    return (matched[0].name, matched[1]) if matched else (None, {})


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("Find the name of company that has the maximum number of unresolved bugs in DemoForce?", "unresolved"),
        ("Which companies have the most open issues in DemoForce", "unresolved"),
        ("Find the name of company that has the maximum number of resolved bugs in DemoForce", "resolved"),
        ("Which company has the highest number of reopened bugs in DemoForce.", "reopened"),
        ("name the company with the most active bugs in DemoForce", "active"),
        (
            "Find the name of company that reported the maximum number of issues that didn’t need fixes in DemoForce?",
            "no fix",
        ),
        ("Which customer company reported the most bugs that did not require a fix in DemoForce", "no fix"),
    ],
)
def test_company_with_most_bugs_in_a_state(text: str, state: str) -> None:
    assert intent_of(text) == ("bug_company_max_state", {"asked": Literal(state)})


@pytest.mark.parametrize(
    ("text", "state"),
    [
        (
            "Find employee IDs of engineers who are assigned to the highest number of active bugs in DemoForce.",
            "active",
        ),
        (
            "Find employee IDs of engineers who are currently working on the highest number of unresolved customer "
            "bugs in DemoForce.",
            "unresolved",
        ),
        ("who is assigned to the most unresolved issues in DemoForce?", "unresolved"),
        (
            "Find the employee ID of the engineer assigned the most issues that didn’t need fixes in DemoForce.",
            "no fix",
        ),
        ("Which engineers were assigned the highest number of bugs that did not require a fix in DemoForce?", "no fix"),
        ("eid of the developer assigned the most reopened bugs in DemoForce", "reopened"),
        ("engineers with the most unresolved customer bugs currently on their plate in DemoForce", "unresolved"),
        (
            "Give me the employee IDs of the engineers currently carrying the largest load of unresolved customer bugs "
            "in DemoForce.",
            "unresolved",
        ),
    ],
)
def test_assignee_with_most_bugs_in_a_state(text: str, state: str) -> None:
    assert intent_of(text) == ("bug_assignee_max_state", {"asked": Literal(state)})


@pytest.mark.parametrize(
    "text",
    [
        "Find the employee ID of engineers who resolved the maximum number of customer bugs in DemoForce",
        "Which engineers fixed the most bugs in DemoForce?",
        "eids of developers that resolved the highest number of issues in DemoForce",
        "Identify the employee ID of the engineer responsible for resolving the highest number of customer bugs in "
        "DemoForce.",
    ],
)
def test_resolver_with_most_bugs(text: str) -> None:
    assert intent_of(text)[0] == "bug_resolver_max"


@pytest.mark.parametrize(
    "text",
    [
        "Find the employee IDs of engineers who authored maximum number of PRs in DemoForce for bug fixes that "
        "are now reopened by customers.",
        "Who wrote the most pull requests for bug fixes in DemoForce that were later reopened?",
    ],
)
def test_fix_author_of_reopened_bugs(text: str) -> None:
    assert intent_of(text)[0] == "bug_reopened_fix_author_max"


@pytest.mark.parametrize(
    "text",
    [
        "Find the employee IDs of engineers who dismissed maximum bugs in DemoForce that are now reopened by "
        "customers.",
        "who dismissed the most issues in DemoForce which were reopened",
    ],
)
def test_dismisser_of_reopened_bugs(text: str) -> None:
    assert intent_of(text)[0] == "bug_reopened_dismisser_max"


@pytest.mark.parametrize(
    "text",
    [
        "Find all PR links submitted by eid_1234abcd to resolve bugs reported by Acme in DemoForce",
        "Which pull requests did eid_1234abcd submit to fix issues reported by Acme in DemoForce?",
        "find all pr link submitted by eid_1234abcd to resolve bug reported by acme in demoforce",
    ],
)
def test_fix_prs_by_author_for_company(text: str) -> None:
    assert intent_of(text) == (
        "bug_fix_prs_by_author_company",
        {"author": node("person", "eid_1234abcd"), "company": Literal("Acme")},
    )


@pytest.mark.parametrize(
    ("text", "company", "state"),
    [
        ("Find bugs reported by Acme in DemoForce that did not require any fixes?", "Acme", "no fix"),
        ("Which issues raised by Globex in DemoForce didn't need a fix", "Globex", "no fix"),
        ("Find all unresolved issues reported by Acme in the DemoForce product?", "Acme", "unresolved"),
        ("list the open bugs reported by Globex in DemoForce.", "Globex", "unresolved"),
        ("unresolved Acme issues DemoForce", "Acme", "unresolved"),
    ],
)
def test_bug_titles_of_a_company_in_a_state(text: str, company: str, state: str) -> None:
    assert intent_of(text) == ("bug_titles_by_state", {"company": Literal(company), "asked": Literal(state)})


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("Which bugs in DemoForce were later found to not require any fixes?", "no fix"),
        ("List the DemoForce issues that were dismissed as not a bug", "no fix"),
        ("What bugs in DemoForce are still unresolved?", "unresolved"),
        ("Which DemoForce bugs were reopened?", "reopened"),
    ],
)
def test_bug_titles_of_the_product_in_a_state(text: str, state: str) -> None:
    assert intent_of(text) == ("bug_titles_by_state", {"asked": Literal(state)})


@pytest.mark.parametrize(
    ("text", "state"),
    [
        (
            "Find names of companies that reported bugs that were later determined to not require any fixes in "
            "DemoForce?",
            "no fix",
        ),
        ("Which customers reported issues in DemoForce that didn't need a fix?", "no fix"),
        ("Which companies have unresolved bugs in DemoForce", "unresolved"),
        ("name the companies whose bugs were reopened in DemoForce", "reopened"),
    ],
)
def test_companies_with_bugs_in_a_state(text: str, state: str) -> None:
    assert intent_of(text) == ("bug_companies_by_state", {"asked": Literal(state)})


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        (
            "Find the names of companies were affected by issues in the API Security & Access Control of DemoForce "
            "that led to data exposure?",
            "api security access control",
        ),
        (
            "Find the names of companies were affected by the API security and access control issues in DemoForce "
            "that led to data exposure?",
            "api security access control",
        ),
        ("Which companies were impacted by bugs in the Log Analysis Module in DemoForce", "log analysis module"),
        (
            "AI Processing Engine issues in DemoForce causing latency: which companies were affected?",
            "ai processing engine",
        ),
        (
            "Which companies were affected by the backend processing and task queue management issues that caused "
            "slow response times — DemoForce?",
            "backend processing task queue management",
        ),
    ],
)
def test_companies_affected_by_component(text: str, phrase: str) -> None:
    assert intent_of(text) == ("bug_component_companies", {"phrase": Literal(phrase)})


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        (
            "What is the employee ID of engineers who resolved issues with the Database Management in DemoForce "
            "that were degrading performance?",
            "database management",
        ),
        (
            "What is the employee ID of engineers who resolved the security module issue in DemoForce that posed a "
            "risk?",
            "security module",
        ),
        (
            "Who fixed the bugs in the User Interface & Frontend Performance of DemoForce",
            "user interface frontend performance",
        ),
        (
            "In DemoForce, which engineers resolved the Security & Access Control issues that were posing a risk?",
            "security access control",
        ),
    ],
)
def test_resolvers_of_component_bugs(text: str, phrase: str) -> None:
    assert intent_of(text) == ("bug_component_resolvers", {"phrase": Literal(phrase)})


@pytest.mark.parametrize(
    "text",
    [
        "What issues were reported by customers for the previous release of DemoForce?",
        "Who wrote the market research report for DemoForce?",
    ],
)
def test_other_questions_are_not_bug_intents(text: str) -> None:
    name = intent_of(text)[0]
    assert name is None or not name.startswith("bug_")


def test_a_bug_question_naming_no_product_abstains(answerer: Answerer) -> None:
    got = answerer.ask("Find the name of company that has the maximum number of unresolved bugs?")
    assert got.abstain and "names no product" in (got.reason or "")


def test_an_unknown_component_is_an_uncertain_reading_naming_it(answerer: Answerer) -> None:
    """A phrase that names no component may be a misread as much as an absence: never a proof."""
    got = answerer.ask("Which companies were affected by issues in the Quantum Teleporter of ConnectForce?")
    assert got.outcome == "uncertain" and got.proof is None
    assert "quantum teleporter" in (got.reason or "") and "names no component of ConnectForce" in (got.reason or "")
    slipped = answerer.ask("Which companies were affected by issues in the Autentication Modul of ConnectForce?")
    assert slipped.outcome == "uncertain" and slipped.reason.endswith("did you mean 'authentication module'?")


class CountingBackend:
    """The real store, with a count of the queries it ran (by text)."""

    def __init__(self, store: EmbeddedStore) -> None:
        self.store, self.location, self.ran = store, store.location, Counter()

    def select(self, query, bindings=None, graphs=None):
        self.ran[query] += 1
        return self.store.select(query, bindings, graphs)

    def ask(self, query, bindings=None, graphs=None):
        self.ran[query] += 1
        return self.store.ask(query, bindings, graphs)


def test_the_bug_counting_intents_cite_the_product_evidence_read_once(store: Path) -> None:
    backend = CountingBackend(EmbeddedStore(store))
    answerer = Answerer(backend)
    evidence = named_query("bug_lifecycle_evidence").text
    cites = {r["cite"].value for r in backend.store.select(evidence, graphs=product_dataset("ActionGenie"))}
    assert len(cites) > 100, "every message of the product's bug conversations, and the fixing PRs"
    asked = [
        "Find the name of company that has the maximum number of unresolved bugs in ActionGenie?",
        "Find the name of company that has the maximum number of resolved bugs in ActionGenie?",
        "Find employee IDs of engineers who are assigned to the highest number of active bugs in ActionGenie.",
        "Find the employee ID of engineers who resolved the maximum number of customer bugs in ActionGenie",
    ]
    answers = [answerer.ask(q) for q in asked]
    assert [a.intent for a in answers] == [
        "bug_company_max_state", "bug_company_max_state", "bug_assignee_max_state", "bug_resolver_max",
    ]  # fmt: skip
    for a in answers:
        assert not a.abstain and cites <= set(a.citations) and a.citations == sorted(set(a.citations))
        assert evidence in a.queries, "an answer shows every query that made it"
    assert backend.ran[evidence] == 1, "the evidence is the same for every question about a product: read once"


def test_an_unknown_evidence_query_is_refused_when_the_table_loads() -> None:
    with pytest.raises(ValueError, match="no evidence query"):
        validate_evidence([replace(table()[1][0], evidence=("no_such_query",))])


@pytest.mark.parametrize(
    ("question", "complete"),
    [
        ("Which companies were affected by issues with the Log Analysis Module of DemoForce that posed security risks "
         "and potential data breaches?", True),
        ("Who resolved issues in the backend processing and task queue management of DemoForce which caused security "
         "vulnerabilities?", True),
        ("Which companies were affected by issues with the Log Analysis Module of DemoForce that caused security "
         "risks and are still unresolved?", False),
    ],
)  # fmt: skip
def test_a_component_named_with_its_effect_is_one_reading(question: str, complete: bool) -> None:
    """A reason word inside the effect clause of the named component ("that posed security risks") describes
    it and competes with nothing; a state in that clause is still a constraint the reading must explain."""
    winner = choose(parse(question, VOCAB), LABELS).winner
    assert winner is not None and winner.intent.name.startswith("bug_component_")
    assert winner.complete is complete


def test_companies_by_bugs_in_any_state_agree_with_each_companys_bugs(answerer: Answerer) -> None:
    """ "Which company has reported the most bugs in X" (no state said) and "which companies reported bugs in X"
    read every state: the same as counting each company's own bugs ("Find all bugs reported by <company> in X")."""
    for product in ("ActionGenie", "SearchForce"):
        listed = answerer.ask(f"Which companies reported bugs in {product}?")
        assert listed.outcome == "answer" and isinstance(listed.answer, list) and listed.answer, listed.reason
        counts = {}
        for company in listed.answer:
            own = answerer.ask(f"Find all bugs reported by {company} in {product}.")
            counts[company] = len([line for line in str(own.answer).splitlines() if line.startswith("- ")])
        top = max(counts.values())
        most = answerer.ask(f"Which customer company has reported the most bugs in {product}?")
        assert most.outcome == "answer" and set(most.answer or []) == {c for c, n in counts.items() if n == top}
        stated = answerer.ask(f"Which company has the most unresolved bugs in {product}?")
        assert stated.intent == "bug_company_max_state"
