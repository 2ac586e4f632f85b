"""A SPARQL 1.1 tokenizer: enough grammar to find keywords and IRIs, never fooled by strings or comments.

The remote client uses it to substitute parameters where they are used, and `kg query --endpoint` to tell a
query's form. It is a lexer, not a parser: it never decides whether a query is valid
(the engine does that), only where the tokens are. The endpoint does not use it: its checks read no SPARQL.

The one context-sensitive token is `<`: an IRI start or the less-than operator. Inside parentheses, right
after an operand, it is the operator (`FILTER(?a<?b*'>"')` is a comparison, not an IRI), as in the grammar.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_PN_CHARS_BASE = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
_VAR_CHARS = _PN_CHARS_BASE + "_0-9\u00b7\u0300-\u036f\u203f-\u2040"
_PN_CHARS = _VAR_CHARS + "\\-"
_PLX = r"%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%]"
_PN_PREFIX = rf"[{_PN_CHARS_BASE}](?:[{_PN_CHARS}.]*[{_PN_CHARS}])?"
_PN_LOCAL = rf"(?:[{_PN_CHARS}:]|{_PLX})(?:(?:[{_PN_CHARS}.:]|{_PLX})*(?:[{_PN_CHARS}:]|{_PLX}))?"
_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"

_TOKEN = re.compile(
    rf"""
    (?P<ws>[ \t\r\n]+)
  | (?P<comment>\#[^\r\n]*)
  | (?P<iri><(?:[^<>"{{}}|^`\\\x00-\x20]|{_UCHAR})*>)
  | (?P<string>'''(?:(?:'|'')?(?:[^'\\]|\\.))*'''|\"\"\"(?:(?:"|"")?(?:[^"\\]|\\.))*\"\"\"
               |'(?:[^'\\\n\r]|\\.)*'|"(?:[^"\\\n\r]|\\.)*")
  | (?P<var>[?$][{_VAR_CHARS}]+)
  | (?P<bnode>_:[{_PN_CHARS}.]*)
  | (?P<pname>(?:{_PN_PREFIX})?:(?:{_PN_LOCAL})?)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)
  | (?P<langtag>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)
    """
    r"""| (?P<punct><=|>=|!=|&&|\|\||\^\^|<<|>>|\{\||\|\}|.)""",
    re.VERBOSE | re.DOTALL,
)
_OPERAND_END = {"var", "string", "number", "iri", "pname", "word", "bnode", "langtag"}
_LESS_THAN = re.compile(r"<=|<")


@dataclass(frozen=True)
class Token:
    kind: str  # iri, string, var, bnode, pname, word, number, langtag or punct (no whitespace, comments)
    text: str
    start: int

    def is_keyword(self, *words: str) -> bool:
        return self.kind == "word" and self.text.upper() in words


def tokens(query: str) -> Iterator[Token]:
    """The query's significant tokens, in order."""
    pos, depth, previous = 0, 0, None
    while pos < len(query):
        if query[pos] == "<" and depth and previous is not None and _ends_operand(previous):
            match = _LESS_THAN.match(query, pos)
        else:
            match = _TOKEN.match(query, pos)
        assert match is not None  # the last alternative matches any character
        kind = match.lastgroup or "punct"
        pos = match.end()
        if kind in ("ws", "comment"):
            continue
        token = Token(kind, match.group(), match.start())
        depth += token.text == "(" and kind == "punct"
        depth -= token.text == ")" and kind == "punct" and depth > 0
        previous = token
        yield token


def _ends_operand(token: Token) -> bool:
    return token.kind in _OPERAND_END or token.text in (")", "]")


def query_form(query: str) -> str | None:
    """SELECT, ASK, CONSTRUCT or DESCRIBE: the first query-form keyword (None for an update or garbage)."""
    for tok in tokens(query):
        if tok.is_keyword("SELECT", "ASK", "CONSTRUCT", "DESCRIBE"):
            return tok.text.upper()
    return None
