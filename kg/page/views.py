"""The answer page's views, independent of any web server: each takes what the request asks for, the graphs
the caller's token may read (None: all) and the answerer over a backend, and returns a `Page`.

Scope is enforced here, not in the templates: a question is read with only the token's products as known
names, so one about a product outside them is refused (403, the same reply as for a name the store does not
hold) before any query runs, and an artifact or a person's artifacts are looked up only in the token's graphs,
so one outside them is simply not found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyoxigraph import Literal, NamedNode

from kg.errors import KGError
from kg.namespaces import ORG_GRAPH, node, product_graph
from kg.page import html
from kg.page.evidence import artifact_summaries, evidence_graph, inline_svg, local_name, render_svg
from kg.page.examples import Examples
from kg.qa.answer import Answerer, term_text
from kg.qa.question import Question, Vocabulary, parse
from kg.qa.spelling import name_slips
from kg.query.people import EID
from kg.query.sparql import named_query, product_dataset

Scope = frozenset[str] | None
#: A scope that reads nothing: a page that has no token yet (no product list, no examples)
NO_SCOPE: Scope = frozenset()


@dataclass(frozen=True)
class Page:
    status: int
    html: str


def permits(scope: Scope, product: str) -> bool:
    return scope is None or product_graph(product).value in scope


def scoped_vocabulary(vocabulary: Vocabulary, scope: Scope) -> Vocabulary:
    """The vocabulary with only the products the token reads: a product outside them is then read exactly as a
    name the store does not hold, so no reply tells whether it exists."""
    if scope is None:
        return vocabulary
    products = {key: name for key, name in vocabulary.products.items() if permits(scope, name)}
    return Vocabulary(products, vocabulary.roles, vocabulary.companies, vocabulary.locations)


def scope_graphs(scope: Scope) -> list[NamedNode] | None:
    """The dataset a token reads: its graphs (product graphs + org), or the whole store."""
    return None if scope is None else [NamedNode(g) for g in sorted(scope)]


def start_block(scope: Scope, examples: Examples, product: str | None, first: bool = True) -> str:
    """The products the token reads and example questions for the chosen one (else, with `first`, the first:
    a question that names no product gets no other product's examples)."""
    products = [p for p in examples.products() if permits(scope, p)] if scope != NO_SCOPE else []
    chosen = product if product in products else (products[0] if products and first else None)
    return html.start_block(products, chosen, examples.questions(chosen) if chosen else [])


def slipped_product(question: str, vocabulary: Vocabulary) -> str | None:
    """The product a word of the question is a slip of ("VizFroce" -> "VizForce"), if one is."""
    slips = name_slips(question, vocabulary.products.values())
    return next(iter(slips.values())).split("'")[0] if slips else None


@dataclass(frozen=True)
class Refusal:
    """A question refused before anything runs: its HTTP status, a title and the one-line reason."""

    status: int
    title: str
    message: str


def read_question(question: str, scope: Scope, answerer: Answerer) -> Question | Refusal:
    """The question read with only the token's products as known names, and scoped to the graph of a source
    record it names by id only among the token's graphs; an invalid question is refused (400), and so is one
    naming no product or record the token reads (403, whether or not the store holds it)."""
    vocabulary = scoped_vocabulary(answerer.vocabulary, scope)
    try:
        parsed = parse(question, vocabulary)
    except KGError as exc:
        return Refusal(400, "Not a question", f"invalid question: {exc}")
    parsed = answerer.scoped(parsed, scope)  # a source record's graph, found by its id among the token's
    if parsed.product is None and parsed.across is None and scope is not None:
        slipped = slipped_product(question, vocabulary)
        hint = f"; did you mean {slipped}?" if slipped else ""
        return Refusal(403, "Not in your products", f"the question names no product this token reads{hint}")
    return parsed


def question_dataset(parsed: Question) -> list[NamedNode] | None:
    """The graphs a question's evidence is drawn from: its product's, or those of the products it spans."""
    if parsed.across is None:
        return product_dataset(parsed.product)
    return [*(product_graph(p) for p in parsed.across.products), NamedNode(ORG_GRAPH)]


def answer_json(question: str, scope: Scope, answerer: Answerer) -> tuple[int, dict[str, Any]]:
    """(HTTP status, `kg ask --json`'s object) for the question in the token's scope, or a refusal as
    (status, {"error": …}): /api/ask's reply, read as /ask reads it."""
    question = question.strip()
    if not question:
        return 400, {"error": "give a question: /api/ask?q=…"}
    parsed = read_question(question, scope, answerer)
    if isinstance(parsed, Refusal):
        return parsed.status, {"error": parsed.message}
    return 200, answerer.answer_parsed(parsed).to_json()


def answer_page(
    question: str,
    scope: Scope,
    answerer: Answerer,
    ask_token: bool = False,
    examples: Examples | None = None,
    product: str | None = None,
) -> Page:
    """The form with the token's products and example questions, and for a question its answer (or its
    abstention with the proof) and the evidence drawing."""
    question = question.strip()
    examples = examples or Examples(answerer)
    if not question:
        return Page(200, html.ask_page("", None, None, ask_token, start_block(scope, examples, product)))
    parsed = read_question(question, scope, answerer)
    if isinstance(parsed, Refusal):
        return Page(parsed.status, html.message_page(parsed.status, parsed.title, parsed.message, ask_token))
    answer = answerer.answer_parsed(parsed)
    graphs = question_dataset(parsed)
    svg = (  # a question not read, or not covered, has no evidence to draw
        inline_svg(render_svg(evidence_graph(answer, answerer.backend, graphs, question)))
        if answer.outcome in ("answer", "absent")
        else None
    )
    slipped = slipped_product(question, answerer.vocabulary) if parsed.product is None else None
    start = start_block(scope, examples, parsed.product or slipped, first=False) if answer.abstain else ""
    summaries = artifact_summaries(answer.citations, answerer.backend, graphs)
    return Page(200, html.ask_page(question, answer, svg, ask_token, start, summaries))


def holding_graphs(answerer: Answerer, query: str, bindings: dict, scope: Scope) -> list[NamedNode] | None:
    """The dataset to look in: a token's own graphs; with every product in scope, only the graphs that hold the
    thing (found by `query`, an index look-up) and the organisation graph, since a query over the union of all
    graphs is many times slower. None when no graph holds it."""
    if scope is not None:
        return scope_graphs(scope)
    found = [
        g for r in answerer.backend.select(named_query(query).text, bindings) if isinstance(g := r["g"], NamedNode)
    ]
    return [*found, NamedNode(ORG_GRAPH)] if found else None


def artifact_view(artifact_id: str, scope: Scope, answerer: Answerer) -> dict[str, str] | None:
    """The artifact's fields (several authors joined), looked up only in the graphs of the scope."""
    bindings = {"id": Literal(artifact_id)}
    graphs = holding_graphs(answerer, "page_artifact_graphs", bindings, scope)
    if graphs is None:
        return None
    rows = answerer.backend.select(named_query("page_artifact").text, bindings, graphs)
    if not rows:
        return None
    first = {k: term_text(v) for k, v in rows[0].items()}
    authors = dict.fromkeys(_person(r) for r in rows if "author" in r)
    channels = dict.fromkeys(term_text(r.get("channelName", r["channel"])) for r in rows if "channel" in r)
    return {
        **first,
        "kind": local_name(first["kind"].replace("#", "/")),
        "author": ", ".join(authors),
        "channel": ", ".join(channels),
    }


def _person(row: dict) -> str:
    eid = local_name(term_text(row["author"]))
    return f"{term_text(row['authorName'])} ({eid})" if "authorName" in row else eid


def artifact_page(artifact_id: str, scope: Scope, answerer: Answerer, question: str = "") -> Page:
    view = artifact_view(artifact_id, scope, answerer)
    if view is None:
        return Page(
            404,
            html.message_page(404, "No such artifact", f"no artifact {artifact_id!r} in the products this token reads"),
        )
    return Page(200, html.artifact_page(view, question))


def person_page(eid: str, scope: Scope, answerer: Answerer, question: str = "") -> Page:
    """An employee (from the organisation graph, which every token reads) and their artifacts in the scope."""
    missing = Page(404, html.message_page(404, "No such person", f"no employee {eid!r} in this graph"))
    if not EID.fullmatch(eid):
        return missing
    bindings = {"person": node("person", eid)}
    rows = answerer.backend.select(named_query("page_person").text, bindings, [NamedNode(ORG_GRAPH)])
    if not rows:
        return missing
    first = {k: term_text(v) for k, v in rows[0].items()}
    managers = [
        f"{term_text(r.get('managerName', r['manager']))} ({local_name(term_text(r['manager']))})"
        for r in rows
        if "manager" in r
    ]
    person = {**first, "eid": eid, "manager": ", ".join(managers)}
    graphs = holding_graphs(answerer, "page_person_graphs", bindings, scope)
    found = answerer.backend.select(named_query("page_person_artifacts").text, bindings, graphs) if graphs else []
    artifacts = [
        {"id": term_text(r["id"]), "kind": local_name(term_text(r["kind"]).replace("#", "/")),
         "created": term_text(r["created"]) if "created" in r else ""}
        for r in found
    ]  # fmt: skip
    return Page(200, html.person_page(person, artifacts, question))
