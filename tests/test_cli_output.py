"""What the CLI prints: tables (rich; prefixed IRIs, right-aligned numbers, nothing cut), serialised results ending
with a newline, progress bars on a terminal only, each warning once in one style, truthful help, and options
that would have no effect refused."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from kg.cli import main
from kg.cli.table import format_table
from kg.ingest.build import build
from kg.ingest.rules import load_rules
from kg.qa.intents import table
from kg.search.index import build_index

KG = [sys.executable, "-m", "kg"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def tiny(herb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-product HERB copy with two malformed Slack records and one web link."""
    src = tmp_path_factory.mktemp("tiny") / "herb"
    (src / "products").mkdir(parents=True)
    (src / "metadata").symlink_to(herb / "metadata")
    data = {
        "team": [],
        "customers": [],
        "slack": [{"id": "x"}, "nonsense"],
        "documents": [],
        "meeting_transcripts": [],
        "meeting_chats": [],
        "urls": [{"id": "u1", "link": "https://a.b", "description": "the Tiny demo"}],
        "prs": [],
    }
    (src / "products" / "Tiny.json").write_text(json.dumps(data))
    return src


def on_a_terminal(argv: list[str]) -> str:
    """Run a command with its stderr on a pseudo-terminal; what it drew there."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))  # a 0x0 terminal draws no bar
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: the process ended
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=300)
    os.close(leader)
    assert proc.returncode in (0, 1), b"".join(chunks)[-500:]
    return b"".join(chunks).decode("utf-8", "replace")


def test_stats_has_named_columns_prefixed_iris_and_right_aligned_numbers(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "stats", "--store", str(store))
    assert code == 0 and "https://" not in out
    for header in (["graph", "triples"], ["class", "instances"], ["property", "edges"]):
        assert re.search(rf"^{header[0]}\s+{header[1]}$", out, re.M), header
    assert re.search(r"^graph:ActionGenie\s+[\d,]+$", out, re.M) and re.search(
        r"^ekg:SlackMessage\s+33,632$", out, re.M
    )
    for block in out.strip().split("\n\n"):
        header, _rule, *rows = block.splitlines()[1:]
        assert {len(r) for r in rows} == {len(header)}, "numbers end in the header's last column"


def test_table_folds_long_cells_on_a_terminal_and_never_cuts_them() -> None:
    long = "word " * 60
    piped = format_table(["rule", "what"], [["r", long.strip()]])
    assert long.strip() in piped and "…" not in piped
    folded = format_table(["rule", "what"], [["r", long.strip()]], width=80)
    assert max(len(line) for line in folded.splitlines()) <= 80
    assert " ".join(folded.split()).count("word") == 60


def test_rules_and_intents_show_their_whole_text(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules")
    longest = max((r.summary for r in load_rules().values()), key=len)
    assert len(longest) > 100 and longest in out
    _, out, _ = run(capsys, "intents")
    for intent in table()[1]:
        assert intent.says and intent.says in out
        assert " ".join(intent.requires) in out


@pytest.mark.parametrize("fmt, last", [("json", b"}\n"), ("xml", b">\n"), ("csv", b"\n"), ("tsv", b"\n")])
def test_query_results_end_with_a_newline(store: Path, tmp_path: Path, fmt: str, last: bytes) -> None:
    q = tmp_path / "q.rq"
    q.write_text("SELECT ?d WHERE { ?d a ekg:Document } ORDER BY ?d LIMIT 2")
    out = subprocess.run(
        [*KG, "query", str(q), "--store", str(store), "--format", fmt], capture_output=True, check=True
    ).stdout
    assert out.endswith(last) and not out.endswith(b"\n\n")


def test_build_and_validate_draw_progress_only_on_a_terminal(tiny: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    piped = subprocess.run([*KG, "build", "--herb", str(tiny), "--store", str(store)], capture_output=True, text=True)
    assert piped.returncode == 0 and "\r" not in piped.stderr and "product/s" not in piped.stderr
    shown = on_a_terminal([*KG, "build", "--herb", str(tiny), "--store", str(store)])
    assert "kg build" in shown and "kg build: every product mapped" in shown  # a line for each step after the bar
    assert "compacting the store" in shown and "swapping the new store in" in shown
    assert "kg build:" not in piped.stderr  # step lines, like bars, are for a terminal
    exported = on_a_terminal([*KG, "export", "--store", str(store), "--out", str(tmp_path / "out.nq")])
    assert "kg export: writing every graph as nquads to" in exported and "kg export: done" in exported
    piped = subprocess.run([*KG, "validate", "--store", str(store)], capture_output=True, text=True)
    assert "\r" not in piped.stderr and "graph/s" not in piped.stderr
    assert "kg validate" in on_a_terminal([*KG, "validate", "--store", str(store)])
    assert "kg validate" not in on_a_terminal([*KG, "validate", "--store", str(store), "--quiet"])


def test_each_build_warning_is_printed_once_in_one_style(tiny: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [*KG, "build", "--herb", str(tiny), "--store", str(tmp_path / "s")], capture_output=True, text=True
    )
    warnings = [line for line in done.stderr.splitlines() if "warning:" in line.lower()]
    assert len(warnings) == 2 and all(w.startswith("kg: warning: ") for w in warnings), done.stderr
    assert "WARNING" not in done.stderr and sum("slack[0]" in line for line in done.stderr.splitlines()) == 1


def test_search_help_says_dense_is_opt_in_and_dense_mode_without_it_is_an_error(
    tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    helptext = subprocess.run([*KG, "search", "--help"], capture_output=True, text=True).stdout
    assert "BM25 + dense" not in helptext and "--dense" in helptext
    store = tmp_path / "store"
    build(tiny, store, progress=False)
    build_index(store, tiny, use_dense=False, progress=False)
    code, out, err = run(capsys, "search", "Tiny demo", "--store", str(store), "--mode", "dense", "--no-log")
    assert code == 2 and out == "" and err.startswith("kg: error: --mode dense") and "--dense" in err
    code, out, _ = run(capsys, "search", "Tiny demo", "--store", str(store), "--mode", "bm25", "--no-log")
    assert code == 0 and "u1" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["ask", "Who wrote the Market Research Report for ActionGenie?", "--out", "x.jsonl"],
            "--out only works with --batch",
        ),
        (["ask", "Who wrote it?", "--token", "t"], "--token only works with --endpoint"),
        (["ask", "--batch", "in.jsonl", "--explain"], "--explain has no effect with --batch"),
        (["ask", "--batch", "in.jsonl", "--json"], "--json has no effect with --batch"),
        (["query", "q.rq", "--token", "t"], "--token only works with --endpoint"),
        (["search", "x", "--explain", "--json"], "--explain has no effect with --json"),
        (["search", "x", "--mode", "bm25", "--dense"], "--dense has no effect with --mode bm25"),
    ],
)
def test_an_option_without_effect_is_an_error(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *argv, "--store", str(tmp_path / "no-store"))
    assert code == 2 and out == "" and err.startswith("kg: error: ") and message in err
    assert not (tmp_path / "x.jsonl").exists()
