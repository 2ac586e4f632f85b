"""Core intents over mapped fields alone (no text-derived rules needed)."""

from __future__ import annotations

from kg.namespaces import term
from kg.qa.intents import Intent, register
from kg.qa.question import Question
from kg.query.sparql import Term


def match_document_author(q: Question) -> dict[str, Term] | None:
    """ "Who wrote / authored / created the <document kind> of <product>?" — without any reviewer wording."""
    if q.doc_kind is None or q.has_any("review", "suggest", "feedback", "comment"):
        return None
    if q.matches(r"\b(who|employee id|eid|author|writer)\b") and q.matches(r"\b(author|wrote|written|writ|creat)"):
        return {"kind": term(f"ekg:{q.doc_kind}")}
    return None


register(
    Intent("document_author", "person", match_document_author, "document_author", "document_author.ask", priority=1)
)
