"""A question's anchor nodes: the graph nodes it names, on which PPR is seeded beside the top lexical hits.

Names come from the graph itself (labels of products and their former names, components, people, companies,
channels, competitors), from the fixed document-kind phrases the QA parser knows, and from ids written in the
text (`eid_…`, `CUST-…`). A new product, component or person needs no code change.
"""

from __future__ import annotations

import re

from kg.namespaces import node, term
from kg.text import DOC_KINDS, normalise, singular_text

MAX_NAME_WORDS = 6
MIN_NAME_CHARS = 3
EID = re.compile(r"\beid_[0-9a-f]{8}\b")
CUSTOMER = re.compile(r"\bcust-\d{4}\b")


def word_ngrams(norm: str, longest: int = MAX_NAME_WORDS) -> set[str]:
    words = norm.split()
    return {" ".join(words[i : i + n]) for n in range(1, longest + 1) for i in range(len(words) - n + 1)}


def named_nodes(text: str, labels: dict[str, list[str]]) -> dict[str, list[str]]:
    """Name found in the text -> node IRIs with that name (labels are keyed by their normalised form)."""
    norm = normalise(text)
    grams = word_ngrams(norm) | word_ngrams(singular_text(norm))
    return {g: labels[g] for g in sorted(grams) if len(g) >= MIN_NAME_CHARS and g in labels}


def kind_nodes(text: str) -> dict[str, list[str]]:
    """Document-kind phrase -> the ekg:DocumentKind individual (documents hang off it by ekg:documentKind)."""
    norm = normalise(text)
    sing = singular_text(norm)
    for kind, phrases in DOC_KINDS.items():
        for phrase in phrases:
            if re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", norm) or re.search(
                rf"(?<!\w){re.escape(phrase)}(?!\w)", sing
            ):
                return {phrase: [term(f"ekg:{kind}").value]}
    return {}


def id_nodes(text: str) -> dict[str, list[str]]:
    """`eid_…` -> the person, `CUST-…` -> the customer."""
    low = text.casefold()
    found = {e: [node("person", e).value] for e in EID.findall(low)}
    found.update({c.upper(): [node("customer", c.upper()).value] for c in CUSTOMER.findall(low)})
    return found


def anchors(text: str, labels: dict[str, list[str]], known: dict[str, int]) -> dict[str, list[int]]:
    """Every anchor of the text that is a node of this graph: name -> node indices."""
    found = {**named_nodes(text, labels), **kind_nodes(text), **id_nodes(text)}
    out = {name: [known[i] for i in iris if i in known] for name, iris in found.items()}
    return {name: nodes for name, nodes in out.items() if nodes}
