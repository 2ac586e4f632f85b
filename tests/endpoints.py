"""Real SPARQL endpoints on 127.0.0.1 for tests: `kg serve` and Debian's Virtuoso, each a real subprocess."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from programs import require

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A loopback port no one listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


#: virtuoso.ini for a throw-away database: loopback ports, the load folder allowed, no row cap, and no
#: MaxQueryCostEstimationTime (Debian's default of 400 refuses some feature_added_topic queries up front).
VIRTUOSO_INI = """\
[Database]
DatabaseFile = {db}/virtuoso.db
ErrorLogFile = {db}/virtuoso.log
LockFile = {db}/virtuoso.lck
TransactionFile = {db}/virtuoso.trx
xa_persistent_file = {db}/virtuoso.pxa
Striping = 0
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = {db}/virtuoso-temp.db
TransactionFile = {db}/virtuoso-temp.trx
Striping = 0
[Parameters]
ServerPort = 127.0.0.1:{sql_port}
DisableUnixSocket = 1
CaseMode = 2
DirsAllowed = ., {load}
NumberOfBuffers = 20000
MaxDirtyBuffers = 15000
ThreadsPerQuery = 2
[HTTPServer]
ServerPort = 127.0.0.1:{http_port}
ServerRoot = {db}
ServerThreads = 4
[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = 300
"""


def wait_for(url: str, proc: subprocess.Popen, log: Path, seconds: float) -> None:
    """Until the URL answers over HTTP; fail with the process's log if it exits or takes too long."""
    deadline = time.monotonic() + seconds
    while True:
        if proc.poll() is not None:
            pytest.fail(f"{proc.args[0]} exited ({proc.returncode}): {log.read_text()[-2000:]}")
        try:
            requests.get(url, timeout=2)
            return
        except requests.ConnectionError:
            if time.monotonic() > deadline:
                pytest.fail(f"{url} did not answer within {seconds:g} s")
            time.sleep(0.2)


@contextmanager
def stopping(proc: subprocess.Popen) -> Iterator[subprocess.Popen]:
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def kg_serve(store: Path, log_dir: Path, *extra: str) -> Iterator[str]:
    """`kg serve` as a subprocess on a free loopback port; yields its query URL."""
    port = free_port()
    log = log_dir / f"kg-serve-{port}.log"
    with log.open("w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "kg", "serve", "--store", str(store), "--port", str(port), *extra],
            cwd=ROOT,
            stderr=err,
        )
    with stopping(proc):
        url = f"http://127.0.0.1:{port}/query"
        wait_for(url, proc, log, 60)
        yield url


def virtuoso_binaries() -> tuple[str, str]:
    """`virtuoso-t` and `isql-vt` (Debian's virtuoso-opensource), or a skip saying how to get them."""
    require("virtuoso-t", "isql-vt")
    return shutil.which("virtuoso-t"), shutil.which("isql-vt")


@contextmanager
def virtuoso(workdir: Path, nquads: Path) -> Iterator[str]:
    """A fresh Virtuoso database in workdir with the N-Quads bulk-loaded (graph names kept); yields /sparql."""
    with virtuoso_server(workdir, nquads) as (url, _):
        yield url


@contextmanager
def virtuoso_server(workdir: Path, nquads: Path) -> Iterator[tuple[str, subprocess.Popen]]:
    """As `virtuoso`, yielding the process too, for a test that kills a replica."""
    server, isql = virtuoso_binaries()
    db, load = workdir / "db", nquads.parent
    db.mkdir(parents=True)
    sql_port, http_port = free_port(), free_port()
    ini = workdir / "virtuoso.ini"
    ini.write_text(VIRTUOSO_INI.format(db=db, load=load, sql_port=sql_port, http_port=http_port))
    log = db / "stdout.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [server, "+foreground", "+configfile", str(ini)], cwd=db, stdout=out, stderr=subprocess.STDOUT
        )
    with stopping(proc):
        url = f"http://127.0.0.1:{http_port}/sparql"
        wait_for(url, proc, log, 180)
        load_sql = (
            f"ld_dir('{load}', '{nquads.name}', 'urn:ekg:unnamed'); rdf_loader_run(); checkpoint; "
            "select count(*) from DB.DBA.load_list where ll_state <> 2 or ll_error is not null;"
        )
        done = subprocess.run(
            [isql, f"127.0.0.1:{sql_port}", "dba", "dba", f"exec={load_sql}"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "\n0\n" in done.stdout, f"the bulk load reported errors: {done.stdout}"
        yield url, proc
