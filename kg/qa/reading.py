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
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TYPE_CHECKING, Any

from kg.qa.cues import Tagged, cue_words, lexicon, occupied
from kg.qa.question import Question, initials, lexicon_data, location_forms
from kg.text import DOC_KINDS, feature_tokens, normalise, singular_text, stem

if TYPE_CHECKING:
    from kg.qa.residue import Resolution

#: The cues that say which answer type is asked for (rule 2 of the chooser).
ASKED_BY: dict[str, tuple[str, ...]] = {
    "person": ("person",),
    "company": ("company",),
    "url": ("link",),
    "pr": ("pr", "link"),
    "name": ("competitor_asked",),  # "which competitor products have demo links": names, not the links
    "customer": ("customer_id",),  # "which customer IDs …": the customer records, not their companies
    "time": ("time_asked",),  # "when was X's PRD created": a time, which no row of the table gives
    "place": ("place_asked",),  # "where are the engineers who fixed X based": places, not the people
}
#: The cues that ask for an answer type: checked against the row's type, not as words.
TYPE_CUES = frozenset(c for cues in ASKED_BY.values() for c in cues)
WHO = frozenset({"who", "whom"})
#: Words that, in a question opened by "where", ask where people are ("where are … based").
PLACED = frozenset({"based", "located", "situated"})
#: Words that open the question itself: a clause they open asks, it sets no scene ("Of the approved PRs for X,
#: which ones got merged?").
WH_OPENERS = frozenset({"which", "what", "who", "whom", "whose", "how"})
#: Words that open the clause a question asks in ("PM q: *where* are …"), with the question words above.
ASKING_WORDS = WH_OPENERS | {"where", "when", "why"}
FIRST_PERSON = frozenset({"i", "im", "ive", "we", "my", "our", "me", "us"})
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
    #: Words of the question no part of the reading places (no slot it uses, no cue, no resolved free phrase,
    #: no function word, no context clause): what the reading would silently drop.
    words: tuple[str, ...] = ()
    #: Names the question gives that fill a slot the row does not read ("Product Manager", "Remote"): a filter
    #: the reading would drop, whatever words they are made of.
    unread: tuple[str, ...] = ()
    #: The words of the reading written out, for the lemma check (by_lemma).
    wording: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    #: The row's answer type, when the question declines it ("the demo URLs …, not the links").
    declined: str | None = None

    @property
    def complete(self) -> bool:
        return (
            not self.cues and self.asked_type is None and not self.words and not self.unread and self.declined is None
        )

    def by_lemma(self) -> Account:
        """The account with the unplaced words whose lemma is a function word or a word of the reading placed
        ("reviewing" as "review"): done for the chosen reading only, as the lemmatiser's dictionary loads on
        first use."""
        if not self.words:
            return self
        known, meaning = function_words()
        known |= self.wording | wording_lemmas(self.wording)
        left = tuple(w for w in self.words if w in meaning or w.isdigit() or not lemmas(w) & known)
        return self if left == self.words else replace(self, words=left)

    def to_json(self) -> dict[str, Any]:
        return {
            "unexplained cues": list(self.cues),
            **({"asks for": self.asked_type} if self.asked_type else {}),
            **({"declines": self.declined} if self.declined else {}),
            **({"unplaced words": list(self.words)} if self.words else {}),
            **({"unread names": list(self.unread)} if self.unread else {}),
        }


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
    slots_used: frozenset[str] = frozenset(),
    placed: frozenset[int] = frozenset(),
    wording: frozenset[str] = frozenset(),
    narrowing: frozenset[str] = frozenset(),
    phrase: frozenset[int] = frozenset(),
) -> Account:
    """The cues of the question that the reading leaves out (see the module docstring). `contested`: members of
    a family the row binds one of and this reading leaves unbound: unexplained wherever they stand, unless the
    free phrase holds them (a reason word inside the feature's name). `slots_used`: the slots the row reads;
    `placed`: positions an operator's words take; `wording`: the words of the reading written out ("key
    reviewers", "security risks"), placed wherever they stand; `narrowing`: cues whose words are placed only when
    the row uses them ("QA"); `phrase`: the words of the free phrase the row resolved (a component named with
    what its issues caused), placed unless they can change what is asked ([meaning])."""
    slots = tagged.slots
    claimed = slots | tagged.covered(used & tagged.found - TYPE_CUES)
    unused = slot_positions(q, tagged, frozenset(SLOT_KINDS) - slots_used - {"product"})
    audience = audience_roles(q, tagged, unused)  # "For the PM update: which …": the asker's reader, context
    named = slots - audience - product_tokens(q, tagged) | explained | other_kinds(q, tagged)
    scene = context(tagged, named, used & tagged.found - TYPE_CUES)
    covered = claimed | explained | scene
    typed = tagged.covered(used & TYPE_CUES)  # "who" covers a cue's span only whole: "who assigned" is asked
    stop = lexicon().stop
    aside = asides(tagged, (slots - product_tokens(q, tagged)) | explained)  # "I'm planning X's release - …"
    aside |= purpose_tail(tagged.tokens)  # "… for the competitive landscape slide"
    held = explained | aside
    left = sorted(c for c in contested or () if not all(set(range(s, e)) <= held for s, e in tagged.spans.get(c, ())))
    for cue, spans in sorted(tagged.spans.items()):
        if cue in used or cue not in constraints or cue in left:
            continue
        for s, e in spans:
            words = set(range(s, e))
            if not words & covered and not words <= typed and any(tagged.tokens[i] not in stop for i in words):
                left.append(cue)
                break
    firm = (slots - unused) | tagged.covered(used & tagged.found) | explained | scene | held | placed
    colour = tagged.covered(tagged.found - (narrowing - used))
    dropped = sorted(unused - placed - explained - phrase - scene - aside)
    effect = effect_words(tagged, phrase, explained)
    scenery = (scene | aside) - explained - placed
    loose = unplaced(tagged, firm | set(dropped), wording, phrase, colour, scenery, effect)
    unread = tuple(dict.fromkeys(tagged.words[i] for i in dropped))
    declined = answer_type if answer_type in ASKED_BY and set(ASKED_BY[answer_type]) <= tagged.declined else None
    return Account(tuple(left), asked_type(tagged, claimed | scene, answer_type), loose, unread, wording, declined)


@cache
def restricting_words() -> frozenset[str]:
    """The words that make a name in a clause of its own a condition: the lexicon's [restricting] and the words
    of [meaning], as cue-text tokens."""
    return frozenset(singular_text(w) for w in lexicon_data()["restricting"]["words"]) | function_words()[1]


def audience_roles(q: Question, tagged: Tagged, unused: set[int]) -> set[int]:
    """The positions of a role the row does not read, named in a clause that says nothing restricting ("for the
    PM update", "PM q"): whom the asker writes for, which holds no clause; a clause with a restricting word
    ("Only the QA Specialists please:", "[meaning]" and "[restricting]" words) asks for them."""
    roles = unused & slot_positions(q, tagged, frozenset({"role"}))
    said = {tagged.clauses[i] for i, t in enumerate(tagged.tokens) if t in restricting_words()}
    return {i for i in roles if tagged.clauses[i] not in said}


#: Slot kinds, and the names each one puts in the question (a role also by its initials: "UXR").
SLOT_KINDS = ("product", "doc_kind", "role", "company", "eid", "customer_id", "location", "repo")


def slot_positions(q: Question, tagged: Tagged, kinds: frozenset[str]) -> set[int]:
    """Where the question names a value of these slot kinds."""
    names = {
        "product": [q.product or ""],
        "doc_kind": list(DOC_KINDS[q.doc_kind]) if q.doc_kind else [],
        "role": [*q.roles, *(a for r in q.roles if (a := initials(r)))],
        "company": q.companies,
        "eid": q.eids,
        "customer_id": q.customer_ids,
        "location": location_forms(q.locations),
        "repo": q.repo_words,
    }
    return occupied([n for k in kinds for n in names[k]], tagged.tokens) & tagged.slots


@cache
def function_words() -> tuple[frozenset[str], frozenset[str]]:
    """Words a reading may leave unplaced (the lexicon's stop, filler and function words), and the words among
    them that can change what is asked ([meaning]: "why", "than", "not"), never placed as function words."""
    data = lexicon_data()
    words = {*data["stop"]["words"], *data["filler"]["words"], *data["function"]["words"]}
    meaning = frozenset(singular_text(w) for w in data["meaning"]["words"])
    return frozenset(singular_text(w) for w in words) - meaning, meaning


@cache
def lemmas(word: str) -> frozenset[str]:
    """A word's English lemmas, of any part of speech (lemminflect's dictionary: no guess for unknown words).
    Imported on the first word nothing else places: most questions never need it."""
    from lemminflect import getAllLemmas

    return frozenset(lemma for found in getAllLemmas(word).values() for lemma in found)


#: Negations that may describe what a resolved free phrase names (a component's issues "where the features
#: couldn't be reached") when no cue reads them: then they are the phrase's, not the question's.
DESCRIBING = frozenset({"not", "never", "no"})


#: Words that open what a component's issues caused, inside the free phrase ("… issues, where the features
#: couldn't be reached", "… that caused", "leading to …").
EFFECT_OPENERS = frozenset(
    {"where", "when", "causing", "caused", "cause", "leading", "led", "resulting", "resulted", "making"}
)


def effect_words(tagged: Tagged, phrase: frozenset[int], explained: set[int]) -> frozenset[int]:
    """The free phrase's words from an effect opener after the name it resolved to the end of its clause: what
    the issues caused, whose negations describe and ask nothing."""
    if not explained:
        return frozenset()
    after = range(max(explained) + 1, len(tagged.tokens))
    opens = [i for i in after if tagged.tokens[i] in EFFECT_OPENERS]
    if not opens:
        return frozenset()
    return frozenset(i for i in phrase if i > opens[0] and tagged.clauses[i] == tagged.clauses[opens[0]])


def unplaced(
    tagged: Tagged,
    placed: set[int],
    wording: frozenset[str] = frozenset(),
    phrase: frozenset[int] = frozenset(),
    colour: set[int] | None = None,
    scenery: set[int] | None = None,
    effect: frozenset[int] = frozenset(),
) -> tuple[str, ...]:
    """The words, in question order, that nothing placed: at no placed position, in the free phrase only if they
    cannot change what is asked, and neither function words nor words of the reading's own wording (as written or
    singular; by lemma in Account.by_lemma). A word of [meaning] ("not", "second", "than") is placed only by a
    slot, a cue the reading uses or an operator that holds it; a negation also by `effect` (what a resolved
    component's issues caused, effect_words) when no cue reads it; `colour`: the words of the cues the reading
    does not use, which place any other word ("did ... review" places "did", never a "not" between); `scenery`:
    the words of context clauses and asides, which place no number ("Back in 2025, ..." is a time the reading
    would drop)."""
    known, meaning = function_words()
    known |= wording
    colour = colour or set()
    scenery = scenery or set()

    def free(i: int, word: str, token: str) -> bool:
        if word.isdigit() and i in scenery:
            return True
        if i in placed or (i in effect and token in DESCRIBING and i not in colour):
            return False  # "issues where the features couldn't be reached": the effect the phrase describes
        if word in meaning or token in meaning or word.isdigit():
            return True
        return i not in colour and i not in phrase and token not in known and word not in known

    pairs = enumerate(zip(tagged.words, tagged.tokens, strict=True))
    return tuple(dict.fromkeys(word for i, (word, token) in pairs if free(i, word, token)))


@cache
def wording_words(reading: str) -> frozenset[str]:
    """The words of a reading written out (a row's canonical wording, filled), as written and as cue-text tokens
    (a question's word is compared by its lemmas too, so "reviewing" meets "reviewed" through "review")."""
    words = cue_words(normalise(reading))
    return frozenset({*(singular_text(w) for w in words), *words})


@cache
def wording_lemmas(wording: frozenset[str]) -> frozenset[str]:
    """The lemmas of a reading's words, read only for a question word nothing else places."""
    return frozenset(lemma for w in wording for lemma in lemmas(w))


#: Words by which a clause restricts the answer, whatever else it says ("but only the ones …", "apart from …").
NARROWING_OPENERS = frozenset({"only", "exclusively", "solely", "except", "excluding", "besides", "minus", "without"})
#: Pairs that exclude, where the first word alone does not ("apart from X", not "set them apart").
NARROWING_PAIRS = frozenset({("apart", "from"), ("aside", "from")})


def context(tagged: Tagged, named: set[int], cues: set[str]) -> set[int]:
    """The words of context clauses ("For the board deck, ...", "... ? prepping a customer call"): their cues set
    the scene and ask nothing. The reading holds the clause where it claims most words (slots but the product,
    free-phrase words, its cues' words), every clause holding a slot or free-phrase word, and, for each of its
    cues no held clause holds, the clauses that cue stands in, and every clause a question word opens (it asks);
    every other clause is context."""
    where = {cue: {tagged.clauses[i] for i in tagged.covered({cue})} for cue in cues}
    claims = Counter(tagged.clauses[i] for i in named | tagged.covered(cues))
    held = {tagged.clauses[i] for i in named if not said_again(tagged, named, i)}
    held |= {claims.most_common(1)[0][0]} if claims else set()
    held |= {
        c
        for i, c in enumerate(tagged.clauses)
        if tagged.tokens[i] in WH_OPENERS and (i == 0 or tagged.clauses[i - 1] != c)
    }
    # "…, but only the ones fixing API Security problems", "…, apart from the ones in the API module": a clause
    # that restricts or excludes narrows what is asked
    held |= {
        tagged.clauses[i]
        for i, t in enumerate(tagged.tokens)
        if t in NARROWING_OPENERS or tuple(tagged.tokens[i : i + 2]) in NARROWING_PAIRS
    }
    held |= tagged.contrasts  # "…, as opposed to the previous one": what the answer is not
    # each cue no held clause holds adds its clauses, visited in the order the question says them (then by name):
    # never in the order a set happens to hold them, which would change with the process's hash seed
    order = sorted(where, key=lambda cue: (min(tagged.covered({cue}), default=len(tagged.tokens)), cue))
    changed = True
    while changed:
        changed = False
        for cue in order:
            if not where[cue] & held:
                held |= where[cue]
                changed = True
    return {i for i, clause in enumerate(tagged.clauses) if clause not in held}


def said_again(tagged: Tagged, named: set[int], at: int) -> bool:
    """Whether the slot word at this position is named again in another clause that a slot or a question word
    holds ("I have TechCorp on the phone later. Give me every PR … reported by TechCorp …"): the first mention
    only sets the scene."""
    clause = tagged.clauses[at]
    others = {i for i in named if tagged.clauses[i] != clause}
    return any(tagged.tokens[i] == tagged.tokens[at] for i in others) and all(
        any(tagged.tokens[j] == tagged.tokens[i] for j in others) for i in named if tagged.clauses[i] == clause
    )


#: The asker named as a request's object ("send me", "give us"), and the verbs of such requests.
REQUESTED = frozenset({"me", "us"})
REQUEST_VERBS = frozenset({"send", "give", "show", "get", "find", "tell", "fetch", "grab", "pull", "bring", "list"})


def asides(tagged: Tagged, named: set[int]) -> set[int]:
    """The words of clauses where the asker speaks of themselves and names nothing ("Before I reopen anything:
    which bugs ...", "... ? I'm trying to learn who our happy customers are"): a state or reason word there is
    the asker's own, not a second constraint of the question. The asker as a request's object ("send me the PRs
    that weren't rejected") asks."""
    if len(set(tagged.clauses)) < 2:
        return set()
    tokens = tagged.tokens
    own = {
        tagged.clauses[i]
        for i, t in enumerate(tokens)
        if t in FIRST_PERSON and not (t in REQUESTED and i > 0 and tokens[i - 1] in REQUEST_VERBS)
    }
    own -= {tagged.clauses[i] for i in named}
    return {i for i, clause in enumerate(tagged.clauses) if clause in own}


#: What an answer may be wanted for, said last ("… for the competitive landscape slide").
PURPOSES = frozenset({"slide", "deck", "presentation", "standup", "retro", "sync", "update", "recap", "writeup"})
#: Words that may open such a purpose.
PURPOSE_OPENERS = frozenset({"the", "my", "our", "a", "an", "this", "next", "tomorrow", "today"})


def purpose_tail(tokens: list[str]) -> set[int]:
    """The words of a purpose said as the question's last words ("for the competitive landscape slide"): what
    the asker wants the answer for, which narrows nothing."""
    if not tokens or tokens[-1] not in PURPOSES:
        return set()
    for start in range(len(tokens) - 2, max(-1, len(tokens) - 7), -1):
        if tokens[start] == "for" and tokens[start + 1] in PURPOSE_OPENERS:
            return set(range(start, len(tokens)))
    return set()


def other_kinds(q: Question, tagged: Tagged) -> set[int]:
    """Where the question names a document kind besides the one it is read with ("attendees of the Market
    Research Report review who did not attend the Technical Specifications review"): a clause naming one asks."""
    return occupied([p for kind, phrases in DOC_KINDS.items() if kind != q.doc_kind for p in phrases], tagged.tokens)


def product_tokens(q: Question, tagged: Tagged) -> set[int]:
    return occupied([q.product], tagged.tokens) if q.product else set()


def asked_type(tagged: Tagged, covered: set[int], answer_type: str) -> str | None:
    """Another answer type the question asks for, in words the reading does not otherwise explain, when it does
    not ask for the row's own ("which customer ..." read by a row answering engineers)."""
    asked = {t for t, cues in ASKED_BY.items() for c in cues if c in tagged.found | tagged.implied}
    loose = {
        t
        for t, cues in ASKED_BY.items()
        for c in cues
        if any(not set(range(s, e)) <= covered for s, e in tagged.spans.get(c, ()))
    }
    if "time" in asked and answer_type != "time":  # "when was the first … PR opened": a time, not the PR
        return "time"
    if answer_type != "place" and (
        "place" in asked or (tagged.tokens[:1] == ["where"] and PLACED & set(tagged.tokens))
    ):
        return "place"  # "where are the engineers who fixed … based": places, however long the clause between
    if "name" in asked and answer_type != "name":  # "which competitor products have demo links": their names
        return "name"
    if "customer" in asked and answer_type in ("company", "person"):  # customer ids are neither
        return "customer"
    if answer_type == "url" and any(
        e - s == 1 and tagged.tokens[s] in WHO and tagged.tokens[s - 1 : s] != ["not"]  # "not who shared, the URLs"
        for s, e in tagged.spans.get("person", ())
    ):  # "who posted the demo links": the people, the links being what they posted
        return "person"
    if answer_type == "pr":  # "the engineer whose PRs ..." asks for a person unless it asks for links
        return "person" if "person" in loose and "link" not in tagged.found else None
    if answer_type == "person" and asked_by_who(tagged) and (loose & {"company", "url"}):
        return min(loose & {"company", "url"})  # "who's the customer with ...": the noun says what is asked
    if answer_type != "content" and answer_type in asked:
        return None
    return min(loose) if loose else None


def asked_by_who(tagged: Tagged) -> bool:
    """The question asks for a person only by "who" / "whom" ("who's the customer ..."), or by the "whose" that
    opens it ("whose bugs are piling up: which company ...")."""
    spans = tagged.spans.get("person", ())
    return bool(spans) and all(
        e - s == 1 and (tagged.tokens[s] in WHO or (s == 0 and tagged.tokens[s] == "whose")) for s, e in spans
    )


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
