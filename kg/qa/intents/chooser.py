"""The chooser: which row of the intent table a question is read as (the rules are in kg/qa/intents's
docstring), with its competitors and near misses."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import Any

from kg.qa.cues import Tagged, occupied, residue_positions, tag
from kg.qa.intents.binders import BINDERS, SAME_MEANING, families
from kg.qa.intents.loader import constraints, narrowing, table
from kg.qa.intents.rows import Intent
from kg.qa.question import Question, lexicon_data, quoted_titles
from kg.qa.reading import (
    ASKED_BY,
    ASKING_WORDS,
    Account,
    account,
    canonical,
    explained_by_phrase,
    function_words,
    slot_positions,
    wording_words,
)
from kg.qa.residue import Labels, Resolution, resolve
from kg.query.sparql import Term
from kg.text import feature_tokens, singular_text, stem

#: Cues the chooser derives from the graph, not from the lexicon's words: `component`, the question names one of
#: its product's components (names_component).
DERIVED_CUES = frozenset({"component"})
#: How many readings an uncertain question offers.
READINGS_SHOWN = 3
SLOTS: dict[str, Callable[[Question], list[str]]] = {
    "doc_kind": lambda q: [q.doc_kind] if q.doc_kind else [],
    "role": lambda q: q.roles,
    "company": lambda q: q.companies,
    "eid": lambda q: q.eids,
    "customer_id": lambda q: q.customer_ids,
    "repo": lambda q: q.repos,
}


@dataclass
class Candidate:
    """One row's verdict on a question: accepted with bindings, or why not."""

    intent: Intent
    score: tuple[int, int, int] = (0, 0, 0)
    bindings: dict[str, Term] | None = None
    missing: str | None = None
    resolution: Resolution | None = None
    #: What the reading leaves unexplained (kg/qa/reading.py); None for a near miss.
    account: Account | None = None
    #: The reading written out as the row's canonical question.
    reading: str = ""
    #: The row's other readings of the question (another member of a cue family bound), best first.
    alternatives: list[Candidate] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """The reading accounts for every cue of the question, and its free phrase (if any) resolved."""
        return (
            self.bindings is not None
            and self.account is not None
            and self.account.complete
            and (self.resolution is None or self.resolution.resolved)
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"intent": self.intent.name, "score": list(self.score)}
        if self.missing:
            out["missing"] = self.missing
        if self.resolution:
            out["residue"] = self.resolution.to_json()
        if self.account is not None and not self.account.complete:
            out["unexplained"] = self.account.to_json()
        if self.reading:
            out["reading"] = self.reading
        if self.alternatives:
            out["other readings"] = [
                {
                    "reading": a.reading,
                    "complete": a.complete,
                    **({"unexplained": a.account.to_json()} if a.account else {}),
                }
                for a in self.alternatives
            ]
        return out


@dataclass
class Choice:
    """The chooser's outcome: the winner (if any), every accepting row, and the question's cues."""

    tagged: Tagged
    winner: Candidate | None = None
    accepted: list[Candidate] = field(default_factory=list)
    near: list[Candidate] = field(default_factory=list)
    ambiguous: list[str] = field(default_factory=list)

    @property
    def uncertain(self) -> bool:
        """No complete reading wins: the best rows tie, or the winner leaves a cue or asked type unexplained."""
        return bool(self.ambiguous) or (self.winner is not None and not self.winner.complete)

    def readings(self, most: int = READINGS_SHOWN) -> list[Candidate]:
        """The best distinct readings to offer for an uncertain question: accepting rows and their other
        readings first (complete ones first, then by the chooser's rank), then near misses, each once per
        canonical wording, and none with a place the question gave no value for."""
        readings = [r for c in self.accepted for r in (c, *c.alternatives)]
        ranked = sorted(readings, key=lambda c: (not c.complete, tuple(-x for x in c.score)))
        out: dict[str, Candidate] = {}
        for c in [*ranked, *sorted(self.near, key=lambda c: tuple(-x for x in c.score))]:
            if c.reading and "<" not in c.reading and c.reading not in out:
                out[c.reading] = c
        return list(out.values())[:most]

    def explain(self) -> dict[str, Any]:
        return {
            "cues": {c: self.tagged.phrase(c) for c in sorted(self.tagged.found)},
            "competing": [c.to_json() for c in self.accepted],
            "near misses": [c.to_json() for c in self.near],
            **({"ambiguous": self.ambiguous} if self.ambiguous else {}),
        }


def _unmet(intent: Intent, found: set[str], q: Question) -> tuple[str, bool] | None:
    """The first constraint the question does not meet, and whether that makes a near miss (the question has
    what the row needs, but also a cue or slot the row forbids), or None."""
    for cue in intent.requires:
        if cue not in found:
            return f"no {cue} cue", False
    for group in intent.any_of:
        if not any((SLOTS[c[1:]](q) if c.startswith("@") else c in found) for c in group):
            return f"none of {'/'.join(group)}", False
    for cue in intent.forbids:
        if cue in found:
            return f"{cue} cue forbidden", True
    for slot in intent.slots:
        if not SLOTS[slot](q):
            return f"no {slot}", False
    for slot in intent.no_slots:
        if SLOTS[slot](q):
            return f"{slot} not allowed", True
    return None


def asks_its_type(intent: Intent, found: set[str]) -> bool:
    """Rule 2: the question asks for this row's answer type."""
    if intent.answer_type == "content":
        return not any(c in found for cues in ASKED_BY.values() for c in cues)
    return any(c in found for c in ASKED_BY[intent.answer_type])


def rank(intent: Intent, found: set[str]) -> tuple[int, int, int]:
    """The chooser's key for a row that accepts: rules 1, 2 and 3, higher first."""
    return intent.specificity, int(asks_its_type(intent, found)), -intent.subject


def judge(intent: Intent, q: Question, tagged: Tagged, labels: Labels | None, found: set[str]) -> Candidate | None:
    """One row's verdict: None when the question lacks one of its cues or slots; else a near miss saying why
    not, or a candidate with bindings. When the question carries two members of a family the row binds one of
    (two reasons, two states), each is tried, the others' words left to the free phrase: the one reading that
    accounts for every word wins, and with none or several the reading is contested."""
    unmet = _unmet(intent, found, q)
    if unmet is not None and not unmet[1]:
        return None
    if unmet is not None:
        if (named := forbidden_inside_phrase(intent, q, tagged, labels, found)) is not None:
            return named
        candidate = Candidate(intent, rank(intent, found), missing=unmet[0])
        candidate.reading = canonical(intent.ask, q, {}, None)
        return candidate
    variants = [reading(intent, q, tagged, labels, found, dropped) for dropped in family_choices(intent, tagged)]
    complete = [c for c in variants if c.complete]
    chosen = complete[0] if len(complete) == 1 else variants[0]
    chosen.alternatives = [c for c in variants if c is not chosen]
    return chosen


def forbidden_inside_phrase(
    intent: Intent, q: Question, tagged: Tagged, labels: Labels | None, found: set[str]
) -> Candidate | None:
    """The row's complete reading when every cue it forbids that the question carries lies inside the free
    phrase it resolves ("the PRs for enhancing security measures that are open": "security" names the feature,
    not a reason); None otherwise, and the row stays a near miss."""
    forbidden = {c for c in intent.forbids if c in found}
    if not intent.residue or not forbidden or _unmet(intent, found - forbidden, q) is not None:
        return None
    candidate = reading(intent, q, tagged, labels, found, forbidden)  # unexplained unless inside the phrase
    return candidate if candidate.complete else None


def family_choices(intent: Intent, tagged: Tagged) -> list[set[str]]:
    """For each way of binding one member of each cue family the row's binders read, the members left out.
    A member whose every match lies inside another cue's ("resolved" in "not resolved") is no member, and members
    of the same meaning (SAME_MEANING) are one."""
    found = tagged.found
    out: list[set[str]] = [set()]
    for binder in intent.binders:
        meanings: dict[str, set[str]] = {}
        for c in families().get(binder, ()):
            if c in found and not tagged.inside_other(c):
                meanings.setdefault(SAME_MEANING.get(c, c), set()).add(c)
        if len(meanings) > 1:
            out = [d | {c for m, cs in meanings.items() if m != keep for c in cs} for d in out for keep in meanings]
    return out


#: A word written as a name: capitalised, not opening a sentence or a clause.
NAME_WORD = re.compile(r"(?<![.?!:;]\s)(?<!^)\b([A-Z][\w-]*)")


def written_as_names(text: str, words: list[list[str]], heard: frozenset[str]) -> frozenset[str]:
    """The free phrase's words the question writes as names ("Zoom chat summaries"), as feature tokens: in a
    run of the phrase's words (`words`, one list a run of adjacent positions) that holds a word the product's
    features know (`heard`), so a name in a side remark ("still learning GitHub here") is no part of it."""
    quiet, _ = function_words()  # "Thursday", "Hi": the lexicon's words say nothing, capitalised or not
    said = {m.group(1).casefold() for m in NAME_WORD.finditer(text.strip())}
    said = {w for w in said if singular_text(w) not in quiet}
    runs = [run for run in words if any(set(feature_tokens(w)) & heard for w in run)]
    return frozenset(t for run in runs for w in run if w in said for t in feature_tokens(w))


def runs_of(positions: list[int], words: list[str]) -> list[list[str]]:
    """The words at the positions, in runs of adjacent positions."""
    out: list[list[str]] = []
    for i, at in enumerate(positions):
        if i and positions[i - 1] == at - 1:
            out[-1].append(words[at])
        else:
            out.append([words[at]])
    return out


def reading(
    intent: Intent, q: Question, tagged: Tagged, labels: Labels | None, found: set[str], dropped: set[str]
) -> Candidate:
    """The row's reading of the question with the cues `dropped` left unbound: bindings, free phrase, account."""
    candidate = Candidate(intent, rank(intent, found))
    found = found - dropped
    bindings: dict[str, Term] = {}
    for name in intent.binders:
        made = BINDERS[name](q, found)
        if made is None:
            candidate.missing = f"binder {name} found nothing to bind"
            candidate.reading = canonical(intent.ask, q, {}, None)
            return candidate
        bindings |= made
    ignore = set(table()[0].get("ignore", ()))
    used = (intent.cues() | ignore | {c for b in intent.binders for c in BINDERS.meta[b].get("reads", ())}) - dropped
    explained: set[int] = set()
    phrase_words: set[int] = set()
    positions: list[int] = []
    if intent.residue:
        positions = residue_positions(tagged, used)
        phrase = " ".join(tagged.words[i] for i in positions)
        heard = labels.known_words if labels is not None else frozenset()
        names = written_as_names(q.text, runs_of(positions, tagged.words), heard)
        candidate.resolution = resolve(intent.residue, phrase, labels, names)
        bindings |= candidate.resolution.bindings
        explained = explained_by_phrase(tagged, positions, candidate.resolution)
        explained |= effect_positions(tagged, explained) | described_negations(tagged, explained)
        phrase_words = set(positions) if candidate.resolution.resolved else set()
        if not candidate.resolution.resolved:  # an unresolved phrase is a constraint not met
            candidate.score = (candidate.score[0] - 1, *candidate.score[1:])
    explained |= quoted_read(intent, q, tagged)
    candidate.bindings = bindings
    shown = {k: getattr(v, "value", str(v)) for k, v in bindings.items()}
    candidate.reading = canonical(intent.ask, q, shown, candidate.resolution)
    candidate.account = account(
        q,
        tagged,
        used | set(intent.explains),
        explained,
        intent.answer_type,
        constraints(),
        contested=dropped,
        slots_used=slots_read(intent) | tagged.filters,
        placed=frozenset(tagged.placed | text_read(intent, tagged) | tagged.negated),
        wording=wording_words(candidate.reading),
        narrowing=narrowing(),
        phrase=frozenset(phrase_words),
    )
    if (second := second_component(intent, tagged, positions, explained, candidate.resolution, labels)) is not None:
        # "who fixed the X issue and also the Y freeze": both or either asked, and the row reads one component
        candidate.account = replace(candidate.account, unread=(*candidate.account.unread, second))
    if not intent.residue and (part := named_component(tagged, labels)) is not None:
        # "in the Access Control Module of X, which companies have the most active bugs": a part of the product
        # a row with no free phrase does not read, whatever clause it stands in (a feature's phrase may hold a
        # component's words: "PRs for enhancing the user interface")
        candidate.account = replace(candidate.account, unread=(*candidate.account.unread, part))
    return candidate


#: A relative clause saying what a named component or feature did ("issues with the API Gateway *that posed
#: security risks and potential data breaches*"): its reason words describe the named thing, one reading with it.
EFFECT_OPENERS = frozenset({"that", "which"})
EFFECT_VERBS = frozenset(
    {"pose", "posed", "poses", "posing", "cause", "caused", "causes", "causing", "led", "lead", "leads", "leading",
     "result", "resulted", "results", "create", "created", "creates", "raised", "triggered", "exposed", "risked"}
)  # fmt: skip
#: The cues an effect clause may hold without competing: reasons, never a state or another constraint.
EFFECT_CUES = frozenset({"security", "direction", "introduced_bugs"})


def effect_positions(tagged: Tagged, named: set[int]) -> set[int]:
    """The reason-cue words of the effect clause that follows the named component or feature: from "that|which
    <effect verb>" after its last word to the clause's end."""
    if not named:
        return set()
    words = tagged.words
    for i in range(max(named) + 1, len(words) - 1):
        if words[i] in EFFECT_OPENERS and words[i + 1] in EFFECT_VERBS:
            clause = {j for j in range(i, len(words)) if tagged.clauses[j] == tagged.clauses[i]}
            return clause & tagged.covered(set(EFFECT_CUES))
    return set()


#: Words that open a clause describing the named component ("... issues *where* developers couldn't rely on ...").
DESCRIBING_OPENERS = frozenset({"that", "which", "where"})
#: Negations a describing clause may hold as part of its description ("optimizations they didn't need").
NEGATIONS = frozenset({"not", "never", "no"})
#: States of an item a negation may deny ("PRs … that are not merged"): a constraint, even where no cue reads it.
NEGATED_STATES = frozenset(
    {"merged", "approved", "closed", "resolved", "fixed", "reverted", "open", "opened", "reopened", "rejected",
     "accepted", "implemented", "added", "shipped", "released", "reviewed", "assigned", "deployed"}
)  # fmt: skip


def described_negations(tagged: Tagged, named: set[int]) -> set[int]:
    """The negations inside the clause that describes the named component or feature, from "that|which|where"
    after its words to the clause's end: they describe what the issues did ("API optimizations that weren't
    necessary"), and ask nothing, unless a constraint cue follows within three words ("that were not resolved",
    "never merged"): a negated state is the reading's to use, never placed this way."""
    if not named:
        return set()
    words, clauses = tagged.words, tagged.clauses
    last = max(named)
    opener = next((i for i in range(last + 1, len(words)) if words[i] in DESCRIBING_OPENERS), None)
    if opener is None or clauses[opener] != clauses[last]:
        return set()
    clause = {j for j in range(opener, len(words)) if clauses[j] == clauses[opener]}
    constrained = tagged.covered((tagged.found & constraints()) - EFFECT_CUES)
    # "companies affected by X's issues that were not affected by Y's": the negated word said again is a contrast
    # with what is asked, never a description of X
    asked = set(tagged.tokens[:opener]) - function_words()[0]
    return {
        j
        for j in clause
        if tagged.tokens[j] in NEGATIONS
        and not constrained & set(range(j, j + 4))
        and not asked & set(tagged.tokens[j + 1 : j + 4])
        and not (NEGATED_STATES & set(tagged.tokens[j + 1 : j + 4]) and not tagged.found & restating_states())
    }


@cache
def restating_states() -> frozenset[str]:
    """The plain states a negated one may restate (the lexicon's negated_states): "not merged so far and still
    need to be merged" says the state twice."""
    return frozenset(plain for _, plain in lexicon_data()["contrasts"]["negated_states"])


def text_read(intent: Intent, tagged: Tagged) -> set[int]:
    """Every position, when one of the row's binders reads the question's text itself (bug titles named in it)."""
    return set(range(len(tagged.tokens))) if any(BINDERS.meta[b].get("text") for b in intent.binders) else set()


def quoted_read(intent: Intent, q: Question, tagged: Tagged) -> set[int]:
    """The words of a title the question quotes, when one of the row's binders reads the text for the bug it
    names: they are the title's ("'Inefficient Caching Strategy'"), no cue of their own."""
    if not any(BINDERS.meta[b].get("text") for b in intent.binders):
        return set()
    return occupied(quoted_titles(q.text), tagged.tokens)


def slots_read(intent: Intent) -> frozenset[str]:
    """The slot kinds a row reads: the product, the slots it requires, and those its binders read."""
    binders = (s for b in intent.binders for s in BINDERS.meta[b].get("slots", ()))
    return frozenset({"product", *intent.slots, *intent.filters, *binders})


def choose(
    q: Question,
    labels: Labels | None = None,
    placed: frozenset[int] = frozenset(),
    implied: frozenset[str] = frozenset(),
    filters: frozenset[str] = frozenset(),
) -> Choice:
    """The most specific accepting row (see the module docstring), with its competitors and near misses.
    `placed`: word positions an operator (kg/qa/operators.py) claims, so the rows read the rest; `implied`: cues
    its named item carries (an employee id asked about is a person); `filters`: slot kinds the answer is kept to
    afterwards, read by every row."""
    tagged = tag(q)
    tagged.placed = set(placed)
    tagged.filters = filters
    tagged.implied = implied
    found = tagged.found | names_component(tagged, labels) | implied | ({"person"} if asks_role(q, tagged) else set())
    choice = Choice(tagged)
    for intent in table()[1]:
        if (candidate := judge(intent, q, tagged, labels, found)) is not None:
            (choice.near if candidate.bindings is None else choice.accepted).append(candidate)
    choice.accepted.sort(key=lambda c: c.score, reverse=True)
    if choice.accepted:
        best = choice.accepted[0]
        tied = [c.intent.name for c in choice.accepted if c.score == best.score]
        if len(tied) > 1:
            choice.ambiguous = tied
        else:
            choice.winner = asked_type_reading(choice.accepted) or best
            if choice.winner.account is not None:
                choice.winner.account = choice.winner.account.by_lemma()
    return choice


def asks_role(q: Question, tagged: Tagged) -> bool:
    """A role named in the clause that asks ("How many QA Specialists shared …"): people are asked for; a role
    in a clause of its own ("PM q: where are …") is whom the asker writes for."""
    if not q.roles:
        return False
    where = slot_positions(q, tagged, frozenset({"role"}))
    longest = Counter(tagged.clauses).most_common(1)[0][0]
    asking = next((tagged.clauses[i] for i, t in enumerate(tagged.tokens) if t in ASKING_WORDS), longest)
    return any(tagged.clauses[i] == asking for i in where)


def asked_type_reading(accepted: list[Candidate]) -> Candidate | None:
    """When the best row's reading gives another answer type than the question asks for ("who's the company with
    the most open bugs" read as engineers holding them) and accounts for nothing else, the one complete reading
    among the other rows that gives the asked type; None when there is no such single reading."""
    best = accepted[0].account
    if best is None or best.asked_type is None or best.cues:
        return None
    typed = [c for c in accepted[1:] if c.complete and c.intent.answer_type == best.asked_type]
    return typed[0] if len(typed) == 1 else None


def names_component(tagged: Tagged, labels: Labels | None) -> set[str]:
    """{"component"} when the question names one of its product's components whole ("the API Gateway in
    SupportForce", "Database & Data Synchronization Module"): an issue with a named part of the product, even said
    without a bug word ("API Gateway fix engineers"). A component named in part is left to the free phrase."""
    return set(DERIVED_CUES) if named_component(tagged, labels) else set()


def second_component(
    intent: Intent,
    tagged: Tagged,
    positions: list[int],
    explained: set[int],
    resolution: Resolution | None,
    labels: Labels | None,
) -> str | None:
    """Another component the free phrase names whole besides the one it resolved to, in the words that one's
    label does not hold, or None (an effect's words, "delays in anomaly detection results", name none whole)."""
    if intent.residue != "component" or resolution is None or not resolution.resolved or labels is None:
        return None
    bound = set(resolution.bound.split())
    said = components_said(tuple(tagged.words[i] for i in positions), labels.components)
    return next((key for key in said if not set(key.split()) <= bound), None)


def named_component(tagged: Tagged, labels: Labels | None) -> str | None:
    """The component of the product the question names whole, if any."""
    if labels is None or not labels.components:
        return None
    return next(iter(components_said(tuple(tagged.words), labels.components)), None)


@lru_cache(maxsize=4096)
def components_said(words: tuple[str, ...], components: tuple[str, ...]) -> tuple[str, ...]:
    """The components of two words or more the words name whole, kept per question's words: every row the
    chooser judges asks it again."""
    stems = " " + " ".join(stem(w) for w in words if w.isalnum()) + " "
    keys = [k for k in components if " " in k]
    return tuple(k for k, s in zip(keys, component_stems(components), strict=True) if s in stems)


@cache
def component_stems(components: tuple[str, ...]) -> tuple[str, ...]:
    """Each component key of two words or more as its stems, space-padded, read once per product."""
    return tuple(" " + " ".join(stem(w) for w in key.split()) + " " for key in components if " " in key)


def match_intent(q: Question, labels: Labels | None = None) -> tuple[Intent, dict[str, Term]] | None:
    """The winning intent with its bindings; None when no row wins or its free phrase does not resolve."""
    winner = choose(q, labels).winner
    if winner is None or winner.bindings is None or (winner.resolution and not winner.resolution.resolved):
        return None
    return winner.intent, winner.bindings
