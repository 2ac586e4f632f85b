"""`kg build`: HERB -> quads (declarative mapping + named rules) -> a fresh on-disk Oxigraph store, swapped in.

The store is built in a sibling temporary directory and renamed into place only when complete, so a failed or
killed build leaves the previous store intact and usable. Building is idempotent: a full build starts from an
empty store; `--product X` copies the current store, drops X's graph (and the organisation graph) and loads
them afresh.
"""

from __future__ import annotations

import gc
import logging
import os
import shutil
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyoxigraph import Literal, NamedNode, Quad, Store
from tqdm import tqdm

from kg.errors import KGError
from kg.ingest import storepath
from kg.ingest.herb import Organisation, Product, iter_products, load_organisation, product_names
from kg.ingest.mapping import Mapping, load_mapping, map_artifact, map_record
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


def organisation_quads(mapping: Mapping, org: Organisation) -> Iterator[Quad]:
    """Employees, customers, their companies and roles, and who reports to whom, in the org graph."""
    for emp in org.employees.values():
        if isinstance(emp.get("employee_id"), str):
            yield from map_record(mapping.organisation["employees"], emp, ORG)
    for cust in org.customers.values():
        yield from map_record(mapping.organisation["customers"], cust, ORG)
    yield from reporting_quads(org.org_tree, None)


def reporting_quads(tree: Any, manager: str | None) -> Iterator[Quad]:
    """Walk salesforce_team.json's nested lists: every person under a manager ekg:reportsTo that manager."""
    if isinstance(tree, list):
        for item in tree:
            yield from reporting_quads(item, manager)
    elif isinstance(tree, dict):
        eid = tree.get("employee_id")
        if isinstance(eid, str) and manager:
            yield Quad(node("person", eid), term("ekg:reportsTo"), node("person", manager), ORG)
        for value in tree.values():
            if isinstance(value, list | dict):
                yield from reporting_quads(value, eid if isinstance(eid, str) else manager)


def roster_quads(product: Product, graph: NamedNode) -> Iterator[Quad]:
    """The product, its team and its customers (the roster HERB keeps per product)."""
    prod = node("product", product.name)
    team = node("team", product.name)
    yield Quad(prod, RDF_TYPE, term("ekg:Product"), graph)
    yield Quad(prod, RDFS_LABEL, Literal(product.name), graph)
    yield Quad(team, RDF_TYPE, term("ekg:Team"), graph)
    yield Quad(team, term("ekg:teamOf"), prod, graph)
    for eid in product.team:
        yield Quad(node("person", eid), term("ekg:memberOf"), team, graph)
    for cust in product.customers:
        yield Quad(node("customer", cust), term("ekg:customerOf"), prod, graph)


def product_quads(mapping: Mapping, org: Organisation, product: Product) -> list[Quad]:
    """Every quad of one product's named graph: roster, mapped artifacts, then the text-derived rules."""
    graph = product_graph(product.name)
    prod = node("product", product.name)
    quads = list(roster_quads(product, graph))
    for kind, records in product.artifacts.items():
        for rec in records:
            quads.extend(map_artifact(mapping, kind, rec, graph, prod))
    quads.extend(run_rules(RuleContext(product, org, graph)))
    return quads


def artifact_count(product: Product) -> int:
    return sum(len(v) for v in product.artifacts.values())


def _open_fresh(path: Path) -> Store:
    if path.exists():
        shutil.rmtree(path)
    return Store(str(path))


def _close(store: Store) -> None:
    """pyoxigraph releases RocksDB's lock when the Store is dropped; flush first so nothing is lost."""
    store.flush()
    del store
    gc.collect()


def _swap_in(tmp: Path, target: Path) -> None:
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
) -> BuildReport:
    """Build (or, with `products`, rebuild just those graphs of) the store at `store_path`.

    Only an absent path, an empty folder or a store kg made is written (see kg.ingest.storepath); the build holds a
    lock beside the store, removes dead builds' leftovers, and marks the new store before swapping it in."""
    started = time.perf_counter()
    mapping = mapping or load_mapping()
    org = load_organisation(herb)
    names = products or product_names(herb)
    if not names:
        raise KGError(f"{herb / 'products'}: no product files (*.json)")
    storepath.check_target(store_path)
    storepath.prepare_parent(store_path)
    with storepath.build_lock(store_path):
        for leftover in storepath.recover_and_clean(store_path):
            log.info("removed %s, left by a build that did not finish", leftover)
        storepath.check_target(store_path)
        report = _build_locked(herb, store_path, products, names, mapping, org, progress)
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
) -> BuildReport:
    tmp = store_path.with_name(f".{store_path.name}.building-{os.getpid()}")
    report = BuildReport()
    try:
        store = _open_tmp(tmp, store_path if products else None, products or [])
        _load(store, all_quads(mapping, org, herb, names, report, progress))
        report.quads = len(store)
        _close(store)
        _swap_in(tmp, store_path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return report


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


def all_quads(
    mapping: Mapping, org: Organisation, herb: Path, names: list[str], report: BuildReport, progress: bool
) -> Iterator[Quad]:
    """The organisation graph, then every product's graph, lazily — one stream, so the store is written in one
    bulk load (few, compacted files that read several times faster than one load per product)."""
    yield from organisation_quads(mapping, org)
    bar = tqdm(iter_products(herb, names), total=len(names), desc="kg build", unit="product", disable=not progress)
    for product in bar:
        bar.set_postfix_str(product.name)
        yield from product_quads(mapping, org, product)
        report.products.append(product.name)
        report.artifacts += artifact_count(product)
        report.skipped.extend(product.skipped)


def _load(store: Store, quads: Iterable[Quad]) -> None:
    try:
        store.bulk_extend(quads)
    except OSError as exc:
        raise KGError(f"writing to the store failed: {exc}") from exc
