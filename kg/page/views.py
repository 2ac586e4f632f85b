"""The answer page's views, independent of any web server: each takes what the request asks for, the graphs
the caller's token may read (None: all) and the answerer over a backend, and returns a `Page`.

Scope is enforced here, not in the templates: a question is read with only the token's products as known
names, so one about a product outside them is refused (403, the same reply as for a name the store does not
hold) before any query runs, and an artifact is looked up only in the token's graphs, so one outside them is
simply not found.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyoxigraph import Literal, NamedNode

from kg.errors import KGError
from kg.namespaces import product_graph
from kg.page import html
from kg.page.evidence import evidence_graph, inline_svg, local_name, render_svg
from kg.qa.answer import Answerer, term_text
from kg.qa.question import Vocabulary, parse
from kg.query.sparql import named_query, product_dataset

Scope = frozenset[str] | None


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
    return Vocabulary(products, vocabulary.roles, vocabulary.companies)


def scope_graphs(scope: Scope) -> list[NamedNode] | None:
    """The dataset a token reads: its graphs (product graphs + org), or the whole store."""
    return None if scope is None else [NamedNode(g) for g in sorted(scope)]


def answer_page(question: str, scope: Scope, answerer: Answerer, ask_token: bool = False) -> Page:
    """The form, and for a question its answer (or abstention with its proof) and the evidence drawing."""
    question = question.strip()
    if not question:
        return Page(200, html.ask_page("", None, None, ask_token))
    try:
        parsed = parse(question, scoped_vocabulary(answerer.vocabulary, scope))
    except KGError as exc:
        return Page(400, html.message_page(400, "Not a question", f"invalid question: {exc}", ask_token))
    if parsed.product is None and scope is not None:
        return Page(
            403,
            html.message_page(403, "Not in your products", "the question names no product this token reads", ask_token),
        )
    answer = answerer.answer_parsed(parsed)
    svg = render_svg(evidence_graph(answer, answerer.backend, product_dataset(parsed.product)))
    return Page(200, html.ask_page(question, answer, inline_svg(svg), ask_token))


def artifact_view(artifact_id: str, scope: Scope, answerer: Answerer) -> dict[str, str] | None:
    """The artifact's fields (several authors joined), looked up only in the graphs of the scope."""
    rows = answerer.backend.select(named_query("page_artifact").text, {"id": Literal(artifact_id)}, scope_graphs(scope))
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


def artifact_page(artifact_id: str, scope: Scope, answerer: Answerer) -> Page:
    view = artifact_view(artifact_id, scope, answerer)
    if view is None:
        return Page(
            404,
            html.message_page(404, "No such artifact", f"no artifact {artifact_id!r} in the products this token reads"),
        )
    return Page(200, html.artifact_page(view))
