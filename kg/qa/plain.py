"""How a question was read, in plain words: what kind of answer, which kind of question (the intent) and the
slots it filled (`I read this as: …`), for the CLI and the answer page instead of the slots' JSON."""

from __future__ import annotations

import re
from typing import Any

from kg.qa.answer import Answer

#: slot -> the word a reader knows it by, in the order they are shown. Slots not listed (IRIs the binders made
#: from these, such as `kind` or `role`) say nothing new and are left out.
SLOT_WORDS = {
    "product": "product",
    "doc_kind": "document",
    "roles": "role",
    "companies": "company",
    "eids": "person",
    "customer_ids": "customer",
    "repos": "repository",
    "asked": "state",
    "reason": "reason",
    "phrase": "about",
    "time": "time",
    "reading": "read as",
    "form": "answered with",
}
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_PR = re.compile(r"\bpr\b")


#: answer type -> what such an answer is
ANSWER_WORDS = {
    "person": "people",
    "company": "companies",
    "pr": "pull requests",
    "url": "links",
    "content": "a written answer",
    "count": "a number",
    "yes_no": "yes or no",
    "compare": "which of two, with both counts",
    "and": "two answers, one to each thing asked",
}


def slot_text(key: str, value: Any) -> str:
    """A slot's value in words: lists joined, a document kind's class name (`MarketResearchReport`) split, a
    reason's individual by its name (`…#SecurityRisk`: `Security Risk`)."""
    if isinstance(value, list | tuple):
        return ", ".join(slot_text(key, v) for v in value)
    if key == "reason":
        value = str(value).rsplit("#", 1)[-1]
    return _CAMEL.sub(" ", str(value)) if key in ("doc_kind", "reason") else str(value)


def slot_words(answer: Answer) -> list[tuple[str, str]]:
    """(word, value) for each slot a reader would recognise, in SLOT_WORDS order."""
    return [(word, slot_text(k, answer.slots[k])) for k, word in SLOT_WORDS.items() if answer.slots.get(k)]


def intent_words(name: str) -> str:
    """An intent's name as words: `asof_bug_titles_by_state` -> `bug titles by state, at a time`."""
    base = _PR.sub("PR", name.removeprefix("asof_").replace("_", " ").replace("doc ", "document "))
    return base + (", at a time" if name.startswith("asof_") else "")


def reading(answer: Answer) -> str:
    """`people (document authors reviewers): product ActionGenie, document Market Research Report`, or what
    was understood of a question no intent covers."""
    slots = ", ".join(f"{word} {value}" for word, value in slot_words(answer))
    spelled = "; ".join(f"'{typed}' read as '{read}'" for typed, read in answer.respelled.items())
    if answer.intent is None:
        found = "; ".join(part for part in (f"I found {slots}" if slots else "", spelled) if part)
        return "no kind of question I know" + (f" ({found})" if found else "")
    what = f"{ANSWER_WORDS.get(answer.type, answer.type)} ({intent_words(answer.intent)})"
    then = f" → {answer.operator['shown']}" if answer.operator else ""
    then += f" → {answer.cross['shown']}" if answer.cross else ""
    return what + (f": {slots}" if slots else "") + (f" ({spelled})" if spelled else "") + then
