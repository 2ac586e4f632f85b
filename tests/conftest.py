"""Shared fixtures: the real HERB data (skipped with a reason when absent) and one real store per session."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import NoReturn

import pytest
from hypothesis import settings

from kg.ingest.build import build
from kg.paths import ERB_URL, HERB_URL
from kg.qa.answer import Answerer
from kg.query.sparql import EmbeddedStore

ROOT = Path(__file__).resolve().parent.parent

#: No per-example deadline for property-based tests: hypothesis's default (200 ms) measures the machine, and a
#: test must pass on one eight times slower than a quiet one. The number of examples stays each test's own.
settings.register_profile("ekg", deadline=None)
settings.load_profile("ekg")


#: Set to 1 by `.ci/run`: a test that needs the data and cannot find it fails instead of skipping, so CI cannot
#: pass on a machine without ../shared. Without it, a user without the data gets skips that say where to get it.
REQUIRE_DATA = "EKG_REQUIRE_DATA"


def _herb() -> Path | None:
    path = Path(os.environ.get("HERB_DATA") or ROOT.parent / "shared" / "herb")
    return path if (path / "products").is_dir() else None


def erb_data() -> Path | None:
    path = Path(os.environ.get("ERB_DATA") or ROOT.parent / "shared" / "erb")
    return path if (path / "jira").is_dir() else None


def missing_data(name: str, variable: str, url: str) -> NoReturn:
    """Skip (or, under EKG_REQUIRE_DATA=1, fail) a test whose data is absent, saying where to get it."""
    where = f"../shared/{name.lower()}"
    message = f"{name} data not found: download it from {url} and set {variable}=PATH or place it at {where}"
    if os.environ.get(REQUIRE_DATA) == "1":
        pytest.fail(f"{message} ({REQUIRE_DATA}=1: the data is required)", pytrace=False)
    pytest.skip(f"{message} ({REQUIRE_DATA}=1 turns this skip into a failure)")


def require_herb() -> Path:
    return _herb() or missing_data("HERB", "HERB_DATA", HERB_URL)


def require_erb() -> Path:
    return erb_data() or missing_data("ERB", "ERB_DATA", ERB_URL)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """The `herb` and `erb` markers: the test needs that data."""
    if item.get_closest_marker("herb"):
        require_herb()
    if item.get_closest_marker("erb"):
        require_erb()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files holding a slow test first, then the rest, each group by its number of tests (most first), a file's
    tests kept together in their order. The workers take a file at a time in this order (--dist loadfile, with
    xdist's own reordering by size off in pyproject.toml): a long file started last would run alone at the end
    while the other worker idles; quick files fill in the end instead."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    size = Counter(item.path for item in items)
    items.sort(key=lambda item: (item.path not in slow, -size[item.path]))


@pytest.fixture(scope="session")
def herb() -> Path:
    return require_herb()


@pytest.fixture(scope="session")
def store(herb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """All 30 products built once into a real on-disk Oxigraph store (about 5 s)."""
    path = tmp_path_factory.mktemp("kg") / "store"
    build(herb, path, progress=False)
    return path


@pytest.fixture(scope="session")
def answerer(store: Path) -> Answerer:
    return Answerer(EmbeddedStore(store))


@pytest.fixture(scope="session")
def dev_store(herb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of exactly the products the dev questions are about (for the engine tests, which load it into
    Virtuoso: a third of the company loads in a third of the time)."""
    dev = herb / "qa" / "dev"
    products = sorted(
        {
            json.loads(line)["product"]
            for name in ("answerable.jsonl", "unanswerable.jsonl")
            for line in (dev / name).open()
        }
    )
    path = tmp_path_factory.mktemp("dev-store") / "store"
    build(herb, path, products=products, progress=False)
    return path


@pytest.fixture(scope="session")
def erb_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ERB sample built the steward's way into its own store: `kg align --target ontology`, every row
    approved by `kg align review`, then `kg build --source erb` (about 10 s)."""
    from kg.cli import main

    erb = require_erb()
    folder = tmp_path_factory.mktemp("erb")
    proposed, approved, path = folder / "proposed.tsv", folder / "approved.tsv", folder / "store"
    assert main(["align", "--erb", str(erb), "--target", "ontology", "--out", str(proposed)]) == 0
    assert (
        main(["align", "review", str(proposed), "--reviewer", "orcid:0000-0002-1825-0097", "--out", str(approved)]) == 0
    )
    assert main(["build", "--source", "erb", "--erb", str(erb), "--mapping", str(approved), "--store", str(path)]) == 0
    return path
