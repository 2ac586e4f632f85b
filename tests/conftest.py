"""Shared fixtures: the real HERB data (skipped with a reason when absent) and one real store per session."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kg.ingest.build import build
from kg.qa.answer import Answerer
from kg.query.sparql import EmbeddedStore

ROOT = Path(__file__).resolve().parent.parent


def _herb() -> Path | None:
    path = Path(os.environ.get("HERB_DATA") or ROOT.parent / "shared" / "herb")
    return path if (path / "products").is_dir() else None


@pytest.fixture(scope="session")
def herb() -> Path:
    path = _herb()
    if path is None:
        pytest.skip("HERB data not found: set HERB_DATA or place it at ../shared/herb")
    return path


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
