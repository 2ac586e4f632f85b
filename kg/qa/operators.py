"""The operators people add to a question ("how many", "other than X", "is X among ..."), composed over any
intent: the operator's words are found here, the rest of the question (the core) is read by whatever reader
answers it, and the operator is applied to that reading's answer items, with its own evidence or proof.

Each operator is data (`[operators]` in kg/qa/lexicon.toml: the word sequences that say it) and one small
function over the core's Answer. An operator the core cannot carry (excluding an item from a "most" answer,
which needs the ranked list, not the top) makes the answer uncertain, naming the words; a "why" or "how"
question no intent answers is unsupported. Words of an operator nobody lists here ("second", "fewest",
"before March") are left to the reading's word account (kg/qa/reading.py): they are placed by nothing, so the
reading is uncertain and names them, never answered as the plain question.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from kg.qa.cues import clause_ids, cue_words, occupied, tag
from kg.qa.question import Question, lexicon_data, quoted_titles
from kg.qa.time import CREATION_VERBS, Window, window_of
from kg.text import singular_text

if TYPE_CHECKING:
    from kg.qa.answer import Answer
    from kg.query.people import People

#: Auxiliaries that open a yes/no question ("Did eid_… review …?", "Is BlueWave among …?"), as cue text.
YES_NO_OPENERS = frozenset({"is", "are", "wa", "was", "were", "did", "doe", "does", "do", "ha", "has", "have", "had"})
#: A statement asked as a yes or no by its tag ("eid_… was one of them, right?").
TAG_QUESTION = re.compile(
    r"[,\s]\s*(?:right|correct|true|is that (?:right|correct|so)|isn'?t (?:it|that so)|or not|yes or no|true or false)"
    r"\s*\?+\s*$",
    re.I,
)
#: Verbs after which "whether" (or "if") opens the yes or no asked ("can you confirm whether …", "check if …").
CONFIRMING = frozenset({"confirm", "check", "verify", "know", "tell", "see", "ask", "wondering", "wonder", "sure"})
#: Verbs after which "that" opens a statement to check ("can you confirm that eid_… approved …").
CONFIRMING_THAT = frozenset({"confirm", "check", "verify"})
#: Words after an ordinal that make it a place in a ranking ("second most", "third highest", "2nd place").
RANK_WORDS = frozenset(
    {"most", "highest", "largest", "biggest", "greatest", "top", "place", "best", "fewest", "least", "lowest", "max"}
)
#: Words after a place that say what it ranks by, with no ranking word ("second for resolved bugs", "the
#: runner-up in approvals"): the most is implied.
PLACE_IN = frozenset({"for", "in", "on", "by"})
#: Words that pair two named items for a comparison said without "than" ("eid_A or eid_B", "between A and B").
PAIRING = frozenset({"or", "and", "between", "comparing", "versus", "vs"})
#: Words that may stand between a yes/no's opening and the item it asks about ("Is the 'X' issue …").
ARTICLES = frozenset({"the", "a", "an"})
#: Words that may open a clause before its question word ("…, and why was it reverted?").
CONJUNCTIONS = frozenset({"and", "but", "or", "also", "plus"})
#: Answer types whose answer is a list of items an operator can count, drop from or look up (a "name" is an
#: ontology reading's value: a title, a label, a link).
ITEM_TYPES = frozenset({"person", "company", "pr", "url", "name"})


@dataclass(frozen=True)
class Operator:
    """An operator found in a question: its kind, the token positions its words (and its named item) take,
    how it is shown after the core's reading, and the named item it is about."""

    kind: str
    positions: frozenset[int]
    shown: str
    item: str | None = None
    #: The slot kind the item fills (company, eid), so a core row that reads that slot is known.
    slot: str | None = None
    #: Cues the named item carries for the core's reading (an employee asked about is a person).
    cues: frozenset[str] = frozenset()
    #: For a ranking: the place asked for (1: the most), how many places ("top 3"), fewest instead of most;
    #: for a comparison, the second item.
    place: int = 1
    top: int = 1
    fewest: bool = False
    #: a fewest read among everyone of a kind the question names ("of the engineers who opened PRs"), which
    #: holds those with none
    universe: bool = False
    #: a fewest read among those with at least one, as the question says ("among engineers who resolved any")
    among_any: bool = False
    #: how many items a ranking passes over first ("after the top two")
    skip: int = 0
    other: str | None = None
    #: for a count, the noun said just after it ("how many versions"): what the items counted must be
    counted: str | None = None
    #: a comparison said as a choice ("did A or B resolve more"): it asks which, not yes or no
    choice: bool = False
    #: further items an exclusion names beside the first ("besides eid_A and eid_B")
    also: tuple[str, ...] = ()
    #: a window of events the items are kept to ("opened in 2027"), and whether a creation verb says it
    window: Window | None = None
    created: bool = False
    #: a count asked with its items too ("how many …, and what are they?")
    listed: bool = False
    #: a count asked for each item of a kind ("how many bugs does each company have"): a breakdown
    per: str | None = None

    @property
    def ranks(self) -> bool:
        """The operator reads the ranked rows, not the core's top ones."""
        return self.kind in ("rank", "compare")

    def to_json(self, core: str = "") -> dict[str, Any]:
        return {
            "kind": self.kind,
            "shown": self.shown,
            **({"item": self.item} if self.item else {}),
            **({"reading": f"{core} → {self.shown}"} if core else {}),
        }


@cache
def phrases() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Each operator kind's word sequences, as cue-text tokens (singularised), longest first; a phrase written
    with a leading "^" starts with the token "^": it is said only at the start of the question. A word written
    "a|b" is either word: the phrase stands for one sequence per choice."""
    table = lexicon_data()["operators"]
    return {
        kind: tuple(
            sorted(
                (("^",) * p.startswith("^") + phrase_tokens(one) for p in ps for one in alternatives(p)),
                key=len,
                reverse=True,
            )
        )
        for kind, ps in table.items()
        if kind not in ("exclude_around", "exclude_restated", "count_restated", "yes_no_restated")
    }


#: The time operators: the phrase said before the item kind, the phrase said after it, and how it is shown.
IN_TIME = (("latest", "latest_after", "the newest"), ("earliest", "earliest_after", "the oldest"))
#: How many words may stand between a time word and the item kind it is said of ("the latest approved PR").
TIME_REACH = 3


def in_time(tokens: list[str]) -> Operator | None:
    """The newest or oldest of the items asked for ("the latest approved PR", "which bug channel was created
    first"): a time word said of an item kind that has a creation time, just before it or as its verb's adverb
    after it. A time word of anything else ("the last month", "first-week hire") is no such operator, nor one
    said where people are asked ("who was in the first planning meeting": the meeting is described, the people
    are the answer)."""
    if tokens[:1] in (["who"], ["whom"]):
        return None
    kinds = phrases()["time_kinds"]

    def kind_at(at: int) -> bool:
        return any(matched(tokens, at, k) is not None for k in kinds)

    for kind, after, shown in IN_TIME:
        for i in range(len(tokens)):
            for seq in phrases()[kind]:
                end = matched(tokens, i, seq)
                if end is not None and any(kind_at(j) for j in range(end, min(end + TIME_REACH, len(tokens)))):
                    return Operator(kind, frozenset(range(i, end)), shown)
                if end is not None and predicative(tokens, i) and any(kind_at(j) for j in range(i)):
                    return Operator(kind, frozenset(range(i - 2, end)), shown)  # "which X PR is the newest"
            for seq in phrases()[after]:
                end = matched(tokens, i, seq)
                near = range(max(0, i - TIME_REACH - 1), i)
                if end is not None and any(kind_at(j) for j in (near if not asks_which(tokens, i) else range(i))):
                    return Operator(kind, frozenset(range(i, end)) - {i}, shown)  # the verb stays the core's
    return None


def predicative(tokens: list[str], at: int) -> bool:
    """The time word said of the item asked as its predicate: "… is the newest", "… was the first"."""
    return at >= 2 and tokens[at - 1] == "the" and tokens[at - 2] in ("is", "was", "are", "were")


def asks_which(tokens: list[str], at: int) -> bool:
    """The verb of the time word follows "which (one) was|is" ("Of the approved PRs …, which was opened most
    recently"): the items named anywhere before are those asked."""
    before = [t for t in tokens[max(0, at - 3) : at] if t != "one"]
    return before[-2:] in (["which", "was"], ["which", "is"], ["which", "were"], ["which", "are"])


def in_window(q: Question, tokens: list[str]) -> Operator | None:
    """A window of events the question keeps its items to ("PRs opened in 2027", "bugs reported in the first
    half of 2026"), said by a creation verb just before it, or by none (then no creation time may answer it)."""
    window = window_of(q.norm)
    if window is None:
        return None
    said = phrase_tokens(window.phrase)
    at = next((i for i in range(len(tokens)) if matched(tokens, i, said) is not None), None)
    if at is None:
        return None
    created = bool(CREATION_VERBS & set(tokens[max(0, at - 2) : at]))
    return Operator("window", frozenset(range(at, at + len(said))), window.phrase, window=window, created=created)


def kept_in_window(op: Operator, core: Answer, times: dict[str, str]) -> Answer:
    """The core's items created in the window: none left is absent, each item's creation time the proof (the
    core's answer is every item that fits the rest); an item with no one creation time, or a window said of
    another event than creation ("merged in 2027"), leaves the reading uncertain."""
    shown = timed_shown(op, core)
    items = core.answer if isinstance(core.answer, list) else []
    if core.outcome != "answer" or op.window is None:
        return replace(core, operator=shown)
    if not op.created:
        return uncertain(core, shown, f"'{op.shown}' is said of no creation, and only when items were made is read")
    if (why := untimed(op, items, times)) or not items:
        return uncertain(core, shown, why or f"'{op.shown}' keeps nothing of an answer with no items")
    kept = [x for x in items if op.window.holds(times[str(x)])]
    dates = {str(x): times[str(x)] for x in items}
    shown = {**shown, "created": dates}
    if not kept:
        result = "; ".join(f"{x} created {d}" for x, d in sorted(dates.items(), key=lambda kv: kv[1]))
        return emptied(core, shown, result, f"none of the {len(items)} items was created {op.shown}")
    return replace(core, answer=kept, operator=shown)


#: Words between a count and its noun ("how many different companies").
COUNT_FILLER = frozenset({"different", "distinct", "unique", "separate", "total", "of", "the"})


#: The items of an answer type, in words.
KIND_WORDS = {"person": "people", "company": "companies", "pr": "PRs", "url": "links", "content": "bugs or lines"}
#: Words that ask a count for every item of a kind ("each company", "per engineer", "for every reviewer").
PER_WORDS = frozenset({"each", "every", "per"})


def per_item(tokens: list[str], start: int) -> str | None:
    """The noun a count is asked for each of, after the count's words ("how many bugs does each company
    have"): a count per item, which is no one number."""
    return next(
        (
            tokens[i + 1]
            for i in range(start, len(tokens) - 1)
            if tokens[i] in PER_WORDS and tokens[i + 1] in counted_kinds()
        ),
        None,
    )


@cache
def counted_kinds() -> dict[str, str]:
    """The nouns a count may name, each with the answer type its items must have (lexicon `count_kinds`)."""
    table = lexicon_data()["count_kinds"]
    return {singular_text(noun): kind for kind, nouns in table.items() for noun in nouns}


def alternatives(phrase: str) -> list[str]:
    """The phrases a phrase with "a|b" words stands for, one per choice of each such word."""
    words = [w.split("|") for w in phrase.lstrip("^").split()]
    return [" ".join(choice) for choice in itertools.product(*words)]


def phrase_tokens(phrase: str) -> tuple[str, ...]:
    """An operator phrase as cue-text tokens, its "~" gaps kept."""
    return tuple(t for w in phrase.split() for t in (("~",) if w == "~" else map(singular_text, cue_words(w))))


def tokens_of(q: Question) -> list[str]:
    """The question's cue-text tokens, position for position as kg/qa/cues.py tags them."""
    return [singular_text(w) for w in cue_words(q.norm)]


@cache
def phrases_by_first(kind: str) -> tuple[dict[str, tuple[int, ...]], tuple[int, ...]]:
    """The positions in `phrases()[kind]` of the phrases each first word begins, and of those that begin with a
    gap or the question's start: a position need only try the phrases its own word can begin."""
    by_first: dict[str, list[int]] = {}
    other: list[int] = []
    for n, seq in enumerate(phrases()[kind]):
        (other if seq[0] in ("~", "^") else by_first.setdefault(seq[0], [])).append(n)
    return {w: tuple(ns) for w, ns in by_first.items()}, tuple(other)


def find(tokens: list[str], kind: str, start: int = 0) -> tuple[int, int] | None:
    """The first span of the tokens (from `start` on) saying one of the kind's phrases."""
    seqs, (by_first, other) = phrases()[kind], phrases_by_first(kind)
    for i in range(start, len(tokens)):
        for n in sorted((*by_first.get(tokens[i], ()), *other)):
            seq = seqs[n]
            if seq[0] == "^":
                if i == 0 and (end := matched(tokens, 0, seq[1:])) is not None:
                    return 0, end
            elif (end := matched(tokens, i, seq)) is not None:
                return i, end
    return None


#: How many words of any kind a "~" in an operator's phrase stands for, at most.
GAP = 3


def matched(tokens: list[str], at: int, seq: tuple[str, ...]) -> int | None:
    """Where the phrase, said from this position, ends; a "~" takes up to GAP words, as few as it can."""
    if not seq:
        return at
    if seq[0] == "~":
        for skip in range(GAP + 1):
            if (end := matched(tokens, at + skip, seq[1:])) is not None and at + skip <= len(tokens):
                return end
        return None
    if at < len(tokens) and tokens[at] == seq[0]:
        return matched(tokens, at + 1, seq[1:])
    return None


#: A link as typed in a question (a PR's or a demo's): answers list links whole.
LINK = re.compile(r"https?://[^\s,;!?()<>\"']+")


#: A pull request's link: an item a yes/no asks about that is a PR.
PR_LINK = re.compile(r"/pulls?/\d+\b")


def links_in(text: str) -> list[str]:
    return list(dict.fromkeys(m.group(0).rstrip(".:/") for m in LINK.finditer(text)))


#: A title typed in quotes ("the 'Excessive Logging Overhead' issue"): an answer item a yes/no may look up.
def named_items(q: Question, tokens: list[str]) -> list[tuple[int, str, str, set[int]]]:
    """The companies, employees, links and quoted titles the question names: (first position, name, slot kind,
    positions)."""
    out = []
    titles = quoted_titles(q.text)
    for slot, names in (("company", q.companies), ("eid", q.eids), ("url", links_in(q.text)), ("name", titles)):
        for name in names:
            at = occupied([name], tokens)
            if at:
                out.append((min(at), name, slot, at))
    return sorted(out)


#: The most words a lead clause may have before a yes/no question ("Quick check: did …", "sales here - is …").
LEAD = 3
#: Words by which a first clause asks or commands itself: then it is no topic said before a yes/no question.
TOPIC_ASKS = frozenset(
    {"which", "what", "who", "whom", "whose", "how", "where", "when", "why", "list", "find", "show", "give", "tell"}
)


@lru_cache(maxsize=4096)
def yes_no_start(text: str) -> int | None:
    """Where the auxiliary that opens a yes/no question stands: the first word, or the first of the clause after
    a short lead ("Quick check: did eid_… review …?"); None when the question is no yes/no one."""
    words = cue_words(text.casefold())
    if not words:
        return None
    if singular_text(words[0]) in YES_NO_OPENERS or TAG_QUESTION.search(text):  # "eid_… was one of them, right?"
        return 0
    asked = next(
        (
            i
            for i, w in enumerate(words[: LEAD + 4])
            if w == "whether"
            or (w == "if" and i and words[i - 1] in CONFIRMING)
            or (w == "that" and i and words[i - 1] in CONFIRMING_THAT)
        ),
        None,
    )
    if asked is not None and CONFIRMING & set(words[:asked]):  # "can you confirm whether eid_… was …"
        return asked
    clauses = clause_ids(text, words)
    start = next((i for i, c in enumerate(clauses) if c != clauses[0]), None)
    if start is not None and start <= LEAD and singular_text(words[start]) in YES_NO_OPENERS:
        return start
    # "Multi-factor authentication in ProposalForce: was it …?", "hey, the 'X' bug on Y - did it get fixed?": a
    # topic said first, then the question in the last clause
    last = clauses.index(clauses[-1]) if clauses else None
    if (
        last
        and singular_text(words[last]) in YES_NO_OPENERS
        and not TOPIC_ASKS & set(words[:last])
        and text.rstrip().endswith("?")
        and words[last + 1 : last + 2] != ["not"]  # "…, don't skip any": a command, no question
    ):
        return last
    return None


def asks_only_yes_no(q: Question) -> bool:
    """A yes/no question that asks for nothing else: one sentence, with no question word after its auxiliary
    ("Did they … ?", not "Do you know which …")."""
    start = yes_no_start(q.text)
    if start is None or q.items_asked or re.search(r"[?.!;]\s+\S", q.text.strip()):
        return False  # "Do we have demo links for X? Need the URLs.": a second sentence asks for the items
    return not TOPIC_ASKS & set(cue_words(q.text.casefold())[start:])


#: Words that ask for people by name rather than by id ("the names of the engineers", "who, by name").
ASKS_NAMES = re.compile(
    r"\bnames\b|\bby\s+(?:their\s+)?(?:full\s+)?name\b|\bfull\s+name\b|\bname\s+of\b|"
    r"\b(?:his|her|their)\s+name\b|\bname\s*\(?\s*(?:not|rather\s+than|instead\s+of)\s+(?:the\s+|an?\s+)?(?:e?id|employee\s+id)\b",
    re.I,
)
#: Words that ask for ids, unless negated just before ("names, not IDs").
ASKS_IDS = re.compile(r"(?<!not )(?<!not the )(?<!rather than )(?<!instead of )\b(?:e?ids?|employee\s+ids?)\b", re.I)


#: Ids said as not wanted ("I don't need the eid", "no IDs"): no ask for them.
NO_IDS = re.compile(
    r"\b(?:don'?t|do not|doesn'?t|no|not|never)\s+(?:(?:need|want|require)\s+)?(?:the\s+|an?\s+|their\s+|any\s+)?"
    r"(?:e?ids?|employee\s+ids?)\b",
    re.I,
)


def asks_names(text: str) -> bool:
    """The question asks for people's names and not also for their ids: a list of eids is shown as names."""
    return bool(ASKS_NAMES.search(text)) and not ASKS_IDS.search(NO_IDS.sub(" ", text))


def opens_yes_no(text: str) -> bool:
    """The question opens with an auxiliary, after a short lead at most: a yes/no question."""
    return yes_no_start(text) is not None


def opens_clause(q: Question, at: int) -> bool:
    """The word at this position opens a clause of the question ("Why was …", "…? Why did …", "…, and why
    was it …"), not a side remark ("trying to understand why …")."""
    words = cue_words(q.norm)
    clauses = clause_ids(q.text, words)
    if at >= 2 and words[at - 1] in CONJUNCTIONS and clauses[at - 2] != clauses[at - 1]:
        return True
    return at == 0 or clauses[at - 1] != clauses[at]


def detect(q: Question) -> Operator | None:
    """The operator a question adds to its core, or None."""
    tokens = tokens_of(q)
    items = named_items(q, tokens)
    if (span := find(tokens, "unsupported")) is not None and opens_clause(q, span[0]):
        return Operator("unsupported", frozenset(range(*span)), " ".join(tokens[span[0] : span[1]]), "why or how")
    if (span := find(tokens, "ratio")) is not None:
        return Operator("unsupported", frozenset(range(*span)), " ".join(tokens[span[0] : span[1]]), "a share or ratio")
    inside = {i for _, _, _, at in items for i in at}  # "bar" in the title 'Progress Bar Stuck' excludes nothing
    span = find(tokens, "exclude")
    while span is not None and set(range(*span)) <= inside:
        span = find(tokens, "exclude", span[1])
    if span is not None or (span := around(tokens, items)) is not None:
        after = [it for it in items if any(span[1] <= i <= span[1] + 1 or span[0] <= i < span[1] for i in it[3])]
        if len(after) == 1:
            _, name, slot, at = after[0]
            joined = joined_items(tokens, items, after[0])  # "besides eid_A and eid_B"
            at = at.union(*(it[3] for it in joined)) | {i for it in joined for i in (min(it[3]) - 1,)}
            words = set(range(*span)) | at | restated(tokens, "exclude_restated") | told_item(q, tokens, span, at)
            also = tuple(it[1] for it in joined)
            shown = " and ".join([name, *also])
            return Operator("exclude", frozenset(words), f"excluding {shown}", name, slot, also=also)
    if (known := known_already(q, tokens, items)) is not None:
        return known
    if (compared := comparison(tokens, items)) is not None:
        return compared
    if (span := find(tokens, "count")) is not None and not superlative_count(q, span):
        said = frozenset(range(*span)) | restated(tokens, "count_restated")
        while (again := find(tokens, "count", max(said) + 1)) is not None:  # "just the number: how many …"
            said |= set(range(*again))
        near = [t for t in tokens[span[1] : span[1] + 3] if t not in COUNT_FILLER]
        noun = next((t for t in near if t in counted_kinds()), near[0] if near else None)  # "how many open bugs"
        if (items_too := find(tokens, "count_and_list")) is not None:  # "…, and what are they?"
            return Operator("count", said | set(range(*items_too)), "how many, and which", counted=noun, listed=True)
        return Operator("count", said, "how many", counted=noun, per=per_item(tokens, span[1]))
    if (timed := in_time(tokens)) is not None:
        return timed
    if (windowed := in_window(q, tokens)) is not None:
        return windowed
    if (ranked := ranking(tokens)) is not None:
        return ranked
    opener = yes_no_start(q.text)
    if opener is not None and (asked := item_asked(items, tokens, opener)) is not None:
        _, name, slot, at = asked
        among = find(tokens, "among")
        if slot == "name" and among is None:
            return None  # "Was 'X' merged?" asks of the titled item itself: the ontology reader's
        words = at | {opener} | (set(range(*among)) if among else set()) | restated(tokens, "yes_no_restated")
        implied = frozenset(filter(None, [{"eid": "person", "company": "company"}.get(slot)]))
        implied |= {"pr"} if slot == "url" and PR_LINK.search(name) else set()  # "does <PR link> need merging"
        return Operator("yes_no", frozenset(words), f"is {name} among them?", name, slot, implied)
    return None


#: Nouns of the kinds a ranking answers with: counted right after the count's words, they are what is counted
#: ("the number of companies tied for the most"), never the measure of a superlative.
COUNTED_ASKED = frozenset({"company", "engineer", "person", "people", "employee", "customer", "developer"})
#: The words a superlative said by negation opens with ("no other … beats", "nobody tops").
NEGATED_MOST = frozenset({"no", "nobody", "none", "not", "never", "noone"})


#: Words before a count that make it what a superlative ranks by ("… on the count of approved PRs").
MEASURED_ON = frozenset({"on", "by", "in", "for", "at"})


def superlative_count(q: Question, span: tuple[int, int]) -> bool:
    """Whether the count words are the measure of a superlative ("a count of approved PRs that no other
    engineer beats", "whose count nobody tops"): the most is asked, not how many. A superlative said plainly
    ("how many bugs did the engineer with the most … resolve") leaves the count asked."""
    tagged = tag(q)
    at = span[0]
    if tagged.tokens[span[1] : span[1] + 1] and tagged.tokens[span[1]] in COUNTED_ASKED:
        return False  # "number of companies tied for the most …": the answer's own kind is counted
    if tagged.tokens[span[1] - 1 : span[1]] == ["count"] and tagged.spans.get("most"):
        return True  # "resolved customer bugs count, nobody resolved more": the measure of the most
    if tagged.tokens[span[1] - 1 : span[1]] == ["of"] and any(
        s >= span[1] and tagged.clauses[s] == tagged.clauses[at] for s, _ in tagged.spans.get("most", ())
    ):
        return True  # "the engineer whose count of unapproved PRs is highest": the measure of the most
    before = tagged.tokens[at - 1] if at else ""
    if any(
        tagged.clauses[s] == tagged.clauses[at] and (before in MEASURED_ON or e == at)
        for s, e in tagged.spans.get("most", ())
    ):
        return True  # "not beaten by anyone on the count of …", "topping the count of …": the measure of the most
    return any(
        s <= at < e or (s > at and tagged.clauses[s] == tagged.clauses[at] and tagged.tokens[s] in NEGATED_MOST)
        for s, e in tagged.spans.get("most", ())
    )


#: The words by which the asker opens a clause about themselves ("I already know …", "we have …").
ASKER_OPENERS = frozenset({"i", "im", "ive", "we", "weve"})


def told_item(q: Question, tokens: list[str], span: tuple[int, int], at: set[int]) -> set[int]:
    """The asker's own clause that names the excluded item besides the exclusion ("I already know eid_… worked
    on it, so except for eid_…, which …"): it says again what the exclusion says, and asks nothing."""
    clauses = clause_ids(q.text, tokens)
    own = {clauses[i] for i in at} - {clauses[span[0]]}
    return {
        i
        for i, c in enumerate(clauses)
        if c in own and tokens[min(j for j, d in enumerate(clauses) if d == c)] in ASKER_OPENERS
    }


#: Words that join the items an exclusion names ("besides eid_A and eid_B", "not counting A or B").
JOINERS = frozenset({"and", "or", "nor"})


def joined_items(
    tokens: list[str], items: list[tuple[int, str, str, set[int]]], first: tuple[int, str, str, set[int]]
) -> list[tuple[int, str, str, set[int]]]:
    """The items of the first's kind said just after it, each after a joining word."""
    out: list[tuple[int, str, str, set[int]]] = []
    last = first
    while True:
        end = max(last[3]) + 1
        nxt = next((it for it in items if it[2] == first[2] and min(it[3]) == end + 1), None)
        if end >= len(tokens) or tokens[end] not in JOINERS or nxt is None:
            return out
        out.append(nxt)
        last = nxt


def known_already(q: Question, tokens: list[str], items: list[tuple[int, str, str, set[int]]]) -> Operator | None:
    """An exclusion said by naming the item in a clause of its own and asking for the others ("I already have
    <link> on my list. Which other PRs …", "We know TechCorp was hit: which other companies …"): the one item
    named outside the clause that says "other" or "else"."""
    others = sorted(restated(tokens, "exclude_restated") - restated(tokens, "among"))
    if not others:
        return None
    clauses = clause_ids(q.text, cue_words(q.norm))
    asking = {clauses[i] for i in others}
    outside = [it for it in items if not {clauses[i] for i in it[3]} & asking]
    if not items or len(outside) != len(items) or len({it[2] for it in outside}) != 1:
        return None  # every item named outside the asking clause, all of one kind ("We contacted A and B. …")
    _, name, slot, at = outside[0]
    if any(f"{it[1].casefold()}'s" in q.norm for it in outside):  # "eid_…'s peers, the other people …": its own
        return None
    also = tuple(it[1] for it in outside[1:])
    at = at.union(*(it[3] for it in outside[1:]))
    shown = " and ".join([name, *also])
    return Operator("exclude", frozenset(at | set(others)), f"excluding {shown}", name, slot, also=also)


def item_asked(
    items: list[tuple[int, str, str, set[int]]], tokens: list[str], opener: int
) -> tuple[int, str, str, set[int]] | None:
    """The item a yes/no asks about: the one item named, or, of several, the one said right after the opening
    ("Is <PR link> one of the PRs eid_… submitted …", "Is it true that eid_… …"); the others are the core's."""
    if len({name for _, name, _, _ in items}) == 1:
        return items[0]
    frame = restated(tokens, "yes_no_restated")
    after = opener + 1
    while after in frame or (after < len(tokens) and tokens[after] in ARTICLES):
        after += 1
    return next((it for it in items if it[0] == after), None)


def around(tokens: list[str], items: list[tuple[int, str, str, set[int]]]) -> tuple[int, int] | None:
    """An exclusion said around the item ("leave X out", "keep X off the list"): the span from the opening
    word to the closing one, the item between them."""
    for opening, closing in lexicon_data()["operators"]["exclude_around"]:
        for _, _, _, at in items:
            before, after = min(at) - 1, max(at) + 1
            alone = "" in opening.split("|")
            if after < len(tokens) and tokens[after] in closing.split("|"):
                if before >= 0 and tokens[before] in opening.split("|"):
                    return before, after + 1
                if alone:
                    return min(at), after + 1
    return None


@cache
def restating(kind: str) -> tuple[tuple[str, ...], ...]:
    """The `<kind>` word sequences of the lexicon's [operators], as cue-text tokens."""
    return tuple(phrase_tokens(phrase) for phrase in lexicon_data()["operators"][kind])


def restated(tokens: list[str], kind: str) -> set[int]:
    """The positions of the words that restate an operator found ("who else", "how many different"), from its
    `<kind>` list of the lexicon's [operators]."""
    out: set[int] = set()
    for seq in restating(kind):
        for i in range(len(tokens)):
            if (end := matched(tokens, i, seq)) is not None:
                out |= set(range(i, end))
    return out


NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


@cache
def places() -> dict[str, int]:
    return {singular_text(k): v for k, v in lexicon_data()["places"].items()}


def number_of(token: str) -> int | None:
    """A small count said as digits or as a word ("3", "two")."""
    if token.isdigit() and int(token) < 100:
        return int(token)
    return NUMBER_WORDS.get(token)


def ranking(tokens: list[str]) -> Operator | None:
    """An ordinal ("second most"), a top N ("top 3") or a fewest ("least", "lowest"): the core is read as the most
    (the `most` cue implied for a fewest) and the ranked rows give the place asked for."""
    fewest = find(tokens, "fewest")
    while fewest and fewest[0] > 0 and tokens[fewest[0] - 1] == "at":  # "at least one": no ranking
        fewest = find(tokens, "fewest", fewest[1])
    words = set(range(*fewest)) if fewest else set()
    universe = among_any = False
    if fewest and (scope := find(tokens, "with_any")) is not None:
        words |= set(range(*scope))  # "among engineers who resolved at least one": the fewest's own scope
        among_any = True
    elif fewest and (scope := find(tokens, "fewest_universe")) is not None:
        words |= set(range(*scope))
        universe = True
    place, top, skip = 1, 1, 0
    said_most = False  # the place said with no ranking word: "second for resolved bugs", "the runner-up in"
    behind = find(tokens, "behind_first")
    while behind:  # "the next highest … after the top two": each phrase said, the number after "top" from any
        place = 2
        words |= set(range(*behind))
        said = (behind[1] < len(tokens) and tokens[behind[1] - 1] == "top" and number_of(tokens[behind[1]])) or 0
        if said:  # "after the top two": the first after those two
            skip = said
            words.add(behind[1])
        behind = find(tokens, "behind_first", behind[1])
    for i, token in enumerate(tokens):
        pair = " ".join(tokens[i : i + 2])
        number = places().get(pair) or places().get(token)
        number = number or (int(token) if token.isdigit() and int(token) < 100 else None)
        span = {i, i + 1} if pair in places() else {i}
        if number is None or i in words:
            continue
        if i > 0 and tokens[i - 1] == "top":
            top = number
        elif token.isdigit() or token in NUMBER_WORDS:
            continue  # a number that is no place ("3 bugs")
        elif RANK_WORDS & set(tokens[i + 1 : i + 4]):
            place = number
        elif tokens[max(span) + 1 : max(span) + 2] and tokens[max(span) + 1] in PLACE_IN and not fewest:
            place, said_most = number, True
        else:
            continue  # an ordinal that ranks nothing ("third-party"): left to the word account
        words |= span
    if not words:
        return None
    if skip:  # "after the top two, the next highest": the first place after them, said again
        place = 1
    order = "fewest" if fewest else "most"
    shown = (
        f"the first after the top {skip}"
        if skip
        else f"top {top}"
        if top > 1
        else ("fewest, of those with any" if among_any else "fewest")
        if place == 1 and fewest
        else f"place {place} by {order}"
    )
    implied = frozenset({"most"}) if fewest or said_most else frozenset()
    return Operator(
        "rank",
        frozenset(words),
        shown,
        cues=implied,
        place=place,
        top=top,
        fewest=bool(fewest),
        universe=universe,
        among_any=among_any,
        skip=skip,
    )


def comparison(tokens: list[str], items: list[tuple[int, str, str, set[int]]]) -> Operator | None:
    """Two named items of one kind compared ("Did BlueWave report more active bugs than CloudSync?"): the core
    is read as the most, and the ranked rows give each item's count."""
    names = list(dict.fromkeys((name, slot) for _, name, slot, _ in items))
    if len(names) != 2 or names[0][1] != names[1][1]:
        return None
    if "than" in tokens:  # "did BlueWave report more … than CloudSync"
        than = tokens.index("than")
        word = next((i for i in range(than - 1, -1, -1) if (tokens[i],) in phrases()["compare"]), None)
        joined = {than}
    else:  # "who resolved more bugs, eid_A or eid_B", "between A and B, who had more …"
        word = next((i for i, t in enumerate(tokens) if (t,) in phrases()["compare"]), None)
        joined = {i for i, t in enumerate(tokens) if t in PAIRING}
        if not joined:
            return None
    if word is None:
        return None
    (first, slot), (other, _) = names
    at = {i for _, _, _, positions in items for i in positions} | {word} | joined
    fewer = tokens[word] in ("fewer", "less", "lower", "smaller")
    shown = f"{first} against {other}, by {'fewer' if fewer else 'more'}"
    implied = frozenset({"most", "company" if slot == "company" else "person"})
    choice = "than" not in tokens and "or" in tokens
    return Operator("compare", frozenset(at), shown, first, slot, implied, fewest=fewer, other=other, choice=choice)


def core(q: Question, op: Operator | None) -> Question:
    """The question the core reader reads: an excluded item is no slot of it ("other than BlueWave" binds no
    company); every other operator leaves the slots as they are."""
    if op is None or op.kind not in ("exclude", "compare"):
        return q
    gone = {op.item, op.other, *op.also}
    return replace(q, companies=[c for c in q.companies if c not in gone], eids=[e for e in q.eids if e not in gone])


#: A negation as typed: a word, or a contraction whose auxiliary stays when it is dropped.
NEGATION_TYPED = re.compile(r"\b(?:(not|never)|(\w+?)n['’]t|(can)not)\b", re.I)
#: Contractions whose auxiliary is spelled otherwise ("won't": "will").
NEGATED_AUX = {"wo": "will", "ca": "can", "sha": "shall"}
#: Words that may stand between a yes/no's subject and the negation said of it ("eid_… has still not …", "the
#: 'X' bug is not …"), and those dropped with the negation ("still not fixed", "not fixed yet": "fixed").
SUBJECT_FILLER = frozenset(
    {"has", "have", "had", "did", "does", "do", "is", "was", "are", "were", "still", "bug", "issue", "pr", "ticket"}
)
DROPPED_WITH_NOT = ("still", "yet")
#: A state still to be reached, said of the subject ("does <PR> still need to be merged"): not yet in it.
NEEDS_TO_BE = re.compile(r"\b(?:still\s+)?needs?\s+to\s+be\b(?=\s+\w+ed\b)", re.I)
#: A statement framed to be checked ("is it true that …", "can you confirm that …"), and a relative clause.
STATEMENT_FRAME = re.compile(
    r"\b(?:it (?:is |was )?(?:true|the case|correct|accurate) that|(?:confirm|verify|check) that)\b", re.I
)
RELATIVE = re.compile(r"\b(?:that|which|who|whom|whose|where)\b", re.I)
#: How many words after its subject a negation is still said of it.
SUBJECT_REACH = 3


def affirmative(q: Question) -> tuple[str, bool] | None:
    """A yes/no with one negation, without it, and whether its answer is the opposite of the plain one's:
    - said of its subject ("has eid_… never approved a PR", "is it true that BlueWave did not report …", "is the
      'X' bug still not fixed"), it asks the opposite;
    - a state still to be reached ("does <PR> still need to be merged"), the opposite of whether it is;
    - said by its opening ("didn't eid_… approve any PR?"), it asks the plain question, expecting a yes.
    None for any other question."""
    start = yes_no_start(q.text)
    if start is None:
        return None
    negations = list(NEGATION_TYPED.finditer(q.text))
    needed = NEEDS_TO_BE.search(q.text)
    if not negations and needed is not None and start == 0 and said_of_subject(q, needed.start()):
        opener = re.match(r"\s*(?:does|do|did)\b", q.text, re.I)
        if opener is None:
            return None
        verb = "was" if opener.group(0).strip().casefold() == "did" else "is"
        return re.sub(
            r"\s+", " ", f"{verb}{q.text[opener.end() : needed.start()]} {q.text[needed.end() :]}"
        ).strip(), True
    if len(negations) != 1:
        return None
    neg = negations[0]
    if start == 0 and neg.start() == len(q.text) - len(q.text.lstrip()) and neg.group(2):
        return (neg.group(2) + q.text[neg.end() :]).strip(), False
    if not said_of_subject(q, neg.start()):
        return None
    aux = neg.group(2) or neg.group(3) or ""
    kept = NEGATED_AUX.get(aux.casefold(), aux)
    before = re.sub(rf"\s*\b(?:{'|'.join(DROPPED_WITH_NOT)})\s*$", " ", q.text[: neg.start()], flags=re.I)
    after = re.sub(rf"^\s*(?:{'|'.join(DROPPED_WITH_NOT)})\b", "", q.text[neg.end() :], flags=re.I)
    return re.sub(r"\s+", " ", f"{before}{kept}{after}").strip(), True


def said_of_subject(q: Question, at: int) -> bool:
    """Whether the words at this place of the question stand just after the item it names last before them, in
    the clause that asks (not in a relative clause: "any PR that eid_… did not approve")."""
    names = [*q.eids, *q.companies, *links_in(q.text), *quoted_titles(q.text), *([q.product] if q.product else [])]
    spans = [
        m.span() for name in names for m in re.finditer(re.escape(name) + r"['’\"]?", q.text, re.I) if m.end() <= at
    ]
    if not spans:
        return False
    subject = max(spans, key=lambda span: span[1])
    if RELATIVE.search(STATEMENT_FRAME.sub(" ", q.text[: subject[0]])):
        return False
    between = re.findall(r"[\w']+", q.text[subject[1] : at])
    return len(between) < SUBJECT_REACH and all(w.casefold() in SUBJECT_FILLER for w in between)


def itemless(q: Question, op: Operator | None) -> Question | None:
    """For a yes/no about one named company or employee, the question with that item bound to no slot: its
    core then lists the items the yes or no looks the item up in ("was eid_… one of the engineers who resolved
    …"). None for other operators, a link, or an item said as an owner ("eid_…'s manager")."""
    if op is None or op.kind != "yes_no" or op.slot not in ("company", "eid"):
        return None
    if re.search(re.escape(str(op.item)) + r"['’]s?\b", q.text, re.I):
        return None
    return replace(q, companies=[c for c in q.companies if c != op.item], eids=[e for e in q.eids if e != op.item])


def kept_to(core: Answer, people: People, roles: list[str], locations: list[str], unlike: bool = False) -> Answer:
    """A list of people kept to those with one of the roles and one of the locations (each if given), as the
    organisation graph holds them, or, `unlike`, to those without ("… who is not an Engineering Lead"); nobody
    left is absent, with what was looked at as the proof."""
    based = f"based in {' or '.join(locations)}" if locations else ""
    wanted = " and ".join(x for x in (" or ".join(roles), based) if x)
    said = f"all but {wanted}" if unlike else f"only {wanted}"
    wanted = f"not {wanted}" if unlike else wanted
    reading = core.choice.winner.reading if core.choice and core.choice.winner else ""
    shown: dict[str, Any] = {"kind": "filter", "shown": said}
    if reading:
        shown["reading"] = f"{reading} → {said}"
    if core.outcome != "answer":
        return replace(core, operator=shown)
    items = core.answer if isinstance(core.answer, list) else []

    def holds(eid: str) -> bool:
        who = people.person(eid)
        fits_role = not roles or (who.role or "").casefold() in {r.casefold() for r in roles}
        return fits_role and (not locations or (who.location or "").casefold() in {x.casefold() for x in locations})

    kept = [x for x in items if holds(x) != unlike]
    shown = {**shown, "items": items}
    if kept:
        return replace(core, answer=kept, operator=shown)
    return emptied(
        core,
        shown,
        f"none of the {len(items)} answers is {wanted}",
        f"none of the {len(items)} people the graph gives is {wanted}",
    )


def said_unlike(tokens: list[str], names: list[str]) -> set[int]:
    """The position of a "not" just before a role or place the question names, past an article ("is not an
    Engineering Lead", "are not QA Specialists"): the people asked for are those without it; empty otherwise."""
    for name in names:
        at = min(occupied([name], tokens), default=0) - 1
        while at > 0 and tokens[at] in ("a", "an", "the"):
            at -= 1
        if at >= 0 and tokens[at] == "not":
            return {at}
    return set()


def emptied(core: Answer, shown: dict[str, Any], result: str, why: str) -> Answer:
    """The core's answer with nothing left once an operator has kept or dropped its items: absent, the core's
    own answer (what was looked at) the proof."""
    proof: dict[str, Any] = {"query": core.intent, "bindings": {}, "result": result}
    return replace(core, answer=None, abstain=True, outcome="absent", reason=why, proof=proof, operator=shown)


def apply(op: Operator, core: Answer, superlative: bool, reads_item: bool) -> Answer:
    """The operator applied to the core's answer. `superlative`: the core's row asks for the most (its answer is
    the top, not a ranked list); `reads_item`: the core's row binds the operator's item itself ("did BlueWave
    report ..."). An uncertain or unsupported core stays so, with the operator shown."""
    reading = core.choice.winner.reading if core.choice and core.choice.winner else ""
    if core.operator and core.operator.get("kind") == "filter":  # kept to a role first: shown in its place
        reading = f"{reading} → {core.operator['shown']}"
    shown = op.to_json(reading)
    if core.outcome in ("uncertain", "unsupported"):
        return replace(core, operator=shown)
    if op.kind == "yes_no" and core.type == "yes_no":
        return core  # the core reader answered the yes or no itself ("did eid_… attend <the meeting>")
    items = core.answer if isinstance(core.answer, list) else []
    if op.kind == "exclude":
        if superlative:
            return uncertain(core, shown, f"excluding {op.item} from the most needs the ranked list, which it has not")
        if core.outcome == "absent":
            return replace(core, operator=shown)
        written = listed(core.answer) if core.type not in ITEM_TYPES else None  # bug titles, one a line
        if core.type not in ITEM_TYPES and written is None:
            return uncertain(core, shown, f"the answer is prose, not items {op.item} could be left out of")
        items = items if written is None else written
        kept = [x for x in items if not names(x, op)]
        shown = {**shown, "excluded": len(items) - len(kept)}
        if items and not kept:  # "apart from X, who attended …": X was the only one
            why = f"nobody but {op.item}: the reading's only answer is the one excluded"
            return emptied(core, shown, f"the only answer is {op.item}", why)
        return replace(core, answer=kept if written is None else "\n".join(f"- {x}" for x in kept), operator=shown)
    if op.kind == "count":
        if op.per is not None:  # one number for all would answer another question
            return uncertain(core, shown, f"a count for each {op.per} is a breakdown, not one number")
        kind = counted_kinds().get(op.counted or "")
        if kind is not None and core.type in counted_kinds().values() and core.type != kind:
            # "how many versions …, and who wrote it" read as its authors: the items are not what is counted
            said, listing = (KIND_WORDS.get(k, f"{k}s") for k in (kind, core.type))
            return uncertain(core, shown, f"'how many {op.counted}' counts {said}, and the reading lists {listing}")
        written = listed(core.answer) if core.type not in ITEM_TYPES else None  # bug titles, one a line
        # a proof that nothing fits counts 0 of anything the reading would list, prose or items
        if core.type not in ITEM_TYPES and written is None and core.outcome != "absent":
            return uncertain(core, shown, "the answer is prose, not items to count")
        items = items if written is None else list(dict.fromkeys(written))
        if op.listed and core.outcome == "answer":  # both asked: the items, their number shown beside them
            return replace(core, operator={**shown, "count": len(items), "items": items})
        counted = str(len(items)) if core.outcome == "answer" else "0"
        return replace(
            core,
            answer=counted,
            type="count",
            abstain=False,
            outcome="answer",
            reason=None,
            operator={**shown, "items": items},
        )
    # yes_no: an answer's items name the item, or the core binds it and answers at all
    titles = listed(core.answer) if op.slot == "name" else None  # a written list of titles, one a line
    items = titles if titles is not None else items
    if op.slot == "name" and titles is None and core.type in UNTITLED_TYPES and not reads_item:
        # "did eid_… resolve <bug title>" read as a list of PRs: a title is never among links or people
        return uncertain(core, shown, f"the reading answers with {core.type} items, and '{op.item}' is a title")
    found = core.outcome == "answer" and (reads_item or any(names(x, op) for x in items))
    if found:
        return replace(core, answer="yes", type="yes_no", operator={**shown, "items": items})
    if core.outcome == "absent" or ((core.type in ITEM_TYPES or titles is not None) and not reads_item):
        proof = core.proof or {
            "query": core.intent,
            "bindings": {},
            "result": f"{op.item} is not among the {len(items)} answers",
        }
        return replace(
            core,
            answer="no",
            type="yes_no",
            abstain=False,
            outcome="answer",
            reason=None,
            proof=proof,
            operator={**shown, "items": items},
        )
    return uncertain(core, shown, f"the answer is prose: whether {op.item} is in it is not read")


#: Answer types whose items are never titles: a titled item asked about cannot be among them.
UNTITLED_TYPES = frozenset({"pr", "url", "person", "company", "count"})


def listed(answer: Any) -> list[str] | None:
    """A written answer that is a list, one "- item" a line (bug titles): its items; None for prose."""
    if not isinstance(answer, str):
        return None
    lines = [line.strip() for line in answer.splitlines() if line.strip()]
    if not lines or not all(line.startswith("- ") for line in lines):
        return None
    return [line[2:].strip() for line in lines]


def names(item: str, op: Operator) -> bool:
    """The answer item is the operator's item: a link whole (pull/2 is not pull/20), a company or an employee
    anywhere in the item as shown ("BlueWave", "Ana Lee (eid_…)")."""
    named = [str(op.item), *op.also]
    if op.slot == "url":
        return any(item.rstrip("/") == n.rstrip("/") for n in named)
    if op.slot == "name":  # a title: the item whole, as typed or in another case
        return any(item.casefold() == n.casefold() for n in named)
    return any(n in item for n in named)


def fewest_unsaid(op: Operator, rows: list[tuple[str, int]], whole: set[str]) -> str | None:
    """Why a fewest said of no set is not read ("which company has the least active bugs"): of everyone it is
    none, of those with any the least of the rows, and the two differ; None when they agree or the set is said."""
    none = sorted(whole - {a for a, _ in rows})
    if not none or op.universe:
        return None
    least = sorted(a for a, n in rows if n == min(n for _, n in rows)) if rows else ["nobody"]
    return (
        f"'{op.shown}' of everyone is none ({', '.join(none)} have none), of those with any it is "
        f"{', '.join(least)}: the question does not say which"
    )


def ranked(op: Operator, core: Answer, rows: list[tuple[str, int]], opener: bool, everyone: bool = False) -> Answer:
    """A ranking operator over the core's ranked rows (answer, count), most first: the place or top N asked for
    (ties share a place), the most but an excluded item, or two items compared. `opener`: the question is a
    yes/no one ("Did BlueWave report more ...?"); `everyone`: the rows hold everyone a fewest is read among,
    those with none at 0 (else a fewest is read only where the question keeps it to those with any)."""
    reading = core.choice.winner.reading if core.choice and core.choice.winner else ""
    shown = {**op.to_json(reading), "ranked": [[a, n] for a, n in rows]}
    if core.outcome != "answer":
        return replace(core, operator=shown)
    counts = dict(rows)
    if op.kind == "compare":
        mine, theirs = counts.get(op.item or "", 0), counts.get(op.other or "", 0)
        if opener and not op.choice:
            holds = mine < theirs if op.fewest else mine > theirs
            return replace(core, answer="yes" if holds else "no", type="yes_no", operator=shown)
        # a statement, as a yes or no is: which of the two, with both counts (the counts are the evidence)
        if mine == theirs:
            said = f"neither: {op.item} and {op.other} both have {mine}"
        else:
            ahead = (mine < theirs) == op.fewest
            pick, other = (op.item, op.other) if ahead else (op.other, op.item)
            said = f"{pick}: {max(mine, theirs) if not op.fewest else min(mine, theirs)} against {other}'s "
            said += f"{min(mine, theirs) if not op.fewest else max(mine, theirs)}"
        return replace(core, answer=said, type="compare", operator=shown)
    if op.kind == "rank" and op.fewest and not op.among_any and not everyone:
        why = "the fewest may be none, and the ranked rows hold only those with at least one"
        return uncertain(core, shown, why)
    rows = [(a, n) for a, n in rows if op.item is None or not names(a, op)]
    if op.skip:
        ordered = sorted((n for _, n in rows), reverse=not op.fewest)
        if len(ordered) <= op.skip or ordered[op.skip - 1] == ordered[op.skip]:
            why = f"the top {op.skip} are not {op.skip} items apart from the rest ({len(ordered)} ranked)"
            return uncertain(core, shown, why)
        passed = ordered[op.skip - 1]
        rows = [(a, n) for a, n in rows if (n > passed if op.fewest else n < passed)]
    levels = sorted({n for _, n in rows}, reverse=not op.fewest)
    if op.top > 1:
        cut = sorted((n for _, n in rows), reverse=not op.fewest)[: op.top]
        kept = [a for a, n in rows if cut and (n >= cut[-1] if not op.fewest else n <= cut[-1])]
    elif op.place <= len(levels):
        kept = [a for a, n in rows if n == levels[op.place - 1]]
    else:
        kept = []
    if not kept:
        return uncertain(core, shown, f"there is no {op.shown}: {len(levels)} places in all")
    return replace(core, answer=sorted(kept), operator=shown)


def kept_in_time(op: Operator, core: Answer, times: dict[str, str]) -> Answer:
    """The newest or oldest of the core's items, by the creation times read for them (ties all kept); an item
    whose time is unknown, or shown alike by several items, leaves the reading uncertain."""
    shown = timed_shown(op, core)
    items = core.answer if isinstance(core.answer, list) else []
    if core.outcome != "answer" or not items:
        return replace(core, operator=shown)
    if why := untimed(op, items, times):
        return uncertain(core, shown, why)
    pick = (max if op.kind == "latest" else min)(times[str(x)] for x in items)
    kept = [x for x in items if times[str(x)] == pick]
    return replace(core, answer=kept, operator={**shown, "created": pick})


def timed_shown(op: Operator, core: Answer) -> dict[str, Any]:
    """A time operator as shown after the core's reading (a row's canonical wording, else the ontology's)."""
    reading = core.choice.winner.reading if core.choice and core.choice.winner else str(core.slots.get("reading") or "")
    return op.to_json(reading)


def untimed(op: Operator, items: list[Any], times: dict[str, str]) -> str | None:
    """Why a time operator cannot read the items: the first with no one creation time; None when all have one."""
    unknown = next((str(x) for x in items if str(x) not in times), None)
    return f"'{op.shown}' needs when each item was created, and '{unknown}' has no one time" if unknown else None


def uncertain(core: Answer, shown: dict[str, Any], why: str) -> Answer:
    return replace(
        core,
        outcome="uncertain",
        abstain=True,
        answer=None,
        citations=[],
        reason=f"uncertain reading: {why}",
        proof=None,
        operator=shown,
    )
