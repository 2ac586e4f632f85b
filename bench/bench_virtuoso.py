"""One big engine: `kg export` bulk-loaded into Virtuoso (Debian's virtuoso-opensource), against Oxigraph's own
bulk load of the same N-Quads in the same run.

    .venv/bin/python bench/bench_virtuoso.py --store /tmp/kgfull/store

Starts a private Virtuoso on loopback ports in a temporary folder (never the system database), loads the
export with its bulk loader (`ld_dir` + `rdf_loader_run` + `checkpoint`), counts the quads back over SPARQL,
and stops it. Timings on a shared machine are noisy: compare the rows of one run.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests
from pyoxigraph import RdfFormat, Store

from kg.cli.table import print_table
from kg.paths import store_path

INI = """[Database]
DatabaseFile = {d}/virtuoso.db
ErrorLogFile = {d}/virtuoso.log
TransactionFile = {d}/virtuoso.trx
xa_persistent_file = {d}/virtuoso.pxa
[TempDatabase]
DatabaseFile = {d}/virtuoso-temp.db
TransactionFile = {d}/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:{port}
DirsAllowed = ., {d}
NumberOfBuffers = 340000
MaxDirtyBuffers = 250000
[HTTPServer]
ServerPort = 127.0.0.1:{http}
ServerRoot = /var/lib/virtuoso-opensource-7/vsp
"""


def isql(port: int, sql: str) -> str:
    out = subprocess.run(
        ["isql-vt", str(port), "dba", "dba", f"exec={sql}"], capture_output=True, text=True, timeout=3600, check=True
    )
    return out.stdout


def wait_up(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if subprocess.run(["isql-vt", str(port), "dba", "dba", "exec=select 1;"], capture_output=True).returncode == 0:
            return
        time.sleep(0.5)
    raise SystemExit("bench_virtuoso: Virtuoso did not start")


def sparql_count(http: int) -> int:
    query = (
        "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), 'https://w3id.org/ekg/')) }"
    )
    r = requests.get(
        f"http://127.0.0.1:{http}/sparql",
        params={"query": query},
        headers={"Accept": "application/sparql-results+json"},
        timeout=600,
    )
    r.raise_for_status()
    return int(r.json()["results"]["bindings"][0]["n"]["value"])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--store", help="store directory (default: $KG_STORE, else ./.kg/store)")
    p.add_argument("--port", type=int, default=11111)
    p.add_argument("--http", type=int, default=18890)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="kg-virtuoso-") as tmp:
        d = Path(tmp)
        started = time.perf_counter()
        Store.read_only(str(store_path(args.store))).dump(str(d / "ekg.nq"), RdfFormat.N_QUADS)
        export_s = time.perf_counter() - started
        started = time.perf_counter()
        oxi = Store(str(d / "oxigraph"))
        oxi.bulk_load(path=str(d / "ekg.nq"), format=RdfFormat.N_QUADS)
        oxi.flush()
        oxigraph_s, quads = time.perf_counter() - started, len(oxi)
        del oxi
        (d / "virtuoso.ini").write_text(INI.format(d=d, port=args.port, http=args.http))
        server = subprocess.Popen(
            ["virtuoso-t", "+foreground", "+configfile", str(d / "virtuoso.ini")],
            cwd=d,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_up(args.port)
            started = time.perf_counter()
            isql(
                args.port,
                f"ld_dir('{d}', 'ekg.nq', 'https://w3id.org/ekg/graph/unnamed'); rdf_loader_run(); checkpoint;",
            )
            virtuoso_s = time.perf_counter() - started
            loaded = sparql_count(args.http)
        finally:
            server.terminate()
            server.wait(timeout=120)
    print(f"\n{quads:,} quads exported from {store_path(args.store)} in {export_s:.1f} s\n")
    print_table(
        ["engine", "bulk load (s)", "quads/s", "quads read back"],
        [
            [
                "Virtuoso 7 (ld_dir + rdf_loader_run + checkpoint)",
                f"{virtuoso_s:.1f}",
                f"{quads / virtuoso_s:,.0f}",
                f"{loaded:,}",
            ],
            [
                "floor: pyoxigraph bulk_load of the same file",
                f"{oxigraph_s:.1f}",
                f"{quads / oxigraph_s:,.0f}",
                f"{quads:,}",
            ],
        ],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
