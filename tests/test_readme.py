"""The README stays short and true: at most 200 lines, every link resolves, the figures are today's store's, and
every `kg ask` it shows prints what it shows (lines cut with "…" aside)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from pyoxigraph import Store

from kg.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def shown_asks() -> list[tuple[list[str], list[str]]]:
    """Each `$ kg ask …` in the README's text blocks: its arguments and the output lines it shows."""
    blocks = re.findall(r"```text\n(.*?)```", README, flags=re.S)
    asks = []
    for block in blocks:
        lines = block.splitlines()
        if lines and lines[0].startswith("$ kg ask "):
            asks.append((shlex.split(lines[0].removeprefix("$ kg ")), lines[1:]))
    return asks


def test_the_readme_is_at_most_200_lines() -> None:
    assert len(README.splitlines()) <= 200


def test_every_relative_link_in_the_readme_resolves() -> None:
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    local = [t for t in targets if not t.startswith(("http://", "https://"))]
    assert local, "the README links into docs/"
    assert [t for t in local if not (ROOT / t).exists()] == []


def test_every_relative_link_in_the_docs_resolves() -> None:
    """The detail moved out of the README keeps its links: each docs page's relative links resolve."""
    broken = [
        f"{page.name}: {target}"
        for page in sorted((ROOT / "docs").glob("*.md"))
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8"))
        if not target.startswith(("http://", "https://", "mailto:")) and not (page.parent / target).exists()
    ]
    assert broken == []


def test_the_readme_test_commands_use_the_registered_slow_marker() -> None:
    assert '.venv/bin/pytest -q -m "not slow"' in README and ".venv/bin/pytest -q" in README
    assert '"slow: ' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


@pytest.mark.herb
def test_the_quad_count_is_what_a_build_makes(store: Path) -> None:
    stated = re.search(r"writes ([\d,]+) quads", README)
    assert stated is not None
    assert int(stated.group(1).replace(",", "")) == len(Store.read_only(str(store)))


@pytest.mark.herb
@pytest.mark.parametrize(("args", "shown"), shown_asks(), ids=lambda v: v[1][:40] if v and v[0] == "ask" else "")
def test_each_kg_ask_in_the_readme_prints_what_it_shows(
    args: list[str], shown: list[str], store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main([*args, "--store", str(store)])
    out = capsys.readouterr().out.splitlines()
    for line in shown:
        if "…" not in line:
            assert line in out, f"README shows {line!r}; kg ask prints:\n" + "\n".join(out)
