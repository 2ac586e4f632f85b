"""Every `# example:` line of `sparql/*.rq` runs on the built store, as pyoxigraph runs its doc examples.

An example is one of five forms, each run the way a reader would:
- `kg ask "QUESTION"`: the question is read as an intent whose row names this query (as its SELECT, whose
  proof is `X.ask.rq`, or as its evidence);
- `kg query sparql/X.rq [--product P] [--bind k=v]…`: the command prints at least one row;
- `kg search …` and `kg validate …`: the command succeeds (search over an index of the products it names);
- `ASK [over P's dataset] [with ?k = v, …] [-> true|false][; note]`: the query runs with those bindings (each a
  documented parameter) over P's dataset or the whole store, and gives the stated result where one is stated.
"""

from __future__ import annotations

import re
import shlex
import shutil
from functools import cache
from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode

from kg.cli import main
from kg.namespaces import expand
from kg.qa.answer import Answerer
from kg.qa.intents import Intent, as_of, load_intents
from kg.query.sparql import EmbeddedStore, NamedQuery, Term, library, product_dataset
from kg.search.index import build_index
from kg.vocab import XSD_BOOLEAN, XSD_DATETIME

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = re.compile(r"^#\s*example\s*:\s*(.*)$", re.M)
ASK_EXAMPLE = re.compile(r"^ASK (?:over (\w+)'s dataset)? ?(?:with )?(.*)$")
BINDING = re.compile(r"\?(\w+) = (\"[^\"]*\"|<[^>]*>|[^\s,;]+)")
#: The products the `kg search` examples name; only these are indexed.
SEARCHED = ("ActionGenie", "AnomalyForce")
#: Queries naming this class read the ERB sources' records: their examples run on the `erb_store` fixture.
ERB_CLASS = "ekg:SourceRecord"

pytestmark = pytest.mark.herb


def examples() -> list[tuple[NamedQuery, str]]:
    return [(q, text.strip()) for q in library().values() for text in EXAMPLE.findall(q.text)]


EXAMPLES = examples()


def kind_of(example: str) -> str:
    return "ASK" if example.startswith("ASK ") else " ".join(example.split()[:2])


def of_kind(kind: str) -> list[tuple[NamedQuery, str]]:
    return [(q, e) for q, e in EXAMPLES if kind_of(e) == kind]


def ids(pairs: list[tuple[NamedQuery, str]]) -> list[str]:
    return [q.name for q, _ in pairs]


#: Examples whose run takes over ~10 s (an index of the whole store, a validation of it): out of the quick loop.
SLOW = {"search_graph_edges", "validate_focus_nodes"}


def params(pairs: list[tuple[NamedQuery, str]]) -> list[object]:
    return [pytest.param(q, e, id=q.name, marks=[pytest.mark.slow] if q.name in SLOW else []) for q, e in pairs]


def test_every_example_has_a_form_this_module_runs() -> None:
    kinds = {kind_of(e) for _, e in EXAMPLES}
    assert kinds <= {"ASK", "kg ask", "kg query", "kg search", "kg validate"}, kinds
    assert len(EXAMPLES) >= len(library())


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, f"kg {' '.join(argv)} exited {code}: {err}"
    return out


ASKED = of_kind("kg ask")


@pytest.mark.parametrize(("query", "example"), ASKED, ids=ids(ASKED))
def test_a_kg_ask_example_is_answered_with_its_query(query: NamedQuery, example: str, answerer: Answerer) -> None:
    question = next(word for word in shlex.split(example)[2:] if not word.startswith("--"))
    answer = answerer.ask(question)
    row = intent_rows().get(answer.intent or "")
    names = {row.query, *row.evidence, *([row.every] if row.every else [])} if row else set()
    assert query.name.removesuffix(".ask") in names, (
        f"{example!r} was read as {answer.intent}, whose row names neither {query.path.name} nor its SELECT"
    )


@cache
def intent_rows() -> dict[str, Intent]:
    """Every intent row by name, its timed form ("asof_…") included."""
    rows = load_intents()
    return {r.name: r for r in [*rows, *filter(None, map(as_of, rows))]}


QUERIED = of_kind("kg query")


@pytest.mark.parametrize(("query", "example"), params(QUERIED))
def test_a_kg_query_example_prints_rows(
    query: NamedQuery,
    example: str,
    store: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    monkeypatch.chdir(ROOT)  # the example names the file as sparql/X.rq
    if ERB_CLASS in query.text:  # a query over the ERB sources' records runs where they are built
        store = request.getfixturevalue("erb_store")
    out = run_cli([*shlex.split(example)[1:], "--store", str(store)], capsys)
    assert len(out.splitlines()) > 2, f"{example!r} printed no row"  # a header, its rule, then rows


@pytest.fixture(scope="module")
def indexed(store: Path, herb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the store with a search index of the products the search examples name."""
    copy = tmp_path_factory.mktemp("examples") / "store"
    shutil.copytree(store, copy)
    build_index(copy, herb, products=list(SEARCHED), use_dense=False, progress=False)
    return copy


OTHER = of_kind("kg search") + of_kind("kg validate")


@pytest.mark.parametrize(("query", "example"), params(OTHER))
def test_a_kg_search_or_validate_example_runs(
    query: NamedQuery, example: str, store: Path, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = shlex.split(example)[1:]
    if argv[0] == "search":
        assert argv[argv.index("--product") + 1] in SEARCHED
        argv += ["--store", str(request.getfixturevalue("indexed")), "--no-log"]
    else:
        argv += ["--store", str(store)]
    assert run_cli(argv, capsys).strip()


def value(text: str) -> Term:
    """An ASK example's value as the answerer binds it: "text", <IRI>, prefix:name, a date-time or a boolean."""
    if text.startswith('"'):
        return Literal(text[1:-1])
    if text.startswith("<"):
        return NamedNode(text[1:-1])
    if text in ("true", "false"):
        return Literal(text, datatype=XSD_BOOLEAN)
    if re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:]+", text):
        return Literal(text, datatype=XSD_DATETIME)
    assert expand(text) != text, f"{text!r} is neither a literal, an IRI nor a known prefix"
    return NamedNode(expand(text))


ASKS = of_kind("ASK")


@pytest.mark.parametrize(("query", "example"), ASKS, ids=ids(ASKS))
def test_an_ask_example_runs_with_its_bindings(query: NamedQuery, example: str, store: Path) -> None:
    match = ASK_EXAMPLE.match(example)
    assert match, f"{example!r}: write it as ASK [over P's dataset] [with ?k = v, …] [-> true|false][; note]"
    product, rest = match.groups()
    stated, _, expected = rest.split(";")[0].partition(" -> ")
    bindings = {name: value(text) for name, text in BINDING.findall(stated)}
    assert bindings or product, f"{example!r} names neither a product nor a binding"
    assert set(bindings) <= set(query.params), f"{example!r} binds undocumented parameters"
    result = EmbeddedStore(store).ask(query.text, bindings, product_dataset(product))
    if expected:
        assert result is (expected.strip() == "true"), example
