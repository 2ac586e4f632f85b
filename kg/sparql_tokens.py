"""A SPARQL 1.1 tokenizer: enough grammar to find keywords and IRIs, never fooled by strings or comments.

The remote client uses it to find the outermost WHERE group when inlining a VALUES block, and `kg query
--endpoint` to tell a query's form. It is a lexer, not a parser: it never decides whether a query is valid
(the engine does that), only where the tokens are. The endpoint does not use it: its checks read no SPARQL.

The one context-sensitive token is `<`: an IRI start or the less-than operator. Inside parentheses, right
after an operand, it is the operator (`FILTER(?a<?b*'>"')` is a comparison, not an IRI), as in the grammar.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_PN_CHARS_BASE = (
    "A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D"
    "\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\U00010000-\U000EFFFF"
)
_VAR_CHARS = _PN_CHARS_BASE + "_0-9\u00B7\u0300-\u036F\u203F-\u2040"
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


def binding_points(query: str) -> list[int]:
    """Where a VALUES block must go to bind variables as substitution would: first in the outermost WHERE
    group, and first in the WHERE group of every sub-SELECT (a sub-select has its own variable scope, so an
    outer VALUES would not reach a parameter it uses)."""
    toks = list(tokens(query))
    points = [where_group_start(query)]
    braces = 0
    for i, tok in enumerate(toks):
        if tok.is_keyword("SELECT") and braces > 0:
            points.append(_first_group_after(toks, i))
        if tok.kind == "punct":
            braces += (tok.text == "{") - (tok.text == "}")
    return points


def _first_group_after(toks: list[Token], i: int) -> int:
    """Offset inside the first `{` at the SELECT's own nesting level: its WHERE group."""
    braces = parens = 0
    for tok in toks[i + 1:]:
        if tok.kind != "punct":
            continue
        if tok.text == "{" and braces == 0 and parens == 0:
            return tok.start + 1
        braces += (tok.text == "{") - (tok.text == "}")
        parens += (tok.text == "(") - (tok.text == ")")
    raise ValueError("a sub-select has no WHERE group")


def where_group_start(query: str) -> int:
    """Offset just inside the `{` that opens the query's outermost WHERE group (where VALUES can go first)."""
    braces, parens, form, opened = 0, 0, None, []
    toks = list(tokens(query))
    for i, tok in enumerate(toks):
        if form is None and tok.is_keyword("SELECT", "ASK", "CONSTRUCT", "DESCRIBE"):
            form = tok.text.upper()
        if braces == 0 and parens == 0 and tok.is_keyword("WHERE"):
            if form == "CONSTRUCT" and i and toks[i - 1].is_keyword("CONSTRUCT"):
                raise ValueError("CONSTRUCT WHERE {..} cannot take bindings: use CONSTRUCT {..} WHERE {..}")
            if i + 1 < len(toks) and toks[i + 1].text == "{":
                return toks[i + 1].start + 1
        if tok.kind == "punct":
            if tok.text == "{" and braces == 0 and parens == 0:
                opened.append(tok.start + 1)
            braces += (tok.text == "{") - (tok.text == "}")
            parens += (tok.text == "(") - (tok.text == ")")
    wanted = 2 if form == "CONSTRUCT" else 1
    if len(opened) < wanted:
        raise ValueError("the query has no WHERE group to bind parameters in")
    return opened[wanted - 1]
