"""Code names (rule product-code-names, mappings/rules/features.md): the names a product's document ids carry
that are neither its name nor a former name ("prox" in `prox_market_research_report_final`, written "ProX"),
on the real HERB store, and read by the question reader as the product, as former names are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.ingest.build import build
from kg.ingest.rules.prs import id_name, is_code_name
from kg.qa.answer import Answerer
from kg.qa.question import parse
from kg.query.sparql import EmbeddedStore, product_dataset, term_text

#: A product's code names, each with the ids of the documents it is derived from.
CODE_NAMES = """
SELECT ?name ?doc WHERE {
  ?c a ekg:ProductCodeName ; ekg:codeName ?name ; ekg:codeNameOf ?p ; prov:wasDerivedFrom/dct:identifier ?doc .
  ?p a ekg:Product .
}
"""
KINDS = ("market_research_report", "product_vision_document", "product_requirements_document")


def code_names(answerer: Answerer, product: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for row in answerer.backend.select(CODE_NAMES, None, product_dataset(product)):
        out.setdefault(term_text(row["name"]), set()).add(term_text(row["doc"]))
    return out


def test_a_document_id_names_what_precedes_its_kind_version_words_aside() -> None:
    assert id_name("prox_market_research_report_final", "Market Research Report") == "prox"
    assert id_name("latest_atf_aix_product_vision_document", "Product Vision Document") == "atf_aix"
    assert id_name("final_onforcex_system_design_document", "System Design Document") == "onforcex"
    assert id_name("market_research_report", "Market Research Report") is None  # no name before the kind
    assert id_name("prox_notes", "Market Research Report") is None  # not of its kind's form


def test_a_code_name_is_long_enough_and_no_english_word_as_written() -> None:
    assert is_code_name("ProX") and is_code_name("pProX") and is_code_name("tuneprox")
    assert not is_code_name("prox")  # GCIDE has "prox"; only its coined spelling names the product
    assert not is_code_name("ai") and not is_code_name("market")


@pytest.mark.herb
def test_the_rule_gives_products_the_code_names_their_document_ids_carry(answerer: Answerer) -> None:
    leadforce, pitchforce = code_names(answerer, "LeadForce"), code_names(answerer, "PitchForce")
    assert set(leadforce) == {"ProX"} and set(pitchforce) == {"pProX"}  # as the text spells them
    assert {f"prox_{k}_final" for k in KINDS} <= leadforce["ProX"]
    assert all(doc.startswith("prox_") for doc in leadforce["ProX"]) and len(leadforce["ProX"]) == 5
    assert all(doc.startswith("pprox_") for doc in pitchforce["pProX"]) and len(pitchforce["pProX"]) == 5
    assert code_names(answerer, "ActionGenie") == {}  # its ids carry its former name, onForceX, alone
    assert code_names(answerer, "AnomalyForce") == {}  # its former name and its own name


@pytest.mark.herb
def test_no_code_name_is_a_name_the_product_has_or_one_another_product_has(answerer: Answerer) -> None:
    names = answerer.vocabulary.products
    rows = [(p, name) for p in sorted(set(names.values())) for name in code_names(answerer, p)]
    assert len(rows) == len({name.casefold() for _, name in rows}) == 10  # one a product, none shared
    for product, name in rows:
        assert len(name) >= 3 and name.casefold() != product.casefold()
        assert names[name.casefold()] == product


@pytest.mark.herb
def test_a_question_naming_a_product_by_its_code_name_reads_that_product(answerer: Answerer) -> None:
    vocab = answerer.vocabulary
    assert parse("Who authored the Market Research Report for ProX?", vocab).product == "LeadForce"
    assert parse("who authored the market research report for prox", vocab).product == "LeadForce"
    assert parse("Who authored the pProX final Product Requirements Document?", vocab).product == "PitchForce"
    assert parse("Which PRs were merged in the ProX repo?", vocab).product is None  # a repository, as said
    answer = answerer.ask("Find employee IDs of the authors and key reviewers of the Market Research Report for pProX?")
    assert answer.outcome == "answer" and answer.slots["product"] == "PitchForce"
    assert "pprox_market_research_report_final" in answer.citations


@pytest.mark.herb
@pytest.mark.slow
def test_a_code_name_two_products_share_names_neither(herb: Path, tmp_path: Path) -> None:
    """TrendForce's `dprox_…` documents renamed `pprox_…`: both products carry "pprox", so it names neither."""
    src = tmp_path / "herb"
    (src / "products").mkdir(parents=True)
    (src / "metadata").symlink_to(herb / "metadata")
    (src / "products" / "PitchForce.json").symlink_to(herb / "products" / "PitchForce.json")
    trend = json.loads((herb / "products" / "TrendForce.json").read_text())
    for doc in trend["documents"]:
        doc["id"] = doc["id"].replace("dprox_", "pprox_")
    (src / "products" / "TrendForce.json").write_text(json.dumps(trend))
    build(src, tmp_path / "store", products=["PitchForce", "TrendForce"], progress=False)
    shared = Answerer(EmbeddedStore(tmp_path / "store"))
    assert set(code_names(shared, "TrendForce")) == {"pprox"}  # TrendForce's text never writes it
    assert set(code_names(shared, "PitchForce")) == {"pProX"}
    assert "pprox" not in shared.vocabulary.products
    assert shared.vocabulary.products["daix"] == "TrendForce"  # nothing else lost: its former name stays
    assert parse("Who authored the Market Research Report for pProX?", shared.vocabulary).product is None
