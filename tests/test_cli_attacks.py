"""Issue 24's CLI findings: each hostile input gives one `kg: error:` line and exit 2, never a traceback, a
segfault, a hang or an outgoing connection. Commands that could crash run as subprocesses, so a crash fails the
test instead of killing pytest. Every socket is on 127.0.0.1."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from herbkit import herb_layout, small_product
from test_serve import ALPHA_TOKEN, ROOT, TOKENS, fixture_store, start_server

from alignment.fields import read_json as read_erb_json
from kg.errors import KGError
from kg.query.remote import RemoteEndpoint

HUGE = "1" * 5000  # past Python's 4,300-digit limit for int() of a string


def kg(*args: str | Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "kg", *map(str, args)], cwd=ROOT, input=stdin, capture_output=True, timeout=120
    )


def one_error(done: subprocess.CompletedProcess[bytes], *needles: str) -> None:
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2, (done.returncode, err)
    assert err.startswith("kg: error:") and err.count("\n") == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fixture_store(tmp_path_factory.mktemp("cli-attacks"))


# --- integers past 4,300 digits, deep YAML ---------------------------------------------------------------


def test_a_huge_integer_in_a_product_file_is_one_error(herb: Path, tmp_path: Path) -> None:
    product = json.dumps(small_product(herb, per_kind=1))
    layout = herb_layout(tmp_path / "herb", herb, {"Huge": product[:-1] + f', "extra": {HUGE}}}'})
    one_error(kg("build", "--herb", layout, "--store", tmp_path / "store"), "Huge.json: not valid JSON")


def test_a_huge_integer_in_a_batch_line_fails_that_line_only(store_dir: Path, tmp_path: Path) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text(f'{{"question": {HUGE}}}\n{{"question": "Who wrote the Alpha design?"}}\n')
    done = kg("ask", "--batch", src, "--out", out, "--store", store_dir)
    assert b"Traceback" not in done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 2 and "not a JSON object" in records[0]["error"] and "error" not in records[1]


@pytest.mark.parametrize(
    "text",
    [f'"tok-12345": {HUGE}\n', "tok-12345: " + "[" * 20000 + "]" * 20000 + "\n", f"tok-12345: [{HUGE}]\n"],
    ids=["huge-int", "deep-yaml", "huge-int-in-list"],
)
def test_a_hostile_access_file_is_one_error(store_dir: Path, tmp_path: Path, text: str) -> None:
    access = tmp_path / "access.yaml"
    access.write_text(text)
    one_error(kg("serve", "--store", store_dir, "--port", "0", "--access", access), "access file")


def test_a_huge_integer_in_an_erb_file_is_skipped_with_a_warning(tmp_path: Path) -> None:
    bad = tmp_path / "record.json"
    bad.write_text(f'{{"id": {HUGE}}}')
    warnings: list[str] = []
    assert read_erb_json(bad, warnings) is None
    assert warnings and "record.json: skipped, not valid JSON" in warnings[0]


# --- kg serve's arguments ---------------------------------------------------------------------------------


def test_a_port_out_of_range_is_one_error(store_dir: Path) -> None:
    one_error(kg("serve", "--store", store_dir, "--port", "99999"), "--port 99999")


def test_an_empty_store_folder_is_one_error_without_a_worker_traceback(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    one_error(kg("serve", "--store", tmp_path / "empty", "--port", "0"), "cannot open the store")


# --- kg query ------------------------------------------------------------------------------------------------


def test_stdin_that_is_not_utf8_is_one_error(store_dir: Path) -> None:
    one_error(kg("query", "-", "--store", store_dir, stdin=b"ASK { } # \xff\xfe"), "standard input")


def test_a_bound_iri_that_is_no_iri_is_one_error(store_dir: Path) -> None:
    done = kg("query", "-", "--store", store_dir, "--bind", "x=<not an iri>", stdin=b"SELECT ?x { }")
    one_error(done, "--bind")


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * WHERE " + "{ " * 100000 + "}" * 100000,
        "ASK { FILTER(1" + "+1" * 100000 + " > 0) }",
        "SELECT * WHERE " + "{" * 20000 + "}" * 20000,  # within the size budget
        "ASK { FILTER(1" + "+1" * 15000 + " > 0) }",
    ],
    ids=["100k-braces", "100k-plus", "20k-braces", "15k-plus"],
)
def test_deep_nesting_is_refused_before_the_parser(store_dir: Path, query: str) -> None:
    one_error(kg("query", "-", "--store", store_dir, stdin=query.encode()), "limit")


def test_service_on_the_local_store_is_refused_and_never_connects(store_dir: Path) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        listener.settimeout(0.5)
        port = listener.getsockname()[1]
        for spelling in ("SERVICE", "service", "\\u0053ERVICE"):
            query = f"SELECT * WHERE {{ {spelling} <http://127.0.0.1:{port}/sparql> {{ ?s ?p ?o }} }}"
            one_error(kg("query", "-", "--store", store_dir, stdin=query.encode()), "SERVICE")
        with pytest.raises(TimeoutError):
            listener.accept()  # nothing connected


# --- kg ask ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(store_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    access = tmp_path_factory.mktemp("cli-attacks-access") / "access.json"
    access.write_text(json.dumps(TOKENS))
    yield from start_server(store_dir, "--access", str(access))


def test_a_question_about_a_product_outside_the_token_is_an_error_not_an_abstention(server: str) -> None:
    for product in ("Beta", "NoSuchProduct"):
        done = kg("ask", f"Who wrote the {product} design?", "--endpoint", f"{server}/query", "--token", ALPHA_TOKEN)
        one_error(done, "names no product")
        assert b"ABSTAIN" not in done.stdout


def test_a_binary_question_in_argv_is_an_error(store_dir: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kg", "ask", b"Who wrote the Alpha \xff\xfe design?", "--store", str(store_dir)],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
    )
    one_error(done, "not valid UTF-8")


class Flood(BaseHTTPRequestHandler):
    """An endpoint that answers every POST with 4 MiB, with a Content-Length or chunked (path /chunked)."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        chunk = b" " * (1 << 16)
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        if self.path == "/chunked":
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for _ in range(64):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_header("Content-Length", str(64 * len(chunk)))
            self.end_headers()
            for _ in range(64):
                self.wfile.write(chunk)

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.parametrize("path", ["/sized", "/chunked"])
def test_the_client_refuses_a_response_past_its_cap(path: str) -> None:
    flood = ThreadingHTTPServer(("127.0.0.1", 0), Flood)
    thread = threading.Thread(target=flood.serve_forever, daemon=True)
    thread.start()
    try:
        endpoint = RemoteEndpoint(f"http://127.0.0.1:{flood.server_address[1]}{path}", max_response=1 << 20)
        with pytest.raises(KGError, match="sent more than 1 MiB"):
            endpoint.ask("ASK {}")
    finally:
        flood.shutdown()
        flood.server_close()


# --- issue 36: input files, output files, a damaged store ------------------------------------------------------


def fifo(tmp_path: Path) -> Path:
    """A named pipe no one writes to: opening it for reading used to wait for a writer forever."""
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def qa_folder(tmp_path: Path) -> Path:
    """A --qa folder with the two files `kg eval` looks for (the rewordings are refused before they are read)."""
    qa = tmp_path / "qa"
    qa.mkdir(exist_ok=True)
    for name in ("answerable.jsonl", "unanswerable.jsonl"):
        (qa / name).write_text("")
    return qa


#: Every command that reads a file the user names, with {f} for the file: (arguments, what the error calls it).
READERS = [
    (["query", "{f}", "--store", "{store}"], "query file"),
    (["ask", "--batch", "{f}", "--store", "{store}"], "batch file"),
    (["eval", "--rewordings", "{f}", "--qa", "{qa}", "--store", "{store}"], "rewordings file"),
    (["serve", "--access", "{f}", "--store", "{store}", "--port", "0"], "access file"),
    (["mcp", "--access", "{f}", "--store", "{store}"], "access file"),
    (["query", "{q}", "--product", "Alpha", "--with", "{f}.ttl", "--store", "{store}"], "what-if file"),
]


def reader_args(args: list[str], f: Path, store: Path, tmp_path: Path) -> list[str]:
    query = tmp_path / "q.rq"
    query.write_text("ASK {}")
    names = {"f": f, "store": store, "qa": qa_folder(tmp_path), "q": query}
    return [a.format(**names) for a in args]


@pytest.mark.parametrize(("args", "what"), READERS, ids=[" ".join(a[:2]) for a, _ in READERS])
def test_a_named_pipe_is_refused_at_once_not_waited_on(
    store_dir: Path, tmp_path: Path, args: list[str], what: str
) -> None:
    """C1: six commands hung on a FIFO (kg() times out after 120 s, failing the test)."""
    pipe = fifo(tmp_path)
    if "{f}.ttl" in args:
        pipe = pipe.rename(tmp_path / "pipe.ttl").with_suffix("")
    one_error(kg(*reader_args(args, pipe, store_dir, tmp_path)), what, "not a regular file")


@pytest.mark.parametrize(("args", "what"), READERS[:4], ids=[" ".join(a[:2]) for a, _ in READERS[:4]])
def test_a_device_or_a_huge_file_is_refused_before_it_is_read(
    store_dir: Path, tmp_path: Path, args: list[str], what: str
) -> None:
    """C2: `kg query /dev/zero` and `kg serve --access /dev/zero` grew to 4.7 GB in 8 s."""
    one_error(kg(*reader_args(args, Path("/dev/zero"), store_dir, tmp_path)), what, "not a regular file")
    huge = tmp_path / "huge"
    with huge.open("wb") as fh:
        fh.truncate(65 << 20)  # sparse: 65 MiB of size, no blocks written
    one_error(kg(*reader_args(args, huge, store_dir, tmp_path)), what, "larger than")


def test_a_rewordings_file_that_is_not_utf8_is_one_error(store_dir: Path, tmp_path: Path) -> None:
    """C3: a traceback."""
    bad = tmp_path / "rewordings.jsonl"
    bad.write_bytes(b'{"question": "caf\xe9"}\n')
    args = ["eval", "--rewordings", bad, "--qa", qa_folder(tmp_path), "--store", store_dir]
    one_error(kg(*args), "rewordings file", "not UTF-8")


def test_an_empty_rewordings_file_is_an_error_not_an_f1_of_zero(store_dir: Path, tmp_path: Path) -> None:
    """C4: exit 0 with "F1 0.000"."""
    for text in ("", "\n\n  \n"):
        empty = tmp_path / "rewordings.jsonl"
        empty.write_text(text)
        done = kg("eval", "--rewordings", empty, "--qa", qa_folder(tmp_path), "--store", store_dir)
        one_error(done, "holds no questions")
        assert b"F1" not in done.stdout


def store_copy(store_dir: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "store"
    shutil.copytree(store_dir, copy)
    return copy


@pytest.mark.parametrize("name", ["CURRENT", "new.nq", "sub/new.nq"])
def test_export_never_writes_into_the_store(store_dir: Path, tmp_path: Path, name: str) -> None:
    """C5: `kg export --store S --out S/CURRENT` emptied CURRENT before reading the store: the store was lost."""
    store = store_copy(store_dir, tmp_path)
    before = {p.name: p.read_bytes() for p in store.iterdir()}
    for force in ([], ["--force"]):
        one_error(kg("export", "--store", store, "--out", store / name, *force), "inside the store")
    assert {p.name: p.read_bytes() for p in store.iterdir() if p.is_file()} == before
    assert kg("stats", "--store", store).returncode == 0


@pytest.mark.parametrize("command", [["stats"], ["query", "{q}"], ["export"], ["ask", "Who wrote the Alpha design?"]])
def test_a_damaged_store_is_a_one_line_refusal(store_dir: Path, tmp_path: Path, command: list[str]) -> None:
    """C6: a RuntimeError traceback from RocksDB ("Corruption: CURRENT file does not end with newline")."""
    store = store_copy(store_dir, tmp_path)
    (store / "CURRENT").write_bytes(b"")
    query = tmp_path / "q.rq"
    query.write_text("ASK {}")
    one_error(kg(*(a.format(q=query) for a in command), "--store", store), "damaged", "kg build")


def test_export_shards_keeps_the_operators_files_and_never_follows_a_link(store_dir: Path, tmp_path: Path) -> None:
    """E1: the user's deployment.yaml (replicas filled in) and shard-0.nq were overwritten without a word;
    E2: DIR/shard-1.nq -> ../victim.txt was written through, outside the folder."""
    out, victim = tmp_path / "out", tmp_path / "victim.txt"
    out.mkdir()
    victim.write_text("the victim's own text\n")
    mine = {"deployment.yaml": "shards: {shard-0: {replicas: [http://db1:7878/query]}}\n", "shard-0.nq": "mine\n"}
    for name, text in mine.items():
        (out / name).write_text(text)
    (out / "shard-1.nq").symlink_to("../victim.txt")
    one_error(kg("export", "--store", store_dir, "--shards", "2", "--out", out), "shard-0.nq", "--force")
    one_error(kg("export", "--store", store_dir, "--shards", "2", "--out", out, "--force"), "symbolic link")
    assert {n: (out / n).read_text() for n in mine} == mine and victim.read_text() == "the victim's own text\n"
    assert sorted(p.name for p in out.iterdir()) == ["deployment.yaml", "shard-0.nq", "shard-1.nq"]  # nothing half
    (out / "shard-1.nq").unlink()
    assert kg("export", "--store", store_dir, "--shards", "2", "--out", out, "--force").returncode == 0
    assert (out / "shard-0.nq").read_text() != mine["shard-0.nq"]


def test_kg_replaces_its_own_untouched_output_but_not_an_edited_one(store_dir: Path, tmp_path: Path) -> None:
    """What the writer counts as its own: the same export again is fine; once the operator has edited the
    deployment file (to list replicas), it is theirs."""
    out = tmp_path / "out"
    assert kg("export", "--store", store_dir, "--shards", "2", "--out", out).returncode == 0
    assert kg("export", "--store", store_dir, "--shards", "2", "--out", out).returncode == 0
    with (out / "deployment.yaml").open("a") as fh:
        fh.write("# replicas listed by hand\n")
    one_error(kg("export", "--store", store_dir, "--shards", "2", "--out", out), "deployment.yaml", "--force")
    assert (out / "deployment.yaml").read_text().endswith("# replicas listed by hand\n")


@pytest.mark.parametrize(
    "command",
    [
        ["export", "--out", "{t}"],
        ["ask", "--batch", "{b}", "--out", "{t}"],
        ["eval", "--qa", "{qa}", "--no-baseline", "--results", "{t}"],
    ],
    ids=["export", "ask --batch", "eval"],
)
def test_no_command_writes_through_a_link_or_over_a_file_it_did_not_write(
    store_dir: Path, tmp_path: Path, command: list[str]
) -> None:
    """The one writer, for every command that writes a file."""
    victim, link, theirs = tmp_path / "victim.txt", tmp_path / "link.out", tmp_path / "theirs.out"
    victim.write_text("victim\n")
    theirs.write_text("theirs\n")
    link.symlink_to(victim)
    batch = tmp_path / "batch.jsonl"
    batch.write_text('{"question": "Who wrote the Alpha design?"}\n')
    qa = qa_folder(tmp_path)
    for target, says in ((link, "symbolic link"), (theirs, "--force")):
        args = [a.format(t=target, b=batch, qa=qa) for a in command]
        one_error(kg(*args, "--store", store_dir), says)
    assert victim.read_text() == "victim\n" and theirs.read_text() == "theirs\n"
