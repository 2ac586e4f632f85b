"""Whether a reading of a question accounts for all of it, and the reading written out as a canonical question.

A proof of absence is only as good as the reading it was run for. A row of the intent table *reads* a question
completely when every cue the question carries is one the row uses, or lies inside words the row explains
otherwise: its slots, the cues it uses, or the free phrase it resolved (a word of the named feature or
component). A cue outside all of those is a constraint the row would silently drop ("reopened" in a question
about PRs to merge), and a cue that two readings each claim (a reason word that is also part of a feature's
name) makes the reading contested. Either way the question is answered with "uncertain reading" and the best
readings written out as canonical questions, never with a proof.

Which cues constrain an answer is data (`[reading] constraints` in the intent table): states, reasons, fates,
subjects and superlatives. Other cues colour a question without narrowing it ("new" in "I'm new here"), and a
row lists the constraint cues its own wording carries (`explains`: "eventually added" in a delayed-features
question).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kg.qa.cues import Tagged, lexicon, occupied
from kg.qa.question import Question
from kg.text import DOC_KINDS, feature_tokens, stem

if TYPE_CHECKING:
    from kg.qa.residue import Resolution

#: The cues that say which answer type is asked for (rule 2 of the chooser).
ASKED_BY: dict[str, tuple[str, ...]] = {
    "person": ("person",),
    "company": ("company",),
    "url": ("link",),
    "pr": ("pr", "link"),
}
#: The cues that ask for an answer type: checked against the row's type, not as words.
TYPE_CUES = frozenset(c for cues in ASKED_BY.values() for c in cues)
WHO = frozenset({"who", "whom"})
FIRST_PERSON = frozenset({"i", "we", "my", "our", "me", "us"})
#: Words shown for bound values in a canonical question.
REASON_WORDS = {
    "SecurityRisk": "security risks",
    "ProductDirectionChange": "a change in product direction",
    "IntroducedBugs": "the bugs they introduced",
}
STATE_WORDS = {"no fix": "no-fix-needed", "active": "active", "resolved": "resolved", "reopened": "reopened"}
FEEDBACK_WORDS = {
    "CustomerPraise": ("strengths did customers praise", "praised"),
    "QAIssue": ("issues did QA find", "found issues in"),
    "CustomerIssue": ("issues did customers report", "reported issues with"),
}


@dataclass(frozen=True)
class Account:
    """What a reading leaves unexplained: cues no part of the reading accounts for, and an answer type the
    question asks for that the row does not give."""

    cues: tuple[str, ...] = ()
    asked_type: str | None = None

    @property
    def complete(self) -> bool:
        return not self.cues and self.asked_type is None

    def to_json(self) -> dict[str, Any]:
        return {"unexplained cues": list(self.cues), **({"asks for": self.asked_type} if self.asked_type else {})}


def explained_by_phrase(tagged: Tagged, positions: list[int], resolution: Resolution | None) -> set[int]:
    """The residue positions whose word belongs to the label the free phrase resolved to."""
    if resolution is None or not resolution.resolved:
        return set()

    def tokens(word: str) -> set[str]:
        return set(feature_tokens(word)) if resolution.kind == "feature" else {stem(word)}

    return {i for i in positions if tokens(tagged.words[i]) & resolution.hits}


def account(
    q: Question,
    tagged: Tagged,
    used: set[str],
    explained: set[int],
    answer_type: str,
    constraints: frozenset[str],
    contested: set[str] | None = None,
) -> Account:
    """The cues of the question that the reading leaves out (see the module docstring). `contested`: members of
    a family the row binds one of and this reading leaves unbound: unexplained wherever they stand, unless the
    free phrase holds them (a reason word inside the feature's name)."""
    slots = tagged.slots
    claimed = slots | tagged.covered(used & tagged.found - TYPE_CUES)
    scene = context(tagged, slots - product_tokens(q, tagged) | explained, used & tagged.found - TYPE_CUES)
    covered = claimed | explained | scene | tagged.covered(used & TYPE_CUES)
    stop = lexicon().stop
    held = explained | asides(tagged, slots | explained)
    left = sorted(c for c in contested or () if not all(set(range(s, e)) <= held for s, e in tagged.spans[c]))
    for cue, spans in sorted(tagged.spans.items()):
        if cue in used or cue not in constraints or cue in left:
            continue
        for s, e in spans:
            words = set(range(s, e))
            if not words & covered and any(tagged.tokens[i] not in stop for i in words):
                left.append(cue)
                break
    return Account(tuple(left), asked_type(tagged, claimed | scene, answer_type))


def context(tagged: Tagged, named: set[int], cues: set[str]) -> set[int]:
    """The words of context clauses ("For the board deck, ...", "... ? prepping a customer call"): their cues set
    the scene and ask nothing. The reading holds the clause where it claims most words (slots but the product,
    free-phrase words, its cues' words), every clause holding a slot or free-phrase word, and, for each of its
    cues no held clause holds, the clauses that cue stands in; every other clause is context."""
    where = {cue: {tagged.clauses[i] for i in tagged.covered({cue})} for cue in cues}
    claims = Counter(tagged.clauses[i] for i in named | tagged.covered(cues))
    held = {tagged.clauses[i] for i in named} | ({claims.most_common(1)[0][0]} if claims else set())
    changed = True
    while changed:
        changed = False
        for clauses in where.values():
            if not clauses & held:
                held |= clauses
                changed = True
    return {i for i, clause in enumerate(tagged.clauses) if clause not in held}


def asides(tagged: Tagged, named: set[int]) -> set[int]:
    """The words of clauses where the asker speaks of themselves and names nothing ("Before I reopen anything:
    which bugs ...", "... ? I'm trying to learn who our happy customers are"): a state or reason word there is
    the asker's own, not a second constraint of the question."""
    if len(set(tagged.clauses)) < 2:
        return set()
    own = {tagged.clauses[i] for i, t in enumerate(tagged.tokens) if t in FIRST_PERSON}
    own -= {tagged.clauses[i] for i in named}
    return {i for i, clause in enumerate(tagged.clauses) if clause in own}


def product_tokens(q: Question, tagged: Tagged) -> set[int]:
    return occupied([q.product], tagged.tokens) if q.product else set()


def asked_type(tagged: Tagged, covered: set[int], answer_type: str) -> str | None:
    """Another answer type the question asks for, in words the reading does not otherwise explain, when it does
    not ask for the row's own ("which customer ..." read by a row answering engineers)."""
    asked = {t for t, cues in ASKED_BY.items() for c in cues if c in tagged.found}
    loose = {
        t
        for t, cues in ASKED_BY.items()
        for c in cues
        if any(not set(range(s, e)) <= covered for s, e in tagged.spans.get(c, ()))
    }
    if answer_type == "pr":  # "the engineer whose PRs ..." asks for a person unless it asks for links
        return "person" if "person" in loose and "link" not in tagged.found else None
    if answer_type == "person" and asked_by_who(tagged) and (loose & {"company", "url"}):
        return min(loose & {"company", "url"})  # "who's the customer with ...": the noun says what is asked
    if answer_type != "content" and answer_type in asked:
        return None
    return min(loose) if loose else None


def asked_by_who(tagged: Tagged) -> bool:
    """The question asks for a person only by "who" / "whom" ("who's the customer ...")."""
    spans = tagged.spans.get("person", ())
    return bool(spans) and all(e - s == 1 and tagged.tokens[s] in WHO for s, e in spans)


def canonical(ask: str, q: Question, shown: dict[str, str], resolution: Resolution | None) -> str:
    """The row's canonical wording (`ask` in the intent table) with the reading's values filled in."""
    values = {
        "product": q.product or "<product>",
        "doc_kind": DOC_KINDS[q.doc_kind][0].title() if q.doc_kind else "<document>",
        "role": q.roles[0] if q.roles else "<role>",
        "company": q.companies[0] if q.companies else "<company>",
        "eid": q.eids[0] if q.eids else "<employee id>",
        "bug_state": STATE_WORDS.get(shown.get("asked", ""), shown.get("asked", "<state>")),
        "pr_state": shown.get("asked", "<state>"),
        "reason": REASON_WORDS.get(shown.get("reason", "").rsplit("#", 1)[-1], "<reason>"),
        "approved": {"true": "approved", "false": "unapproved"}.get(shown.get("approved", ""), "approved"),
        "aspect": _aspect(shown.get("aspect")),
        "feedback": FEEDBACK_WORDS.get(shown.get("kind", "").rsplit("#", 1)[-1], ("<feedback>",))[0],
        "company_feedback": FEEDBACK_WORDS.get(shown.get("kind", "").rsplit("#", 1)[-1], ("", "<feedback>"))[1],
        "role_people": f"{q.roles[0]}s" if q.roles else "team members",
        "by_company": f" reported by {q.companies[0]}" if q.companies else "",
        "topic": _topic(resolution),
        "component": resolution.bound if resolution and resolution.resolved else "<component>",
    }
    text = ask.format(**values)
    return f"{text[:-1]} as of {q.time.phrase}{text[-1]}" if q.time and text[-1] in "?." else text


def _aspect(value: str | None) -> str:
    if value is None:
        return "strengths and weaknesses"
    return "weaknesses" if value.endswith("weakness") else "unique features and strengths"


def _topic(resolution: Resolution | None) -> str:
    if resolution is None or not resolution.candidates:
        return "<feature>"
    return resolution.candidates[0][0]
