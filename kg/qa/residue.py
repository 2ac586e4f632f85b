"""Resolve a question's free phrase (its residue) against the labels the graph holds, by scored token overlap.

The residue is what a row leaves of the question (kg/qa/cues.py). Both it and the labels are reduced to the
same tokens (`feature_tokens`: abbreviations folded, stop words dropped, suffixes stripped — the stemmer the
feature rules index ekg:keyword with), and each label is scored by the share of tokens they have in common:

- a **feature** (the words of its ekg:keyword set) scores hits / the phrase's graph-known words; it competes when
  it names at least half of them (the floor). The phrase's words no feature of the product knows ("links",
  "please") drop out before scoring, so a wordier question resolves like a terse one. The query then ranks the
  features the same way (its finisher keeps those at three quarters of the best or more).
- a **component** (its skos:hiddenLabel key) scores the share of the key's words the phrase holds; the best key
  at or above the floor of 0.6 is bound, the longest first on equal shares.

No labels (a question parsed without a graph, as in unit tests): the phrase's tokens are bound as they are.
Nothing resolves: the row still wins on its cues and the answer abstains, naming the phrase.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pyoxigraph import Literal

from kg.query.sparql import Term
from kg.text import component_key, feature_tokens, stem
from kg.vocab import XSD_INTEGER

FEATURE_FLOOR = 0.5
COMPONENT_FLOOR = 0.6
SHOWN_CANDIDATES = 5


@dataclass(frozen=True)
class Labels:
    """A product's labels a free phrase may name: feature -> its keywords (and its name), component keys."""

    features: dict[str, frozenset[str]] = field(default_factory=dict)
    feature_names: dict[str, str] = field(default_factory=dict)
    components: tuple[str, ...] = ()

    @cached_property
    def known_words(self) -> frozenset[str]:
        """Every word some feature of the product holds: read by each row's free phrase, so computed once."""
        return frozenset().union(*self.features.values()) if self.features else frozenset()


@dataclass
class Resolution:
    """What a phrase resolved to: the bindings, and the labels that shared a word with it (label, score), best
    first; the phrase resolves when the best reaches the floor."""

    kind: str
    phrase: str
    bindings: dict[str, Term] = field(default_factory=dict)
    candidates: list[tuple[str, float]] = field(default_factory=list)
    #: The phrase's words the resolved label holds (feature tokens, or component-key stems): the words the
    #: free phrase explains (kg/qa/reading.py).
    hits: frozenset[str] = frozenset()

    @property
    def bound(self) -> str:
        """The bound component key (or topic words), as text."""
        value = self.bindings.get("phrase") or self.bindings.get("topic")
        return value.value.strip() if value is not None else ""

    @property
    def resolved(self) -> bool:
        return bool(self.bindings)

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1 and self.candidates[0][1] == self.candidates[1][1]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "phrase": self.phrase,
            "resolved": self.resolved,
            "candidates": [[label, round(score, 2)] for label, score in self.candidates[:SHOWN_CANDIDATES]],
        }


def resolve(kind: str, phrase: str, labels: Labels | None, proper: frozenset[str] = frozenset()) -> Resolution:
    """The phrase resolved as the row's residue kind says (feature | component); `proper`: its tokens written
    as names."""
    if kind == "feature":
        return resolve_feature(phrase, labels, proper)
    if kind == "component":
        return resolve_component(phrase, labels)
    raise ValueError(f"unknown residue kind {kind!r}")


def topic_bindings(words: list[str]) -> dict[str, Term]:
    return {"topic": Literal(" " + " ".join(words) + " "), "ntok": Literal(str(len(words)), datatype=XSD_INTEGER)}


def resolve_feature(phrase: str, labels: Labels | None, proper: frozenset[str] = frozenset()) -> Resolution:
    """`proper`: the phrase's tokens the question writes as names ("Zoom"): a feature that does not hold one is
    not the one meant, where a plain word no feature knows ("links", "customer waiting") drops out."""
    words = list(dict.fromkeys(feature_tokens(phrase)))
    found = Resolution("feature", phrase)
    if labels is not None:
        known = labels.known_words
        # a word no feature knows drops out ("links", "please"), unless the question writes it as a name ("Zoom")
        unheard = [w for w in words if w not in known and w in proper]
        words = [w for w in words if w in known]
        said = len(words) + len(unheard)
        scored = sorted(
            ((labels.feature_names.get(f, f), len(set(words) & kw) / said) for f, kw in labels.features.items())
            if words
            else (),
            key=lambda c: (-c[1], c[0]),
        )
        found.candidates = [c for c in scored if c[1] > 0]
        if not found.candidates or found.candidates[0][1] < FEATURE_FLOOR or unheard:
            return found  # a name no feature holds ("Zoom"): the feature meant is not in the graph
        best = found.candidates[0][1]
        found.hits = frozenset(
            w for f, kw in labels.features.items() if len(set(words) & kw) / said == best for w in kw
        ) & frozenset(words)
    if words:
        found.bindings = topic_bindings(words)
    return found


def resolve_component(phrase: str, labels: Labels | None) -> Resolution:
    key = component_key(phrase)
    found = Resolution("component", key)
    if labels is None:
        if key:
            found.bindings = {"phrase": Literal(key)}
        return found
    have = {stem(w) for w in key.split()}
    scored = []
    for label in labels.components:
        words = {stem(w) for w in label.split()}
        if words:
            scored.append((label, len(words & have) / len(words)))
    scored.sort(key=lambda c: (-c[1], -len(c[0].split()), c[0]))
    found.candidates = [c for c in scored if c[1] > 0]
    if found.candidates and found.candidates[0][1] >= COMPONENT_FLOOR:
        found.bindings = {"phrase": Literal(found.candidates[0][0])}
        found.hits = frozenset(stem(w) for w in found.candidates[0][0].split()) & have
    return found
