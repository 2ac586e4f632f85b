"""Named binders: how a row of the intent table turns slots and cues into SPARQL bindings.

A binder takes the parsed question and the set of cues found, and returns the bindings (pyoxigraph terms) or
None when the question gives it nothing to bind (the row then does not accept the question). Its `reads` names the
cues a binder reads, so they are not part of the row's free phrase either; its `slots` the slot kinds it reads,
so the slot's words are placed (kg/qa/reading.py). Which cue wins when a question
carries several of one family is the order of the tables below (the first listed), stated once here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pyoxigraph import Literal

from kg.namespaces import node, term
from kg.qa.question import Question
from kg.query.sparql import Term
from kg.registry import Registry
from kg.vocab import CUSTOMER_ISSUE, CUSTOMER_PRAISE, QA_ISSUE, STRENGTH, WEAKNESS, XSD_BOOLEAN

#: A quote mark that opens or closes a quoted run of words, not an apostrophe inside a word.
UNQUOTED = re.compile(r"(?<![a-z0-9])'|'(?![a-z0-9])")

Binder = Callable[[Question, set[str]], dict[str, Term] | None]
#: Binders by the name a row's `bind` gives; each entry's `reads` names the cues it reads.
BINDERS: Registry[Binder] = Registry("binder")
#: Bug-state cue -> the state word the bug queries' VALUES tables define; the first found wins.
BUG_STATES = (
    ("unresolved", "unresolved"),
    ("active", "active"),
    ("reopened", "reopened"),
    ("no_fix", "no fix"),
    ("resolved", "resolved"),
)
#: Family members that mean the same in every query: "active" names exactly the states "unresolved" does
#: (tests/test_intent_table.py reads each .rq's VALUES to hold this), so "active bugs still open" asks one state.
SAME_MEANING = {"active": "unresolved"}
#: PR-state cue -> the state word of pr_topic_state.rq (read off the PR's fields, or its events at a time).
PR_STATES = (("pr_open", "open"), ("pr_merged", "merged"), ("pr_closed", "closed"), ("reverted", "reverted"))
#: Reason cue -> the ekg status reason; the first found wins ("security" before "bugs" it may mention).
REASONS = (("security", "SecurityRisk"), ("direction", "ProductDirectionChange"), ("introduced_bugs", "IntroducedBugs"))


def first(found: set[str], table: tuple[tuple[str, str], ...]) -> str | None:
    return next((value for cue, value in table if cue in found), None)


@BINDERS.register(slots=("doc_kind",))
def kind(q: Question, _found: set[str]) -> dict[str, Term] | None:
    return {"kind": term(f"ekg:{q.doc_kind}")} if q.doc_kind else None


@BINDERS.register(slots=("role",))
def role(q: Question, _found: set[str]) -> dict[str, Term] | None:
    """The one role the question names, as the role node (document reviews)."""
    return {"role": node("role", q.roles[0])} if len(q.roles) == 1 else None


@BINDERS.register(slots=("role",))
def role_name(q: Question, _found: set[str]) -> dict[str, Term] | None:
    """The role as its label when one is named (release contributors); none binds nothing (everyone)."""
    return {"role": Literal(q.roles[0])} if q.roles else {}


@BINDERS.register(reads=tuple(c for c, _ in BUG_STATES), family=True)
def bug_state(_q: Question, found: set[str]) -> dict[str, Term] | None:
    state = first(found, BUG_STATES)
    return {"asked": Literal(state)} if state else None


@BINDERS.register()
def any_state(_q: Question, _found: set[str]) -> dict[str, Term] | None:
    """Bugs in every state: a company's bugs asked for with no state said."""
    return {"asked": Literal("any")}


@BINDERS.register(slots=("company",))
def company_if_named(q: Question, _found: set[str]) -> dict[str, Term] | None:
    """Whose bugs they are, when the question names one company; two are refused."""
    if len(q.companies) > 1:
        return None
    return {"company": Literal(q.companies[0])} if q.companies else {}


@BINDERS.register(slots=("company",))
def company(q: Question, _found: set[str]) -> dict[str, Term] | None:
    return {"company": Literal(q.companies[0])} if len(q.companies) == 1 else None


@BINDERS.register(slots=("eid",))
def author(q: Question, _found: set[str]) -> dict[str, Term] | None:
    return {"author": node("person", q.eids[0])} if len(q.eids) == 1 else None


@BINDERS.register(reads=tuple(c for c, _ in REASONS), family=True)
def reason(_q: Question, found: set[str]) -> dict[str, Term] | None:
    found_reason = first(found, REASONS)
    return {"reason": term(f"ekg:{found_reason}")} if found_reason else None


@BINDERS.register(reads=tuple(c for c, _ in PR_STATES), family=True)
def pr_state(_q: Question, found: set[str]) -> dict[str, Term] | None:
    """The PR state the question asks about: still open, merged, closed or reverted (with no reason given)."""
    state = first(found, PR_STATES)
    return {"asked": Literal(state)} if state else None


@BINDERS.register(reads=("unapproved",))
def approved(_q: Question, found: set[str]) -> dict[str, Term] | None:
    return {"approved": Literal("false" if "unapproved" in found else "true", datatype=XSD_BOOLEAN)}


@BINDERS.register(reads=("weak", "strong"))
def aspect(_q: Question, found: set[str]) -> dict[str, Term] | None:
    """Strengths / features -> ekg:strength, weaknesses -> ekg:weakness; both or neither -> unbound (both)."""
    weak, strong = "weak" in found, "strong" in found
    if weak != strong:
        return {"aspect": WEAKNESS if weak else STRENGTH}
    return {}


@BINDERS.register(reads=("praise", "qa", "issue", "found", "customer"))
def feedback_kind(_q: Question, found: set[str]) -> dict[str, Term] | None:
    """Customer praise, QA findings or customer-reported issues; None when the wording names none of them, or
    both praise and issues ("companies that praised it but also reported issues": both, which no kind holds)."""
    if "praise" in found and "issue" in found:
        return None
    if "praise" in found:
        return {"kind": CUSTOMER_PRAISE}
    if "qa" in found and ("issue" in found or "found" in found):
        return {"kind": QA_ISSUE}
    if "issue" in found and ("customer" in found or "company" in found):
        return {"kind": CUSTOMER_ISSUE}
    return None


@BINDERS.register(reads=("praise", "qa", "issue", "found", "customer"))
def customer_feedback_kind(q: Question, found: set[str]) -> dict[str, Term] | None:
    """What companies said of the release: praise or issues, never QA's own findings."""
    made = feedback_kind(q, found)
    return None if made is None or made["kind"] == QA_ISSUE else made


@BINDERS.register(text=True)
def bug_text(q: Question, _found: set[str]) -> dict[str, Term] | None:
    """The question's text, in which the query finds the bug titles it names: quote marks around a title are
    spaces there ("the status of 'X'"), an apostrophe inside a word stays ("what's")."""
    return {"text": Literal(f" {UNQUOTED.sub(' ', q.norm)} ")} if q.product else None


def families() -> dict[str, tuple[str, ...]]:
    """The binders that pick one cue of a family (registered with family=True), and the family: a question
    holding two members is read each way (kg/qa/intents/chooser.py)."""
    return {name: meta["reads"] for name, meta in BINDERS.meta.items() if meta.get("family")}
