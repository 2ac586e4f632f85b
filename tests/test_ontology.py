"""The ontology: OWL 2 DL hygiene, every term documented, HermiT consistency, and its release in sync."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from programs import require
from rdflib import OWL, RDF, RDFS, SKOS, Dataset, Graph, URIRef
from rdflib.compare import isomorphic

from kg.namespaces import EKG, expand

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("ontology_release", ROOT / "ontology" / "release.py")
_rel = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_rel)
RELEASE, SOURCE, release, source_graph = _rel.RELEASE, _rel.SOURCE, _rel.release, _rel.source_graph
SAMPLE = ROOT / "tests" / "fixtures" / "ekg_sample.trig"
OWL_TYPES = (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty, OWL.NamedIndividual)


@pytest.fixture(scope="module")
def onto() -> Graph:
    return source_graph()


def ekg_terms(g: Graph, kind: URIRef) -> list[URIRef]:
    return sorted(s for s in g.subjects(RDF.type, kind) if isinstance(s, URIRef) and s.startswith(EKG))


def test_release_is_in_sync_with_source(tmp_path: Path) -> None:
    fresh = tmp_path / "ekg.owl"
    release(SOURCE, fresh)
    assert fresh.read_bytes() == RELEASE.read_bytes(), "ekg.owl is stale: run python ontology/release.py"
    assert isomorphic(source_graph(), Graph().parse(RELEASE, format="xml"))


def test_ontology_header(onto: Graph) -> None:
    header = URIRef("https://w3id.org/ekg/ont")
    assert (header, RDF.type, OWL.Ontology) in onto
    assert onto.value(header, OWL.versionIRI) is not None
    for prop in ("title", "description", "license", "creator", "contributor"):
        assert onto.value(header, URIRef(f"http://purl.org/dc/terms/{prop}")) is not None, prop


def test_every_definition_is_also_the_comment_protege_shows(onto: Graph) -> None:
    defined = list(onto.subject_objects(SKOS.definition))
    assert len(defined) > 100
    assert [t for t, text in defined if set(onto.objects(t, RDFS.comment)) != {text}] == []


def test_the_protege_catalog_maps_the_ontology_iris_to_the_release() -> None:
    catalog = ET.parse(ROOT / "ontology" / "catalog-v001.xml").getroot()
    uris = {e.get("name"): e.get("uri") for e in catalog if e.tag == "{urn:oasis:names:tc:entity:xmlns:xml:catalog}uri"}
    release = Graph().parse(RELEASE, format="xml")
    header = next(release.subjects(RDF.type, OWL.Ontology))
    assert uris == {str(header): RELEASE.name, str(release.value(header, OWL.versionIRI)): RELEASE.name}


def test_every_iri_has_one_owl_type(onto: Graph) -> None:
    """OWL 2 DL: no IRI is both a class and a property, or an object and a data property."""
    for subject in set(onto.subjects(RDF.type, None)):
        kinds = {t for t in onto.objects(subject, RDF.type) if t in OWL_TYPES} - {OWL.NamedIndividual}
        assert len(kinds) <= 1, f"{subject} is typed {sorted(kinds)}"
        if (subject, RDF.type, OWL.NamedIndividual) in onto:
            assert not kinds, f"{subject} is both an individual and {kinds}"


def test_every_ekg_term_has_label_and_definition(onto: Graph) -> None:
    terms = [t for kind in OWL_TYPES for t in ekg_terms(onto, kind)]
    assert len(terms) > 100
    for t in terms:
        assert onto.value(t, RDFS.label) is not None, f"{t} has no rdfs:label"
        assert onto.value(t, SKOS.definition) is not None, f"{t} has no skos:definition"


def test_every_object_property_has_domain_and_range(onto: Graph) -> None:
    props = ekg_terms(onto, OWL.ObjectProperty)
    assert len(props) > 40
    for p in props:
        assert onto.value(p, RDFS.domain) is not None, f"{p} has no domain"
        assert onto.value(p, RDFS.range) is not None, f"{p} has no range"


def test_concepts_are_typed_and_in_their_scheme(onto: Graph) -> None:
    concept_classes = set(onto.subjects(RDFS.subClassOf, SKOS.Concept))
    schemes = set(onto.subjects(RDF.type, SKOS.ConceptScheme))
    individuals = [i for i in ekg_terms(onto, OWL.NamedIndividual) if i not in schemes]
    assert len(individuals) >= 28
    for ind in individuals:
        assert set(onto.objects(ind, RDF.type)) & concept_classes, f"{ind} has no concept class"
        scheme = onto.value(ind, SKOS.inScheme)
        assert (scheme, RDF.type, SKOS.ConceptScheme) in onto, f"{ind} is in no declared scheme"


def declared(onto: Graph) -> set[str]:
    return {str(s) for s in onto.subjects(RDF.type, None)}


def test_vocabulary_contract_terms_are_declared(onto: Graph) -> None:
    """Every ekg: term docs/vocabulary.md names exists, so code written against the contract is typed."""
    named = set(re.findall(r"\bekg:[A-Za-z]+", (ROOT / "docs" / "vocabulary.md").read_text()))
    missing = sorted(t for t in named if expand(t) not in declared(onto))
    assert not missing, f"terms in docs/vocabulary.md missing from the ontology: {missing}"


def test_terms_used_by_the_build_are_declared(onto: Graph) -> None:
    """Every ekg:/prov:/dct:/foaf:/skos: term the mapping and the rules write is declared in the ontology."""
    sources = [
        *(ROOT / "kg" / "ingest" / "rules").glob("*.py"),
        ROOT / "kg" / "ingest" / "build.py",
        ROOT / "kg" / "ingest" / "mapping.py",
        *(ROOT / "mappings").glob("*.yaml"),
    ]
    assert all(path.is_file() for path in sources) and len(sources) > 5, sources
    used = {t for path in sources for t in re.findall(r"\b(?:ekg|prov|dct|foaf|skos):[A-Za-z]+\b", path.read_text())}
    missing = sorted(t for t in used if expand(t) not in declared(onto))
    assert not missing, f"terms written by the build but not declared in ontology/ekg.ttl: {missing}"


def hermit(path: Path):
    """Load an RDF/XML file into a fresh owlready2 world and classify it with HermiT; returns the world."""
    require("java")
    owlready2 = pytest.importorskip("owlready2")
    world = owlready2.World()
    world.get_ontology(path.as_uri()).load()
    owlready2.sync_reasoner(world, infer_property_values=False, debug=0)
    return world


def test_hermit_consistent_without_unsatisfiable_classes() -> None:
    world = hermit(RELEASE)
    assert list(world.inconsistent_classes()) == []
    assert len(list(world.classes())) > 50


def test_hermit_finds_a_planted_contradiction(tmp_path: Path) -> None:
    """The disjointness axioms are live: a class under two disjoint classes comes out unsatisfiable."""
    g = source_graph()
    g.add((URIRef(EKG + "Bug"), RDFS.subClassOf, URIRef(EKG + "Feature")))
    broken = tmp_path / "broken.owl"
    g.serialize(broken, format="xml")
    world = hermit(broken)
    assert {c.iri for c in world.inconsistent_classes()} - {str(OWL.Nothing)} == {EKG + "Bug"}


def owl2_dl_violations(path: Path) -> list[str]:
    """The OWL API's OWL 2 DL profile violations of an ontology document (tests/Owl2DLProfile.java, run with the
    OWL API that owlready2's HermiT.jar bundles); [] when it is in OWL 2 DL."""
    require("java")
    owlready2 = pytest.importorskip("owlready2")
    jar = Path(owlready2.__file__).parent / "hermit" / "HermiT.jar"
    checker = ROOT / "tests" / "Owl2DLProfile.java"
    done = subprocess.run(["java", "-cp", str(jar), str(checker), str(path)], capture_output=True, text=True)
    assert done.returncode in (0, 1) and "axioms; in OWL 2 DL:" in done.stdout, done.stderr[-2000:]
    return done.stdout.splitlines()[:-1]


@pytest.mark.slow
def test_the_release_is_in_the_owl2_dl_profile_and_a_planted_violation_is_not(tmp_path: Path) -> None:
    assert owl2_dl_violations(RELEASE) == []
    g = source_graph()
    g.add((URIRef(EKG + "Bug"), RDFS.subClassOf, URIRef(EKG + "Undeclared")))  # OWL 2 DL declares every class
    broken = tmp_path / "broken.owl"
    g.serialize(broken, format="xml")
    assert [v.split(":")[0] for v in owl2_dl_violations(broken)] == ["Use of undeclared class"]


def test_hermit_accepts_the_sample_instance_data(tmp_path: Path) -> None:
    """Typical instance data (every kind of node the build writes) does not contradict the domains, ranges
    and disjointness axioms; a contradicting statement is caught."""
    owlready2 = pytest.importorskip("owlready2")
    g = source_graph()
    for s, p, o, _ in Dataset().parse(SAMPLE, format="trig").quads():
        g.add((s, p, o))
    sample = tmp_path / "sample.owl"
    g.serialize(sample, format="xml")
    hermit(sample)
    g.add((URIRef("https://w3id.org/ekg/id/bug/Demo/slow-sync"), RDF.type, URIRef(EKG + "Feature")))
    g.serialize(sample, format="xml")
    with pytest.raises(owlready2.OwlReadyInconsistentOntologyError):
        hermit(sample)
