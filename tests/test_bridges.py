"""Bridges: directed betweenness on small graphs whose values are known by hand, edge weights that change
which path is shortest, and the ranking on a real product through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.analysis.bridges import EDGE_WEIGHTS, Tie, bridges, collaboration_graph, rank_bridges
from kg.cli import main
from kg.query.sparql import EmbeddedStore


def scores(ties: list[Tie]) -> dict[str, float]:
    return {b.person: round(b.betweenness, 6) for b in rank_bridges(ties, top=100)}


def test_a_chain_has_its_middle_as_the_only_bridge() -> None:
    # a -> b -> c: of the 2 ordered pairs of others (n-1)(n-2) = 2, b lies on the one path a..c: 1/2
    got = scores([Tie("a", "b", "reviewed", 1), Tie("b", "c", "reviewed", 1)])
    assert got == {"b": 0.5, "a": 0.0, "c": 0.0}


def test_direction_matters() -> None:
    # a -> b <- c: no directed path passes through b
    assert scores([Tie("a", "b", "reviewed", 1), Tie("c", "b", "reviewed", 1)])["b"] == 0.0


def test_a_hub_between_two_senders_and_two_receivers() -> None:
    # x1, x2 -> h -> y1, y2: h is on 4 of the (5-1)(5-2) = 12 ordered pairs: 1/3
    ties = [Tie(x, "h", "assigned", 1) for x in ("x1", "x2")] + [Tie("h", y, "assigned", 1) for y in ("y1", "y2")]
    assert scores(ties)["h"] == round(4 / 12, 6)


def test_weights_decide_the_shortest_path() -> None:
    chain = [Tie("a", "b", "reviewed", 1), Tie("b", "c", "reviewed", 1)]  # distance 1 + 1 = 2
    # one reply a -> c has strength 0.5, distance 2: two shortest paths, b is on half of them: (1/2) / 2
    assert scores([*chain, Tie("a", "c", "replied", 1)])["b"] == 0.25
    # three replies: strength 1.5, distance 2/3 < 2: the direct tie wins and b bridges nothing
    assert scores([*chain, Tie("a", "c", "replied", 3)])["b"] == 0.0


def test_ties_of_one_pair_add_up_by_weight() -> None:
    graph = collaboration_graph([Tie("a", "b", "reviewed", 2), Tie("a", "b", "replied", 2)])
    assert graph["a"]["b"]["strength"] == 2 * EDGE_WEIGHTS["reviewed"] + 2 * EDGE_WEIGHTS["replied"]


def test_each_bridge_comes_with_its_ties_strongest_first() -> None:
    ties = [Tie("a", "b", "replied", 1), Tie("d", "b", "reviewed", 2), Tie("b", "c", "suggested", 1)]
    top = rank_bridges(ties, top=1)[0]
    assert top.person == "b"
    assert [(t.source, t.type) for t in top.incoming] == [("d", "reviewed"), ("a", "replied")]
    assert [(t.target, t.type) for t in top.outgoing] == [("c", "suggested")]


@pytest.mark.herb
def test_bridges_of_a_herb_product(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ranked = bridges(EmbeddedStore(store), "ConnectForce", top=5)
    assert len(ranked) == 5 and ranked[0].betweenness > 0
    assert [b.betweenness for b in ranked] == sorted((b.betweenness for b in ranked), reverse=True)
    assert all(b.person.startswith("eid_") and (b.incoming or b.outgoing) for b in ranked)
    assert {t.type for b in ranked for t in b.incoming + b.outgoing} <= set(EDGE_WEIGHTS)
    assert main(["analyze", "bridges", "--product", "ConnectForce", "--top", "3", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith(" 1. ") and f"{ranked[0].person})" in first and out.count("betweenness") == 3
    name, role = first[4:].split(" (")[0], first.split(" (")[1].split(",")[0]
    assert name and name[0].isupper() and role and "in:" in out  # the person as name, role and eid
    assert main(["analyze", "bridges", "--product", "ConnectForce", "--top", "2", "--json", "--store", str(store)]) == 0
    got = json.loads(capsys.readouterr().out)
    assert [b["person"] for b in got["bridges"]] == [b.person for b in ranked[:2]]
    assert got["people"][ranked[0].person] == {"name": name, "role": role}
    assert main(["analyze", "bridges", "--product", "connectforce", "--store", str(store)]) == 2
    assert "did you mean ConnectForce" in capsys.readouterr().err
