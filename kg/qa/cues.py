"""Tag a question with the cues of the lexicon (kg/qa/lexicon.toml), and give what is left of it: the residue.

The lexicon is data: cue name -> phrases in a small phrase language (its header documents it). Phrases are
compiled once into whole-word regexes over the question's *cue text*: its normalised text with contractions
spelled out, possessives and punctuation dropped, hyphens as spaces, and every word singularised — the same
singulariser the slot finder uses, applied to the lexicon's words too, so either side may say "bugs" or "bug".
The cue text keeps one token per word of the plain text (`Tagged.words`), so what a cue covers can be masked
word by word; the residue is the plain words no slot, no used cue and no stop word covers, in question order.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache

from kg.qa.question import Question, lexicon_data, location_forms, spelled_out
from kg.text import DOC_KINDS, normalise, singular_text

#: Spelled-out negations: "couldn't" -> "could not" (then "ca not" / "wo not" -> "can not" / "will not"), and
#: the forms without an apostrophe.
IRREGULAR_NOT = {"cannot": "can not", "cant": "can not", "wont": "will not"}
IRREGULAR_NOT_WORD = re.compile(rf"(?<!\w)({'|'.join(map(re.escape, IRREGULAR_NOT))})(?!\w)")
WOULD_SHORT = re.compile(r"(?<=\w)'d(?!\w)")
IN_ORDER_TO = re.compile(r"(?<!\w)in order to(?!\w)")
DOUBLE_NOT = re.compile(r"(?<!\w)not not ")
ARE_SHORT = re.compile(r"(?<=\w)'re\b")
POSSESSIVE = re.compile(r"'s\b")
PLAIN_WORD = re.compile(r"[\w@]+")
BARE_NOT = re.compile(r"\b(do|does|did|could|would|should|is|are|was|were|has|have|had|need|must)nt\b")
GAP_WORDS = 3
#: The words a `~*` gap spans: "more … than any other", where the words between say what is counted, negated
#: or not ("more PRs that never got approved than any other engineer").
LONG_GAP_WORDS = 12
#: "not sure how approvals work", "I have no idea who …": the asker's doubt, which negates nothing the question asks.
HEDGE = re.compile(
    r"(?<!\w)(?:not (?:quite |really |entirely |totally )?(?:sure|certain)|(?:have|has|had) no (?:idea|clue))(?!\w)"
)
#: "Don't leave any out", "without missing any": the asker wants every item, which every listing gives; no
#: negation of what is asked.
EVERY_ONE = re.compile(
    r"(?<!\w)(?:(?:do|did|will|can) not (?:leave|miss|skip|drop|forget|omit) (?:any|anything|anyone|anybody|one)"
    r"(?: of them)?(?: (?:out|off)(?: the list)?)?|"
    r"(?:do|did|will|can) not (?:leave|miss|skip|drop|forget|omit)(?: out)? either(?: group| list| one| side)?"
    r"(?: out)?|"
    r"(?:do|did|will|can) not (?:leave|miss|skip|drop|forget|omit) the \w+ (?:out|off)(?: the list)?|"
    r"(?:do|did|will|can) not (?:leave|miss|skip|drop|forget|omit|rule) out (?:any|anyone|anybody|anything)|"
    r"without (?:missing|leaving out|skipping|dropping|omitting) (?:any|anything|anyone|anybody)(?: of them)?|"
    r"(?:leave|leaving) (?:nothing|none|nobody|no one|noone) (?:out|off)(?: the list)?|no exceptions|"
    r"(?:excluding|omitting|leaving out|skipping|missing) (?:no one|nobody|none)|"
    r"(?:with |and )?(?:nobody|no one|noone|nothing|none|not (?:a single|one)) ?(?:\S+ ){0,4}?"
    r"(?:(?:should|must|can|may|will|is|are) (?:not )?(?:be |go )?)?(?:missing|left out|left off|omitted|skipped)|"
    r"without (?:an )?(?:exceptions?|omissions?)|not just a (?:sample|few|subset)|"
    r"(?:do|did|please do) not forget(?: about)?(?= (?:the|their|its|any|to) ))(?!\w)"
)
#: A negated "un-" state is the state itself ("PRs that weren't left unapproved": approved), for the states whose
#: "un-" form the lexicon reads as their negation.
LITOTES = re.compile(
    r"(?<!\w)(?:not|never) (?:(?:be|been|left|remained|stayed|gone|go|went|get|got) ){0,2}"
    r"un(approved|resolved|merged|fixed|reviewed|implemented|addressed|solved|affected|mentioned|noticed|"
    r"reported|highlighted|discussed|shared)(?!\w)"
)
#: "Companies that didn't stay quiet about issues", "were not silent about the strengths": they raised them.
SPOKE_UP = re.compile(
    r"(?<!\w)(?:did|do|does|were|was|are|is|have|has|had) not (?:(?:stay|stayed|remain|remained|keep|kept|be|been)"
    r" )?(?:quiet|silent) (?:about|on)(?!\w)"
)
#: "… did not go without interruptions": it had them.
NOT_WITHOUT = re.compile(
    r"(?<!\w)(?:did|does|do|could|would)? ?(?:not|never) (?:go|goes|went|gone|pass|passed) without(?!\w)"
)
#: "Exclude any that weren't approved", "leaving out those that never got merged", "leave out the ones not
#: approved", "I don't need the ones that weren't approved": the items not in the state dropped, so only those in
#: it kept (a double negation: the state itself).
KEPT_BY_EXCLUSION = re.compile(
    r"(?<!\w)(?:exclude|excluding|leave out|leaving out|drop|dropping|skip|skipping|omit|omitting|ignore|ignoring|"
    r"filter out|filtering out|remove|removing|minus|not including|without|none of|not any of|not one of|nothing|"
    r"(?:i|we) (?:do|did) not (?:need|want|care about))"
    r"(?: (?:any|all|every|each|those|the)(?: \w+)?| ones| anything)? (?:(?:that|which|who)"
    r"(?: (?:were|was|are|is|have|has|had|got|did|do|does))? |(?<=ones |hose ))(?:not|never)"
    r"(?: (?:been|get|got|yet|ever))? (\w+)(?!\w)"
)
#: "Not the ones that weren't - just the approved links": the items asked set against the others with the state
#: left unsaid, which adds nothing the question does not say outright.
ELLIPTIC_CONTRAST = re.compile(
    r"(?<!\w)not (?:the ones|those|the \w+|any) (?:that|which|who) (?:were|was|are|is|did|do|does|have|has|had) not"
    r"(?=\s*(?:[-—,;]|$)|\s+(?:just|only|but)\b)"
)
#: "Got a min?", "have a sec -": the asker's opener, which asks for no minimum.
CHAT_OPENER = re.compile(r"(?<!\w)(?:got|have|has) (?:a|one) (?:min|minute|sec|second|moment)(?!\w)")
#: "I don't have the links to …", "we couldn't find which …": what the asker lacks is what is asked, no negation of
#: it.
ASKER_LACKS = re.compile(
    r"(?<!\w)(?:i|we) (?:do|did|does|could|can|have) not (?:have|know|find|see|locate|remember|recall|get)(?: yet)?"
    r"(?= (?:the|their|its|any|which|who|whom|what|where|how)(?!\w))"
)
#: "Still need to be merged and haven't been (yet)", "need merging but aren't merged yet": the need said again as
#: not yet done, which it means.
NEED_NOT_YET_DONE = re.compile(
    r"(?<!\w)(needs?|needed) (?:to be (\w+)|(\w+)ing) (?:and|but) (?:have|has|had|are|is|were|was) not"
    r"(?: been)?(?: \w+ed)?(?: yet)?(?!\w)(?! to )"  # "need to be closed and are not to be kept open": another
)
#: "Aren't open anymore", "no longer unresolved": closed, said through the open state's negation.
NO_LONGER_OPEN = re.compile(
    r"(?<!\w)(?:(?:are|is|were|was) not (?:open|unresolved|active|pending) (?:anymore|any more|any longer)|"
    r"(?:are|is|were|was) no longer (?:open|unresolved|active|pending))(?!\w)"
)
#: "In connection with X", "in relation to X": for X.
IN_CONNECTION = re.compile(r"(?<!\w)in (?:connection|relation) (?:with|to)(?!\w)")
#: "Not the ones without approval": the items with it, the other side set aside (a double negation).
NOT_THE_ONES_WITHOUT = re.compile(
    r"(?<!\w)(?:but )?not (?:the ones|those|the \w+|any|ones)(?: (?:that|which) (?:were|are|was|is|have|has|had))?"
    r" without(?: (?:an|a|any))?(?!\w)"
)
#: "Don't count unapproved ones", "not including the unresolved bugs": the items in the un-state dropped, so only
#: those in the state itself kept.
DROPPED_UNSTATE = re.compile(
    r"(?<!\w)(?:(?:do|did|does) not (?:count|include|list|want|need)|not (?:counting|including)|exclude|excluding|"
    r"leave out|leaving out|skip|skipping|omit|omitting|ignore|ignoring|minus)"
    r"(?: (?:any|all|every|the|those))? un(approved|resolved|merged|fixed|reviewed)(?: ones| \w+s?)?(?!\w)"
)
#: "Leaving aside the ones that were turned down", "excluding any that got rejected": the items in a negative
#: state dropped, so only those in its opposite kept (a double negation, as KEPT_BY_EXCLUSION reads).
DROPPED_NEGATIVE = re.compile(
    r"(?<!\w)(?:exclude|excluding|leave out|leaving out|leave aside|leaving aside|set aside|setting aside|"
    r"put aside|putting aside|drop|dropping|skip|skipping|omit|omitting|ignore|ignoring|filter out|filtering out|"
    r"minus|not counting|without)(?: (?:any|all|every|each|those|the)(?: \w+)?| ones)? (?:that|which)"
    r"(?: (?:were|was|got|have been|had been|been))? (?:turned down|rejected|declined|disapproved|unapproved)(?!\w)"
)
#: "IDs for both the authors and the key reviewers": "both" opening a listed pair after what it is for, which
#: asks for each ("who are both authors and reviewers" asks for those in both, and stays).
BOTH_LISTED = re.compile(r"(?<!\w)(for|of) both (?=(?:the|their|its) \w+(?: \w+)? and )")
#: "The authors and key reviewers both, …": "both" just after the plural pair it joins says again that both are
#: asked (a "both" before its pair may ask for the items in both, and stays).
BOTH_AFTER = re.compile(r"(\band\s+(?:[\w-]+\s+){0,3}[\w-]+s)\s+both(?!\w)")
#: "The authors and also the key reviewers", "I also need the reviewers": an item added to those asked, which
#: the question names itself ("… and also reported issues" joins two conditions: left as said).
ALSO_ADDING = re.compile(
    r"(?<!\w)(?:(and) also(?= (?:the|their|its|his|her) )|(i|we) also(?= (?:need|want|would like)(?!\w)))"
)
#: "Did eid_… open …": the act of opening (authorship), said with "did" and a named employee; never the state.
OPENED_BY = re.compile(r"(?<!\w)(did|does|do) (eid_[0-9a-f]+) open(?!\w)")
#: "closed rather than merged", "demos of the last version, as distinct from competitor demos": the second
#: side negated, as "not" says it (the contrasts in the lexicon then read it as restating the first).
CONTRASTING = re.compile(r"(?<!\w)(?:rather than|as distinct from|as opposed to|instead of)(?!\w)")
#: "What happened to 'X'?", "what's the latest on 'X'": its status asked (never the latest of a list).
STATUS_ASKED = re.compile(
    r"^(?:so |hey |and )?(?:what(?:'s| is| was)? the (?:latest|news|story|deal|update) (?:on|with|about)|"
    r"what(?: has| had| ever)? happened (?:with|to)|any (?:news|update) on)(?!\w)"
)
#: "Fixed or not?": a yes or no said with its alternative, which negates nothing.
OR_NOT = re.compile(r",?\s+or not(?=\s*(?:[?.!]|$))")
#: "Not just who wrote it but also who reviewed it": both, no negation.
NOT_ONLY = re.compile(r"(?<!\w)(?:(not (?:just|only|merely))|but also)(?!\w)")
#: "How do I find …", "how can we see …": a request for what follows, not a how question.
REQUEST = re.compile(
    r"(?<!\w)(?:how (?:do|can|could|would|should|might) (?:i|we|you|one) "
    r"(?:find|get|see|view|pull up|look up|list|check|access|fetch|retrieve)|"
    # asked as a doubt: "isn't there a list of …", "is there no place where I can find …"
    r"(?:is not|isnt|is|are not|arent) there (?:not |no )?(?:a |any |some )?"
    r"(?:list|way|place|overview|set|group|record)"
    r"(?: (?:of|where (?:i|we|you) can (?:find|see|get)|to (?:see|get|find)))?|"
    r"(?:can you |could you |please )?remind (?:me|us)(?: again)?(?: of)?)(?!\w)"
)
#: "I need …", "link me …" opening the whole question (a clause of its own, "… I want to know what's pending",
#: stays the asker's aside).
OPENING_REQUEST = re.compile(
    r"^(?:i|we) (?:need|want|would like)(?: to (?:know|see|find|get))?(?!\w)(?! to )|^(?:link|send|grab|fetch) me(?!\w)"
)
#: Auxiliaries before a question's subject ("which features did people ..."), as cue text spells them
#: (singularised: "does" -> "doe", "has" -> "ha").
AUXILIARIES = frozenset(
    {"did", "do", "doe", "does", "have", "ha", "has", "had", "were", "are", "will", "would", "could"}
)
#: Words after which "'s" is "has" or "is", not a possessive ("which company's got the most ...").
CONTRACTED_BEFORE = frozenset({"got", "gotten", "been", "had", "not", "never", "still", "the", "a", "an", "most"})
DETERMINERS = frozenset({"the", "our", "my", "your", "their", "any", "some"})
#: Where one clause of a question ends: sentence punctuation, a colon or semicolon, a bracket, a dash between
#: spaces, a comma before a space. ("For the board deck, which company ...": two clauses.)
CLAUSE_END = re.compile(r"[.?!;:()\[\]]+(?=\s|$)|[()\[\]]|\s[-–—]+\s|[—–]|,\s")


class Phrase:
    """A lexicon phrase, compiled on its first use, and the literal texts one of which any match must contain
    (None: no such text), so the regex runs only on questions that hold one: a question meets a few dozen of
    the lexicon's 400+, and a process asked one question compiles those alone."""

    def __init__(self, source: str, filler: str) -> None:
        self.source, self.filler = source, filler
        self.needs = needed_literals(source)

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return compile_phrase(self.source, self.filler)


@dataclass(frozen=True)
class Lexicon:
    cues: dict[str, tuple[Phrase, ...]]
    stop: frozenset[str]

    @cached_property
    def phrases(self) -> tuple[tuple[str, Phrase], ...]:
        """Every (cue, phrase), in lexicon order."""
        return tuple((cue, p) for cue, ps in self.cues.items() for p in ps)

    @cached_property
    def needing(self) -> dict[str | None, frozenset[int]]:
        """The positions in `phrases` of the phrases that need each literal (None: those that need none)."""
        index: dict[str | None, set[int]] = {}
        for i, (_, p) in enumerate(self.phrases):
            for lit in p.needs if p.needs is not None else (None,):
                index.setdefault(lit, set()).add(i)
        return {lit: frozenset(at) for lit, at in index.items()}

    def candidates(self, text: str) -> list[tuple[str, Phrase]]:
        """The phrases that may match the text, in lexicon order: one substring test per literal, shared by
        every phrase that needs it, so the regexes run only where they can match."""
        at = set(self.needing.get(None, ()))
        for lit, phrases in self.needing.items():
            if lit is not None and lit in text:
                at |= phrases
        return [self.phrases[i] for i in sorted(at)]


@dataclass
class Tagged:
    """A question's cue text, the plain word behind each of its tokens, and each cue's token spans."""

    tokens: list[str]
    words: list[str]
    spans: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    #: The clause (0, 1, ...) each token stands in (CLAUSE_END).
    clauses: list[int] = field(default_factory=list)
    #: Token positions the slots occupy (names, ids, roles, the document kind): read once per question.
    slots: set[int] = field(default_factory=set)
    #: Token positions an operator claims ("second", "how many", "other than X": kg/qa/operators.py): read by
    #: no row, left out of the free phrase.
    placed: set[int] = field(default_factory=set)
    #: Slot kinds the answer is kept to after the row has read the rest (a role or a location the row itself
    #: does not read: kg/qa/answer.py `_kept_to`): every row counts them as read.
    filters: frozenset[str] = frozenset()
    #: Cues an operator's named items carry ("did eid_A approve more PRs than eid_B": people compared), which
    #: say what is asked as the question's own words would.
    implied: frozenset[str] = frozenset()
    #: The clauses that hold a contrast ("…, as opposed to the previous one"): they say what the answer is not,
    #: so they ask, never set the scene.
    contrasts: set[int] = field(default_factory=set)
    #: Token positions of a contrast the question negates with its "not" ("the weaknesses, not the strengths"):
    #: they say again what the other side of the contrast says, so every row counts them as read.
    negated: set[int] = field(default_factory=set)
    #: Cues that ask for an answer type, said declined ("not the links", "I don't need their names"): the
    #: question says which answer it does not want.
    declined: set[str] = field(default_factory=set)

    @property
    def found(self) -> set[str]:
        return set(self.spans)

    def covered(self, cues: set[str]) -> set[int]:
        return {i for cue in cues for s, e in self.spans.get(cue, ()) for i in range(s, e)}

    def inside_other(self, cue: str) -> bool:
        """Every match of the cue lies inside a longer match of another cue ("resolved" in "not resolved")."""
        return all(
            any(o != cue and os <= s and e <= oe and (oe - os) > (e - s) for o, spans in self.spans.items()
                for os, oe in spans)
            for s, e in self.spans.get(cue, ())
        )  # fmt: skip

    def phrase(self, cue: str) -> str:
        """The words the first match of a cue covers (for --explain)."""
        s, e = self.spans[cue][0]
        return " ".join(self.tokens[s:e])


def cue_words(norm: str) -> list[str]:
    """The plain words of normalised text, with negations spelled out and possessives, apostrophes,
    hyphens, slashes and ampersands removed: the word sequence both cue text and residue are read from."""
    return list(cue_words_of(norm))


@lru_cache(maxsize=65536)
def cue_words_of(norm: str) -> tuple[str, ...]:
    """`cue_words`, kept per text: the same text is read by every layer of one question."""
    text = STATUS_ASKED.sub("what is the status of", OR_NOT.sub("", norm)).replace("n't", " not")
    text = WOULD_SHORT.sub(" would", text)  # "we'd shipped": no word "wed"
    text = IRREGULAR_NOT_WORD.sub(lambda m: IRREGULAR_NOT[m.group(1)], text)
    text = BARE_NOT.sub(r"\1 not", text.replace("ca not", "can not").replace("wo not", "will not"))
    text = CHAT_OPENER.sub("", text)
    text = ASKER_LACKS.sub("find", text)  # "I don't have the links to X": find them
    text = HEDGE.sub("unsure", text)  # the asker's doubt, no negation of what is asked
    text = IN_ORDER_TO.sub("to", text)  # "the revisions recommended in order to improve X"
    text = EVERY_ONE.sub("all", text)  # "don't leave any out": every item
    text = LITOTES.sub(r"\1", text)  # "not left unapproved": approved
    text = SPOKE_UP.sub("raised", text)  # "didn't stay quiet about the issues": raised them
    text = NOT_WITHOUT.sub("had", text)  # "did not go without interruptions": had them
    text = ELLIPTIC_CONTRAST.sub("", text)
    text = NEED_NOT_YET_DONE.sub(lambda m: f"{m.group(1)} to be {m.group(2) or m.group(3) + 'ed'}", text)  # to merge
    text = NO_LONGER_OPEN.sub("are resolved", text)  # "aren't open anymore": resolved
    text = IN_CONNECTION.sub("for", text)  # "demos shared in connection with X": for X
    text = NOT_THE_ONES_WITHOUT.sub("only with", text)  # "not the ones without approval": only with approval
    text = DROPPED_UNSTATE.sub(r"only \1", text)  # "don't count unapproved ones": only approved
    text = KEPT_BY_EXCLUSION.sub(r"only \1", text)  # "exclude any that were not approved": only approved
    text = DROPPED_NEGATIVE.sub("only approved", text)  # "leaving aside the ones turned down": only approved
    text = CONTRASTING.sub("not", text)  # "closed rather than merged": closed, not merged
    text = DOUBLE_NOT.sub("", text)  # "approved, rather than not approved": approved, approved
    text = OPENED_BY.sub(r"\1 \2 opened", text)  # "did eid_… open more PRs": opened them
    text = BOTH_LISTED.sub(r"\1 ", BOTH_AFTER.sub(r"\1", text))  # "authors and key reviewers both": the two asked
    text = ALSO_ADDING.sub(lambda m: m.group(1) or m.group(2), text)  # "the authors and also the reviewers"
    text = NOT_ONLY.sub(lambda m: "" if m.group(1) else "and", text)  # "not just X but also Y": X and Y
    text = REQUEST.sub("find", text)  # "how do I find X": find X
    text = ARE_SHORT.sub(" are", text)  # "we're" is no "were": a statement, not a yes/no question
    text = POSSESSIVE.sub("", text).replace("'", "")
    return tuple(PLAIN_WORD.findall(text))


def phrase_words(phrase: str) -> tuple[set[str], set[str]]:
    """The literal words of a lexicon phrase and the stems of its `word*` words (its `!`, `^`, `~` and `_`
    marks left out): what the respeller corrects towards (kg/qa/spelling.py)."""
    words: set[str] = set()
    stems: set[str] = set()
    for token in phrase.split():
        for word in token.lstrip("!^").split("|"):
            if word.endswith("*"):
                stems.add(word[:-1])
            elif word.isalpha():
                words.add(word)
    return words, stems


def _literals(word: str) -> list[str]:
    """The texts a phrase word's alternatives (split on '|') stand for: each normalised like the cue text,
    or, ending in '*', the prefix as written."""
    return [
        alt[:-1] if alt.endswith("*") else " ".join(singular_text(w) for w in cue_words(alt)) for alt in word.split("|")
    ]


def _word_pattern(word: str) -> str:
    """One word of a phrase as a regex: one of its literals, '*' ones as prefixes."""
    alts = word.split("|")
    body = "|".join(
        re.escape(lit) + (r"\w*" if a.endswith("*") else "") for a, lit in zip(alts, _literals(word), strict=True)
    )
    return f"(?:{body})"


def needed_literals(phrase: str) -> frozenset[str] | None:
    """The texts one of which every match of the phrase contains: its first word's literals (None when the
    phrase opens with a gap or a look-ahead, which match anywhere)."""
    words = phrase.lstrip("^").split()
    return None if not words or words[0] in ("~", "_") or words[0].startswith("!") else frozenset(_literals(words[0]))


#: Negations a phrase's gap does not pass over unless the phrase says a negation itself.
GAP_NEGATIONS = frozenset({"not", "no", "never", "none", "nobody", "without", "nothing", "neither", "nor"})


def compile_phrase(phrase: str, filler: str) -> re.Pattern[str]:
    """One lexicon phrase -> a regex over cue text (see the lexicon's header for the syntax)."""
    anchored = phrase.startswith("^")
    out, lookahead, space = "", "", False
    # a gap never passes over a negation the phrase does not say itself: "were ~ merged" is not "were not merged"
    said_negation = bool(GAP_NEGATIONS & set(phrase.replace("|", " ").split()))
    any_word = r"\S+" if said_negation else rf"(?!(?:{'|'.join(sorted(GAP_NEGATIONS))})(?!\S))\S+"
    for word in phrase.lstrip("^").split():
        if word.startswith("!"):
            lookahead += rf"(?! {_word_pattern(word[1:])}(?!\w))"
        elif word == "~*":  # a long gap that passes negations: the phrase's own closing words anchor it
            out += rf" (?:\S+ ){{0,{LONG_GAP_WORDS}}}"
            space = False
        elif word in ("~", "_"):
            words = any_word if word == "~" else f"(?:{filler})"
            gap = rf"(?:{words} ){{0,{GAP_WORDS}}}"
            out += gap if out.endswith(f" ){{0,{GAP_WORDS}}}") else " " + gap  # "~ ~": a longer gap
            space = False
        else:
            out += (" " if space else "") + _word_pattern(word)
            space = True
    return re.compile(("^" if anchored else r"(?<!\w)") + out + r"(?!\w)" + lookahead)


@cache
def lexicon() -> Lexicon:
    data = lexicon_data()
    filler = "|".join(re.escape(singular_text(w)) for w in data["filler"]["words"])
    cues = {name: tuple(Phrase(p, filler) for p in ps) for name, ps in data["cues"].items()}
    stop = frozenset(singular_text(w) for w in data["stop"]["words"])
    return Lexicon(cues, stop)


#: Words opening the asker's condition or purpose before the clause that asks ("If the customer asks what we held
#: back: which …", "So I don't tell a customer we fixed something we didn't: which …").
CONDITION_OPENERS = frozenset({"if", "so", "unless"})
#: Words that open the clause that asks.
ASKING_OPENERS = frozenset({"which", "what", "who", "whom", "whose", "how"})


def condition_clause(tagged: Tagged) -> set[int]:
    """The positions of a first clause the asker's condition or purpose opens, when a later clause is opened by a
    question word and the first names nothing (no slot): it sets the scene, its words carry no cue."""
    tokens, clauses = tagged.tokens, tagged.clauses
    if not tokens or tokens[0] not in CONDITION_OPENERS or tokens[1:2] == ["which"]:
        return set()
    first = {i for i, c in enumerate(clauses) if c == clauses[0]}
    asks = any(
        tokens[i] in ASKING_OPENERS and clauses[i] != clauses[0] and clauses[i - 1] != clauses[i]
        for i in range(1, len(tokens))
    )
    return first if asks and not first & tagged.slots else set()


def tag(q: Question) -> Tagged:
    """The cues the question's words carry, each with the token spans it covers."""
    words = cue_words(q.norm)
    tokens = [singular_text(w) for w in words]
    text = " ".join(tokens)
    starts = [m.start() for m in re.finditer(r"\S+", text)]
    names = name_tokens(q, tokens)
    kinds = list(DOC_KINDS[q.doc_kind]) if q.doc_kind else []
    slots = names | occupied([*q.roles, *kinds, *q.repo_words], tokens)
    tagged = Tagged(tokens, words, clauses=clause_ids(q.text, words), slots=slots, contrasts=contrast_clauses(q.text))
    conditions = condition_clause(tagged)
    found: dict[str, set[tuple[int, int]]] = {}
    for name, phrase in lexicon().candidates(text):
        for m in phrase.pattern.finditer(text):
            span = (_token_at(starts, m.start()), _token_at(starts, max(m.end() - 1, m.start())) + 1)
            if not set(range(*span)) <= names and not set(range(*span)) <= conditions:  # a cue inside a name
                # ("DemoForce") or the asker's condition ("If the customer asks what we held back: …") is no cue
                found.setdefault(name, set()).add(span)
    found["person"] = {s for s in found.get("person", ()) if not subject_of_auxiliary(tokens, s)}
    subjects = {s for s in found["person"] if relative_subject(tokens, s)}  # described by, placed, never asked
    found["person"] -= subjects
    found["clause_subject"] = subjects
    roles = occupied(q.roles, tokens)  # "the engineering leads on X": a role's word, no "leads on" superlative
    found["most"] = {s for s in found.get("most", ()) if s[0] not in roles}
    found = without_borrowed_negation(found, tokens)
    owners = possessive_tokens(q.norm)
    found["company"] = {s for s in found.get("company", ()) if not owner_not_asked(tokens, owners, s)}
    tagged.spans = {name: sorted(spans) for name, spans in found.items() if spans}
    flip_double_negations(tagged)
    tagged.negated = negated_contrast(tagged)
    cued = {s for spans in tagged.spans.values() for s, _ in spans}  # where a cue's words begin ("demo")
    for cue in DECLINABLE:  # "I don't need the demo links, just their IDs": the links are not asked
        for span in list(tagged.spans.get(cue, ())):
            if at := declined_at(tokens, tagged.clauses, span, cued):
                tagged.spans[cue].remove(span)
                tagged.negated |= at
                tagged.declined.add(cue)
    tagged.spans = {
        c: spans for c, spans in tagged.spans.items() if not all(set(range(*x)) <= tagged.negated for x in spans)
    }
    return tagged


def without_borrowed_negation(
    found: dict[str, set[tuple[int, int]]], tokens: list[str]
) -> dict[str, set[tuple[int, int]]]:
    """Cue matches that open on the negation of a negated superlative ("no one beats on approved PRs": "no one"
    says the most, so it negates no "approved" after it): each negation serves one cue."""
    most = found.get("most", set())
    opens = {s for ms, me in most for s in range(ms, me) if tokens[s] in NEGATING | {"nobody", "noone"}}
    ends = {s: max(me for ms, me in most if ms <= s < me) for s in opens}
    return {
        cue: {(s, e) for s, e in spans if cue == "most" or s not in opens or e <= ends[s]}
        for cue, spans in found.items()
    }


#: Words between a negation and what it negates ("not the strengths", "none of the unapproved", "not yet closed").
ARTICLES = frozenset(
    {
        "the",
        "a",
        "an",
        "any",
        "their",
        "its",
        "our",
        "of",
        "yet",
        "been",
        "be",
        "being",
        "ever",
        "so",
        "that",
        "very",
        "really",
        "particularly",
        "all",
        "too",
        "after",  # "I'm not after competitor demos"
    }
)
NEGATING = frozenset({"not", "no", "never", "none"})


def negated_span(tokens: list[str], span: tuple[int, int]) -> set[int]:
    """The span with the negation just before it, past articles ("not the strengths"); empty when none."""
    at = span[0] - 1
    while at >= 0 and tokens[at] in ARTICLES:
        at -= 1
    if at >= 1 and tokens[at] not in NEGATING and tokens[at + 1 : at + 2] == ["of"]:
        at -= 1  # "not demos of competitor products": one noun and its "of" between
        while at >= 0 and tokens[at] in ARTICLES:
            at -= 1
    return set(range(at, span[1])) if at >= 0 and tokens[at] in NEGATING else set()


#: The cues that name an answer the asker may decline ("not the demo links", "no need for names").
DECLINABLE = ("link", "person", "company", "pr", "customer_id")
#: Words that decline what follows them: "not", "don't need|want", "no need for".
DECLINING = (("not",), ("not", "need"), ("not", "want"), ("not", "require"), ("no", "need", "for"))
#: Words after a noun that qualify it ("people in other roles", "members who only discussed"): a restriction.
QUALIFYING = frozenset(
    {"in", "on", "at", "from", "with", "who", "whom", "that", "which", "of", "outside", "under", "by"}
)
#: The determiners a declined noun may have ("not *their* employee ids").
DETERMINING = DETERMINERS | {"a", "an", "its", "his", "her", "those", "these"}
#: Words for a person that stand for something already said ("not the current one", "teams who …"): never a
#: declined answer.
STAND_INS = frozenset({"one", "ones", "who", "whom", "whoever", "someone", "somebody", "anyone", "anybody"})


def declined_at(tokens: list[str], clauses: list[int], span: tuple[int, int], cued: set[int]) -> set[int]:
    """The span with the words that decline it as an answer ("not the demo links", "I do not need their
    employee ids", "no need for the names"): the noun, with at most one word before it that opens a cue ("demo"),
    right after the declining words, in one clause; empty when it is not declined. A verb form ("not linked to a
    bug", "not approved employee") is a condition, and a noun something qualifies ("not people in other roles") a
    restriction: neither is declined."""
    said = tokens[span[0] : span[1]]
    qualified = span[1] < len(tokens) and tokens[span[1]] in QUALIFYING
    if any(t.endswith(("ed", "ing")) for t in said) or set(said) <= STAND_INS or qualified:
        return set()
    at = past_determiners(tokens, span[0])
    opening = declining_before(tokens, at)
    if opening is None and at == span[0] and at - 1 in cued:  # one word that opens a cue between: "demo"
        modifier = tokens[at - 1]
        if not modifier.endswith(("ed", "ing")) and modifier not in NEGATING:
            opening = declining_before(tokens, past_determiners(tokens, at - 1))
    words = set(range(opening, span[1])) if opening is not None else set()
    return words if len({clauses[i] for i in words if i < len(clauses)}) == 1 else set()


def past_determiners(tokens: list[str], at: int) -> int:
    """Where the determiners just before `at` begin ("not *the* links")."""
    while at > 0 and tokens[at - 1] in DETERMINING:
        at -= 1
    return at


def declining_before(tokens: list[str], at: int) -> int | None:
    """Where the longest declining phrase ending just before `at` begins; None when none does."""
    found = [len(d) for d in DECLINING if tuple(tokens[max(0, at - len(d)) : at]) == d]
    return at - max(found) if found else None


#: Words that may stand between a negation and the negative word it negates ("did not go unapproved").
LINKING = frozenset({"go", "gone", "went", "stay", "stayed", "remain", "remained", "left", "be", "been", "get", "got"})


def flip_double_negations(tagged: Tagged) -> None:
    """A one-word negative ("unapproved") or one said with a verb of failing ("fail to get approved") said
    negated ("did not go unapproved", "didn't fail to get approved") is its opposite's cue, the negation with it
    (the lexicon's [contrasts] double_negations and failing)."""
    tokens = tagged.tokens
    failing = set(lexicon_data()["contrasts"]["failing"])
    for negative, opposite in lexicon_data()["contrasts"]["double_negations"]:
        for s, e in list(tagged.spans.get(negative, [])):
            at = s - 1
            while at >= 0 and tokens[at] in LINKING and s - at <= 2:
                at -= 1
            if tokens[s] in NEGATING and s + 1 < e and tokens[s + 1] in failing:  # "not fail to get approved"
                at = s
            worded = (e - s == 1 and tokens[s].startswith(("un", "non"))) or tokens[at + 1] in failing
            if not worded or at < 0 or tokens[at] not in NEGATING:
                continue
            tagged.spans[negative] = [x for x in tagged.spans[negative] if x != (s, e)]
            kept = [x for x in tagged.spans.get(opposite, []) if x != (s, e)]
            tagged.spans[opposite] = sorted({*kept, (at, e)})
    tagged.spans = {c: spans for c, spans in tagged.spans.items() if spans}


def negated_contrast(tagged: Tagged) -> set[int]:
    """The words of one side of a contrast (the lexicon's [contrasts]: strengths / weaknesses, praise / issues,
    customers / QA) that the question only ever says negated while it says the other side plainly ("the
    weaknesses, not the strengths", "issues QA reported, not customer ones", "issues (not praise)"): the
    negated side restates the plain one and is no cue of its own."""
    out: set[int] = set()
    for pair in lexicon_data()["contrasts"]["pairs"]:
        for this, other in (pair, pair[::-1]):
            spans, others = tagged.spans.get(this, []), tagged.spans.get(other, [])
            negated = [negated_span(tagged.tokens, x) for x in spans]
            plain = [x for x in others if not negated_span(tagged.tokens, x)]
            if spans and all(negated) and any(not set(range(*x)) & set().union(*negated) for x in plain):
                out |= set().union(*negated)  # the plain side said apart ("not approved" is no plain "approved")
    for this, other in lexicon_data()["contrasts"]["negated_states"]:
        spans, plain = tagged.spans.get(this, []), tagged.spans.get(other, [])
        negated = [negated_span(tagged.tokens, x) or negated_inside(tagged.tokens, x) for x in spans]
        if spans and all(negated) and any(not set(range(*x)) & set().union(*negated) for x in plain):
            out |= set().union(*negated)
    return out


def negated_inside(tokens: list[str], span: tuple[int, int]) -> set[int]:
    """The span when a negation stands inside it ("are not merged": a state's words around the negation)."""
    return set(range(*span)) if NEGATING & set(tokens[span[0] : span[1]]) else set()


def possessive_tokens(norm: str) -> set[int]:
    """Positions of the cue-text tokens that were possessives ("customers' strengths", "the customer's
    complaints"), word by word as cue_words reads them; none when that reading does not line up."""
    if "'" not in norm:
        return set()
    out: set[int] = set()
    at = 0
    words = norm.split()
    for i, word in enumerate(words):
        after = words[i + 1] if i + 1 < len(words) else ""
        tokens = cue_words(word)
        if tokens and (word.endswith("s'") or (word.endswith("'s") and after not in CONTRACTED_BEFORE)):
            out.add(at + len(tokens) - 1)
        at += len(tokens)
    return out if at == len(cue_words(norm)) else set()


def owner_not_asked(tokens: list[str], owners: set[int], span: tuple[int, int]) -> bool:
    """A company word in the possessive is what the asked thing belongs to ("customers' highlighted strengths"),
    unless a question word asks for it ("which customer's bugs ...")."""
    asked = {tokens[i] for i in range(max(0, span[0] - 1), span[1])} & {"which", "what", "whose"}
    return span[1] - 1 in owners and not asked


#: Irregular past forms that may follow the subject of such a clause.
CLAUSE_VERBS = frozenset({"built", "made", "wrote", "said", "brought", "took", "gave", "put", "ran", "saw", "sent"})
#: Nouns of the items a question may ask for, which a person word right after begins a relative clause of.
ITEM_NOUNS = frozenset({"feature", "bug", "issue", "pr", "prs", "document", "doc", "competitor", "product", "demo"})
#: How many words before a "that" or "which" the item noun of its clause may stand ("features for X that …").
RELATIVE_REACH = 5


def subject_of_auxiliary(tokens: list[str], span: tuple[int, int]) -> bool:
    """A person word right after an auxiliary ("which features did people talk about", "what did the engineers
    build"): the subject of the question, not what it asks for."""
    before = tokens[max(0, span[0] - 2) : span[0]]
    if before and before[-1] in DETERMINERS:
        before = before[:-1]
    return bool(before) and before[-1] in AUXILIARIES and tokens[span[0]] not in ("who", "whom")


def relative_subject(tokens: list[str], span: tuple[int, int]) -> bool:
    """A person word between an item's noun and a verb ("features people talked about", "the demos teammates
    posted"): the subject of a clause describing the items, not what is asked."""
    before, after = tokens[span[0] - 1 : span[0]], tokens[span[1] : span[1] + 1]
    verb = bool(after) and (after[0].endswith("ed") or after[0] in CLAUSE_VERBS)
    if before[:1] in (["that"], ["which"]):  # "features for X that people discussed"
        before = [w for w in tokens[max(0, span[0] - RELATIVE_REACH) : span[0] - 1] if w in ITEM_NOUNS][-1:]
    return bool(before) and before[0] in ITEM_NOUNS and verb


def contrast_clauses(text: str) -> set[int]:
    """The clauses of the raw text (as `clause_ids` numbers them) that hold a contrasting phrase."""
    parts = CLAUSE_END.split(text.rstrip(".?! "))
    return {n for n, part in enumerate(parts) if CONTRASTING.search(normalise(part))} if len(parts) > 1 else set()


def clause_ids(text: str, words: list[str]) -> list[int]:
    """The clause of the raw text each word stands in: the words of each clause, read as the question's are,
    matched in order (a word the question's text no longer holds, like a time phrase, is skipped over)."""
    parts = CLAUSE_END.split(text.rstrip(".?! "))
    if len(parts) == 1:
        return [0] * len(words)
    stream = [(number, word) for number, part in enumerate(parts) for word in cue_words(spelled_out(normalise(part)))]
    out: list[int] = []
    at = 0
    for word in words:
        k = next((k for k in range(at, len(stream)) if stream[k][1] == word), None)
        if k is None:
            out.append(out[-1] if out else 0)
        else:
            out.append(stream[k][0])
            at = k + 1
    return out


def _token_at(starts: list[int], offset: int) -> int:
    """The token an offset of the cue text falls in (`starts`: each token's first offset, ascending)."""
    return max(bisect.bisect_right(starts, offset) - 1, 0)


def occupied(names: list[str], tokens: list[str]) -> set[int]:
    """Token positions where any of the names occurs, word for word."""
    covered: set[int] = set()
    for name in names:
        seq = [singular_text(w) for w in cue_words(name.casefold())]
        for i in range(len(tokens) - len(seq) + 1):
            if seq and tokens[i : i + len(seq)] == seq:
                covered.update(range(i, i + len(seq)))
    return covered


def name_tokens(q: Question, tokens: list[str]) -> set[int]:
    """Where the question names a product, a company, an id or a place: words that are names, not cues."""
    return occupied([q.product or "", *q.companies, *q.eids, *q.customer_ids, *location_forms(q.locations)], tokens)


def residue_positions(tagged: Tagged, used: set[str]) -> list[int]:
    """The positions of the plain words left once the slots, the cues `used` and the stop words are taken out."""
    covered = tagged.slots | tagged.placed | tagged.covered(used)
    stop = lexicon().stop
    return [i for i, t in enumerate(tagged.tokens) if i not in covered and t not in stop]
