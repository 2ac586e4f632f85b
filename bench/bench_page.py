"""Benchmark the answer page's look-ups: an artifact and a person, for a token that reads every product (admin)
against one that reads the artifact's product only, in the same run; plus the union-of-all-graphs look-up
the admin path avoids.

    .venv/bin/python bench/bench_page.py --store .kg/store [--repeat 5]

The peer is the product token's look-up: the admin one should cost about as much. Timings on a shared machine
are noisy: compare the rows of one run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

from pyoxigraph import Literal

from kg.cli.table import print_table
from kg.namespaces import ORG_GRAPH, product_graph
from kg.page.views import artifact_view, person_page
from kg.paths import store_path
from kg.qa.answer import Answerer
from kg.query.sparql import EmbeddedStore, named_query

#: (artifact id, its product, an employee who wrote in that product): a Slack message, a document, a PR
CASES = [
    ("20260811-1-5d85e", "ActionGenie", "eid_d96fb219"),
    ("final_onforcex_market_research_report", "ActionGenie", "eid_13fdff84"),
    ("20260821-5-e9503", "ConnectForce", "eid_294ba09d"),
]


def median_ms(call: Callable[[], object], repeat: int) -> float:
    call()  # warm the store's caches, as a served page's second look-up would find them
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        times.append(1000 * (time.perf_counter() - started))
    return statistics.median(times)


def case_rows(answerer: Answerer, artifact: str, product: str, person: str, repeat: int) -> list[list[str]]:
    """One case's look-ups, each timed (median ms)."""
    scope = frozenset({product_graph(product).value, ORG_GRAPH})
    union = named_query("page_artifact").text
    calls: list[tuple[str, str, Callable[[], object]]] = [
        (artifact, "artifact, admin token", partial(artifact_view, artifact, None, answerer)),
        (artifact, "artifact, product token (peer)", partial(artifact_view, artifact, scope, answerer)),
        (artifact, "artifact, union of all graphs", partial(answerer.backend.select, union, {"id": Literal(artifact)})),
        (person, "person, admin token", partial(person_page, person, None, answerer)),
        (person, "person, product token (peer)", partial(person_page, person, scope, answerer)),
    ]
    return [[what, how, f"{median_ms(call, repeat):.1f}"] for what, how, call in calls]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--store", help="store directory (default: $KG_STORE, else ./.kg/store)")
    p.add_argument("--repeat", type=int, default=5, help="timed look-ups per case (median reported)")
    args = p.parse_args(argv)
    answerer = Answerer(EmbeddedStore(store_path(args.store)))
    rows = [row for case in CASES for row in case_rows(answerer, *case, args.repeat)]
    print_table(["look-up of", "how", "ms (median)"], rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
