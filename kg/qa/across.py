"""Questions across products: "the Technical Architects on both the LeadForce and PitchForce teams", "how many
… across all products", "which product has the most …". The question is asked of each product as the question
it would be about that product alone, read by the same readers, and the answers combine by the question's
connective (the words are data, kg/qa/across.toml):

- both (an intersection): the items in every product's answer ("both X and Y", "X and also Y", "in every product");
- either (a union): the items of any product's answer ("X or Y", "across X and Y", "across all products"); a count
  counts them together, a "most" sums each item's count over the products' ranked rows;
- rank: the products ranked by how many items each one's answer has ("which product has the most …").

A join said with "and" alone may mean either, so it is no reading: the answer is uncertain and offers both. An
employee is the same eid in every product (the organisation graph); a company the same name. Every product's
answer is kept with its own citations or proof (`Answer.cross`), and "nothing" holds only where every product's
proof held, or (both) where the products' full answers share no item, those answers the proof: otherwise the
answer is uncertain. Where any product's reading is uncertain or unsupported, so is the
whole question, with that product's reason: never another product's answer alone.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.text import singular

if TYPE_CHECKING:
    from kg.qa.answer import Answer

DATA = Path(__file__).with_name("across.toml")
#: Where the product goes in the question asked of one product.
MARK = "⟦product⟧"
#: How many products a reason names with their counts before it says "…" (`cross.parts` has them all).
SHOWN = 5
#: Answer types whose answers are items to join (an ontology reading's "name" is a title, a label or a link).
ITEM_TYPES = frozenset({"person", "company", "pr", "url", "name"})


@cache
def data() -> dict[str, Any]:
    return tomllib.loads(DATA.read_text(encoding="utf-8"))


def words_pattern(phrases: Iterable[str]) -> str:
    """One alternation of the phrases, longest first, each matched as whole words with any spacing."""
    ordered = sorted(phrases, key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(w) for w in p.split()) for p in ordered)


@dataclass(frozen=True)
class Across:
    """A question over several products: how their readings combine, which products, the words that said it
    and the question as asked of one product."""

    #: both | either | and (said with "and" alone: read neither way) | rank | unread (a product named beside
    #: "every product")
    kind: str
    products: tuple[str, ...]
    #: the words that said it, as typed ("both the LeadForce and PitchForce", "across all products")
    said: str
    #: the question as asked of one product, MARK where the product goes
    template: str
    #: the products were named in the question (else: every product the caller reads)
    named: bool = True
    #: for rank: the fewest instead of the most
    fewest: bool = False
    #: for "and": the question said with "both" and with "or", the readings offered
    readings: tuple[str, ...] = ()

    def asked_of(self, product: str) -> str:
        return self.template.replace(MARK, product)

    def within(self, products: Sequence[str]) -> Across:
        """The question over only the caller's products, where it says "every product"."""
        return self if self.named else replace(self, products=tuple(p for p in self.products if p in products))

    def shown(self) -> str:
        """How the reading line shows it: "in every one of LeadForce, PitchForce", "in any of ActionGenie, …"."""
        listed = ", ".join(self.products)
        if self.kind == "rank":
            return f"the product with the {'fewest' if self.fewest else 'most'}, of {listed}"
        if self.kind == "both":
            return f"in every one of {listed}"
        return f"in any of {listed}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "said": self.said,
            "products": list(self.products),
            "named": self.named,
            "shown": self.shown(),
        }


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    name: str


@cache
def mention_pattern(keys: tuple[str, ...]) -> re.Pattern[str]:
    """A product's name (or former name) as typed, with its possessive; not inside a link or an id, nor "the X
    repo" (a repository is not the whole product)."""
    return re.compile(rf"(?<![\w/.-])(?:{words_pattern(keys)})(?:['’]s)?(?![\w/-])(?!\s+repo\b)", re.I)


def mentions(text: str, names: dict[str, str]) -> list[Mention]:
    """The products the text names, in order: {normalised name or former name: product} as the vocabulary
    holds them."""
    if not names:
        return []
    found = []
    for m in mention_pattern(tuple(sorted(names))).finditer(text):
        key = re.sub(r"['’]s$", "", m.group(0), flags=re.I).casefold()
        if (name := names.get(" ".join(key.split()))) is not None:
            found.append(Mention(m.start(), m.end(), name))
    return found


@cache
def gap_pattern() -> re.Pattern[str]:
    """What may stand between two products joined: the noun said after each ("the X team as well as the Y
    team"), a comma or a separator, a preposition, "the"."""
    join = data()["join"]
    seps = words_pattern(s for s in join["separators"] if s != ",")
    preps = words_pattern(join["prepositions"])
    noun = rf"(?:(?!(?:{seps}|{preps}|the)(?!\w))(?P<noun>[^\W\d_]+)\s*)?"
    return re.compile(rf"^\s*{noun}(?P<comma>,)?\s*(?:(?P<sep>{seps})\s+)?(?:(?:{preps})\s+)?(?:the\s+)?$", re.I)


@cache
def before_pattern() -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?P<word>{words_pattern(data()['join']['before'])})\s+(?:the\s+)?$", re.I)


@cache
def after_pattern() -> re.Pattern[str]:
    return re.compile(rf"^\s+(?:{words_pattern(data()['join']['after'])})(?!\w)", re.I)


def combined_by(words: Iterable[str]) -> str:
    """both, either, or "and" (read neither way) for the words that joined the products."""
    said = {" ".join(w.casefold().split()) for w in words}
    both = bool(said & set(data()["combine"]["both"]))
    either = bool(said & set(data()["combine"]["either"]))
    return "both" if both and not either else "either" if either and not both else "and"


def joined(text: str, found: list[Mention]) -> Across | None:
    """Products named one after the other with a join between each two, as one span of the question; None when
    they stand apart (the question names several products without saying how they go together)."""
    words: list[str] = []
    nouns = set()
    for one, two in pairwise(found):
        gap = gap_pattern().match(text[one.end : two.start])
        if gap is None or not (gap["comma"] or gap["sep"]):
            return None
        words.append(gap["sep"] or ",")
        nouns.add(singular(gap["noun"].casefold()) if gap["noun"] else "")
    first, last = found[0], found[-1]
    noun = nouns.pop() if len(nouns) == 1 else None
    said_after = re.match(r"\s+([^\W\d_]+)", text[last.end :]) if noun else None
    if noun is None or (noun and not (said_after and singular(said_after[1].casefold()) == noun)):
        return None  # a noun after some products and not the others: they stand apart
    start, replacement = first.start, ""
    if before := before_pattern().search(text[: first.start]):
        word = " ".join(before["word"].casefold().split())
        words.append(word)
        start, replacement = before.start(), data()["join"]["before"][word]
    end = last.end + (said_after.end() if said_after else 0)
    if after := after_pattern().match(text[end:]):
        words.append(after.group(0).strip())
        end += after.end()
    possessive = "'s" if re.search(r"['’]s$", text[first.start : first.end]) else ""
    lead = text[start : first.start] if not before else text[before.end("word") : first.start].lstrip()
    said = f"{replacement} " if replacement else ""
    own_noun = re.match(r"\s+[^\W\d_]+", text[first.end :]) if said_after else None
    after_first = own_noun[0] if own_noun else ""
    template = text[:start] + said + lead + MARK + possessive + after_first + text[end:]
    products = tuple(dict.fromkeys(m.name for m in found))
    kind = combined_by(words)
    readings = both_and_either(text, found, start) if kind == "and" else ()
    return Across(kind, products, text[start:end].strip(), template, readings=readings)


def both_and_either(text: str, found: list[Mention], start: int) -> tuple[str, ...]:
    """The question said with "both" (or "each of", for more than two) and with "or" in its "and"s."""
    lead = re.search(r"(?i)(?<!\w)the\s+$", text[: found[0].start])
    at = min(start, lead.start()) if lead else start
    both = text[:at] + ("both " if len(found) == 2 else "each of ") + text[at:]
    either = text[: found[0].end]
    for one, two in pairwise(found):
        either += re.sub(r"(?i)(?<!\w)and(?!\w)", "or", text[one.end : two.start], count=1) + text[two.start : two.end]
    return both, either + text[found[-1].end :]


def every_product(text: str, everything: Sequence[str], compounds: Sequence[str] = ()) -> Across | None:
    """A phrase naming every product the caller reads ("across all products", "in every product"); not one
    whose last word begins a longer name (`compounds`: "for every product manager" names a role)."""
    prepositions = set(data()["join"]["prepositions"]) - {"across"}
    every = data()["all"]
    for kind in ("both", "either", "either_way"):
        found = re.finditer(rf"(?<!\w)(?:{words_pattern(every[kind])})(?!\w)", text, re.I)
        whole = (m for m in found if not begins(text[m.start() :], m.group(0).split()[-1], compounds))
        if m := next(whole, None):
            first = m.group(0).split()[0].casefold()
            prep = first if first in prepositions else every["preposition"]
            template = text[: m.start()] + f"{prep} {MARK}" + text[m.end() :]
            if kind != "either_way":
                return Across(kind, tuple(everything), m.group(0), template, named=False)
            said = tuple(text[: m.start()] + every[f"{k}_said"] + text[m.end() :] for k in ("both", "either"))
            return Across("and", tuple(everything), m.group(0), template, named=False, readings=said)
    return None


def begins(text: str, last: str, compounds: Sequence[str]) -> bool:
    """The phrase's last word, where it stands in the text, begins one of the compounds ("product manager")."""
    rest = " ".join(text.casefold().split())
    at = rest.find(last.casefold())
    return any(c.startswith(last.casefold() + " ") and rest[at:].startswith(c) for c in compounds)


@cache
def rank_pattern() -> re.Pattern[str]:
    rank = data()["rank"]
    gap = rf"(?:(?:{words_pattern(rank['gap_words'])})\s+){{0,{rank['gap']}}}"
    return re.compile(
        rf"^\W*(?P<said>(?:{words_pattern(rank['opening'])})\s+{gap}(?:the\s+)?"
        rf"(?:(?P<most>{words_pattern(rank['most'])})|(?P<fewest>{words_pattern(rank['fewest'])})))\s+(?P<rest>.*\w)",
        re.I | re.S,
    )


def ranks_products(text: str, everything: Sequence[str]) -> Across | None:
    """ "Which product has the most <rest>?": each product asked "which <rest>" of it, ranked by how many."""
    m = rank_pattern().match(text)
    if m is None:
        return None
    rank = data()["rank"]
    owned = rf"(?i)(?<!\w)(?:{words_pattern(rank['possessives'])})(?!\w)"
    rest = re.sub(owned, f"{MARK}'s", m["rest"])
    asked = rank["asked"].replace("{rest}", rest).replace("{product}", MARK) if MARK not in rest else f"Which {rest}"
    said = m["said"]
    return Across("rank", tuple(everything), said, asked + "?", named=False, fewest=m["fewest"] is not None)


def ranks_named(text: str, group: Across) -> Across:
    """ "Which of X and Y has the most <rest>?": the named products ranked as "which product" ranks them all;
    any other join as it is."""
    opening = re.match(rf"^\W*(?:{words_pattern(data()['rank']['named_opening'])})\s+", text, re.I)
    end = text.find(group.said) + len(group.said)
    if opening is None or text.find(group.said) != opening.end():
        return group
    ranked = ranks_products("Which product " + text[end:].lstrip(), group.products)
    return replace(ranked, said=text[:end].strip(), named=True) if ranked is not None else group


def find(text: str, names: dict[str, str], everything: Sequence[str], compounds: Sequence[str] = ()) -> Across | None:
    """How the question spans products, if it does: several products joined, or every product the caller
    reads. None for a question about one product (or none), and for several products named apart, which
    the caller refuses as before. `compounds`: the longer names a word of "every product" may begin (roles,
    document kinds: "every product manager" is no product)."""
    found = mentions(text, names)
    distinct = set(m.name for m in found)
    if len(distinct) > 1:
        group = joined(text, found)
        return ranks_named(text, group) if group is not None else None
    every = every_product(text, everything, compounds) or ranks_products(text, everything)
    if every is not None and distinct:
        return replace(every, kind="unread", products=tuple(distinct))
    return every


# ---------------------------------------------------------------------------------------------------------------
# Combining the products' answers


def items_of(part: Answer) -> list[str]:
    """The items a product's answer holds: a list's, or those a count counted."""
    if part.type == "count" and part.operator:
        return list(part.operator.get("items", []))
    return list(part.answer) if isinstance(part.answer, list) else []


def part_json(product: str, asked: str, part: Answer) -> dict[str, Any]:
    """One product's answer as the combined answer keeps it: what was asked of it, its outcome, its items or
    value, its citations and its proof."""
    proof = {k: v for k, v in (part.proof or {}).items() if k != "text"} or None
    return {
        "product": product,
        "asked": asked,
        "outcome": part.outcome,
        "intent": part.intent,
        "answer": part.answer,
        "citations": part.citations,
        "reason": part.reason,
        "proof": proof,
    }


def proved_empty(part: Answer) -> bool:
    """The product's answer is "nothing" on a proof: absent, or a count of 0 over a core whose proof held."""
    held = part.proof is not None and part.proof.get("result") is True
    return part.outcome == "absent" or (part.type == "count" and part.answer == "0" and held)


def proof_of(parts: dict[str, Answer]) -> dict[str, Any]:
    """Every product's proof, as one: it holds when each holds."""
    return {
        "query": "each product's proof",
        "bindings": {p: (a.proof or {}).get("query") for p, a in parts.items()},
        "result": all(proved_empty(a) for a in parts.values()),
    }


def doubt(parts: dict[str, Answer]) -> tuple[str, str] | None:
    """(outcome, reason) when some product's reading is no answer: uncertain, or unsupported where no product's
    question is read at all."""
    bad = {p: a for p, a in parts.items() if a.outcome in ("uncertain", "unsupported")}
    if not bad:
        return None
    product, first = next(iter(bad.items()))
    reason = (first.reason or "").removeprefix("uncertain reading: ").removeprefix("unsupported question: ")
    if all(a.outcome == "unsupported" for a in parts.values()):
        return "unsupported", f"unsupported question: asked of {product}: {reason}"
    return "uncertain", f"uncertain reading: asked of {product}: {reason}"


def prepared(across: Across, parts: dict[str, Answer], template: Answer) -> Answer:
    """The answer to fill (`template`: the question, its slots) with every product's own answer kept in `cross`."""
    shown = {**across.to_json(), "parts": [part_json(p, across.asked_of(p), a) for p, a in parts.items()]}
    return replace(template, cross=shown, slots={**template.slots, "products": list(across.products)})


def combine(across: Across, parts: dict[str, Answer], template: Answer) -> Answer:
    """The products' answers combined by the question's connective, each product's kept in `cross`."""
    base = prepared(across, parts, template)
    if (bad := doubt(parts)) is not None:
        return uncertain(base, bad[1], bad[0])
    read = next((a for a in parts.values() if a.intent), None)
    base = replace(base, type=read.type, intent=read.intent) if read else base
    answered = [a for a in parts.values() if a.outcome == "answer"]
    if not answered:
        return absent(base, parts)
    first = answered[0]
    base = replace(base, outcome="answer", abstain=False, reason=None, type=first.type, intent=first.intent)
    if across.kind == "rank":
        return rank(across, base, parts)
    base = replace(base, operator=first.operator)
    types = {a.type for a in answered}
    if len(types) > 1:
        return uncertain(base, f"the products' readings answer differently ({', '.join(sorted(types))})")
    kind = first.type
    if kind == "yes_no":
        return yes_or_no(across, base, parts)
    if kind == "content":
        return prose(across, base, parts)
    if kind not in ITEM_TYPES and kind != "count":
        return uncertain(base, f"a {kind} answer per product is not combined across products")
    return items(across, base, parts)


def items(across: Across, base: Answer, parts: dict[str, Answer]) -> Answer:
    """The items of every product's answer (both) or any one's (either); a count counts them."""
    per = {p: set(items_of(a)) if a.outcome == "answer" else set() for p, a in parts.items()}
    joined_items = set.intersection(*per.values()) if across.kind == "both" else set.union(*per.values())
    cites = sorted({c for p, a in parts.items() if per[p] for c in a.citations})
    if not joined_items:
        if all(proved_empty(a) for a in parts.values()):
            if base.type == "count":  # 0 on every product's proof
                return replace(base, answer="0", operator={**(base.operator or {}), "items": []}, proof=proof_of(parts))
            return absent(base, parts)
        counts = ", ".join(f"{p} {len(v)}" for p, v in list(per.items())[:SHOWN]) + (", …" if len(per) > SHOWN else "")
        if across.kind == "both":  # each product's full answer, and none of their items is in all of them
            return disjoint(replace(base, citations=cites), per, counts)
        return uncertain(base, f"no item is in any product's answer ({counts}), and not every product's proof says so")
    found = sorted(joined_items)
    if base.type == "count":
        operator = {**(base.operator or {}), "items": found}
        return replace(base, answer=str(len(found)), citations=cites, operator=operator)
    return replace(base, answer=found, citations=cites)


def yes_or_no(across: Across, base: Answer, parts: dict[str, Answer]) -> Answer:
    """Yes when every product says yes (both) or any does (either); each product's no rests on its own proof
    or its full answer."""
    said = [a.answer == "yes" for a in parts.values()]
    yes = all(said) if across.kind == "both" else any(said)
    cites = sorted({c for a in parts.values() for c in a.citations})
    if yes:
        return replace(base, answer="yes", citations=cites, proof=None)
    noes = [p for p, a in parts.items() if a.answer != "yes"]
    proof = {  # each product's no rests on its own proof or full answer, kept in `cross.parts`
        "query": "each product's yes or no",
        "bindings": {p: a.answer for p, a in parts.items()},
        "result": f"no in {', '.join(noes)}",
    }
    return replace(base, answer="no", citations=cites, proof=proof)


def prose(across: Across, base: Answer, parts: dict[str, Answer]) -> Answer:
    """A written answer per product, said product by product (either); prose has no items to intersect."""
    if across.kind == "both":
        return uncertain(base, "the answer is prose, which has no items to find in every product's answer")
    lines = [f"{p}: {line}" for p, a in parts.items() if a.outcome == "answer" for line in str(a.answer).splitlines()]
    cites = sorted({c for a in parts.values() for c in a.citations})
    return replace(base, answer="\n".join(lines), citations=cites)


def rank(across: Across, base: Answer, parts: dict[str, Answer]) -> Answer:
    """The products ranked by how many items each one's answer has: the most (or fewest) first, ties sharing
    the place; a product whose proof held has none."""
    prose_parts = [p for p, a in parts.items() if a.outcome == "answer" and a.type not in ITEM_TYPES]
    if prose_parts:
        return uncertain(base, f"asked of {prose_parts[0]}, the answer is prose, not items to count")
    counts = {p: len(items_of(a)) if a.outcome == "answer" else 0 for p, a in parts.items()}
    if not any(counts.values()):
        return absent(base, parts)
    pick = min(counts.values()) if across.fewest else max(counts.values())
    top = sorted(p for p, n in counts.items() if n == pick)
    ranked = sorted(counts.items(), key=lambda pn: (pn[1] if across.fewest else -pn[1], pn[0]))
    cites = sorted({c for p in top for c in parts[p].citations})
    cross = {**(base.cross or {}), "ranked": [[p, n] for p, n in ranked]}
    return replace(base, answer=top, type="name", citations=cites, cross=cross)


def summed(rows: Iterable[list[tuple[str, int]]]) -> list[tuple[str, int]]:
    """Each item's count over the products' ranked rows, most first (ties by name)."""
    total: dict[str, int] = {}
    for product_rows in rows:
        for item, n in product_rows:
            total[item] = total.get(item, 0) + n
    return sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))


def disjoint(base: Answer, per: dict[str, set[str]], counts: str) -> Answer:
    """Nothing in every product: the products' own answers, which share no item, are the proof (as an excluded
    item's or a yes or no's own answer is); a count is 0 on it."""
    proof = {
        "query": "each product's answer",
        "bindings": {p: sorted(items) for p, items in per.items()},
        "result": f"no item is in every product's answer ({counts})",
    }
    if base.type == "count":
        return replace(base, answer="0", operator={**(base.operator or {}), "items": []}, proof=proof)
    why = f"no item is in every product's answer ({counts}): each product's answer is cited, and they share none"
    return replace(base, abstain=True, answer=None, outcome="absent", reason=why, proof=proof)


def absent(base: Answer, parts: dict[str, Answer]) -> Answer:
    """Nothing in any product: every product's proof held."""
    return replace(
        base,
        abstain=True,
        answer=None,
        citations=[],
        outcome="absent",
        reason="every product's proof holds: the graph holds nothing that fits in any of them",
        proof=proof_of(parts),
    )


def uncertain(base: Answer, why: str, outcome: str = "uncertain") -> Answer:
    reason = why if why.startswith(("uncertain reading: ", "unsupported question: ")) else f"uncertain reading: {why}"
    return replace(base, abstain=True, answer=None, citations=[], outcome=outcome, reason=reason, proof=None)
