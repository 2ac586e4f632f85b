"""Draw the ontology for the README: classes, subclass edges and object properties (domain -> range).

A development step, not part of the build: needs Graphviz `dot` (Debian: `apt-get install graphviz`).
Run `python docs/make_ontology_diagram.py`; it reads ontology/ekg.ttl and writes docs/ontology.svg and
docs/ontology.png, which are committed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from rdflib import OWL, RDF, RDFS, BNode, Graph, URIRef
from rdflib.collection import Collection

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "ontology" / "ekg.ttl"
OUT = ROOT / "docs"
EKG = "https://w3id.org/ekg/ont#"
PREFIXES = {EKG: "", "http://www.w3.org/ns/prov#": "prov:", "http://xmlns.com/foaf/0.1/": "foaf:",
            "http://www.w3.org/2004/02/skos/core#": "skos:", "http://www.w3.org/2001/XMLSchema#": "xsd:"}
PREFIXES_REV = {prefix: ns for ns, prefix in PREFIXES.items()}

#: Clusters, in drawing order: (title, fill colour, classes). Vocabulary classes are not drawn as boxes:
#: a property whose range is one of them is listed inside its domain's box, like an attribute.
GROUPS: list[tuple[str, str, list[str]]] = [
    ("agents (prov:Agent)", "#dbe9f6", ["Employee", "Customer", "Account", "prov:Agent", "Company", "Team"]),
    ("products (prov:Entity)", "#fde9c9", ["ProductOffering", "Product", "Release", "CompetitorProduct"]),
    ("artifacts: prov:Entity with a HERB id (dct:identifier)", "#dcefd9",
     ["Artifact", "Document", "MeetingArtifact", "MeetingTranscript", "MeetingChat", "SlackMessage",
      "PullRequest", "WebLink"]),
    ("structure (prov:Entity)", "#e8e0f3",
     ["SlackChannel", "Conversation", "PullRequestReview", "Repository"]),
    ("derived knowledge: prov:Entity with prov:wasDerivedFrom its artifacts", "#f9d9d9",
     ["Bug", "BugEvent", "Feature", "FeatureDecision", "Suggestion", "DocumentReview", "DemoLink",
      "CompetitorInsight", "Contribution", "ReleaseFeedback", "ProductRename"]),
]
#: Very generic domains whose edges would only add clutter (every entity may be about a product).
SKIP_DOMAINS = {"prov:Entity"}


def short(iri: URIRef) -> str:
    for ns, prefix in PREFIXES.items():
        if iri.startswith(ns):
            return prefix + iri[len(ns):]
    return str(iri)


def members(g: Graph, cls: URIRef | BNode) -> list[str]:
    """A class expression as drawable class names: a named class, or the members of an owl:unionOf."""
    if isinstance(cls, URIRef):
        return [short(cls)]
    union = g.value(cls, OWL.unionOf)
    return [short(m) for m in Collection(g, union)] if union is not None else []


def vocabularies(g: Graph) -> set[str]:
    return {short(c) for c in g.subjects(RDFS.subClassOf, URIRef(PREFIXES_REV["skos:"] + "Concept"))}


def subclass_edges(g: Graph, drawn: set[str]) -> Iterator[tuple[str, str]]:
    for sub, sup in g.subject_objects(RDFS.subClassOf):
        if isinstance(sub, URIRef) and isinstance(sup, URIRef) and {short(sub), short(sup)} <= drawn:
            yield short(sub), short(sup)


def property_edges(g: Graph, kind: URIRef) -> Iterator[tuple[str, str, str]]:
    """(domain, range, property) for every property of `kind`, unions spread into their members."""
    for prop in sorted(g.subjects(RDF.type, kind)):
        domain, rng = g.value(prop, RDFS.domain), g.value(prop, RDFS.range)
        if domain is None or rng is None:
            continue
        for d in members(g, domain):
            for r in members(g, rng):
                if d not in SKIP_DOMAINS:
                    yield d, r, short(prop)


def subclass_names(g: Graph, cls: str) -> list[str]:
    return sorted(short(s) for s in g.subjects(RDFS.subClassOf, URIRef(EKG + cls)) if isinstance(s, URIRef))


def node_label(g: Graph, name: str, attributes: list[str]) -> str:
    """An HTML-like label: the class name in bold, then its attribute lines (property: range)."""
    subs = [s for s in subclass_names(g, name) if s.startswith("Bug")]
    rows = [f"<B>{name}</B>"] + ([f"<I>{' | '.join(subs)}</I>"] if subs else [])
    rows += [f'<FONT POINT-SIZE="11">{a}</FONT>' for a in attributes]
    body = "".join(f'<TR><TD ALIGN="LEFT">{r}</TD></TR>' for r in rows)
    return f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{body}</TABLE>>'


def dot_source(g: Graph) -> str:
    drawn = {name for _, _, names in GROUPS for name in names}
    vocab = vocabularies(g)
    attributes: dict[str, list[str]] = {n: [] for n in drawn}
    edges: list[tuple[str, str, str]] = []
    for d, r, prop in property_edges(g, OWL.ObjectProperty):
        if d in drawn and r in vocab:
            attributes[d].append(f"{prop}: {r}")
        elif d in drawn and r in drawn:
            edges.append((d, r, prop))
    for d, r, prop in property_edges(g, OWL.DatatypeProperty):
        if d in drawn:
            attributes[d].append(f"{prop}: {r}")
    lines = ["digraph ekg {",
             '  graph [rankdir=LR, fontname="Helvetica", fontsize=24, nodesep=0.3, ranksep=1.1, labelloc=t,'
             ' label="ekg ontology (https://w3id.org/ekg/ont#). Grey: rdfs:subClassOf. Blue: object property'
             ' (domain -> range). Every artifact and derived node also has prov:wasAttributedTo / '
             'prov:wasDerivedFrom / ekg:aboutProduct."];',
             '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=15];',
             '  edge [fontname="Helvetica", fontsize=12];']
    for i, (title, colour, names) in enumerate(GROUPS):
        lines.append(f'  subgraph cluster_{i} {{ label="{title}"; fontsize=18; style=rounded; color=gray60;')
        lines.extend(f"    {node_id(n)} [fillcolor=\"{colour}\", label={node_label(g, n, attributes[n])}];"
                     for n in names)
        lines.append("  }")
    for sub, sup in sorted(set(subclass_edges(g, drawn))):
        lines.append(f'  {node_id(sub)} -> {node_id(sup)} [color="#888888", arrowhead=empty, penwidth=1.6];')
    for d, r, label in sorted(set(edges)):
        style = 'color="#3b6ea8", fontcolor="#1f3f66"'
        lines.append(f'  {node_id(d)} -> {node_id(r)} [label="{label}", {style}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def node_id(name: str) -> str:
    return '"' + name + '"'


def render(source: str, fmt: str, target: Path) -> None:
    extra = ["-Gdpi=110"] if fmt == "png" else []
    subprocess.run(["dot", f"-T{fmt}", *extra, "-o", str(target)], input=source.encode(), check=True)


def main() -> int:
    if shutil.which("dot") is None:
        print("needs Graphviz `dot` on PATH (Debian: apt-get install graphviz)", file=sys.stderr)
        return 1
    source = dot_source(Graph().parse(SOURCE, format="turtle"))
    for fmt in ("svg", "png"):
        render(source, fmt, OUT / f"ontology.{fmt}")
    print(f"wrote {OUT / 'ontology.svg'} and {OUT / 'ontology.png'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
