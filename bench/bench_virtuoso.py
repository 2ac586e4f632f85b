"""One big engine: `kg export` bulk-loaded into Virtuoso (Debian's virtuoso-opensource), against Oxigraph's own
bulk load of the same N-Quads in the same run.

    .venv/bin/python bench/bench_virtuoso.py --store /tmp/kgfull/store

Starts a private Virtuoso on free loopback ports in a temporary folder (never the system database; the tests'
start-up, tests/endpoints.py), loads the export with its bulk loader (`ld_dir` + `rdf_loader_run` +
`checkpoint`), counts the quads back over SPARQL,
then asks the dev questions of `--product` (default: every dev question) through `--endpoint` on Virtuoso and
embedded, and stops it. The QA table gives per-question p50/p99 on each engine and how many answers agree
(abstention, answer set, citations). Timings on a shared machine are noisy: compare the rows of one run.

    .venv/bin/python bench/bench_virtuoso.py --store /tmp/x10/store --product KnowledgeForce
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests
from pyoxigraph import RdfFormat, Store

from kg.cli.table import print_table
from kg.errors import KGError
from kg.paths import herb_path, store_path
from kg.qa.answer import Answerer
from kg.query.remote import RemoteEndpoint
from kg.query.sparql import EmbeddedStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from endpoints import virtuoso


def sparql_count(url: str) -> int:
    """Every quad in the project's graphs, counted back over the SPARQL endpoint."""
    query = (
        "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), 'https://w3id.org/ekg/')) }"
    )
    r = requests.get(url, params={"query": query}, headers={"Accept": "application/sparql-results+json"}, timeout=600)
    r.raise_for_status()
    return int(r.json()["results"]["bindings"][0]["n"]["value"])


def dev_questions(product: str | None) -> list[str]:
    """The dev questions (answerable and unanswerable), of one product when given."""
    folder = herb_path() / "qa" / "dev"
    rows = [json.loads(line) for name in ("answerable.jsonl", "unanswerable.jsonl") for line in (folder / name).open()]
    return [r["question"] for r in rows if product in (None, r.get("product"))]


def comparable(answerer: Answerer, question: str) -> tuple[object, ...]:
    """What must agree across engines: abstention, the answer (a set for lists) and the citations."""
    try:
        got = answerer.ask(question)
    except KGError as exc:
        return ("error", str(exc))
    answer = frozenset(got.answer) if isinstance(got.answer, list) else got.answer
    return got.abstain, answer, frozenset(got.citations)


def timed_answers(answerer: Answerer, questions: list[str]) -> tuple[list[tuple[object, ...]], list[float]]:
    """Each question's comparable answer and its wall time in milliseconds."""
    answers, millis = [], []
    for question in questions:
        started = time.perf_counter()
        answers.append(comparable(answerer, question))
        millis.append((time.perf_counter() - started) * 1000)
    return answers, millis


def qa_row(engine: str, millis: list[float], agree: int, total: int) -> list[str]:
    cuts = statistics.quantiles(millis, n=100, method="inclusive")
    return [engine, f"{sum(millis) / 1000:.1f}", f"{cuts[49]:.1f}", f"{cuts[98]:.1f}", f"{agree}/{total}"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--store", help="store directory (default: $KG_STORE, else ./.kg/store)")
    p.add_argument("--product", help="ask only this product's dev questions (default: all of them)")
    p.add_argument("--no-ask", action="store_true", help="load only; skip the questions")
    args = p.parse_args(argv)
    if not (shutil.which("virtuoso-t") and shutil.which("isql-vt")):
        raise SystemExit("bench_virtuoso: Virtuoso not installed (apt-get install virtuoso-opensource)")
    questions = [] if args.no_ask else dev_questions(args.product)
    qa: list[list[str]] = []
    with tempfile.TemporaryDirectory(prefix="kg-virtuoso-") as tmp:
        d = Path(tmp)
        (d / "load").mkdir()
        nquads = d / "load" / "ekg.nq"
        started = time.perf_counter()
        Store.read_only(str(store_path(args.store))).dump(str(nquads), RdfFormat.N_QUADS)
        export_s = time.perf_counter() - started
        started = time.perf_counter()
        oxi = Store(str(d / "oxigraph"))
        oxi.bulk_load(path=str(nquads), format=RdfFormat.N_QUADS)
        oxi.flush()
        oxigraph_s, quads = time.perf_counter() - started, len(oxi)
        del oxi
        started = time.perf_counter()
        with virtuoso(d / "virtuoso", nquads) as url:
            virtuoso_s = time.perf_counter() - started
            loaded = sparql_count(url)
            if questions:
                embedded, embedded_ms = timed_answers(Answerer(EmbeddedStore(store_path(args.store))), questions)
                on_virtuoso, virtuoso_ms = timed_answers(Answerer(RemoteEndpoint(url)), questions)
                agree = sum(a == b for a, b in zip(embedded, on_virtuoso, strict=True))
                differ = [(q, a, b) for q, a, b in zip(questions, embedded, on_virtuoso, strict=True) if a != b]
                if differ:
                    print(
                        f"first of {len(differ)} difference(s): {differ[0][0]!r}\n  embedded: {differ[0][1]!s:.300}"
                        f"\n  Virtuoso: {differ[0][2]!s:.300}",
                        file=sys.stderr,
                    )
                qa = [
                    qa_row("Virtuoso over --endpoint (SPARQL 1.1 Protocol)", virtuoso_ms, agree, len(questions)),
                    qa_row("embedded Oxigraph (same process)", embedded_ms, len(questions), len(questions)),
                ]
    print(f"\n{quads:,} quads exported from {store_path(args.store)} in {export_s:.1f} s\n")
    print_table(
        ["engine", "bulk load (s)", "quads/s", "quads read back"],
        [
            [
                "Virtuoso 7 (start + ld_dir + rdf_loader_run + checkpoint)",
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
    if qa:
        print(f"\n{len(questions)} dev question(s){' of ' + args.product if args.product else ''}, one at a time\n")
        print_table(["engine", "total (s)", "p50 (ms)", "p99 (ms)", "answers equal to embedded"], qa)
    return 0


if __name__ == "__main__":
    sys.exit(main())
