"""The answer page's HTML: plain markup with a little inline CSS, every value escaped; no script."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from kg.page.evidence import artifact_href
from kg.qa.answer import Answer
from kg.query.people import shown_value
from kg.text import plural

STYLE = """
body{font-family:Helvetica,Arial,sans-serif;max-width:1100px;margin:1.5em auto;padding:0 1em;color:#222}
h1{font-size:1.4em} h2{font-size:1.1em;margin-top:1.4em} form{display:flex;gap:.5em;flex-wrap:wrap}
input[type=text]{flex:1;min-width:20em;padding:.4em;font-size:1em} button{padding:.4em 1em;font-size:1em}
.abstain{color:#8a3a00} .meta{color:#666;font-size:.9em} pre{background:#f5f5f5;padding:.6em;overflow:auto}
ul.citations{columns:2;font-family:monospace} table{border-collapse:collapse} td,th{padding:.2em .6em;
text-align:left;border-bottom:1px solid #ddd} figure{margin:0;overflow:auto;border:1px solid #ddd}
.text{white-space:pre-wrap;background:#f8f8f8;padding:.8em}
"""


def document(title: str, body: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{STYLE}</style></head><body>{body}</body></html>\n"
    )


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


def answer_section(a: Answer) -> str:
    meta = (
        f'<p class="meta">intent: {escape(a.intent or "-")} · type: {escape(a.type)} · slots: '
        f"{escape(json.dumps(a.slots, ensure_ascii=False))}</p>"
    )
    if a.abstain:
        parts = [
            f'<section id="answer" class="abstain"><h2>Abstained</h2><p id="reason">{escape(a.reason or "")}</p>',
            meta,
        ]
        if a.proof:
            parts += [
                f"<h2>Proof: <code>{escape(a.proof['query'])}</code> → {escape(str(a.proof['result']))}</h2>",
                bindings_table(a.proof.get("bindings", {})),
                f'<pre id="proof">{escape(a.proof.get("text", ""))}</pre>',
            ]
        return "".join(parts) + "</section>"
    values = a.answer if isinstance(a.answer, list) else [a.answer or ""]
    items = "".join(f"<li>{escape(shown_value(v, a.people))}</li>" for v in values)
    cites = "".join(f'<li><a class="citation" href="{artifact_href(c)}">{escape(c)}</a></li>' for c in a.citations)
    return (
        f'<section id="answer"><h2>Answer</h2><ul class="values">{items}</ul>{meta}'
        f"<h2>Evidence: {plural(len(a.citations), 'artifact')}</h2>"
        f'<ul class="citations">{cites}</ul></section>'
    )


def ask_page(question: str, answer: Answer | None, svg: str | None, ask_token: bool) -> str:
    body = [f"<h1>Ask the enterprise knowledge graph</h1>{question_form(question, ask_token)}"]
    if answer is not None:
        body.append(answer_section(answer))
    if svg:
        body.append(f'<h2>Evidence graph</h2><figure id="evidence">{svg}</figure>')
    return document(f"kg: {question}" if question else "kg: ask", "".join(body))


def artifact_page(row: dict[str, str]) -> str:
    fields = [
        ("kind", row.get("kind")),
        ("product", row.get("product")),
        ("author", row.get("author")),
        ("time", row.get("created")),
        ("channel", row.get("channel")),
        ("url", row.get("url")),
    ]
    cells = "".join(f'<tr><th>{k}</th><td id="{k}">{escape(v or "-")}</td></tr>' for k, v in fields)
    text = escape(row.get("text") or "(no text)")
    return document(
        f"kg: {row['id']}",
        f'<p><a href="/ask">← ask</a></p><h1 id="artifact-id">{escape(row["id"])}</h1>'
        f'<table>{cells}</table><h2>Text</h2><div class="text" id="text">{text}</div>',
    )


def message_page(status: int, title: str, message: str, ask_token: bool = False) -> str:
    return document(
        f"kg: {title}",
        f'<h1>{escape(title)}</h1><p id="message">{escape(message)}</p>'
        f"{question_form('', ask_token) if status in (401, 403) else ''}",
    )
