"""Bug intents: customer bugs, their states, who fixed or dismissed them, and the components they affect.

Every matcher reads the wording only to pick the intent and its slots (bug state, company, eid, component
phrase); which bugs count is decided by typed edges the bug rules wrote (kg/ingest/rules/bugs.py). The bug states a
question can ask about map onto ekg:bugState in the queries' VALUES tables: unresolved / active / open ->
Open or Reopened; resolved / fixed / closed -> Resolved; reopened -> Reopened; "did not need / require a fix",
"not a bug", dismissed -> NoFixNeeded.
"""

from __future__ import annotations

import re

from pyoxigraph import Literal

from kg.namespaces import node
from kg.qa.intents import Intent, register
from kg.qa.question import BUG, MOST, Question
from kg.query.sparql import Term
from kg.text import component_key

NO_FIX = (
    r"(?:(?:didn't|did not|don't|do not|doesn't|does not|didnt|dont|not)(?: to)? (?:need|require)\w* (?:any )?"
    r"(?:a )?fix|no fix|without (?:a )?fix|not (?:a|real) bug|dismissed|closed without)"
)
#: Question wording of a bug state -> the state literal the queries' VALUES tables define.
STATE_WORDS: tuple[tuple[str, str], ...] = (
    (r"\bunresolved\b|\bnot (?:yet )?resolved\b|\bopen\b|\boutstanding\b|\bpending\b", "unresolved"),
    (r"\bactive\b|\bongoing\b", "active"),
    (r"\breopen(?:ed)?\b|\bre-opened\b", "reopened"),
    (NO_FIX, "no fix"),
    (r"\bresolved\b|\bfixed\b|\bclosed\b", "resolved"),
)
# "issues in the X of P", "issues with the X in P", "the X issues in P", "affected by X problems in P"
COMPONENT_SPAN = (
    r"{bug} (?:in|with|within|affecting|related to|concerning) (?:the )?(?P<c>.+?) (?:of|in|for|on) "
    r"(?:the )?{product}",
    r"(?:affected by|resolved|fixed) (?:the )?(?P<c>.+?) {bug} (?:in|of|for|on) (?:the )?{product}",
    r"{affected} (?:the )?(?P<c>.+?) {bug} (?:in|of|for|on|with) (?:the )?{product}",
    r"{affected} (?:the )?{product}(?:'s)? (?P<c>.+?) {bug}",
    r"^(?:the )?(?P<c>.+?) {bug} (?:in|of|for|on|with) (?:the )?{product}",
    r"(?:{affected}|resolved|fixed|solved|addressed) (?:the )?(?P<c>.+?) {bug} (?:that|which|causing|where)\b",
)
#: A span that opens with the question's own words is no component ("which engineers fixed …").
NOT_A_COMPONENT = re.compile(r"^(?:which|what|who|find|list|show|give|name|tell|can|could|please|in)\b")
#: How a question says customers were affected: "affected by", "impacted by", "hit by", "experienced", "faced".
AFFECTED = r"(?:affected by|impacted by|hit by|experienc\w*|faced|encountered)"
# The product named before the component or earlier in the question: "issues in P's X that …", "issues with
# the P X which …", "In P, which engineers fixed issues with the X that …" — the span ends at the impact clause.
COMPONENT_BEFORE_IMPACT = (
    r"{bug} (?:in|with|within|affecting|related to|concerning) (?:the )?"
    r"(?:{product}(?:'s)? )?(?P<c>.+?)(?: (?:that|which|causing|where)\b|$)"
)


def asked_state(text: str) -> str | None:
    for pattern, state in STATE_WORDS:
        if re.search(pattern, text):
            return state
    return None


def is_bug_question(q: Question) -> bool:
    return q.product is not None and bool(q.matches(rf"\b{BUG}s?\b"))


def match_company_max_state(q: Question) -> dict[str, Term] | None:
    """ "Which company has the most unresolved / resolved / reopened / active bugs in P?" and "… reported the
    most issues that didn't need fixes"."""
    if not is_bug_question(q) or not q.asks_for_companies() or not q.matches(MOST) or q.eids:
        return None
    state = asked_state(q.norm)
    return {"asked": Literal(state)} if state else None


def match_assignee_max_state(q: Question) -> dict[str, Term] | None:
    """ "Engineers assigned to / working on the most unresolved (active) bugs in P", "the engineer assigned the
    most issues that didn't need fixes"."""
    if not is_bug_question(q) or not q.asks_for_people() or not q.matches(MOST):
        return None
    state = asked_state(q.norm)
    assigned = q.matches(r"\b(?:assigned|working on|work on|handling|owning|own|carrying|responsible for)\b")
    # "engineers with the most open bugs (on their plate)" holds them; "with the most resolved bugs" is the resolver
    holding = q.matches(rf"\bwith (?:the )?{MOST}\b|\bon (?:their|his|her) plate\b") and state != "resolved"
    return {"asked": Literal(state)} if state and (assigned or holding) else None


def match_resolver_max(q: Question) -> dict[str, Term] | None:
    """ "Engineers who resolved / fixed the most (customer) bugs in P"."""
    if not is_bug_question(q) or not q.asks_for_people() or not q.matches(MOST):
        return None
    resolved = r"\b(?:resolv(?:ed|ing)|fix(?:ed|ing)|clos(?:ed|ing)|solv(?:ed|ing))\b"
    if q.matches(r"\breopen") or not (q.matches(rf"{resolved}.*{MOST}") or q.matches(rf"{MOST}.*{resolved}")):
        return None
    return {}


def match_reopened_fix_author_max(q: Question) -> dict[str, Term] | None:
    """ "Engineers who authored the most PRs for bug fixes that are now reopened"."""
    if not is_bug_question(q) or not q.asks_for_people() or not q.matches(MOST):
        return None
    authored_prs = q.matches(r"\b(?:prs?|pull requests?)\b") and q.matches(
        rf"\b(?:author|wrote|submit|creat|open)|\bwith (?:the )?{MOST}\b"
    )
    return {} if authored_prs and q.matches(r"\breopen") else None


def match_reopened_dismisser_max(q: Question) -> dict[str, Term] | None:
    """ "Engineers who dismissed the most bugs that are now reopened"."""
    if not is_bug_question(q) or not q.asks_for_people() or not q.matches(MOST):
        return None
    if q.matches(r"\breopen") and q.matches(r"\b(?:dismiss|rejected|closed without|marked .* not)"):
        return {}
    return None


def match_titles_by_state(q: Question) -> dict[str, Term] | None:
    """ "Find (all) unresolved issues reported by <Company> in P", "bugs reported by <Company> that did not
    require any fixes", "Which bugs in P were later found to not require any fixes?" — a content answer listing
    the bug titles, of one company or of the whole product."""
    if not is_bug_question(q) or len(q.companies) > 1 or q.eids or q.matches(MOST):
        return None
    if q.asks_for_companies() or q.asks_for_people() or q.matches(r"\b(?:prs?|pull requests?|links?)\b"):
        return None
    state = asked_state(q.norm)
    if state is None:
        return None
    # a named company is whose bugs they are, however it is linked: "reported by", "<C>'s", "<C> issues"
    return {"company": Literal(q.companies[0]), "asked": Literal(state)} if q.companies else {"asked": Literal(state)}


def match_companies_by_state(q: Question) -> dict[str, Term] | None:
    """ "Names of companies that reported bugs that were later determined to not require any fixes in P" — every
    company with a customer bug in the asked state (the superlative form is bug_company_max_state)."""
    if not is_bug_question(q) or not q.asks_for_companies() or q.matches(MOST) or q.companies or q.eids:
        return None
    state = asked_state(q.norm)
    return {"asked": Literal(state)} if state else None


def match_fix_prs_by_author_company(q: Question) -> dict[str, Term] | None:
    """ "PR links submitted by <eid> to resolve bugs reported by <Company> in P"."""
    if not is_bug_question(q) or len(q.eids) != 1 or len(q.companies) != 1:
        return None
    if not q.matches(r"\b(?:prs?|pull requests?|links?)\b"):
        return None
    return {"author": node("person", q.eids[0]), "company": Literal(q.companies[0])}


def component_phrase(q: Question) -> str | None:
    """The component as the question words it, between the bug noun / cue and the product name."""
    product = re.escape(q.product.casefold()) if q.product else None
    if product is None:
        return None
    for template in (*COMPONENT_SPAN, COMPONENT_BEFORE_IMPACT):
        pattern = template.format(bug=rf"{BUG}s?", product=product, affected=AFFECTED)
        if found := re.search(pattern, q.norm):
            phrase = re.sub(rf"\b{BUG}s?\b", " ", found.group("c"))
            key = component_key(phrase)
            if key and key not in ("these", "those", "all", "reported", "customer") and not NOT_A_COMPONENT.match(key):
                return key
    return None


def match_component_companies(q: Question) -> dict[str, Term] | None:
    """ "Names of companies affected by issues in the <component> of P that <impact>"."""
    if not is_bug_question(q) or not q.asks_for_companies() or q.matches(MOST):
        return None
    if not q.matches(rf"\baffected\b|\bimpacted\b|\b{AFFECTED}"):
        return None
    phrase = component_phrase(q)
    return {"phrase": Literal(phrase)} if phrase else None


def match_component_resolvers(q: Question) -> dict[str, Term] | None:
    """ "Employee IDs of engineers who resolved issues with the <component> in P that <impact>"."""
    if not is_bug_question(q) or not q.asks_for_people() or q.matches(MOST):
        return None
    if not q.matches(r"\b(?:resolved|fixed|solved|addressed)\b"):
        return None
    phrase = component_phrase(q)
    return {"phrase": Literal(phrase)} if phrase else None


for _intent in (
    Intent(
        "bug_company_max_state",
        "company",
        match_company_max_state,
        "bug_company_max_state",
        "bug_company_max_state.ask",
        priority=20,
    ),
    Intent(
        "bug_assignee_max_state",
        "person",
        match_assignee_max_state,
        "bug_assignee_max_state",
        "bug_assignee_max_state.ask",
        priority=20,
    ),
    Intent(
        "bug_reopened_fix_author_max",
        "person",
        match_reopened_fix_author_max,
        "bug_reopened_fix_author_max",
        "bug_reopened_fix_author_max.ask",
        priority=22,
    ),
    Intent(
        "bug_reopened_dismisser_max",
        "person",
        match_reopened_dismisser_max,
        "bug_reopened_dismisser_max",
        "bug_reopened_dismisser_max.ask",
        priority=22,
    ),
    Intent("bug_resolver_max", "person", match_resolver_max, "bug_resolver_max", "bug_resolver_max.ask", priority=19),
    Intent(
        "bug_fix_prs_by_author_company",
        "pr",
        match_fix_prs_by_author_company,
        "bug_fix_prs_by_author_company",
        "bug_fix_prs_by_author_company.ask",
        priority=21,
    ),
    Intent(
        "bug_titles_by_state",
        "content",
        match_titles_by_state,
        "bug_titles_by_state",
        "bug_titles_by_state.ask",
        priority=18,
    ),
    Intent(
        "bug_companies_by_state",
        "company",
        match_companies_by_state,
        "bug_companies_by_state",
        "bug_companies_by_state.ask",
        priority=16,
    ),
    Intent(
        "bug_component_companies",
        "company",
        match_component_companies,
        "bug_component_companies",
        "bug_component_companies.ask",
        priority=17,
    ),
    Intent(
        "bug_component_resolvers",
        "person",
        match_component_resolvers,
        "bug_component_resolvers",
        "bug_component_resolvers.ask",
        priority=17,
    ),
):
    register(_intent)
