"""The entities a question names: by id (eid_…, CUST-…, a PR or document link, a HERB artifact id) or by
title or name (a bug's or PR's title, a person's name, a feature, competitor, company, release or product label).

A name several entities share (HERB has 530 employees and 98 distinct names) is kept as one `Mention` with
every candidate: the reader reports it as uncertain, never picks one. Names are whole words of the question;
where two overlap the longer wins ("Token Expiry Mismanagement" over a bug titled "Token Expiry").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from weakref import WeakKeyDictionary

from pyoxigraph import Literal, NamedNode

from kg.namespaces import ID, product_of_graph
from kg.qa.question import quoted_titles
from kg.query.sparql import Backend, Row, named_query, term_text
from kg.text import EXTERNAL_PR, normalise
from kg.vocab import XSD_ANYURI

#: Ids a question may hold: an employee or customer id, a link, a HERB artifact id (letters, digits, _ and -
#: with at least one digit or underscore, so ordinary words are not looked up).
ID_TOKEN = re.compile(
    r"\beid_[0-9a-f]{8}\b|\bcust-\d{4}\b|https?://[^\s<>\"']+|\b(?=[\w-]*[\d_])[a-z0-9][\w-]{5,}\b", re.I
)


#: A pull request named by its number ("PR #24", "pull request 24", "PR number 7").
PR_NUMBER = re.compile(
    r"\b(?:pr|pull request)s?\s*(?:no\.?|number)?\s*#?\s*(\d{1,5})\b"
    r"|(?<![\w/.-])(?:(?P<repo>[\w.-]+)/)?pull/(\d{1,5})\b",  # "pull/37", "CollaborateForce/pull/43"
    re.I,
)


@dataclass(frozen=True)
class Entity:
    iri: str
    classes: frozenset[str]
    label: str


@dataclass(frozen=True)
class Mention:
    """Words of the question (`words`, normalised) and every entity they may name."""

    words: str
    candidates: tuple[Entity, ...]
    by_id: bool = False
    #: other words of the question that name the same entity ("PR #14 'Add TensorFlow Model'")
    also: tuple[str, ...] = ()

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1


def mentions(text: str, norm: str, backend: Backend, graphs: list | None, by_name: list | None = None) -> list[Mention]:
    """The entities the question names, id mentions first (read in the text as typed, in `graphs`), then titles
    and names (whole words of its normalised form `norm`, in `by_name`, else `graphs`), none overlapping."""
    padded = f" {norm} "
    found = id_mentions(text, backend, graphs)
    taken = [m.words for m in found]
    named: dict[str, dict[str, Entity]] = {}
    rows = [r for r in entity_names(backend, by_name if by_name is not None else graphs) if r["key"].value in padded]
    for row in rows:
        words = normalise(term_text(row["label"]))
        entity = row["entity"].value
        by_words = named.setdefault(words, {})
        old = by_words.get(entity)
        classes = (old.classes if old else frozenset()) | {row["class"].value}
        by_words[entity] = Entity(entity, classes, term_text(row["label"]))
    for words in sorted(named, key=len, reverse=True):
        if any(words in t for t in taken):
            continue
        taken.append(words)
        found.append(Mention(words, tuple(sorted(named[words].values(), key=lambda e: e.iri))))
    return said_twice(found)


#: Each backend's name table per dataset (`onto_entity_names.rq`): the same for every question about a product,
#: so read once and matched here, where a query filtering it by each question's text scanned every label each time.
#: Kept as long as the backend, as the Answerer keeps each product's labels.
_NAMES: WeakKeyDictionary[Backend, dict[tuple[str, ...] | None, list[Row]]] = WeakKeyDictionary()


def entity_names(backend: Backend, graphs: list | None) -> list[Row]:
    """Every name an entity of the dataset `graphs` may be named by, with its words (`key`), in label order."""
    tables = _NAMES.setdefault(backend, {})
    dataset = None if graphs is None else tuple(g.value for g in graphs)
    if dataset not in tables:
        tables[dataset] = backend.select(named_query("onto_entity_names").text, None, graphs)
    return tables[dataset]


def said_twice(found: list[Mention]) -> list[Mention]:
    """An entity named by id and again by title ("PR #14 'Add TensorFlow Model'") or by another id is one
    mention: the entities both name, the title's words kept as another way the question says it."""
    out: list[Mention] = []
    for m in found:
        iris = {e.iri for e in m.candidates}
        same = next((i for i, o in enumerate(out) if o.by_id and {e.iri for e in o.candidates} & iris), None)
        if same is None or (m.by_id and iris != {e.iri for e in out[same].candidates}):
            out.append(m)  # two ids of one entity ("PR #18 (<its link>)") are one mention, as an id and a title
            continue
        kept = out[same]
        both = tuple(e for e in kept.candidates if e.iri in iris)
        out[same] = replace(kept, candidates=both, also=(*kept.also, m.words))
    return out


def id_tokens(text: str) -> list[str]:
    """The id-like words of a question as typed, once each, without the punctuation that may close them."""
    return list(dict.fromkeys(t.rstrip(".,;:?!)'\"") for t in ID_TOKEN.findall(text)))


def id_bindings(token: str) -> dict[str, Literal | NamedNode]:
    """An id as each kind of entity holds it: a HERB id, a link, the IRI of a person or customer."""
    kind = "customer" if token.casefold().startswith("cust-") else "person"
    return {
        "id": Literal(token),
        "url": Literal(token, datatype=XSD_ANYURI),
        "iri": NamedNode(f"{ID}{kind}/{token.upper() if kind == 'customer' else token}"),
    }


def id_mentions(text: str, backend: Backend, graphs: list | None) -> list[Mention]:
    """Mentions by id, read from the text as typed (a link's dots and colon, an id's case): each id-like word
    the graph knows as an artifact id, a link or a person's id; its words are its normalised form."""
    found: list[Mention] = []
    for token in id_tokens(text):
        rows = backend.select(named_query("onto_entity_by_id").text, id_bindings(token), graphs)
        entities: dict[str, set[str]] = {}
        for row in rows:
            entities.setdefault(row["entity"].value, set()).add(row["class"].value)
        if entities:
            found.append(
                Mention(
                    normalise(token),
                    tuple(Entity(iri, frozenset(c), token) for iri, c in sorted(entities.items())),
                    by_id=True,
                )
            )
    return found + number_mentions(text, backend, graphs)


def number_mentions(text: str, backend: Backend, graphs: list | None) -> list[Mention]:
    """Pull requests named by number: each whose link ends in /pull/<number> in `graphs`; its words are the
    phrase's normalised form ("pr 24")."""
    found: list[Mention] = []
    for match in PR_NUMBER.finditer(text):
        rows = backend.select(
            named_query("onto_pr_by_number").text,
            {
                "suffix": Literal(
                    f"{'/' + match['repo'] if match['repo'] else ''}/pull/{match.group(1) or match.group(3)}"
                )
            },
            graphs,
        )
        entities: dict[str, tuple[set[str], str]] = {}
        for row in rows:
            entities.setdefault(row["entity"].value, (set(), term_text(row["url"])))[0].add(row["class"].value)
        if entities:
            shown = tuple(Entity(iri, frozenset(c), url) for iri, (c, url) in sorted(entities.items()))
            titles = {term_text(r["title"]) for r in rows if "title" in r}
            said = title_in_brackets(text[match.end() :], titles) if len(entities) == 1 else ()
            found.append(Mention(normalise(match.group(0)), shown, by_id=True, also=said))
    return found


#: A description in brackets just after a pull request's number ("PR #2 (React frontend for the dashboard)").
BRACKETED = re.compile(r"\s*\(([^()]{1,200})\)")


def title_in_brackets(after: str, titles: set[str]) -> tuple[str, ...]:
    """The words of a bracketed description just after a PR's number, when half or more of its words stand in
    the PR's title (as word starts: "docs" for "Documentation"): another way the question names it. A
    description the title does not bear out is left to be read, and unplaced."""
    said = BRACKETED.match(after)
    if not said or not titles:
        return ()
    words = [w for w in re.findall(r"[a-z0-9]+", normalise(said.group(1))) if len(w) > 2]
    title = {w for t in titles for w in re.findall(r"[a-z0-9]+", normalise(t))}
    fits = [w for w in words if any(t.startswith(w[:4]) for t in title)]
    return (normalise(said.group(1)),) if words and 2 * len(fits) >= len(words) else ()


def title_scope(names: list[str], backend: Backend, readable: frozenset[str] | None = None) -> str | None:
    """The product of a question that names none but an item by its exact title or label (a bug's quoted
    title, a document's, a repository's "owner/name") that exactly one product graph the caller reads holds;
    None when none settles it (held by none, or by several products: then the question must name its product)."""
    for title in names:
        if len(products := title_products(title, backend, readable)) == 1:
            return products[0]
    return None


#: Words a bug's title must have to scope a question that says it unquoted ("Data Sync Delay" is too few).
MIN_SAID_TITLE_WORDS = 3
#: Each backend's bug titles (`sparql/bug_title_scope.rq`), normalised, with their graphs: read once.
_BUG_TITLES: WeakKeyDictionary[Backend, list[tuple[str, str]]] = WeakKeyDictionary()


def said_bug_scope(norm: str, backend: Backend, readable: frozenset[str] | None = None) -> str | None:
    """The one product holding a bug whose title the question says unquoted, in whole words of its normalised
    text ("who fixed Suboptimal Query Parameterization"), among the graphs the caller reads; None when none or
    several."""
    text = f" {norm} "
    held = {g for g, title in bug_titles(backend) if f" {title} " in text and (readable is None or g in readable)}
    products = {p for g in held if (p := product_of_graph(g))}
    return next(iter(products)) if len(products) == 1 else None


def bug_titles(backend: Backend) -> list[tuple[str, str]]:
    """Every bug title of `MIN_SAID_TITLE_WORDS` or more (fewer say too little), normalised, with its graph."""
    if backend not in _BUG_TITLES:
        rows = backend.select(named_query("bug_title_scope").text)
        titles = ((term_text(r["graph"]), normalise(term_text(r["title"]))) for r in rows)
        _BUG_TITLES[backend] = [(g, t) for g, t in titles if len(t.split()) >= MIN_SAID_TITLE_WORDS]
    return _BUG_TITLES[backend]


def titled_in(text: str, backend: Backend) -> tuple[str, list[str]] | None:
    """The first title the question quotes that several products hold, with those products."""
    for title in quoted_titles(text):
        if len(products := title_products(title, backend)) > 1:
            return title, products
    return None


def title_products(title: str, backend: Backend, readable: frozenset[str] | None = None) -> list[str]:
    """The products whose graphs (among those the caller reads) hold an item with exactly this title, else with
    it as another name; where several do, those holding one of their own (not a PR of an outside repository
    that several products' Slack links, whose title a bug may share), when that leaves any."""
    rows = backend.select(named_query("title_scope").text, {"title": Literal(title)})
    rows = [r for r in rows if isinstance(g := r["graph"], NamedNode) and (readable is None or g.value in readable)]
    rows = [r for r in rows if "other" not in r] or rows  # another name only where no item has it as its title
    held = [(r["graph"].value, not ("url" in r and EXTERNAL_PR.search(term_text(r["url"])))) for r in rows]
    products = sorted({p for g, _ in held if (p := product_of_graph(g))})
    own = sorted({p for g, mine in held if mine and (p := product_of_graph(g))})
    return own if len(products) > 1 and own else products


def record_scope(text: str, backend: Backend, readable: frozenset[str] | None = None) -> str | None:
    """The scope of a question that names a source record (ERB) or a HERB artifact by its id: the name of the
    graph holding it (`erb-jira`, `PitchForce`), read from the first id-like word that names a record in exactly
    one product's or source's graph the caller reads (`readable`: graph IRIs, None for all); None when the
    question names no such record."""
    for token in id_tokens(text):
        rows = backend.select(named_query("record_scope").text, {"id": Literal(token)})
        graphs = {g.value for r in rows if isinstance(g := r["graph"], NamedNode) and product_of_graph(g.value)}
        graphs = {g for g in graphs if readable is None or g in readable}
        if len(graphs) == 1:
            return product_of_graph(graphs.pop())
    return None
