"""Text normalisation shared by the rules, QA and search: one place for how words are compared.

Three comparisons live here, each kept as its own function because each side of a match must use the same one:
- `normalise` / `singular_text`: question-shaped text (casefolded, quotes and dashes unified, punctuation dropped,
  words singularised), used to find graph names and patterns in questions and in node labels;
- `feature_tokens`: a feature phrase as stemmed content words, written by the feature rules as ekg:keyword and
  computed again from the question's phrase, so the query only compares word sets;
- `component_key` / `content_words`: component names and bug titles as plain lower-case word keys.

The stop-word lists differ because they answer different questions (which words do not name a feature; which
words carry no identity when comparing a bug message with a report), so each is named for its purpose.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache

#: A PR of a repository outside the company's (the open-source PRs the team links as similar to its bugs): the
#: bug rules never take one for a fix, and a title it shares with a bug scopes no question to its product.
EXTERNAL_PR = re.compile(r"github\.com/(?!salesforce/)[\w.-]+/[\w.-]+/pull/\d+", re.I)

#: Inflections stripped to find a typed word's English headword.
INFLECTIONS = ("s", "es", "ies", "ed", "ied", "d", "ing", "er", "ers", "ly")
#: A word of casefolded text: letters and digits only.
WORD = re.compile(r"[a-z0-9]+")

#: Phrases naming each document kind, as questions and search text say them (longest first within a kind).
DOC_KINDS: dict[str, tuple[str, ...]] = {
    "MarketResearchReport": ("market research report", "market research", "mrr"),
    "ProductVisionDocument": ("product vision document", "product vision", "vision document", "pvd"),
    "ProductRequirementsDocument": (
        "product requirements document",
        "product requirement document",
        "product requirements",
        "requirements document",
        "prd",
    ),
    "TechnicalSpecificationsDocument": (
        "technical specifications document",
        "technical specification document",
        "technical specifications",
        "technical specification",
        "tech spec",
        "technical spec",
        "tsd",
    ),
    "SystemDesignDocument": ("system design document", "system design", "design document", "sdd"),
}

#: Words that never name a feature: function words, pronouns, and the nouns that only say "a feature / task".
FEATURE_STOPWORDS = frozenset(
    {
        "a",
        "an",
        "the",
        "of",
        "for",
        "to",
        "in",
        "on",
        "and",
        "or",
        "with",
        "by",
        "from",
        "into",
        "at",
        "as",
        "is",
        "are",
        "be",
        "this",
        "that",
        "it",
        "its",
        "our",
        "we",
        "you",
        "your",
        "i",
        "via",
        "new",
        "task",
        "tasks",
        "feature",
        "features",
        "pr",
        "prs",
        "up",
    }
)
#: Words that carry no identity when comparing a bug lifecycle message with a bug's report.
_BUG_STOP = (
    "a an the of in on for to and or with is are was be been by from this that it its our we has have "
    "had issue issues bug bugs problem customer customers about incorrect"
)
BUG_STOPWORDS = frozenset(_BUG_STOP.split())
#: Words a component name may say or leave out ("API Security & Access Control" = "api security access control").
COMPONENT_FILLERS = frozenset({"and", "the", "of"})
#: Suffixes `stem` strips, longest first.
SUFFIXES = ("ments", "ions", "ment", "ion", "ing", "es", "ed", "s")
#: Phrases that teams and questions also say as their abbreviation: one word on both sides, so "natural language
#: processing capabilities" and "NLP capabilities" name the same feature.
ABBREVIATIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rf"\b{long}\b"), short)
    for long, short in (
        (r"natural[ -]language[ -]process\w*", "nlp"),
        (r"user[ -]interfaces?", "ui"),
        (r"user[ -]experience", "ux"),
        (r"artificial[ -]intelligence", "ai"),
        (r"machine[ -]learning", "ml"),
    )
)


#: "# of", "no. of": the number of, as people write it.
COUNT_SIGN = re.compile(r"(?:(?<![\w#])#|(?<!\w)no\.)\s*of(?!\w)")


DASHES = re.compile(r"[–—]")
NOT_WORD = re.compile(r"[^\w@'/&\-]+")
SPACES = re.compile(r"\s+")


@lru_cache(maxsize=65536)
def normalise(text: str) -> str:
    """Casefold, unify quotes and dashes, keep word characters, collapse whitespace (kept per text: every layer
    of a question's reading, and every name of the vocabulary, is normalised again and again)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = DASHES.sub("-", text)
    text = COUNT_SIGN.sub(" number of", text)  # "# of PRs", "no. of bugs": a count, never a negation
    text = NOT_WORD.sub(" ", text)
    return SPACES.sub(" ", text).strip()


@lru_cache(maxsize=65536)
def singular(word: str) -> str:
    """The singular of an English plural by its ending (companies -> company, classes -> class, bugs -> bug)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


@lru_cache(maxsize=65536)
def singular_text(norm: str) -> str:
    """Every word in singular form, so patterns need not list plural variants."""
    return " ".join(singular(w) for w in norm.split())


def singular_phrase(phrase: str) -> str:
    """A raw phrase normalised and singularised, as questions are matched against singularised text."""
    return singular_text(normalise(phrase))


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Crude suffix stripping so 'integrating' / 'integration' / 'integrate' meet at 'integrat'."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def feature_tokens(text: str) -> list[str]:
    """Normalised content words of a phrase: casefolded, known phrases abbreviated, stop words dropped,
    suffixes stripped."""
    text = text.casefold()
    for long, short in ABBREVIATIONS:
        text = long.sub(short, text)
    return [stem(w) for w in WORD.findall(text) if w not in FEATURE_STOPWORDS]


def component_key(text: str) -> str:
    """A component's comparison key: lower-case words, `&`/`and`/`the`/`of` dropped ("API Security & Access
    Control" and "api security and access control" share one key)."""
    return " ".join(w for w in WORD.findall(text.casefold()) if w not in COMPONENT_FILLERS)


def content_words(text: str) -> set[str]:
    """The words of a bug message or report that can tell one bug from another."""
    return {w for w in WORD.findall(text.casefold()) if w not in BUG_STOPWORDS}


def valid_unicode(text: str) -> bool:
    """False for a string holding a lone surrogate (from a JSON escape such as \\ud800), which no UTF-8 writer takes."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def plural(count: int, noun: str) -> str:
    """`1 artifact`, `17 artifacts`: a count with its noun in the right number (nouns that take -s)."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


#: How alike (difflib's ratio, 0..1) a typed name and a known one must be to offer the known one.
CLOSE = 0.6


def closest(name: str, names: Iterable[str], n: int = 3, cutoff: float = CLOSE) -> list[str]:
    """The known names most like `name`, ignoring case, best first: every "did you mean" (a product, a bug title,
    a feature) is this one comparison."""
    by_key = {known.casefold(): known for known in names}
    return [by_key[k] for k in difflib.get_close_matches(name.casefold(), list(by_key), n=n, cutoff=cutoff)]


@cache
def english() -> frozenset[str]:
    """English headwords (GCIDE, as the english-words package ships them): loaded on the first word checked."""
    from english_words import get_english_words_set

    return frozenset(get_english_words_set(["gcide"], alpha=True, lower=True))


def bases(word: str) -> set[str]:
    """The word and what it may inflect ("changing" -> "chang", "change"; "passed" -> "pass"; "stories" ->
    "story")."""
    out = {word}
    for ending in INFLECTIONS:
        stem = word[: -len(ending)]
        if word.endswith(ending) and len(stem) >= 3:
            out |= {stem, stem + "e", stem + "y", stem[:-1] + "y" if stem.endswith("i") else stem}
            if len(stem) > 3 and stem[-1] == stem[-2]:  # "stopped" -> "stop"
                out.add(stem[:-1])
    return out


def is_english(word: str) -> bool:
    """A word English has, or an inflection of one: a real word, never a slip ("making" is not "taking")."""
    return not english().isdisjoint(bases(word))
