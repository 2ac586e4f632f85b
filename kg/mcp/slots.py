"""The slots of `run_intent`: what each of an intent's binders needs from a caller, and how a value is checked.

`kg ask` fills an intent's SPARQL parameters from the words of a question (kg/qa/intents/binders.py). An agent
that has read `intents()` names them instead: one slot per binder, with the values the graph (or the binder's
own table) allows. A value outside them is an error naming the allowed ones, never an abstention; only a valid
call reaches the intent's ASK proof, and only the proof may abstain.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pyoxigraph import Literal

from kg.errors import KGError
from kg.namespaces import node, term
from kg.qa.intents import Intent
from kg.qa.intents.binders import BUG_STATES, PR_STATES, REASONS
from kg.qa.question import Vocabulary
from kg.qa.residue import Labels, resolve
from kg.query.sparql import Term
from kg.text import DOC_KINDS, normalise
from kg.vocab import CUSTOMER_ISSUE, CUSTOMER_PRAISE, QA_ISSUE, STRENGTH, WEAKNESS, XSD_BOOLEAN

EID = re.compile(r"eid_[0-9a-f]{8}")
#: Allowed values shown in an error, at most.
SHOWN_VALUES = 40


@dataclass(frozen=True)
class Slot:
    """One named input of `run_intent`: what it means, whether it is needed, what it may be, what it binds."""

    name: str
    says: str
    required: bool
    #: The bindings of a value; None for a free phrase, resolved against the product's labels as `kg ask` does.
    bind: Callable[[str], dict[str, Term]] | None
    #: The allowed values, from the graph's vocabulary or a fixed table; None: free text (checked by `bind`).
    values: Callable[[Vocabulary], list[str]] | None = None

    def to_json(self, vocabulary: Vocabulary) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "required": self.required, "says": self.says}
        if self.values is not None:
            out["values"] = self.values(vocabulary)
        return out


def fixed(values: list[str]) -> Callable[[Vocabulary], list[str]]:
    return lambda _vocabulary: values


def roles(vocabulary: Vocabulary) -> list[str]:
    return sorted(vocabulary.roles.values())


def companies(vocabulary: Vocabulary) -> list[str]:
    return sorted(vocabulary.companies.values())


def author(eid: str) -> dict[str, Term]:
    if not EID.fullmatch(eid):
        raise KGError(f"slot eid: expected an employee id like eid_1a2b3c4d, got {eid!r}")
    return {"author": node("person", eid)}


def bug_title(text: str) -> dict[str, Term]:
    return {"text": Literal(f" {normalise(text)} ")}


STATES_OF_BUGS = [state for _, state in BUG_STATES]
STATES_OF_PRS = [state for _, state in PR_STATES]
FEEDBACK = {"praise": CUSTOMER_PRAISE, "customer issue": CUSTOMER_ISSUE, "qa issue": QA_ISSUE}
ASPECTS = {"strength": STRENGTH, "weakness": WEAKNESS}

#: Binder name (kg/qa/intents/binders.py) -> the slot a caller fills in its place.
BINDER_SLOTS: dict[str, Slot] = {
    "kind": Slot("doc_kind", "the document kind", True, lambda v: {"kind": term(f"ekg:{v}")}, fixed(sorted(DOC_KINDS))),
    "role": Slot("role", "the reviewers' role", True, lambda v: {"role": node("role", v)}, roles),
    "role_name": Slot(
        "role", "only contributors with this role (omit: everyone)", False, lambda v: {"role": Literal(v)}, roles
    ),
    "bug_state": Slot(
        "state", "the bug state asked about", True, lambda v: {"asked": Literal(v)}, fixed(STATES_OF_BUGS)
    ),
    "any_state": Slot(
        "every_state",
        "'true': the company's bugs in every state (the only value; omit: true)",
        False,
        lambda _v: {"asked": Literal("any")},
        fixed(["true"]),
    ),
    "company_if_named": Slot(
        "company", "only this customer company's bugs (omit: all)", False, lambda v: {"company": Literal(v)}, companies
    ),
    "company": Slot("company", "the customer company", True, lambda v: {"company": Literal(v)}, companies),
    "author": Slot("eid", "the PR author's employee id (eid_xxxxxxxx)", True, author),
    "reason": Slot(
        "reason", "the reason given", True, lambda v: {"reason": term(f"ekg:{v}")}, fixed([r for _, r in REASONS])
    ),
    "approved": Slot(
        "approved",
        "'true': approved reviews, 'false': not approved (omit: true)",
        False,
        lambda v: {"approved": Literal(v, datatype=XSD_BOOLEAN)},
        fixed(["true", "false"]),
    ),
    "pr_state": Slot("state", "the PR state asked about", True, lambda v: {"asked": Literal(v)}, fixed(STATES_OF_PRS)),
    "aspect": Slot(
        "aspect", "strengths or weaknesses (omit: both)", False, lambda v: {"aspect": ASPECTS[v]}, fixed(list(ASPECTS))
    ),
    "feedback_kind": Slot("feedback", "which feedback", True, lambda v: {"kind": FEEDBACK[v]}, fixed(list(FEEDBACK))),
    "customer_feedback_kind": Slot(
        "feedback",
        "which customer feedback",
        True,
        lambda v: {"kind": FEEDBACK[v]},
        fixed(["praise", "customer issue"]),
    ),
    "bug_text": Slot("bug_title", "the bug's title (the words of it the graph holds)", True, bug_title),
}
#: Defaults of optional slots whose binder binds something even when the question says nothing.
DEFAULTS = {"approved": "true", "every_state": "true"}


def residue_slot(kind: str) -> Slot:
    """The free phrase of a row, named by the caller: a feature's or a component's words, resolved per product."""
    return Slot(kind, f"the {kind}'s name or words, resolved against the product's {kind} labels", True, None)


def intent_slots(intent: Intent) -> list[Slot]:
    """The slots of an intent, in the order its binders run, then its free phrase."""
    found = [BINDER_SLOTS[b] for b in intent.binders]
    return found + ([residue_slot(intent.residue)] if intent.residue else [])


def bindings_of(intent: Intent, given: dict[str, str], vocabulary: Vocabulary, labels: Labels) -> dict[str, Term]:
    """The intent's SPARQL bindings from the caller's slots (product excluded), each value checked; KGError names
    a missing, unknown or disallowed slot with what is allowed."""
    slots = intent_slots(intent)
    names = {s.name for s in slots}
    if unknown := sorted(set(given) - names):
        allowed = ", ".join(["product", *sorted(names)])
        raise KGError(f"intent {intent.name} has no slot {', '.join(unknown)}; its slots: {allowed}")
    bindings: dict[str, Term] = {}
    for slot in slots:
        value = given.get(slot.name, DEFAULTS.get(slot.name))
        if value is None:
            if slot.required:
                raise KGError(f"intent {intent.name} needs the slot {slot.name} ({slot.says})")
            continue
        if not isinstance(value, str) or not value.strip():
            raise KGError(f"slot {slot.name}: expected a non-empty string")
        if slot.values is not None and value not in (known := slot.values(vocabulary)):
            shown = ", ".join(known[:SHOWN_VALUES]) + (", …" if len(known) > SHOWN_VALUES else "")
            raise KGError(f"slot {slot.name}: {value!r} is not one the graph knows; one of: {shown}")
        bindings |= resolved(intent, value, labels) if slot.bind is None else slot.bind(value)
    return bindings


def resolved(intent: Intent, phrase: str, labels: Labels) -> dict[str, Term]:
    """The free phrase's bindings, as `kg ask` resolves it; a phrase naming no label is an error with the best."""
    assert intent.residue is not None
    found = resolve(intent.residue, phrase, labels)
    if not found.resolved:
        best = ", ".join(f"{label} ({score:.2f})" for label, score in found.candidates[:5]) or "none"
        raise KGError(f"slot {intent.residue}: {phrase!r} names no {intent.residue} of the product; closest: {best}")
    return found.bindings
