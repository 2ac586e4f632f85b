"""Turn raw question text into a `Question`: normalised text plus the slots every intent can use.

Slots are recognised against vocabularies read from the graph (products, roles, companies) or fixed tables
(document kinds), so a new product or role needs no code change. Nothing here guesses: a slot is either found
verbatim (after normalisation) or absent. A question naming several products joined by a connective ("both X
and Y", "X or Y", "across all products") spans them (`Question.across`, kg/qa/across.py); one naming several
products apart is refused (KGError, so `kg ask` exits 2 and `--batch` writes an error record): answering for
whichever comes first, or abstaining, would each claim something about one product the question did not ask alone.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from kg.errors import KGError
from kg.qa.across import Across
from kg.qa.across import find as find_across
from kg.qa.time import TimeSlot, find_time
from kg.text import DOC_KINDS, normalise, singular_text
from kg.text import singular_phrase as _singular_phrase

MAX_QUESTION_CHARS = 2000
LEXICON = Path(__file__).with_name("lexicon.toml")


@dataclass(frozen=True)
class Vocabulary:
    """Slot vocabularies: names as they appear in the graph, keyed by their normalised form."""

    products: dict[str, str]
    roles: dict[str, str]
    companies: dict[str, str]
    #: Where people work ("Seattle", "New York"), matched as written with capitals: "remote" is a word too.
    locations: dict[str, str] = field(default_factory=dict)
    #: Reads the code repositories, by their name and by "owner/name" ("collaborationforce",
    #: "salesforce/collaborationforce"): only for a question that names a repository as one.
    repos_read: Callable[[], dict[str, str]] | None = field(default=None, compare=False, repr=False)

    @cached_property
    def repos(self) -> dict[str, str]:
        return self.repos_read() if self.repos_read else {}

    @cached_property
    def compounds(self) -> tuple[str, ...]:
        """Role and document kind names, normalised, singular and plural: a word of "for every product" may
        begin one ("for every product manager")."""
        names = [*self.roles, *(n for kind in DOC_KINDS.values() for n in kind)]
        return tuple(sorted({form for n in names for form in (normalise(n), normalise(n) + "s")}))

    @cached_property
    def singular_roles(self) -> dict[str, str]:
        """Roles keyed by their singularised form, as questions are matched against singularised text, and by
        their initials ("MRA", "UXR", "CPO"): short forms people type for any role the graph holds."""
        by_name = {_singular_phrase(k): v for k, v in self.roles.items()}
        # "VPs of Engineering": the plural is on the head, before "of", where singularising the text leaves it
        heads = {f"{h}s {rest}": v for k, v in by_name.items() if (h := k.split(" ", 1)[0]) and " of " in f" {k} "
                 for rest in [k.split(" ", 1)[1]] if rest.startswith("of ") and not h.endswith("s")}  # fmt: skip
        by_name = {**heads, **by_name}
        return {**{a: v for v in self.roles.values() if (a := initials(v)) and a not in by_name}, **by_name}


#: Words an acronym leaves out ("VP of Engineering" -> "vpe").
ACRONYM_SKIPS = frozenset({"of", "and", "the", "for"})
#: Acronyms shorter than this are too often words or other things ("el", "se"): the lexicon lists the few in use.
MIN_ACRONYM = 3


#: Where a question's sentences end.
SENTENCE_END = re.compile(r"(?<=[?.!])\s+")


def follow_up_core(text: str) -> str | None:
    """The question before a last sentence that only asks for the items ("… ? Which ones?", "… ? Give me the PR
    links."), when there is one: made of the lexicon's `[follow_up]` words alone."""
    sentences = [s for s in SENTENCE_END.split(text.strip()) if s]
    if len(sentences) < 2:
        return None
    words = set(normalise(sentences[-1]).split())
    return " ".join(sentences[:-1]) if words and words <= follow_up_words() else None


@cache
def follow_up_words() -> frozenset[str]:
    return frozenset(lexicon_data()["follow_up"]["words"])


def initials(name: str) -> str | None:
    """A role's acronym, lower case: each word's initial, a word in capitals kept whole ("UX Researcher" -> "uxr")."""
    words = [w for w in re.findall(r"[A-Za-z]+", name) if w.casefold() not in ACRONYM_SKIPS]
    acronym = "".join(w if w.isupper() else w[0] for w in words).casefold()
    return acronym if len(acronym) >= MIN_ACRONYM else None


@dataclass
class Question:
    text: str
    norm: str
    sing: str
    product: str | None = None
    doc_kind: str | None = None
    roles: list[str] = field(default_factory=list)
    companies: list[str] = field(default_factory=list)
    eids: list[str] = field(default_factory=list)
    customer_ids: list[str] = field(default_factory=list)
    locations: list[str] = field(default_factory=list)
    #: Repositories named as such ("in the CollaborationForce repo"): their "owner/name", and the words naming them.
    repos: list[str] = field(default_factory=list)
    repo_words: list[str] = field(default_factory=list)
    time: TimeSlot | None = None  # "on 2026-08-01", "when P's previous release shipped": removed from norm / sing
    #: The products a question spans and how their answers combine ("both X and Y"); then `product` is None.
    across: Across | None = None
    #: A yes or no followed by a request for the items ("Were any PRs rolled back? Which ones?"): the items are
    #: the answer, the yes implied by them.
    items_asked: bool = False

    def slots(self) -> dict[str, object]:
        return {
            k: v
            for k, v in {
                "product": self.product,
                "doc_kind": self.doc_kind,
                "roles": self.roles,
                "companies": self.companies,
                "eids": self.eids,
                "customer_ids": self.customer_ids,
                "locations": self.locations,
                "repos": self.repos,
                "time": self.time.phrase if self.time else None,
            }.items()
            if v
        }


#: A title in quotes, as people type it: straight or curly, single or double.
QUOTED_TITLE = re.compile(r"(?<!\w)['‘\"“]([^'’\"”]{3,}?)['’\"”](?!\w)")


#: Where a question asks a second thing of what it named ("who fixed 'X', and in which PR?", "which company
#: reported it and who fixed it?"): "and" before a question word or an auxiliary.
SECOND_ASK = re.compile(
    r"(?:,\s*|\s+)(?:and|\+|&)\s+(?=(?:who|whom|which|what|when|where|how many|how much|in which|is|was|were|has|"
    r"have|had|did|does|do|can you)\b)",
    re.I,
)
#: A topic said before the question ("'X' on PitchForce — who owns it", "ContentForce SDD: who wrote it").
TOPIC_LEAD = re.compile(r"^(?P<topic>[^:—–?]{3,}?)\s*(?::|—|–|\s-\s)\s*(?=\S)")
#: A second ask that says only what it asks for ("and in which PR?"): the first ask's verb is its verb.
ELLIPSIS = re.compile(r"^(?:in|with|by|through|via|from)\s+which\s+(?P<noun>\w+(?:\s+\w+)?)\s*[?.!]*$", re.I)
#: A second ask for the item's PR with no verb of its own ("and which PR?", "which PR did it", "what's the PR
#: link", "can you give me the PR link", "which PR has the fix"): the first ask's verb is its verb.
PR_ELLIPSIS = re.compile(
    r"^(?:(?:in|with|by|through|via|from)\s+)?(?:which|what(?:'s|\s+is|\s+was)?(?:\s+the)?|"
    r"(?:can\s+you\s+)?(?:give|send|share)\s+(?:me\s+)?the)\s+(?:pr\s+link|pr|pull\s+request|fix(?:ing)?\s+pr|link)"
    r"(?:\s+(?:did\s+(?:it|that|they|the\s+fix)|was\s+(?:it|that|the\s+fix)|has\s+the\s+fix|had\s+the\s+fix|"
    r"was\s+it\s+in|is\s+it\s+in))?\s*[?.!]*$",
    re.I,
)
#: The verb a "who / what / which <noun>" question asks with ("who actually fixed …", "which engineer fixed …").
ASKED_VERB = re.compile(r"\b(?:who|what|which\s+\w+)\s+(?:\w+ly\s+)?(?P<verb>\w+ed)\b", re.I)
#: The pronoun by which a second ask refers back to what the first named.
BACK_REFERENCE = re.compile(r"\b(?:it|they|them)\b", re.I)


def two_asks(text: str) -> tuple[str, str] | None:
    """A question that asks two things of one item named by its quoted title, as two questions that each name
    it: the first as typed up to "and", the second after the topic said first, or with the title in place of its
    pronoun ("and was it fixed"), or with the first's verb ("who fixed 'X', and in which PR": which PR fixed
    'X'). None when the question asks one thing or names no one title ("who wrote and who reviewed …" is one
    question of the intent table)."""
    parts = SECOND_ASK.split(text.strip(), maxsplit=1)
    if len(parts) != 2 or not parts[1].strip(" ?.!"):
        return None
    first, second = parts[0].strip(), parts[1].strip()
    titles = quoted_titles(first)
    if len(titles) != 1:  # the item is named by its title, once: what "it" in the second ask refers back to
        return None
    lead = TOPIC_LEAD.match(first)
    named = f"'{titles[0]}'"
    verb = ASKED_VERB.search(first)
    if verb is not None and PR_ELLIPSIS.match(second):  # "who fixed 'X' and which PR did it?"
        return first + "?", f"which PR {verb.group('verb')} {named}?"
    if lead is not None and quoted_titles(lead.group("topic")):  # "'X' on PitchForce — who owns it, and …"
        return first + "?", f"{lead.group('topic').strip()}: {second}"
    if (short := ELLIPSIS.match(second)) and verb is not None:  # "…, and in which PR?"
        return first + "?", f"which {short.group('noun')} {verb.group('verb')} {named}?"
    said = BACK_REFERENCE.sub(named, second, count=1)
    return first + "?", said if said != second else f"{second.rstrip(' ?.!')} for {named}?"


def quoted_titles(text: str) -> list[str]:
    """The titles a question quotes, as typed."""
    return [m.group(1).strip() for m in QUOTED_TITLE.finditer(text)]


def clean_text(raw: str | bytes) -> str:
    """Validate a question's raw input: decodable, non-empty, bounded. Raises KGError with the reason."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise KGError(f"the question is not valid UTF-8 text (byte {exc.start})") from exc
    if any("\ud800" <= c <= "\udfff" for c in raw):  # undecodable argv bytes arrive as surrogate escapes
        raise KGError("the question is not valid UTF-8 text")
    if "\x00" in raw or sum(1 for c in raw if unicodedata.category(c) == "Cc" and c not in "\t\n\r") > 0:
        raise KGError("the question contains control characters; send plain text")
    text = raw.strip()
    if not text:
        raise KGError("the question is empty")
    if len(text) > MAX_QUESTION_CHARS:
        raise KGError(f"the question is {len(text):,} characters long; the limit is {MAX_QUESTION_CHARS:,}")
    return text


@cache
def _whole_words(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)")


def _find_longest(norm: str, vocab: dict[str, str]) -> list[str]:
    """Vocabulary entries occurring as whole words, longest first, not overlapping one another."""
    found: list[tuple[int, int, str]] = []
    for key in sorted((k for k in vocab if k in norm), key=len, reverse=True):
        for m in _whole_words(key).finditer(norm):
            if not any(m.start() < e and s < m.end() for s, e, _ in found):
                found.append((m.start(), m.end(), vocab[key]))
    return [name for _, _, name in sorted(found)]


@cache
def lexicon_data() -> dict[str, Any]:
    """lexicon.toml as read, once: its short forms (here), cues, stop and filler words (kg/qa/cues.py)."""
    return tomllib.loads(LEXICON.read_text(encoding="utf-8"))


@cache
def abbreviations() -> tuple[re.Pattern[str], dict[str, str]]:
    """The lexicon's short forms as one whole-word pattern (longest first) and their spelled-out forms."""
    table = lexicon_data()["abbreviations"]
    alternatives = "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True))
    return re.compile(rf"(?<![\w/&-])(?:{alternatives})(?![\w/&]|-\d|(?<=\b\w\w)-)"), table


#: A plural's possessive apostrophe ("analysts' ids"), or a closing quote after an s.
PLURAL_POSSESSIVE = re.compile(r"(?<=\ws)'(?!\w)")


def spelled_out(norm: str) -> str:
    """Normalised text with the lexicon's short forms ("prev", "eng lead", "b/c") spelled out."""
    pattern, table = abbreviations()

    def long(m: re.Match[str]) -> str:
        full = table[m.group(0)]
        rest = full.removeprefix(m.group(0))  # "vp" is "vp of engineering": not again after "vp of engineering"
        return m.group(0) if rest and norm[m.end() :].startswith(rest) else full

    return pattern.sub(long, norm)


def with_names(norm: str, products: dict[str, str]) -> str:
    """The text with a product's former name ("onforcex") written as the product's name ("actiongenie"), so
    every reader reads the product where the question names it either way."""
    for key, name in products.items():
        own = normalise(name)
        if key == own or key not in norm:
            continue
        k, n = re.escape(key), re.escape(own)
        norm = re.sub(rf"(?<![\w/.-])(?:{n}/{k}|{k}/{n})(?![\w/-])", own, norm)  # "workflowgenie/flowaix": both
        # not inside a link or an id ("…/toraix/pull/11"); "the shaix repo" names a repository, not the product
        norm = re.sub(rf"(?<![\w/.-]){k}(?![\w/-]|\s+repo)", own, norm)
    return norm


#: Words for people after which a location said in lower case is still one ("remote engineers").
PEOPLE_AFTER = (
    r"(?:\w+\s+)?(?:engineers?|employees?|members?|people|staff|folks|colleagues?|teammates?|workers?|devs?)\b"
)


def location_forms(locations: list[str]) -> list[str]:
    """The ways a question names a place: the place, "London-based", "based in London"."""
    return [form for loc in locations for form in (loc, f"{loc} based", f"based in {loc}")]


def _names_location(location: str, text: str) -> bool:
    """The question names the location: as written ("Remote", "Berlin"), or in lower case before a word for
    people ("remote engineers"), never a lower-case word alone ("a remote server")."""
    name = re.escape(location)
    if re.search(rf"(?<!\w){name}(?!\w)", text):
        return True
    if re.search(rf"(?<!\w)(?:are|is|work|works|working|worked)\s+(?:fully\s+)?{name}(?:ly)?(?!\w)", text, re.I):
        return True  # "which product managers work remotely", "who is remote"
    return re.search(rf"(?<!\w){name}\s+{PEOPLE_AFTER}", text, re.I) is not None


def parse(raw: str | bytes, vocab: Vocabulary) -> Question:
    text = clean_text(raw)
    full = with_names(spelled_out(normalise(text)), vocab.products)
    time, norm = find_time(full)
    # plural possessives plain for the slots ("analysts' ids" names the role); the cues still see them
    q = Question(text=text, norm=norm, sing=singular_text(PLURAL_POSSESSIVE.sub("", norm)), time=time)
    own = {k: v for k, v in vocab.products.items() if k == normalise(v)}  # former names are written as these now
    products = _find_longest(full, own) or _find_longest(full.replace("'s", ""), own)
    q.across = find_across(text, vocab.products, sorted(set(own.values())), vocab.compounds)
    if len(set(products)) > 1 and q.across is None:
        raise KGError(
            f"the question names {len(set(products))} products ({', '.join(dict.fromkeys(products))}) without "
            "saying how they go together ('both X and Y', 'X or Y', 'across all products'); ask about one product "
            "at a time, or join them so"
        )
    q.product = products[0] if products and q.across is None else None
    for kind, names in DOC_KINDS.items():
        if any(
            (n in q.sing and _whole_words(n).search(q.sing)) or (n in norm and _whole_words(n).search(norm))
            for n in names
        ):
            q.doc_kind = kind
            break
    q.roles = _find_longest(q.sing, vocab.singular_roles)
    q.companies = list(dict.fromkeys(_find_longest(norm, vocab.companies)))
    q.eids = list(dict.fromkeys(re.findall(r"\beid_[0-9a-f]{8}\b", norm)))
    q.customer_ids = list(dict.fromkeys(re.findall(r"\bcust-\d{4}\b", norm)))
    q.customer_ids = [c.upper() for c in q.customer_ids]
    q.locations = [v for v in vocab.locations.values() if _names_location(v, text)]
    q.repos, q.repo_words = named_repos(norm, vocab)
    return q


#: The words that say a name is a code repository's.
REPO_WORDS = r"repo|repos|repository|repositories|codebase|code base"
#: A question opening with the asker ("I'm new to the X repo …") sets a scene in its first few words.
ASKER_OPENING = frozenset({"i", "im", "we", "were", "ive", "weve"})
ASKER_SCENE_WORDS = 6
REPO_NAMED = re.compile(
    rf"(?<![\w.-])(?P<a>[\w.-]+(?:/[\w.-]+)?) (?:{REPO_WORDS})(?!\w)|(?:{REPO_WORDS}) (?P<b>[\w.-]+/[\w.-]+)(?![\w/])"
)


def named_repos(norm: str, vocab: Vocabulary) -> tuple[list[str], list[str]]:
    """The repositories a question names as repositories ("the CollaborationForce repo", "the
    salesforce/CollaborationForce repository", "repo salesforce/ATF_AIX"), and the words that name each."""
    found: dict[str, str] = {}
    for m in REPO_NAMED.finditer(norm):
        before = norm[: m.start()].split()
        if len(before) <= ASKER_SCENE_WORDS and before[:1] and before[0].replace("'", "") in ASKER_OPENING:
            continue  # "I'm new to the SearchForce repo. …": where the asker works, not a filter on the answer
        name = m.group("a") or m.group("b")
        if name in vocab.repos:
            found.setdefault(vocab.repos[name], m.group(0))
    return list(found), list(found.values())
