"""The answer page's HTML: plain markup with a little inline CSS, every value escaped; no script (the evidence
graph's zoom is CSS radio buttons)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from html import escape
from typing import Any
from urllib.parse import quote

from kg.page.evidence import artifact_href, person_href
from kg.qa.answer import Answer
from kg.qa.plain import reading
from kg.query.people import shown_value
from kg.text import plural

STYLE = """
body{font-family:Helvetica,Arial,sans-serif;max-width:1100px;margin:1.5em auto;padding:0 1em;color:#222}
h1{font-size:1.4em} h2{font-size:1.1em;margin-top:1.4em} form{display:flex;gap:.5em;flex-wrap:wrap}
input[type=text]{flex:1;min-width:20em;padding:.4em;font-size:1em} button{padding:.4em 1em;font-size:1em}
.abstain{color:#8a3a00} .meta{color:#666;font-size:.9em} pre{background:#f5f5f5;padding:.6em;overflow:auto}
ul.citations{columns:2;font-family:monospace} table{border-collapse:collapse} td,th{padding:.2em .6em;
text-align:left;border-bottom:1px solid #ddd} .text{white-space:pre-wrap;background:#f8f8f8;padding:.8em}
.reading{background:#eef4fb;padding:.5em .8em;border-left:4px solid #3b6ea8} nav.top{margin-bottom:.5em}
ul.examples li{margin:.25em 0} ul.products{display:flex;flex-wrap:wrap;gap:.3em .9em;list-style:none;padding:0}
.family{display:inline-block;min-width:8em;color:#666;font-size:.9em} details{margin:.6em 0}
summary{cursor:pointer;color:#3b6ea8}
.zoom{margin:.3em 0;font-size:.9em} .zoom input{margin-left:.8em}
figure{margin:0;overflow:auto;border:1px solid #ddd;max-height:80vh}
figure svg{width:min(100%,var(--w));height:auto;display:block;margin:auto}
#zoom-2:checked ~ figure svg{width:calc(2*var(--w))}
#zoom-4:checked ~ figure svg{width:calc(4*var(--w))}
ul.citations li{margin:.15em 0;break-inside:avoid} .summary{font-family:Helvetica,Arial,sans-serif;color:#555;
font-size:.9em}
"""


def document(title: str, body: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{STYLE}</style></head><body>{body}</body></html>\n"
    )


def ask_href(question: str) -> str:
    return "/ask?q=" + quote(question, safe="")


def question_form(question: str, ask_token: bool) -> str:
    token = (
        '<input type="password" name="token" id="token" placeholder="token" autocomplete="off">' if ask_token else ""
    )
    return (
        f'<form method="post" action="/ask"><input type="text" name="q" id="question" '
        f'value="{escape(question)}" placeholder="Ask about a product…" autofocus>{token}'
        '<button type="submit" id="ask">Ask</button></form>'
    )


def bindings_table(bindings: dict[str, Any]) -> str:
    rows = "".join(f"<tr><td>?{escape(k)}</td><td>{escape(str(v))}</td></tr>" for k, v in bindings.items())
    return f'<table id="bindings"><tr><th>variable</th><th>bound to</th></tr>{rows}</table>'


def reading_block(a: Answer) -> str:
    """How the question was read, in plain words; the intent and its raw slots one click away."""
    return (
        f'<p class="reading" id="reading">I read this as: {escape(reading(a))}</p>'
        f'<details id="technical"><summary>technical detail</summary><p class="meta">intent: '
        f"{escape(a.intent or '-')} · type: {escape(a.type)}</p>{bindings_table(a.slots)}</details>"
    )


def proof_block(a: Answer) -> str:
    """The ASK query that found nothing, its bindings and result, behind one click."""
    if not a.proof:
        return ""
    return (
        f'<details id="proof-details"><summary>Show the proof: <code>{escape(a.proof["query"])}</code> → '
        f"{escape(str(a.proof['result']))}</summary>{bindings_table(a.proof.get('bindings', {}))}"
        f'<pre id="proof">{escape(a.proof.get("text", ""))}</pre></details>'
    )


def abstention_section(a: Answer, question: str, summaries: Mapping[str, str]) -> str:
    return (
        f'<section id="answer" class="abstain"><h2>No answer</h2><p id="reason">{escape(plain_reason(a))}</p>'
        f"{offered_readings(a)}{reading_block(a)}{proof_block(a)}</section>"
    )


def offered_readings(a: Answer) -> str:
    """The readings an answer offers (an uncertain reading's, a product's name for a slip of it), each a link
    that asks it."""
    offered = "".join(
        f'<li><a class="reading-choice" href="{escape(ask_href(r["question"]))}">{escape(r["question"])}</a></li>'
        for r in a.readings
    )
    return f'<p>Did you mean:</p><ol id="readings">{offered}</ol>' if offered else ""


def uncertain_section(a: Answer, question: str, summaries: Mapping[str, str]) -> str:
    """An uncertain reading: no proof ran; the readings offered."""
    why = (a.reason or "").removeprefix("uncertain reading: ")
    if a.unheld:  # the proof found nothing, but the product's artifacts speak of the evidence (kg/qa/textcheck.py)
        cited = "".join(f"<li><code>{escape(c)}</code></li>" for c in a.citations)
        return (
            '<section id="answer" class="uncertain"><h2>Not sure: the artifacts speak of it</h2>'
            '<p id="reason">The graph holds no typed evidence for this question, but these artifacts speak of '
            f'it:</p><ul id="artifacts">{cited}</ul>'
            f'<details id="technical"><summary>why</summary><p class="meta">{escape(why)}</p></details></section>'
        )
    return (
        '<section id="answer" class="uncertain"><h2>Not sure how to read this</h2>'
        '<p id="reason">I could not read every part of the question with one meaning, so I did not look for an '
        f"answer or prove its absence.</p>{offered_readings(a)}"
        f'<details id="technical"><summary>why</summary><p class="meta">{escape(why)}</p></details></section>'
    )


def plain_reason(a: Answer) -> str:
    """The abstention's reason as a sentence for a reader."""
    reason = a.reason or ""
    if reason.startswith("unsupported question: it names no product"):
        return "I could not tell which product this is about; name one of your products."
    if reason.startswith("unsupported question"):
        return "I cannot answer this kind of question yet; try one of the examples."
    return reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else ".")


def answer_section(a: Answer, question: str, summaries: Mapping[str, str]) -> str:
    values = a.answer if isinstance(a.answer, list) else [a.answer or ""]
    items = "".join(value_item(v, a, question) for v in values)
    cites = "".join(
        f'<li><a class="citation" href="{escape(artifact_href(c, question))}">{escape(c)}</a>'
        + (f' <span class="summary">{escape(summaries[c])}</span>' if c in summaries else "")
        + "</li>"
        for c in a.citations
    )
    return (
        f'<section id="answer"><h2>Answer</h2><ul class="values">{items}</ul>{reading_block(a)}'
        f"<h2>Evidence: {plural(len(a.citations), 'artifact')}</h2>"
        f'<ul class="citations">{cites}</ul></section>'
    )


def value_item(value: str, a: Answer, question: str) -> str:
    """An answer value; a person as name, role and eid, linked to their page."""
    if value in a.people:
        href = escape(person_href(value, question))
        return f'<li><a class="person" href="{href}">{escape(shown_value(value, a.people))}</a></li>'
    return f"<li>{escape(value)}</li>"


#: How each outcome of a question is shown. A new outcome adds its name to `outcome` and a renderer here.
#: Each takes the answer, the question and the cited artifacts' summaries (kg.page.evidence.artifact_summaries).
OUTCOMES: dict[str, Callable[[Answer, str, Mapping[str, str]], str]] = {
    "answer": answer_section,
    "absent": abstention_section,
    "unsupported": abstention_section,
    "uncertain": uncertain_section,
}


def outcome(a: Answer) -> str:
    return a.outcome


def evidence_figure(svg: str) -> str:
    """The drawing with CSS-only zoom (fit, 2×, 4×); the figure scrolls."""
    radios = "".join(
        f'<input type="radio" name="zoom" id="zoom-{n}"{" checked" if n == 1 else ""}>'
        f'<label for="zoom-{n}">{text}</label>'
        for n, text in ((1, "fit"), (2, "2×"), (4, "4×"))
    )
    return (
        f'<h2>Evidence graph</h2><div class="zoom-box"><span class="zoom">zoom:</span>{radios}'
        f'<figure id="evidence">{svg}</figure></div>'
    )


def start_block(products: list[str], product: str | None, examples: list[tuple[str, str]]) -> str:
    """The products the token reads and example questions for one of them (the empty page's invitation)."""
    if not products:
        return '<p id="hint">Give your token and a question to begin.</p>'
    listed = "".join(
        f'<li><a href="/ask?product={quote(p, safe="")}"{" class=current" if p == product else ""}>{escape(p)}</a></li>'
        for p in products
    )
    asked = "".join(
        f'<li><span class="family">{escape(family)}</span> <a class="example" href="{escape(ask_href(q))}">'
        f"{escape(q)}</a></li>"
        for family, q in examples
    )
    tried = (
        f'<h2>Try a question about {escape(product)}</h2><ul class="examples" id="examples">{asked}</ul>'
        if product
        else ""
    )
    return f'{tried}<h2>Your products ({len(products)})</h2><ul class="products" id="products">{listed}</ul>'


def per_product_block(a: Answer) -> str:
    """For a question across products: each product's own answer (its outcome, how many items and artifacts),
    linked to that product's question, where its citations or its proof are shown; and a ranking's counts."""
    if not a.cross or not a.cross.get("parts"):
        return ""
    rows = "".join(
        f'<li><a class="part" href="{escape(ask_href(p["asked"]))}">{escape(p["product"])}</a>: {escape(p["outcome"])}'
        + (f", {plural(len(p['answer']), 'item')}" if isinstance(p["answer"], list) else "")
        + f", {plural(len(p['citations']), 'artifact')}</li>"
        for p in a.cross["parts"]
    )
    ranked = ", ".join(f"{escape(p)} {n}" for p, n in a.cross.get("ranked", []))
    shown = f'<p class="ranked">Ranked: {ranked}</p>' if ranked else ""
    return f'<section id="per-product"><h2>Per product</h2><ul class="parts">{rows}</ul>{shown}</section>'


def ask_page(
    question: str,
    answer: Answer | None,
    svg: str | None,
    ask_token: bool,
    start: str = "",
    summaries: Mapping[str, str] | None = None,
) -> str:
    body = [
        '<nav class="top"><a href="/ask">ask</a> · <a href="/">SPARQL query page</a></nav>',
        f"<h1>Ask the enterprise knowledge graph</h1>{question_form(question, ask_token)}",
    ]
    if answer is not None:
        body.append(OUTCOMES[outcome(answer)](answer, question, summaries or {}))
        body.append(per_product_block(answer))
    if svg:
        body.append(evidence_figure(svg))
    body.append(start)
    return document(f"kg: {question}" if question else "kg: ask", "".join(body))


#: Slack's link markup: `<https://…|label>` or `<https://…>`
SLACK_LINK = re.compile(r"&lt;(https?://[^|&\s]+)(?:\|([^&]*))?&gt;")


def linked_text(text: str) -> str:
    """Escaped text with Slack's `<url|label>` links made into links (the URL escaped, no script scheme)."""
    return SLACK_LINK.sub(
        lambda m: f'<a href="{m.group(1)}" rel="noopener noreferrer">{m.group(2) or m.group(1)}</a>', escape(text)
    )


def artifact_page(row: dict[str, str], question: str = "") -> str:
    fields = [
        ("kind", row.get("kind")),
        ("product", row.get("product")),
        ("author", row.get("author")),
        ("time", row.get("created")),
        ("channel", row.get("channel")),
        ("url", row.get("url")),
    ]
    cells = "".join(f'<tr><th>{k}</th><td id="{k}">{escape(v or "-")}</td></tr>' for k, v in fields)
    text = linked_text(row.get("text") or "(no text)")
    back = ask_href(question) if question else "/ask"
    return document(
        f"kg: {row['id']}",
        f'<p><a id="back" href="{escape(back)}">← ask</a></p><h1 id="artifact-id">{escape(row["id"])}</h1>'
        f'<table>{cells}</table><h2>Text</h2><div class="text" id="text">{text}</div>',
    )


def person_page(person: dict[str, str], artifacts: list[dict[str, str]], question: str = "") -> str:
    """An employee: who they are, and the artifacts attributed to them in the products the token reads."""
    fields = [
        ("name", person.get("name")),
        ("role", person.get("role")),
        ("eid", person["eid"]),
        ("unit", person.get("unit")),
        ("location", person.get("location")),
        ("reports to", person.get("manager")),
    ]
    cells = "".join(f'<tr><th>{k}</th><td id="{k.replace(" ", "-")}">{escape(v or "-")}</td></tr>' for k, v in fields)
    items = "".join(
        f'<li><a class="citation" href="{escape(artifact_href(a["id"], question or None))}">{escape(a["id"])}</a> '
        f'<span class="meta">{escape(a["kind"])} {escape(a.get("created", ""))}</span></li>'
        for a in artifacts
    )
    return document(
        f"kg: {person.get('name') or person['eid']}",
        f'<p><a id="back" href="{escape(ask_href(question) if question else "/ask")}">← ask</a></p>'
        f'<h1 id="person-name">{escape(person.get("name") or person["eid"])}</h1>'
        f"<table>{cells}</table><h2>{plural(len(artifacts), 'artifact')} attributed (newest first)</h2>"
        f'<ul id="artifacts">{items}</ul>',
    )


def message_page(status: int, title: str, message: str, ask_token: bool = False) -> str:
    return document(
        f"kg: {title}",
        f'<h1>{escape(title)}</h1><p id="message">{escape(message)}</p>'
        f"{question_form('', ask_token) if status in (401, 403) else ''}",
    )
