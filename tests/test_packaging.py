"""A plain, non-editable install works from any folder: the wheel built from this checkout, installed without
extras into a fresh venv, builds a product's graph, answers a question, serves the store and answers over it
(the query library, the ontology and the mapping are package data), and a command whose extra is missing names
the extra. About half a minute, most of it pip (from its cache after the first run)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from test_serve import free_port

ROOT = Path(__file__).resolve().parent.parent
#: What a wheel is built from (setup.py maps sparql/, ontology/ and mappings/ into the package).
SOURCES = ["kg", "alignment", "sparql", "ontology", "mappings", "setup.py", "pyproject.toml", "README.md"]
PRODUCT = "ActionGenie"
QUESTION = (
    "Find employee IDs of the authors and key reviewers of the Market Research Report for the ActionGenie product?"
)

pytestmark = [pytest.mark.herb, pytest.mark.slow]


def run(*cmd: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `bin/` of a fresh venv holding the wheel of this checkout and its core dependencies only."""
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"
    skip = shutil.ignore_patterns("__pycache__")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=skip)
        else:
            shutil.copy(ROOT / name, src / name)
    built = run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", work / "dist", src, cwd=work)
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "dist").glob("ekg_toolkit-*.whl")
    venv = work / "venv"
    assert run(sys.executable, "-m", "venv", venv, cwd=work).returncode == 0
    done = run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel, cwd=work)
    assert done.returncode == 0, done.stderr
    return venv / "bin"


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A working folder with no checkout in or above it."""
    return tmp_path_factory.mktemp("elsewhere")


@pytest.fixture(scope="module")
def built(installed: Path, elsewhere: Path, herb: Path) -> Path:
    result = run(
        installed / "kg", "build", "--herb", herb, "--product", PRODUCT, "--store", "s", "--quiet", cwd=elsewhere
    )
    assert result.returncode == 0, result.stderr
    assert "built 1 product graph(s)" in result.stdout
    return elsewhere / "s"


def test_the_wheel_has_no_extras_and_ships_its_data(installed: Path) -> None:
    probe = (
        "import importlib.util as u, kg.paths as p; "
        "print(*(u.find_spec(m) is None for m in ('pandas', 'sssom', 'curies', 'owlready2')), p.resource('sparql'))"
    )
    out = run(installed / "python", "-c", probe, cwd=installed).stdout.split()
    assert out[:4] == ["True"] * 4, "an extra's package came with the plain install"
    assert Path(out[4]).parent.parent.name == "site-packages" and Path(out[4], "document_author.rq").is_file()


def test_an_installed_kg_builds_and_answers_from_another_folder(installed: Path, elsewhere: Path, built: Path) -> None:
    result = run(installed / "kg", "ask", "--store", built, "--json", QUESTION, cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert not answer["abstain"] and "eid_d96fb219" in answer["answer"] and answer["citations"]


@pytest.fixture(scope="module")
def served(installed: Path, elsewhere: Path, built: Path) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [installed / "kg", "serve", "--store", built, "--port", str(port)], cwd=elsewhere, stderr=subprocess.PIPE
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            try:
                requests.get(f"{url}/query", timeout=1)
                break
            except requests.ConnectionError:
                assert time.monotonic() < deadline, "kg serve did not start within 60 s"
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_an_installed_kg_serves_and_answers_over_its_endpoint(installed: Path, elsewhere: Path, served: str) -> None:
    result = run(installed / "kg", "ask", "--endpoint", f"{served}/query", "--json", QUESTION, cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    assert "eid_d96fb219" in json.loads(result.stdout)["answer"]


def test_a_command_whose_extra_is_missing_names_it(installed: Path, elsewhere: Path) -> None:
    result = run(installed / "kg", "align", "--erb", elsewhere, cwd=elsewhere)
    assert (result.returncode, result.stderr) == (
        2,
        "kg: error: kg align needs the [align] extra: pip install ekg-toolkit[align]\n",
    )
    assert run(installed / "kg", "--help", cwd=elsewhere).returncode == 0  # every command's module imports


def test_the_wheel_installs_exactly_the_cards_two_packages(installed: Path, elsewhere: Path) -> None:
    """The design card's layout: the wheel adds the import names `kg` and `alignment` and nothing else (no `ekg`);
    the command is `kg` and the distribution `ekg-toolkit`."""
    probe = "import kg, alignment, importlib.util as u; print(kg.__version__, u.find_spec('ekg'))"
    result = run(installed / "python", "-c", probe, cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    version, ekg_spec = result.stdout.split()
    assert ekg_spec == "None" and version.count(".") == 2
    (record,) = (installed.parent / "lib").glob("python3*/site-packages/ekg_toolkit-*.dist-info/top_level.txt")
    assert sorted(record.read_text().split()) == ["alignment", "kg"]
