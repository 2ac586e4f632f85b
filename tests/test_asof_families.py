"""The as-of form of every PR, feature and bug-superlative intent, on all 30 HERB products, at the SPARQL level:
after the last event it gives the base query's answer, before the first event no rows (and its ASK is false),
and at sampled event times t (and t - 1 s) exactly what a Python model of its definition, read off the events
the rules wrote, gives: the answer changes at those events and nowhere else."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path

import pytest
from pyoxigraph import Literal

from kg.ingest.herb import product_names
from kg.namespaces import term
from kg.qa.answer import fold_rows
from kg.qa.intents.features import keep_best_features, keep_top_authors
from kg.query.sparql import EmbeddedStore, Row, Term, named_query, product_dataset

pytestmark = pytest.mark.herb
EKG = "https://w3id.org/ekg/ont#"
LONG_AGO, FAR_AHEAD = "1900-01-01T00:00:00", "9999-12-31T23:59:59"
#: Event times per product and family the change-point test probes (evenly spread), each at t and t - 1 s:
#: this many where the model's answer changes, half as many where it does not.
SAMPLED_TIMES = 2
#: Event times per product and family the model is evaluated at, to find where the answer changes.
CANDIDATE_TIMES = 60
#: Parameter sets tried per product for one whose answer moves (the rotation brings each first on some product).
GRID_TRIES = 4
BUG_ASKED = {
    "resolved": {"Resolved"},
    "unresolved": {"Open", "Reopened"},
    "active": {"Open", "Reopened"},
    "reopened": {"Reopened"},
    "no fix": {"NoFixNeeded"},
}
PR_ASKED = {
    "open": {"PullRequestOpen", "PullRequestApproved"},
    "merged": {"PullRequestMerged", "PullRequestReverted"},
    "closed": {"PullRequestClosed"},
    "reverted": {"PullRequestReverted"},
}
REASONS = ("SecurityRisk", "ProductDirectionChange", "IntroducedBugs")


def local(value: str) -> str:
    return value.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def dt(at: str) -> Literal:
    return Literal(at, datatype=term("xsd:dateTime"))


def second_before(at: str) -> str:
    return (datetime.fromisoformat(at) - timedelta(seconds=1)).isoformat()


@dataclass(frozen=True)
class Event:
    seq: int
    at: str
    kind: str
    state: str  # the state concept's local name
    agent: str | None


@dataclass
class Facts:
    """What the rules wrote for one product, read back with plain SPARQL: the model's input."""

    events: dict[str, list[Event]]
    pr_id: dict[str, str]
    author: dict[str, str]
    feature_prs: dict[str, set[str]]
    keywords: dict[str, set[str]]
    text: dict[str, str]
    responsible: dict[str, set[str]]
    decisions: list[tuple[str, str, str, str | None, str]]  # pr, kind, status, reason, at
    company: dict[str, str]
    customer_bugs: set[str] = field(default_factory=set)
    reviews: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # pr -> (review state, at)

    @property
    def discussed(self) -> set[str]:
        """The features a planning meeting discussed (they have a "discussed" event)."""
        return {item for item, events in self.events.items() if any(e.kind == "discussed" for e in events)}

    def state_at(self, item: str, at: str) -> str | None:
        seen = [e for e in self.events.get(item, []) if e.at <= at]
        return max(seen, key=lambda e: e.seq).state if seen else None

    def happened(self, item: str, kind: str, at: str) -> list[Event]:
        return [e for e in self.events.get(item, []) if e.kind == kind and e.at <= at]

    def decided(self, pr: str, kind: str | None, status: str | None, reason: str | None, at: str) -> bool:
        return any(
            p == pr and kind in (None, k) and status in (None, s) and reason in (None, r) and when <= at
            for p, k, s, r, when in self.decisions
        )


def select_all(backend: EmbeddedStore, product: str, query: str) -> list[Row]:
    return backend.select(query, None, product_dataset(product))


@cache
def facts_of(backend: EmbeddedStore, product: str) -> Facts:
    events: dict[str, list[Event]] = defaultdict(list)
    for r in select_all(backend, product, named_query("asof_events").text):
        agent = r["agent"].value if "agent" in r else None
        event = Event(int(r["seq"].value), r["at"].value, r["what"].value, local(r["state"].value), agent)
        if event not in events[r["item"].value]:
            events[r["item"].value].append(event)
    q = """SELECT ?pr ?id ?author WHERE { ?pr a ekg:PullRequest ; dct:identifier ?id .
           OPTIONAL { ?pr prov:wasAttributedTo ?author } }"""
    prs = select_all(backend, product, q)
    feature_prs, keywords, responsible = defaultdict(set), defaultdict(set), defaultdict(set)
    for r in select_all(backend, product, "SELECT ?f ?pr WHERE { ?f a ekg:Feature ; ekg:implementedBy ?pr }"):
        feature_prs[r["f"].value].add(r["pr"].value)
    for r in select_all(backend, product, "SELECT ?f ?kw WHERE { ?f a ekg:Feature ; ekg:keyword ?kw }"):
        keywords[r["f"].value].add(r["kw"].value)
    for r in select_all(backend, product, "SELECT ?f ?who WHERE { ?f a ekg:Feature ; ekg:responsible ?who }"):
        responsible[r["f"].value].add(local(r["who"].value))
    q = """SELECT ?pr ?kind ?status ?reason ?at WHERE { ?d a ekg:FeatureDecision ; ekg:decisionOn ?pr ;
           ekg:decisionKind ?kind ; ekg:featureStatus ?status ; dct:created ?at .
           OPTIONAL { ?d ekg:statusReason ?reason } }"""
    decisions = [
        (r["pr"].value, r["kind"].value, local(r["status"].value), local(r["reason"].value) if "reason" in r else None,
         r["at"].value)
        for r in select_all(backend, product, q)
    ]  # fmt: skip
    q = """SELECT ?bug ?company WHERE { ?bug a ekg:Bug ; ekg:affectsCustomer ?c .
           OPTIONAL { ?c ekg:worksFor/rdfs:label ?company } }"""
    bugs = select_all(backend, product, q)
    reviews: dict[str, list[tuple[str, str]]] = defaultdict(list)
    q = """SELECT ?pr ?state ?at WHERE { ?rv a ekg:PullRequestReview ; ekg:reviewOf ?pr ; ekg:reviewState ?state ;
           dct:created ?at }"""
    for r in select_all(backend, product, q):
        reviews[r["pr"].value].append((local(r["state"].value), r["at"].value))
    return Facts(
        events=dict(events),
        pr_id={r["pr"].value: r["id"].value for r in prs},
        author={r["pr"].value: local(r["author"].value) for r in prs if "author" in r},
        feature_prs=dict(feature_prs),
        keywords=dict(keywords),
        text={
            r["f"].value: r["t"].value
            for r in select_all(backend, product, "SELECT ?f ?t WHERE { ?f a ekg:Feature ; ekg:text ?t }")
        },
        responsible=dict(responsible),
        decisions=decisions,
        company={r["bug"].value: r["company"].value for r in bugs if "company" in r},
        customer_bugs={r["bug"].value for r in bugs},
        reviews=dict(reviews),
    )


def top(counts: Counter[str]) -> set[str]:
    best = max(counts.values(), default=0)
    return {k for k, n in counts.items() if n == best and n > 0}


# --- what each family's answer is at a time, by the definition (the model) and by the query (observed) -------


def topic_feature(facts: Facts) -> str | None:
    """The feature the topic families are asked about: the one whose PRs went through the most kinds of event."""
    kinds = {f: len({e.kind for pr in prs for e in facts.events.get(pr, [])}) for f, prs in facts.feature_prs.items()}
    return max((f for f in kinds if f in facts.keywords), key=lambda f: (kinds[f], f), default=None)


def topic_bindings(facts: Facts) -> dict[str, Term]:
    words = sorted(facts.keywords[topic_feature(facts) or ""])
    return {"topic": Literal(f" {' '.join(words)} "), "ntok": Literal(str(len(words)), datatype=term("xsd:integer"))}


def approved_by(facts: Facts, pr: str, at: str) -> bool:
    return bool(facts.happened(pr, "approved", at))


def approval_held(facts: Facts, pr: str, at: str) -> bool:
    """An APPROVED review by `at` that no CHANGES_REQUESTED review had withdrawn by then (pr_feature_review)."""
    reviews = [(state, t) for state, t in facts.reviews.get(pr, []) if t <= at]
    return any(
        state == "Approved" and not any(s == "ChangesRequested" and t0 < t for s, t in reviews) for state, t0 in reviews
    )


PrTest = Callable[[Facts, str, str, dict[str, Term]], bool]
PR_TESTS: dict[str, PrTest] = {
    "pr_topic_state": lambda f, pr, at, b: f.state_at(pr, at) in PR_ASKED[b["asked"].value],
    "pr_feature_review": lambda f, pr, at, b: (
        f.state_at(pr, at) is not None and approval_held(f, pr, at) == (b["approved"].value == "true")
    ),
    "pr_to_close": lambda f, pr, at, b: (
        f.state_at(pr, at) not in (None, "PullRequestMerged", "PullRequestReverted")
        and f.decided(pr, "held", None, None, at)
    ),
    "pr_reverted": lambda f, pr, at, b: (
        f.state_at(pr, at) == "PullRequestReverted"
        and f.decided(pr, "reverted", None, local(b["reason"].value), FAR_AHEAD)
    ),
    "feature_added_topic": lambda f, pr, at, b: f.state_at(pr, at) == "PullRequestMerged",
    "feature_dropped": lambda f, pr, at, b: f.decided(pr, None, "Dropped", local(b["reason"].value), at),
    "feature_delayed": lambda f, pr, at, b: (
        f.decided(pr, None, "Delayed", local(b["reason"].value), at) and bool(f.happened(pr, "merged", at))
    ),
}  # fmt: skip


def feature_prs_cited(facts: Facts, rows: list[Row], prs: set[str]) -> set[str]:
    """The PRs (of the given ones) whose artifact the rows cite: how a PR family's rows name the PRs it keeps."""
    cited = {r["cite"].value for r in rows if "cite" in r}
    return {pr for pr in prs if facts.pr_id.get(pr) in cited}


def still_discussed(facts: Facts, at: str) -> set[str]:
    return {
        f
        for f in facts.discussed
        if facts.state_at(f, at) == "Discussed"
        and not any(facts.happened(pr, "opened", at) for pr in facts.feature_prs.get(f, ()))
    }


def bugs_in(facts: Facts, asked: str, at: str) -> set[str]:
    return {b for b in facts.customer_bugs if facts.state_at(b, at) in BUG_ASKED[asked]}


def assignee_counts(facts: Facts, asked: str, at: str) -> Counter[str]:
    bugs = {b for b in facts.events if facts.state_at(b, at) in BUG_ASKED[asked]}
    return Counter(
        local(agent)
        for b in bugs
        for agent in {e.agent for e in facts.happened(b, "assigned", at) if e.agent}
    )  # fmt: skip


def resolver_counts(facts: Facts, at: str) -> Counter[str]:
    return Counter(
        local(agent)
        for b in facts.customer_bugs
        for agent in {e.agent for e in facts.happened(b, "resolved", at) if e.agent}
    )  # fmt: skip


def author_counts(facts: Facts, approved: bool, at: str) -> Counter[str]:
    prs = {pr for prs in facts.feature_prs.values() for pr in prs if pr in facts.author}
    return Counter(
        facts.author[pr] for pr in prs if facts.state_at(pr, at) is not None and approved_by(facts, pr, at) == approved
    )


@dataclass(frozen=True)
class Family:
    """One intent's as-of family: its parameter grid, how its answers are read, and the model of them."""

    name: str
    grid: Callable[[Facts], list[dict[str, Term]]]
    finish: Callable[[list[Row]], tuple[list[str], list[str]]]
    observed: Callable[[Facts, list[Row]], set[str]]
    model: Callable[[Facts, dict[str, Term], str], set[str]]
    times: Callable[[Facts], list[str]]


def answers(finish: Callable[[list[Row]], tuple[list[str], list[str]]]) -> Callable[[Facts, list[Row]], set[str]]:
    return lambda _facts, rows: set(finish(rows)[0])


def event_times(facts: Facts, items: Iterator[str] | set[str]) -> list[str]:
    return sorted({e.at for item in items for e in facts.events.get(item, [])})


def topic_prs(facts: Facts) -> set[str]:
    return facts.feature_prs.get(topic_feature(facts) or "", set())


def all_feature_prs(facts: Facts) -> set[str]:
    return {pr for prs in facts.feature_prs.values() for pr in prs}


def pr_family(name: str, extra: list[dict[str, Term]], prs: Callable[[Facts], set[str]]) -> Family:
    """A family whose answer is a set of PRs: of the topic's feature (with a topic), or of every feature."""
    topical = prs is topic_prs

    def grid(facts: Facts) -> list[dict[str, Term]]:
        if topical and topic_feature(facts) is None:
            return []
        return [{**(topic_bindings(facts) if topical else {}), **b} for b in extra]

    def times(facts: Facts) -> list[str]:
        decided = {at for pr, *_, at in facts.decisions if pr in prs(facts)}
        return sorted(set(event_times(facts, prs(facts))) | decided)

    return Family(
        name,
        grid,
        keep_best_features if topical else fold_rows,
        lambda facts, rows: feature_prs_cited(facts, rows, prs(facts)),
        lambda facts, b, at: {pr for pr in prs(facts) if PR_TESTS[name](facts, pr, at, b)},
        times,
    )


def asked(words: dict[str, set[str]]) -> list[dict[str, Term]]:
    return [{"asked": Literal(w)} for w in words]


REASON_GRID = [{"reason": term(f"ekg:{r}")} for r in REASONS]
APPROVED_GRID = [{"approved": Literal(v)} for v in (True, False)]
FAMILIES = [
    pr_family("pr_topic_state", asked(PR_ASKED), topic_prs),
    pr_family("pr_feature_review", APPROVED_GRID, topic_prs),
    pr_family("pr_to_close", [{}], topic_prs),
    pr_family("pr_reverted", REASON_GRID, topic_prs),
    pr_family("feature_added_topic", [{}], topic_prs),
    pr_family("feature_dropped", REASON_GRID, all_feature_prs),
    pr_family("feature_delayed", REASON_GRID, all_feature_prs),
    Family(
        "feature_discussed",
        lambda facts: [{}],
        fold_rows,
        answers(fold_rows),
        lambda facts, b, at: {facts.text[f] for f in still_discussed(facts, at) if f in facts.text},
        lambda facts: event_times(facts, facts.discussed | all_feature_prs(facts)),
    ),
    Family(
        "feature_discussed_people",
        lambda facts: [{}],
        fold_rows,
        answers(fold_rows),
        lambda facts, b, at: {who for f in still_discussed(facts, at) for who in facts.responsible.get(f, ())},
        lambda facts: event_times(facts, facts.discussed | all_feature_prs(facts)),
    ),
    Family(
        "pr_top_author",
        lambda facts: APPROVED_GRID,
        keep_top_authors,
        answers(keep_top_authors),
        lambda facts, b, at: top(author_counts(facts, b["approved"].value == "true", at)),
        lambda facts: event_times(facts, all_feature_prs(facts)),
    ),
    Family(
        "bug_company_max_state",
        lambda facts: asked(BUG_ASKED),
        fold_rows,
        answers(fold_rows),
        lambda facts, b, at: top(
            Counter(facts.company[x] for x in bugs_in(facts, b["asked"].value, at) if x in facts.company)
        ),
        lambda facts: event_times(facts, facts.customer_bugs),
    ),
    Family(
        "bug_assignee_max_state",
        lambda facts: asked(BUG_ASKED),
        fold_rows,
        answers(fold_rows),
        lambda facts, b, at: top(assignee_counts(facts, b["asked"].value, at)),
        lambda facts: event_times(facts, facts.customer_bugs),
    ),
    Family(
        "bug_resolver_max",
        lambda facts: [{}],
        fold_rows,
        answers(fold_rows),
        lambda facts, b, at: top(resolver_counts(facts, at)),
        lambda facts: event_times(facts, facts.customer_bugs),
    ),
]
IDS = [f.name for f in FAMILIES]


@pytest.fixture(scope="module")
def setting(store: Path, herb: Path) -> tuple[EmbeddedStore, list[str]]:
    """The store every test here reads, and the 30 products it walks."""
    return EmbeddedStore(store), sorted(product_names(herb))


def select(backend: EmbeddedStore, product: str, name: str, bindings: dict[str, Term]) -> list[Row]:
    return backend.select(named_query(name).text, bindings, product_dataset(product))


def run(backend: EmbeddedStore, product: str, name: str, bindings: dict[str, Term]) -> tuple[list[Row], bool]:
    """The query's rows and its proof's verdict (the proof costs as much again: asked only where checked)."""
    return select(backend, product, name, bindings), backend.ask(
        named_query(f"{name}.ask").text, bindings, product_dataset(product)
    )


def test_every_family_has_both_files_with_the_base_parameters_plus_as_of() -> None:
    for family in FAMILIES:
        for suffix in ("", ".ask"):
            base, timed = named_query(family.name + suffix), named_query(f"asof_{family.name}{suffix}")
            assert set(timed.params) == {*base.params, "asOf"}, timed.name
            assert timed.intent.startswith(f"asof_{family.name}") and timed.example, timed.name


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_after_the_last_event_the_answer_is_the_base_answer(
    family: Family, setting: tuple[EmbeddedStore, list[str]]
) -> None:
    backend, products = setting
    answered = 0
    for n, product in enumerate(products):
        facts = facts_of(backend, product)
        order = rotated(family.grid(facts), n)  # the first parameter set, from the product's turn on, that answers
        for bindings in [b for b in order if family.model(facts, b, FAR_AHEAD)][:1] or order[:1]:
            rows, ask = run(backend, product, family.name, bindings)
            later, later_ask = run(backend, product, f"asof_{family.name}", {**bindings, "asOf": dt(FAR_AHEAD)})
            assert sorted(family.finish(later)[0]) == sorted(family.finish(rows)[0]), (product, bindings)
            assert later_ask == ask, (product, bindings)
            answered += bool(family.finish(rows)[0])
    assert answered, f"{family.name} answers on some product"


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_before_the_first_event_no_rows_and_the_proof_proves_absence(
    family: Family, setting: tuple[EmbeddedStore, list[str]]
) -> None:
    backend, products = setting
    for n, product in enumerate(products):
        for bindings in rotated(family.grid(facts_of(backend, product)), n)[:1]:
            rows, ask = run(backend, product, f"asof_{family.name}", {**bindings, "asOf": dt(LONG_AGO)})
            assert rows == [] and ask is True, (product, bindings)  # true: proved absent


def rotated(grid: list[dict[str, Term]], n: int) -> list[dict[str, Term]]:
    """The parameter sets from the n-th product's turn on: across the 30 products each set comes first on some."""
    return grid[n % len(grid) :] + grid[: n % len(grid)] if grid else []


def spread(times: list[str], k: int) -> list[str]:
    return times[:: max(1, len(times) // k)][:k]


def changes(family: Family, facts: Facts, bindings: dict[str, Term], times: list[str]) -> list[str]:
    """The times at which the model's answer differs from its answer one second earlier."""
    return [t for t in times if family.model(facts, bindings, t) != family.model(facts, bindings, second_before(t))]


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_the_answer_changes_exactly_at_the_event_dates(
    family: Family, setting: tuple[EmbeddedStore, list[str]]
) -> None:
    """At event times t where the model's answer changes, and at some where it does not, the query's answer at t
    and at t - 1 s is the model's (one parameter set per product, rotating through the grid)."""
    backend, products = setting
    changed = 0
    for n, product in enumerate(products):
        facts = facts_of(backend, product)
        grid = family.grid(facts)
        times = spread(family.times(facts), CANDIDATE_TIMES)
        if not grid:
            continue
        order = rotated(grid, n)  # the first parameter set, from the product's turn on, whose answer moves
        bindings, moves = next(
            ((b, moves) for b in order[:GRID_TRIES] if (moves := changes(family, facts, b, times))), (order[0], [])
        )
        steady = [t for t in times if t not in moves]
        for t in spread(moves, SAMPLED_TIMES) + spread(steady, SAMPLED_TIMES // 2):
            for at in (second_before(t), t):
                rows = select(backend, product, f"asof_{family.name}", {**bindings, "asOf": dt(at)})
                assert family.observed(facts, rows) == family.model(facts, bindings, at), (product, bindings, at)
        changed += bool(moves)
    assert changed, f"{family.name}: on some product an event changes the answer"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["bug_titles_by_state", "bug_companies_by_state"])
def test_the_bug_listing_proofs_by_file_name_agree_with_the_base_after_and_prove_absence_before(
    name: str, setting: tuple[EmbeddedStore, list[str]]
) -> None:
    """The bug listings' as-of proofs (found by file name) are the base proofs evaluated at the time asked."""
    backend, products = setting
    base, timed = named_query(f"{name}.ask"), named_query(f"asof_{name}.ask")
    assert set(timed.params) == {*named_query(name).params, "asOf"}
    for product in products:
        graphs = product_dataset(product)
        companies = sorted(set(facts_of(backend, product).company.values()))[:1] if "company" in base.params else [None]
        for word, company in [(w, c) for w in BUG_ASKED for c in companies]:
            bindings = {"asked": Literal(word), **({"company": Literal(company)} if company else {})}
            now = backend.ask(base.text, bindings, graphs)
            assert backend.ask(timed.text, {**bindings, "asOf": dt(FAR_AHEAD)}, graphs) == now, (product, bindings)
            assert backend.ask(timed.text, {**bindings, "asOf": dt(LONG_AGO)}, graphs), (product, bindings)
