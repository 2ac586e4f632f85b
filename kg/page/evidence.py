"""The evidence subgraph of an answer: the answer, its values, its cited artifacts and the typed edges
(read from the graph by `sparql/page_evidence_edges.rq`) that tie each artifact to a value or to another
cited artifact. Drawn by Graphviz `dot` as SVG."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from functools import cache
from html import escape
from pathlib import Path
from urllib.parse import quote, unquote

import pyoxigraph
from pyoxigraph import Literal, NamedNode

from kg.errors import KGError
from kg.namespaces import EKG, curie
from kg.paths import open_output, output_path, resource
from kg.qa.answer import Answer, term_text
from kg.query.sparql import Backend, named_query, product_dataset
from kg.text import normalise, plural

#: Artifact nodes (an artifact, or a conversation's cited messages) drawn at most; the others are summed up
#: in one node, so the picture stays readable.
MAX_DRAWN = 16
IN_CONVERSATION = EKG + "inConversation"
#: The label of the answer's edges to its values
ANSWERS = "answer"
_FIXED_SIZE = re.compile(r'width="([\d.]+)pt" height="[\d.]+pt"')
#: Answer types whose plural does not take -s.
PLURALS = {"person": "people", "company": "companies"}
#: Characters of an artifact's text shown as its snippet in the evidence list.
SNIPPET = 140
RDFS_LABEL = NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
#: Node styles by role: (shape, fill colour).
STYLES = {
    "answer": ("box", "#fde9c9"),
    "value": ("box", "#dbe9f6"),
    "artifact": ("note", "#dcefd9"),
    "derived": ("box", "#f9d9d9"),
    "more": ("plaintext", "#ffffff"),
}


@dataclass(frozen=True)
class Node:
    key: str
    label: str
    role: str
    href: str | None = None


@dataclass
class EvidenceGraph:
    nodes: dict[str, Node] = field(default_factory=dict)
    #: (source, target) -> the edge's labels, in first-seen order
    edges: dict[tuple[str, str], dict[str, None]] = field(default_factory=dict)
    #: Edges laid out source -> target but read target -> source (the arrow points back: a bug, drawn after the
    #: engineer who resolved it, points at them: "bug resolved by")
    backward: set[tuple[str, str]] = field(default_factory=set)

    def add(self, node: Node) -> str:
        self.nodes.setdefault(node.key, node)
        return node.key

    def link(self, source: str, target: str, label: str) -> None:
        self.edges.setdefault((source, target), {})[label] = None


@cache
def term_labels() -> dict[str, str]:
    """The rdfs:label of every term the ontology declares (its own and the reused ones): the drawing and the
    evidence list say "was attributed to" and "Slack message", not prov:wasAttributedTo and ekg:SlackMessage."""
    path = resource("ontology") / "ekg.ttl"
    return {
        t.subject.value: t.object.value
        for t in pyoxigraph.parse(path=str(path), format=pyoxigraph.RdfFormat.TURTLE)
        if t.predicate == RDFS_LABEL and isinstance(t.subject, NamedNode) and isinstance(t.object, Literal)
    }


def readable(iri: str) -> str:
    """A term's label in the ontology, else its compact name."""
    return term_labels().get(iri) or curie(iri)


def artifact_summaries(citations: list[str], backend: Backend, graphs: list[NamedNode] | None) -> dict[str, str]:
    """{cited id: its kind and title, or the opening of its text}: the evidence list's words beside each id."""
    query = named_query("page_artifact_summary").text
    found = {}
    for cite in citations:
        rows = backend.select(query, {"id": Literal(cite)}, graphs)
        if rows:
            row = rows[0]
            words = term_text(row["title"]) if "title" in row else " ".join(term_text(row.get("opening", "")).split())
            words = words if len(words) <= SNIPPET else words[: SNIPPET - 1].rstrip() + "…"
            found[cite] = f"{readable(term_text(row['kind']))}: {words}" if words else readable(term_text(row["kind"]))
    return found


def answer_values(answer: Answer) -> list[str]:
    if answer.abstain or answer.answer is None:
        return []
    return answer.answer if isinstance(answer.answer, list) else [answer.answer.splitlines()[0][:80]]


def value_label(value: str, answer: Answer) -> str:
    """An answer value's node label: a person as name, role and eid on three lines."""
    person = answer.people.get(value)
    if person is None:
        return value
    return "\n".join(x for x in (person.get("name"), person.get("role"), value) if x)


def local_name(iri: str) -> str:
    return unquote(iri.rstrip("/").rsplit("/", 1)[-1])


def artifact_href(cite: str, question: str | None = None) -> str:
    """The artifact's page; with the question, so its "← ask" link leads back to the answer."""
    return "/artifact/" + quote(cite, safe="") + (f"?q={quote(question, safe='')}" if question else "")


def evidence_graph(
    answer: Answer, backend: Backend, graphs: list[NamedNode] | None, question: str | None = None
) -> EvidenceGraph:
    """The answer node, a node per value and per cited artifact, and the typed edges between them.

    Cited messages of one conversation are one node (`conversation: 5 messages`), so a thread does not fill the
    picture; at most MAX_DRAWN artifact nodes are drawn and the rest are summed up as "and N more". An
    artifact's own edges are drawn; only when it has none to the answer's nodes are the edges of the nodes
    derived from it (a review, a suggestion, a bug event) drawn instead, from the artifact and named after both
    (`DocumentReview reviewedBy`). Parallel edges are merged, their labels listed; `cites` is drawn for an
    artifact that no typed edge ties to the answer. People link to their page, artifacts to theirs (carrying
    `question`, so the page can lead back to it).
    """
    g = EvidenceGraph()
    shown = answer_values(answer)
    root = g.add(Node("answer", root_label(answer, len(shown)), "answer"))
    if answer.abstain:
        proof = answer.proof or answer.unheld or {}
        g.link(
            root,
            g.add(Node("proof", f"{proof.get('query', '-')} -> {proof.get('result', '-')}", "derived")),
            wrapped("abstains: " + (answer.reason or ""), 40),
        )
        return g
    values = {
        normalise(v): g.add(
            Node(
                f"value:{v}", value_label(v, answer), "value", person_href(v, question) if v in answer.people else None
            )
        )
        for v in shown
    }
    for key in values.values():
        g.link(root, key, ANSWERS)
    query = named_query("page_evidence_edges").text
    rows = {c: backend.select(query, {"id": Literal(c)}, graphs) for c in answer.citations}
    ties = item_ties(answer, backend, graphs)
    groups = artifact_groups(answer.citations, rows)
    read = {t.cite for t in ties}  # with items, the artifacts they were read from (the rest summed up)
    drawn = [(k, m) for k, m in groups.items() if not read or read.intersection(m)][:MAX_DRAWN]
    cited = {
        member: g.add(Node(f"artifact:{key}", group_label(members), "artifact", artifact_href(members[0], question)))
        for key, members in drawn
        for member in members
    }
    through_items = draw_items(g, ties, values, cited)
    for cite, key in cited.items():
        if key in through_items:  # drawn as value -> item -> artifact
            continue
        direct, derived = tied_edges(rows[cite], key, values, cited)
        for target, prop in direct or derived:
            g.link(key, target, prop)
    for key in dict.fromkeys(cited.values()):
        if not any(source == key or target == key for source, target in g.edges):
            g.link(root, key, "cites")
    if hidden := len(answer.citations) - len(cited):
        g.link(root, g.add(Node("more", f"and {plural(hidden, 'more artifact')}", "more")), "cites")
    return g


@dataclass(frozen=True)
class Tie:
    """An item (a bug, a pull request) an answer value is tied to (resolved it, is affected by it, wrote it) and
    the cited artifact it was read from."""

    value: str
    item: str
    #: what the item is, in words ("bug", "pull request")
    kind: str
    title: str
    how: str
    cite: str


def item_ties(answer: Answer, backend: Backend, graphs: list[NamedNode] | None) -> list[Tie]:
    """The items (bugs, pull requests) the cited artifacts stand for, tied to the answer's values by the relation
    the intent's own query uses (a resolver by `ekg:BugResolved`, a company by `ekg:affectsCustomer`, an author
    by `prov:wasAttributedTo`): what makes the answer, drawn between the value and its artifacts and counted on
    the value."""
    values = {normalise(v): v for v in answer_values(answer)}
    asked = " ".join(answer.queries)
    query = named_query("page_evidence_items").text
    ties = []
    for cite in answer.citations:
        for row in backend.select(query, {"id": Literal(cite)}, graphs):
            how = term_text(row["tie"])
            if curie(how) not in asked:
                continue
            names = (local_name(term_text(row["other"])), term_text(row["key"]) if "key" in row else "")
            value = next((values[normalise(n)] for n in names if normalise(n) in values), None)
            if value is not None:
                said = readable(how) + (" by" if "agent" in row else "")  # an event's agent: "bug resolved by"
                kind = readable(term_text(row["itemKind"]))
                ties.append(Tie(value, term_text(row["item"]), kind, term_text(row["title"]), said, cite))
    return ties


def draw_items(g: EvidenceGraph, ties: list[Tie], values: dict[str, str], cited: dict[str, str]) -> set[str]:
    """Value -> item -> artifact for the first MAX_DRAWN items (the rest summed up), and each value's count of
    items of each kind; returns the artifact nodes now drawn through an item."""
    if not ties:
        return set()
    counts: dict[tuple[str, str], dict[str, None]] = {}
    for tie in ties:
        counts.setdefault((tie.value, tie.kind), {})[tie.item] = None
    for (value, kind), items in counts.items():
        key = values[normalise(value)]
        node = g.nodes[key]
        hows = ", ".join(dict.fromkeys(t.how for t in ties if t.value == value and t.kind == kind))
        g.nodes[key] = Node(node.key, f"{node.label}\n{plural(len(items), kind)} ({hows})", node.role, node.href)
    drawn_items = list(dict.fromkeys(t.item for t in ties))[:MAX_DRAWN]
    through = set()
    for tie in ties:
        if tie.item not in drawn_items:
            continue
        item = g.add(Node(f"item:{tie.item}", wrapped(tie.title), "derived"))
        g.link(values[normalise(tie.value)], item, tie.how)
        g.backward.add((values[normalise(tie.value)], item))
        if tie.cite in cited:
            g.link(item, cited[tie.cite], "read from")
            through.add(cited[tie.cite])
    if hidden := len({t.item for t in ties}) - len(drawn_items):
        g.link("answer", g.add(Node("more-items", f"and {plural(hidden, 'more item')}", "more")), "makes")
    return through


def wrapped(text: str, width: int = 28) -> str:
    """A title on lines of about `width` characters, so an item's box stays narrow."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines)


def root_label(answer: Answer, values: int) -> str:
    """The answer node's words: how many of what it answers ("answer: 6 persons"), or that it found none."""
    if answer.abstain:
        return "no answer\n(proof of absence)"
    if answer.type == "content":
        return "answer"
    noun = answer.type if values == 1 else PLURALS.get(answer.type, answer.type + "s")
    return f"answer: {values} {noun}"


def artifact_groups(citations: list[str], rows: dict[str, list[dict]]) -> dict[str, list[str]]:
    """Citations grouped by the conversation their message belongs to (others stand alone), in citation order."""
    groups: dict[str, list[str]] = {}
    for cite in citations:
        conversation = next((term_text(r["other"]) for r in rows[cite] if term_text(r["p"]) == IN_CONVERSATION), None)
        groups.setdefault(conversation or cite, []).append(cite)
    return groups


def group_label(members: list[str]) -> str:
    """An artifact's id, or for a conversation its message count and first message."""
    if len(members) == 1:
        return members[0]
    return f"conversation: {plural(len(members), 'message')}\nfrom {members[0]}"


def person_href(eid: str, question: str | None = None) -> str:
    """The person's page; with the question, so its "← ask" link leads back to the answer."""
    return "/person/" + quote(eid, safe="") + (f"?q={quote(question, safe='')}" if question else "")


def tied_edges(
    rows: list[dict], key: str, values: dict[str, str], cited: dict[str, str]
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(target, label) of the artifact's own edges and of its derived nodes' edges to drawn nodes."""
    direct, derived = [], []
    for row in rows:
        target = _target(row, values, cited)
        if target is None or target == key:
            continue
        prop = readable(term_text(row["p"]))
        if term_text(row["via"]) == term_text(row["artifact"]):
            direct.append((target, prop))
        else:
            derived.append((target, f"{readable(term_text(row['viaKind']))}: {prop}"))
    return direct, derived


def _target(row: dict, values: dict[str, str], cited: dict[str, str]) -> str | None:
    """The drawn node an edge's far end stands for: an answer value or another cited artifact."""
    other = term_text(row["other"])
    for name in (local_name(other), term_text(row["key"]) if "key" in row else None):
        if name is None:
            continue
        if normalise(name) in values:
            return values[normalise(name)]
        if name in cited:
            return cited[name]
    return None


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def dot_source(g: EvidenceGraph) -> str:
    lines = [
        "digraph evidence {",
        '  graph [rankdir=LR, fontname="Helvetica", nodesep=0.15, ranksep=0.6];',
        '  node [fontname="Helvetica", fontsize=14, style=filled];',
        '  edge [fontname="Helvetica", fontsize=11, color="#3b6ea8", fontcolor="#1f3f66", arrowsize=0.6];',
    ]
    ids = {key: f"n{i}" for i, key in enumerate(g.nodes)}
    for key, node in g.nodes.items():
        shape, fill = STYLES[node.role]
        href = f', href={_quoted(node.href)}, target="_top"' if node.href else ""
        lines.append(f'  {ids[key]} [label={_quoted(node.label)}, shape={shape}, fillcolor="{fill}"{href}];')
    lines += [
        f"  {ids[s]} -> {ids[t]} [{edge_style(labels)}{', dir=back' if (s, t) in g.backward else ''}];"
        for (s, t), labels in g.edges.items()
    ]
    lines.append("}")
    return "\n".join(lines) + "\n"


def edge_style(labels: dict[str, None]) -> str:
    """An edge's label; the answer's edges to its values are drawn light and unlabelled (the values' boxes say
    what they are), so the typed edges stand out."""
    if list(labels) == [ANSWERS]:
        return 'color="#b8c4d0", arrowsize=0.4'
    return f"label={_quoted(chr(10).join(labels))}"


def render_svg(g: EvidenceGraph) -> str:
    """The drawing as an SVG document (Graphviz `dot`, installed from Debian's `graphviz`)."""
    dot = shutil.which("dot")
    if dot is None:
        raise KGError("drawing the evidence needs Graphviz `dot` on PATH (Debian: apt-get install graphviz)")
    done = subprocess.run([dot, "-Tsvg"], input=dot_source(g).encode(), capture_output=True, check=False)
    if done.returncode != 0:
        raise KGError(f"Graphviz failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout.decode("utf-8")


def inline_svg(svg: str) -> str:
    """The SVG element alone, to put inside an HTML page (no XML declaration or DOCTYPE)."""
    start = svg.find("<svg")
    if start < 0:
        return escape(svg)
    # its drawn width as a CSS variable: "fit" shows it at that size or narrower (never blown up), 2× and 4× at
    # twice and four times it; the viewBox keeps the proportions once the fixed size is gone
    return _FIXED_SIZE.sub(lambda m: f'style="--w:{m.group(1)}pt"', svg[start:], count=1)


def write_evidence_svg(answer: Answer, backend: Backend, target: Path, force: bool = False) -> None:
    """`kg ask --graph out.svg`: the same drawing the answer page shows (replacing a file only with `force`)."""
    output_path(target, force)
    svg = render_svg(evidence_graph(answer, backend, product_dataset(answer.slots.get("product"))))
    with open_output(target, force=force) as fh:
        fh.write(svg)
