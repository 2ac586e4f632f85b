"""Typing slips in a question's cue words, corrected against the lexicon ("unaproved" -> "unapproved").

A word is respelled only when it is no word the reader knows (a cue word, a stop or filler word, a short form,
a document kind, a name in the graph, a word of one of the product's labels), it has at least `MIN_LENGTH`
letters, and exactly one cue word lies one edit away (a letter added, dropped, changed, or two swapped). The
answerer tries a respelled question only when the question as typed has no complete reading, and a respelled
reading may answer but never proves absence: a guess at a spelling is no ground for a proof
(ekg/qa/answer.py).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from ekg.qa.question import LEXICON, Vocabulary
from ekg.text import DOC_KINDS, singular

#: Shorter words have too many neighbours one edit away ("open" / "oven", "merge" / "merger").
MIN_LENGTH = 6
WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


@dataclass(frozen=True)
class Words:
    """The lexicon's words: cue words (respelling targets), their wildcard stems, and every other word it
    knows."""

    cue_words: frozenset[str]
    stems: tuple[str, ...]
    other: frozenset[str]

    def fit(self, word: str) -> int:
        """How much of a respelling the lexicon holds: a whole cue word, else the longest stem it starts with
        ("reviewers" fits "reviewer*" better than "reviewrs" fits "review*")."""
        if word in self.cue_words or singular(word) in self.cue_words:
            return len(word)
        return max((len(s) for s in self.stems if word.startswith(s)), default=0)

    def known(self, word: str) -> bool:
        return (
            word in self.cue_words
            or singular(word) in self.cue_words
            or word in self.other
            or word.startswith(self.stems)
        )


@cache
def lexicon_words() -> Words:
    data = tomllib.loads(LEXICON.read_text(encoding="utf-8"))
    cue_words: set[str] = set()
    stems: set[str] = set()
    for phrases in data["cues"].values():
        for phrase in phrases:
            for token in phrase.split():
                for word in token.lstrip("!^").split("|"):
                    if word.endswith("*"):
                        stems.add(word[:-1])
                    elif word.isalpha():
                        cue_words.add(word)
    other = {*data["stop"]["words"], *data["filler"]["words"]}
    for short, full in data["abbreviations"].items():
        other |= {*short.split(), *full.split()}
    other |= {w for names in DOC_KINDS.values() for n in names for w in n.split()}
    return Words(frozenset(cue_words), tuple(sorted(s for s in stems if len(s) >= 3)), frozenset(other))


def one_edit_apart(a: str, b: str) -> bool:
    """Damerau-Levenshtein distance 1: one letter added, dropped or changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])  # fmt: skip
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((i for i in range(len(short)) if short[i] != long[i]), len(short))
    return short[i:] == long[i + 1 :]


def stem_ends(typed: str, stem: str) -> list[int]:
    """Where a slip of a wildcard stem ends in the typed word: "revrted" holds "revert" one edit off in its
    first five letters, then "ed". Only stems of `MIN_LENGTH` - 1 letters or more: a short stem is too easy to
    reach."""
    if len(stem) < MIN_LENGTH - 1:
        return []
    return [k for k in (len(stem) - 1, len(stem), len(stem) + 1) if k <= len(typed) and one_edit_apart(typed[:k], stem)]


def names_words(vocab: Vocabulary, labels: Iterable[str]) -> frozenset[str]:
    """Words of the graph's names and of the product's labels: never respelled."""
    names = [*vocab.products, *vocab.roles, *vocab.companies, *labels]
    return frozenset(w.casefold() for n in names for w in WORD.findall(n))


def respellings(text: str, names: frozenset[str]) -> dict[str, str]:
    """{typed word: cue word} for each word of the text the lexicon and the names do not know and exactly one
    cue word is one edit away from."""
    words = lexicon_words()
    out: dict[str, str] = {}
    for typed in dict.fromkeys(w.casefold() for w in WORD.findall(text)):
        if len(typed) < MIN_LENGTH or typed in names or words.known(typed):
            continue
        near = {c for c in words.cue_words if abs(len(c) - len(typed)) <= 1 and one_edit_apart(typed, c)}
        near |= {s + typed[k:] for s in words.stems for k in stem_ends(typed, s)}
        best = max((words.fit(c) for c in near), default=0)
        closest = [c for c in near if words.fit(c) == best]
        if len(closest) == 1:
            out[typed] = closest[0]
    return out


def respelled(text: str, fixes: dict[str, str]) -> str:
    """The text with each respelled word replaced (whole words, any case)."""
    return WORD.sub(lambda m: fixes.get(m.group(0).casefold(), m.group(0)), text)
