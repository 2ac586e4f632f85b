"""The SPARQL library (`sparql/*.rq`) and the backends that run it: the embedded store or any endpoint.

Each `.rq` file starts with a header comment::

    # intent: what the query answers
    # param ?doc: IRI of the document (bound by substitution)
    # example: kg query sparql/doc_reviewers.rq --bind doc=https://w3id.org/ekg/id/artifact/x

Queries are written against the DEFAULT graph and never name a product graph: the caller scopes a query to a
product by choosing the dataset (the product's named graph plus the organisation graph). Embedded, that is
pyoxigraph's `default_graph=`; remote, the SPARQL 1.1 Protocol's `default-graph-uri`. Parameters are bound with
pyoxigraph substitutions (SEP-0007), never pasted into the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from pyoxigraph import (
    BlankNode,
    Literal,
    NamedNode,
    QueryBoolean,
    QuerySolutions,
    QueryTriples,
    Store,
    Triple,
    Variable,
)

from kg.errors import KGError
from kg.namespaces import ORG_GRAPH, PREFIXES, product_graph, product_of_graph
from kg.paths import resource
from kg.text import closest

SPARQL_DIR = resource("sparql")
Term = NamedNode | Literal | BlankNode
Row = dict[str, Term]
_PARAM = re.compile(r"^#\s*param\s+\?(\w+)\s*:?\s*(.*)$")
_HEADER = re.compile(r"^#\s*(intent|example)\s*:\s*(.*)$")


@dataclass(frozen=True)
class NamedQuery:
    name: str
    text: str
    intent: str
    params: dict[str, str]
    example: str
    path: Path


def parse_query_file(path: Path) -> NamedQuery:
    text = path.read_text(encoding="utf-8")
    params: dict[str, str] = {}
    header: dict[str, str] = {}
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        if match := _PARAM.match(line):
            params[match.group(1)] = match.group(2).strip()
        elif match := _HEADER.match(line):
            header[match.group(1)] = match.group(2).strip()
    return NamedQuery(path.stem, text, header.get("intent", ""), params, header.get("example", ""), path)


@cache
def library(directory: Path = SPARQL_DIR) -> dict[str, NamedQuery]:
    """Every query in `sparql/`, by file stem (`doc_reviewers.ask.rq` -> `doc_reviewers.ask`)."""
    return {p.name[:-3]: parse_query_file(p) for p in sorted(directory.glob("*.rq"))}


def named_query(name: str) -> NamedQuery:
    try:
        return library()[name]
    except KeyError as exc:
        raise KGError(f"no query named {name!r} in {SPARQL_DIR}") from exc


def product_dataset(product: str | None, org: bool = True) -> list[NamedNode] | None:
    """The graphs a product-scoped query sees: the product's own graph and (unless a query is known never to
    read it, an intent row's `org = false`) the organisation graph."""
    if product is None:
        return None
    return [product_graph(product), NamedNode(ORG_GRAPH)] if org else [product_graph(product)]


class Backend(Protocol):
    """What the QA and CLI layers need from a SPARQL engine. A deployment of shards (`ShardedBackend`) also has
    `products()` (its placement's products) and `product_groups(products)` (the same, grouped by shard), so the
    product list and the vocabulary's datasets never take a query over several shards."""

    #: Where the data is (a store path or an endpoint URL), for error messages.
    location: str
    #: Whether a token's grant may hide graphs the data holds: a product the backend does not show is then no
    #: evidence of absence, so a question naming none it shows is an error, never an abstention.
    hides_graphs: bool

    def select(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> list[Row]: ...

    def ask(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> bool: ...

    def construct(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> list[Triple]: ...

    def run(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> QuerySolutions | QueryBoolean | Iterable[Triple]:
        """Any query form: SELECT solutions, an ASK boolean, or a CONSTRUCT / DESCRIBE query's triples."""
        ...


def known_products(backend: Backend) -> list[str]:
    """The products whose graph the data holds under the name `kg build` gives it (`qa_products.rq`). A
    deployment of shards lists its own (`ShardedBackend.products`; each replica is checked to hold its shard's)."""
    if (listed := getattr(backend, "products", None)) is not None:
        return listed()
    rows = backend.select(named_query("qa_products").text)
    return sorted({r["label"].value for r in rows if r["graph"] == product_graph(r["label"].value)})


def record_graphs(backend: Backend) -> list[str]:
    """The names of the graphs holding source records (`erb-jira`, ...: `kg build --source erb`), which grants
    and record-scoped questions name as they name products (`record_graphs.rq`)."""
    rows = backend.select(named_query("record_graphs").text)
    return sorted({p for r in rows if isinstance(g := r["graph"], NamedNode) and (p := product_of_graph(g.value))})


def check_product(backend: Backend, product: str | None) -> None:
    """A product scope must name a product the data holds: a misspelt one would silently read the organisation
    graph alone."""
    if product is None:
        return
    known = known_products(backend)
    if product not in known:
        close = closest(product, known)
        hint = f"; did you mean {' or '.join(close)}?" if close else f"; known products: {', '.join(known)}"
        raise KGError(f"unknown product {product!r} at {backend.location}{hint}")


def prefixed(query: str) -> str:
    """Prepend the project's PREFIX declarations the query does not declare itself."""
    declared = set(re.findall(r"(?im)^\s*PREFIX\s+(\w*):", query))
    head = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items() if p not in declared)
    return head + query


def term_text(term: Any) -> str:
    """An IRI's or a literal's text; anything else (a blank node, a plain value) as a string."""
    return term.value if isinstance(term, Literal | NamedNode) else str(term)


def solutions(result: object) -> QuerySolutions:
    """A SELECT query's solutions (pyoxigraph's `Store.query` is typed as returning any query form)."""
    if not isinstance(result, QuerySolutions):
        raise KGError("expected a SELECT query")
    return result


def solution_rows(result: object) -> list[Row]:
    """A SELECT result as rows of bound variables (unbound ones left out), whichever backend ran it."""
    result = solutions(result)
    names = [v.value for v in result.variables]
    # A solution iterates its values in variable order; indexing it by name twice per cell costs twice as much.
    return [{n: v for n, v in zip(names, s, strict=True) if v is not None} for s in result]


def boolean(result: object) -> bool:
    if not isinstance(result, QueryBoolean):
        raise KGError("expected an ASK query")
    return bool(result)


class RunBackend:
    """`select` and `ask` for a backend whose `run` answers every query form: one adaptor for the embedded store
    and the federation, not a copy in each."""

    def run(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> object:
        raise NotImplementedError

    def select(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> list[Row]:
        return solution_rows(self.run(query, bindings, graphs))

    def ask(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> bool:
        return boolean(self.run(query, bindings, graphs))


def read_only_store(path: Path) -> Store:
    """The store at `path` opened read-only; a folder that cannot be opened, or a damaged store (RocksDB reports
    corruption as RuntimeError), is a one-line KGError."""
    try:
        return Store.read_only(str(path))
    except OSError as exc:
        raise KGError(f"cannot open the store at {path}: {exc}") from exc
    except RuntimeError as exc:
        raise KGError(f"the store at {path} is damaged ({exc}); rebuild it with `kg build`") from exc


class EmbeddedStore(RunBackend):
    """The on-disk Oxigraph store, opened read-only so queries never block (or damage) a build."""

    hides_graphs = False  # every graph the store holds is read

    def __init__(self, path: Path) -> None:
        if not path.exists():
            raise KGError(f"no store at {path}: run `kg build` first (or pass --store PATH / set KG_STORE)")
        self.store = read_only_store(path)
        self.location = str(path)
        self.index_dir: Path | None = path  # the search index `kg index` writes beside the store

    def run(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> QuerySolutions | QueryBoolean | QueryTriples:
        """Any query form (SELECT, ASK, CONSTRUCT, DESCRIBE) over the whole store or a product's dataset.

        A product's dataset is its default graph and nothing else: no named graphs, as the SPARQL Protocol
        defines a request that gives only `default-graph-uri` (so `kg serve` and other engines agree). The
        project's prefixes are given to the parser, not prepended, so error positions match the user's text.
        """
        subs: dict[Variable, Term | Triple] = {Variable(k): v for k, v in (bindings or {}).items()}
        dataset = (
            {"use_default_graph_as_union": True} if graphs is None else {"default_graph": graphs, "named_graphs": []}
        )
        try:
            return self.store.query(query, prefixes=PREFIXES, substitutions=subs, **dataset)
        except SyntaxError as exc:
            raise KGError(f"SPARQL syntax error: {exc}") from exc
        except RuntimeError as exc:
            raise KGError(f"query failed: {_unbindable(exc, bindings)}") from exc
        except OSError as exc:
            raise KGError(f"query failed: {exc}") from exc

    def construct(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> list[Triple]:
        """The triples of a CONSTRUCT or DESCRIBE query."""
        result = self.run(query, bindings, graphs)
        if not isinstance(result, QueryTriples):
            raise KGError("expected a CONSTRUCT or DESCRIBE query")
        return list(result)


def _unbindable(exc: RuntimeError, bindings: Mapping[str, Term] | None) -> str:
    """pyoxigraph's refusal to bind a variable the result does not carry, with what to do about it."""
    message = str(exc)
    if bindings and "SELECT projection" in message:
        return (
            f"{message}: pyoxigraph binds (SEP-0007) only variables the query's result carries; add the "
            "variable to the SELECT list, or for ASK use it in a graph pattern (or `VALUES ?var { UNDEF }`)"
        )
    return message
