"""The as-of and collaboration queries run unchanged on other engines: through `kg serve` (the Oxigraph server
over HTTP) and on Virtuoso 7.2 from Debian, with the same rows as the embedded store on ConnectForce."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from endpoints import free_port
from pyoxigraph import Literal, NamedNode, RdfFormat, Store, serialize
from test_serve import start_server

from kg.namespaces import ORG_GRAPH, product_graph, term
from kg.query.remote import RemoteEndpoint
from kg.query.sparql import EmbeddedStore, named_query, product_dataset

pytestmark = pytest.mark.herb
PRODUCT = "ConnectForce"
VIRTUOSO_INI = Path("/etc/virtuoso-opensource-7/virtuoso.ini")


def dt(at: str) -> Literal:
    return Literal(at, datatype=term("xsd:dateTime"))


TITLE_TEXT = Literal(" what was the state of cache invalidation issues in connectforce ")
PR_10 = NamedNode("https://w3id.org/ekg/id/artifact/github_com_salesforce_ectAIX_pull_10")
CASES = [
    *[
        ("asof_state", {"kind": term(k), "asOf": dt(t)})
        for k in ("ekg:Bug", "ekg:PullRequest", "ekg:Feature")
        for t in ("2026-05-03T06:59:00", "2026-08-31T23:59:59", "9999-12-31T23:59:59")
    ],
    ("asof_state.ask", {"kind": term("ekg:Bug"), "asOf": dt("1900-01-01T00:00:00")}),
    ("asof_state.ask", {"kind": term("ekg:Bug"), "asOf": dt("2026-08-01T00:00:00")}),
    ("asof_events", {"item": PR_10}),
    ("asof_events", {}),
    ("asof_items", {"name": Literal("cache invalidation issues")}),
    ("asof_items", {"name": Literal("https://github.com/salesforce/ectAIX/pull/10")}),
    ("asof_release_time", {}),
    (
        "asof_bug_titles_by_state",
        {"asOf": dt("2026-08-31T23:59:59"), "asked": Literal("unresolved"), "company": Literal("DataSolutions")},
    ),
    ("asof_bug_titles_by_state", {"asOf": dt("2026-08-31T23:59:59"), "asked": Literal("no fix")}),
    ("asof_bug_companies_by_state", {"asOf": dt("2026-07-31T23:59:59"), "asked": Literal("unresolved")}),
    (
        "asof_bug_titles_by_state.ask",
        {"asOf": dt("2026-01-01T23:59:59"), "asked": Literal("unresolved"), "company": Literal("TechCorp")},
    ),
    (
        "asof_bug_titles_by_state.ask",
        {"asOf": dt("2026-12-01T23:59:59"), "asked": Literal("unresolved"), "company": Literal("TechCorp")},
    ),
    ("bug_state", {"text": TITLE_TEXT}),
    ("bug_state.ask", {"text": TITLE_TEXT}),
    ("asof_bug_state", {"text": TITLE_TEXT, "asOf": dt("2026-08-31T23:59:59")}),
    ("asof_bug_state.ask", {"text": TITLE_TEXT, "asOf": dt("2026-08-01T23:59:59")}),
    ("asof_bug_state.ask", {"text": TITLE_TEXT, "asOf": dt("2026-08-31T23:59:59")}),
    ("collab_edges", {}),
    *[
        (
            name,
            {"topic": Literal(" anomal detect "), "ntok": Literal("2", datatype=term("xsd:integer")), "asOf": dt(at)},
        )
        for name in ("asof_pr_to_merge", "asof_pr_to_merge.ask")
        for at in ("2025-01-01T23:59:59", "2026-05-15T23:59:59", "9999-12-31T23:59:59")
    ],
]


def rows_of(backend: EmbeddedStore | RemoteEndpoint, name: str, bindings: dict) -> object:
    query, graphs = named_query(name).text, product_dataset(PRODUCT)
    if name.endswith(".ask"):
        return backend.ask(query, bindings, graphs)
    return sorted(
        tuple(sorted((k, v.value) for k, v in row.items())) for row in backend.select(query, bindings, graphs)
    )


def same_as_embedded(embedded: EmbeddedStore, remote: RemoteEndpoint) -> None:
    for name, bindings in CASES:
        want = rows_of(embedded, name, bindings)
        assert rows_of(remote, name, bindings) == want, (name, bindings)
    assert rows_of(embedded, *CASES[2]), "the cases read real rows (every bug's state today)"


@pytest.fixture(scope="module")
def kg_serve(store: Path) -> Iterator[str]:
    yield from start_server(store)


def test_kg_serve_runs_the_as_of_family_unchanged(store: Path, kg_serve: str) -> None:
    same_as_embedded(EmbeddedStore(store), RemoteEndpoint(f"{kg_serve}/query"))


@pytest.fixture(scope="module")
def virtuoso(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Debian's Virtuoso 7.2 on free loopback ports, in a temporary folder, loaded with ConnectForce + org."""
    if shutil.which("virtuoso-t") is None or shutil.which("isql-vt") is None or not VIRTUOSO_INI.exists():
        pytest.skip("Virtuoso is not installed (Debian package virtuoso-opensource; .ci/run installs it)")
    home = tmp_path_factory.mktemp("virtuoso")
    data = home / "data"
    data.mkdir()
    real = Store.read_only(str(store))
    quads = [
        q for g in (product_graph(PRODUCT), NamedNode(ORG_GRAPH)) for q in real.quads_for_pattern(None, None, None, g)
    ]
    serialize(quads, output=str(data / "product.nq"), format=RdfFormat.N_QUADS)
    sql, http = free_port(), free_port()
    ini = VIRTUOSO_INI.read_text().replace("/var/lib/virtuoso-opensource-7/db", str(home))
    ini = ini.replace("ServerPort               = 1111", f"ServerPort               = {sql}")
    ini = ini.replace("ServerPort                  = 8890", f"ServerPort                  = {http}")
    ini = ini.replace("DirsAllowed              = .", f"DirsAllowed              = ., {data}")
    (home / "virtuoso.ini").write_text(ini)
    log = (home / "server.log").open("w")
    proc = subprocess.Popen(
        ["virtuoso-t", "-c", str(home / "virtuoso.ini"), "+foreground"], cwd=home, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{http}/sparql"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                requests.get(url, params={"query": "ASK {}"}, timeout=2)
                break
            except requests.ConnectionError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"Virtuoso did not start: {(home / 'server.log').read_text()[-2000:]}")
                time.sleep(0.5)
        load = f"ld_dir('{data}', 'product.nq', 'urn:ekg:unused'); rdf_loader_run(); checkpoint;"
        subprocess.run(
            ["isql-vt", str(sql), "dba", "dba", f"exec={load}"], check=True, capture_output=True, timeout=300
        )
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        log.close()


def test_virtuoso_runs_the_as_of_family_unchanged(store: Path, virtuoso: str) -> None:
    same_as_embedded(EmbeddedStore(store), RemoteEndpoint(virtuoso))
