"""Readings generated from the ontology: every labelled object or data property of `ontology/ekg.ttl` is a
question people can ask, without a row per property.

A property's rdfs:label and skos:altLabels name it read forwards ("who is eid_…'s manager", "what is the state
of <bug title>"), its ekg:inverseLabels read backwards ("eid_…'s direct reports"); a label ending in a
preposition is read by word order ("who does X report to" forwards, "who reports to X" backwards). Which way a
property is read, and whether through a record that links to the entity ("who reviewed <PR link>": the PR's
ekg:PullRequestReview records), follows from the entity's classes and the property's domain and range. Chains
(kg/qa/ontology_reader.toml) are read with SPARQL property paths (sparql/chain_*.rq).

The reader is the last before "uncertain"/"unsupported" (`Answerer._answer_choice`). It answers only when every
content word of the question is placed (an entity, a property's label, a class, a function word); a name several
entities share is "uncertain" with the candidates; a property that fits no named entity, or no property at all,
is None (not a question this reader takes). A bug named by a title no bug has is "unsupported" with the closest
titles, never a proof about a bug it did not resolve.
"""

from __future__ import annotations

import difflib
import itertools
import re
import tomllib
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from pyoxigraph import BlankNode, Literal, NamedNode, RdfFormat, Store

from kg.namespaces import DCT, ID, ORG_GRAPH, expand
from kg.paths import resource
from kg.qa.answer import Answer
from kg.qa.cues import CLAUSE_END, OPENING_REQUEST, OR_NOT, REQUEST, STATUS_ASKED
from kg.qa.described import MEETING, Described, described
from kg.qa.entities import ID_TOKEN, Entity, Mention, mentions
from kg.qa.operators import opens_yes_no
from kg.qa.question import Question, initials, lexicon_data
from kg.qa.reading import ASKING_WORDS, function_words, lemmas
from kg.query.people import EID
from kg.query.sparql import Backend, Row, named_query, product_dataset, term_text
from kg.text import DOC_KINDS, content_words, normalise, singular_text

ONTOLOGY = resource("ontology") / "ekg.ttl"
DATA = Path(__file__).with_name("ontology_reader.toml")
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
RDF_FIRST = "http://www.w3.org/1999/02/22-rdf-syntax-ns#first"
RDF_REST = "http://www.w3.org/1999/02/22-rdf-syntax-ns#rest"
ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
SKOS_BROADER = "http://www.w3.org/2004/02/skos/core#broader"
INVERSE = expand("ekg:inverseLabel")
PERSON = "http://xmlns.com/foaf/0.1/Person"
EMPLOYEE = "https://w3id.org/ekg/ont#Employee"
PRODUCT = expand("ekg:Product")
ARTIFACT = expand("ekg:Artifact")
#: Readings run to see whether they agree; past this many the question is too loosely read to answer.
MAX_AGREEING = 3
XSD_BOOLEAN = "http://www.w3.org/2001/XMLSchema#boolean"
#: A label ending in one of these is a verb phrase: the entity before it is its subject, after it its object.
PREPOSITIONS = frozenset({"to", "by", "for", "of", "on", "in", "with"})
#: Words that introduce an item's title ("the bug titled …").
TITLE_WORDS = frozenset({"titled", "called", "named"})
#: Words after an employee that say the items are theirs ("what PRs does eid_… have open").
HAVE = frozenset({"have", "has", "had", "got"})
#: Words by which a question refers back to the employee it opened with ("eid_… - which of their PRs").
POSSESSIVE = frozenset({"their", "his", "her"})
#: Chain words that are prepositions: after the entity they point the other way ("X is under", "X rolls up to").
PREPOSITION_CHAIN = frozenset(
    {"under", "below", "above", "roll up to", "rolled up to", "report up to", "reported up to"}
)
#: How many characters may stand between a phrase and the same phrase said again for the two to be two steps
#: ("manager's manager" is "manager manager" once placed).
ADJACENT = 3
#: How a chain's words read it (ontology_reader.toml [chains]): the whole chain above the entity, its top, the
#: whole chain below it, two steps.
CHAIN_KINDS = ("up", "top", "down", "two")
#: The quote marks a title stands between.
QUOTES = (("'", "'"), ('"', '"'), ("‘", "’"), ("“", "”"))
#: A title in quotes.
QUOTED = re.compile(r"'[^']{3,}'|\"[^\"]+\"|‘[^’]+’|“[^”]+”")
#: A quoted title, its quotes standing apart from words (an apostrophe inside "eid_…'s" or "I'm" opens none).
TITLE_QUOTED = re.compile(r"(?<![\w'])'[^']{3,}'(?!\w)|\"[^\"]+\"|‘[^’]+’|“[^”]+”")
#: Words by which the asker speaks of themselves.
ASKER = frozenset({"i", "im", "ive", "id", "ill", "we", "my", "our", "me", "us"})
#: Words this short are not placed by their lemma ("is", "do"); "fix" is.
MIN_LEMMA_WORD = 2
#: Content words a run must hold to name an entity by part of its title ("the scan cancellation button bug").
MIN_NEAR_WORDS = 2
#: The endings of the participles placed by their lemma.
PARTICIPLE_ENDINGS = ("ed", "en", "one")
#: Question words that are also class words ("who": a person), unless another class word says what is asked.
WH_WORDS = frozenset({"who", "whom"})
BE = frozenset({"is", "are", "was", "were"})
#: A pronoun object of a verb's preposition ("reports directly to them"): it stands for an entity named before.
OBJECT_PRONOUN = re.compile(r"\b(?:to|by|for|with|under)\s+(?:them|him|her)\b")
#: The same pronoun just after a placed phrase (its preposition taken with it).
PRONOUN_OBJECT = re.compile(r"\s*(?:them|him|her)\b")
#: Stands for a named entity in the question while its words are placed.
HOLE = "⟦entity⟧"
#: "The same manager as eid_…", "share a manager with eid_…": the entity's own value, said of another (read as
#: "eid_…'s manager").
SAME_AS = re.compile(rf" (?:the same ((?:\w+ )?\w+) as|share[sd]? (?:a |the same |their )?((?:\w+ )?\w+) with) {HOLE} ")
#: "do eid_A and eid_B have the same manager", "are eid_A and eid_B under one manager": the same, said of both.
BOTH_SAME = re.compile(
    rf" and {HOLE} (?:(?:on|in|from|at) \S+ )?(?:have|has|had|share|shares|shared|are under|were under|report to|"
    rf"reports to|work under|sit under|under) (?:the same|a common|one|a shared) ((?:\w+ )?\w+) "
)
#: "share eid_…'s manager", "eid_…'s peers": the same, said of the entity's own value (peers share a manager).
SHARE_OWN = re.compile(rf" (?:share[sd]? {HOLE} ((?:\w+ )?\w+)|{HOLE} (peer)s?) ")
#: Nouns after an employee's id that name a property's values ("eid_…'s team": its direct reports), from the
#: data file's `possessed`.
#: Words that say the entity itself is left out of its peers ("who else reports to …").
OTHERS = frozenset({"else", "other", "others"})
#: "Did eid_… open …": the verb after a named subject and "did" says the act, as its participle does ("opened"),
#: never a state ("open").
DO_SUPPORT = re.compile(rf"(?<!\S)(did|does|doe|do) (?:the )?{HOLE} (\w+)(?!\S)(?= (\w+)|)")
#: An act said in the passive with its agent named ("which bugs were resolved by eid_…"): read as "did eid_…
#: resolve", where the participle names a value of records the entity is the agent of.
PASSIVE_AGENT = re.compile(rf"(?<!\S)(?:was|were|is|are|got|get|gets|been|be) (\w+(?:ed|en)) by {HOLE}(?!\S)")
#: The letters of a noun's root that a word of an artifact's text must share with it to speak of the noun's
#: class ("compet": competitor, competition, competitive).
ROOT_LETTERS = 6
#: Words that open a list of names in a sentence ("like Microsoft Teams, Slack, and Asana").
NAMES_LISTED = re.compile(r"\b(?:like|such as|including|include|includes|namely)\s+[A-Z]")
#: Conditions a class listing takes at most (eid_…'s, "closed", "not merged"): sparql/onto_list.rq binds three.
MAX_CONDITIONS = 3
#: How far before a yes/no property's phrase a negation still reads it ("never got merged", "without being
#: merged"), in words.
NEGATION_REACH = 3


@dataclass(frozen=True)
class Condition:
    """What a listed instance must have: a value of the property, or the given value."""

    prop: Prop
    value: Literal | NamedNode | None
    negated: bool
    #: a condition on the artifact the item is read from (prov:wasDerivedFrom), not on the item
    source: bool = False

    def bindings(self, suffix: str) -> dict[str, Any]:
        return {
            f"property{suffix}": NamedNode(self.prop.iri),
            **({f"object{suffix}": self.value} if self.value else {}),
        }

    def shown(self) -> str:
        if self.value is None:
            return self.prop.label
        if self.source and isinstance(self.value, NamedNode):
            return f"read from a {schema().labels.get(self.value.value) or class_label(self.value.value)}"
        if self.prop.iri == RDF_TYPE and isinstance(self.value, NamedNode):
            return class_label(self.value.value)
        if self.source:
            return f"read from {self.value.value}"
        if isinstance(self.value, NamedNode):
            return f"{self.prop.label} {local(self.value.value)}"
        if self.value.datatype.value == XSD_BOOLEAN:
            return f"{'not ' if self.value.value == 'false' else ''}{self.prop.label}"
        return f"{self.prop.label} {self.value.value}"


@dataclass(frozen=True)
class Prop:
    iri: str
    label: str
    forward: tuple[str, ...]
    inverse: tuple[str, ...]
    domain: frozenset[str]
    range: frozenset[str]
    datatype: bool
    #: the declared domain and range as a reader names them ("pull request review", "employee")
    subject_kind: str = "thing"
    object_kind: str = "value"
    #: the labels as written (`forward` and `inverse` hold them singularised, as questions are matched)
    names: tuple[str, ...] = ()
    inverse_names: tuple[str, ...] = ()
    #: the properties it is declared a sub-property of (ekg:eventOf ⊑ ekg:stateEventOf)
    supers: frozenset[str] = frozenset()


#: rdf:type as a listing's condition: every instance of a class, or items read from an artifact of a class.
TYPE_PROP = Prop(RDF_TYPE, "type", (), (), frozenset(), frozenset(), False)


@dataclass(frozen=True)
class Schema:
    properties: dict[str, Prop]
    #: class -> itself and every class below it
    below: dict[str, frozenset[str]]
    #: singular phrase -> class IRI (class labels and the data file's class words)
    class_words: dict[str, str]
    #: individual declared in the ontology (a state, a kind) -> its label, as answers show it
    labels: dict[str, str]
    #: individual -> its classes (ekg:Approved -> ekg:ReviewState)
    kinds: dict[str, frozenset[str]] = field(default_factory=dict)
    #: class -> its direct superclasses
    parents: dict[str, frozenset[str]] = field(default_factory=dict)
    #: class -> its label ("Slack message")
    class_labels: dict[str, str] = field(default_factory=dict)

    def named_by(self, phrase: str) -> list[Prop]:
        """The properties one of whose labels, in their own direction, is the phrase."""
        return [p for p in self.properties.values() if phrase in p.forward]

    def kin(self, a: str, b: str) -> bool:
        """Whether one class is below the other, or both stand directly under one class (a product and a
        competitor's product, both product offerings)."""
        return (
            b in self.below.get(a, ())
            or a in self.below.get(b, ())
            or bool(self.parents.get(a, frozenset()) & self.parents.get(b, frozenset()))
        )


@cache
def reader_data() -> dict[str, Any]:
    return tomllib.loads(DATA.read_text(encoding="utf-8"))


def _phrase(text: str) -> str:
    return singular_text(normalise(text))


def _members(store: Store, node: NamedNode | BlankNode) -> set[str]:
    """A class expression's named classes: itself, or the members of its owl:unionOf list."""
    if isinstance(node, NamedNode):
        return {node.value}
    out: set[str] = set()
    for union in store.quads_for_pattern(node, NamedNode(OWL + "unionOf"), None):
        item: Any = union.object
        while isinstance(item, BlankNode):
            out |= {term_text(q.object) for q in store.quads_for_pattern(item, NamedNode(RDF_FIRST), None)}
            item = next((q.object for q in store.quads_for_pattern(item, NamedNode(RDF_REST), None)), None)
    return out


def kind_name(store: Store, nodes: list[Any], default: str) -> str:
    """A declared domain or range as a reader names it: its classes' labels, joined by "or"."""
    labels = [
        term_text(o)
        for n in nodes
        for c in sorted(_members(store, n))
        for o in (q.object for q in store.quads_for_pattern(NamedNode(c), NamedNode(RDFS + "label"), None))
    ]
    return " or ".join(dict.fromkeys(labels)) or default


@cache
def ontology_store() -> Store:
    """`ontology/ekg.ttl` in memory, loaded once for the schema, the listed values and the individuals' words."""
    store = Store()
    store.load(path=str(ONTOLOGY), format=RdfFormat.TURTLE)
    return store


#: Whether the question being read is scoped to a graph of source records (an ERB source graph): set by
#: `read_by_ontology` for the reading's duration, so every part of the reader sees the scope's properties.
RECORDS: ContextVar[bool] = ContextVar("records", default=False)


def schema() -> Schema:
    """The properties, class tree and class words the question's scope reads (`scoped_schema`)."""
    return scoped_schema(RECORDS.get())


@cache
def scoped_schema(records: bool) -> Schema:
    """The schema with the properties a scope reads: in a graph of source records (the data file's
    `record_class`), those whose domain meets that class or is undeclared; in any other (a HERB product), all
    but those declared for source records alone. So "assigned" reads ekg:assignee of a Jira issue and
    ekg:assignedTo of a bug, and neither is read where it cannot hold."""
    s = full_schema()
    records_kinds = s.below.get(expand(reader_data()["record_class"]), frozenset())

    def read(p: Prop) -> bool:
        if not p.domain:
            return True
        return bool(p.domain & records_kinds) if records else not p.domain <= records_kinds

    properties = {iri: p for iri, p in s.properties.items() if read(p)}
    if not records:
        return replace(s, properties=properties)
    words = {_phrase(w): expand(c) for w, c in reader_data()["record_class_words"].items()}
    return replace(s, properties=properties, class_words={**s.class_words, **words})


def holds_records(backend: Backend, graphs: list[NamedNode] | None) -> bool:
    """Whether a question's dataset holds source records (an ERB source graph); an unscoped question is read as
    HERB's are."""
    if graphs is None:
        return False
    record = NamedNode(expand(reader_data()["record_class"]))
    rows = backend.select(named_query("onto_scope_instances").text, {"class": record}, graphs)
    return any(int(term_text(r["n"])) > 0 for r in rows if "n" in r)


@cache
def full_schema() -> Schema:
    """The properties, class tree and class words, read from the ontology once."""
    store = ontology_store()

    def objects(s: Any, p: str) -> list[Any]:
        return [q.object for q in store.quads_for_pattern(s, NamedNode(p), None)]

    parents: dict[str, set[str]] = {}
    for q in store.quads_for_pattern(None, NamedNode(RDFS + "subClassOf"), None):
        if isinstance(q.subject, NamedNode) and isinstance(q.object, NamedNode):
            parents.setdefault(q.subject.value, set()).add(q.object.value)
    classes = {
        q.subject.value
        for q in store.quads_for_pattern(None, NamedNode(RDF_TYPE), NamedNode(OWL + "Class"))
        if isinstance(q.subject, NamedNode)
    }

    def ancestors(c: str) -> set[str]:
        seen, todo = {c}, [c]
        while todo:
            for p in parents.get(todo.pop(), ()):
                if p not in seen:
                    seen.add(p)
                    todo.append(p)
        return seen

    below: dict[str, set[str]] = {}
    for c in classes | set(parents):
        for a in ancestors(c):
            below.setdefault(a, set()).add(c)
    frozen = {c: frozenset(s) for c, s in below.items()}

    def closure(nodes: list[Any]) -> frozenset[str]:
        named = set().union(*(_members(store, n) for n in nodes)) if nodes else set()
        return frozenset().union(*(frozen.get(c, frozenset({c})) for c in named)) if named else frozenset()

    properties: dict[str, Prop] = {}
    for kind in ("ObjectProperty", "DatatypeProperty"):
        for q in store.quads_for_pattern(None, NamedNode(RDF_TYPE), NamedNode(OWL + kind)):
            labels = [o.value for o in objects(q.subject, RDFS + "label")]
            if not labels:
                continue
            iri = term_text(q.subject)
            forward = [*labels, *(o.value for o in objects(q.subject, ALT))]
            properties[iri] = Prop(
                iri,
                labels[0],
                tuple(dict.fromkeys(_phrase(w) for w in forward)),
                tuple(dict.fromkeys(_phrase(o.value) for o in objects(q.subject, INVERSE))),
                closure(objects(q.subject, RDFS + "domain")),
                closure(objects(q.subject, RDFS + "range")),
                kind == "DatatypeProperty",
                kind_name(store, objects(q.subject, RDFS + "domain"), "thing"),
                kind_name(store, objects(q.subject, RDFS + "range"), "value"),
                tuple(forward),
                tuple(o.value for o in objects(q.subject, INVERSE)),
                frozenset(term_text(o) for o in objects(q.subject, RDFS + "subPropertyOf")),
            )
    # the records of a lifecycle's steps ("bug assigned", "bug reported") are read through, never asked for by
    # name: their labels are the words of a question about the bug ("the 'X' bug assigned to …")
    named_classes = [c for c in classes if expand("ekg:StateEvent") not in ancestors(c)]
    words = {
        _phrase(o.value): c for c in named_classes for p in (RDFS + "label", ALT) for o in objects(NamedNode(c), p)
    }
    words.update({_phrase(w): expand(c) for w, c in reader_data()["class_words"].items()})
    individuals = store.quads_for_pattern(None, NamedNode(RDF_TYPE), NamedNode(OWL + "NamedIndividual"))
    shown = {term_text(q.subject): o.value for q in individuals for o in objects(q.subject, RDFS + "label")}
    kinds = {
        iri: frozenset(
            term_text(o) for o in objects(NamedNode(iri), RDF_TYPE) if term_text(o) != OWL + "NamedIndividual"
        )
        for iri in shown
    }
    named = {c: o.value for c in classes for o in objects(NamedNode(c), RDFS + "label")}
    parents_of = {c: frozenset(p) for c, p in parents.items()}
    return Schema(properties, frozen, words, shown, kinds, parents_of, named)


@dataclass(frozen=True)
class Reading:
    """One way to read the question: `how` is value (entity → property), via (through a record linked by
    `link`), subject (property⁻¹), up / down / two (a chain above, below, two steps)."""

    how: str
    prop: Prop
    link: str | None = None
    #: a "where" reading: the record's property that must have the value, and the value
    filter: str | None = None
    value: str | None = None

    def query(self) -> str:
        return {
            "value": "onto_value",
            "via": "onto_value_via",
            "where": "onto_value_where",
            "subject": "onto_subject",
            "up": "chain_up",
            "top": "chain_top",
            "down": "chain_down",
            "two": "chain_two",
            "peers": "chain_peers",
        }[self.how]

    def shown(self, entity: Entity) -> str:
        arrow = {"subject": "← ", "down": "←+ ", "up": "→+ ", "top": "→+⊤ ", "two": "→→ ", "peers": "→← "}.get(
            self.how, "→ "
        )
        via = f" (through the records whose {local(self.link)} is it)" if self.link else ""
        if self.filter:
            where = f"{local(self.filter)} is {local(self.value)}"
            via = f" (through the records whose {local(self.link)} is it and {where})"
        return f"{entity.label} {arrow}{self.prop.label}{via}"


def class_label(iri: str) -> str:
    """A class's label as the ontology writes it ("Slack message"), or its local name."""
    return schema().class_labels.get(iri) or local(iri)


def local(iri: str | None) -> str:
    return (iri or "").rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1]


@dataclass
class Placed:
    """The question's words with named entities as holes: which phrases placed which words, and what is left."""

    text: str
    phrases: list[tuple[str, str, int]] = field(default_factory=list)  # (kind, phrase, position)
    #: where each phrase was said: every position, where `phrases` records the first
    spots: dict[str, list[int]] = field(default_factory=dict)
    #: the question asks for what shares the entity's value ("the same manager as eid_…"): its peers
    same: bool = False

    @property
    def repeated(self) -> set[str]:
        """The phrases said twice in a row ("eid_…'s manager's manager"): one reading of a phrase reads it once.
        Said again further on, a phrase restates itself ("eid_…'s team (direct reports)")."""
        return {
            phrase
            for phrase, at in self.spots.items()
            if any(b - a - len(phrase) <= ADJACENT for a, b in itertools.pairwise(sorted(at)))
        }

    def take(self, phrase: str, kinds: frozenset[str], as_phrase: str | None = None) -> frozenset[str]:
        """Place every whole-word occurrence of the phrase, as each of its kinds (recorded as `as_phrase`, the
        phrase a word's lemma matched); the kinds, or none if absent."""
        if phrase not in self.text:  # the literal test first: most of the reader's phrases are not there
            return frozenset()
        pattern = whole_words(phrase)
        match = pattern.search(self.text)
        if not match:
            return frozenset()
        self.phrases += [(kind, as_phrase or phrase, match.start()) for kind in sorted(kinds)]
        self.spots.setdefault(as_phrase or phrase, []).extend(m.start() for m in pattern.finditer(self.text))
        self.text = pattern.sub(lambda m: "\x00" * len(m.group(0)), self.text)
        return kinds

    def without_scope(self) -> str:
        """The placed text with the product named as the scope blanked: it places nothing of the question's shape."""
        text = self.text
        for kind, phrase, _ in self.phrases:
            for at in self.spots.get(phrase, []) if kind == "scope" else []:
                text = text[:at] + " " * len(phrase) + text[at + len(phrase) :]
        return text

    def left(self, function_words: frozenset[str]) -> list[str]:
        return [w for w in self.text.replace("\x00", " ").split() if w != HOLE and w not in function_words]


#: "Reopened after it was fixed", "reopened after the fix went in": what reopening is, said again.
REOPENED_AFTER_FIX = re.compile(
    r"(?<!\S)(reopen\w*)((?: \S+){0,8}?) after (?:it was |it got |it had been |being |the |its )?"
    r"(?:marked |declared |reported |announced )?(?:as )?(?:fix|fixed|fixing|resolved|"
    r"resolution|closed|closing)(?: went in| landed| was merged| shipped)?(?!\S)"
)


#: "Which bugs did eid_… fix", "how many customer bugs has eid_… fixed", "bugs fixed by eid_…": the bugs a person
#: resolved (a bug named by its title, "did eid_… fix <bug>", is read through its fix's author, and stays).
PERSON_FIXED = re.compile(
    r"(?<!\S)((?:bug|issue|defect|ticket)s?(?: \S+){0,8}? (?:did|has|have|had) eid_[0-9a-f]{8}) (?:fix|fixed)(?!\S)"
)
FIXED_BY_PERSON = re.compile(
    r"(?<!\S)((?:bug|issue|defect|ticket)s?(?: \S+){0,3}? (?:were|was|got|have been|has been) )fixed by(?= eid_)"
)

#: "Does <PR> (still) need to be merged", "is it waiting to be approved", "needs merging": the state is not yet
#: reached, never the state itself.
NEEDS_DOING = re.compile(
    r"(?<!\S)(?:still )?(?:needs?|needed|needing|waiting|waits|wait|awaiting|(?:has|have|is|are) yet) "
    r"(?:to be (merged|fixed|resolved|approved|reviewed|closed)|(merging|fixing|approval|review|reviewing))(?!\S)"
)
NEEDED_STATE = {"merging": "merged", "fixing": "fixed", "approval": "approved", "review": "reviewed",
                "reviewing": "reviewed"}  # fmt: skip
#: "How many bugs was eid_… assigned", "which tickets has eid_… been given": the person received them (the bugs
#: assigned to them), never the one who assigned them.
PASSIVE_RECIPIENT = re.compile(
    r"(?<!\S)((?:was|were|is|are|has|have|had) (?:been )?)(eid_[0-9a-f]{8}) (?:been )?"
    r"(?:assigned|handed|given)(?!\S)(?! by)"
)
#: "Does eid_… have any PRs": a person's own pull requests are those they authored.
PERSON_HAS_PRS = re.compile(
    r"(?<!\S)((?:do|does|did|has|have|had) eid_[0-9a-f]{8}) (?:have|has|had|own)(?= (?:any |some )?(?:\w+ )?"
    r"(?:prs?|pull requests?)(?!\S))"
)


#: "On what date", "which day", "what date was it reopened": a time asked, as "when" asks it.
WHEN_ASKED = re.compile(
    r"(?<!\S)(?:(?:on|at) (?:what|which) (?:day|date)|(?:what|which) day|"
    r"(?:what|which) date(?= (?:was|were|did)\b))(?!\S)"  # "what date is <doc> from": its date property
)


def question_text(q: Question) -> str:
    """The question's normalised text without possessive endings, quotes and the adverbs that may stand inside
    a property's words and change nothing ("reports directly to")."""
    norm = WHEN_ASKED.sub("when", referred(q.text) or q.norm)
    text = plain_words(STATUS_ASKED.sub("what is the status of", OR_NOT.sub("", norm)))  # "fixed or not?"
    text = OPENING_REQUEST.sub("find", REQUEST.sub("find", text))  # "how do I find X", "I need X"
    for sentence in re.split(r"[.?!]+\s+", q.text.strip())[1:]:  # "… ? I need the full list": a request too
        if said := OPENING_REQUEST.match(plain_words(normalise(sentence))):
            text = re.sub(rf"(?<!\S){re.escape(said.group(0))}(?!\S)", "find", text, count=1)
    for aside in asides(q.text):  # "I'm new to KnowledgeForce - who are the engineering leads?"
        text = re.sub(rf"(?<!\S){re.escape(plain_words(normalise(aside)))}(?!\S)", " ", text, count=1)
    text = said_records().sub(" ", text)  # "according to its review records": where, not what
    text = FRONTED.sub(r"\2 \3 \1", text)  # "to whom was X assigned": who was X assigned to
    text = REOPENED_AFTER_FIX.sub(r"\1\2", text)  # "reopened after it was fixed": a reopened bug had been
    text = FIXED_BY_PERSON.sub(r"\1resolved by", PERSON_FIXED.sub(r"\1 resolve", text))  # a person's fixes
    text = PERSON_HAS_PRS.sub(r"\1 author", text)  # "does eid_… have any PRs": authored
    text = PASSIVE_RECIPIENT.sub(r"\1assigned to \2", text)  # "how many bugs was eid_… assigned"
    text = NEEDS_DOING.sub(lambda m: f"not {m.group(1) or NEEDED_STATE[m.group(2)]}", text)  # "needs merging"
    for frame in reader_data()["frames"]:  # "… in the org chart": where the answer is read, no property
        text = re.sub(rf"(?<!\S){re.escape(frame)}(?!\S)", " ", text)
    text = NAME_ASKED.sub("find", text)  # "Name the QA specialists on X": a request, not X's name
    # "give me links to X": X's own links, not what links to X; "link to the PR that …": the PR
    text = LINK_OPENING.sub("find", LINKS_ASKED.sub(r"\1 links of", text))
    for verb in asker_verbs(q.text):  # "I missed the X review - who was there?": the review is still described
        text = re.sub(rf"(?<!\S){re.escape(verb)}(?!\S)", " ", text, count=1)
    text = re.sub(r"\s+", " ", text).strip()
    return " ".join(w for w in text.split() if w not in reader_data()["inner_adverbs"] and re.search(r"\w", w))


#: Words by which the clause that asks points back to the one item a clause before it names ("Pulling notes
#: from <meeting id> - who was in that meeting?"), with what stands in their place.
ANAPHORA = (
    (
        re.compile(
            r"\b(?:that|this|the same) (?:meeting|session|review|bug|issue|ticket|pr|pull request|document|doc|"
            r"report|one)\b"
        ),
        "{id}",
    ),
    (re.compile(r"\bthere\b(?! (?:is|are|was|were|been|be)\b)"), "at {id}"),
    (re.compile(r"\b(?:it|them)\b"), "{id}"),
    (re.compile(r"\b(?:their|his|her|its)\b"), "{id}'s"),  # "eid_… - who's their lead?"
)


#: A clause that asks: a question word, or an auxiliary opening a yes or no.
ASKS = re.compile(r"\b(?:who|whom|whose|what|which|when|where|how)\b|^(?:is|are|was|were|did|does|do|has|have)\b")


def referred(text: str) -> str | None:
    """The asking clause with its pointer to the item said before set to that item's id; None when the
    question is not so said (one clause, no pointer, or not exactly one id before it)."""
    parts = [p for p in CLAUSE_END.split(text) if p and p.strip()]
    if len(parts) < 2 or ID_TOKEN.search(parts[-1]) or not ASKS.search(normalise(parts[-1])):
        return None  # "… ? need it for a slide": a last clause that asks nothing points back to nothing asked
    tokens = (t.rstrip(".,;:?!)'\"") for p in parts[:-1] for t in ID_TOKEN.findall(p))
    ids = list(dict.fromkeys(t for t in tokens if re.search(r"[a-z]", t, re.I)))  # a date is no item
    asking = normalise(parts[-1])
    if (
        not ids
        and re.match(r"(?:who|whom|what|which|when)\b", asking)
        and re.search(r"\b(?!(?:is|was|were|are|be|been)\b)[a-z]+ (?:it|them)\b", asking)  # "which one was it": no
        and not any(ASKS.search(normalise(p)) for p in parts[:-1])
    ):  # "X had a bug called 'Cache Invalidation Issue' - who fixed it?": the one title said before, asked of
        ids = list(dict.fromkeys(normalise(m.group(0)) for p in parts[:-1] for m in TITLE_QUOTED.finditer(p)))
    if len(ids) != 1:
        return None
    alone = not re.sub(re.escape(ids[0].casefold()), "", " ".join(normalise(p) for p in parts[:-1])).strip(" -:,;")
    for pointer, said in ANAPHORA:
        if pointer.search(asking) and (alone or not said.endswith("'s")):  # "eid_… - who's their lead?"
            return pointer.sub(said.format(id=ids[0].casefold()), asking, count=1)
    return None


#: A preposition fronted with its "whom" ("by whom was X fixed", "to whom was X assigned"): put back after the
#: verb, where the property's words say it ("fixed by", "assigned to").
FRONTED = re.compile(r"^(to|by|for|with|from) (whom|who) (.+)$")
#: "Name the …", "can you name all …": the verb of a request, never the property "name".
NAME_ASKED = re.compile(
    r"(?:^|(?<=please )|(?<=you )|(?<=just ))name(?= (?:the|all|every|each|any|those|these|who|which|what|me|us)(?!\S))"
)
#: "Give me (the) links to X": a request for X's own links, where "links to" is no verb.
LINKS_ASKED = re.compile(
    r"(?<!\S)((?:give|send|share|provide|show|get|need|want|list|find|fetch|grab)(?: me| us)?(?: the| all the| all)?)"
    r" links? to(?!\S)"
)

#: A question opened by the link it wants ("Link to the PR that fixed X?"): the item, shown by its link.
LINK_OPENING = re.compile(r"^(?:the |a )?links? (?:to|for)(?= (?:the|a|an) )")


@cache
def said_records() -> re.Pattern[str]:
    """The records the asker says an answer is read from ("according to its review records")."""
    owners = "|".join(re.escape(o) for o in reader_data()["record_owners"])
    lead = r"(?:(?:according to|going by|based on|per|by|in|from) )?(?:(?:the|its|their) )?"
    return re.compile(rf"(?<!\S){lead}(?:(?:{owners}) )+(?:records?|data)(?!\S)")


def plain_words(norm: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"'s?(?=\s|$)|(?<=\s)'|^'|\"", " ", norm)).strip()


def asides(text: str) -> list[str]:
    """The clauses where the asker speaks of themselves and names no id ("I'm new to X -", "for my status
    update,"): they set the scene and ask nothing, when another clause is left to ask."""
    text = RESTATING.sub("that is", text)  # "i.e." is no "I"
    titles = [m.group(0) for m in TITLE_QUOTED.finditer(text)]  # a title's own brackets end no clause ("'XSS (…)'")
    masked = TITLE_QUOTED.sub(lambda m: f"\x01{titles.index(m.group(0))}\x01", text)
    split = [p for p in CLAUSE_END.split(masked) if p and p.strip()]
    parts = [re.sub("\x01(\\d+)\x01", lambda m: titles[int(m.group(1))], p) for p in split]
    if len(parts) < 2:
        return []
    own = [
        p
        for p in parts
        if ({w.replace("'", "") for w in normalise(p).split()} & ASKER or lead_only(p, parts) or tail_only(p, parts))
        and not ID_TOKEN.search(p)
        and not QUOTED.search(p)
        and (not says_something(p) or scene(p, parts, text))
    ]
    return own if len(own) < len(parts) else []


#: "i.e.", "e.g.": a restatement or an example, never the asker's "I".
RESTATING = re.compile(r"(?i)(?<!\w)(?:i\.\s?e|e\.\s?g)\.?(?!\w)")
#: Words by which the asker says they are new where they work ("I'm new on the CoachForce team —").
NEWCOMER = frozenset({"new", "joined", "joining", "started", "starting", "onboarding"})
#: Verbs by which the asker says what they are busy with ("I'm prepping the X sync -").
ASKER_BUSY = frozenset(
    {"doing", "preparing", "prepping", "working", "writing", "putting", "pulling", "drafting", "building", "updating"}
)
#: A heading before a colon is this short at most ("status check:", "For a customer call:").
HEADING_WORDS = 4


def scene(clause: str, parts: list[str], text: str) -> bool:
    """A clause that sets the scene though it holds a word the reader places: the asker saying they are new
    ("I'm new on the CoachForce team"), or a short heading before a colon ("status check:"), said first."""
    words = [w.replace("'", "") for w in normalise(clause).split()]
    if words[:1] and (words[0] in ASKER or words[0] in NEWCOMER) and NEWCOMER & set(words[:4]):
        return True  # "I'm new on the CoachForce team -", "new on the team -"
    if words[:1] and words[0] in ASKER and ASKER_BUSY & set(words[1:3]):
        return True  # "I'm doing release planning for SummarizeForce -": what the asker is doing
    heading = re.match(rf"\s*{re.escape(clause.strip())}\s*:", text) is not None
    return clause == parts[0] and heading and len(words) <= HEADING_WORDS


#: The asker's own verb at a clause's head, with the verb it leads to ("i missed", "i need to escalate").
ASKER_HEAD = re.compile(
    r"^i(?: |'m |'m )(?:(?:need|want|have|got|plan|would like|d like|am going|m going|going|am trying|m trying|trying|"
    r"am about|m about|about) to \w+|\w+)(?!\S)"
)


def asker_verbs(text: str) -> list[str]:
    """The asker's own verb at the head of a clause said before the clause that asks ("I missed the X review
    on <day> - who was there?"): what the asker did, not what is asked; the rest of the clause still counts."""
    parts = [p for p in CLAUSE_END.split(text) if p and p.strip()]
    rest = {w for p in parts[1:] for w in normalise(p).split()}
    if not rest & ASKING_WORDS:
        return []
    heads = [ASKER_HEAD.match(normalise(p)) for p in parts[:-1]]
    return [h.group(0) for h in heads if h]


def tail_only(clause: str, parts: list[str]) -> bool:
    """The last clause, said after a clause that asks, asking nothing itself ("…? need it for a slide"), with no
    word that can change what is asked ("…? not the presenter" narrows it)."""
    words = {singular_text(w) for w in normalise(clause).split()}
    asks_before = len(parts) > 1 and bool(ASKS.search(normalise(parts[-2])))
    return (
        clause == parts[-1] and asks_before and not ASKS.search(normalise(clause)) and not words & function_words()[1]
    )


def lead_only(clause: str, parts: list[str]) -> bool:
    """The first clause, said before a clause that asks ("For a sales battlecard: which competitors …"), with
    no word that can change what is asked ("Excluding X: …" is no lead)."""
    words = {singular_text(w) for w in normalise(clause).split()}
    rest = {w for p in parts[1:] for w in normalise(p).split()}
    return clause == parts[0] and bool(rest & ASKING_WORDS) and not words & function_words()[1]


def says_something(clause: str) -> bool:
    """Whether a clause holds a word the reader places (a property's, a class's, a value's): then it asks
    ("I'm after the ones that reported bugs …"), and is no aside."""
    sing = f" {_phrase(clause)} "
    return any(f" {phrase} " in sing for phrase in phrase_kinds())


def read_by_ontology(q: Question, backend: Backend) -> Answer | None:
    """The question read as a property of an entity it names; None when it is not such a question. Read with
    the properties its scope holds (`scoped_schema`)."""
    graphs = product_dataset(q.product)
    scope = RECORDS.set(holds_records(backend, graphs))
    try:
        return read_in_scope(q, backend, graphs)
    finally:
        RECORDS.reset(scope)


def read_in_scope(q: Question, backend: Backend, graphs: list[NamedNode] | None) -> Answer | None:
    second, first = SECOND_WH.search(q.norm), FIRST_WH.match(q.norm)
    if second is not None and first is not None and first.group(1) not in second.group(1):
        # "when was X written, and by whom?": a time and a person, which no one reading gives
        why = f"it asks two things ('{first.group(1)}' and '{second.group(1)}'): ask each"
        return Reader(q, backend, graphs, q.norm, []).uncertain(why)
    text = question_text(q)
    # names and titles are looked up in the question's product, else among the organisation's people and
    # companies only: a title read against every product's would cost a scan of all (ids are found anywhere)
    by_name = graphs if graphs is not None else [NamedNode(ORG_GRAPH)]
    found = [
        m
        for m in mentions(q.text, fenced(q.text, text), backend, graphs, by_name)
        if not _is_product(m, q.product) and not _inside_phrase(m, singular_text(text))
    ]
    if len(q.repos) == 1:  # "PR #26 in the SummarizeForce repo": that repository's PR of the number
        found = [in_repository(m, q.repos[0]) for m in found]
    # "was eid_… at <the meeting>": the one id a yes/no names is whom it asks about, unless it is the meeting
    asks_one = opens_yes_no(q.text) and len(found) == 1 and found[0].by_id and not names_meeting(found[0])
    if (not found or asks_one) and (desc := described(q, text, backend, graphs, reader_data())) is not None:
        return Reader(q, backend, graphs, text, [*found, Mention(desc.words, desc.entities)], desc).answer()
    return Reader(q, backend, graphs, text, found).answer()


#: The question's own question word, and a second one after "and" ("…, and by whom?", "… and when?").
FIRST_WH = re.compile(r"^(when|who|whom|where|which|what)\b")
SECOND_WH = re.compile(r"(?:,\s*|\s)and (?:also )?((?:by |to |with )?(?:whom|who|when|where))\s*\??\s*$")


def fenced(typed: str, text: str) -> str:
    """The text with each quoted title fenced off, so that no name runs across its quotes ("did eid_… fix
    'Inconsistent Highlighting …'" names the bug, not a PR titled "Fix Inconsistent Highlighting …")."""
    for quote in dict.fromkeys(plain_words(normalise(m.group(0)[1:-1])) for m in TITLE_QUOTED.finditer(typed)):
        if quote:
            text = re.sub(rf"(?<!\S){re.escape(quote)}(?!\S)", f"| {quote} |", text)
    return text


def names_meeting(mention: Mention) -> bool:
    """The mention is a meeting itself (named by its id): no other meeting is described beside it."""
    return any(MEETING in c.classes for c in mention.candidates)


def without_links(placed: Placed) -> Placed:
    """The placement less the words that ask for links ("the open PRs in X, links please"): a listing shows
    every item by its link where it has one, so they ask for no property."""
    url = schema().properties.get(expand("ekg:url"))
    said = set(url.forward) if url is not None else set()
    return replace(placed, phrases=[p for p in placed.phrases if not (p[0] == "forward" and p[1] in said)])


#: The words by which the reader's `most` asks for the value with the most instances.
TOP_WORDS = frozenset({"most", "top", "busiest"})
#: Words for the people of a team that a property may read ("members": member of), said as who spoke ("what
#: have the team members written up in Slack").
#: Words between a named employee and a role said of it ("eid_… is an engineering lead", "eid_…, our VP").
PREDICATE_LEAD = frozenset({"is", "was", "a", "an", "the", "our", "their", "as"})
SPEAKER_WORDS = frozenset({"member", "team member", "folk", "folks"})


def in_repository(mention: Mention, repo: str) -> Mention:
    """A mention by number whose candidates are PRs of several repositories, kept to the named one's."""
    kept = tuple(e for e in mention.candidates if f"github.com/{repo.casefold()}/pull/" in e.label.casefold())
    return replace(mention, candidates=kept) if mention.by_id and len(mention.candidates) > 1 and kept else mention


def quoted(text: str, label: str) -> bool:
    """Whether the question gives the label in quotes ("the bug 'Cache Eviction Policy Misconfiguration'")."""
    low, name = text.casefold(), label.casefold()
    return any(f"{a}{name}{b}" in low for a, b in QUOTES)


def placed_at(text: str, words: str) -> int:
    at = f" {text} ".find(f" {words} ")
    return at if at >= 0 else len(text)


def _inside_phrase(m: Mention, sing: str) -> bool:
    """A name that is only a word of a property's label the question uses ("demo" in "demo link")."""
    if m.by_id:
        return False
    return any(
        f" {m.words} " in f" {phrase} " and f" {phrase} " in f" {sing} "
        for phrase, kinds in phrase_kinds().items()
        if kinds - {"class"} and len(phrase) > len(m.words)
    )


def _is_product(m: Mention, product: str | None) -> bool:
    """The question's own product named as its scope (it is the entity only when nothing else is named)."""
    return product is not None and normalise(product) == m.words and not m.by_id


@dataclass
class Reader:
    q: Question
    backend: Backend
    graphs: list[NamedNode] | None
    text: str
    found: list[Mention]
    #: the entity the question describes (a meeting, a document's versions), when it names none
    desc: Described | None = None
    #: roles said beside a named employee ("engineering lead eid_…"): they describe it, they filter nothing
    apposed: list[str] = field(default_factory=list)
    #: the verb after "did <entity>" read as its participle, whatever else it may name (`participle`)
    acts: bool = False
    #: a role said as an employee's own ("eid_…'s engineering lead"): read up the reporting line, where nobody
    #: with the role is no proof (the words may name another relation)
    upward: bool = False

    def answer(self) -> Answer | None:
        """The reading of the question; where none is found and a verb stands after "did <entity>", the reading
        with that verb as the act it says ("which bugs did CUST-… report": "reported")."""
        read = self.read()
        if self.acts or (read is not None and read.outcome != "uncertain"):
            return read
        text = self.placed(self.found).text
        if read is None and DO_SUPPORT.search(text):
            return replace(self, acts=True).read()
        if PASSIVE_AGENT.search(text):
            active = replace(self, acts=True).read()  # "which bugs were resolved by eid_…": as "did eid_… resolve"
            return active if active is not None and active.outcome != "uncertain" else read
        return read

    def read(self) -> Answer | None:
        if (joined := self.role_joined()) is not None:
            return self.uncertain(f"'{joined}' joins a role to another kind of person: ask for each")
        repos = {normalise(r) for r in self.q.repos}  # a repository named as one filters a listing: no entity
        named = [m for m in self.found if m.words not in repos]
        placed, asked, left = self.place(named)
        if self.q.repos and any(m.by_id for m in named):  # "PR #26 in the X repo": the repository kept the PR
            left = [w for w in left if w not in {t for said in self.q.repo_words for t in said.split()}]
        one = named[0].candidates[0] if len(named) == 1 and len(named[0].candidates) == 1 else None
        if one is not None:  # "flowAIX_planning_5, the X system design review"
            placed = self.without_restated(one, placed)
        for m in named if one is None and len(named) == 2 else []:  # "was eid_… at <meeting id>, the X review"
            placed = self.without_restated(m.candidates[0], placed) if len(m.candidates) == 1 else placed
        asks_property = any(kind not in ("class", "scope", "role") for kind, _, _ in placed.phrases)
        if self.desc is not None and len(named) == 2:
            if self.q.time is not None and not self.desc.dated:
                return self.uncertain(f"'{self.q.slots().get('time')}': the properties read here have no time")
            return self.related(named, placed, asked, left)
        if self.desc is not None:
            return self.of_described(self.desc, placed, asked, left, asks_property)
        role_asked = PERSON if asked is None and self.q.roles else asked  # "which product managers were in <it>"
        if not asks_property and one is not None and not left and (people := self.people_at(one, role_asked)):
            return self.by_role(people)  # "who was at <meeting id>", "who was in the room for it"
        if not asks_property and one is not None and (held := self.held_by(one, asked, left)) is not None:
            return held  # "which meetings was eid_… in", "… part of", "has eid_… been in"
        if (member := self.member_of(one, placed, left, asks_property)) is not None:
            return member  # "is eid_… one of the engineering leads on X"
        if one is not None and opens_yes_no(self.q.text) and (top := self.most(placed, asked, left)) is not None:
            return self.checked(top, one.label, {one.label.casefold(), local(one.iri).casefold()})  # "is eid_… the
            # person with the most authored PRs in X": among the values at the top
        if (
            not asks_property
            and not ((self.q.roles or self.q.locations) and not named)
            and not self.lists(placed, asked)
            and not (self.whole_team(placed, asked) and not named)
            and not (self.sourced(placed, asked, left) and not named)
            and not (len(named) == 2 and opens_yes_no(self.q.text))  # "was eid_… at <meeting>": no word but "at"
            and not self.role_asked(one, placed)
        ):
            return None
        if self.q.time is not None:  # the ontology's properties hold as of now: an answer for then is a guess
            return self.uncertain(f"'{self.q.slots().get('time')}': the properties read here have no time")
        if not named:
            if untitled := self.untitled(placed, left):
                return untitled
            if (top := self.most(placed, asked, left)) is not None:
                return top
            if (doers := self.doers(placed, asked, left)) is not None:
                return doers
            placed, source = self.source_class(placed, asked)  # "competitors discussed on Slack"
            placed = self.without_speakers(placed, asked) if source is not None else placed
            placed = without_links(placed) if asked is not None else placed  # "open PRs in X, links please"
            if listed := self.listing(placed, asked, left, source=source):
                return listed
            if source is not None:
                return None  # the source said is no part of any other reading
            named = self.product_mention()  # the product itself, when it is the only thing named
            if not named:
                return None
            placed, asked, left = self.place(named)
        if len(named) == 2 and opens_yes_no(self.q.text):
            return self.related(named, placed, asked, left)
        if len(named) > 1:
            return None  # two entities: a relation between them is for another reader (or the operators)
        if asked is not None and asked in schema().below.get(ARTIFACT, frozenset()):
            placed = without_links(placed)  # "the PR link that fixed <bug>": the PR, shown by its link
        mention = self.of_named_kind(named[0], placed, asked)
        if mention.ambiguous:
            return self.each_titled(mention, placed, asked, left) or self.ambiguous(mention)
        return self.of_entity(mention.candidates[0], mention, placed, asked, left)

    def of_entity(
        self, entity: Entity, mention: Mention, placed: Placed, asked: str | None, left: list[str]
    ) -> Answer | None:
        """The question about the one entity it names: the reading of its property words, checked against
        every word left."""
        left = list(left)
        if owned := self.owned(entity, mention, placed, asked, left):
            return owned
        if opens_yes_no(self.q.text) and (named_in := self.named_in(entity, placed, left)) is not None:
            return named_in
        readings = self.readings(entity, placed)
        if asked is not None and readings and not any(self.reaches(r, asked) for r in readings):
            readings = self.where_readings(entity, placed, asked) or readings  # "which bugs has eid_… resolved"
        readings = readings or self.where_readings(entity, placed, asked)
        restated = asked is None or self.fits(entity, schema().below.get(asked, frozenset({asked})))  # "<it> bug"
        timed = set(reader_data()["time_words"])
        times = {expand(p) for p in reader_data()["time_properties"]}
        asks_time = restated and timed & set(self.text.split()) and not any(r.prop.iri in times for r in readings)
        if asks_time and (when := self.when_where(entity, placed)):  # "when was <bug> reopened": that event's time
            readings, left = when, [w for w in left if w not in timed]
        if (kept := self.subjects_with(entity, readings, placed, asked, left)) is not None:
            return kept
        if not readings and (read := self.read_from(Described(mention.words, (entity,)), placed, asked, left)):
            return read  # "the competitors named in <document id>": what was read from that one document
        readings = self.timed(readings)
        if asked is not None and len(readings) > 1:  # literals are no entities of the asked kind ("which PRs")
            readings = [r for r in readings if not r.prop.datatype] or readings
            readings = [r for r in readings if self.reaches(r, asked)] or readings  # a PR's reviewer, not a doc's
            # of the asked kind itself, over a kin of it ("which bugs were reported by CUST-…": a bug's customer,
            # not who reported a piece of release feedback)
            readings = [r for r in readings if self.reaches(r, asked, strictly=True)] or readings
        if not readings:
            return None
        described, left = self.apposition(entity, placed, left)
        if described is not None:
            return described
        if len(readings) == 1 and readings[0].how == "peers":  # the others: the entity is never among them
            left = [w for w in left if w not in OTHERS | {"same"}]  # "… reporting to the same manager"
        if len(readings) == 1:
            left += self.unfit_classes(placed, entity, readings[0], asked) + self.unread(placed, readings[0], asked)
            left = self.untimed(left, placed)
            if opens_yes_no(self.q.text):  # the slot's value is what the yes or no checks
                left = self.without_slot_words(readings[0], left)
        if (
            len(readings) == 1
            and opens_yes_no(self.q.text)
            and len(said := self.values_said(readings[0], placed)) > 1
            and not self.offered(readings[0], placed)  # "is <bug> resolved, open, or reopened?": which one
        ):
            # "was <bug> reopened after it was marked resolved": two states, and which one the yes answers is not read
            return self.named_doubt(
                entity,
                f"the question names {' and '.join(repr(v) for v, _ in said)}, and "
                f"which of them the yes or no asks is not read",
            )
        expected = self.expected(readings[0], placed) if len(readings) == 1 else None
        if not (opens_yes_no(self.q.text) and expected and expected[0] != self.q.product):
            # a value the question names that no reading uses ("competitors listed in the market research
            # report": the report is no part of a product's competitors)
            other = {w for k, w, _ in placed.phrases if k != "value"}  # "merged": a property's word as well
            values = [w for k, w, _ in placed.phrases if k == "value" and w not in other]
            left += [w for w in values if all(r.how != "where" for r in readings)]
        if left:
            return self.named_doubt(
                entity, f"the words {', '.join(repr(w) for w in left)} are not placed by any reading"
            )
        if len(readings) > 1:
            return self.agreed(entity, readings, asked) or self.named_doubt(
                entity, f"the question fits {len(readings)} readings: {'; '.join(r.shown(entity) for r in readings)}"
            )
        read = self.run(entity, readings[0], asked)
        # the role a yes or no checks is the value read ("is eid_… a QA specialist"), no filter on people
        read = read if self.slot_values(readings[0]) and self.q.roles else self.by_role(read)
        if read.outcome == "absent" and (chain := self.chained(readings[0])) is not None:
            read = self.by_role(self.run(entity, chain, asked))  # "which VP does eid_… report to": at any distance
        if read.outcome == "absent" and self.upward:
            return self.uncertain(
                f"nobody up {entity.label}'s reporting line has the role {', '.join(self.q.roles)}: the role said as "
                "theirs may name another relation"
            )
        if opens_yes_no(self.q.text) and self.offered(readings[0], placed):
            read.slots["offered"] = True  # "is <bug> resolved, open, or reopened?": which one, not yes or no
            return read
        if opens_yes_no(self.q.text) and (expected := self.expected(readings[0], placed)):
            return self.with_state(entity, self.checked(read, *expected))  # "is <bug> resolved?": and its state
        if opens_yes_no(self.q.text) and readings[0].how == "value" and not readings[0].prop.datatype:
            return self.with_state(entity, self.existed(read))  # "was <PR> reverted?": whether it has any
        return read

    def member_of(self, one: Entity | None, placed: Placed, left: list[str], asks_property: bool) -> Answer | None:
        """ "Is eid_… one of the engineering leads on X?": whether the person is among the product's team members
        with that role (or place); yes with them, no with them or the listing's proof."""
        person = schema().below.get(PERSON, frozenset({PERSON}))
        if one is None or asks_property or not opens_yes_no(self.q.text) or not one.classes & person:
            return None
        if self.q.product is None or not (self.q.roles or self.q.locations):
            return None
        members = self.team_members(placed, left, self.q.slots(), PERSON)
        if members is None:
            return None
        return self.checked(members, one.label, {one.label.casefold(), local(one.iri).casefold()})

    def named_in(self, entity: Entity, placed: Placed, left: list[str]) -> Answer | None:
        """ "Is ChatBrief named as a competitor in X's market research report?": whether the entity is among
        the items of its kind read from that kind of document (the listing by source), yes with them, no with
        them or the listing's proof."""
        sources = [(p, c) for k, p, _ in placed.phrases if k == "value" and (c := self.source_condition(p))]
        verbs = set(reader_data()["source_verbs"])
        if len(sources) != 1 or not verbs & {*left, *(p for k, p, _ in placed.phrases if k == "forward")}:
            return None
        kinds = [c for c in entity.classes if c not in schema().below.get(ARTIFACT, frozenset())]
        if len(kinds) != 1:
            return None
        rest = replace(placed, phrases=[p for p in placed.phrases if p[1] != sources[0][0]])
        listed = self.listing(rest, kinds[0], [w for w in left if w not in verbs], source=sources[0][1])
        if listed is None:
            return None
        return self.checked(listed, entity.label, {entity.label.casefold()})

    def without_restated(self, entity: Entity, placed: Placed) -> Placed:
        """The placement less the phrases that only restate the entity ("CoFoAIX_planning_1, the CoachForce
        market research report review"): values it holds (its document kind), and, with one, the words the data
        file's `[restates]` gives its class ("review" of a meeting)."""
        values = [p for p in placed.phrases if p[0] == "value"]
        words = {w for cls, ws in reader_data()["restates"].items() if expand(cls) in entity.classes for w in ws}
        if not values or not words:
            return placed  # only a kind the data file names is restated so ("is <PR> closed" asks its state)
        rows = self.backend.select(named_query("onto_held").text, {"entity": NamedNode(entity.iri)}, self.graphs)
        held = {term_text(r["value"]) for r in rows}
        held |= {i for h in held for i in individuals(_phrase(normalise(h)))}  # a meeting's type, as its kind
        said = [p for p in values if set(individuals(p[1])) & held]
        if not said:
            return placed
        dropped = {p[1] for p in said} | words
        return replace(placed, phrases=[p for p in placed.phrases if p[1] not in dropped or p[0] in ("class", "scope")])

    @staticmethod
    def existed(read: Answer) -> Answer:
        """A reading's answer turned into yes (it has values: they are the evidence) or no (it has none: the
        reading's proof)."""
        if read.outcome not in ("answer", "absent"):
            return read
        values = read.answer if isinstance(read.answer, list) else []
        return yes_or_no(read, bool(values), {"kind": "exists", "shown": "is there any?", "items": values})

    def with_state(self, entity: Entity, read: Answer) -> Answer:
        """A yes or no about an item that has a state, with the state said beside it ("was <bug> fixed?": "no
        (its state: no fix needed)"): the state is what the asker goes on to ask, and it is in the graph."""
        props = [expand(p) for c, p in reader_data()["states"].items() if expand(c) in entity.classes]
        if read.outcome != "answer" or len(props) != 1:
            return read
        rows = self.backend.select(
            named_query("onto_value").text,
            {"entity": NamedNode(entity.iri), "property": NamedNode(props[0])},
            self.graphs,
        )
        states = sorted({schema().labels.get(term_text(r["value"]), term_text(r["value"])) for r in rows})
        if len(states) == 1:
            read.answer = f"{read.answer} (its state: {states[0]})"
            read.citations = sorted({*read.citations, *row_cites(rows)})
        return read

    def chained(self, reading: Reading) -> Reading | None:
        """The whole chain of a reading's property, when the question filters its people by a role and the
        property forms a chain: none with the role one step away is no proof that none is further along."""
        how = {"value": "up", "subject": "down"}.get(reading.how)
        roles = [r for r in self.q.roles if r not in self.apposed]
        if how is None or not roles or not self.chain_words(reading.prop, how):
            return None
        if set(reader_data()["one_step"]) & set(self.q.norm.split()):
            return None  # "which QA specialists report directly to eid_…": one step, as said
        return Reading(how, reading.prop)

    def named_doubt(self, entity: Entity, why: str) -> Answer:
        """Uncertain about a question that names the entity in quotes: found, not read, so no other reader's
        proof about those words stands."""
        doubt = self.uncertain(why)
        if quoted(self.q.text, entity.label):
            doubt.slots["entity"] = local(entity.iri)
        return doubt

    def unread(self, placed: Placed, reading: Reading, asked: str | None) -> list[str]:
        """Property words the question places that neither the reading nor the property it follows to the asked
        kind reads ("what weak points have the products of X's competitors": a weakness, not the competitors)."""
        props = [reading.prop, *([follow] if (follow := self.answer_as(reading, asked)) else [])]
        own = {w for p in props for w in (*p.forward, *p.inverse, *p.names, *p.inverse_names)}
        said = {lemma for w in own for word in w.split() for lemma in lemmas(word)}  # "report" as "reported"
        kinds = schema().kinds
        return [
            w
            for k, w, _ in placed.phrases
            if k in ("forward", "inverse")
            and w not in own
            and not all(lemmas(x) & said for x in w.split())
            and not any(kinds.get(i, frozenset()) & reading.prop.range for i in individuals(w))  # "resolved"
            and reading.value not in individuals(w)  # the value a "where" reading's records hold
        ]

    def lists(self, placed: Placed, asked: str | None) -> bool:
        """Whether the question only lists a kind of artifact of its product ("which documents does X have"):
        an artifact class, the product, and nothing else named."""
        return (
            asked in schema().below.get(ARTIFACT, frozenset())
            and not self.found
            and all(kind in ("class", "scope") for kind, _, _ in placed.phrases)
        )

    def sourced(self, placed: Placed, asked: str | None, left: list[str]) -> bool:
        """Whether the question lists a kind by where it is read from, in words no property holds ("which
        competitor products came up in Slack"): a source class said, and only the verbs of a source left."""
        verbs = set(reader_data()["source_verbs"])
        return self.source_class(placed, asked)[1] is not None and all(w in verbs for w in left)

    @staticmethod
    def untimed(left: list[str], placed: Placed) -> list[str]:
        """The words left without "when" where the question asks only properties whose values are times ("when
        was the latest PRD published"); "when" asks for no other property."""
        timed = {expand(p) for p in reader_data()["time_properties"]}
        words = {w for iri in timed if (p := schema().properties.get(iri)) for w in (*p.forward, *p.names)}
        asked = [w for k, w, _ in placed.phrases if k in ("forward", "inverse")]
        if not asked or any(w not in words for w in asked):
            return left
        return [w for w in left if w not in reader_data()["time_words"]]

    def by_role(self, read: Answer) -> Answer:
        """A reading's people narrowed to the role the question names ("which QA specialists report to
        eid_…"), then to the place ("… based in Seattle"); a role the answer cannot be narrowed by (no people)
        is uncertain."""
        roles = [r for r in self.q.roles if r not in self.apposed]
        if not roles or read.outcome == "absent":
            return self.by_place(read)
        if len(roles) > 1 or read.outcome != "answer" or read.type != "person":
            return self.uncertain(f"'{', '.join(roles)}' filters nothing this reading answers")
        kept = self.kept_by(read, "onto_person_roles", "role", roles[0], f"with role {roles[0]}")
        return self.by_place(kept) if kept.outcome == "answer" else kept

    def by_place(self, read: Answer) -> Answer:
        """A reading's people narrowed to the place the question names, as their ekg:location gives it."""
        places = self.q.locations
        if len(places) != 1 or read.outcome != "answer" or read.type != "person":
            return read
        return self.kept_by(read, "onto_person_location", "location", places[0], f"based in {places[0]}")

    def kept_by(self, read: Answer, name: str, column: str, wanted: str, said: str) -> Answer:
        """The answer's people whose `column` (read by `sparql/<name>.rq` per person) is the wanted value; none
        left is absent, with the count of those looked at as its proof."""
        values = read.answer if isinstance(read.answer, list) else []
        query = named_query(name)
        kept = [
            v
            for v in values
            if any(
                term_text(r[column]).casefold() == wanted.casefold()
                for r in self.backend.select(query.text, {"person": NamedNode(f"{ID}person/{v}")})
            )
        ]
        read.slots["reading"] = f"{read.slots.get('reading', '')}, those {said}"
        read.queries = [*read.queries, query.text]
        if not kept:
            reason = f"none of the {len(values)} answers is one {said}"
            proof = {"query": query.name, "text": query.text, "bindings": {}, "result": reason}
            return self.abstention(reason, "absent", slots=read.slots, intent=read.intent, proof=proof)
        read.answer = kept
        return read

    def expected(self, reading: Reading, placed: Placed) -> tuple[str, set[str]] | None:
        """What a yes/no question expects among one entity's values: a state or kind the question names that
        the property can hold ("has bug X been resolved"), or the product when the property leads to products
        ("does X's report list Y as a competitor")."""
        if reading.how not in ("value", "up", "top", "two"):
            return None
        if values := self.values_said(reading, placed):
            return values[0]
        if XSD_BOOLEAN in reading.prop.range:  # "was <PR> merged": its merged flag, true
            return "true", {"true"}
        if self.q.product and (PRODUCT in reading.prop.range or self.products_part(reading.prop.range)):
            return self.q.product, {self.q.product.casefold()}  # "is eid_… part of the X team": X's team
        if (said := self.slot_values(reading)) and len(said) == 1:
            return said[0], {said[0].casefold()}
        return None

    @staticmethod
    def values_said(reading: Reading, placed: Placed) -> list[tuple[str, set[str]]]:
        """The values of the reading's property the question names, each with the forms that match it: a state
        or kind ("is <bug> still open": open, or reopened, a narrower open), or a listed literal ("was <PR>
        closed")."""
        s = schema()
        out: dict[str, set[str]] = {}
        for kind, phrase, _ in placed.phrases:
            if kind != "value":
                continue
            named = [i for i in individuals(phrase) if s.kinds.get(i, frozenset()) & reading.prop.range]
            if len(named) == 1:
                out.setdefault(s.labels[named[0]], {s.labels[n].casefold() for n in (named[0], *narrower(named[0]))})
            listed = [v for iri, v in literal_values().get(phrase, ()) if iri == reading.prop.iri]
            if len(named) != 1 and len(listed) == 1:
                out.setdefault(listed[0], {listed[0].casefold()})
        # "closed as not a bug": the broader state said with a narrower one is that one, said twice
        return [(v, forms) for v, forms in out.items() if not any(o != v and o.casefold() in forms for o in out)]

    @staticmethod
    def products_part(classes: frozenset[str]) -> bool:
        """Whether the values are what a product's scope noun names ("the X team": a team, which `ekg:teamOf`
        leads to the product and which answers show by the product's name)."""
        nouns = set(reader_data()["scope_nouns"])
        return any(
            p.domain & classes and PRODUCT in p.range and not p.datatype and s_label(c) in nouns
            for p in schema().properties.values()
            for c in classes
        )

    def slot_values(self, reading: Reading) -> list[str]:
        """The question's slot values a property's values are written as (a location: "is eid_… based in
        London")."""
        slots = {expand(p): name for name, p in reader_data()["slot_properties"].items()}
        name = slots.get(reading.prop.iri)
        return list(getattr(self.q, name)) if name else []

    def without_slot_words(self, reading: Reading, left: list[str]) -> list[str]:
        words = {w for v in self.slot_values(reading) for w in normalise(v).split()}
        return [w for w in left if w not in words]

    def related(self, named: list[Mention], placed: Placed, asked: str | None, left: list[str]) -> Answer | None:
        """A yes/no question naming two entities ("Does eid_A report to eid_B?"): the one reading of the first
        entity whose values may hold the second, yes when they do, else no with the values it has."""
        if self.desc is not None and self.desc.every and any(m.words == self.desc.words and m.ambiguous for m in named):
            return self.related_any(named, placed, asked, left)
        if any(m.ambiguous for m in named):
            return None
        first, second = sorted(named, key=lambda m: placed_at(self.text, m.words))
        described, left = self.apposition(first.candidates[0], placed, left)
        if described is not None or left:
            return described
        pairs = [(first.candidates[0], second.candidates[0]), (second.candidates[0], first.candidates[0])]
        # "is eid_A one of eid_B's direct reports": B's are read; unless a pronoun after a verb's preposition
        # stands for B ("is eid_A part of eid_B's team (reports directly to them)"): A is then its subject
        if f"{second.words}'s" in self.q.norm and not OBJECT_PRONOUN.search(self.q.norm):
            pairs.reverse()
        person = schema().below.get(PERSON, frozenset())
        onward: str | None = None  # the kind the values are followed on to ("did eid_… fix <bug>": its fix's author)
        for entity, other in pairs:
            # the other among the entity's values (value, up, two) or among what has it as a value (subject, down):
            # "is eid_A one of eid_B's direct reports"
            readings = [
                r
                for r in self.readings(entity, placed)
                if not r.prop.datatype
                and self.fits(other, r.prop.range if r.how in ("value", "up", "top", "two", "via") else r.prop.domain)
            ]
            if not readings and other.classes & person:  # "did eid_… approve <PR>"
                readings = self.where_readings(entity, placed, PERSON)
            kinds = [PERSON] if other.classes & person else sorted(other.classes)
            for lead in [] if readings else kinds:
                # "did eid_… fix <bug>": the bug's fix, read as its author (`answer_as`), may be the person
                readings = [r for r in self.readings(entity, placed) if r.how == "value" and self.reaches(r, lead)]
                if readings:
                    onward = lead
                    break
            if len(readings) == 1:
                break
        else:
            readings, (entity, other) = self.people_reading(pairs, placed)
            if not readings:
                return None
        said = self.unchecked(entity, readings[0], placed)
        if said:  # "was <bug> that <company> reported fixed with a PR": the reading checks the report only
            shown = " and ".join(repr(p) for p in said)
            return self.uncertain(f"the question also says {shown}, which the yes or no it reads does not check")
        # the values are compared with the other entity: read as its kind, never followed on to the asked one
        # ("is A part of B's team": A's manager, not the manager's team, may be B)
        kind = asked if asked is not None and self.fits(other, schema().below.get(asked, frozenset({asked}))) else None
        kind = kind or onward
        return self.checked(
            self.run(entity, readings[0], kind), other.label, {other.label.casefold(), local(other.iri).casefold()}
        )

    def related_any(self, named: list[Mention], placed: Placed, asked: str | None, left: list[str]) -> Answer | None:
        """A yes/no about an entity and a set of described ones ("was eid_… in any of the X product dev
        meetings"): yes when one of them relates, citing those that do; no when each says no, with each one's
        evidence; None when one of them reads otherwise."""
        assert self.desc is not None
        others = [m for m in named if m.words != self.desc.words]
        answers = [
            self.related([*others, Mention(self.desc.words, (e,))], placed, asked, left) for e in self.desc.entities
        ]
        if not answers or any(a is None or a.outcome != "answer" or a.answer not in ("yes", "no") for a in answers):
            return None
        done = [a for a in answers if a is not None]
        yes = [a for a in done if a.answer == "yes"]
        read = yes[0] if yes else done[0]
        read.citations = list(dict.fromkeys(c for a in (yes or done) for c in a.citations))
        read.slots = {**read.slots, "reading": f"any of {self.desc.words} → {read.slots.get('reading', '')}"}
        return read

    @staticmethod
    def unchecked(entity: Entity, reading: Reading, placed: Placed) -> list[str]:
        """The words of another property of the entity read, placed in the question, that a yes or no about two
        entities would not check, when the property it reads is said in a clause describing the entity ("was
        <bug> that <company> reported *fixed with* a PR": the report would be checked); a word that is also a
        value the reading filters on ("who reverted PR #13") is read."""
        s = schema()
        used = {*reading.prop.forward, *reading.prop.inverse}
        described = any(
            re.search(rf"(?:that|which|whom) {re.escape(HOLE)} $", placed.text[:at])
            for k, p, at in placed.phrases
            if p in used
        )
        if not described and reading.how != "where":  # a "where" reading says only its value ("reopened")
            return []
        values = {p for k, p, _ in placed.phrases if k == "value"}
        kinds = entity.classes

        def of_entity(phrase: str) -> bool:
            props = (p for p in s.properties.values() if phrase in p.forward or phrase in p.inverse)
            return any(s.kin(c, d) for p in props for d in (*p.domain, *p.range) for c in kinds)

        said = {p for k, p, _ in placed.phrases if k in ("forward", "inverse") and p not in used | values}
        return sorted(p for p in said if of_entity(p))

    def checked(self, read: Answer, shown: str, forms: set[str]) -> Answer:
        """A reading's answer turned into yes (the expected item is among its values) or no (it is not: the
        values are the evidence; none at all: the reading's proof)."""
        if read.outcome not in ("answer", "absent"):
            return read
        values = read.answer if isinstance(read.answer, list) else []
        # a value shown by its link names the item by the link's last part (a document's id)
        holds = any({str(v).casefold(), str(v).casefold().rstrip("/").rsplit("/", 1)[-1]} & forms for v in values)
        return yes_or_no(
            read, holds, {"kind": "yes_no", "shown": f"is {shown} among them?", "item": shown, "items": values}
        )

    def of_described(
        self, desc: Described, placed: Placed, asked: str | None, left: list[str], asks_property: bool
    ) -> Answer | None:
        """The question about a described entity: the property it asks of it (of each, for every version), or,
        asking none, the entity itself ("the latest version of X's PRD"); nothing when nothing fits, with the
        proof."""
        if self.q.time is not None and not desc.dated:
            return self.uncertain(f"'{self.q.slots().get('time')}': the properties read here have no time")
        left = self.untimed(left, placed)
        if desc.entities and (listed := self.read_from(desc, placed, asked, left)) is not None:
            return listed
        if (when := self.when_of(desc, left, asks_property)) is not None:
            return when
        if (missed := self.missed(desc, placed, left)) is not None:
            return missed
        if left:
            return self.uncertain(f"the words {', '.join(repr(w) for w in left)} are not placed by any reading")
        if not desc.entities:
            proof = {**desc.proof, "graphs": [g.value for g in self.graphs or []], "result": True}
            return self.abstention(desc.missing, "absent", intent="ontology:described", proof=proof)
        role_asked = PERSON if asked is None and self.q.roles else asked  # "which UX researchers were in <it>"
        if not asks_property and (people := self.people_of(desc, role_asked)) is not None:
            return self.by_role(people)
        if not asks_property:
            if asked is not None and not any(
                e.classes & schema().below.get(asked, frozenset({asked})) for e in desc.entities
            ):
                return self.uncertain(f"'{desc.words}' is no {s_label(asked)}, and no property of it is asked")
            if len(desc.entities) > 1 and not desc.every:
                return self.ambiguous(Mention(desc.words, desc.entities))
            slots = {**self.q.slots(), "reading": f"{desc.words} → itself"}
            ids = [e.label for e in desc.entities]
            shown = [desc.links.get(e.iri, e.label) for e in desc.entities]
            return self.answered(shown, ids, "ontology:described", slots, [named_query("onto_versions").text])
        if len(desc.entities) > 1 and not desc.every:
            return self.ambiguous(Mention(desc.words, desc.entities))
        answers = []
        for entity in desc.entities:
            readings = self.timed(self.readings(entity, placed))
            if len(readings) > 1:
                read = self.agreed(entity, readings, asked)
                if read is None:
                    return self.uncertain(
                        f"the question fits {len(readings)} readings: {'; '.join(r.shown(entity) for r in readings)}"
                    )
            elif readings:
                read = self.run(entity, readings[0], asked)
            else:
                return None
            answers.append(self.by_role(read))  # "which QA specialists attended the meeting on <date>"
        if len(answers) == 1:
            return answers[0]
        found = [a for a in answers if a.outcome == "answer"]
        if not found:
            return answers[0]
        values = sorted({v for a in found for v in (a.answer if isinstance(a.answer, list) else [])})
        cites = sorted({c for a in found for c in a.citations})
        slots = {**self.q.slots(), "reading": f"every one of {desc.words} → {found[0].slots.get('reading', '')}"}
        return self.answered(values, cites, str(found[0].intent), slots, found[0].queries)

    def timed(self, readings: list[Reading]) -> list[Reading]:
        """Of several readings, those of a time property when the question asks when ("when was X written": its
        creation time, not its author)."""
        if not set(reader_data()["time_words"]) & set(self.text.split()) or len(readings) < 2:
            return readings
        times = {expand(p) for p in reader_data()["time_properties"]}
        return [r for r in readings if r.prop.iri in times] or readings

    def when_of(self, desc: Described, left: list[str], asks_property: bool) -> Answer | None:
        """ "When was <the described meeting or version>" with no property said: its creation time, the one time
        property every artifact has."""
        times = set(reader_data()["time_words"])
        created = schema().properties.get(DCT + "created")
        if asks_property or len(desc.entities) != 1 or created is None or not times & set(left):
            return None
        if any(w not in times for w in left):
            return None
        return self.run(desc.entities[0], Reading("value", created), None)

    def people_reading(
        self, pairs: list[tuple[Entity, Entity]], placed: Placed
    ) -> tuple[list[Reading], tuple[Entity, Entity]]:
        """ "Was eid_… at <the meeting>": with no property word, the people of the entity's class (the data
        file's `[people_of]`), when the other is a person and the question places no property at all."""
        s = schema()
        if any(k not in ("class", "scope", "role") for k, _, _ in placed.phrases):
            return [], pairs[0]
        person = s.below.get(PERSON, frozenset({PERSON}))
        for entity, other in pairs:
            for cls, prop in reader_data()["people_of"].items():
                if entity.classes & s.below.get(expand(cls), frozenset({expand(cls)})) and other.classes & person:
                    return [Reading("value", s.properties[expand(prop)])], (entity, other)
        return [], pairs[0]

    def missed(self, desc: Described, placed: Placed, left: list[str]) -> Answer | None:
        """ "Which QA specialists were not at <the meeting>", "which engineering leads missed it": the product's
        team members with the role, less the meeting's people; one absence word left, and no property but the
        one that gives its people."""
        absent = [w for w in left if w in negation_words() or w in reader_data()["absence_words"]]
        if len(desc.entities) != 1 or len(absent) != 1 or len(left) != 1 or len(self.q.roles) != 1:
            return None
        if any(k not in ("class", "scope", "role") and not self.of_people(p, desc) for k, p, _ in placed.phrases):
            return None
        people = self.people_of(desc, PERSON)
        if people is None or people.outcome != "answer" or not isinstance(people.answer, list):
            return None
        return self.complement(set(people.answer), people.citations, str(people.intent), people.slots, people.queries)

    @staticmethod
    def of_people(phrase: str, desc: Described) -> bool:
        """Whether the phrase names the property that gives the entity's people ("attend" for a meeting)."""
        found = people_property(desc.entities[0])
        return found is not None and phrase in (*found.forward, *found.names)

    def people_of(self, desc: Described, asked: str | None) -> Answer | None:
        """ "Who was on / at / in <a meeting>": the people the data file names for the entity's class (a
        meeting's participants), when the question asks for people and names no property."""
        return self.people_at(desc.entities[0], asked) if len(desc.entities) == 1 else None

    def people_at(self, entity: Entity, asked: str | None) -> Answer | None:
        """The people the data file's `[people_of]` names for the entity's class, when people are asked."""
        if asked is None or asked not in schema().below.get(PERSON, frozenset({PERSON})):
            return None
        found = people_property(entity)
        return self.run(entity, Reading("value", found), asked) if found is not None else None

    def held_by(self, person: Entity, asked: str | None, left: list[str]) -> Answer | None:
        """The entities of a class the data file's `[people_of]` names whose people hold the person, when that
        class is asked ("which meetings was eid_… in"); words besides "part" and "been" leave it unread."""
        s = schema()
        if asked is None or not person.classes & s.below.get(PERSON, frozenset({PERSON})):
            return None
        if set(left) - {"part", "been"}:
            return None
        for cls, prop in reader_data()["people_of"].items():
            if asked in s.below.get(expand(cls), frozenset({expand(cls)})):
                return self.run(person, Reading("subject", s.properties[expand(prop)]), asked)
        return None

    def ambiguous(self, mention: Mention) -> Answer:
        shown = "; ".join(f"{local(e.iri)} ({e.label})" for e in mention.candidates[:12])
        return self.uncertain(
            f"'{mention.words}' names {len(mention.candidates)} entities: {shown}; name one by its id",
            candidates=[e.iri for e in mention.candidates],
        )

    def each_titled(self, mention: Mention, placed: Placed, asked: str | None, left: list[str]) -> Answer | None:
        """Artifacts of one kind that share the title the question names (HERB has PRs opened twice under one
        title): every one's answer together, each shown in the reading, when every one answers and, for a yes or
        no, all agree. A name people share stays uncertain: that is a pick among persons, never an answer."""
        candidates = mention.candidates
        if mention.by_id or len({e.classes for e in candidates}) > 1:
            return None
        if candidates[0].classes & schema().below.get(PERSON, frozenset({PERSON})):
            return None
        answers = [self.of_entity(e, mention, placed, asked, left) for e in candidates]
        if any(a is None or a.outcome not in ("answer", "absent") for a in answers):
            return None
        found = [a for a in answers if a is not None and a.outcome == "answer"]
        if not found or len({str(a.answer) for a in found if a.type == "yes_no"}) > 1:
            return None  # all proved absent: one proof cannot stand for all; or the yes and no disagree
        if any(a.type == "yes_no" for a in found) and len(found) < len(answers):
            return None
        each = "; ".join(
            f"{local(e.iri)} → {shown_values(a.answer) if a is not None and a.outcome == 'answer' else 'none'}"
            for e, a in zip(candidates, answers, strict=True)
        )
        first = found[0]
        titled = f"for each of the {len(candidates)} titled '{candidates[0].label}'"
        first.slots["reading"] = f"{first.slots.get('reading', '')} ({titled}: {each})"
        first.slots["entity"] = ", ".join(local(e.iri) for e in candidates)
        first.citations = sorted({c for a in found for c in a.citations})
        if isinstance(first.answer, list):
            first.answer = sorted({v for a in found for v in (a.answer if isinstance(a.answer, list) else [])})
        return first

    def owned(
        self, entity: Entity, mention: Mention, placed: Placed, asked: str | None, left: list[str]
    ) -> Answer | None:
        """A listing of an employee's own items ("eid_…'s pull requests that are still open"): the listing's
        conditions, and the item attributed to the employee (the property an asked person reads, as
        `answer_as`)."""
        person = schema().below.get(PERSON, frozenset({PERSON}))
        if asked is None or asked in person or not entity.classes & person or not self.owns(mention):
            return None
        author = schema().properties.get(expand(reader_data()["answer_as"]["person"]))
        if author is None or not author.domain & schema().below.get(asked, frozenset({asked})):
            return None
        return self.listing(placed, asked, left, Condition(author, NamedNode(entity.iri), False))

    def subjects_with(
        self, entity: Entity, readings: list[Reading], placed: Placed, asked: str | None, left: list[str]
    ) -> Answer | None:
        """The items that have the entity as a property's value, with a state the question adds ("which open
        PRs were authored by eid_…"): the listing of the asked class with both conditions; None when the
        question adds none."""
        if asked is not None and len(fit := [r for r in readings if self.reaches(r, asked)]) == 1:
            readings = fit  # "PRs opened by eid_…": a PR's author, not a channel's creator
        if asked is None or len(readings) != 1 or readings[0].how != "subject":
            return None
        if not any(kind == "value" for kind, _, _ in placed.phrases):
            return None
        return self.listing(placed, asked, left, Condition(readings[0].prop, NamedNode(entity.iri), False))

    def owns(self, mention: Mention) -> bool:
        """The employee is said to own the items: "eid_…'s PRs", "what PRs does eid_… have open", "PRs by
        eid_…" (the class word just before "by")."""
        if f"{mention.words}'s" in self.q.norm:
            return True
        before = self.q.norm.split(mention.words, 1)[0].split()[-2:] if mention.words in self.q.norm else []
        if len(before) == 2 and before[1] == "by" and singular_text(before[0]) in schema().class_words:
            return True
        if self.q.norm.split()[:1] == [mention.words] and POSSESSIVE & set(self.q.norm.split()[1:5]):
            return True  # "eid_… - which of their PRs are open": the id said first, then theirs
        after = self.q.norm.split(mention.words, 1)[1].split()[:2] if mention.words in self.q.norm else []
        return any(w in HAVE for w in after)  # "does eid_… still have"

    def bracketed_after(self, entity: Entity) -> list[str]:
        """The words in brackets right after the entity's id as the question writes it, as the reader's text
        holds them; [] when there are none."""
        said = re.search(rf"(?<![\w-]){re.escape(local(entity.iri))}\s*\(([^()]*)(?:\)|$)", self.q.text, re.I)
        return plain_words(normalise(said.group(1))).split() if said else []

    def apposition(self, entity: Entity, placed: Placed, left: list[str]) -> tuple[Answer | None, list[str]]:
        """Words that describe the named employee just before its id ("engineering lead eid_…", "engineer
        eid_…"): placed when they are a role the employee holds or a plain word for an employee; a role the
        employee does not hold is uncertain, naming both (the question rests on something the graph denies)."""
        if not entity.classes & schema().below.get(PERSON, frozenset({PERSON})) or HOLE not in placed.text:
            return None, left
        raw = self.placed(self.found).text  # the words as typed, roles not yet placed
        before = raw[: raw.find(HOLE)].split()
        nouns = frozenset(reader_data()["person_nouns"])
        roles = {singular_text(normalise(r)): r for r in self.q.roles}
        run: list[str] = []
        said: list[str] = []
        while before:
            role = next((k for k in roles if before[-len(k.split()) :] == k.split()), None)
            if role is not None:
                said.append(roles[role])
                run += before[-len(role.split()) :]
                del before[-len(role.split()) :]
            elif before[-1] in nouns:
                run.append(before.pop())
            else:
                break
        after = raw[raw.find(HOLE) + len(HOLE) :].split()
        lead = 0
        while lead < len(after) and after[lead] in PREDICATE_LEAD:
            lead += 1
        role = next((k for k in roles if after[lead : lead + len(k.split())] == k.split()), None)
        if role is not None and after[:1] in (["is"], ["was"]):  # "eid_… is an engineering lead. Who …": said
            # of the employee, as before its id ("is eid_… a QA specialist?" asks it)
            said.append(roles[role])
            run += after[: lead + len(role.split())]
        inside = self.bracketed_after(entity)  # "eid_… (AnomalyForce engineering lead)": said of it, too, whether
        # the text still holds the brackets' words or set them aside
        bracketed = [k for k in roles if re.search(rf"(?<!\S){re.escape(k)}(?!\S)", singular_text(" ".join(inside)))]
        said += [roles[k] for k in bracketed]
        run += inside if bracketed and after[: len(inside)] == inside else []
        if not run and not said:
            return None, left
        self.apposed += said
        if said:
            rows = self.backend.select(named_query("onto_person_roles").text, {"person": NamedNode(entity.iri)})
            held = {term_text(r["role"]).casefold() for r in rows}
            wrong = [r for r in said if r.casefold() not in held]
            if wrong:
                shown = ", ".join(sorted(held)) or "no role"
                why = f"{entity.label} is {shown}, not {' or '.join(wrong)}: the question's premise does not hold"
                return self.uncertain(why), left
        rest = list(left)
        for w in run:
            if w in rest:
                rest.remove(w)
        return None, rest

    def of_named_kind(self, mention: Mention, placed: Placed, asked: str | None) -> Mention:
        """An ambiguous mention's candidates of the kind the question names it as ("the bug 'X'", where a PR
        has the same title): the class words besides the asked one, else all of them, when one fits."""
        if not mention.ambiguous:
            return mention
        s = schema()
        words = [(at, s.class_words[phrase]) for kind, phrase, at in placed.phrases if kind == "class"]
        named = [c for _, c in sorted(words)]
        said = tuple(e for e in mention.candidates if self.said_of(e, placed))  # "who resolved 'X'": a bug
        # the asked class names what is asked, not the entity ("which PR fixed 'X'", where a PR has X's title):
        # it picks the entity only when the property words do not
        for kinds in (named[1:] if asked else named, [] if asked and len(said) == 1 else named):
            below = frozenset().union(*(s.below.get(c, frozenset({c})) for c in kinds)) if kinds else frozenset()
            fits = tuple(e for e in mention.candidates if e.classes & below)
            if len(fits) == 1:
                return replace(mention, candidates=fits)
        return replace(mention, candidates=said) if len(said) == 1 else mention

    @staticmethod
    def said_of(entity: Entity, placed: Placed) -> bool:
        """Whether the question's property words or values can be said of the entity: a property of its class,
        or a value (a bug state) of such a property."""
        s = schema()
        props = [p for p in s.properties.values() if p.domain & entity.classes]
        for kind, phrase, _ in placed.phrases:
            if kind == "forward" and any(phrase in p.forward for p in props):
                return True
            if kind == "value" and any(
                p.range & s.kinds.get(i, frozenset()) for i in individuals(phrase) for p in props
            ):
                return True
        return False

    def unfit_classes(self, placed: Placed, entity: Entity, reading: Reading, asked: str | None) -> list[str]:
        """Class words the reading does not explain: each must name the entity's kind ("the X bug") or, the
        asked one, the kind of the answer ("which company …"); "what demo links do competitors of P share"
        is not P's demo links."""
        s = schema()
        out = []
        properties = {phrase for kind, phrase, _ in placed.phrases if kind != "class"}
        for kind, phrase, _ in placed.phrases:
            if kind != "class" or phrase in properties:
                continue
            named = s.below.get(s.class_words[phrase], frozenset({s.class_words[phrase]}))
            answers = s.class_words[phrase] == asked and (
                reading.prop.range & named
                or (reading.how in ("subject", "down") and reading.prop.domain & named)
                or self.answer_as(reading, asked) is not None
            )
            # "was <bug> fixed with a PR?": a yes or no names the kind of value it asks about
            valued = reading.how == "value" and opens_yes_no(self.q.text)
            if not (entity.classes & named or answers or (valued and reading.prop.range & named)):
                out.append(phrase)
        return out

    @staticmethod
    def who_also() -> frozenset[str]:
        """The kinds besides people "who" asks for (the data file's `who_also`), with every kind below them."""
        s = schema()
        kinds = (expand(c) for c in reader_data()["who_also"])
        return frozenset(k for c in kinds for k in s.below.get(c, frozenset({c})))

    def product_mention(self) -> list[Mention]:
        """The product itself as the entity, when it is the only thing the question names."""
        if self.q.product is None:
            return []
        rows = mentions("", normalise(self.q.product), self.backend, self.graphs)
        return [m for m in rows if m.words == normalise(self.q.product)]

    def place(self, named: list[Mention]) -> tuple[Placed, str | None, list[str]]:
        """The question's words placed around the named entities: the placement, the asked class, the words
        left unplaced."""
        placed = self.placed(named)
        asked = self.match(placed)
        return placed, asked, placed.left(placing_nothing(self.q.product))

    def placed(self, named: list[Mention]) -> Placed:
        text, same = f" {self.text} ", False
        for m in sorted(named, key=lambda m: len(m.words), reverse=True):
            for word in TITLE_WORDS:  # "the bug titled 'X'": the word that introduces a title names it too
                text = text.replace(f" {word} {m.words} ", f" {m.words} ")
            for word in class_nouns_of(m):  # "customer CUST-0026": its class's noun names it too
                text = text.replace(f" {word} {m.words} ", f" {m.words} ")
            text = self.meeting_restated(m, text)  # "the first X planning meeting (product_dev_X_1)"
            text = text.replace(f" {m.words} ", f" {HOLE} ")
            same = same or bool(SAME_AS.search(text)) or bool(SHARE_OWN.search(text)) or bool(BOTH_SAME.search(text))
            text = BOTH_SAME.sub(lambda m: f" of {HOLE} {m.group(1)} ", text)  # "do A and B have the same manager"
            text = SHARE_OWN.sub(lambda m: f" of {HOLE} {m.group(1) or reader_data()['peers_share']} ", text)
            text = self.possessed(m, text, len(named) == 1)  # "eid_…'s team": its direct reports
            text = self.possessed_role(m, text)  # "eid_…'s engineering lead": the lead up its reporting line
            text = SAME_AS.sub(lambda m: f" of {HOLE} {m.group(1) or m.group(2)} ", text)  # "the same manager as
            # eid_…", "share a manager with eid_…": eid_…'s manager's others
            for words in m.also:  # the entity said again: its words place nothing more
                text = text.replace(f" {words} ", " ")
        text = verb_forms(singular_text(text.strip()))
        text = PASSIVE_AGENT.sub(f"did {HOLE} \\1", text) if self.acts else text
        return Placed(DO_SUPPORT.sub(lambda m: participle(m, self.acts), text), same=same)

    @staticmethod
    def possessed(m: Mention, text: str, alone: bool) -> str:
        """The text with a noun said after an employee it names set to the property's words it stands for
        ("who is on eid_…'s team": its direct reports); beside another entity, only as the question's last words
        ("is eid_A on eid_B's team?")."""
        if len(m.candidates) != 1 or not m.candidates[0].classes & schema().below.get(PERSON, frozenset({PERSON})):
            return text
        end = "" if alone else r"\s*$"
        for noun, words in reader_data()["possessed"].items():  # the words said after it too: said once
            text = re.sub(rf" {HOLE} {noun}s?(?: {re.escape(words)}s?)? {end}", f" {HOLE} {words} ", text)
        return text

    def meeting_restated(self, m: Mention, text: str) -> str:
        """The text less the words before a meeting's id that describe it as the id names it ("the first X
        product planning meeting product_dev_X_1"): a description said beside the id restates it."""
        if len(m.candidates) != 1 or MEETING not in m.candidates[0].classes:
            return text
        anchors = "|".join(reader_data()["described"]["meeting_anchors"])  # "the <id> meeting": its kind again
        text = re.sub(rf" {re.escape(m.words)} (?:{anchors})s?(?= )", f" {m.words}", text)
        return re.sub(
            rf"(?: the)?(?: (?:{meeting_describing(self.q.product)}))+ {re.escape(m.words)} ", f" {m.words} ", text
        )

    def possessed_role(self, m: Mention, text: str) -> str:
        """The text with a role said just after an employee ("who is eid_…'s engineering lead") read as the manager
        with that role, at any distance up the reporting line (the data file's `possessed` lead)."""
        if len(m.candidates) != 1 or not m.candidates[0].classes & schema().below.get(PERSON, frozenset({PERSON})):
            return text
        for role in self.q.roles:
            said = re.compile(rf" {HOLE} ({re.escape(normalise(role))})s? ")
            if said.search(text):
                text = said.sub(lambda r: f" {HOLE} {reader_data()['possessed']['lead']} {r.group(1)} ", text)
                self.upward = True
        return text

    def role_joined(self) -> str | None:
        """The words joining a role the question names to another word for people ("engineers and QA folks"):
        both kinds asked, where a role filters the answer to one."""
        nouns = person_words()
        for role in self.q.roles:
            for phrase in filter(None, (singular_text(normalise(role)), initials(role))):
                said = re.escape(phrase)
                joined = re.search(
                    rf"(?<!\S)(?:(?:{nouns}) (?:and|or|plus|&) {said}|{said}(?: \w+)? (?:and|or|plus|&) (?:{nouns}))"
                    rf"(?!\S)",
                    singular_text(self.text),
                )
                if joined:
                    return joined.group(0)
        return None

    def match(self, placed: Placed) -> str | None:
        """Place chain words, property phrases and class words, longest first; the asked class (the first class
        word: "which company …", "who …"), if any."""
        for role in self.q.roles:  # a role the question names is a slot, not a property's words ("product manager")
            for phrase in (singular_text(normalise(role)), initials(role)):
                if phrase and placed.take(phrase, frozenset({"role"})):
                    break
        for place in self.q.locations:  # so is a place ("… based in Seattle"), a filter on the people answered
            placed.take(singular_text(normalise(place)), frozenset({"role"}))
        verbs = {m.start(2) for m in DO_SUPPORT.finditer(placed.text)}  # "what did PR #33 revert": a verb there
        kinds = dict(phrase_kinds())
        if self.q.product:  # the product named as the scope, unless a longer phrase holds it ("demo link")
            kinds[_phrase(self.q.product)] = kinds.get(_phrase(self.q.product), frozenset()) | {"scope"}
            for word in reader_data()["scope_nouns"]:  # "on the WorkFlowGenie team": the scope too
                kinds[f"{_phrase(self.q.product)} {word}"] = frozenset({"scope"})
            for noun, words in itertools.product(self.scope_nouns_before(), reader_data()["scope_verbs"]):
                kinds[f"{noun} {words} {_phrase(self.q.product)}"] = frozenset({"scope"})  # "the bug reported
                # against CollaborateForce": a bug of the product, as "the CollaborateForce bug" says
        for phrase in sorted(kinds, key=len, reverse=True):
            taken = placed.take(phrase, kinds[phrase])
            if "scope" in taken:
                placed.phrases = [p for p in placed.phrases if p[1] != phrase or p[0] == "scope"]
        function = frozenset(reader_data()["function_words"])
        for word in placed.left(function):  # "approve" as "approved", "reviewing" as "reviewed"
            if len(word) > MIN_LEMMA_WORD and (phrase := lemma_phrases().get(next(iter(sorted(lemmas(word))), ""))):
                placed.take(word, kinds[phrase], phrase)
        self.place_words(placed)
        verbal = {(p, at) for kind, p, at in placed.phrases if kind != "class" and at in verbs}
        placed.phrases = [p for p in placed.phrases if not (p[0] == "class" and (p[1], p[2]) in verbal)]
        classes = sorted((at, phrase) for kind, phrase, at in placed.phrases if kind == "class")
        agents = [c for c in classes[1:] if self.agent_restated(placed, c)]  # "PRs reverted by a revert PR"
        placed.phrases = [p for p in placed.phrases if (p[2], p[1]) not in agents]
        classes = [c for c in classes if c not in agents]
        if (
            classes
            and classes[0][1] in WH_WORDS
            and (self.wh_opens(placed, classes[0][0], classes[1:]) or self.named_as(placed, classes[1:]))
        ):
            placed.phrases = [p for p in placed.phrases if not (p[0] == "class" and p[1] in WH_WORDS)]
            classes = classes[1:]
        if len(classes) > 1 and self.restated(placed, classes[0], classes[1]):
            placed.phrases = [p for p in placed.phrases if p[:2] != ("class", classes[0][1])]
            classes = classes[1:]
        asked = [c for c in classes if placed.text[: c[0]].split()[-1:] in (["which"], ["what"])]
        if not classes:
            return self.named_by_property(placed)  # "which competing tools does X's report name"
        return self.qualified(placed, *(asked or classes)[0])  # "… - which company …"

    def place_words(self, placed: Placed) -> None:
        """A place the question names as a filter besides another property ("which engineers under eid_… are
        based in Seattle"): the location property's words go with the place, no reading of their own."""
        where = schema().properties.get(expand("ekg:location"))
        if not self.q.locations or where is None:
            return
        own = set(where.forward) | set(where.inverse)
        others = [p for p in placed.phrases if p[0] in ("forward", "inverse", *CHAIN_KINDS) and p[1] not in own]
        if others:
            placed.phrases = [("role", p[1], p[2]) if p[1] in own and p[0] == "forward" else p for p in placed.phrases]

    @staticmethod
    def named_by_property(placed: Placed) -> str | None:
        """The asked kind where the question names no class but asks "which <a property's noun>" ("which
        competing tools", "what rivals"): the property's one subject class (a competitor product)."""
        for kind, phrase, at in sorted(placed.phrases, key=lambda p: p[2]):
            if kind == "forward" and placed.text[:at].split()[-1:] in (["which"], ["what"]):
                domains = {d for p in schema().named_by(phrase) for d in p.domain}
                return next(iter(domains)) if len(domains) == 1 else None
        return None

    @staticmethod
    def qualified(placed: Placed, at: int, word: str) -> str:
        """The asked class, or the kin class a property word just before it says ("rival products": competitor
        products, the subjects of "rival")."""
        s = schema()
        cls = s.class_words[word]
        for kind, phrase, where in placed.phrases:
            if kind == "forward" and where + len(phrase) + 1 == at:
                subjects = {d for p in s.named_by(phrase) for d in p.domain}
                if len(subjects) == 1 and s.kin(cls, kin := next(iter(subjects))):
                    return kin
        return cls

    @staticmethod
    def restated(placed: Placed, first: tuple[int, str], second: tuple[int, str]) -> bool:
        """Whether "which <class> are <kin class>" only narrows the first class by the second ("which products
        are our key competitors"): the first follows "which" or "what", only a form of "be" and words that
        place nothing stand between, and the classes are kin."""
        s = schema()
        text = placed.without_scope()  # "which X pull requests are reverts"
        if text[: first[0]].split() and text[: first[0]].split()[-1:] not in (["which"], ["what"]):
            return False  # "which X PRs are reverts"; a count's core opens with the class ("X PRs are reverts")
        between = re.sub("\x00+", " placed ", placed.text[first[0] : second[0]]).split()[1:]
        if not between or between[0] not in BE:
            return False
        quiet = quiet_words()
        return all(w in quiet for w in between) and s.kin(s.class_words[first[1]], s.class_words[second[1]])

    @staticmethod
    def agent_restated(placed: Placed, cls: tuple[int, str]) -> bool:
        """Whether a class word is said as the agent of a property placed before it ("PRs reverted by a revert
        PR"): the kind of the property's values said again, which narrows nothing."""
        at, word = cls
        s = schema()
        for kind, phrase, where in placed.phrases:
            if kind != "forward" or where >= at:
                continue
            gap = [w for w in placed.text[where + len(phrase) : at].split() if w not in ("a", "an", "the", "some")]
            if gap == ["by"] or (not gap and phrase.endswith(" by")):
                ranges = (r for p in s.named_by(phrase) for r in p.range)
                if any(s.kin(s.class_words[word], r) for r in ranges):
                    return True
        return False

    def wh_opens(self, placed: Placed, wh: int, classes: list[tuple[int, str]]) -> bool:
        """Whether "who" only opens the question: "who are the <class>", or "who are <entity>'s <property>"
        whose values are of a kind "who" asks for besides people ("who are X's competitors")."""
        if classes:
            at, noun = classes[0]
            if placed.text[at + len(noun) :].split()[:1] == [HOLE]:
                return False  # "who was the bug <title> fixed by": the class names the entity, "who" asks
            return self.wh_names(placed, wh, at)
        after = [(at, phrase) for kind, phrase, at in placed.phrases if kind == "forward" and at > wh]
        if not after or not self.wh_names(placed, wh, min(after)[0]):
            return False
        said = schema().named_by(min(after)[1])
        kinds = self.who_also()  # of either end: "X's competitors" reads one way, "competitors of X" the other
        return any((bool(p.range) and p.range <= kinds) or (bool(p.domain) and p.domain <= kinds) for p in said)

    def named_as(self, placed: Placed, classes: list[tuple[int, str]]) -> bool:
        """Whether "who" asks for the class a source names things as ("who does the report list as X's key
        competitors"): "as" just before the class word, past what is placed and quiet words, and a kind "who"
        asks for besides people."""
        if not classes or schema().class_words[classes[0][1]] not in self.who_also():
            return False
        before = re.sub("\x00+", " placed ", placed.text[: classes[0][0]]).split()
        while before and before[-1] != "as" and (before[-1] in quiet_words() or before[-1] in ("placed", HOLE)):
            before.pop()
        return before[-1:] == ["as"]

    @staticmethod
    def wh_names(placed: Placed, wh: int, noun: int) -> bool:
        """Whether "who" only opens "who are the <class>" ("who are the competitors …"): the class word comes
        next, past a form of "be" and an article; "who fixed the bug …" asks for a person."""
        text = placed.without_scope()  # the product as the scope ("who are X's …") places nothing
        between = re.sub("\x00+", " placed ", text[wh:noun]).split()[1:]  # past "who" itself
        between = [w for w in between if w != "s"]  # the possessive's "s"
        quiet = quiet_words()
        return bool(between) and between[0] in BE and all(w in quiet for w in between)  # "who are our key …"

    def role_property(self, prop: Prop, placed: Placed) -> bool:
        """Whether the property holds the role a yes or no names with no property's words (the data file's
        `slot_properties`)."""
        roles = expand(reader_data()["slot_properties"].get("roles", ""))
        return prop.iri == roles and opens_yes_no(self.q.text) and all(k != "forward" for k, _, _ in placed.phrases)

    def role_asked(self, one: Entity | None, placed: Placed) -> bool:
        """ "Is eid_… a QA specialist?": a yes or no about one person naming a role and no property."""
        person = schema().below.get(PERSON, frozenset({PERSON}))
        return (
            one is not None
            and bool(one.classes & person)
            and len(self.q.roles) == 1
            and opens_yes_no(self.q.text)
            and {k for k, _, _ in placed.phrases} <= {"role", "class", "scope"}
        )

    @staticmethod
    def scope_nouns_before() -> list[str]:
        """The class words of the kinds a product's records are said "reported against" (a bug, an issue)."""
        s = schema()
        kinds = {expand(c) for c in reader_data()["scope_verb_kinds"]}
        return sorted(w for w, c in s.class_words.items() if c in kinds)

    @staticmethod
    def asked_subject(placed: Placed, at: int, hole: int) -> bool:
        """Whether an inverse phrase is a verb whose subject is what is asked and whose object is the entity:
        the asked kind just before it, the entity after it ("who manages eid_…", "which lead manages eid_…");
        never a noun ("the direct reports of eid_…") or a verb after the entity ("who does eid_… manage")."""
        said = re.sub("\x00+", " \x00 ", placed.text[:at]).split()  # each placed phrase one token
        said = said[1:] if said[:1] in (["which"], ["what"]) else said
        return 0 <= at < hole and bool(said) and set(said) == {"\x00"}

    def readings(self, entity: Entity, placed: Placed) -> list[Reading]:
        s = schema()
        hole = placed.text.find(HOLE)
        out: dict[tuple[str, str, str | None], Reading] = {}
        state_words: dict[str, str] = {}  # phrase -> the property whose state it names
        for kind, said, at in placed.phrases:
            phrase = self.as_noun(placed, said, at) if kind == "forward" else said
            if said in placed.repeated and kind in ("forward", "inverse"):
                continue  # "X's manager's manager" is two steps: no one-step reading reads it
            for prop in s.properties.values():
                if kind == "forward" and phrase in prop.forward:
                    # "reports directly to them": a pronoun object stands for the entity, after the phrase
                    alone = placed.text.count(HOLE) == 1  # with two named, it is the other one
                    after = at + 1 if alone and PRONOUN_OBJECT.match(placed.text[at:].lstrip("\x00")) else hole
                    for r in self.forward(prop, entity, phrase, at, after):
                        out[(r.how, r.prop.iri, r.link)] = r
                elif kind == "inverse" and phrase in prop.inverse and self.asked_subject(placed, at, hole):
                    if self.fits(entity, prop.domain):  # "who manages eid_…": the asked one manages it
                        out[("value", prop.iri, None)] = Reading("value", prop)
                elif kind == "inverse" and phrase in prop.inverse and self.fits(entity, prop.range):
                    out[("subject", prop.iri, None)] = Reading("subject", prop)
                elif kind == "value" and (prop.iri, phrase) in {
                    (i, _phrase(v)) for i, v in literal_values().get(phrase, ())
                }:
                    if self.fits(entity, prop.domain):  # "is <PR> still open": the PR's state
                        out[("value", prop.iri, None)] = Reading("value", prop)
                elif kind == "value" and self.states(entity, prop, phrase):  # "is <bug> resolved": its state
                    out[("value", prop.iri, None)] = Reading("value", prop)
                    state_words[phrase] = prop.iri
                elif kind == "role" and self.role_property(prop, placed) and self.fits(entity, prop.domain):
                    out[("value", prop.iri, None)] = Reading("value", prop)  # "is eid_… a QA specialist?"
                elif kind in CHAIN_KINDS and phrase in self.chain_words(prop, kind):
                    # "who is under eid_…" reads down; "which lead is eid_… under" reads up
                    how = "up" if kind == "down" and phrase in PREPOSITION_CHAIN and 0 <= hole < at else kind
                    fits = prop.domain if how in ("up", "top", "two") else prop.range
                    if self.fits(entity, fits):
                        out[(how, prop.iri, None)] = Reading(how, prop)
        # "is <bug> resolved": its state, not whether a PR resolved it; beside a person named, the act ("was it
        # eid_… who fixed <bug>")
        for phrase, iri in state_words.items() if placed.text.count(HOLE) == 1 else ():
            out = {k: r for k, r in out.items() if k[1] == iri or phrase not in r.prop.forward}
        for iri in self.read_twice(placed, hole):  # "who does eid_…'s manager report to": two steps, or none
            out = {k: r for k, r in out.items() if r.prop.iri != iri}
            before = [at for _, said, at in placed.phrases if at < hole and said in s.properties[iri].forward]
            if self.chain_words(s.properties[iri], "two"):  # "who reports to eid_…'s manager": the others a step
                how = "peers" if before else "two"  # down after one up, not two up
                out[(how, iri, None)] = Reading(how, s.properties[iri])
        for how, iri, link in list(out):  # "two levels above X in the reporting chain": the two steps said
            if how == "two":
                out.pop(("up", iri, link), None)
        if placed.same:  # "who has the same manager as eid_…": the others sharing its value, or no reading
            chains = {r.prop.iri: r.prop for r in out.values() if self.chain_words(r.prop, "two")}
            out = {("peers", iri, None): Reading("peers", prop) for iri, prop in chains.items()}
        found = list(out.values())
        # a chain's reading stands for the one-step reading of its property that points its way ("the reporting
        # chain above eid_…" over "eid_…'s manager"); one that points the other way ("eid_…'s reporting line
        # (direct reports)") is another reading, so the two stay and the question is uncertain
        ways = {"value": ("up", "top", "two"), "subject": ("down",)}
        chained = {(r.prop.iri, r.how) for r in found if r.how in CHAIN_KINDS}
        return [
            r
            for r in found
            if (r.how in CHAIN_KINDS or not any((r.prop.iri, how) in chained for how in ways.get(r.how, CHAIN_KINDS)))
            and not any(self.narrower_reading(o, r) for o in found)
        ]

    @staticmethod
    def narrower_reading(one: Reading, other: Reading) -> bool:
        """The same path through the records with a value, by a sub-property of the other's property
        (ekg:eventOf ⊑ ekg:stateEventOf, both stated on a bug's events): one reading, read by the narrower
        property, not two. Elsewhere a sub-property may read another kind (a channel's creator is its author,
        a PR's is not its creator), so both readings stay."""
        if one.how != "where" or (one.how, one.filter, one.value) != (other.how, other.filter, other.value):
            return False
        props = schema().properties
        link = props.get(one.link or "")
        if one.prop.iri == other.prop.iri and link is not None and one.link != other.link:
            return other.link in link.supers  # through records linked by ekg:eventOf, as by ekg:stateEventOf
        return one.link == other.link and other.prop.iri in one.prop.supers

    def offered(self, reading: Reading, placed: Placed) -> bool:
        """Whether the question offers several values of the property to choose from ("resolved, open, or
        reopened?"): it asks which, not whether one."""
        kinds = schema().kinds
        said = {
            i
            for kind, phrase, _ in placed.phrases
            if kind == "value"
            for i in individuals(phrase)
            if kinds.get(i, frozenset()) & reading.prop.range
        }
        return len(said) > 1 and "or" in self.text.split()

    def states(self, entity: Entity, prop: Prop, phrase: str) -> bool:
        """Whether a yes or no asks if the entity's property has the individual the phrase names ("is <bug>
        resolved": its bug state, Resolved); asked otherwise, the phrase is the question's, not a property's."""
        kinds = schema().kinds
        named = [i for i in individuals(phrase) if kinds.get(i, frozenset()) & prop.range]
        return opens_yes_no(self.q.text) and not prop.datatype and len(named) == 1 and self.fits(entity, prop.domain)

    def read_twice(self, placed: Placed, hole: int) -> set[str]:
        """The properties two phrases of the question read, one a noun right after the entity ("eid_…'s
        manager"): the other applies to the noun's value, so a one-step reading would answer half the question.
        A verb right after it ("the manager eid_… reports to") is the entity's own step: read once."""
        after = hole + len(HOLE) + 1
        seen: dict[str, list[tuple[int, str]]] = {}
        for kind, said, at in placed.phrases:
            if kind == "forward" and hole >= 0:
                phrase = self.as_noun(placed, said, at)
                for prop in schema().properties.values():
                    if phrase in prop.forward:
                        seen.setdefault(prop.iri, []).append((at, phrase))
        return {
            iri
            for iri, said in seen.items()
            if len(said) > 1 and any(at == after and phrase.split()[-1] not in PREPOSITIONS for at, phrase in said)
        }

    @staticmethod
    def as_noun(placed: Placed, phrase: str, at: int) -> str:
        """A verb's label after an article is its noun ("the link to X": X's link, not what X links to), when
        some property is labelled with the noun; else the phrase as it is."""
        words = phrase.split()
        before = placed.text[:at].split()
        if len(words) < 2 or words[-1] not in PREPOSITIONS or not before or before[-1] not in ("the", "a", "an"):
            return phrase
        noun = " ".join(words[:-1])
        if noun.endswith("ed"):  # a participle ("the reported by"): still the verb's
            return phrase
        return noun if noun in phrase_kinds() and "forward" in phrase_kinds()[noun] else phrase

    def where_readings(self, entity: Entity, placed: Placed, asked: str | None) -> list[Reading]:
        """Readings through the records that link to the entity and hold a value the question names ("who
        approved <PR>": the PR's reviews whose review state is approved, read for the asked kind, a person)."""
        s = schema()
        if asked is None:
            return []
        kinds = s.below.get(asked, frozenset({asked}))
        own = {p for kind, phrase, _ in placed.phrases if kind == "value" for p, _ in literal_values().get(phrase, ())}
        if any(s.properties[p].domain & kinds for p in own):
            return []  # "open" PRs: a value of the asked kind's own property, not of records linked to it
        values = [i for kind, phrase, _ in placed.phrases if kind == "value" for i in individuals(phrase)]
        own_kind = [  # "who closed <bug> as not needing a fix": a bug's state, not a PR's "closed"
            v
            for v in values
            if any(
                not p.datatype and p.range & s.kinds.get(v, frozenset()) and self.fits(entity, p.domain)
                for p in s.properties.values()
            )
        ]
        values = own_kind or values
        # "which bugs did eid_… close out as not needing a fix": a bug's state, not a PR's "closed"
        values = [v for v in values if self.state_of(v, asked)] or values
        values = [v for v in values if not set(narrower(v)) & set(values)]  # "closed as not a bug": the narrower
        wanted = s.below.get(asked, frozenset({asked}))
        out: list[Reading] = []
        for value in values:
            for f, link in self.value_links(entity, value):
                held = [
                    p
                    for p in s.properties.values()
                    if not p.datatype
                    and p.iri not in (f.iri, link)
                    and not self.same_link(p, link)  # back to the entity itself (eventOf ⊑ stateEventOf)
                    and p.domain
                    and p.domain <= f.domain
                ]
                # of the asked kind, else, for a state a lifecycle event left the entity in, one step from it
                # ("which company reopened <bug>": the customer who did, then the company they work for)
                answers = [p for p in held if p.range & wanted]
                if (
                    not answers
                    and expand("ekg:StateEvent") in f.domain
                    and any(self.state_of(value, c) for c in entity.classes)
                ):
                    answers = [p for p in held if self.leads(p, asked)]
                out += [Reading("where", p, link, f.iri, value) for p in answers]
        # where two kinds of record hold the value (a review's state "approved", a PR lifecycle event's), the
        # answer follows the record made for it: the property whose range is narrowest
        narrowest = min((len(s.properties[r.filter or ""].range) for r in out), default=0)
        kept = [r for r in out if len(s.properties[r.filter or ""].range) == narrowest]
        return [r for r in kept if not any(self.narrower_reading(o, r) for o in kept)]

    @staticmethod
    def state_of(value: str, asked: str) -> bool:
        """Whether the individual is a value the asked kind itself can hold (a bug's state for bugs)."""
        s = schema()
        kinds = s.kinds.get(value, frozenset())
        own = s.below.get(asked, frozenset({asked})) | {asked}
        return any(not p.datatype and p.range & kinds and p.domain & own for p in s.properties.values())

    def leads(self, prop: Prop, asked: str) -> bool:
        """Whether one property leads from every value of this one to the asked kind (a customer's company)."""
        wanted = schema().below.get(asked, frozenset({asked}))
        led = self.answer_as(Reading("where", prop), asked) is not None
        return bool(prop.range) and led and not prop.range & wanted

    def when_where(self, entity: Entity, placed: Placed) -> list[Reading]:
        """ "When was <bug> reopened", "on what date was it resolved": the time (dct:created) of the records that
        link to the entity and hold the state the question names (its lifecycle event's)."""
        s = schema()
        created = s.properties.get(DCT + "created")
        values = [i for kind, phrase, _ in placed.phrases if kind == "value" for i in individuals(phrase)]
        if created is None or len(values) != 1:
            return []
        out = [Reading("where", created, link, f.iri, values[0]) for f, link in self.value_links(entity, values[0])]
        return [r for r in out if not any(self.narrower_reading(o, r) for o in out)]

    def value_links(self, entity: Entity, value: str) -> list[tuple[Prop, str]]:
        """The object properties that can hold the individual (a review's state, an event's state after), each
        with every property from their records to the entity."""
        kinds = schema().kinds.get(value, frozenset())
        return [
            (f, link)
            for f in schema().properties.values()
            if not f.datatype and f.range & kinds
            for link in self.links(f, entity)
        ]

    @staticmethod
    def same_link(prop: Prop, link: str) -> bool:
        """The property is the link read the other way up its hierarchy: one is declared a sub-property of the
        other, so its value is the entity the question names, not an answer about it."""
        other = schema().properties.get(link)
        return link in prop.supers or (other is not None and prop.iri in other.supers)

    def links(self, prop: Prop, entity: Entity) -> list[str]:
        """The properties from the records a property is read on (its domain) to the entity."""
        return [
            link.iri
            for link in schema().properties.values()
            if not link.datatype
            and link.iri != prop.iri
            and link.domain
            and link.domain <= prop.domain  # a link of the record kind itself, not of every entity
            and self.fits(entity, link.range)
        ]

    @staticmethod
    def chain_words(prop: Prop, how: str) -> list[str]:
        chains = reader_data()["chains"]
        for curie, table in chains.items():
            if expand(curie) == prop.iri:
                return [plain_words(_phrase(w)) for w in table.get(how, [])]
        return []

    def fits(self, entity: Entity, classes: frozenset[str]) -> bool:
        """Whether the entity is of one of the classes; a property with no domain (range) fits everything."""
        return not classes or bool(entity.classes & classes)

    def forward(self, prop: Prop, entity: Entity, phrase: str, at: int, hole: int) -> list[Reading]:
        in_domain, in_range = self.fits(entity, prop.domain), self.fits(entity, prop.range) and not prop.datatype
        verb = phrase.split()[-1] in PREPOSITIONS
        if in_domain and in_range and verb:
            return [Reading("value" if hole < at else "subject", prop)]
        if in_domain:
            return [Reading("value", prop)]
        if in_range:
            return [Reading("subject", prop)]
        links = [schema().properties[iri] for iri in self.links(prop, entity)]
        if not links:
            return []
        best = min(links, key=lambda link: len(link.range))  # eventOf over stateEventOf: the same records
        return [Reading("via", prop, best.iri)]

    def bindings(self, entity: Entity, reading: Reading) -> dict[str, NamedNode]:
        out = {"entity": NamedNode(entity.iri), "property": NamedNode(reading.prop.iri)}
        if reading.link:
            out["link"] = NamedNode(reading.link)
        if reading.filter and reading.value:
            out["filter"], out["object"] = NamedNode(reading.filter), NamedNode(reading.value)
        return out

    def run(self, entity: Entity, reading: Reading, asked: str | None) -> Answer:
        slots = {**self.q.slots(), "entity": local(entity.iri), "named": entity.label, "reading": reading.shown(entity)}
        intent = f"ontology:{local(reading.prop.iri)}:{reading.how}"
        absent = f"the graph holds no {reading.prop.label} for {entity.label} ({reading.shown(entity)})"
        bindings: dict[str, Any] = self.bindings(entity, reading)
        s = schema()
        below = s.below.get(asked or "", frozenset())
        follow = self.answer_as(reading, asked)
        unkin = asked is not None and not any(s.kin(d, asked) for d in reading.prop.domain)
        if reading.how == "subject" and asked is not None and unkin and follow is None:
            return self.uncertain(f"no {s_label(asked)} can have {reading.prop.label}: it is said of another kind")
        overlaps = any(asked in s.below.get(d, ()) or d in below for d in reading.prop.domain)
        typed = asked is not None and reading.how in ("subject", "value") and self.typed_as(asked)
        listed: str | None = None  # the class a subject listing is kept to
        if reading.how == "subject" and typed and overlaps and not reading.prop.domain <= below:
            listed = str(asked)
            bindings["class"] = NamedNode(listed)  # "which pull requests has eid_… authored": those only
            absent = f"no {s_label(str(asked))} has {reading.prop.label} {entity.label}"
        query = reading.query()
        if reading.how == "value" and typed and not reading.prop.datatype and reading.prop.range > below:
            bindings["class"] = NamedNode(str(asked))  # "which PRs does ENG-… link": its links that are PRs
            query = "onto_value_of"
            absent = f"{entity.label} has no {reading.prop.label} that is a {s_label(str(asked))}"
        done = self.execute(query, bindings, intent, slots, absent)
        if isinstance(done, Answer) and listed is not None and not self.said_of_class(listed, reading.prop.iri):
            # "which competitor product did eid_… write about": none is attributed to anyone, so the proof that
            # none is attributed to eid_… says nothing of the question (checked only when a proof holds)
            label = reading.prop.label
            return self.uncertain(f"no {s_label(listed)} in the graph has '{label}' at all: it is not recorded")
        if isinstance(done, Answer) and reading.how == "where" and not self.said_where(entity, reading):
            # "how many PRs has eid_… merged": no merge event names who merged, so none naming eid_… proves nothing
            shown = schema().labels.get(str(reading.value), local(reading.value))
            kind = " or ".join(class_label(c) for c in sorted(entity.classes))
            return self.uncertain(
                f"no record with {local(reading.filter)} {shown} names any {kind} as its '{local(reading.link)}': "
                "it is not recorded"
            )
        if isinstance(done, Answer):
            return done
        rows, queries = done
        values, cites = rows_values(rows), row_cites(rows)
        if follow is not None:
            values, more = self.follow(rows, follow)
            cites = sorted({*cites, *more})
            queries.append(named_query("onto_value").text)
            slots["reading"] = f"{slots['reading']}, then {follow.label}"
        return self.answered(values, cites, intent, slots, queries)

    def execute(
        self, name: str, bindings: dict[str, Any], intent: str, slots: dict[str, Any], absent: str
    ) -> Answer | tuple[list[Row], list[str]]:
        """The query's proof of absence first (an absent Answer when it holds), then its rows and the queries run."""
        proof_q, select_q = named_query(f"{name}.ask"), named_query(name)
        proof_bindings = {k: v for k, v in bindings.items() if k in proof_q.params}
        shown = {k: term_text(v) for k, v in proof_bindings.items()}
        if self.backend.ask(proof_q.text, proof_bindings, self.graphs):
            return self.abstention(
                absent,
                "absent",
                slots={**slots, **shown},
                intent=intent,
                proof={
                    "query": proof_q.name,
                    "text": proof_q.text,
                    "bindings": shown,
                    "graphs": [g.value for g in self.graphs or []],
                    "result": True,
                },
            )
        return self.backend.select(select_q.text, bindings, self.graphs), [proof_q.text, select_q.text]

    def answered(
        self, values: list[str], cites: list[str], intent: str, slots: dict[str, Any], queries: list[str]
    ) -> Answer:
        if not values:  # a step after the proof found nothing ("who is customer X": its bugs' authors): no answer
            return self.uncertain(
                f"the reading ({slots.get('reading', intent)}) reaches no value, and no proof says none"
            )
        kind = "person" if all(EID.fullmatch(v) for v in values) else "name"
        return Answer(
            question=self.q.text,
            type=kind,
            abstain=False,
            answer=sorted(values),
            citations=cites,
            intent=intent,
            slots=slots,
            queries=queries,
        )

    def listing(
        self,
        placed: Placed,
        asked: str | None,
        left: list[str],
        owner: Condition | None = None,
        source: Condition | None = None,
    ) -> Answer | None:
        """A class listing with a filter, in the question's product: the team members with a role ("the
        Engineering Leads on X's team"), or the instances of the asked class that have a property ("which PRs
        in X were reverted"; a yes/no property, true: "which PRs were merged")."""
        one_source = source is not None and isinstance(source.value, Literal)  # one document, by its id
        if self.q.product is None and not one_source:
            return None
        slots = self.q.slots()
        if owner is None and self.q.product and (members := self.team_members(placed, left, slots, asked)):
            return members
        if asked is None:
            return None
        if source is not None:  # "discussed on Slack", "the competitors its report names": the verb says the source
            verbs = set(reader_data()["source_verbs"])  # with its preposition: "discussed in"
            kept = [p for p in placed.phrases if not set(p[1].split()) <= verbs | PREPOSITIONS or p[1] in PREPOSITIONS]
            placed = replace(placed, phrases=kept)
        conditions = self.conditions(placed, asked)
        if conditions is not None and source is not None:  # "the competitors its latest report names"
            conditions = [c for c in conditions if not c.source] + [source]
        every = not conditions and asked in schema().below.get(ARTIFACT, frozenset())  # "the meeting chats of X"
        if conditions is None or self.unlisted(placed, asked) or (owner is None and not conditions and not every):
            return None
        if owner is not None:  # "PRs authored by eid_…": the owner's property said is the owner condition
            conditions = [owner, *(c for c in conditions if c.prop.iri != owner.prop.iri or c.value is not None)]
        if any(c.source for c in conditions):  # "competitors named in X's report": the verb says the source
            left = [w for w in left if w not in reader_data()["source_verbs"]]
        if any(c.prop.iri == expand("ekg:inRepository") for c in conditions):  # the repository's words say it
            left = [w for w in left if w not in {t for said in self.q.repo_words for t in said.split()}]
        unsaid = self.un_words(left, asked, {c.prop.iri for c in conditions})  # "unmerged": merged, false
        conditions += unsaid.values()
        left = [w for w in left if w not in unsaid]
        if any(w not in negation_words() for w in left) or bool(left) != any(
            c.negated for c in conditions if c not in unsaid.values()
        ):
            return None  # every word left is a negation, and one is left only when a condition reads it
        if not (every or 1 <= len(conditions) <= MAX_CONDITIONS):
            return None
        if len(conditions) > 1 and "or" in self.text.split():
            return None  # the conditions are read together: "merged or reverted" asks for either
        sources = [c for c in conditions if c.source]
        plain = [c for c in conditions if not c.source]
        if not plain and any(c.prop.iri == RDF_TYPE for c in sources):  # "the competitors discussed on Slack"
            plain = [self.of_class(asked)]
        if len(sources) > 1 or not (plain or every) or (sources and len(plain) > 1):
            return None
        bindings: dict[str, Any] = {"class": NamedNode(asked)}
        # the second and third conditions repeat the last one where fewer are said, and with none, every
        # condition is the class itself: a pattern left unbound would join every triple of each item with itself
        bound = plain or [self.of_class(asked)]
        second = bound[min(1, len(bound) - 1)]
        bindings.update({**bound[0].bindings(""), **second.bindings("2"), **bound[-1].bindings("3")})
        query = "onto_list"
        if sources:
            query = "onto_list_from"
            bindings = {"class": NamedNode(asked), **plain[0].bindings("")}
            bindings.update({"sourceProperty": NamedNode(sources[0].prop.iri), "sourceObject": sources[0].value})
        noun = s_label(asked)
        said = " and ".join(c.shown() for c in conditions)
        of = f" of {self.q.product}" if self.q.product else ""
        slots["reading"] = f"every {noun}{of}" + (f" with {said}" if said else "")
        if owner is not None and isinstance(owner.value, NamedNode):  # "did eid_… author any reverted PR": the
            slots["named"] = local(owner.value.value)  # owner is bound, so a yes or no asks whether any is listed
        intent = "ontology:" + ("+".join(local(c.prop.iri) for c in conditions) or local(asked)) + ":list"
        missing = f"no {noun}{of}" + (f" has {said}" if said else " is in the graph")
        done = self.execute(query, bindings, intent, slots, missing)
        if isinstance(done, Answer) and done.outcome == "absent" and (kinds := self.typed_below(query, bindings)):
            return self.uncertain(f"no item is typed {noun} itself, though some are typed {' or '.join(kinds)}")
        if isinstance(done, Answer):
            return self.source_checked(done, sources[0], asked) if sources else done
        rows, queries = done
        return self.answered(rows_values(rows), row_cites(rows), intent, slots, queries)

    def most(self, placed: Placed, asked: str | None, left: list[str]) -> Answer | None:
        """The value of a property that the most instances of a class in the product have ("who authored the
        most PRs in X": the PRs' authors, counted), with at most one more condition ("the most merged PRs");
        every value tied at the top. None unless "most" is the only word left and one property word links the
        counted class to the asked kind."""
        if (
            self.q.product is None
            or asked is None
            or not set(left) & TOP_WORDS
            or not set(left) <= TOP_WORDS | {"prolific"}
        ):
            return None  # "who authored the most PRs", "the most prolific PR author"
        s = schema()
        classes = {s.class_words.get(p) for k, p, _ in placed.phrases if k == "class"} - {asked, None}
        forward = [p for k, p, _ in placed.phrases if k == "forward"]
        if (
            len(classes) != 1
            or len(forward) != 1
            or any(k not in ("class", "forward", "scope", "value") for k, _, _ in placed.phrases)
        ):
            return None
        counted = str(next(iter(classes)))
        kinds, wanted = s.below.get(counted, frozenset({counted})), s.below.get(asked, frozenset({asked}))
        props = [p for p in s.named_by(forward[0]) if p.domain & kinds and p.range & wanted]
        if len(props) != 1:
            return None
        prop = props[0]
        rest = replace(placed, phrases=[p for p in placed.phrases if p[0] != "forward"])
        conditions = self.conditions(rest, counted)
        if conditions is None or len(conditions) > 1:
            return None  # a word of no property of the counted class, or more conditions than one
        condition = conditions[0] if conditions else Condition(TYPE_PROP, NamedNode(counted), False)
        bindings = {"class": NamedNode(counted), "property": NamedNode(prop.iri), **condition.bindings("2")}
        noun = s_label(counted)
        said = f" with {conditions[0].shown()}" if conditions else ""
        slots = {**self.q.slots(), "reading": f"every {noun} of {self.q.product}{said}, by its {prop.label} → the most"}
        intent = f"ontology:{local(prop.iri)}:most"
        done = self.execute(
            "onto_top", bindings, intent, slots, f"no {noun} of {self.q.product}{said} has a {prop.label}"
        )
        if isinstance(done, Answer):
            return done
        rows, queries = done
        counts: dict[str, set[str]] = {}
        for r in rows:
            top = r["top"]
            shown = local(top.value) if isinstance(top, NamedNode) else term_text(top)
            counts.setdefault(shown, set()).add(term_text(r["id"]) if "id" in r else local(r["value"].value))
        best = max(len(items) for items in counts.values())
        winners = sorted(v for v, items in counts.items() if len(items) == best)
        cites = sorted({c for v in winners for c in counts[v]})
        slots["operator"] = f"{best} {noun}s each" if len(winners) > 1 else f"{best} {noun}s"
        return self.answered(winners, cites, intent, slots, queries)

    def doers(self, placed: Placed, asked: str | None, left: list[str]) -> Answer | None:
        """The people who acted on the product's items of a class ("who approved PRs in X": the reviewers of the
        reviews whose state is approved; "which engineers authored PRs": the PRs' authors), of the role said;
        with a negation ("which software engineers have never approved a PR"), the product's team members of
        that role who are not among them, the team being the universe the graph defines. None unless one class
        of items and one property word (or one value its records hold) are all the question says."""
        s = schema()
        person = s.below.get(PERSON, frozenset({PERSON}))
        roles = [at for k, _, at in placed.phrases if k == "role"]
        nouns = [at for k, _, at in placed.phrases if k == "class"]
        # "which software engineers … approved a PR": the role asks, before the items it acted on
        wanted = PERSON if roles and (asked is None or (nouns and min(roles) < min(nouns))) else asked
        negations = [w for w in left if w in negation_words()]
        if self.q.product is None or wanted not in person or len(negations) > 1 or len(negations) != len(left):
            return None
        classes = {s.class_words.get(p) for k, p, _ in placed.phrases if k == "class"} - {None, *person}
        said = [(k, p) for k, p, _ in placed.phrases if k not in ("class", "scope", "role")]
        if len(classes) != 1 or not said or any(k not in ("forward", "value") for k, _ in said):
            return None
        counted = str(next(iter(classes)))
        kinds = s.below.get(counted, frozenset({counted}))
        acts = {
            phrase: props
            for k, phrase in said
            if k == "forward" and (props := [p for p in s.named_by(phrase) if p.domain & kinds and p.range & person])
        }
        if len(acts) == 1 and len(props := next(iter(acts.values()))) == 1:
            # "who authored the reverted PRs": the act, and at most one condition on the items
            rest = replace(placed, phrases=[p for p in placed.phrases if p[1] not in acts])
            conditions = self.conditions(rest, counted)
            if conditions is None or len(conditions) > 1 or any(c.source for c in conditions):
                return None  # "who wrote the tech specs for X's current release": a document, no item's state
            condition = conditions[0] if conditions else Condition(TYPE_PROP, NamedNode(counted), False)
            query, bindings = "onto_top", {"class": NamedNode(counted), "property": NamedNode(props[0].iri)}
            bindings.update(condition.bindings("2"))
            act = props[0].label + (f" of those with {conditions[0].shown()}" if conditions else "")
        elif not acts and len(said) == 1 and said[0][0] == "forward" and (via := self.doers_via(said[0][1], counted)):
            # "which QA specialists reviewed a PR": the reviewer of the reviews that review PRs, a record apart
            prop, link, record = via
            query = "onto_top_where"
            bindings = {"class": NamedNode(counted), "property": NamedNode(prop.iri), "link": NamedNode(link)}
            bindings.update({"filter": NamedNode(RDF_TYPE), "object": NamedNode(record)})
            act = f"{prop.label} of its {class_label(record)}s"
        elif acts or len(said) != 1 or said[0][0] != "value":
            return None
        else:
            items = Entity(counted, kinds, s_label(counted))  # the class's items stand where one entity would
            readings = self.where_readings(items, placed, PERSON)
            if len(readings) != 1 or not readings[0].link or not readings[0].filter:
                return None
            r = readings[0]
            assert r.link is not None and r.filter is not None  # checked above; for the type checker
            query = "onto_top_where"
            bindings = {"class": NamedNode(counted), "property": NamedNode(r.prop.iri), "link": NamedNode(r.link)}
            bindings.update({"filter": NamedNode(r.filter), "object": NamedNode(str(r.value))})
            act = f"{r.prop.label} of the records with {local(r.filter)} {s.labels.get(str(r.value), local(r.value))}"
        noun = s_label(counted)
        slots = {**self.q.slots(), "reading": f"every {noun} of {self.q.product} → {act}"}
        intent = f"ontology:{local(bindings['property'].value)}:doers"
        done = self.execute(query, bindings, intent, slots, f"no {noun} of {self.q.product} has a {act}")
        if isinstance(done, Answer):
            return done if not negations else self.uncertain(f"no {noun} of {self.q.product} has a {act} at all")
        rows, queries = done
        people = {v for r in rows if EID.fullmatch(v := local(r["top"].value))}  # employees, not outside accounts
        cites = sorted({term_text(r["id"]) for r in rows if "id" in r and local(r["top"].value) in people})
        if not negations:
            return self.by_role(self.answered(sorted(people), cites, intent, slots, queries))
        return self.complement(people, cites, intent, slots, queries)

    def doers_via(self, phrase: str, counted: str) -> tuple[Prop, str, str] | None:
        """The one property the phrase names whose records (of one class) link to the counted class's items and
        give a person: a PR review's reviewer, through its ekg:reviewOf."""
        s = schema()
        person = s.below.get(PERSON, frozenset({PERSON}))
        items = Entity(counted, s.below.get(counted, frozenset({counted})), s_label(counted))
        found = [
            (p, link, next(iter(p.domain)))
            for p in s.named_by(phrase)
            if p.range & person and len(p.domain) == 1
            for link in self.links(p, items)
        ]
        return found[0] if len(found) == 1 else None

    def complement(
        self, did: set[str], cites: list[str], intent: str, slots: dict[str, Any], queries: list[str]
    ) -> Answer:
        """The product's team members of the role said (every member, none said) who are not among those who
        did: "which QA specialists never approved a PR"."""
        role = self.q.roles[0] if len(self.q.roles) == 1 else None
        if len(self.q.roles) > 1:
            return self.uncertain(f"'{', '.join(self.q.roles)}': the team the complement is read in is one role")
        team = self.backend.select(
            named_query("onto_role_members").text, {"role": Literal(role)} if role else {}, self.graphs
        )
        members = {v for v in rows_values(team) if EID.fullmatch(v)}
        if not members:
            return self.uncertain(f"{self.q.product}'s team has no member{f' with role {role}' if role else ''}")
        rest = sorted(members - did)
        of = f"{self.q.product}'s team members" + (f" with role {role}" if role else "")
        slots = {**slots, "reading": f"{of}, less those of {slots['reading']}"}
        slots["operator"] = f"{len(members)} members, {len(members & did)} of them did"
        if not rest:
            reason = f"every one of the {len(members)} {of} is among them"
            proof = {
                "query": "onto_role_members",
                "text": named_query("onto_role_members").text,
                "bindings": {"role": role} if role else {},
                "graphs": [g.value for g in self.graphs or []],
                "result": reason,
            }
            return self.abstention(reason, "absent", slots=slots, intent=f"{intent}:complement", proof=proof)
        return self.answered(
            rest, cites, f"{intent}:complement", slots, [*queries, named_query("onto_role_members").text]
        )

    def said_of_class(self, asked: str, prop: str) -> bool:
        """Some instance of the class has the property at all (`sparql/onto_class_said.rq`)."""
        check = named_query("onto_class_said").text
        return self.backend.ask(check, {"class": NamedNode(asked), "property": NamedNode(prop)}, self.graphs)

    def said_where(self, entity: Entity, reading: Reading) -> bool:
        """Some record with the reading's filter value links to something of the entity's kind at all
        (`sparql/onto_where_said.rq`): a reopen names the employee who posted it, never the customer."""
        check = named_query("onto_where_said").text
        said = {"link": reading.link, "filter": reading.filter, "object": reading.value}
        bindings = {k: NamedNode(str(v)) for k, v in said.items()}
        return any(
            self.backend.ask(check, {**bindings, "kind": NamedNode(kind)}, self.graphs)
            for kind in sorted(entity.classes)
        )

    def typed_as(self, asked: str) -> bool:
        """Every instance of a class below the asked one is typed the asked class too (a revert PR is a PR), so
        the asked class's rdf:type keeps a listing to it (`sparql/onto_typed_as.ask.rq`)."""
        check = named_query("onto_typed_as.ask").text
        return all(
            self.backend.ask(check, {"narrow": NamedNode(narrow), "class": NamedNode(asked)}, self.graphs)
            for narrow in sorted(schema().below.get(asked, frozenset()) - {asked})
        )

    def typed_below(self, query: str, bindings: dict[str, Any]) -> list[str]:
        """The narrower classes whose instances would fit a listing that found none of the class itself (the
        graph types a meeting as a transcript or a chat, never as a meeting artifact): then nothing is proved."""
        asked = bindings["class"].value
        proof = named_query(f"{query}.ask")
        found = []
        for narrower in sorted(schema().below.get(asked, frozenset()) - {asked}):
            said = {  # the class, and a condition that is the class itself, read as the narrower one
                k: NamedNode(narrower) if v == NamedNode(asked) else v for k, v in bindings.items() if k in proof.params
            }
            if not self.backend.ask(proof.text, said, self.graphs):
                found.append(class_label(narrower))
        return found

    def source_checked(self, absent: Answer, source: Condition, asked: str) -> Answer:
        """A listing by source found nothing: a proof only when the product has no such artifact at all (or, for
        one artifact named by its id, when its text never speaks of the asked kind); where it has some, the rules
        that read them may have missed their wording, so the outcome is uncertain."""
        check = named_query("onto_sources.ask")
        if absent.outcome != "absent":
            return absent
        if isinstance(source.value, Literal) and (said := self.spoken_of(source.value, asked)):
            doubt = self.uncertain(
                f"the graph holds no {s_label(asked)} read from {source.value.value}, but its text speaks of "
                f"'{said}': the rules that read it may have missed its wording"
            )
            doubt.citations = [source.value.value]
            return doubt
        if not isinstance(source.value, NamedNode):
            return absent
        bindings = {"sourceProperty": NamedNode(source.prop.iri), "sourceObject": source.value}
        if self.backend.ask(check.text, bindings, self.graphs):
            return absent
        kind = schema().labels.get(source.value.value) or class_label(source.value.value)
        return self.uncertain(
            f"the graph holds no such item read from a {kind} of {self.q.product}, though it has some: the rules "
            "that read them may have missed their wording"
        )

    def spoken_of(self, artifact: Literal, asked: str) -> str | None:
        """The first word of a sentence of the artifact's text that shares its root with a noun of the asked
        class ("competition" for a competitor) and lists names ("… like Microsoft Teams, Slack"), or None: the
        text check of a proof that nothing of the class was read from that artifact
        (`sparql/onto_source_text.rq`). A sentence that speaks of the kind and names no one ("competition from
        established providers") leaves the proof standing."""
        heads = (noun.split()[-1] for noun in class_nouns(asked))  # "customer issue": an issue, no customer
        roots = {w[:ROOT_LETTERS] for w in heads if len(w) > ROOT_LETTERS}
        rows = self.backend.select(named_query("onto_source_text").text, {"id": artifact}, self.graphs)
        sentences = (s for r in rows for s in re.split(r"(?<=[.!?])\s+|\n+", term_text(r["text"])))
        for sentence in sentences:
            if NAMES_LISTED.search(sentence):
                said = (w for w in re.findall(r"[a-z]+", sentence.casefold()) if w[:ROOT_LETTERS] in roots)
                if (word := next(said, None)) is not None:
                    return word
        return None

    def conditions(self, placed: Placed, asked: str) -> list[Condition] | None:
        """What a listed instance must have, one condition per property phrase of the asked class's properties
        (a yes/no property true, or false when a negation stands just before it: "closed without being
        merged") and per value phrase of a property with listed values ("still open"); None when a property
        phrase is of no property of that class."""
        s = schema()
        kinds = s.below.get(asked, frozenset({asked}))
        out: dict[str, Condition] = {}
        words = placed.text.split(" ")
        sources = {w: c for k, w, _ in placed.phrases if k == "value" and (c := self.source_condition(w))}
        for kind, phrase, at in placed.phrases:
            if kind == "forward" and sources and phrase in reader_data()["source_verbs"]:
                continue  # "which competitors does X's report name": the verb says the source
            if kind == "forward":
                props = [p for p in s.named_by(phrase) if p.domain & kinds]
                if len(props) != 1:
                    return None
                prop = props[0]
                negated = XSD_BOOLEAN in prop.range and negated_before(words, placed.text[:at].count(" "))
                truth = Literal("false" if negated else "true", datatype=NamedNode(XSD_BOOLEAN))
                out[prop.iri] = Condition(prop, truth if XSD_BOOLEAN in prop.range else None, negated)
            elif kind == "value" and phrase not in {w for k, w, _ in placed.phrases if k != "value"}:
                if not literal_values().get(phrase) and (source := sources.get(phrase)) is not None:
                    out[f"source:{source.prop.iri}"] = source
                    continue
                if not literal_values().get(phrase):
                    return None  # an individual ("market research report") no listed value of the class is
                for iri, listed in literal_values().get(phrase, ()):
                    prop = s.properties[iri]
                    if prop.domain & kinds and iri in out:
                        return None  # "open or closed": two values of one property, which no listing here reads
                    if prop.domain & kinds:
                        out[iri] = Condition(prop, Literal(listed), False)
        in_repo = s.properties.get(expand("ekg:inRepository"))
        if self.q.repos and in_repo is not None and in_repo.domain & kinds:  # "PRs in the X repo"
            if len(self.q.repos) > 1:
                return None  # "in the X or Y repo": either, which a listing here does not read
            out[in_repo.iri] = Condition(in_repo, NamedNode(f"{ID}repo/{self.q.repos[0]}"), False)
        return list(out.values())

    def read_from(self, desc: Described, placed: Placed, asked: str | None, left: list[str]) -> Answer | None:
        """Items of another kind than the one document described, read from it ("the competitors the latest
        market research report names", "X's competitors according to its final report"): the listing of the
        asked class whose items were derived from that document."""
        s = schema()
        if asked is None or len(desc.entities) != 1 or desc.entities[0].classes & s.below.get(asked, frozenset()):
            return None
        document = desc.entities[0]
        if not document.classes & s.below.get(ARTIFACT, frozenset({ARTIFACT})):
            return None
        identifier = s.properties.get(DCT + "identifier")
        if identifier is None:
            return None
        source = Condition(identifier, Literal(document.label), False, source=True)
        verbs = set(reader_data()["source_verbs"])  # "names", "according to": the source said, no property
        unsaid = replace(placed, phrases=[p for p in placed.phrases if not (p[0] == "forward" and p[1] in verbs)])
        return self.listing(unsaid, asked, left, source=source)

    @staticmethod
    def of_class(asked: str) -> Condition:
        """The condition every instance of the asked class meets (its type): a listing by source alone."""
        return Condition(TYPE_PROP, NamedNode(asked), False)

    @staticmethod
    def without_speakers(placed: Placed, asked: str | None) -> Placed:
        """The placement less the people or team said as the subject of the source's verb ("which competitors
        did people bring up in Slack", "that the team talked about"): who spoke, which lists nothing."""
        s = schema()
        speakers = s.below.get(PERSON, frozenset({PERSON})) | {expand("ekg:Team")}
        verbs = set(reader_data()["source_verbs"])

        text = list(placed.text)  # the placed words written back, so a verb placed as a property is seen
        for _, phrase, at in placed.phrases:
            text[at : at + len(phrase)] = phrase
        said_text = "".join(text)

        def speaks(kind: str, phrase: str, at: int) -> bool:
            after = said_text[at + len(phrase) :].split()[:5]  # "people on the X team posted"
            said = s.class_words.get(phrase) in speakers - {asked} if kind == "class" else phrase in SPEAKER_WORDS
            return said and bool(verbs & set(after))

        return replace(placed, phrases=[p for p in placed.phrases if not speaks(*p)])

    @staticmethod
    def source_class(placed: Placed, asked: str | None) -> tuple[Placed, Condition | None]:
        """A kind of artifact said beside the asked kind, which is no artifact ("competitors discussed on
        Slack": read from Slack messages): a condition on what the items are read from, its phrase taken out."""
        s = schema()
        artifacts = s.below.get(ARTIFACT, frozenset({ARTIFACT}))
        held = {expand(k): expand(v) for k, v in reader_data()["source_of"].items()}  # a channel: its messages
        said = [
            (phrase, held.get(cls, cls))
            for kind, phrase, _ in placed.phrases
            if kind == "class"
            and (cls := s.class_words.get(phrase))
            and held.get(cls, cls) in artifacts
            and cls != asked
        ]
        if asked is None or asked in artifacts or len({cls for _, cls in said}) != 1:
            return placed, None
        kept = [p for p in placed.phrases if not (p[0] == "class" and p[1] in {w for w, _ in said})]
        return replace(placed, phrases=kept), Condition(TYPE_PROP, NamedNode(said[0][1]), False, source=True)

    @staticmethod
    def source_condition(phrase: str) -> Condition | None:
        """A kind of artifact the listed items are read from ("competitors listed in the market research
        report": derived from an artifact whose document kind is that): the one property whose range holds
        the individual the phrase names."""
        s = schema()
        named = individuals(phrase)
        if len(named) != 1:
            return None
        artifacts = s.below.get(ARTIFACT, frozenset({ARTIFACT}))
        kinds = s.kinds.get(named[0], frozenset())
        props = [p for p in s.properties.values() if not p.datatype and p.range & kinds and p.domain <= artifacts]
        if len(props) != 1:
            return None
        return Condition(props[0], NamedNode(named[0]), False, source=True)

    def whole_team(self, placed: Placed, asked: str | None) -> bool:
        """Whether the question asks for people and names the product's team ("who is on the X team")."""
        person = schema().below.get(PERSON, frozenset({PERSON}))
        nouns = [f"{_phrase(str(self.q.product))} {n}" for n in reader_data()["scope_nouns"]]
        return asked in person and any(k == "scope" and w in nouns for k, w, _ in placed.phrases)

    def team_members(
        self, placed: Placed, left: list[str], slots: dict[str, Any], asked: str | None = None
    ) -> Answer | None:
        """The members of the product's team with a role, based somewhere, both, or all of them ("the
        Engineering Leads on X's team", "which X team members are based in Berlin", "who is on the X team");
        None when the question says more than that."""
        roles, places = self.q.roles, self.q.locations
        if len(roles) > 1 or len(places) > 1 or not (roles or places or self.whole_team(placed, asked)):
            return None
        said = {w for name in [*roles, *places] for w in singular_text(normalise(name)).split()}
        if [w for w in left if w not in said and w not in reader_data()["team_words"]]:
            return None
        team = schema().properties[expand("ekg:memberOf")]
        where = schema().properties[expand("ekg:location")] if places else None
        allowed = (*team.forward, *team.inverse, *(where.forward if where else ()), *reader_data()["team_words"])
        if any(w not in allowed for k, w, _ in placed.phrases if k not in ("class", "scope", "role")):
            return None  # "the PMs who reviewed the X document" is not the team's PMs; "team members" is
        filters = " and ".join([*(f"role {r}" for r in roles), *(f"based in {p}" for p in places)]) or "any role"
        slots["reading"] = f"members of {self.q.product}'s team with {filters}"
        bindings = {
            **({"role": Literal(roles[0])} if roles else {}),
            **({"location": Literal(places[0])} if places else {}),
        }
        absent = f"no member of {self.q.product}'s team has {filters}"
        done = self.execute("onto_role_members", bindings, "ontology:hasRole:team", slots, absent)
        if isinstance(done, Answer):
            return done
        return self.answered(rows_values(done[0]), [], "ontology:hasRole:team", slots, done[1])

    @staticmethod
    def un_words(left: list[str], asked: str, taken: set[str]) -> dict[str, Condition]:
        """Words left that negate a yes/no property of the asked class by the prefix "un" ("unmerged")."""
        s = schema()
        kinds = s.below.get(asked, frozenset({asked}))
        out: dict[str, Condition] = {}
        for word in left:
            props = [
                p
                for p in s.properties.values()
                if word.startswith("un") and word[2:] in p.forward and XSD_BOOLEAN in p.range and p.domain & kinds
            ]
            if len(props) == 1 and props[0].iri not in taken:
                out[word] = Condition(props[0], Literal("false", datatype=NamedNode(XSD_BOOLEAN)), True)
        return out

    def unlisted(self, placed: Placed, asked: str | None = None) -> bool:
        """Whether the question places a class word besides the listed one (a repository named as one is a
        filter: "PRs in the X repository"; a class above the listed one only says where: "the revert PRs in the
        X PR history"), or a chain or inverse word."""
        repo = expand("ekg:Repository") if self.q.repos else None
        # "did the team chat about …": the product's team, the subject, is no second kind listed
        said = {repo, expand("ekg:Team")}
        s = schema()
        above = {c for c, below in s.below.items() if asked and asked in below and c != asked}
        classes = {s.class_words.get(p) for kind, p, _ in placed.phrases if kind == "class"} - said - above
        allowed = ("class", "forward", "scope", "value")
        # a word that names the listed class is no other word ("which PRs are reverts": the class, not "revert")
        # "reverts of reverts": a word said again is more than the listed class
        listed = {
            (p, at)
            for kind, p, at in placed.phrases
            if kind == "class" and s.class_words.get(p) == asked and len(placed.spots.get(p, [])) == 1
        }
        return len(classes) > 1 or any(k not in allowed and (p, at) not in listed for k, p, at in placed.phrases)

    def reaches(self, reading: Reading, asked: str, strictly: bool = False) -> bool:
        """Whether the reading's values are of the asked kind (or, unless `strictly`, a kin of it), or lead to it
        (`answer_as`)."""
        s = schema()
        ends = reading.prop.domain if reading.how in ("subject", "down") else reading.prop.range
        wanted = s.below.get(asked, frozenset({asked}))
        same = bool(ends & wanted) if strictly else any(s.kin(e, asked) for e in ends)
        return same or self.answer_as(reading, asked) is not None

    def answer_as(self, reading: Reading, asked: str | None) -> Prop | None:
        """The property that leads from this reading's values to the asked kind, when they are not of it."""
        if asked is None or reading.how == "down":
            return None
        s = schema()
        wanted = s.below.get(asked, frozenset({asked}))
        # read backwards, the values are the property's subjects: "which PRs did eid_… review" (its reviews, then
        # the PR each review is of)
        values = reading.prop.domain if reading.how == "subject" else reading.prop.range
        if values & wanted or (reading.prop.datatype and reading.how != "subject"):
            return None
        if reading.how == "subject" and (not values or any(s.kin(v, asked) for v in values)):
            return None  # the subjects are of the asked kind's kin ("which products compete with X"): themselves
        leads = [p for p in s.properties.values() if p.domain & values and p.range & wanted and not p.datatype]
        if reading.how == "subject":  # from a record, the property said of that record alone (a review's PR)
            leads = [p for p in leads if p.domain <= values and p.iri != reading.prop.iri]
        if len(leads) == 1:
            return leads[0]
        default = reader_data()["answer_as"].get(local(asked).casefold())
        return s.properties.get(expand(default)) if default else None

    def follow(self, rows: list[Row], prop: Prop) -> tuple[list[str], list[str]]:
        query = named_query("onto_value").text
        values: set[str] = set()
        cites: set[str] = set()
        for iri in {r["value"].value for r in rows if isinstance(r["value"], NamedNode)}:
            more = self.backend.select(query, {"entity": NamedNode(iri), "property": NamedNode(prop.iri)}, self.graphs)
            values |= set(rows_values(more))
            cites |= set(row_cites(more))
        return sorted(values), sorted(cites)

    def untitled(self, placed: Placed, left: list[str]) -> Answer | None:
        """A question about a titled kind (a bug) naming no title the graph holds: unsupported, with the closest
        titles, when a property of that kind was named and words are left to be the title."""
        s = schema()
        kinds = [c for kind, phrase, _ in placed.phrases if kind == "class" and (c := s.class_words.get(phrase))]
        titled = [c for c in kinds if c in (expand("ekg:Bug"), expand("ekg:PullRequest"), expand("ekg:Feature"))]
        if not titled or not left or self.q.product is None:
            return None  # no product read: the title may be another product's, which no graph read here holds
        title = self.title_beside(placed, left, s_label(titled[0]))
        if title is None:
            return None
        rows = self.backend.select(named_query("onto_titles").text, {"class": NamedNode(titled[0])}, self.graphs)
        if (near := self.near_title(title, rows, titled[0])) is not None:
            return self.of_entity(near.candidates[0], near, *self.place([near]))
        if not any(k in ("forward", "inverse") for k, _, _ in placed.phrases):
            return None
        titles = {term_text(r["label"]).casefold(): term_text(r["label"]) for r in rows}
        close = [titles[t] for t in difflib.get_close_matches(title, list(titles), n=3, cutoff=0.4)]
        noun = s_label(titled[0])
        hint = f"; closest: {'; '.join(close)}" if close else ""
        where = f" in {self.q.product}" if self.q.product else ""
        readings = [{"question": f"What is the state of the {c} bug?", "intent": "ontology"} for c in close]
        return self.abstention(
            f"unsupported question: no {noun} titled '{title}'{where}{hint}",
            "unsupported",
            readings=readings if noun == "bug" else [],
        )

    def near_title(self, said: str, rows: list[Row], cls: str) -> Mention | None:
        """The one entity whose title holds every content word of the run said for it ("the scan cancellation
        button bug": "non-functional scan cancellation button in the user interface"), two words at least; the
        run as the question writes it is the mention. None when no title or several hold them."""
        tokens = self.text.split()
        raw = next(
            (
                " ".join(tokens[i:j])
                for i in range(len(tokens))
                for j in range(i + 1, len(tokens) + 1)
                if singular_text(" ".join(tokens[i:j])) == said
            ),
            None,
        )
        words = content_words(raw or "")  # as written: "CORS", not its singular "cor"
        if raw is None or len(words) < MIN_NEAR_WORDS:
            return None
        held = {
            term_text(r["entity"]): term_text(r["label"]) for r in rows if words <= content_words(term_text(r["label"]))
        }
        if len(held) != 1:
            return None
        iri, label = next(iter(held.items()))
        return Mention(raw, (Entity(iri, frozenset({cls}), label),))

    def title_beside(self, placed: Placed, left: list[str], noun: str) -> str | None:
        """The words left, when they are one run of the question in the singular "the <words> bug" or "the bug
        titled <words>": then they are what the question takes for one item's title. Anything else ("bugs that
        were later …", "engineers most bug fix PRs") is not a title at all."""
        if f" {noun} " not in f" {self.q.norm} ":
            return None
        words = placed.text.split(" ")
        function = frozenset(reader_data()["function_words"])
        spots = [i for i, w in enumerate(words) if w in left]
        first, last = spots[0], spots[-1]
        if any(w not in left and w not in function for w in words[first:last]):
            return None
        nouns = {i for i, w in enumerate(words) if w == "\x00" * len(noun)}
        # "the bug titled <words>", the title right after ("the bug named in this question" names none)
        named = words[first] in TITLE_WORDS and first - 1 in nouns and words[first + 1 : first + 2] != []
        named = named and words[first + 1] in left
        before = words[max(0, first - 2) : first]  # "the <words> bug", "the SecurityForce <words> bug"
        opened = bool(before) and (
            before[-1] in ("the", "a")
            or (len(before) == 2 and before[0] in ("the", "a") and not before[1].strip("\x00"))
        )
        if not (named or (last + 1 in nouns and opened)):
            return None  # "the <words> bug" or "the bug titled <words>", nothing looser
        return " ".join(words[first + 1 if named else first : last + 1])

    def agreed(self, entity: Entity, readings: list[Reading], asked: str | None) -> Answer | None:
        """The answer of several readings when they all answer alike (two paths through the records to the
        same resolver), citing what each rests on; None when they differ or one finds nothing (paths that all
        prove nothing are still no agreed reading: "which bugs has CUST-… reopened" proves nothing of the
        customer's contact who reopened it)."""
        answers = [self.run(entity, r, asked) for r in readings[:MAX_AGREEING]]
        if len(readings) > MAX_AGREEING or any(a.outcome != "answer" for a in answers):
            return None
        if any(a.answer != answers[0].answer for a in answers[1:]):
            return None
        first = answers[0]
        first.citations = list(dict.fromkeys(c for a in answers for c in a.citations))
        return first

    def uncertain(self, why: str, candidates: list[str] | None = None) -> Answer:
        slots = self.q.slots()
        if candidates:
            slots["candidates"] = [local(c) for c in candidates]
        return self.abstention(f"uncertain reading: {why}", "uncertain", slots=slots)

    def abstention(
        self,
        reason: str,
        outcome: str,
        slots: dict[str, Any] | None = None,
        intent: str | None = None,
        proof: dict[str, Any] | None = None,
        readings: list[dict[str, str]] | None = None,
    ) -> Answer:
        """An answer that gives no values: absent (with its proof), uncertain or unsupported."""
        return Answer(
            question=self.q.text,
            type="name",
            abstain=True,
            answer=None,
            citations=[],
            intent=intent,
            slots=slots if slots is not None else self.q.slots(),
            reason=reason,
            proof=proof,
            outcome=outcome,
            readings=readings or [],
            queries=[proof["text"]] if proof else [],
        )


def phrase_kinds() -> dict[str, frozenset[str]]:
    """Every phrase the reader places in the question's scope, with what it names: forward / inverse (a
    property's labels), up / down / two (a chain's words), class (a kind of entity)."""
    return scoped_phrase_kinds(RECORDS.get())


@cache
def scoped_phrase_kinds(records: bool) -> dict[str, frozenset[str]]:
    s = scoped_schema(records)
    kinds: dict[str, set[str]] = {}
    for prop in s.properties.values():
        for w in prop.forward:
            kinds.setdefault(w, set()).add("forward")
        for w in prop.inverse:
            kinds.setdefault(w, set()).add("inverse")
    for chains in reader_data()["chains"].values():
        for how, words in chains.items():
            for w in words:
                kinds.setdefault(plain_words(_phrase(w)), set()).add(how)
    for w in s.class_words:
        kinds.setdefault(w, set()).add("class")
    for phrase in [*value_words(), *scoped_literal_values(records)]:
        kinds.setdefault(phrase, set()).add("value")
    return {w: frozenset(k) for w, k in kinds.items() if w}


def literal_values() -> dict[str, tuple[tuple[str, str], ...]]:
    """The phrases naming a datatype property's listed values (an rdfs:range of owl:oneOf literals, as
    ekg:prState's "open" and "closed"), each with the properties and values it names, in the question's scope."""
    return scoped_literal_values(RECORDS.get())


@cache
def scoped_literal_values(records: bool) -> dict[str, tuple[tuple[str, str], ...]]:
    store = ontology_store()
    found: dict[str, set[tuple[str, str]]] = {}
    for iri in scoped_schema(records).properties:
        for rng in store.quads_for_pattern(NamedNode(iri), NamedNode(RDFS + "range"), None):
            if not isinstance(rng.object, BlankNode):
                continue
            for one_of in store.quads_for_pattern(rng.object, NamedNode(OWL + "oneOf"), None):
                item: Any = one_of.object
                while isinstance(item, BlankNode):
                    for first in store.quads_for_pattern(item, NamedNode(RDF_FIRST), None):
                        found.setdefault(_phrase(term_text(first.object)), set()).add((iri, term_text(first.object)))
                    item = next((q.object for q in store.quads_for_pattern(item, NamedNode(RDF_REST), None)), None)
    return {w: tuple(sorted(v)) for w, v in found.items()}


@cache
def whole_words(phrase: str) -> re.Pattern[str]:
    """The phrase as whole words of a placement's text, compiled once (re's own cache holds fewer than the
    reader's phrases, so each question compiled them anew)."""
    return re.compile(rf"(?<!\S){re.escape(phrase)}(?!\S)")


def class_nouns_of(mention: Mention) -> list[str]:
    """The nouns of the one class an entity named by its id has ("customer" for CUST-0026), as a word just before
    the id says it; none for an employee (its apposition is read with its roles) or several candidates."""
    if not mention.by_id or len(mention.candidates) != 1:
        return []
    classes = mention.candidates[0].classes
    s = schema()
    if EMPLOYEE in classes:
        return []
    return sorted((w for w, c in s.class_words.items() if c in classes), key=len, reverse=True)


def participle(said: re.Match[str], acts: bool) -> str:
    """The verb of a "did <entity> <verb>" as the one participle the reader places for its lemma, if any: always
    for a verb the reader would place as a value ("did eid_… open": "opened", never the state "open"); for any
    other verb only when `acts` (the question read as it stands placed nothing: "did CUST-… report": "reported").
    A verb that begins a phrase with the next word ("report to") stays."""
    verb, after = said.group(2), said.group(3)
    if verb in reader_data()["listing_verbs"]:  # "which competitors does <document> name": what it lists
        return f"{said.group(1)} {HOLE}"
    phrase = lemma_phrases().get(next(iter(sorted(lemmas(verb))), ""))
    # "did eid_… fix": the state "fixed", unless the verb itself reads a relation backwards ("what did PR #33 revert")
    valued = phrase is not None and "value" in phrase_kinds().get(phrase, frozenset())
    valued = valued and not phrase_kinds().get(verb, frozenset()) & {"inverse", "class"}
    if not acts and not valued and phrase_kinds().get(verb) != frozenset({"value"}):
        return said.group(0)
    if after and f"{verb} {after}" in phrase_kinds():
        return said.group(0)
    return f"{said.group(1)} {HOLE} {phrase}" if phrase else said.group(0)


def verb_forms(text: str) -> str:
    """The text with a verb's -ing or -ed form set to its base where the words after it complete a phrase the
    reader places from that base ("is eid_… reporting to": "report to"; "answered to"), never elsewhere: the
    lone participle may name something else ("reported": the bug's reporter)."""
    words = text.split()
    for i, word in enumerate(words[:-1]):
        if not word.endswith(("ing", "ed")):
            continue
        for base in sorted(lemmas(word) - {word}):
            if any(words[i + 1 : i + 1 + len(rest)] == list(rest) for rest in phrase_rests().get(base, ())):
                words[i] = base
                break
    return " ".join(words)


def phrase_rests() -> dict[str, tuple[tuple[str, ...], ...]]:
    """The words after the first of each multiword property or chain phrase the reader places, by that first
    word."""
    return scoped_phrase_rests(RECORDS.get())


@cache
def scoped_phrase_rests(records: bool) -> dict[str, tuple[tuple[str, ...], ...]]:
    found: dict[str, set[tuple[str, ...]]] = {}
    for phrase, kinds in scoped_phrase_kinds(records).items():
        first, *rest = phrase.split()
        if rest and not kinds & {"class", "value"}:  # a verb's phrase, not a kind ("reverted PRs")
            found.setdefault(first, set()).add(tuple(rest))
    return {first: tuple(sorted(rests)) for first, rests in found.items()}


@cache
def placed_words() -> frozenset[str]:
    """The words of every phrase the reader places (the ontology's labels, chain and class words), as a typed
    slip may be respelled to them ("attendess": "attendees")."""
    return frozenset(
        w for r in (False, True) for phrase in scoped_phrase_kinds(r) for w in phrase.split() if w.isalpha()
    )


def lemma_phrases() -> dict[str, str]:
    """One-word participles the reader places ("approved", "merged"), by their lemma, where one phrase has that
    lemma: a word left unplaced is placed by its lemma ("approve" as the review state "approved"); other words'
    lemmas may mean something else ("later" is not "latest"). In the question's scope."""
    return scoped_lemma_phrases(RECORDS.get())


@cache
def scoped_lemma_phrases(records: bool) -> dict[str, str]:
    found: dict[str, set[str]] = {}
    for phrase in scoped_phrase_kinds(records):
        if " " not in phrase and len(phrase) > MIN_LEMMA_WORD and phrase.endswith(PARTICIPLE_ENDINGS):
            for lemma in lemmas(phrase) - {phrase}:  # "open" is its own lemma, no participle of it
                found.setdefault(lemma, set()).add(phrase)
    return {lemma: next(iter(ps)) for lemma, ps in found.items() if len(ps) == 1}


@cache
def person_words() -> str:
    """The one-word class words for people ("engineer", "folk"), as a pattern's alternatives, longest first."""
    s = schema()
    person = s.below.get(PERSON, frozenset({PERSON}))
    people = sorted((w for w, c in s.class_words.items() if c in person and " " not in w), key=len, reverse=True)
    return "|".join(re.escape(w) for w in people)


@cache
def meeting_describing(product: str | None) -> str:
    """The words that may describe a meeting of the product ("the first X product planning"), as a pattern's
    alternatives, longest first."""
    table = reader_data()["described"]
    words = {*table["meeting_words"], *table["first"], *table["latest"], *normalise(str(product)).split()}
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@cache
def placing_nothing(product: str | None) -> frozenset[str]:
    """The words that place nothing in a question about the product: function and frame words, the product's own
    words and the collective words said of it, each as said and singularised ("analysis": "analysi")."""
    scope = [*normalise(product).split(), *reader_data()["collective"]] if product else []
    quiet = [*reader_data()["function_words"], *scope, *frame_words()]
    return frozenset([*quiet, *map(singular_text, quiet)])


@cache
def frame_words() -> frozenset[str]:
    """The words of a request's frame the whole reader knows carry no meaning (the lexicon's [function] words,
    never one of [meaning]): "status check", "the full list", "I need …"."""
    data = lexicon_data()
    meaning = {singular_text(w) for w in data["meaning"]["words"]}
    # verbs and particles that make a phrasal verb the reader may not know ("going over", "set up"): never frame
    phrasal = {
        "go",
        "going",
        "come",
        "take",
        "make",
        "put",
        "keep",
        "run",
        "set",
        "end",
        "ended",
        "turned",
        "over",
        "out",
        "off",
        "back",
        "up",
        "pushed",
        "passed",
        "hook",
        "deal",
        "rack",
        "racked",
        "stand",
        "stood",
    }
    return frozenset(singular_text(w) for w in data["function"]["words"]) - meaning - phrasal


def negation_words() -> frozenset[str]:
    return frozenset(reader_data()["negations"])


def negated_before(words: list[str], at: int) -> bool:
    """Whether a negation stands within reach before the word at this position, past filler ("being")."""
    filler = frozenset(reader_data()["negation_filler"])
    for word in reversed(words[max(0, at - NEGATION_REACH) : at]):
        if word in negation_words():
            return True
        if word not in filler:
            return False
    return False


@cache
def value_words() -> dict[str, tuple[str, ...]]:
    """The phrases naming the ontology's individuals (rdfs:label, skos:altLabel), each with the individuals it
    names ("approved": the review state and the PR state)."""
    store = ontology_store()
    found: dict[str, set[str]] = {}
    for iri, label in schema().labels.items():
        found.setdefault(_phrase(label), set()).add(iri)
        for q in store.quads_for_pattern(NamedNode(iri), NamedNode(ALT), None):
            found.setdefault(_phrase(term_text(q.object)), set()).add(iri)
    for kind, names in DOC_KINDS.items():  # a document kind as questions say it ("market research", "PRD")
        if (iri := expand(f"ekg:{kind}")) in schema().labels:
            for name in names:
                found.setdefault(_phrase(name), set()).add(iri)
    return {w: tuple(sorted(iris)) for w, iris in found.items()}


@cache
def class_nouns(iri: str) -> frozenset[str]:
    """The words that name a class in a question (its label and the data file's class words), normalised: what
    an artifact says when it speaks of an item of that kind."""
    return frozenset(normalise(phrase) for phrase, cls in schema().class_words.items() if cls == iri)


def quiet_words() -> frozenset[str]:
    """Words that place nothing between an asking word and its class ("who are our key …"): the function
    words and the asker's team."""
    return frozenset(reader_data()["function_words"]) | frozenset(reader_data()["collective"])


@cache
def narrower(iri: str) -> tuple[str, ...]:
    """The individuals the ontology places under one (skos:broader): a reopened bug is an open one."""
    quads = ontology_store().quads_for_pattern(None, NamedNode(SKOS_BROADER), NamedNode(iri))
    return tuple(sorted(term_text(q.subject) for q in quads))


def individuals(phrase: str) -> list[str]:
    """The ontology's individuals a phrase names."""
    return list(value_words().get(phrase, ()))


def s_label(iri: str) -> str:
    return next((w for w, c in schema().class_words.items() if c == iri), local(iri))


#: The columns of an ontology reading's rows that hold artifact ids: the value's own, the derived records'
#: sources, the entity's own.
CITE_COLUMNS = ("id", "derived", "source")


def row_cites(rows: list[Row]) -> list[str]:
    return sorted({term_text(r[c]) for r in rows for c in CITE_COLUMNS if c in r})


def yes_or_no(read: Answer, holds: bool, operator: dict[str, Any]) -> Answer:
    """The reading's answer as the yes or no its operator checks, shown after the reading; its values (or its
    proof) stay the evidence."""
    read.operator = operator  # shown after the reading, as every operator is (kg/qa/plain.py)
    read.answer, read.type, read.abstain, read.outcome, read.reason = (
        "yes" if holds else "no",
        "yes_no",
        False,
        "answer",
        None,
    )
    return read


def people_property(entity: Entity) -> Prop | None:
    """The property the data file's `[people_of]` names for the entity's class (a meeting's participants)."""
    s = schema()
    for cls, prop in reader_data()["people_of"].items():
        if entity.classes & s.below.get(expand(cls), frozenset({expand(cls)})):
            return s.properties[expand(prop)]
    return None


def shown_values(answer: list[str] | str | None) -> str:
    return ", ".join(answer) if isinstance(answer, list) else str(answer)


def rows_values(rows: list[Row]) -> list[str]:
    """Each value as a reader knows it: an employee's eid, a link, a title, a label, an artifact id, a literal."""
    out: dict[str, None] = {}
    for r in rows:
        value = r["value"]
        if isinstance(value, Literal):
            out[value.value] = None
        elif "/person/" in value.value:
            out[local(value.value)] = None
        else:
            shown = next(
                (term_text(r[k]) for k in ("url", "title", "label", "id") if k in r),
                schema().labels.get(value.value, local(value.value)),
            )
            out[shown] = None
    return list(out)


def askable() -> list[dict[str, str]]:
    """What the ontology lets people ask, one row per labelled property: its words read forwards and backwards,
    and a question of each kind in canonical wording (`kg intents`, "unsupported" answers)."""
    rows = []
    for prop in sorted(schema().properties.values(), key=lambda p: p.label.casefold()):
        chains: dict[str, list[str]] = next(
            (t for c, t in reader_data()["chains"].items() if expand(c) == prop.iri), {}
        )
        asks = [f"What is the {noun(prop)} of <{prop.subject_kind}>?"]
        if not prop.datatype:
            back = prop.inverse_names[0] if prop.inverse_names else prop.label
            asks.append(f"Which <{prop.subject_kind}> has {back} <{prop.object_kind}>?")
        asks += [f"{how}: {words[0]} <{prop.subject_kind}>" for how, words in chains.items() if words]
        rows.append(
            {
                "property": prop.iri,
                "label": prop.label,
                "words": ", ".join(dict.fromkeys(prop.names)),
                "backwards": ", ".join(prop.inverse_names) or "-",
                "asks": " | ".join(asks),
            }
        )
    return rows


def noun(prop: Prop) -> str:
    """The property's shortest label that reads as a noun ("boss" for ekg:reportsTo), else its label."""
    nouns = [w for w in prop.names if w.split()[-1] not in PREPOSITIONS and not w.endswith("ed") and " " not in w]
    return min(nouns, key=lambda w: (len(w), w)) if nouns else prop.label  # the same on every load


def nearest(q: Question, n: int = 3) -> list[dict[str, str]]:
    """The askable questions nearest an unsupported one: those of the properties whose words it uses."""
    sing = f" {q.sing} "
    rows = {row["property"]: row for row in askable()}
    props = schema().properties.values()
    used = sorted(p.iri for p in props if any(f" {w} " in sing for w in (*p.forward, *p.inverse)))
    return [{"question": rows[iri]["asks"].split(" | ")[0], "intent": "ontology"} for iri in used[:n]]
