"""kg/vocab.py against ontology/ekg.ttl: every ekg: term the code names is declared there, with the kind the code
uses it as, and every other term comes from a standard vocabulary."""

from __future__ import annotations

import pytest
from pyoxigraph import NamedNode, RdfFormat, Store

from kg import vocab
from kg.namespaces import DCT, EKG, OWL, PROV, RDF, RDFS, SKOS, XSD
from kg.paths import PROJECT

STANDARD = (RDF, RDFS, OWL, XSD, DCT, SKOS, PROV)


@pytest.fixture(scope="module")
def ontology() -> Store:
    store = Store()
    store.load(path=str(PROJECT / "ontology" / "ekg.ttl"), format=RdfFormat.TURTLE)
    return store


def constants() -> dict[str, NamedNode]:
    return {name: value for name, value in vars(vocab).items() if isinstance(value, NamedNode)}


def test_every_ekg_constant_is_made_by_its_kind_helper() -> None:
    ekg = {name: v.value for name, v in constants().items() if v.value.startswith(EKG)}
    assert len(ekg) == len(vocab.KINDS) > 60
    assert set(ekg.values()) == set(vocab.KINDS)


@pytest.mark.parametrize("iri,kind", sorted(vocab.KINDS.items()))
def test_ekg_term_is_declared_with_its_kind(ontology: Store, iri: str, kind: str) -> None:
    declared = {q.object.value for q in ontology.quads_for_pattern(NamedNode(iri), NamedNode(RDF + "type"), None)}
    assert OWL + kind in declared, f"{iri} is used as owl:{kind}; ekg.ttl declares {sorted(declared) or 'nothing'}"


def test_other_terms_come_from_standard_vocabularies() -> None:
    foreign = {n: v.value for n, v in constants().items() if not v.value.startswith((EKG, *STANDARD))}
    assert foreign == {}


def test_a_term_used_as_the_wrong_kind_is_caught(ontology: Store) -> None:
    """The kind check has teeth: ekg:text is a datatype property, so naming it an object property would fail."""
    declared = {q.object.value for q in ontology.quads_for_pattern(vocab.TEXT, NamedNode(RDF + "type"), None)}
    assert OWL + "DatatypeProperty" in declared
    assert OWL + "ObjectProperty" not in declared
