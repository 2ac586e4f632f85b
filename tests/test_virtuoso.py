"""One answer on any SPARQL 1.1 engine: the 562 dev questions answered alike by Virtuoso, `kg serve` and the
embedded store.

`kg export` of the products the dev questions name is bulk-loaded into Debian's Virtuoso 7.2 (a throw-away
database on 127.0.0.1, configured by the test) and every question is asked through `RemoteEndpoint` against
Virtuoso's /sparql, against `kg serve`, and embedded. Abstentions, answers and citations must be equal; a text
answer must list its lines in the same order (every content query has an ORDER BY), a list answer and the
citations are compared as sets.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyoxigraph
import pytest
from endpoints import kg_serve, virtuoso, virtuoso_binaries

from kg.errors import KGError
from kg.namespaces import EKG, GRAPH, ID, ORG_GRAPH, RDF, RDFS
from kg.qa.answer import Answerer
from kg.query.remote import RemoteEndpoint
from kg.query.sparql import EmbeddedStore
from kg.query.store import export

pytestmark = [pytest.mark.herb, pytest.mark.slow]


def dev_questions(herb: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for name in ("answerable.jsonl", "unanswerable.jsonl")
        for line in (herb / "qa" / "dev" / name).open()
    ]


@pytest.fixture(scope="module")
def virtuoso_url(dev_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    virtuoso_binaries()
    load = tmp_path_factory.mktemp("virtuoso-load")
    with (load / "ekg.nq").open("wb") as out:
        export(dev_store, out, "nquads")
    with virtuoso(tmp_path_factory.mktemp("virtuoso"), load / "ekg.nq") as url:
        yield url


def comparable(answerer: Answerer, question: str) -> dict[str, Any]:
    """The answer object, with list answers and citations as sets; a failure is kept as its message."""
    try:
        got = answerer.ask(question).to_json()
    except KGError as exc:
        return {"error": str(exc)}
    if isinstance(got["answer"], list):
        got["answer"] = sorted(got["answer"])
    got["citations"] = sorted(got["citations"])
    if got.get("proof"):  # the text check reads the search index beside a store, which no engine holds
        got["proof"] = {k: v for k, v in got["proof"].items() if k != "textcheck"}
    return got


def test_dev_questions_answer_alike_on_virtuoso_kg_serve_and_embedded(
    herb: Path, dev_store: Path, virtuoso_url: str, tmp_path: Path
) -> None:
    questions = [q["question"] for q in dev_questions(herb)]
    assert len(questions) == 562
    embedded = Answerer(EmbeddedStore(dev_store))
    want = [comparable(embedded, q) for q in questions]
    assert not [w for w in want if "error" in w]
    assert sum(w["abstain"] for w in want) > 100 and sum(not w["abstain"] for w in want) > 300
    with kg_serve(dev_store, tmp_path) as serve_url:
        for url in (virtuoso_url, serve_url):
            remote = Answerer(RemoteEndpoint(url))
            differ = [q for q, w in zip(questions, want, strict=True) if comparable(remote, q) != w]
            assert differ == [], f"{len(differ)} of {len(questions)} differ on {url}, e.g. {differ[:3]}"


def test_the_vocabulary_of_a_company_of_hundreds_of_products_reads_alike_on_virtuoso_and_embedded(
    tmp_path: Path,
) -> None:
    """Virtuoso answers with one X-SPARQL-default-graph header per default graph it is given; one request naming
    every product's graph (300 at x10 HERB) got more headers than Python's HTTP client takes, so the vocabulary
    is read a chunk of products at a time, each chunk with the organisation graph."""
    virtuoso_binaries()

    def typed(node: str, cls: str, label: str, graph: str) -> str:
        return f'<{ID}{node}> <{RDF}type> <{EKG}{cls}> <{graph}> .\n<{ID}{node}> <{RDFS}label> "{label}" <{graph}> .\n'

    lines = [typed(f"product/P{i}", "Product", f"P{i}", f"{GRAPH}P{i}") for i in range(240)]
    lines.append(typed("company/acme", "Company", "Acme", ORG_GRAPH))
    load = tmp_path / "load"
    load.mkdir()
    (load / "many.nq").write_text("".join(lines), encoding="utf-8")
    embedded = tmp_path / "store"
    pyoxigraph.Store(str(embedded)).bulk_load(path=str(load / "many.nq"), format=pyoxigraph.RdfFormat.N_QUADS)
    local = Answerer(EmbeddedStore(embedded)).vocabulary
    assert len(local.products) == 240 and local.companies == {"acme": "Acme"}
    with virtuoso(tmp_path / "virtuoso", load / "many.nq") as url:
        remote = Answerer(RemoteEndpoint(url)).vocabulary
        assert remote == local and remote.repos == local.repos  # repositories are read on first use, alike
