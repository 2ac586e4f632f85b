"""The QA fallback for a question no intent covers: answer with sentences extracted from the top search
evidence, or abstain.

The answer never comes from a score: a sentence is used only when it clears a structural check — it comes
from an artifact of the question's product that both retrieval (its text or its conversation matched) and
the graph walk (PPR from the question's hits and anchors) reached, and it contains at least
`MIN_SHARED_TERMS` of the question's own content terms. A question asking for items (employee ids, names,
links) is never answered with prose. Nothing clears the check -> the caller abstains.

Wiring: `kg ask --fallback` passes `search_fallback(searcher)` to `Answerer(backend, fallback=...)`, which calls
it only for questions no intent covers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from kg.qa.answer import Answer
from kg.qa.question import Question
from kg.search.lexical import tokens
from kg.search.searcher import Hit, Searcher
from kg.text import normalise

TOP_EVIDENCE = 10
MAX_SENTENCES = 3
MIN_SHARED_TERMS = 2
#: Question words that say what is asked, not what it is about.
ASKING_WORDS = frozenset(
    {
        "find",
        "list",
        "give",
        "show",
        "tell",
        "provide",
        "name",
        "names",
        "employee",
        "ids",
        "id",
        "team",
        "members",
        "product",
        "products",
        "discussed",
        "mentioned",
    }
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
#: Wordings that ask for a list of items (a structured answer), which extracted sentences cannot be.
ASKS_FOR_ITEMS = re.compile(
    r"\b(employee ids?|ids? of|names? of|links?|urls?|"
    r"which (bugs?|prs?|pull requests?|compan(y|ies)|customers?|engineers?))\b"
)


@dataclass(frozen=True)
class FallbackAnswer:
    answer: str
    citations: list[str]
    reason: str


@dataclass(frozen=True)
class Sentence:
    text: str
    artifact: str
    shared: int
    rank: int


def content_terms(q: Question, product_names: list[str]) -> set[str]:
    """The question's terms that say what it is about: no stopwords, product names or asking words."""
    names = {t for n in product_names for t in normalise(n).split()}
    return {t for t in tokens(q.text) if t not in names and t not in ASKING_WORDS}


def reached_by_text_and_graph(hit: Hit) -> bool:
    """The structural check on a hit: a retriever matched its text or conversation, and PPR reached it."""
    return "ppr" in hit.signals and any(s != "ppr" for s in hit.signals)


def sentences_of(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if len(s.strip()) > 20]


def evidence_sentences(searcher: Searcher, hits: list[Hit], terms: set[str]) -> list[Sentence]:
    """Sentences of structurally admitted hits that share enough of the question's terms, best first."""
    need = min(len(terms), MIN_SHARED_TERMS)
    found: dict[str, Sentence] = {}
    for hit in hits:
        if not reached_by_text_and_graph(hit):
            continue
        index = searcher.product_index(hit.product)
        for text in sentences_of(index.texts[index.row[hit.id]]):
            shared = len(terms & set(tokens(text)))
            key = normalise(text)
            if need and shared >= need and key not in found:
                found[key] = Sentence(text, hit.id, shared, hit.rank)
    return sorted(found.values(), key=lambda s: (-s.shared, s.rank))


def fallback_answer(searcher: Searcher, q: Question) -> FallbackAnswer | None:
    """A content answer from the top evidence of the question's product, or None to abstain."""
    if q.product is None or ASKS_FOR_ITEMS.search(q.norm):
        return None
    result = searcher.search(q.text, product=q.product, k=TOP_EVIDENCE)
    aliases = searcher.manifest["products"][q.product].get("names", [])
    picked = evidence_sentences(searcher, result.hits, content_terms(q, [q.product, *aliases]))[:MAX_SENTENCES]
    if not picked:
        return None
    return FallbackAnswer(
        "\n".join(s.text for s in picked),
        list(dict.fromkeys(s.artifact for s in picked)),
        "no intent covers this wording: sentences extracted from the top search evidence",
    )


def search_fallback(searcher: Searcher) -> Callable[[Question], Answer | None]:
    """The Answerer's fallback: a content answer from evidence sentences, or None (the Answerer abstains)."""

    def answer(q: Question) -> Answer | None:
        found = fallback_answer(searcher, q)
        if found is None:
            return None
        return Answer(
            question=q.text,
            type="content",
            abstain=False,
            answer=found.answer,
            citations=found.citations,
            intent="search_fallback",
            slots=q.slots(),
            reason=found.reason,
        )

    return answer
