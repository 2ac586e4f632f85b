"""A proof of absence checked against the product's own text.

A proof says the graph holds no typed evidence for a reading; it is only as good as the rules that built the
graph. Before an answer says "absent", the product's artifacts are searched (BM25 plus the graph walk,
kg/search) for the question's evidence, scoped to the product and to the reading's slots: the feature or
component words it bound, the roles and companies it names, and its evidence cues (the states, reasons and
relations it asks about, found in an artifact with the same lexicon that read the question). An artifact
matches strongly when one sentence carries every evidence cue and that sentence with its neighbours carries every
slot word. Then the proof does not stand: the answer is uncertain, citing those artifacts. HERB's unanswerable
questions often name the topic and lack only the specific evidence, so the topic alone never matches.

When no search index is beside the store (or the backend is an endpoint, with no local index), the check cannot
run: the proof stands and says so, never as a check passed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyoxigraph import Literal

from kg.errors import KGError
from kg.qa.cues import cue_words, lexicon, tag
from kg.qa.question import Question
from kg.query.sparql import Backend, EmbeddedStore, Term, named_query, product_dataset, term_text
from kg.text import feature_tokens, normalise, singular_text, stem

if TYPE_CHECKING:
    from kg.search.searcher import Searcher

#: The cues an artifact must carry to speak of the question's evidence: states, reasons and relations. Asked
#: types, subjects, superlatives and the bare verbs of adding ("new features
#: added") do not narrow what an artifact says: HERB's artifacts talk of building everything they plan.
EVIDENCE_CUES = frozenset(
    {
        "unresolved", "active", "reopened", "no_fix", "resolved", "to_merge", "to_close", "pr_open", "pr_merged",
        "pr_closed", "reverted", "delayed", "not_added", "discussed", "approval", "unapproved", "security",
        "direction", "introduced_bugs", "dismissing", "attended", "demo", "assigned", "responsible", "authored",
        "reviewed",
    }
)  # fmt: skip
#: Subjects that narrow a match (an artifact must carry them too) but are no evidence alone: artifacts discuss
#: competitors everywhere, but a demo of one is evidence; a retry "before giving up" on "network issues" is no
#: feature dropped for the bugs it introduced.
SUBJECT_CUES = frozenset({"competitor", "feature", "bug"})
#: How many of the search's best hits are read for a strong match, and how many matches are cited.
SEARCHED = 50
CITED = 5
#: Sentences either side of the cue sentence in which the slot words may stand.
WINDOW = 1
SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
#: The reason an answer gives when artifacts speak of what its proof found no typed evidence for.
UNCERTAIN = "the graph holds no typed evidence, but these artifacts speak of it"


@dataclass
class TextCheck:
    """What the text check did: `ran` false says why it could not; else the artifacts that matched strongly."""

    ran: bool
    check: str
    matches: list[str] = field(default_factory=list)

    @property
    def stands(self) -> bool:
        """The proof stands: no artifact speaks of the evidence (or the check could not run, and says so)."""
        return not self.matches

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ran": self.ran, "check": self.check}
        if self.matches:
            out["matches"] = self.matches
        return out


@dataclass(frozen=True)
class Slots:
    """What an artifact must say: every evidence cue in one sentence, every slot word near it."""

    cues: frozenset[str]
    topic: frozenset[str]  # feature tokens (kg.text.feature_tokens)
    component: frozenset[str]  # stems of the component key's words
    names: tuple[str, ...]  # roles and companies, normalised
    #: words of the kind asked for, one of which must stand near ("pull request", "pr"): an ontology listing's
    #: class, so "the permissions were reverted" is no reverted PR
    nouns: frozenset[str] = frozenset()

    def describe(self) -> str:
        parts = [f"cues {', '.join(sorted(self.cues))}" if self.cues else ""]
        parts += [f"feature words {' '.join(sorted(self.topic))}" if self.topic else ""]
        parts += [f"component words {' '.join(sorted(self.component))}" if self.component else ""]
        parts += [f"names {', '.join(self.names)}" if self.names else ""]
        parts += [f"one of {', '.join(sorted(self.nouns))}" if self.nouns else ""]
        return "; ".join(p for p in parts if p)


def slots_of(q: Question, bindings: dict[str, Term]) -> Slots:
    """The reading's evidence: the question's evidence cues but those inside the bound feature or component's
    words ("user feedback mechanisms" asks for no review) or a subject's ("the X bug" says no bug was
    introduced), the bound topic or component, its roles and companies."""
    topic = bindings.get("topic")
    phrase = bindings.get("phrase")
    words = frozenset(topic.value.split()) if topic is not None else frozenset()
    component = frozenset(stem(w) for w in phrase.value.split()) if phrase is not None else frozenset()
    tagged = tag(q)

    def named(i: int) -> bool:
        return bool(set(feature_tokens(tagged.words[i])) & words or stem(tagged.words[i]) in component)

    subject = tagged.covered(tagged.found & SUBJECT_CUES)  # "bug" is a subject first, not a bug introduced
    cues = {c for c in tagged.found & EVIDENCE_CUES if not all(named(i) or i in subject for i in tagged.covered({c}))}
    cues |= tagged.found & SUBJECT_CUES if cues else set()
    return Slots(frozenset(cues), words, component, tuple(normalise(n) for n in [*q.roles, *q.companies]))


@lru_cache(maxsize=65536)
def cue_text(sentence: str) -> str:
    """A sentence's words as a question's are read for cues (kept per sentence: the same search hits come back
    for many questions of a product)."""
    return " ".join(singular_text(w) for w in cue_words(normalise(sentence)))


@lru_cache(maxsize=65536)
def carries(sentence: str, cues: frozenset[str]) -> bool:
    """The sentence carries every one of the cues, matched as a question's words are: only those cues' phrases
    are tried, each only where its literal stands (kept per sentence and cues: a product's questions asking
    for the same state meet the same sentences)."""
    plain = cue_text(sentence)
    phrases = lexicon().cues
    return all(
        any((p.needs is None or any(lit in plain for lit in p.needs)) and p.pattern.search(plain) for p in phrases[c])
        for c in cues
    )


def speaks_of(text: str, slots: Slots) -> bool:
    """One sentence of the text carries every evidence cue, and it with its neighbours every slot word."""
    sentences = [s for s in SENTENCE.split(text) if s.strip()]
    for i, sentence in enumerate(sentences):
        if slots.cues and not carries(sentence, slots.cues):
            continue
        near = " ".join(sentences[max(0, i - WINDOW) : i + WINDOW + 1])
        words = set(feature_tokens(near))
        plain = normalise(near)
        if (
            slots.topic <= words
            and slots.component <= {stem(w) for w in plain.split()}
            and all(re.search(rf"\b{re.escape(n)}", plain) for n in slots.names)
            and (not slots.nouns or any(re.search(rf"\b{re.escape(n)}s?\b", plain) for n in slots.nouns))
        ):
            return True
    return False


class TextChecker:
    """Checks proofs against one store's search index, opened on the first proof that needs it."""

    def __init__(self, store: Path | None, backend: Backend | None = None) -> None:
        self.store = store
        self.backend = backend  # reads the artifacts' dates for a proof at a time
        self._searcher: Searcher | None = None
        self._missing: str | None = None if store else "no search index: the backend is not a local store"

    @classmethod
    def for_backend(cls, backend: Backend) -> TextChecker:
        """The index beside an on-disk store; an endpoint has none here."""
        return cls(backend.index_dir, backend) if isinstance(backend, EmbeddedStore) else cls(None)

    def searcher(self) -> Searcher | None:
        if self._searcher is None and self._missing is None and self.store is not None:
            from kg.search.searcher import Searcher

            try:
                self._searcher = Searcher(self.store)
            except KGError as exc:
                self._missing = str(exc)
        return self._searcher

    def written_after(self, ids: list[str], product: str, as_of: Term) -> set[str]:
        """The artifacts written after the time a proof is about: what they say was not yet so then. An
        artifact with no date is kept (it may have been written in time)."""
        if self.backend is None:
            return set()
        query, graphs = named_query("artifact_created").text, product_dataset(product)
        when = str(as_of.value)
        return {
            i
            for i in ids
            if any(term_text(r["created"]) > when for r in self.backend.select(query, {"id": Literal(i)}, graphs))
        }

    def check(self, q: Question, bindings: dict[str, Term], nouns: frozenset[str] = frozenset()) -> TextCheck:
        """Search the product's artifacts for the reading's evidence; the strong matches, best first. `nouns`:
        words of the kind asked for, one of which must stand near the evidence."""
        slots = replace(slots_of(q, bindings), nouns=nouns)
        if not slots.cues:  # the topic alone is no evidence: unanswerable questions name topics artifacts discuss
            return TextCheck(True, "passed: the reading asks for no state, reason or relation an artifact could say")
        searcher = self.searcher()
        if searcher is None or q.product is None:
            return TextCheck(False, f"text check could not run: {self._missing or 'no product'}")
        if q.product not in searcher.manifest["products"]:
            return TextCheck(False, f"text check could not run: {q.product} is not indexed (run `kg index`)")
        result = searcher.search(q.text, q.product, k=SEARCHED, mode="rrf+ppr")
        texts = searcher.product_index(q.product)
        matches = [h.id for h in result.hits if speaks_of(texts.texts[texts.row[h.id]], slots)]
        searched = f"the {len(result.hits)} best search hits in {q.product}"
        as_of = bindings.get("asOf")
        if matches and as_of is not None:
            later = self.written_after(matches, q.product, as_of)
            matches = [m for m in matches if m not in later]
            if later and not matches:
                after = f"were all written after {as_of.value}"
                return TextCheck(True, f"passed: the {len(later)} of {searched} that carry {slots.describe()} {after}")
        if matches:
            return TextCheck(True, f"{searched}: {len(matches)} carry {slots.describe()}", matches[:CITED])
        return TextCheck(True, f"passed: none of {searched} carries {slots.describe()} in one passage")
