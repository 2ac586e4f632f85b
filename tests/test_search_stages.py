"""Each search stage on small inputs made here: BM25, RRF, rank lists, PPR, anchors, facets."""

from __future__ import annotations

import numpy as np
import pytest

from kg.errors import KGError
from kg.namespaces import expand, node, term
from kg.search.anchors import anchors, id_nodes, kind_nodes, named_nodes
from kg.search.dense import group_means
from kg.search.facets import Facets, instant
from kg.search.fusion import ranking, rrf, tiebreak_keys
from kg.search.graph import DEFAULT_WEIGHT, ProductGraph, weight_table
from kg.search.index import context_texts
from kg.search.lexical import LexicalIndex, tokens

TEXTS = ["the ingestion pipeline stalls under load", "lunch order for friday", "ingestion latency dashboard"]


def test_bm25_scores_only_texts_sharing_terms_and_survives_save_and_load(tmp_path):
    index = LexicalIndex.build(TEXTS)
    scores = index.scores("ingestion latency")
    assert scores[1] == 0 and scores[2] > scores[0] > 0
    index.save(tmp_path / "bm25")
    again = LexicalIndex.load(tmp_path / "bm25", len(TEXTS))
    assert np.allclose(again.scores("ingestion latency"), scores)


def test_bm25_query_of_unknown_or_stop_words_scores_nothing():
    index = LexicalIndex.build(TEXTS)
    assert tokens("the of and") == []
    assert not index.scores("the zebra").any()


def test_ranking_keeps_positive_admitted_rows_and_breaks_ties_by_id_hash_not_position():
    ids = ["a", "b", "c", "d"]
    keys = tiebreak_keys(ids)
    scores = np.array([1.0, 1.0, 0.0, 2.0])
    ranked = ranking(scores, keys)
    assert ranked[0] == 3 and set(ranked[1:]) == {0, 1} and 2 not in ranked
    assert list(ranked[1:]) == sorted([0, 1], key=lambda r: keys[r])
    admitted = np.array([True, False, True, True])
    assert list(ranking(scores, keys, admitted)) == [3, 0]


def test_rrf_adds_one_over_k_plus_rank_per_list():
    fused, parts = rrf({"x": np.array([2, 0]), "y": np.array([0])}, size=3, k=60)
    assert parts["x"][2] == pytest.approx(1 / 61) and parts["x"][0] == pytest.approx(1 / 62)
    assert fused[0] == pytest.approx(1 / 62 + 1 / 61)
    assert fused[1] == 0
    assert fused[0] > fused[2]


def tiny_graph(extra_predicate: str | None = None) -> ProductGraph:
    """m1, m2 in conversation c; m3 in conversation d; all three in channel ch; m1 links to doc."""
    nodes = ["m1", "m2", "m3", "c", "d", "ch", "doc", "ekg-class"]
    preds = [expand("ekg:inConversation"), expand("ekg:inChannel"), expand("ekg:linksTo"), expand("rdf:type")]
    edges = [
        (0, 3, 0),
        (1, 3, 0),
        (2, 4, 0),
        (0, 5, 1),
        (1, 5, 1),
        (2, 5, 1),
        (0, 6, 2),
        (0, 7, 3),
        (1, 7, 3),
        (2, 7, 3),
    ]
    if extra_predicate:
        preds.append(extra_predicate)
        edges.append((2, 6, len(preds) - 1))
    src, dst, pred = (np.array(col, dtype=np.int32) for col in zip(*edges, strict=True))
    return ProductGraph(nodes, preds, src, dst, pred)


def test_ppr_spreads_along_thread_edges_more_than_along_the_shared_channel():
    graph = tiny_graph()
    seeds = np.zeros(len(graph.nodes))
    seeds[graph.index["m1"]] = 1.0
    prior = graph.ppr(seeds)
    assert prior[graph.index["m2"]] > prior[graph.index["m3"]] > 0
    assert prior[graph.index["doc"]] > prior[graph.index["m3"]]
    assert prior[graph.index["ekg-class"]] == 0  # rdf:type carries nothing


def test_ppr_gives_an_unlisted_predicate_the_default_weight_and_weights_change_without_reindex():
    new = "https://w3id.org/ekg/ont#someEdgeAddedLater"
    assert new not in weight_table() and DEFAULT_WEIGHT > 0
    graph = tiny_graph(new)
    seeds = np.zeros(len(graph.nodes))
    seeds[graph.index["doc"]] = 1.0
    assert graph.ppr(seeds)[graph.index["m3"]] > 0
    muted = ProductGraph(
        graph.nodes,
        graph.predicates,
        graph.src,
        graph.dst,
        graph.pred,
        weight_table({new: 0.0, "ekg:inChannel": 0.0}),
    )
    assert muted.ppr(seeds)[muted.index["m3"]] == 0


def test_graph_survives_save_and_load(tmp_path):
    graph = tiny_graph()
    graph.save(tmp_path)
    again = ProductGraph.load(tmp_path)
    seeds = np.zeros(len(graph.nodes))
    seeds[0] = 1
    assert again.nodes == graph.nodes and np.allclose(again.ppr(seeds), graph.ppr(seeds))


def test_ppr_of_no_seed_is_all_zero():
    graph = tiny_graph()
    assert not graph.ppr(np.zeros(len(graph.nodes))).any()


def test_context_text_of_a_message_is_its_whole_conversation():
    out = context_texts(["a", "b", "c"], [[0, 2]])
    assert out == ["a\nc", "b", "a\nc"]


def test_group_means_are_unit_length_and_shared_by_the_group():
    vectors = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]], dtype=np.float32)
    out = group_means(vectors, [[0, 1]])
    assert np.allclose(out[0], out[1]) and np.isclose(np.linalg.norm(out[0]), 1.0)
    assert np.allclose(out[2], vectors[2])


def test_anchors_find_graph_names_document_kinds_and_ids():
    labels = {"anomalyforce": ["p"], "alyaix": ["p"], "api security": ["comp"], "ada stone": ["eid_a"]}
    assert named_nodes("Issues in the API Security of alyAIX?", labels) == {
        "alyaix": ["p"],
        "api security": ["comp"],
    }
    assert list(kind_nodes("the Product Requirements Documents").values()) == [
        [term("ekg:ProductRequirementsDocument").value]
    ]
    assert id_nodes("did eid_0a1b2c3d tell CUST-0042?") == {
        "eid_0a1b2c3d": [node("person", "eid_0a1b2c3d").value],
        "CUST-0042": [node("customer", "CUST-0042").value],
    }
    known = {"p": 0, "comp": 1}
    assert anchors("Ada Stone on api security", labels, known) == {"api security": [1]}


def test_facets_bind_values_and_reject_bad_ones():
    assert Facets().constraints() == []
    names = [n for n, _ in Facets(kind="pr", role="QA Specialist", since="2026-01-01").constraints()]
    assert names == ["search_facet_kind", "search_facet_role", "search_facet_dates"]
    assert instant("2026-01-02", start=False).value == "2026-01-02T23:59:59"
    with pytest.raises(KGError, match="unknown kind"):
        Facets(kind="email").constraints()
    with pytest.raises(KGError, match="employee id"):
        Facets(author="Ada").constraints()
    with pytest.raises(KGError, match="expected a date"):
        Facets(since="last tuesday").constraints()


def test_dense_encoder_loads_offline_and_embeds_similar_texts_closer():
    from kg.search import dense

    if dense.unavailable():
        pytest.skip(dense.unavailable())
    vectors = dense.Encoder().encode(["slow data ingestion", "ingestion is lagging", "team lunch on friday"])
    assert vectors.shape == (3, dense.DIMENSIONS)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
