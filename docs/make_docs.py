"""Build the browsable HTML documentation of the ontology: `python docs/make_docs.py` -> docs/ontology/index.html.

pyLODE (OntPub profile) renders every class and property of `ontology/ekg.ttl` with its label, definition,
domain, range and super-classes. The page is committed; `tests/test_docs.py` fails while it is stale.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections import Counter
from html import escape
from pathlib import Path

from rdflib import OWL, RDF, RDFS, SKOS, Graph, Literal, URIRef
from rdflib.compare import to_canonical_graph

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "ontology" / "ekg.ttl"
TARGET = ROOT / "docs" / "ontology" / "index.html"


#: The project's base namespace (the ontology's own IRI is under it): named, so the page shows no `ns1`
PROJECT_PREFIX = ("w3ekg", "https://w3id.org/ekg/")


def documented_graph(source: Path = SOURCE) -> Graph:
    """The ontology as pyLODE should read it.

    OntPub takes every skos:ConceptScheme for the ontology itself (title, metadata), so the page would be
    titled after one of our controlled vocabularies; the schemes' own typing is left out of this copy. It also
    joins the ontology's title and label into one heading, so the label is left out; two reused classes
    both labelled "Agent" (PROV-O's and FOAF's) are told apart by their prefix; and a term's rdfs:comment that
    repeats its skos:definition (there for Protégé) is left out, so the page shows the text once.
    """
    parsed = Graph().parse(source, format="turtle")
    graph = Graph()
    for prefix, ns in parsed.namespaces():
        graph.bind(prefix, ns, override=True)
    graph.bind(*PROJECT_PREFIX, override=True)
    # Content-derived blank-node labels: pyLODE orders union members by them, so random ones reorder the page.
    for triple in to_canonical_graph(parsed):
        graph.add(triple)
    for scheme in list(graph.subjects(RDF.type, SKOS.ConceptScheme)):
        graph.remove((scheme, RDF.type, SKOS.ConceptScheme))
    for ontology in list(graph.subjects(RDF.type, OWL.Ontology)):
        graph.remove((ontology, RDFS.label, None))
    for term, definition in list(graph.subject_objects(SKOS.definition)):
        graph.remove((term, RDFS.comment, definition))
    for term, label in shared_labels(graph):
        graph.set(
            (term, RDFS.label, Literal(f"{label} ({graph.namespace_manager.qname(term).split(':')[0]})", lang="en"))
        )
    return graph


def shared_labels(graph: Graph) -> list[tuple[URIRef, str]]:
    """(term, label) of every class or property whose label another term of the same kind also has."""
    found = []
    for kind in (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty):
        terms = sorted(set(graph.subjects(RDF.type, kind)), key=str)
        labels = {term: str(graph.value(term, RDFS.label)) for term in terms if graph.value(term, RDFS.label)}
        counts = Counter(labels.values())
        found += [(term, label) for term, label in labels.items() if counts[label] > 1]
    return found


def individual_label(graph: Graph, term: URIRef) -> str:
    return str(graph.value(term, SKOS.prefLabel) or graph.value(term, RDFS.label) or graph.qname(term))


def individuals_html(graph: Graph) -> tuple[str, str]:
    """The named individuals (bug states, document kinds, …), which OntPub leaves out: a section in its
    markup, and the table-of-contents entry for it. A label two individuals share is told apart by scheme."""
    terms = sorted(graph.subjects(RDF.type, OWL.NamedIndividual), key=lambda t: individual_label(graph, t).lower())
    shared = Counter(individual_label(graph, t) for t in terms)
    entries, links = [], []
    for term in terms:
        anchor = "ni-" + graph.qname(term).replace(":", "-")
        scheme = graph.value(term, SKOS.inScheme)
        name = individual_label(graph, term)
        if shared[name] > 1 and scheme is not None:
            name += f" ({individual_label(graph, scheme)})"
        types = ", ".join(sorted(graph.qname(c) for c in graph.objects(term, RDF.type) if c != OWL.NamedIndividual))
        rows = [("IRI", f"<code>{escape(str(term))}</code>"), ("Type", escape(types))]
        if scheme is not None:
            rows.append(("In scheme", escape(individual_label(graph, scheme))))
        if definition := graph.value(term, SKOS.definition) or graph.value(term, RDFS.comment):
            rows.append(("Definition", f"<p>{escape(str(definition))}</p>"))
        cells = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
        entries.append(
            f'<div class="property entity" id="{anchor}"><h3>{escape(name)} '
            f'<sup class="sup-ni" title="OWL Named Individual">ni</sup></h3><table>{cells}</table></div>'
        )
        links.append(f'<li><a href="#{anchor}">{escape(name)}</a></li>')
    section = f'<div id="namedindividuals" class="section"><h2>Named Individuals</h2>{"".join(entries)}</div>\n'
    toc = f'<li><h4><a href="#namedindividuals">Named Individuals</a></h4><ul class="second">{"".join(links)}</ul></li>'
    return section, toc


_NAMESPACES = re.compile(r'(\s*)<div id="namespaces">')
_TOC_NAMESPACES = re.compile(r'<li>\s*<h4>\s*<a href="#namespaces">')


def with_individuals(page: str, graph: Graph) -> str:
    """The page with the named-individuals section before the namespaces, and in the table of contents."""
    section, toc = individuals_html(graph)
    page = _NAMESPACES.sub(lambda m: m.group(1) + section + m.group(0).lstrip(), page, count=1)
    return _TOC_NAMESPACES.sub(lambda m: toc + m.group(0), page, count=1)


_UNION_CELL = re.compile(r"<td>(?:(?!</td>).)*?<span class=\"cardinality\">or</span>.*?</td>", re.S)
_OR = re.compile(r"\s*<span class=\"cardinality\">or</span>\s*")


def sorted_unions(page: str) -> str:
    """pyLODE lists a union's members from a set of HTML elements (an order that changes from run to run);
    sort them, so the page only changes when the ontology does."""

    def sort_cell(match: re.Match[str]) -> str:
        inner = match.group(0)[len("<td>") : -len("</td>")]
        lead, body, tail = re.match(r"(\s*)(.*?)(\s*)$", inner, re.S).groups()
        separator = _OR.search(body).group(0)
        return f"<td>{lead}{separator.join(sorted(_OR.split(body)))}{tail}</td>"

    return _UNION_CELL.sub(sort_cell, page)


def html(source: Path = SOURCE) -> str:
    from pylode import OntPub

    graph = documented_graph(source)
    return with_individuals(sorted_unions(OntPub(ontology=graph, sort_subjects=True).make_html()), graph)


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--out", type=Path, default=TARGET, help=f"where to write the page (default {TARGET})")
    out = args.parse_args(argv).out
    if os.environ.get("PYTHONHASHSEED") != "0":
        # pyLODE lists some terms in set order; a fixed hash seed makes the page the same on every run.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        return subprocess.run([sys.executable, __file__, "--out", str(out)], env=env, check=False).returncode
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html(), encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
