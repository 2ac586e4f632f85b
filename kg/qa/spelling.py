"""Typing slips in a question's cue words, corrected against the lexicon ("unaproved" -> "unapproved").

A word is respelled only when it is no word the reader knows (a cue word, a stop or filler word, a short form,
a document kind, a name in the graph, a word of one of the product's labels), no English word or inflection of
one (GCIDE's headwords, from the english-words package: "making" is no slip of "taking"), it has at least
`MIN_LENGTH` letters, and the forms one edit away (a letter added, dropped, changed, or two swapped) are all of
one word of the lexicon: a cue word or its plural, another word it knows, or a wildcard stem with a usual
ending. The
answerer tries a respelled question only when the question as typed has no complete reading, and a respelled
reading may answer but never proves absence: a guess at a spelling is no ground for a proof
(kg/qa/answer.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache, cached_property

from kg.qa.cues import phrase_words
from kg.qa.question import Vocabulary, lexicon_data
from kg.text import DOC_KINDS, closest, is_english, singular

#: Shorter words have too many neighbours one edit away ("open" / "oven", "merge" / "merger").
MIN_LENGTH = 6
#: How alike (difflib's ratio) a typed word must be to a name to be offered as it: "VizFroce" is 0.875 from
#: "VizForce", while "Force" is 0.77 from it.
NAME_SLIP = 0.8
#: How many letters a slip adds or drops at most.
SLIP_LETTERS = 2
#: A letter three times over: no English word ("weaknesss").
TRIPLED = re.compile(r"(.)\1\1")
#: Endings a wildcard stem takes in a respelling.
ENDINGS = ("", "s", "es", "ed", "ing", "e", "d", "er", "ers", "ion", "ions", "ment", "ments", "y", "ies", "ity")
#: A word of letters, with its apostrophe if it has one: a contraction or possessive ("couldn't", "what's") is
#: read elsewhere (kg/qa/cues.py), never respelled.
WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]*)?")


@dataclass(frozen=True)
class Words:
    """The lexicon's words: cue words (respelling targets), their wildcard stems, and every other word it
    knows."""

    cue_words: frozenset[str]
    stems: tuple[str, ...]
    other: frozenset[str]

    @cached_property
    def forms(self) -> frozenset[str]:
        """What a slip may be respelled to: cue words and their plurals, the lexicon's other words, and the long
        stems with a usual ending ("revert*" -> "reverted", "weakness*" -> "weaknesses")."""
        stemmed = {s + e for s in self.long_stems for e in ENDINGS}
        plurals = (w + "s" for w in (*self.cue_words, *self.other))
        words = {*self.cue_words, *plurals, *self.other, *stemmed}
        return frozenset(w for w in words if len(w) >= MIN_LENGTH - 1 and not TRIPLED.search(w))

    @cached_property
    def long_stems(self) -> tuple[str, ...]:
        """Wildcard stems long enough to respell to (shortest first)."""
        return tuple(sorted((s for s in self.stems if len(s) >= MIN_LENGTH - 1), key=lambda s: (len(s), s)))

    def rank(self, form: str) -> int:
        """How plain a respelling is, lower first: a word of the lexicon, then a stem with its commonest endings."""
        if form in self.cue_words or form in self.other or singular(form) in self.cue_words | self.other:
            return 0
        stem = self.lemma(form)
        ending = form[len(stem) :] if form.startswith(stem) else form
        return 1 + (ENDINGS.index(ending) if ending in ENDINGS else len(ENDINGS))

    def lemma(self, form: str) -> str:
        """The word a form is of: the shortest stem it starts with ("releases" and "release" are of "releas*"),
        else its singular."""
        return next((s for s in self.long_stems if form.startswith(s)), singular(form))

    def known(self, word: str) -> bool:
        """A word some cue matches as it stands (cues read singularised words: "releas" reads as "relea", which
        `releas*` does not match), or another word of the lexicon. A stem's word is known with a usual ending,
        or when it is English ("approval"): "revertd" and "competiter" are slips."""
        stemmed = singular(word).startswith(self.stems)
        usual = any(word == s + e for s in self.stems if word.startswith(s) for e in ENDINGS)
        return (
            word in self.cue_words
            or singular(word) in self.cue_words
            or word in self.other
            or (stemmed and (usual or is_english(word)))
        )

    def widened(self, words: frozenset[str]) -> Words:
        """These words and the reader's other words (the ontology's labels) as words it knows and respells to."""
        return replace(self, other=self.other | words) if words else self


@cache
def lexicon_words() -> Words:
    """The lexicon's words, read from its cues (literal words and `stem*` stems), stop, filler and function
    words, short forms and document kinds."""
    data = lexicon_data()
    cue_words: set[str] = set()
    stems: set[str] = set()
    for phrases in data["cues"].values():
        for phrase in phrases:
            words, starts = phrase_words(phrase)
            cue_words |= words
            stems |= starts
    other = {*data["stop"]["words"], *data["filler"]["words"], *data["function"]["words"]}
    for short, full in data["abbreviations"].items():
        other |= {*short.split(), *full.split()}
    other |= {w for names in DOC_KINDS.values() for n in names for w in n.split()}
    return Words(frozenset(cue_words), tuple(sorted(s for s in stems if len(s) >= 3)), frozenset(other))


@cache
def widened(known: frozenset[str]) -> Words:
    return lexicon_words().widened(known)


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


def names_words(vocab: Vocabulary, labels: Iterable[str]) -> frozenset[str]:
    """Words of the graph's names and of the product's labels: never respelled."""
    names = [*vocab.products, *vocab.roles, *vocab.companies, *labels]
    return frozenset(w.casefold() for n in names for w in WORD.findall(n))


def respellings(text: str, names: frozenset[str], known: frozenset[str] = frozenset()) -> dict[str, str]:
    """{typed word: respelling} for each word of the text that the lexicon, the names and English do not know,
    and whose forms one edit away are all of one lexicon word (see the module docstring). `known`: more words
    the reader places (the ontology's labels), known and respelled to as the lexicon's are."""
    words = widened(known)
    out: dict[str, str] = {}
    for typed in dict.fromkeys(w.casefold() for w in WORD.findall(text)):
        if len(typed) < MIN_LENGTH or "'" in typed or typed in names or words.known(typed) or is_english(typed):
            continue
        near = {c for c in words.forms if abs(len(c) - len(typed)) <= 1 and one_edit_apart(typed, c)}
        if len({words.lemma(c) for c in near}) == 1:  # "release" and "releases" for "releaes" are one word
            out[typed] = min(near, key=lambda c: (words.rank(c), abs(len(c) - len(typed)), c))
    return out


def respelled(text: str, fixes: dict[str, str]) -> str:
    """The text with each respelled word replaced (whole words, any case)."""
    return WORD.sub(lambda m: fixes.get(m.group(0).casefold(), m.group(0)), text)


def name_slips(text: str, names: Iterable[str]) -> dict[str, str]:
    """{typed word (casefolded, as `respelled` takes it): the name it may be a slip of} for each word of the text
    that is no name but close to one ("VizFroce's" -> "VizForce's"). Offered to the asker, never read as the
    name: the name decides which graph is read."""
    names = list(names)
    known = {n.casefold() for n in names}
    out: dict[str, str] = {}
    for typed in dict.fromkeys(WORD.findall(text)):
        word = typed.split("'")[0]
        if len(word) < MIN_LENGTH or word.casefold() in known or is_english(word.casefold()):
            continue  # "collaboration" is a word, not a slip of "CollaborationForce"
        near = [n for n in closest(word, names, 1, NAME_SLIP) if abs(len(n) - len(word)) <= SLIP_LETTERS]
        if near:
            out[typed.casefold()] = near[0] + typed[len(word) :]
    return out
