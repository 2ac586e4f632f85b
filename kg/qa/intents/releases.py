"""Intents over the product's previous release: who worked on it (by role), what QA and customers reported or
praised, which companies did, and the demos of the previous version (rules in kg/ingest/rules/releases.py)."""

from __future__ import annotations

from pyoxigraph import Literal

from kg.namespaces import term
from kg.qa.intents import Intent, register
from kg.qa.intents.competitors import DEMO
from kg.qa.question import LINK, PERSON, Question
from kg.query.sparql import Term

#: "previous release", "last version", "the prior <Product> release" (one word may sit between).
PREVIOUS = r"\b(previous|last|prior|earlier|past|former|old|older)\b ([\w-]+ )?(product )?(release|version)"
WORKED = r"\b(work\w*|contribut\w*|involv\w*|participat\w*|develop\w*|built|part of)\b"
PRAISE = r"\b(strength|positive|prais\w*|appreciat\w*|like|liked|love\w*|enjoy\w*|compliment\w*|good feedback)"
ISSUE = r"\b(issue|problem|complain\w*|bug|defect|concern|pain point|weakness)"
QA = r"\b(qa|quality assurance|test\w*|tester)\b"
CUSTOMER = r"\b(customer|client|user)"


def feedback_kind(q: Question) -> Term | None:
    """Customer praise, QA findings or customer-reported issues; None when the wording names none of them."""
    if q.matches(PRAISE):
        return term("ekg:CustomerPraise")
    if q.matches(QA) and (q.matches(ISSUE) or q.matches(r"\b(find|found|uncover\w*|detect\w*|catch|caught)\b")):
        return term("ekg:QAIssue")
    if q.matches(ISSUE) and (q.matches(CUSTOMER) or q.asks_for_companies()):
        return term("ekg:CustomerIssue")
    return None


def match_release_contributors(q: Question) -> dict[str, Term] | None:
    """ "Find employee IDs of <role>s who worked on the previous release of <P>?" (no role: everyone)."""
    asks_people = q.roles or q.matches(PERSON)
    if not q.matches(PREVIOUS) or q.matches(DEMO) or not asks_people:
        return None
    if not q.matches(WORKED) and not (q.roles and feedback_kind(q) is None):
        return None
    return {"role": Literal(q.roles[0])} if q.roles else {}


def match_release_feedback(q: Question) -> dict[str, Term] | None:
    """ "What issues were reported by customers / during QA testing / what strengths were highlighted by
    customers for the previous release of <P>?" """
    if not q.matches(PREVIOUS) or q.asks_for_companies() or q.matches(PERSON) or q.matches(DEMO):
        return None
    kind = feedback_kind(q)
    return {"kind": kind} if kind is not None else None


def match_release_feedback_companies(q: Question) -> dict[str, Term] | None:
    """ "Find names of companies that reported issues with / highlighted strengths of the previous release of
    <P>?" """
    if not q.matches(PREVIOUS) or not q.asks_for_companies():
        return None
    kind = feedback_kind(q)
    return {"kind": kind} if kind is not None and kind != term("ekg:QAIssue") else None


def match_release_demo_sharers(q: Question) -> dict[str, Term] | None:
    """ "Find employee IDs of team members who shared demos of the previous version of <P>?" """
    if q.matches(PREVIOUS) and q.matches(DEMO) and q.matches(PERSON) and not q.matches(LINK):
        return {}
    return None


def match_release_demo_urls(q: Question) -> dict[str, Term] | None:
    """ "Find the demo URLs shared by team members for the previous version of <P>?" """
    if q.matches(PREVIOUS) and q.matches(DEMO) and q.matches(LINK):
        return {}
    return None


for _name, _type, _match, _query in (
    ("release_contributors_by_role", "person", match_release_contributors, "release_contributors_by_role"),
    ("release_feedback", "content", match_release_feedback, "release_feedback"),
    ("release_feedback_companies", "company", match_release_feedback_companies, "release_feedback_companies"),
    ("release_demo_sharers", "person", match_release_demo_sharers, "release_demo_sharers"),
    ("release_demo_urls", "url", match_release_demo_urls, "release_demo_urls"),
):
    register(Intent(_name, _type, _match, _query, f"{_query}.ask", priority=20))
