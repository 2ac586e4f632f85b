"""A question that asks about an item it describes by another question ("Who manages the engineer that fixed
'X'?", "The engineer who fixed 'X' - who is their manager?", "Who authored the PR that fixed 'X'?"): the inner
question, asked first, must name one item; the outer question is then asked of that item.

Only the words are read here, as data below: which nouns a relative clause may describe, what they ask for, and
the pronouns by which an outer clause points back. kg/qa/answer.py asks both and joins the answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Nouns a relative clause may describe, with the words that ask for one as a question ("who", "which PR").
NOUNS = {
    "engineer": "who",
    "developer": "who",
    "person": "who",
    "employee": "who",
    "reviewer": "who",
    "author": "who",
    "pr": "which PR",
    "pull request": "which PR",
    "bug": "which bug",
    "issue": "which bug",
}
_NOUN = "|".join(sorted(map(re.escape, NOUNS), key=len, reverse=True))
#: "… the engineer that fixed 'X'?": the clause runs to the end of the question.
EMBEDDED = re.compile(
    rf"^(?P<head>.*?\b(?:who|whom|which|what)\b.*?)"
    rf"\b(?:the (?P<noun>{_NOUN})s? (?:that|who|which)|(?P<whoever>whoever))"
    r" (?P<clause>[^?]+?)\s*(?P<end>[?.!]*)\s*$",
    re.I,
)
#: "… the fix PR for 'X'?": the PR that fixed it.
FIXING = re.compile(
    r"^(?P<head>.*?\b(?:who|whom|which|what)\b.*?)\bthe (?:fix|fixing) (?:pr|pull request) (?:for|of) "
    r"(?P<clause>[^?]+?)\s*(?P<end>[?.!]*)\s*$",
    re.I,
)
#: "The engineer who fixed 'X' - who is their manager?", "Whoever fixed 'X': who do they report to?"
FRONTED = re.compile(
    rf"^\s*(?:the (?P<noun>{_NOUN})s? (?:that|who|which)|(?P<whoever>whoever)) (?P<clause>.+?)\s*[-–—:;,]\s+"
    r"(?P<outer>.+)$",
    re.I,
)
#: Pronouns by which the outer clause points back to the item, each with what stands in its place.
POINTERS = (
    (re.compile(r"\b(?:do|did|does) (?:they|he|she)\b", re.I), "does {item}"),
    (re.compile(r"\b(?:their|his|her|its)\b", re.I), "{item}'s"),
    (re.compile(r"\b(?:they|he|she|them|him|it)\b", re.I), "{item}"),
)


@dataclass(frozen=True)
class Nested:
    """The inner question, and the outer one with `{item}` where the inner's one answer goes."""

    inner: str
    outer: str


def nested(text: str) -> Nested | None:
    """The two questions of a question that describes its item by another one; None when it is not so said."""
    if m := FRONTED.match(text):
        ask = "who" if m.group("whoever") else NOUNS[m.group("noun").casefold()]
        for pointer, said in POINTERS:
            if pointer.search(m.group("outer")):
                return Nested(f"{ask} {m.group('clause')}?", pointer.sub(said, m.group("outer"), count=1))
        return None
    if m := EMBEDDED.match(text):
        ask = "who" if m.group("whoever") else NOUNS[m.group("noun").casefold()]
        inner = f"{ask} {m.group('clause')}?"
        if ask == "which bug" and (verb := re.match(r"(\S+) (\w+ed)\b(.*)$", m.group("clause"))):
            inner = f"which bug did {verb.group(1)} {verb.group(2)}{verb.group(3)}?"  # "the bug that <PR> fixed"
        return Nested(inner, f"{m.group('head')}{{item}}{m.group('end') or '?'}")
    if m := FIXING.match(text):
        return Nested(f"which PR fixed {m.group('clause')}?", f"{m.group('head')}{{item}}{m.group('end') or '?'}")
    return None
