"""Product file names that cannot be products' are refused at build (issue 24): a reserved graph's name (the
organisation graph, which every token reads), a name that would be percent-encoded in its graph IRI, and a
products/X.json that is not a regular file (a FIFO hung the build)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from herbkit import herb_layout, small_product

from kg.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def product(herb: Path) -> dict:
    return small_product(herb, per_kind=2)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("org", "'org' is reserved for the organisation graph"),
        ("Org", "'Org' is reserved for the organisation graph"),
        ("Two Words", "may only use ASCII letters, digits"),
        ("a>b", "may only use ASCII letters, digits"),
        ("Caf%C3%A9", "may only use ASCII letters, digits"),
        ("Café", "may only use ASCII letters, digits"),
    ],
)
def test_a_product_file_that_cannot_name_a_product_is_refused(
    herb: Path, product: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, message: str
) -> None:
    layout = herb_layout(tmp_path / "herb", herb, {"Good": product, name: product})
    store = tmp_path / "store"
    code = main(["build", "--herb", str(layout), "--store", str(store)])
    err = capsys.readouterr().err
    assert code == 2 and message in err and f"{name}.json" in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not store.exists(), "nothing was built"


def test_a_fifo_product_file_is_refused_not_waited_on(herb: Path, product: dict, tmp_path: Path) -> None:
    layout = herb_layout(tmp_path / "herb", herb, {"Good": product})
    os.mkfifo(layout / "products" / "Stuck.json")
    done = subprocess.run(
        [sys.executable, "-m", "kg", "build", "--herb", str(layout), "--store", str(tmp_path / "store")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Stuck.json: not a regular file" in done.stderr and "Traceback" not in done.stderr
