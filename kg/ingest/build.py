"""`kg build`: HERB -> quads (declarative mapping + named rules) -> a fresh on-disk Oxigraph store, swapped in.

The store is built in a sibling temporary directory and renamed into place only when complete, so a failed or
killed build leaves the previous store intact and usable. Building is idempotent: a full build starts from an
empty store; `--product X` copies the current store, drops X's graph (and the organisation graph) and loads
them afresh.
"""

from __future__ import annotations

import gc
import io
import logging
import multiprocessing
import os
import shutil
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from itertools import islice
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any

from pyoxigraph import Literal, NamedNode, RdfFormat, Store
from tqdm import tqdm

from kg.errors import KGError
from kg.ingest import storepath
from kg.ingest.herb import (
    Organisation,
    Product,
    load_organisation,
    load_product,
    selected_products,
)
from kg.ingest.mapping import Mapping, Statement, load_mapping, map_artifact, map_record, nquads
from kg.ingest.rules import RuleContext, run_rules
from kg.namespaces import ORG_GRAPH, node, product_graph, term
from kg.vocab import RDF_TYPE, RDFS_LABEL

log = logging.getLogger(__name__)

ORG = NamedNode(ORG_GRAPH)


@dataclass
class BuildReport:
    products: list[str] = field(default_factory=list)
    artifacts: int = 0
    quads: int = 0  #: quads the store holds once built (duplicates the rules derive twice are stored once)
    seconds: float = 0.0
    skipped: list[str] = field(default_factory=list)


def organisation_statements(mapping: Mapping, org: Organisation) -> Iterator[Statement]:
    """Employees, customers, their companies and roles, and who reports to whom, for the org graph."""
    for emp in org.employees.values():
        if isinstance(emp.get("employee_id"), str):
            yield from map_record(mapping.organisation["employees"], emp)
    for cust in org.customers.values():
        yield from map_record(mapping.organisation["customers"], cust)
    yield from reporting_statements(org.org_tree, None)


def reporting_statements(tree: Any, manager: str | None) -> Iterator[Statement]:
    """Walk salesforce_team.json's nested lists: every person under a manager ekg:reportsTo that manager."""
    if isinstance(tree, list):
        for item in tree:
            yield from reporting_statements(item, manager)
    elif isinstance(tree, dict):
        eid = tree.get("employee_id")
        if isinstance(eid, str) and manager:
            yield Statement(node("person", eid), term("ekg:reportsTo"), node("person", manager))
        for value in tree.values():
            if isinstance(value, list | dict):
                yield from reporting_statements(value, eid if isinstance(eid, str) else manager)


def roster_statements(product: Product) -> Iterator[Statement]:
    """The product, its team and its customers (the roster HERB keeps per product)."""
    prod = node("product", product.name)
    team = node("team", product.name)
    yield Statement(prod, RDF_TYPE, term("ekg:Product"))
    yield Statement(prod, RDFS_LABEL, Literal(product.name))
    yield Statement(team, RDF_TYPE, term("ekg:Team"))
    yield Statement(team, term("ekg:teamOf"), prod)
    for eid in product.team:
        yield Statement(node("person", eid), term("ekg:memberOf"), team)
    for cust in product.customers:
        yield Statement(node("customer", cust), term("ekg:customerOf"), prod)


def product_statements(mapping: Mapping, org: Organisation, product: Product) -> list[Statement]:
    """Every statement of one product's graph, once: roster, mapped artifacts, then the text-derived rules."""
    prod = node("product", product.name)
    statements = list(roster_statements(product))
    for kind, records in product.artifacts.items():
        for rec in records:
            statements.extend(map_artifact(mapping, kind, rec, prod))
    statements.extend(run_rules(RuleContext(product, org)))
    return list(dict.fromkeys(statements))  # once each: many messages of a channel restate its type and label


def product_nquads(mapping: Mapping, org: Organisation, product: Product) -> bytes:
    """One product's graph as N-Quads."""
    return nquads(product_statements(mapping, org, product), product_graph(product.name))


def artifact_count(product: Product) -> int:
    return sum(len(v) for v in product.artifacts.values())


def _open_fresh(path: Path) -> Store:
    if path.exists():
        shutil.rmtree(path)
    return Store(str(path))


def close_store(store: Store) -> None:
    """pyoxigraph releases RocksDB's lock when the Store is dropped; flush first so nothing is lost."""
    store.flush()
    del store
    gc.collect()


def swap_in(tmp: Path, target: Path) -> None:
    """Replace `target` by `tmp` with two renames; the old store is removed only once the new one is in."""
    old = target.with_name(f".{target.name}.old-{os.getpid()}")
    if target.exists():
        target.rename(old)
    tmp.rename(target)
    if old.exists():
        shutil.rmtree(old, ignore_errors=True)


def build(
    herb: Path,
    store_path: Path,
    products: list[str] | None = None,
    progress: bool = True,
    mapping: Mapping | None = None,
    jobs: int = 1,
    phase: Callable[[str], None] | None = None,
) -> BuildReport:
    """Build (or, with `products`, rebuild just those graphs of) the store at `store_path`, mapping the products
    in `jobs` processes (1: in this one). `phase` is told each step after the mapping (loading, compacting,
    swapping in), which take seconds with no product to count.

    Only an absent path, an empty folder or a store kg made is written (see kg.ingest.storepath); the build holds a
    lock beside the store, removes dead builds' leftovers, and marks the new store before swapping it in."""
    started = time.perf_counter()
    mapping = mapping or load_mapping()
    org = load_organisation(herb)
    names = selected_products(herb, products)
    if not names:
        raise KGError(f"{herb / 'products'}: no product files (*.json)")
    storepath.check_target(store_path)
    storepath.prepare_parent(store_path)
    with storepath.build_lock(store_path):
        for leftover in storepath.recover_and_clean(store_path):
            log.info("removed %s, left by a build that did not finish", leftover)
        storepath.check_target(store_path)
        report = _build_locked(herb, store_path, products, names, mapping, org, progress, jobs, phase or _silent)
    report.seconds = time.perf_counter() - started
    return report


def _build_locked(
    herb: Path,
    store_path: Path,
    products: list[str] | None,
    names: list[str],
    mapping: Mapping,
    org: Organisation,
    progress: bool,
    jobs: int,
    phase: Callable[[str], None],
) -> BuildReport:
    tmp = store_path.with_name(f".{store_path.name}.building-{os.getpid()}")
    report = BuildReport()
    try:
        with worker_pool(jobs, mapping, org, herb) as pool:
            store = _open_tmp(tmp, store_path if products else None, products or [])
            chunks = nquads_chunks(pool, jobs, mapping, org, herb, names, report, progress)
            _load_nquads(store, _then(chunks, lambda: phase("every product mapped; the store builds its indexes")))
        report.quads = len(store)
        phase(f"{report.quads:,} quads loaded; compacting the store")
        store.optimize()  # compact: a big bulk load leaves overlapping files that every later look-up consults
        close_store(store)
        phase("swapping the new store in")
        swap_in(tmp, store_path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return report


def _silent(_: str) -> None:
    """The `phase` of a caller that watches no steps."""


def _then(items: Iterator[bytes], after: Callable[[], None]) -> Iterator[bytes]:
    """The items, then `after()` once they are exhausted (the loader reads its whole input before indexing)."""
    yield from items
    after()


def _open_tmp(tmp: Path, base: Path | None, products: list[str]) -> Store:
    """The store to write: a marked copy of `base` without the graphs being rebuilt, else a fresh marked one."""
    try:
        if base is not None and base.exists():
            shutil.copytree(base, tmp)
            store = Store(str(tmp))
            for graph in [*map(product_graph, products), ORG]:
                if store.contains_named_graph(graph):
                    store.remove_graph(graph)
        else:
            store = _open_fresh(tmp)
        storepath.write_marker(tmp)
    except OSError as exc:
        raise KGError(f"cannot write the new store beside {base or tmp.parent} ({exc})") from exc
    return store


def worker_pool(jobs: int, mapping: Mapping, org: Organisation, herb: Path) -> AbstractContextManager[Pool | None]:
    """`jobs` worker processes that map products (none for one job), forked before the store opens its own
    threads, so a worker inherits no lock RocksDB may hold."""
    if jobs <= 1:
        return nullcontext()
    return multiprocessing.get_context("fork").Pool(jobs, _start_worker, (mapping, org, herb))


def nquads_chunks(
    pool: Pool | None,
    jobs: int,
    mapping: Mapping,
    org: Organisation,
    herb: Path,
    names: list[str],
    report: BuildReport,
    progress: bool,
) -> Iterator[bytes]:
    """The organisation graph, then every product's graph, as N-Quads: one stream, so the store is written in
    one bulk load (few, compacted files that read several times faster than one load per product). With a
    pool, the workers map the products while this process loads."""
    products = mapped_products(pool, jobs, mapping, org, herb, names)
    yield nquads(organisation_statements(mapping, org), ORG)
    herb_log = logging.getLogger("kg.ingest.herb")
    bar = tqdm(total=len(names), desc="kg build", unit="product", disable=not progress)
    for chunk, name, artifacts, skipped in products:
        if pool is not None:  # a worker's warnings are logged here (in this process, load_product logs them)
            for msg in skipped:
                herb_log.warning(msg)
        report.products.append(name)
        report.artifacts += artifacts
        report.skipped.extend(skipped)
        bar.set_postfix_str(name)
        bar.update()
        yield chunk
    bar.close()


#: One product mapped: its graph as N-Quads, its name, its artifact count and the records it skipped.
Mapped = tuple[bytes, str, int, list[str]]


def mapped_products(
    pool: Pool | None, jobs: int, mapping: Mapping, org: Organisation, herb: Path, names: list[str]
) -> Iterator[Mapped]:
    """Every product mapped, in this process as it is read, or by the pool. The pool gets its first tasks at
    once, so the workers start before this process maps the organisation; they take the largest products
    first, so no big product is left to one worker at the end, and at most two per worker wait here, so
    memory holds a few products, not the company."""
    if pool is None:
        return (mapped(mapping, org, load_product(herb, name)) for name in names)
    todo = iter(largest_first(herb, names))
    pending = deque(pool.apply_async(_product_nquads, (name,)) for name in islice(todo, 2 * jobs))
    return _in_turn(pool, pending, todo)


def _in_turn(pool: Pool, pending: deque[Any], todo: Iterator[str]) -> Iterator[Mapped]:
    """The pool's results in the order asked, each taken one handing the pool the next product."""
    while pending:
        done = pending.popleft().get()
        if (following := next(todo, None)) is not None:
            pending.append(pool.apply_async(_product_nquads, (following,)))
        yield done


def mapped(mapping: Mapping, org: Organisation, product: Product) -> Mapped:
    return product_nquads(mapping, org, product), product.name, artifact_count(product), product.skipped


def largest_first(herb: Path, names: list[str]) -> list[str]:
    """Product names by the size of their files, largest first (then by name): the order that keeps a pool
    busy to the end."""
    return sorted(names, key=lambda name: (-(herb / "products" / f"{name}.json").stat().st_size, name))


#: What a worker process of `nquads_chunks` maps with, set once when it starts.
_WORKER: dict[str, Any] = {}


def _start_worker(mapping: Mapping, org: Organisation, herb: Path) -> None:
    """Remember the build's inputs; the worker's skipped-record warnings are logged by the parent instead."""
    _WORKER.update(mapping=mapping, org=org, herb=herb)
    logging.getLogger("kg.ingest.herb").disabled = True


def _product_nquads(name: str) -> Mapped:
    """One product mapped in a worker."""
    return mapped(_WORKER["mapping"], _WORKER["org"], load_product(_WORKER["herb"], name))


class ChunkReader(io.RawIOBase):
    """A binary stream over an iterator of byte chunks, so the store parses each product as it arrives; an
    exception the iterator raises is kept, to be raised as itself once the loader gives up."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        super().__init__()
        self.chunks = chunks
        self.view = memoryview(b"")
        self.error: BaseException | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self.view:
            try:
                self.view = memoryview(next(self.chunks))
            except StopIteration:
                return 0
            except BaseException as exc:
                self.error = exc
                raise
        size = min(len(buffer), len(self.view))
        buffer[:size] = self.view[:size]
        self.view = self.view[size:]
        return size


def _load_nquads(store: Store, chunks: Iterator[bytes]) -> None:
    """One bulk load of the streamed N-Quads; lenient, since every term was checked when the worker made it."""
    reader = ChunkReader(chunks)
    try:
        store.bulk_load(io.BufferedReader(reader, 1 << 20), RdfFormat.N_QUADS, lenient=True)
    except BaseException as exc:
        if reader.error is not None and reader.error is not exc:
            raise reader.error from None
        if isinstance(exc, OSError):
            raise KGError(f"writing to the store failed: {exc}") from exc
        raise
