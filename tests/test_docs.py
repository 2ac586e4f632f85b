"""The ontology's documentation: the pyLODE page is in sync with ekg.ttl, and the family pictures are drawn from
the ontology with the terms their questions use, small enough to read at the README's width."""

from __future__ import annotations

import importlib.util
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from programs import needs

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, DOCS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


diagrams = _load("make_diagrams")

#: Terms each family's questions depend on; the picture must show every one of them.
REQUIRED = {
    "artifacts-agents": [
        "foaf:Person",
        "ekg:Role",
        "ekg:hasRole",
        "ekg:Employee",
        "ekg:Customer",
        "ekg:url",
        "prov:wasAttributedTo",
        "dct:identifier",
    ],
    "documents-reviews": [
        "ekg:Document",
        "ekg:DocumentReview",
        "ekg:reviewedBy",
        "ekg:hasRole",
        "ekg:Role",
        "ekg:documentKind",
        "ekg:versionStatus",
    ],
    "bugs": ["ekg:Bug", "ekg:BugEvent", "ekg:fixedBy", "ekg:assignedTo", "ekg:affectsCustomer"],
    "features-prs": [
        "ekg:Feature",
        "ekg:PullRequest",
        "ekg:changeSummary",
        "ekg:description",
        "ekg:url",
        "ekg:implementedBy",
        "ekg:reviewer",
    ],
    "releases-competitors": [
        "ekg:CompetitorProduct",
        "ekg:strength",
        "ekg:weakness",
        "ekg:Release",
        "ekg:previousRelease",
        "ekg:url",
        "ekg:description",
    ],
}


def test_html_documentation_is_in_sync_with_the_ontology(tmp_path: Path) -> None:
    fresh = tmp_path / "index.html"
    subprocess.run([sys.executable, str(DOCS / "make_docs.py"), "--out", str(fresh)], check=True, capture_output=True)
    committed = (DOCS / "ontology" / "index.html").read_text(encoding="utf-8")
    assert fresh.read_text(encoding="utf-8") == committed, "docs/ontology/index.html is stale: run docs/make_docs.py"
    for term in ("ekg:hasRole", "ekg:changeSummary", "ekg:DocumentReview"):
        assert f'id="{term.split(":")[1]}"' in committed, term


def test_html_documentation_reads_well() -> None:
    """One title, no made-up `ns1` prefix, no two terms shown under one name, every named individual shown."""
    from rdflib import OWL, RDF, Graph

    page = (DOCS / "ontology" / "index.html").read_text(encoding="utf-8")
    assert "<h1>Enterprise Knowledge Graph ontology</h1>" in page
    assert "<title>Enterprise Knowledge Graph ontology</title>" in page
    assert ">ns1<" not in page and 'id="w3ekg"' in page
    assert ">Agent (prov)<" in page and ">Agent (foaf)<" in page and '<a href="#Agent">Agent</a>' not in page
    individuals = set(Graph().parse(ROOT / "ontology" / "ekg.ttl").subjects(RDF.type, OWL.NamedIndividual))
    shown = re.findall(r'id="ni-ekg-([A-Za-z]+)"', page)
    assert len(individuals) == 50 and sorted(shown) == sorted(str(i).rsplit("#", 1)[1] for i in individuals)
    assert '<a href="#namedindividuals">Named Individuals</a>' in page


def test_every_family_shows_the_terms_its_questions_use() -> None:
    onto = diagrams.Ontology()
    for name, terms in REQUIRED.items():
        drawn = diagrams.drawn_terms(onto, diagrams.FAMILIES[name])
        assert set(terms) <= drawn, f"{name} misses {set(terms) - drawn}"
        assert len(diagrams.FAMILIES[name].classes) <= 25, name


def test_a_narrowed_edge_outside_the_declared_domain_is_refused() -> None:
    onto = diagrams.Ontology()
    family = diagrams.Family("bad", ["ekg:Bug", "ekg:Role"], ["ekg:hasRole ekg:Bug->ekg:Role"])
    with pytest.raises(ValueError, match="not within"):
        list(diagrams.placed_edges(onto, family))


@needs("dot")
def test_the_generator_draws_every_family_at_readme_width(tmp_path: Path) -> None:
    assert diagrams.main(["--out", str(tmp_path)]) == 0
    for name, terms in REQUIRED.items():
        svg = (tmp_path / f"{name}.svg").read_text(encoding="utf-8")
        texts = set(re.findall(r"<text[^>]*>([^<]+)</text>", svg))
        for term in terms:
            assert diagrams.shown(term) in texts, f"{name}.svg does not show {term}"
        png = (tmp_path / f"{name}.png").read_bytes()
        width, _height = struct.unpack(">II", png[16:24])
        assert width == diagrams.README_WIDTH, name
        natural = float(re.search(r'<svg width="([\d.]+)pt"', svg).group(1))
        assert natural <= 1250, f"{name} is {natural} pt wide: its text would be too small at README width"


def test_every_pipeline_box_names_a_folder_that_exists() -> None:
    """A moved folder cannot leave the architecture picture behind (data boxes live outside the repository)."""
    missing = [s.path for s in diagrams.STAGES.values() if not s.data and not (ROOT / s.path).exists()]
    assert missing == []
    assert {a for a, _, _ in diagrams.FLOWS} | {b for _, b, _ in diagrams.FLOWS} <= set(diagrams.STAGES)


@needs("dot")
def test_the_pipeline_picture_shows_each_folder_and_the_readme_embeds_it(tmp_path: Path) -> None:
    assert diagrams.main(["--out", str(tmp_path)]) == 0
    texts = set(re.findall(r"<text[^>]*>([^<]+)</text>", (tmp_path / "pipeline.svg").read_text(encoding="utf-8")))
    assert {s.path for s in diagrams.STAGES.values()} <= texts
    assert "![The ekg pipeline" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert (DOCS / "diagrams" / "pipeline.svg").read_text(encoding="utf-8").count("<text") == sum(
        1 for _ in re.finditer("<text", (tmp_path / "pipeline.svg").read_text(encoding="utf-8"))
    )
    layers = (tmp_path / "layers.svg").read_text(encoding="utf-8")
    units = {u for row in diagrams.layer_units()[1:] for u in row}
    assert units <= set(re.findall(r"<text[^>]*>([^<]+)</text>", layers)), "a layer's unit is not drawn"
    drawn = re.findall(r"<text[^>]*>([^<]+)</text>", (DOCS / "diagrams" / "layers.svg").read_text(encoding="utf-8"))
    assert sorted(drawn) == sorted(re.findall(r"<text[^>]*>([^<]+)</text>", layers)), "python docs/make_diagrams.py"
