"""Entities a question describes rather than names: a meeting by the document it reviewed and its day
("ActionGenie's Market Research Report review meeting on 2026-06-13"), a document's versions by its kind ("the
latest version of X's System Design Document").

The description is one run of the question's words, taken whole by the ontology reader as it takes a name. What
it picks is read from the graph (`sparql/onto_meetings.rq`, `sparql/onto_versions.rq`): one entity, several (a
description that fits more than one meeting is "uncertain" with them), every version ("all versions of …"), or
none, with the ASK that proves there is none. The words that may describe each kind are data
(`[described]` in kg/qa/ontology_reader.toml).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pyoxigraph import Literal, NamedNode

from kg.namespaces import expand
from kg.qa.entities import Entity
from kg.qa.question import Question
from kg.qa.time import MONTH_WORDS
from kg.query.sparql import Backend, named_query, term_text
from kg.text import DOC_KINDS, normalise

MEETING = expand("ekg:MeetingTranscript")
DOCUMENT = expand("ekg:Document")
#: A day written in a question's words, with no cue before it: ISO, or a month's name, its day and a year.
_MONTHS = "|".join(sorted(MONTH_WORDS, key=len, reverse=True))
DATE_IN = re.compile(
    rf"(?<!\S)(?:(?P<iso>\d{{4}}-\d{{2}}-\d{{2}})"
    rf"|(?P<m>{_MONTHS}) (?P<d>\d{{1,2}})(?:st|nd|rd|th)? (?P<y>\d{{4}}))(?!\S)"
)
#: A day written in a time phrase ("on 2026-06-13", "on June 13 2026"): the year alone or a month is no day.
DAY = re.compile(r"\d{4}-\d{2}-\d{2}|(?<!\d)\d{1,2}(?:st|nd|rd|th)?(?!\d)")


@dataclass(frozen=True)
class Described:
    """The run of words that describes, what it picks, and how the reader takes it."""

    words: str
    entities: tuple[Entity, ...]
    #: every entity is asked about ("all versions of …"), not one of them
    every: bool = False
    #: the question's time phrase is the meeting's day, not a time to read the graph at
    dated: bool = False
    #: when nothing fits: what is missing and the ASK that proves it
    missing: str = ""
    proof: dict[str, Any] = field(default_factory=dict)
    #: each entity's link, where the artifact gives one: how an entity asked for itself is shown
    links: dict[str, str] = field(default_factory=dict)


#: Words by which a run asks about each version of a document ("all versions", "any version", "a version of").
EVERY_VERSION = frozenset({"all", "every", "each", "various", "several", "multiple", "across", "any", "a"})


def described(q: Question, text: str, backend: Backend, graphs: list | None, data: dict[str, Any]) -> Described | None:
    """The meeting or the document versions the question describes, or None."""
    if q.product is None:
        return None
    return meeting(q, text, backend, graphs, data) or versions(q, text, backend, graphs, data)


def kind_words(q: Question) -> set[str]:
    return {w for names in DOC_KINDS.values() for n in names for w in n.split()} if q.doc_kind else set()


def run_around(
    tokens: list[str], anchor: int, allowed: set[str], edges: set[str], pairs: frozenset[tuple[str, str]] = frozenset()
) -> tuple[int, int]:
    """The run of allowed words around the anchor, less the edge words ("the", "of") at either end; a word of
    `pairs` is allowed only after its first word ("by date")."""

    def fits(at: int) -> bool:  # "feature-planning": each part; a date ("2026-06-26") whole
        token = tokens[at]
        whole = token in allowed or all(part in allowed for part in token.split("-"))
        return whole or (at > 0 and (tokens[at - 1], token) in pairs)

    start, end = anchor, anchor + 1
    while start > 0 and fits(start - 1):
        start -= 1
    while end < len(tokens) and fits(end):
        end += 1
    while start < anchor and tokens[start] in edges:
        start += 1
    while end > anchor + 1 and tokens[end - 1] in edges:
        end -= 1
    return start, end


def said_kind(q: Question, words: str) -> str | None:
    """The document kind's label ("Market Research Report") when the run names the question's kind."""
    if q.doc_kind is None:
        return None
    names = DOC_KINDS[q.doc_kind]
    if not any(f" {n} " in f" {words} " for n in names):
        return None
    return " ".join(w.capitalize() for w in names[0].split())


def day_of(q: Question) -> str | None:
    """The day the question's time phrase names ("on 2026-06-13"), or its month ("in Feb 2026", as "2026-02"),
    when it names one: a prefix of the dates it picks."""
    slot = q.time
    if slot is None or slot.instant is None:
        return None
    rest = slot.phrase.replace(slot.instant[:4], "")
    if slot.phrase.startswith(("on ", "of ", "dated ")):  # "the meeting of 2026-03-07"
        return slot.instant[:10] if DAY.search(rest) else None
    if slot.phrase.startswith(("in ", "during ")) and not DAY.search(rest) and set(rest.split()) & set(MONTH_WORDS):
        return slot.instant[:7]
    return None


def date_words(tokens: list[str]) -> set[str]:
    """The words of a date written without a cue ("the meeting of June 16, 2026", "their March 18 2026 meeting")."""
    found = DATE_IN.search(" ".join(tokens))
    return set(found.group(0).split()) if found else set()


def day_in(run: list[str]) -> str | None:
    """The day a run of words writes, as "YYYY-MM-DD"."""
    found = DATE_IN.search(" ".join(run))
    if found is None:
        return None
    if found.group("iso"):
        return found.group("iso")
    month = MONTH_WORDS[found.group("m")]
    return f"{found.group('y')}-{month:02d}-{int(found.group('d')):02d}"


def plural(typed: list[str], anchors: set[str]) -> bool:
    """Whether the words as typed name meetings in the plural ("meeting transcripts", "meeting chats"): a set
    to list, not one meeting described."""
    ends = [i for i, t in enumerate(typed) if t in anchors]  # "meeting chat logs": the noun's last word
    return bool({f"{a}s" for a in anchors} & set(typed)) or any(
        any(w.endswith("s") and len(w) > len("is") for w in typed[i + 1 : i + 3]) for i in ends
    )


def singular_anchor(token: str, anchors: list[str]) -> str:
    """A meeting anchor said in the plural, as its singular: which meetings the run describes, the plural
    (`plural`) telling one from each."""
    return token[:-1] if token.endswith("s") and token[:-1] in anchors else token


def meeting(q: Question, text: str, backend: Backend, graphs: list | None, data: dict[str, Any]) -> Described | None:
    table = data["described"]
    tokens = [singular_anchor(t, table["meeting_anchors"]) for t in text.split()]  # "the product dev meetings"
    kinds = kind_words(q)
    anchors = [
        i
        for i, t in enumerate(tokens)
        if (t in table["meeting_anchors"] and tokens[i + 1 : i + 2] != ["out"])  # "does the doc call out …": a verb
        or (t == "review" and i > 0 and tokens[i - 1] in kinds)  # "the PRD review"
    ]
    if not anchors:
        return None
    dates = date_words(tokens)
    ordinals = {*table["first"], *table["latest"]}
    allowed = {*table["meeting_words"], *table["edges"], *kinds, *normalise(str(q.product)).split(), *dates, *ordinals}
    start, end = run_around(tokens, anchors[0], allowed, set(table["edges"]))
    words = " ".join(text.split()[start:end])  # as said, to be found in the question
    kind, day = said_kind(q, words), day_of(q) or day_in(tokens[start:end])
    said = set(tokens[start:end])
    planning = kind is None and bool(said & set(table["planning_words"]))  # "the product planning meeting"
    every = plural(q.norm.split(), set(table["meeting_anchors"]))  # "the product dev meetings": each of them
    if kind is None and day is None and every and not planning:
        return None  # "the meeting transcripts of X": a set to list, not one meeting described
    rows = backend.select(named_query("onto_meetings").text, graphs=graphs)
    fits = tuple(
        Entity(r["meeting"].value, frozenset({MEETING}), term_text(r["id"]))
        for r in rows
        if (kind is None or term_text(r.get("type", Literal(""))).casefold() == kind.casefold())
        and (not planning or term_text(r.get("type", Literal(""))) == table["planning_type"])
        and (day is None or term_text(r["created"]).startswith(day))
    )
    if fits and said & ordinals:  # "the first planning meeting": the earliest of those that fit (rows by time)
        fits = fits[:1] if said & set(table["first"]) else fits[-1:]
    dated = day is not None
    if fits:
        return Described(words, fits, every=every and not said & ordinals, dated=dated)
    if kind is None and day is None:
        return None
    bindings = {"day": Literal(day or ""), **({"type": Literal(kind)} if kind else {})}
    proof_q = named_query("onto_meetings.ask")
    if not backend.ask(proof_q.text, bindings, graphs):
        return None
    when = f"{'on' if len(day or '') == len('yyyy-mm-dd') else 'in'} {day}"
    what = " ".join(x for x in (f"{kind} review" if kind else "", when if day else "") if x)
    proof = {"query": proof_q.name, "text": proof_q.text, "bindings": {k: term_text(v) for k, v in bindings.items()}}
    return Described(words, (), dated=dated, missing=f"{q.product} has no meeting {what}".strip(), proof=proof)


#: The version status of the version HERB marks final (final_x, x_final).
FINAL = expand("ekg:Final")


def versions(q: Question, text: str, backend: Backend, graphs: list | None, data: dict[str, Any]) -> Described | None:
    """A document kind's versions: the latest, the first, or every one ("all versions", "the versions")."""
    table = data["described"]
    tokens = text.split()
    anchors = set(table["version_anchors"])
    dated = set(table["dated"])  # "the PRD that's dated April 8, 2025": the version of that day
    latest, first = set(table["latest"]), set(table["first"])
    if q.doc_kind is None:
        return None
    said = kind_words(q)
    # "the latest market research report": a latest or first word right before the kind's words anchors too
    product = set(normalise(str(q.product)).split()) | {"s"}  # "the latest ForecastForce PRD", "X's"
    before = [
        i
        for i, t in enumerate(tokens[:-1])
        if t in latest | first and next((w for w in tokens[i + 1 :] if w not in product), "") in said
    ]
    anchor = next((i for i, t in enumerate(tokens) if t in anchors | dated), before[0] if before else None)
    revised = set(table["revised"])  # "when was X's PRD last revised": its latest version
    if anchor is None and any(t in latest and tokens[i + 1] in revised for i, t in enumerate(tokens[:-1])):
        anchor = next((i for i, t in enumerate(tokens) if t in said), None)
    if anchor is None:
        return None
    allowed = {*table["version_words"], *table["edges"], *latest, *first, *said, *dated, *revised}
    allowed |= set(normalise(str(q.product)).split()) | date_words(tokens)
    pairs = frozenset((a, b) for a, b in table["version_pairs"])
    start, end = run_around(tokens, anchor, allowed, set(table["edges"]), pairs)
    run = tokens[start:end]
    words = " ".join(run)
    if said_kind(q, words) is None:
        return None
    kind = NamedNode(expand(f"ekg:{q.doc_kind}"))
    rows = backend.select(named_query("onto_versions").text, {"kind": kind}, graphs)
    day = (day_of(q) or day_in(run)) if dated & set(run) else None
    docs: dict[str, Entity] = {}
    links = {r["document"].value: term_text(r["url"]) for r in rows if "url" in r}
    revised, revising, final = set(), set(), set()
    for r in rows:
        iri = r["document"].value
        if "status" in r and r["status"].value == FINAL:
            final.add(iri)
        if day is not None and not term_text(r["created"]).startswith(day):
            continue
        docs[iri] = Entity(iri, frozenset({DOCUMENT}), term_text(r["id"]))
        if "later" in r:
            revised.add(iri)
        if "previous" in r:
            revising.add(iri)
    if not docs:
        return None
    plural = {a for a in anchors if a.endswith("s")}
    said_any = start > 0 and tokens[start - 1] in EVERY_VERSION  # "a version of X": "a" is an edge of the run
    every = bool({*plural, *EVERY_VERSION} & set(run) or said_any) and not (latest | first) & set(run)
    if "final" in run and final & set(docs) and not (first & set(run)):  # the version marked final
        picked = tuple(e for iri, e in docs.items() if iri in final)
    elif (latest & set(run)) and not (first & set(run)):
        picked = tuple(e for iri, e in docs.items() if iri not in revised)
    elif (first & set(run)) and not (latest & set(run)):
        picked = tuple(e for iri, e in docs.items() if iri not in revising)
    else:
        picked = tuple(docs.values())
    return Described(words, picked, every=every, dated=day is not None, links=links)
