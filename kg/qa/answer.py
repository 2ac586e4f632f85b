"""Answer one question: parse, pick the intent, prove the evidence exists, run the query, cite.

Every answer has one of four outcomes (`Answer.outcome`), kept apart everywhere they are shown:

- `answer`: the rows of the intent's SELECT, with their citations;
- `absent`: a proof of absence: the intent's ASK found no typed evidence for the bound slots. Run only for a
  complete reading (kg/qa/reading.py);
- `uncertain`: the reading is incomplete or contested (a cue no part of it explains, an answer type it does not
  give, two rows tied, a free phrase that names no label or only part of one): no proof runs, and the best
  readings are offered as canonical questions (`readings`; `kg ask --pick N` asks one);
- `unsupported`: no intent covers the wording, or it names no product.

There is no score threshold anywhere on this path. Everything else -- an invalid question, an unreachable or refusing
endpoint, a result that is not SPARQL results -- raises KGError, so an abstention always means what it says.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from functools import cache, cached_property
from typing import Any

from pyoxigraph import Literal, NamedNode

from kg.errors import KGError, ShardDown
from kg.namespaces import GRAPH, ORG_GRAPH, product_graph
from kg.qa import across as spans
from kg.qa import operators
from kg.qa.across import Across
from kg.qa.cues import Tagged
from kg.qa.entities import PR_NUMBER, record_scope, said_bug_scope, title_scope, titled_in
from kg.qa.intents import Choice, Intent, choose
from kg.qa.intents.asof import Refusal
from kg.qa.intents.asof import route as route_as_of
from kg.qa.intents.chooser import runs_of, slots_read
from kg.qa.nested import nested
from kg.qa.operators import Operator, detect
from kg.qa.question import (
    Question,
    Vocabulary,
    follow_up_core,
    lexicon_data,
    normalise,
    parse,
    quoted_titles,
    two_asks,
)
from kg.qa.reading import Account
from kg.qa.residue import Labels
from kg.qa.spelling import name_slips, names_words, respelled, respellings
from kg.qa.textcheck import UNCERTAIN, TextChecker
from kg.query.people import EID, People
from kg.query.sparql import (
    Backend,
    Row,
    known_products,
    library,
    named_query,
    product_dataset,
    record_graphs,
    term_text,
)
from kg.text import closest, feature_tokens, singular_text

#: Product graphs per vocabulary request: 30 HERB products take one; x10 HERB's 300, six.
VOCABULARY_CHUNK = 50

#: Answer fields kept out of its JSON object: what ran and how the question was read (`kg ask --explain`).
INTERNAL = ("queries", "choice")
#: Why an answer is absent when the proof finds nothing and the intent has no wording of its own for it.
NO_EVIDENCE = "the graph holds nothing that fits this reading of the question"
#: Words that ask whether there is any ("were any PRs reverted", "is anyone based in …").
ANY = frozenset({"any", "anyone", "anybody", "anything"})
#: "Does X have a <role>?", "is there an open PR …": whether there is one, as "any" asks.
EXISTS_A = re.compile(r"\b(?:ha(?:ve|s|d)|is there|are there|was there|were there)\s+(?:an?|any)\b")


@dataclass
class Answer:
    question: str
    type: str
    abstain: bool
    answer: list[str] | str | None
    citations: list[str]
    intent: str | None
    slots: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None
    proof: dict[str, Any] | None = None
    #: A proof of absence that ran but does not stand: the product's artifacts speak of the evidence (its text
    #: check, kg/qa/textcheck.py). The answer is then uncertain and holds no proof.
    unheld: dict[str, Any] | None = None
    #: answer | absent | uncertain | unsupported (see the module docstring).
    outcome: str = "answer"
    #: For an uncertain reading: the best readings as canonical questions, best first.
    readings: list[dict[str, str]] = field(default_factory=list)
    #: Words of the question read as another spelling ({typed: read as}; kg/qa/spelling.py).
    respelled: dict[str, str] = field(default_factory=dict)
    #: The operator the question adds to its core reading (kg/qa/operators.py): its kind, how it is shown after
    #: the core's reading ("companies by unresolved bugs in ActionGenie → excluding BlueWave"), what it counted.
    operator: dict[str, Any] | None = None
    #: For a question across products (kg/qa/across.py): how they combine, which ones, and each product's own
    #: answer (what was asked of it, its outcome, items, citations and proof).
    cross: dict[str, Any] | None = None
    #: {eid: {"name", "role"}} for every employee the answer names: the answer itself stays eids.
    people: dict[str, dict[str, str | None]] = field(default_factory=dict)
    queries: list[str] = field(default_factory=list)
    #: The intent chooser's verdicts, kept so the reading is built only when `kg ask --explain` asks for it.
    choice: Choice | None = field(default=None, repr=False, compare=False)

    @property
    def understanding(self) -> dict[str, Any]:
        """How the question was read (cues, competing intents, the free phrase's resolution)."""
        return self.choice.explain() if self.choice else {}

    def to_json(self) -> dict[str, Any]:
        """The answer object of `--json` and `--batch`: every field but the SPARQL text and the chooser's
        verdicts (`asdict` would deep-copy those, only to drop them)."""
        return {f.name: json_copy(getattr(self, f.name)) for f in fields(self) if f.name not in INTERNAL}


def json_copy(value: Any) -> Any:
    """A copy of JSON-shaped data (dicts, lists, scalars), so a caller may change it: `copy.deepcopy` does the
    same with bookkeeping for shapes an answer never has, at several times the cost."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def fold_rows(rows: list[Row]) -> tuple[list[str], list[str]]:
    """Distinct ?answer values and distinct ?cite ids, each in first-seen order."""
    answers = dict.fromkeys(term_text(r["answer"]) for r in rows if "answer" in r)
    cites = dict.fromkeys(term_text(r["cite"]) for r in rows if "cite" in r)
    return list(answers), list(cites)


def shown_answer(answer_type: str, answers: list[str]) -> list[str] | str:
    """Content as lines in the query's ORDER BY; names, ids and links as a sorted list. Rows come in an order
    no engine promises (the same store gives another order in each process), and the answer must not."""
    return "\n".join(answers) if answer_type == "content" else sorted(answers)


#: An optional last resort for questions no intent covers: extracted evidence sentences, or None to abstain.
Fallback = Callable[[Question], Answer | None]


def shared_aliases(rows: set[tuple[str, str, str]]) -> set[str]:
    """Other names (former names, code names) two products share, normalised: a name that could mean either
    names neither, unless it is a product's own name."""
    names: dict[str, set[str]] = {}
    own = {normalise(label) for kind, label, name in rows if kind == "product" and label == name}
    for kind, label, name in rows:
        if kind == "product" and label != name:
            names.setdefault(normalise(label), set()).add(name)
    return {alias for alias, products in names.items() if len(products) > 1 and alias not in own}


#: A Slack channel's name as typed ("planning-EinsteinEdgeAI", "bug-ianjones-SummarizeForce"): lower-case
#: words and a capitalised one, joined by hyphens.
CHANNEL_NAME = re.compile(r"(?<![\w-])[a-z]+(?:-[a-z]+)*-[A-Za-z]*[A-Z][\w]*(?:-[\w]+)*(?![\w-])")
#: Words that say a question is about one feature, whose name it must then give ("the PRs for the X feature").
FEATURE_WORDS = frozenset({"feature", "functionality", "capability", "initiative", "for"})


def as_terms(values: dict[str, Any]) -> dict[str, Literal]:
    """Plain values of the intent table (a state word, a boolean) as the literals a query binds."""
    return {k: Literal(v) for k, v in values.items()}


@cache
def kept_among() -> frozenset[str]:
    """The words that say a role or place keeps the people of a list ("which QA Specialists were among the
    authors", "…, narrowed to the UX Researchers"): the lexicon's [restricting] words."""
    return frozenset(singular_text(w) for w in lexicon_data()["restricting"]["words"] if " " not in w)


def short_repo_names(repos: Iterable[str]) -> dict[str, str]:
    """Repositories by their name without the owner ("collaborationforce" for salesforce/CollaborationForce),
    normalised, where no two owners have a repository of that name."""
    owners: dict[str, set[str]] = {}
    for repo in repos:
        owners.setdefault(normalise(repo.rsplit("/", 1)[-1]), set()).add(repo)
    return {name: next(iter(full)) for name, full in owners.items() if len(full) == 1}


def of_whole_product(q: Question, intent: Intent, phrase: str) -> bool:
    """Whether a row that reads a feature is asked of the whole product: it has a query for that, and the
    question names no topic and says no feature word ("Which LeadForce PRs got reverted because the product
    direction changed?"); a topic said but not found stays unresolved."""
    said = {singular_text(w) for w in q.norm.split()}
    return intent.every is not None and not phrase.strip() and q.time is None and not said & FEATURE_WORDS


class Answerer:
    """Answers questions against one backend; the slot vocabularies are read from the graph once, and each
    product's labels and intents' evidence once per product."""

    def __init__(self, backend: Backend, fallback: Fallback | None = None, texts: TextChecker | None = None) -> None:
        self.backend = backend
        self.fallback = fallback
        #: Where a proof of absence is checked against the product's own text (kg/qa/textcheck.py).
        self.texts = texts or TextChecker.for_backend(backend)
        self._labels: dict[str, Labels] = {}
        self._evidence: dict[tuple[str, str], list[str]] = {}

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """The slot vocabularies, read from datasets the library names: the product graphs found, a chunk at
        a time, each with the organisation graph. Nothing depends on an engine's default graph (a union or an
        empty one). The rows of all chunks are taken in the query's ORDER BY, as one query's would be."""
        found: dict[str, dict[str, str]] = {"product": {}, "role": {}, "company": {}, "location": {}}
        query = named_query("qa_vocabulary").text
        rows: set[tuple[str, str, str]] = set()
        for g in self.vocabulary_datasets():
            try:
                selected = self.backend.select(query, graphs=g)
                rows |= {(term_text(r["kind"]), term_text(r["label"]), term_text(r["name"])) for r in selected}
            except ShardDown as exc:  # its products stay known, so their questions fail on it, never abstain
                rows |= {("product", p, p) for p in exc.products}
        for kind, label, name in sorted(rows, key=lambda row: (row[0], row[1] != row[2], row[1], row[2])):
            found[kind].setdefault(normalise(label), name)  # a product's own name before a former one
        for alias in shared_aliases(rows):
            del found["product"][alias]
        return Vocabulary(found["product"], found["role"], found["company"], found["location"], self.repositories)

    def repositories(self) -> dict[str, str]:
        """The code repositories of every product, by "owner/name" and by name (normalised), read the first
        time a question names a repository as one."""
        query = named_query("qa_repositories").text
        labels = {
            term_text(r["label"]) for g in self.vocabulary_datasets() for r in self.backend.select(query, graphs=g)
        }
        return {normalise(label): label for label in sorted(labels)} | short_repo_names(sorted(labels))

    def vocabulary_datasets(self) -> list[list[NamedNode]]:
        """The named graphs holding a product under the graph name `kg build` gives it, VOCABULARY_CHUNK at a
        time, each chunk with the organisation graph (no query joins two products' graphs, so the chunks'
        rows are the whole dataset's). A request naming every product's graph would grow with the company,
        and Virtuoso answers it with one header per graph: past ~95, more than Python's HTTP client accepts.
        Over a deployment of shards, a chunk holds one shard's products, so one shard answers it.
        No product is an error naming where we looked, never a reason to abstain on every question, unless the
        data holds source records (ERB) alone: their questions are scoped by the record they name."""
        if not (products := known_products(self.backend)):
            if record_graphs(self.backend):
                return []
            raise KGError(
                f"no products found at {self.backend.location}: is the data loaded, and with its graph "
                f"names ({GRAPH}<Product>, {ORG_GRAPH})?"
            )
        groups = self.backend.product_groups(products) if hasattr(self.backend, "product_groups") else [products]
        return [
            [*(product_graph(p) for p in group[i : i + VOCABULARY_CHUNK]), NamedNode(ORG_GRAPH)]
            for group in groups
            for i in range(0, len(group), VOCABULARY_CHUNK)
        ]

    def labels(self, product: str) -> Labels:
        """The labels a free phrase may name in one product, read once per product."""
        if product not in self._labels:
            found: dict[str, dict[str, set[str]]] = {"feature": {}, "feature name": {}, "component": {}}
            for row in self.backend.select(named_query("qa_labels").text, graphs=product_dataset(product)):
                found[term_text(row["kind"])].setdefault(term_text(row["item"]), set()).add(term_text(row["label"]))
            self._labels[product] = Labels(
                features={f: frozenset(words) for f, words in found["feature"].items()},
                feature_names={f: min(names) for f, names in found["feature name"].items()},
                components=tuple(sorted(k for keys in found["component"].values() for k in keys)),
            )
        return self._labels[product]

    def evidence(self, query: str, product: str) -> list[str]:
        """The ?cite ids of a parameterless evidence query (an intent row's `evidence`) over one product: the
        same for every question about it, so read once per product, not inside each question's SELECT."""
        if (query, product) not in self._evidence:
            rows = self.backend.select(named_query(query).text, graphs=product_dataset(product))
            self._evidence[query, product] = [term_text(r["cite"]) for r in rows if "cite" in r]
        return self._evidence[query, product]

    @cached_property
    def people(self) -> People:
        """The organisation's employees (read on the first answer that names one)."""
        return People(self.backend)

    def people_named(self, values: list[str]) -> dict[str, dict[str, str | None]]:
        """The `people` map of an answer whose values hold eids; nothing is read for one that holds none."""
        return self.people.people_map(values) if any(EID.search(v) for v in values) else {}

    def ask(self, raw: str | bytes) -> Answer:
        """The answer or a proof-backed abstention. An invalid question (empty, not text, naming two products apart)
        and a backend failure raise KGError: neither is evidence about the data, so neither may abstain."""
        q = self.scoped(self.read(raw))
        answer = self.answer_parsed(q)
        if answer.outcome in ("uncertain", "unsupported") and (described := self._nested(q)) is not None:
            return described  # "who manages the engineer that fixed 'X'?": asked of the one engineer
        return answer

    def _nested(self, q: Question) -> Answer | None:
        """A question that describes its item by another question, asked in two steps (kg/qa/nested.py): the
        inner one must name one item, then the outer one is asked of it. Nothing found by the inner one is the
        outer's absence, with its proof; several found, or either step unread, is no reading here."""
        parts = nested(q.text)
        if parts is None:
            return None
        try:
            inner = self.answer_parsed(self.scoped(self.read(parts.inner)))
            if inner.outcome == "absent":
                inner.question, inner.reason = q.text, f"{inner.reason} (asked first: '{parts.inner}')"
                return inner
            items = inner.answer if inner.outcome == "answer" and isinstance(inner.answer, list) else []
            if len(items) != 1:
                return None
            item = str(items[0]) if " " not in str(items[0]) else f"'{items[0]}'"  # a title is quoted
            outer = self.answer_parsed(self.scoped(self.read(parts.outer.replace("{item}", item))))
        except KGError:
            return None
        if outer.outcome not in ("answer", "absent"):
            return None
        steps = [inner, outer]
        outer.operator = {
            "kind": "nested",
            "shown": f"{parts.inner} → {items[0]}",
            "parts": [{"question": a.question, "answer": a.answer, "reading": a.slots.get("reading")} for a in steps],
        }
        outer.slots["reading"] = " → ".join(str(a.slots.get("reading") or a.intent) for a in steps)
        outer.question, outer.citations = q.text, sorted({*inner.citations, *outer.citations})
        outer.people = {**inner.people, **outer.people}
        outer.queries = [*inner.queries, *outer.queries]
        return outer

    def read(self, raw: str | bytes) -> Question:
        """The question parsed against the graph's vocabularies; an invalid one is a KGError saying so."""
        try:
            return parse(raw, self.vocabulary)
        except KGError as exc:
            raise KGError(f"invalid question: {exc}") from exc

    def scoped(self, q: Question, readable: frozenset[str] | None = None) -> Question:
        """The question with its scope: the product it names, else the graph of the source record (ERB) it
        names by id (`erb-jira`), among the graphs the caller reads (`readable`: graph IRIs, None for all).
        Either is then read as a product's question is: in that graph and the organisation graph."""
        if q.product is not None or q.across is not None:
            return q
        # "who fixed 'X'?", "the PRs in the CForceAIX repo", "who created the planning-EinsteinEdgeAI channel"
        named = [*quoted_titles(q.text), *q.repos, *CHANNEL_NAME.findall(q.text), *self._pr_repos(q.text)]
        graph = record_scope(q.text, self.backend, readable) or title_scope(named, self.backend, readable)
        graph = graph or (said_bug_scope(q.norm, self.backend, readable) if not quoted_titles(q.text) else None)
        return replace(q, product=graph) if graph else q

    def _pr_repos(self, text: str) -> list[str]:
        """The repositories of the PRs a question names as "<repo>/pull/<n>" ("did backAIX/pull/15 get
        merged?"), as the vocabulary knows them: each scopes the question to its product."""
        repos = self.vocabulary.repos
        said = (str(m.group("repo") or "").casefold() for m in PR_NUMBER.finditer(text))
        return [repos[r] for r in said if r in repos]

    def answer_parsed(self, q: Question) -> Answer:
        if q.across is None and (parts := two_asks(q.text)) is not None:  # "who fixed 'X', and in which PR?"
            return self._both(q, parts)
        if (asked := self._items_asked(q)) is not None:  # "Were any PRs rolled back? Which ones?"
            answer = self.answer_parsed(asked)
            answer.question = q.text
            return answer
        if q.across is not None:
            return self._across(q, q.across)
        if q.product is None and self.backend.hides_graphs:
            raise KGError(
                f"the question names no product {self.backend.location} shows this token: a product outside "
                "the token's grant cannot be asked about (check the question's product and --token)"
            )
        op = detect(q)
        if op is not None and op.kind == "unsupported":
            answer = self._abstain(
                q,
                None,
                f"unsupported question: '{op.shown}' asks {op.item}, which no intent answers",
                outcome="unsupported",
            )
            answer.operator = op.to_json()
            return answer
        core = operators.core(q, op)
        answer = self._read(core, op)
        if answer.outcome in ("uncertain", "unsupported") and op is not None and op.kind == "yes_no" and op.cues:
            # "has BlueWave reported any X bugs": the item is the row's own slot, not one of the companies listed
            bound = replace(op, cues=frozenset())
            again = self._read(core, bound)
            op, answer = (bound, again) if again.outcome in ("answer", "absent") else (op, answer)
        if answer.outcome in ("uncertain", "unsupported"):
            answer = self._respelled(core, answer, op)
        answer = self._kept_to(core, op, answer) or answer
        if answer.outcome in ("uncertain", "unsupported") and (bare := operators.itemless(q, op)) is not None:
            again = self._read(bare, op)  # "was eid_… one of the engineers who …": is it among the answer's items
            again = self._kept_to(bare, op, again) or again
            answer = again if again.outcome in ("answer", "absent") else answer
        answer.question = q.text
        answer = self._composed(op, answer) if op is not None else answer
        if op is None and operators.opens_yes_no(q.text) and str(answer.intent).startswith("ontology:"):
            answer = self._yes_no_of_list(q, answer)
        elif op is None and answer.outcome == "answer" and answer.type != "yes_no" and operators.asks_only_yes_no(q):
            why = "uncertain reading: a yes/no question, and what it asks of this answer is not read"
            answer = self._abstain(q, None, why, outcome="uncertain")  # never a list or a text for a yes or no
        if answer.outcome in ("uncertain", "unsupported") and (plain := operators.affirmative(q)) is not None:
            answer = self._negated(q, *plain) or answer  # "has eid_… never approved a PR?"
        return self._by_name(q, self._company_slips(q, answer))

    def _negated(self, q: Question, plain: str, opposite: bool) -> Answer | None:
        """A yes/no said with a negation, answered from the plain yes/no: its opposite where the negation is
        said of the subject, the same where the question opens with it; the same evidence (or proof) decides.
        None where the plain question gets no yes or no."""
        said = self.answer_parsed(self._reparsed(plain, q))
        if said.outcome != "answer" or said.type != "yes_no":
            return None
        if not opposite:
            return replace(said, question=q.text)
        told = str(said.answer)
        flipped = "no" if told.startswith("yes") else "yes"
        shown = said.operator["shown"] if said.operator else "yes or no"
        return replace(
            said,
            question=q.text,
            answer=flipped + told.removeprefix("yes").removeprefix("no"),
            operator={**(said.operator or {}), "negated": True, "shown": f"{shown} → asked in the negative: {flipped}"},
        )

    def _by_name(self, q: Question, answer: Answer) -> Answer:
        """People asked for by name ("the names of the engineers who …") are answered with their names, the
        eids kept in `people`; two people of one name keep their eids beside it, so no answer is lost."""
        values = answer.answer
        if answer.outcome != "answer" or not isinstance(values, list) or not operators.asks_names(q.text):
            return answer
        people = self.people_named(values)
        if not values or any(v not in people or not people[v].get("name") for v in values):
            return answer
        names = [str(people[v]["name"]) for v in values]
        shared = {n for n in names if names.count(n) > 1}
        answer.answer = [f"{n} ({v})" if n in shared else n for n, v in zip(names, values, strict=True)]
        answer.people = people
        answer.slots = {**answer.slots, "form": "names"}
        return answer

    def _both(self, q: Question, parts: tuple[str, str]) -> Answer:
        """A question that asks two things of one item, read as two questions: both answers, each item of the
        first then the second's, with the two readings in `operator.parts`; uncertain unless both answer."""
        try:
            asked = [self._reparsed(part, q) for part in parts]
        except KGError:
            why = "uncertain reading: it asks two things, and one is no question"
            return self._abstain(q, None, why, outcome="uncertain")
        answers = [self.answer_parsed(self.scoped(a)) for a in asked]
        shown = {
            "kind": "and",
            "shown": "two questions",
            "parts": [
                {"question": a.question, "outcome": a.outcome, "answer": a.answer, "reading": a.slots.get("reading")}
                for a in answers
            ],
        }
        if any(a.outcome != "answer" for a in answers):
            why = "; ".join(f"'{a.question}': {a.reason or a.outcome}" for a in answers if a.outcome != "answer")
            done = self._abstain(
                q,
                None,
                f"uncertain reading: it asks two things, and not both are answered ({why})",
                outcome="uncertain",
            )
            done.operator = shown
            return done
        values = [v for a in answers for v in (a.answer if isinstance(a.answer, list) else [str(a.answer)])]
        readings = " / ".join(str(a.slots.get("reading") or a.intent) for a in answers)
        return Answer(
            question=q.text,
            type="and",
            abstain=False,
            answer=values,
            citations=sorted({c for a in answers for c in a.citations}),
            intent=" + ".join(str(a.intent) for a in answers),
            slots={"product": answers[0].slots.get("product"), "reading": readings},
            operator=shown,
            people={k: v for a in answers for k, v in a.people.items()},
            queries=[x for a in answers for x in a.queries],
        )

    def _kept_to(self, q: Question, op: Operator | None, typed: Answer) -> Answer | None:
        """A list of people read by a row that takes no role or location, where the question adds one ("the
        Product Managers who shared a demo …", "which remote engineers resolved …"): the row's answer kept to
        the people the organisation graph gives that role or location, with the row's evidence; nobody left is
        absent, with the count of those looked at as its proof. None where that is not the question's only
        gap, or where the row asks for the most (the top among all is not the top among them)."""
        winner = typed.choice.winner if typed.outcome == "uncertain" and typed.choice else None
        kinds = frozenset(k for k, v in (("role", q.roles), ("location", q.locations)) if v)
        gap = winner.account if winner is not None else None
        if winner is None or gap is None or not kinds or not gap.unread or gap.cues or gap.asked_type:
            return None
        tokens = operators.tokens_of(q)
        unlike = operators.said_unlike(tokens, [*q.roles, *q.locations])  # "… who is not an Engineering Lead"
        if set(gap.words) - kept_among() - ({"not"} if unlike else set()):
            return None
        if winner.intent.answer_type != "person" or "most" in winner.intent.requires:
            return None
        labels = self.labels(q.product) if q.product else None
        placed, implied = (op.positions, op.cues) if op else (frozenset(), frozenset())
        among = {i for i, t in enumerate(tokens) if t in kept_among()} | unlike  # "which QA folks were among …"
        choice = choose(q, labels, placed | among, implied, kinds)
        if choice.winner is None or choice.winner.intent is not winner.intent:
            return None
        core = self._answer_choice(q, choice)
        core.choice = choice
        if core.outcome not in ("answer", "absent"):
            return None
        return operators.kept_to(core, self.people, q.roles, q.locations, unlike=bool(unlike))

    def _across(self, q: Question, across: Across) -> Answer:
        """A question across products (kg/qa/across.py): asked of each product as that product's own question,
        read by the same readers, the answers combined by the question's connective."""
        base = self._abstain(q, None, "", outcome="uncertain")
        base.cross, base.slots = across.to_json(), {**base.slots, "products": list(across.products)}
        if across.kind == "unread":
            why = f"'{across.said}' beside {', '.join(across.products)}: which products to read is not read"
            return spans.uncertain(base, why)
        if across.kind == "and":
            why = f"'{across.said}' may mean in every one of the products or in any of them"
            answer = spans.uncertain(base, why)
            answer.readings = [{"question": r, "intent": "across"} for r in across.readings]
            return answer
        if not across.products:
            raise KGError(f"'{across.said}': no product to read at {self.backend.location}")
        parts = {p: self.answer_parsed(parse(across.asked_of(p), self.vocabulary)) for p in across.products}
        first = next(iter(parts.values()))
        base.choice, base.queries = first.choice, first.queries  # `--explain`: how one product's question was read
        if across.kind != "rank" and (ranked := self._most_across(q, across, parts, base)) is not None:
            return ranked
        answer = spans.combine(across, parts, base)
        values = answer.operator.get("items", []) if answer.type == "count" and answer.operator else answer.answer
        answer.people = self.people_named(values if isinstance(values, list) else [])
        return answer

    def _most_across(self, q: Question, across: Across, parts: dict[str, Answer], base: Answer) -> Answer | None:
        """A "most" (or a ranking operator over one) across products: each item's count summed over the
        products' ranked rows (`sparql/<query>_ranked.rq`), then ranked as one product's would be. None when no
        product's reading asks for the most."""
        winners = {p: a.choice.winner for p, a in parts.items() if a.choice and a.choice.winner}
        most = {p: w for p, w in winners.items() if parts[p].intent == w.intent.name and "most" in w.intent.requires}
        if not most or spans.doubt(parts) is not None:
            return None
        answer = spans.prepared(across, parts, base)
        if across.kind == "both":
            return spans.uncertain(answer, "the most in every product is not read: say 'across' to count them together")
        name = f"{next(iter(most.values())).intent.query}_ranked"
        if name not in library():
            return spans.uncertain(answer, f"the most across products needs the ranked rows, which {name} is not")
        rows = {}
        for product, winner in most.items():
            got = self.backend.select(library()[name].text, winner.bindings or {}, product_dataset(product))
            rows[product] = [
                (term_text(r["answer"]), int(term_text(r["n"]))) for r in got if "answer" in r and "n" in r
            ]
        first = parse(across.asked_of(next(iter(most))), self.vocabulary)
        op = detect(first)
        op = op if op is not None and (op.ranks or op.kind == "exclude") else Operator("rank", frozenset(), "the most")
        part = parts[next(iter(most))]
        core = replace(
            answer, outcome="answer", abstain=False, reason=None, answer=[], type=part.type, intent=part.intent
        )
        ranked = operators.ranked(op, core, spans.summed(rows.values()), operators.opens_yes_no(q.text))
        named = ranked.answer if isinstance(ranked.answer, list) else [op.item, op.other]
        # cited: the products whose rows count an item the answer names
        held = [p for p, got in rows.items() if any(item in named for item, _ in got)]
        ranked.citations = sorted({c for p in held for c in parts[p].citations})
        if ranked.outcome == "answer" and isinstance(ranked.answer, list):
            ranked.people = self.people_named(ranked.answer)
        return ranked

    def _yes_no_of_list(self, q: Question, answer: Answer) -> Answer:
        """An ontology reading's list for a question that asks yes or no. "Has eid_… written any PRs?" asks
        whether there are any: yes with them as evidence, no with the reading's proof. Otherwise which item to
        look for is not read, and a list is no yes or no: uncertain."""
        if answer.type == "yes_no" or answer.outcome not in ("answer", "absent") or answer.slots.get("offered"):
            return answer  # "offered": the question offers values to choose from ("resolved, open, or reopened?")
        words = operators.tokens_of(q)
        one_clause = not re.search(r"[?.!;]\s+\S", q.text.strip())
        asks_any = bool(ANY & set(words) or EXISTS_A.search(q.norm))
        if q.items_asked and answer.outcome == "answer" and asks_any:
            answer.operator = {"kind": "exists", "shown": "are there any? which?", "items": answer.answer}
            return answer  # the items asked for after the yes or no: they answer both
        if asks_any and one_clause:
            items = answer.answer if isinstance(answer.answer, list) else []
            answer.operator = {"kind": "exists", "shown": "are there any?", "items": items}
            answer.answer, answer.type, answer.abstain = ("yes" if items else "no"), "yes_no", False
            answer.outcome, answer.reason = "answer", None
            return answer
        if answer.outcome == "absent":
            return answer
        why = "uncertain reading: a yes/no question, and which item to look for is not read"
        return self._abstain(q, None, why, outcome="uncertain")

    def _company_slips(self, q: Question, answer: Answer) -> Answer:
        """A word a slip away from a company's name ("TechCorpp") is offered as that company. A reading that
        answered or proved without it has left the company out, so it becomes uncertain: a constraint read past
        is no ground for an answer, nor a guessed name for a proof."""
        slips = name_slips(q.text, self.vocabulary.companies.values())
        if not slips:
            return answer
        if answer.outcome in ("answer", "absent"):
            typed = ", ".join(f"'{k}'" for k in slips)
            answer = self._abstain(
                q, None, f"uncertain reading: {typed} names no company the graph knows", outcome="uncertain"
            )
        offer_slips(answer, q.text, self.vocabulary.companies.values())
        return answer

    def _composed(self, op: Operator, core: Answer) -> Answer:
        """The operator applied to the core reading's answer (kg/qa/operators.py)."""
        winner = core.choice.winner if core.choice else None
        intent = winner.intent if winner else None
        superlative = intent is not None and "most" in intent.requires
        bound = (winner.bindings or {}) if winner else {}
        # the row binds the item itself ("did BlueWave report ..."), not only a slot of its kind
        binds = any(str(op.item) in str(v) for v in bound.values())
        reads_item = intent is not None and op.slot in slots_read(intent) and binds
        # an ontology reading of the item itself ("was <PR link> reverted"): the item is its entity
        reads_item = reads_item or (str(core.intent).startswith("ontology:") and core.slots.get("named") == op.item)
        if intent is not None and winner is not None and (op.ranks or (op.kind == "exclude" and superlative)):
            return self._ranked(op, core, intent, winner.bindings or {}, superlative)
        if op.kind in ("latest", "earliest"):
            return operators.kept_in_time(op, core, self._created(core))
        if op.kind == "window":
            return operators.kept_in_window(op, core, self._created(core))
        composed = operators.apply(op, core, superlative, reads_item)
        if composed.type in ("count", "yes_no") and composed.answer != core.answer:
            composed.people = self.people_named(list(composed.operator.get("items", []))) if composed.operator else {}
        return composed

    def _created(self, core: Answer) -> dict[str, str]:
        """When each of the answer's items was created, for those that one item of the product shows
        (`sparql/item_created.rq`)."""
        product, values = core.slots.get("product"), core.answer
        if core.outcome != "answer" or not product or not isinstance(values, list):
            return {}
        query, graphs = library()["item_created"].text, product_dataset(str(product))
        times: dict[str, str] = {}
        for value in map(str, values):
            rows = self.backend.select(query, {"value": Literal(value)}, graphs)
            if len({r["item"] for r in rows}) == 1:
                times[value] = term_text(rows[0]["created"])
        return times

    def _ranked(
        self, op: Operator, core: Answer, intent: Intent, bindings: dict[str, Any], superlative: bool
    ) -> Answer:
        """A ranking operator (a place, top N, fewest, the most but one item, two items compared) over the core
        row's ranked form, `sparql/<query>_ranked.rq`: every item with its count, most first."""
        name = f"{intent.query}_ranked"
        shown = op.to_json(core.choice.winner.reading if core.choice and core.choice.winner else "")
        if core.outcome in ("uncertain", "unsupported"):
            core.operator = shown
            return core
        kept = core.slots.get("time") or (core.slots.get("repos") and "repo" in intent.filters)
        if not superlative or name not in library() or kept:
            why = (
                "is no ranking"
                if not superlative
                else "has no ranked form"
                + (" at a time" if core.slots.get("time") else " kept to a repository" if kept else "")
            )
            return operators.uncertain(core, shown, f"'{op.shown}' needs the ranked rows, and {intent.name} {why}")
        product = str(core.slots.get("product"))
        dataset = product_dataset(product, org=intent.org)
        rows = self.backend.select(library()[name].text, bindings, dataset)
        counted = [(term_text(r["answer"]), int(term_text(r["n"]))) for r in rows if "answer" in r and "n" in r]
        everyone = op.fewest and not op.among_any and bool(intent.universe)
        if everyone:  # those with none are in the universe's rows, not the asked ones: at 0, last
            whole = {
                term_text(r["answer"])
                for extra in intent.universe
                for r in self.backend.select(library()[name].text, {**bindings, **as_terms(extra)}, dataset)
                if "answer" in r
            }
            if (unsaid := operators.fewest_unsaid(op, counted, whole)) is not None:
                return operators.uncertain(core, shown, unsaid)
            counted += [(a, 0) for a in sorted(whole - {a for a, _ in counted})]
            op = replace(op, shown=f"{op.shown}, among all {len(whole)} in the product (those with none included)")
        opener = operators.opens_yes_no(core.question)
        answer = operators.ranked(op, core, counted, opener, everyone=everyone)
        answer.queries = [*answer.queries, library()[name].text]
        if answer.outcome == "answer" and isinstance(answer.answer, list):
            answer.people = self.people_named(answer.answer)
        return answer

    def _read(self, q: Question, op: Operator | None = None) -> Answer:
        """The answer to the question as parsed (less an operator's words), with the chooser's verdicts kept for
        `--explain`."""
        labels = self.labels(q.product) if q.product else None
        choice = choose(q, labels, op.positions, op.cues) if op else choose(q, labels)
        answer = self._answer_choice(q, choice)
        answer.choice = choice
        return self._by_ontology(self._without_operator(q, op), answer) if answer.outcome != "answer" else answer

    def _without_operator(self, q: Question, op: Operator | None) -> Question:
        """The question less a count's words ("how many") or an exclusion's ("other than eid_…", with the item),
        for the ontology reader, which places every word it reads and knows no operator; the operator is
        applied to its answer as to any other."""
        if op is None or op.kind not in ("count", "exclude", "latest", "earliest"):
            return q
        tokens = operators.tokens_of(q)
        between = r"(?:'s)?\W+"  # "what's the count of": the cue words drop the possessive
        text = q.text
        for words in runs_of(sorted(op.positions), tokens):  # "how many … in total": each run apart
            said = re.compile(r"(?<!\w)" + between.join(rf"{re.escape(w)}s?" for w in words) + r"(?!\w)", re.I)
            text = said.sub(" ", text, count=1)
        text = re.sub(r"\s+", " ", text).strip()
        try:
            return self._reparsed(text, q) if text != q.text else q
        except KGError:
            return q

    def _items_asked(self, q: Question) -> Question | None:
        """The yes or no before a last sentence that only asks for its items, in the question's scope; None when
        the question has no such sentence (or its first part reads another product)."""
        first = follow_up_core(q.text)
        if first is None or not operators.opens_yes_no(first):
            return None
        try:
            asked = replace(self._reparsed(first, q), items_asked=True)
        except KGError:
            return None
        return asked if asked.product == q.product and asked.across is None else None

    def _reparsed(self, text: str, q: Question) -> Question:
        """Another wording of the question, parsed, in the question's scope where it names no product (a record's
        graph, found from its id, stays the scope of the question less its operator or slips)."""
        again = parse(text, self.vocabulary)
        return replace(again, product=q.product) if again.product is None else again

    def _by_ontology(self, q: Question, table: Answer) -> Answer:
        """The reading generated from the ontology (kg/qa/ontology_reader.py) where the intent table has no
        complete one: its answer or proof; its own doubt only where the table had no reading to offer. Where
        the table proved absence, the ontology reader's answer overrides the proof (a bug named by its exact
        title in quotes, which the table's title match does not see), and so does its "no bug titled …": a
        proof that no bug has the words as its title is no proof about the bug the question meant."""
        from kg.qa.ontology_reader import nearest, read_by_ontology

        read = read_by_ontology(q, self.backend)
        if read is None and table.outcome == "unsupported" and not table.readings:
            table.readings = nearest(q)  # the askable questions nearest it
        if read is None or (read.outcome in ("uncertain", "unsupported") and table.readings):
            return table
        if read.outcome == "uncertain" and table.outcome != "absent" and table.choice and table.choice.winner:
            return table  # a row read the question and says what it could not resolve: the more telling doubt
        if table.outcome == "absent" and read.outcome == "uncertain" and read.slots.get("entity"):
            read.choice = table.choice  # the question names an entity the table's proof did not see
            return read
        if table.outcome == "absent" and read.outcome not in ("answer", "unsupported"):
            return table
        read.choice = table.choice
        if read.outcome == "absent" and read.proof is not None:
            read = self._text_checked(q, read)
        if read.outcome == "answer" and isinstance(read.answer, list):
            read.people = self.people_named(read.answer)  # shown with their names and roles, as any answer
        return read

    def _text_checked(self, q: Question, absent: Answer) -> Answer:
        """An ontology reading's proof checked against the product's text as a table row's is: the entity it
        names (its title's words) stands for the row's feature; artifacts that carry the question's evidence
        cues beside it turn the proof into an uncertain answer citing them."""
        from kg.qa.ontology_reader import class_nouns

        named = str(absent.slots.get("named") or "")
        bindings: dict[str, Any] = {"topic": Literal(" ".join(feature_tokens(named)))} if named else {}
        listed = str(absent.slots.get("class") or "")
        checked = self.texts.check(q, bindings, class_nouns(listed) if listed else frozenset())
        proof = {**(absent.proof or {}), "textcheck": checked.to_json()}
        if checked.stands:
            return replace(absent, proof=proof)
        return replace(
            absent,
            outcome="uncertain",
            reason=f"{UNCERTAIN} ({checked.check})",
            proof=None,
            unheld=proof,
            citations=checked.matches,
        )

    def _respelled(self, q: Question, typed: Answer, op: Operator | None = None) -> Answer:
        """A question with no complete reading as typed, read again with its slips respelled: the respelled
        reading's answer, or, where it would prove absence, an uncertain reading offering it (a guessed
        spelling is no ground for a proof); else the answer as typed."""
        labels = self.labels(q.product) if q.product else Labels()
        from kg.qa.ontology_reader import placed_words

        names = names_words(self.vocabulary, [*labels.feature_names.values(), *labels.components])
        fixes = respellings(q.text, names, placed_words())
        if not fixes:
            return typed
        try:
            q2 = self._reparsed(respelled(q.text, fixes), q)
        except KGError:
            return typed
        again = self._read(operators.core(q2, op), op)
        again.question, again.respelled = q.text, fixes
        if again.outcome == "answer":
            return again
        choice = again.choice
        if again.outcome == "absent" and choice is not None and choice.winner is not None and choice.winner.reading:
            shown = ", ".join(f"'{a}' as '{b}'" for a, b in fixes.items())
            offered = {"question": choice.winner.reading, "intent": choice.winner.intent.name}
            typed.outcome, typed.respelled = "uncertain", fixes
            typed.reason = (
                f"uncertain reading: read with {shown}, the graph holds nothing that fits; a respelling is no "
                "ground for a proof"
            )
            typed.readings = [offered, *(r for r in typed.readings if r["question"] != offered["question"])]
        return typed

    def _answer_choice(self, q: Question, choice: Choice) -> Answer:
        if choice.ambiguous:
            return self._uncertain(q, choice, f"the wording fits {' and '.join(choice.ambiguous)} equally")
        if choice.winner is None:
            found = self.fallback(q) if self.fallback and q.product else None
            if found:
                return found
            if choice.near:
                return self._uncertain(q, choice, "no reading accounts for the whole question")
            if q.product is None and titled_in(q.text, self.backend):  # "who fixed 'X'?", an X in several products
                return self._no_product(q, None)
            return self._abstain(q, None, "unsupported question: no intent covers this wording", outcome="unsupported")
        intent, bindings = choice.winner.intent, choice.winner.bindings or {}
        if q.product is None:
            return self._no_product(q, intent)
        account, resolution = choice.winner.account, choice.winner.resolution
        unresolved = resolution is not None and not resolution.resolved
        # words left only inside a phrase that names nothing: say what the phrase failed to name
        in_phrase = unresolved and account is not None and not account.cues and not account.asked_type
        in_phrase = in_phrase and set(account.words) <= set(resolution.phrase.split())  # type: ignore[union-attr]
        if account is not None and not account.complete and not in_phrase:
            return self._uncertain(q, choice, unaccounted(account, choice.tagged, intent.name))
        if resolution is not None and not resolution.resolved and of_whole_product(q, intent, resolution.phrase):
            intent, resolution = replace(intent, query=str(intent.every), residue=None, finish=None), None
        if resolution is not None and not resolution.resolved:
            # a phrase that names no label may be a misread as much as an absence: never a proof
            best = ", ".join(f"{c} {s:.2f}" for c, s in resolution.candidates[:3])
            if not resolution.phrase.strip():
                why = f"the closest reading needs a {resolution.kind} of {q.product}, and the question names none"
            elif best:
                why = f"'{resolution.phrase}' only partly names a {resolution.kind} of {q.product} (best: {best})"
            else:
                close = closest(resolution.phrase, self._names(q.product, resolution.kind), n=2)
                hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
                why = f"'{resolution.phrase}' names no {resolution.kind} of {q.product}{hint}"
            return self._uncertain(q, choice, why)
        if q.time is not None:
            routed = route_as_of(q, intent, bindings, self.backend)
            if isinstance(routed, Refusal):
                outcome = "absent" if routed.proof else "unsupported"  # no query decided it: no proof
                return self._abstain(q, intent, routed.reason, bindings, proof=routed.proof, outcome=outcome)
            intent, bindings = routed
            if q.repos and "repo" not in intent.filters:  # never the whole product's answer for one repository's
                why = f"{intent.name} reads no repository: ask it without '{q.repo_words[0]}' or without the time"
                return self._abstain(q, intent, why, bindings, outcome="unsupported")
        return self.answer_intent(q, intent, bindings)

    def in_repos(self, rows: list[Row], repos: list[str], graphs: list[NamedNode] | None) -> list[Row]:
        """The rows whose pull request (`?pr`, or a pull request's link as `?answer`) is in one of the
        repositories; rows that name no pull request (a feature's planning meeting) stay as evidence."""
        found = self.backend.select(named_query("pr_repositories").text, {}, graphs)
        repo_of = {term_text(r[k]): term_text(r["repo"]) for r in found for k in ("pr", "url") if k in r}
        kept = []
        for row in rows:
            named = [term_text(row[k]) for k in ("pr", "answer") if k in row and term_text(row[k]) in repo_of]
            if not named or any(repo_of[n] in repos for n in named):
                kept.append(row)
        return kept

    def answer_intent(self, q: Question, intent: Intent, bindings: dict[str, Any]) -> Answer:
        """Run one intent on the question's product with bindings already made: its ASK proof, then its SELECT.
        `kg ask` comes here once a question is read; `run_intent` (kg/mcp) with slots it validated itself."""
        if q.product is None:
            raise KGError("an intent runs on one product: none was given")
        graphs = product_dataset(q.product, org=intent.org)
        proof_q = named_query(intent.proof)
        if self.backend.ask(proof_q.text, bindings, graphs):  # ASK { FILTER NOT EXISTS { … } }: true is absent
            checked = self.texts.check(q, bindings)
            proof = {
                "query": proof_q.name,
                "text": proof_q.text,
                "bindings": _show(bindings),
                "graphs": [g.value for g in graphs or []],
                "result": True,
                "textcheck": checked.to_json(),
            }
            if not checked.stands:
                answer = self._abstain(q, intent, f"{UNCERTAIN} ({checked.check})", bindings, None, "uncertain")
                answer.citations, answer.unheld = checked.matches, proof
                return answer
            return self._abstain(
                q, intent, intent.absent(q, bindings) if intent.absent else NO_EVIDENCE, bindings, proof=proof
            )
        select_q = named_query(intent.query)
        rows = self.backend.select(select_q.text, bindings, graphs)
        if q.repos and "repo" in intent.filters:  # "in the CollaborationForce repo": its pull requests only
            rows = self.in_repos(rows, q.repos, graphs)
            if not (intent.finish or fold_rows)(rows)[0]:
                why = f"none of the pull requests this reading finds in {q.product} is in {' or '.join(q.repos)}"
                proof = {"query": select_q.name, "text": select_q.text, "bindings": _show(bindings)}
                return self._abstain(q, intent, why, bindings, proof={**proof, "result": "no rows in the repository"})
        answers, cites = (intent.finish or fold_rows)(rows)
        if not answers:
            # the proof found evidence, the query no answer: an absence where the query only narrows the proof's
            # evidence; where its rows rest on a rule that may place nothing (the row's `empty`), uncertain
            placed = intent.empty == "absent"
            return self._abstain(
                q,
                intent,
                "the query found evidence but no answer"
                if placed
                else "uncertain reading: the graph holds the evidence this reading asks about, but no answer the "
                "rules could place",
                bindings,
                proof={"query": select_q.name, "text": select_q.text, "bindings": _show(bindings), "result": "no rows"}
                if placed
                else None,  # no proof: the rows rest on a rule that placed nothing
                outcome=intent.empty,
            )
        for query in intent.evidence:
            cites.extend(self.evidence(query, q.product))
        return Answer(
            people=self.people_named(answers),
            question=q.text,
            type=intent.answer_type,
            abstain=False,
            answer=shown_answer(intent.answer_type, answers),
            citations=sorted(set(cites)),
            intent=intent.name,
            slots={**q.slots(), **_show(bindings)},
            queries=[proof_q.text, select_q.text, *(named_query(e).text for e in intent.evidence)],
        )

    def _uncertain(self, q: Question, choice: Choice, why: str) -> Answer:
        """An uncertain reading: no proof runs; the best readings are offered as canonical questions."""
        answer = self._abstain(q, None, f"uncertain reading: {why}", outcome="uncertain")
        answer.readings = [{"question": c.reading, "intent": c.intent.name} for c in choice.readings()]
        return answer

    def _names(self, product: str, kind: str) -> list[str]:
        """The product's names of a kind a free phrase may name (its features' names, or its components)."""
        labels = self.labels(product)
        return list(labels.feature_names.values()) if kind == "feature" else list(labels.components)

    def _no_product(self, q: Question, intent: Intent | None) -> Answer:
        """Unsupported: the question names no product; a word a slip away from a product's name is offered as
        the question with that name (a reading to pick), never read as it."""
        reason = "unsupported question: it names no product known to the graph"
        if held := titled_in(q.text, self.backend):  # "who fixed 'X'?" where several products have an X
            title, products = held
            reason += f"; '{title}' is a title in {len(products)} products ({', '.join(products)}): name one"
        answer = self._abstain(q, intent, reason, outcome="unsupported")
        offer_slips(answer, q.text, self.vocabulary.products.values())
        return answer

    def _abstain(
        self,
        q: Question,
        intent: Intent | None,
        reason: str,
        bindings: dict[str, Any] | None = None,
        proof: dict[str, Any] | None = None,
        outcome: str = "absent",
    ) -> Answer:
        """An abstention; its slots include the intent's bindings, so the shown slots match the proof's."""
        return Answer(
            question=q.text,
            type=intent.answer_type if intent else "content",
            abstain=True,
            answer=None,
            citations=[],
            intent=intent.name if intent else None,
            slots={**q.slots(), **_show(bindings or {})},
            reason=reason,
            proof=proof,
            outcome=outcome,
            queries=[proof["text"]] if proof else [],
        )


def offer_slips(answer: Answer, text: str, names: Iterable[str]) -> None:
    """For each word of the question a slip away from one of the names (a product, a company), say "did you
    mean" in the reason and offer the question with the name put right as a reading to pick: offered, never
    read as it."""
    slips = name_slips(text, names)
    if not slips:
        return
    offered = " or ".join(dict.fromkeys(name.split("'")[0] for name in slips.values()))
    answer.reason = f"{answer.reason}; did you mean {offered}?"
    righted = [{"question": respelled(text, {k: v}), "intent": answer.intent or ""} for k, v in slips.items()]
    answer.readings = [*righted, *answer.readings]  # the name put right first: the likeliest meaning


def unaccounted(account: Account, tagged: Tagged, intent: str) -> str:
    """Why a reading is incomplete, in words: the asked type it does not give, the constraint cues it leaves
    unexplained, or the words it could not place ("I don't know what 'second' changes here")."""
    if account.asked_type:
        return f"the question asks for a {account.asked_type}, which {intent} does not answer"
    if account.declined:
        return f"the question says it does not want the {account.declined}s {intent} answers"
    if account.cues:
        left = ", ".join(f"'{tagged.phrase(c)}' ({c})" for c in account.cues)
        return f"{intent} leaves {left} unexplained"
    words = " and ".join(f"'{w}'" for w in (*account.unread, *account.words))
    return f"I don't know what {words} changes here"


def _show(bindings: dict[str, Any]) -> dict[str, str]:
    return {k: term_text(v) for k, v in bindings.items()}
