"""Intents over product documents and their reviews: authors and key reviewers, reviewers holding a role, the
changes a role suggested, and who attended the review meeting (rules in kg/ingest/rules/documents.py).

Every intent needs a document kind in the question (q.doc_kind); the role-scoped ones need exactly one role.
"""

from __future__ import annotations

from kg.namespaces import node, term
from kg.qa.intents import Intent, register
from kg.qa.question import PERSON, Question
from kg.query.sparql import Term

AUTHOR = r"\b(author\w*|wrote|writer|written|creat\w*|draft\w*)\b"
REVIEW = r"\b(review\w*|feedback|comment\w*|weigh\w* in|provided input)"
SUGGEST = r"\b(suggest\w*|change|improv\w*|recommend\w*|propos\w*|feedback|input|advice|advis\w*)"
CHANGE = r"\b(suggest|change|improv)"
ATTEND = r"\b(attend\w*|participa\w*|present at|were at|joined)\b"
MEETING = r"\b(meeting|call|session|transcript)\b"


def kind_binding(q: Question) -> dict[str, Term] | None:
    return {"kind": term(f"ekg:{q.doc_kind}")} if q.doc_kind else None


def match_authors_reviewers(q: Question) -> dict[str, Term] | None:
    """ "Find employee IDs of the authors and key reviewers of the <kind> for <P>?" """
    if q.roles or not (q.matches(AUTHOR) and q.matches(REVIEW)):
        return None
    return kind_binding(q)


def match_reviewers_by_role(q: Question) -> dict[str, Term] | None:
    """ "Find employee IDs of <Role plural> who reviewed the <kind> for <P>?" """
    if len(q.roles) != 1 or not q.matches(REVIEW) or q.matches(AUTHOR) or q.matches(CHANGE):
        return None
    binding = kind_binding(q)
    return None if binding is None else {**binding, "role": node("role", q.roles[0])}


def match_reviewers(q: Question) -> dict[str, Term] | None:
    """ "Who reviewed the <kind> for <P>?" (no role, no authors): every reviewer who is not an author."""
    if q.roles or not q.matches(r"\breview(ed|er)") or q.matches(AUTHOR) or q.matches(SUGGEST):
        return None
    return kind_binding(q) if q.matches(PERSON) else None


def match_suggestions_by_role(q: Question) -> dict[str, Term] | None:
    """ "What are the changes suggested by <Role> to improve the <kind> for <P>?" """
    if len(q.roles) != 1 or not q.matches(SUGGEST) or q.matches(ATTEND):
        return None
    binding = kind_binding(q)
    return None if binding is None else {**binding, "role": node("role", q.roles[0])}


def match_meeting_attendees(q: Question) -> dict[str, Term] | None:
    """ "Who attended the meeting about the <kind> for <P>?" """
    if q.roles or not (q.matches(ATTEND) or (q.matches(MEETING) and q.matches(PERSON))):
        return None
    return kind_binding(q)


for _name, _type, _match, _query, _priority in (
    ("doc_authors_reviewers", "person", match_authors_reviewers, "doc_authors_reviewers", 20),
    ("doc_reviewers_by_role", "person", match_reviewers_by_role, "doc_reviewers_by_role", 20),
    ("doc_reviewers", "person", match_reviewers, "doc_reviewers_by_role", 15),
    ("doc_suggestions_by_role", "content", match_suggestions_by_role, "doc_suggestions_by_role", 20),
    ("doc_meeting_attendees", "person", match_meeting_attendees, "doc_meeting_attendees", 15),
):
    register(Intent(_name, _type, _match, _query, f"{_query}.ask", priority=_priority))
