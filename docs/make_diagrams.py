"""Draw the ontology as one small picture per family of questions, from `ontology/ekg.ttl` itself, and the
pipeline's stages with the folder that holds each.

`python docs/make_diagrams.py [--out DIR]` writes `<family>.svg` and `<family>.png` (880 px wide, the README's
width), `pipeline.svg` / `pipeline.png` and `layers.svg` / `layers.png` (pyproject.toml's [tool.ekg] layers, with
the imports between them) into docs/diagrams/. Needs Graphviz `dot` (Debian: `apt-get install
graphviz`).

The table `FAMILIES` only chooses *which* terms a picture shows; every box, edge label, domain and range is read
from the ontology. Where a property's declared domain or range is generic (`prov:Entity`, `prov:Agent`, none at
all), the table names the drawn class it is shown on, and the generator checks that class is a subclass of the
declared one, so a picture never states what the ontology does not.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rdflib import OWL, RDF, RDFS, SKOS, BNode, Graph, URIRef
from rdflib.collection import Collection

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "ontology" / "ekg.ttl"
OUT = ROOT / "docs" / "diagrams"
README_WIDTH = 880
PREFIXES = {
    "ekg": "https://w3id.org/ekg/ont#",
    "prov": "http://www.w3.org/ns/prov#",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "dct": "http://purl.org/dc/terms/",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
}

#: Fill colour of a box by the root it descends from (first match wins); vocabularies are grey ellipses.
COLOURS = [
    ("ekg:Artifact", "#dcefd9"),
    ("prov:Agent", "#dbe9f6"),
    ("foaf:Agent", "#dbe9f6"),
    ("ekg:ProductOffering", "#fde9c9"),
    ("prov:Entity", "#f9d9d9"),
]
VOCABULARY_COLOUR = "#eeeeee"
LEGEND = "names without a prefix are ekg:  ·  grey arrow: subclass of  ·  blue arrow: object property (domain to range)"


@dataclass(frozen=True)
class Family:
    """One picture: its title, the classes drawn, and the properties drawn between or inside them.

    `edges` are object properties as `"prop"` (drawn between its declared domain and range) or
    `"prop Domain->Range"` (drawn between these narrower classes); `attributes` are datatype properties as
    `"prop"` (listed in its declared domain's box) or `"prop Class"`.
    """

    title: str
    classes: list[str]
    edges: list[str]
    attributes: list[str] = field(default_factory=list)
    rankdir: str = "TB"


FAMILIES: dict[str, Family] = {
    "overview": Family(
        "ekg ontology: overview (each family has its own picture)",
        [
            "ekg:Artifact",
            "ekg:Document",
            "ekg:SlackMessage",
            "ekg:MeetingArtifact",
            "ekg:PullRequest",
            "ekg:WebLink",
            "foaf:Person",
            "ekg:Employee",
            "ekg:Customer",
            "ekg:Role",
            "ekg:Product",
            "ekg:DocumentReview",
            "ekg:Bug",
            "ekg:Feature",
            "ekg:Release",
            "ekg:CompetitorProduct",
        ],
        [
            "prov:wasAttributedTo ekg:Artifact->ekg:Employee",
            "ekg:aboutProduct ekg:Artifact->ekg:Product",
            "ekg:hasRole",
            "ekg:customerOf",
            "ekg:reviewedDocument",
            "ekg:reviewedBy",
            "prov:wasDerivedFrom ekg:Bug->ekg:Artifact",
            "ekg:fixedBy",
            "ekg:implementedBy",
            "ekg:competitorOf",
            "ekg:previousRelease",
            "ekg:mentions",
        ],
        ["dct:identifier ekg:Artifact"],
    ),
    "artifacts-agents": Family(
        "Artifacts and agents",
        [
            "ekg:Artifact",
            "ekg:Document",
            "ekg:MeetingArtifact",
            "ekg:MeetingTranscript",
            "ekg:MeetingChat",
            "ekg:SlackMessage",
            "ekg:PullRequest",
            "ekg:WebLink",
            "ekg:SlackChannel",
            "ekg:Conversation",
            "prov:Agent",
            "foaf:Person",
            "ekg:Employee",
            "ekg:Customer",
            "ekg:Account",
            "ekg:Company",
            "ekg:Team",
            "ekg:Role",
            "ekg:Product",
        ],
        [
            "prov:wasAttributedTo ekg:Artifact->prov:Agent",
            "ekg:aboutProduct ekg:Artifact->ekg:Product",
            "ekg:hasRole",
            "ekg:reportsTo",
            "ekg:memberOf",
            "ekg:teamOf",
            "ekg:worksFor",
            "ekg:customerOf",
            "ekg:mentions",
            "ekg:mentionsCustomer",
            "ekg:sharesLink",
            "ekg:inChannel",
            "ekg:inConversation",
            "ekg:conversationIn",
            "ekg:attendee",
        ],
        [
            "dct:identifier ekg:Artifact",
            "dct:created ekg:Artifact",
            "ekg:text ekg:Artifact",
            "ekg:url ekg:Artifact",
            "foaf:name foaf:Person",
            "ekg:location",
            "ekg:jobTitle",
            "ekg:meetingType",
        ],
    ),
    "documents-reviews": Family(
        "Documents and reviews",
        [
            "ekg:Artifact",
            "ekg:Document",
            "ekg:DocumentKind",
            "ekg:VersionStatus",
            "ekg:DocumentReview",
            "ekg:Suggestion",
            "ekg:MeetingArtifact",
            "ekg:SlackMessage",
            "ekg:Employee",
            "ekg:Role",
            "ekg:Product",
        ],
        [
            "ekg:documentKind ekg:Document->ekg:DocumentKind",
            "ekg:versionStatus",
            "prov:wasRevisionOf ekg:Document->ekg:Document",
            "prov:wasAttributedTo ekg:Document->ekg:Employee",
            "ekg:aboutProduct ekg:Document->ekg:Product",
            "ekg:reviewedDocument",
            "ekg:reviewedBy",
            "ekg:candidateReviewer",
            "ekg:suggestionOn",
            "ekg:suggestedBy",
            "ekg:hasRole ekg:Employee->ekg:Role",
            "prov:wasDerivedFrom ekg:DocumentReview->ekg:Artifact",
            "ekg:attendee",
        ],
        [
            "dct:identifier ekg:Artifact",
            "ekg:url ekg:Artifact",
            "ekg:feedback",
            "ekg:text ekg:Suggestion",
            "foaf:name ekg:Employee",
        ],
        rankdir="LR",
    ),
    "bugs": Family(
        "Bugs",
        [
            "ekg:Bug",
            "ekg:BugEvent",
            "ekg:BugReported",
            "ekg:BugAssigned",
            "ekg:BugResolved",
            "ekg:BugReopened",
            "ekg:BugClosedWithoutFix",
            "ekg:BugState",
            "ekg:Component",
            "ekg:Customer",
            "ekg:Employee",
            "prov:Agent",
            "ekg:PullRequest",
            "ekg:Artifact",
            "ekg:Product",
        ],
        [
            "ekg:eventOf",
            "ekg:agent",
            "ekg:assignedTo",
            "ekg:bugState",
            "ekg:affectsComponent",
            "ekg:affectsCustomer",
            "ekg:fixedBy",
            "prov:wasDerivedFrom ekg:BugEvent->ekg:Artifact",
            "ekg:aboutProduct ekg:Bug->ekg:Product",
        ],
        ["dct:created ekg:BugEvent", "ekg:text ekg:Bug", "dct:identifier ekg:Artifact"],
    ),
    "features-prs": Family(
        "Features and pull requests",
        [
            "ekg:Feature",
            "ekg:FeatureDecision",
            "ekg:FeatureStatus",
            "ekg:StatusReason",
            "ekg:PullRequest",
            "ekg:PullRequestReview",
            "ekg:ReviewState",
            "ekg:Repository",
            "prov:Agent",
            "ekg:Employee",
            "ekg:Account",
            "ekg:MeetingArtifact",
            "ekg:Artifact",
            "ekg:Product",
        ],
        [
            "ekg:implementedBy",
            "ekg:decisionOn",
            "ekg:featureStatus",
            "ekg:statusReason",
            "ekg:plannedIn",
            "ekg:responsible",
            "ekg:reviewOf",
            "ekg:reviewState",
            "ekg:reviewer",
            "ekg:inRepository",
            "ekg:discussedIn",
            "ekg:revertedBy",
            "prov:wasAttributedTo ekg:PullRequest->prov:Agent",
            "prov:wasDerivedFrom ekg:FeatureDecision->ekg:Artifact",
            "ekg:aboutProduct ekg:Feature->ekg:Product",
        ],
        [
            "ekg:prNumber",
            "ekg:prState",
            "ekg:merged",
            "ekg:changeSummary",
            "ekg:description ekg:PullRequest",
            "ekg:url ekg:PullRequest",
            "ekg:keyword",
            "ekg:decisionKind",
            "ekg:text ekg:PullRequestReview",
            "dct:created ekg:PullRequestReview",
        ],
        rankdir="LR",
    ),
    "releases-competitors": Family(
        "Releases and competitors",
        [
            "ekg:ProductOffering",
            "ekg:Product",
            "ekg:Release",
            "ekg:CompetitorProduct",
            "ekg:CompetitorInsight",
            "ekg:DemoLink",
            "ekg:Contribution",
            "ekg:ContributionKind",
            "ekg:ReleaseFeedback",
            "ekg:ReleaseFeedbackKind",
            "ekg:ProductRename",
            "ekg:Document",
            "ekg:Employee",
            "prov:Agent",
            "ekg:Artifact",
        ],
        [
            "ekg:competitorOf",
            "ekg:insightOn",
            "ekg:demoLink",
            "ekg:sharedBy",
            "ekg:previousRelease",
            "ekg:releaseDocument",
            "ekg:contributedTo",
            "ekg:contributionTo",
            "ekg:contributor",
            "ekg:contributionKind",
            "ekg:feedbackOn",
            "ekg:feedbackKind",
            "ekg:reportedBy",
            "ekg:renamedTo",
            "prov:wasDerivedFrom ekg:CompetitorInsight->ekg:Artifact",
        ],
        [
            "ekg:strength ekg:CompetitorInsight",
            "ekg:weakness ekg:CompetitorInsight",
            "ekg:strength ekg:CompetitorProduct",
            "ekg:weakness ekg:CompetitorProduct",
            "ekg:url ekg:DemoLink",
            "ekg:description ekg:DemoLink",
            "ekg:text ekg:ReleaseFeedback",
            "ekg:formerName",
            "dct:identifier ekg:Artifact",
        ],
    ),
}


class Ontology:
    """The ontology graph with the few questions the drawing asks of it."""

    def __init__(self, source: Path = SOURCE) -> None:
        self.g = Graph().parse(source, format="turtle")

    def iri(self, curie: str) -> URIRef:
        prefix, _, local = curie.partition(":")
        return URIRef(PREFIXES[prefix] + local)

    def short(self, iri: URIRef) -> str:
        for prefix, ns in PREFIXES.items():
            if iri.startswith(ns):
                return f"{prefix}:{iri[len(ns) :]}"
        return str(iri)

    def superclasses(self, curie: str) -> set[str]:
        """The class and all its named superclasses (transitively)."""
        seen, todo = set(), [curie]
        while todo:
            c = todo.pop()
            if c not in seen:
                seen.add(c)
                todo += [self.short(s) for s in self.g.objects(self.iri(c), RDFS.subClassOf) if isinstance(s, URIRef)]
        return seen

    def members(self, node: URIRef | BNode | None) -> list[str]:
        """A class expression as class names: a named class or the members of an owl:unionOf."""
        if node is None:
            return []
        if isinstance(node, URIRef):
            return [self.short(node)]
        union = self.g.value(node, OWL.unionOf)
        return [self.short(m) for m in Collection(self.g, union)] if union is not None else []

    def declared(self, prop: str, which: URIRef) -> list[str]:
        return self.members(self.g.value(self.iri(prop), which))

    def is_vocabulary(self, cls: str) -> bool:
        return "skos:Concept" in self.superclasses(cls) - {cls}

    def kind(self, prop: str) -> str:
        types = set(self.g.objects(self.iri(prop), RDF.type))
        if OWL.ObjectProperty in types:
            return "object"
        if OWL.DatatypeProperty in types:
            return "datatype"
        raise ValueError(f"{prop} is not an object or datatype property of the ontology")

    def label(self, curie: str) -> str:
        return str(self.g.value(self.iri(curie), SKOS.definition) or "")

    def fits(self, drawn: str, declared: list[str]) -> bool:
        """Whether a class may stand for a declared domain/range: it is one of them or a subclass of one.
        No declaration means any class (the property is unrestricted)."""
        return not declared or bool(self.superclasses(drawn) & set(declared))


def placed_edges(onto: Ontology, family: Family) -> Iterator[tuple[str, str, str]]:
    """(domain, range, property) for each edge of the family, checked against the ontology."""
    for spec in family.edges:
        prop, _, ends = spec.partition(" ")
        if onto.kind(prop) != "object":
            raise ValueError(f"{family.title}: {prop} is not an object property")
        domains, ranges = onto.declared(prop, RDFS.domain), onto.declared(prop, RDFS.range)
        if ends:
            d, r = ends.split("->")
            if not (onto.fits(d, domains) and onto.fits(r, ranges)):
                raise ValueError(f"{family.title}: {spec} is not within {prop}'s domain {domains} / range {ranges}")
            domains, ranges = [d], [r]
        for d in domains:
            for r in ranges:
                if d in family.classes and r in family.classes:
                    yield d, r, prop


def placed_attributes(onto: Ontology, family: Family) -> dict[str, list[str]]:
    """Class -> the datatype properties listed in its box, each checked against the ontology."""
    boxes: dict[str, list[str]] = {c: [] for c in family.classes}
    for spec in family.attributes:
        prop, _, cls = spec.partition(" ")
        if onto.kind(prop) != "datatype":
            raise ValueError(f"{family.title}: {prop} is not a datatype property")
        domains = onto.declared(prop, RDFS.domain)
        targets = [cls] if cls else domains
        if cls and not onto.fits(cls, domains):
            raise ValueError(f"{family.title}: {spec} is not within {prop}'s domain {domains}")
        for t in targets:
            if t in boxes:
                boxes[t].append(prop)
    return boxes


def subclass_edges(onto: Ontology, family: Family) -> Iterator[tuple[str, str]]:
    """Direct rdfs:subClassOf edges between drawn classes, skipping a step when the middle class is not drawn."""
    drawn = set(family.classes)
    for c in family.classes:
        for sup in sorted(onto.superclasses(c) - {c}):
            if sup in drawn and not any(
                m in drawn and m != sup and sup in onto.superclasses(m) for m in onto.superclasses(c) - {c}
            ):
                yield c, sup


def shown(curie: str) -> str:
    """What the picture prints for a term: ekg's own names without their prefix, the others with it."""
    return curie.removeprefix("ekg:")


def colour(onto: Ontology, cls: str) -> str:
    ups = onto.superclasses(cls)
    return next((fill for root, fill in COLOURS if root in ups), "#ffffff")


def node_line(onto: Ontology, cls: str, attributes: list[str]) -> str:
    if onto.is_vocabulary(cls):
        return f'  "{cls}" [shape=ellipse, style=filled, fillcolor="{VOCABULARY_COLOUR}", label="{shown(cls)}"];'
    rows = [f"<B>{shown(cls)}</B>", *(f'<FONT POINT-SIZE="13">{shown(a)}</FONT>' for a in attributes)]
    body = "".join(f'<TR><TD ALIGN="LEFT">{r}</TD></TR>' for r in rows)
    label = f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{body}</TABLE>>'
    return f'  "{cls}" [fillcolor="{colour(onto, cls)}", label={label}];'


def dot_source(onto: Ontology, family: Family) -> str:
    """The Graphviz source of one family's picture: no clusters (their titles collide with edge labels)."""
    boxes = placed_attributes(onto, family)
    lines = [
        "digraph ekg {",
        f'  graph [rankdir={family.rankdir}, fontname="Helvetica", labelloc=t, nodesep=0.2, ranksep=0.45,'
        f' label=<<FONT POINT-SIZE="20"><B>{family.title}</B></FONT><BR/><FONT POINT-SIZE="13">{LEGEND}</FONT>>];',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=15, margin="0.08,0.04"];',
        '  edge [fontname="Helvetica", fontsize=13, color="#3b6ea8", fontcolor="#1f3f66", arrowsize=0.7];',
    ]
    lines += [node_line(onto, c, boxes[c]) for c in family.classes]
    lines += [
        f'  "{s}" -> "{p}" [color="#999999", arrowhead=empty, penwidth=1.4];' for s, p in subclass_edges(onto, family)
    ]
    lines += [f'  "{d}" -> "{r}" [label="{shown(p)}"];' for d, r, p in dict.fromkeys(placed_edges(onto, family))]
    lines.append("}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Stage:
    """One box of the pipeline picture: what the stage does and the folder (or file) of the repository that holds
    it; `data` boxes are inputs and outputs outside the code."""

    title: str
    path: str
    does: str
    data: bool = False


#: The pipeline, as the README's architecture section shows it. `path` must exist (tests/test_docs.py checks),
#: so a moved folder cannot leave the picture behind.
STAGES: dict[str, Stage] = {
    "herb": Stage("HERB", "../shared/herb", "products, org chart,\nSlack, docs, PRs, meetings", data=True),
    "ontology": Stage("ontology", "ontology/", "OWL (ekg.ttl) and\nSHACL shapes"),
    "ingest": Stage(
        "ingest", "kg/ingest/", "read (herb) · map (mapping, mappings/)\nnamed rules (rules/) · build · validate"
    ),
    "store": Stage("store", ".kg/store", "Oxigraph on disk: one named\ngraph per product + org", data=True),
    "query": Stage("query", "kg/query/", "the SPARQL library (sparql/)\nopen_backend: store or endpoint"),
    "qa": Stage("qa", "kg/qa/", "question -> intent -> SPARQL\nanswer + citations or ASK proof"),
    "search": Stage("search", "kg/search/", "BM25 + graph PageRank\nevidence search (kg index)"),
    "endpoint": Stage("endpoint", "kg/endpoint/", "kg serve: SPARQL 1.1 Protocol\nper-product tokens"),
    "page": Stage("page", "kg/page/", "answer page in a browser\nevidence drawing"),
    "analysis": Stage("analysis", "kg/analysis/", "timelines, bridges"),
    "erb": Stage("ERB", "../shared/erb", "nine source systems", data=True),
    "alignment": Stage("alignment", "alignment/", "instance-based field matcher\nSSSOM out (sssom-py)"),
    "shared": Stage("shared modules", "kg/", "text.py · vocab.py · namespaces.py\nused by every stage"),
    "cli": Stage("cli", "kg/cli/", "kg <command>: argument\nparsing and printing only"),
}
#: Edges of the pipeline picture: (from, to, label).
FLOWS = [
    ("herb", "ingest", ""),
    ("ontology", "ingest", "shapes"),
    ("ingest", "store", "kg build"),
    ("store", "query", ""),
    ("query", "qa", ""),
    ("query", "search", "facets"),
    ("query", "endpoint", ""),
    ("query", "analysis", ""),
    ("search", "qa", "fallback"),
    ("qa", "page", ""),
    ("endpoint", "page", "/ask"),
    ("erb", "alignment", ""),
]
PIPELINE_COLOURS = {"data": "#eeeeee", "code": "#dbe9f6", "side": "#fde9c9"}
#: Boxes drawn apart from the main flow (the alignment side, the shared modules, the CLI).
SIDE = {"erb", "alignment", "shared", "cli"}


def pipeline_source() -> str:
    """The Graphviz source of the pipeline picture: a box per stage naming its folder, arrows for the data flow."""
    lines = [
        "digraph pipeline {",
        '  graph [rankdir=TB, fontname="Helvetica", labelloc=t, nodesep=0.3, ranksep=0.45,'
        ' label=<<FONT POINT-SIZE="20"><B>ekg pipeline: each box names the folder that holds it</B></FONT>>];',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=13, margin="0.1,0.05"];',
        '  edge [fontname="Helvetica", fontsize=12, color="#3b6ea8", fontcolor="#1f3f66", arrowsize=0.7];',
    ]
    for key, stage in STAGES.items():
        kind = "data" if stage.data else "side" if key in SIDE else "code"
        shape = ", shape=cylinder" if stage.data else ""
        does = stage.does.replace("->", "→")
        label = f"{stage.title}\\n{stage.path}\\n{does}"  # dot's own line breaks, as in `does`
        lines.append(f'  "{key}" [label="{label}", fillcolor="{PIPELINE_COLOURS[kind]}"{shape}];')
    lines += [f'  "{a}" -> "{b}" [label="{label}"];' if label else f'  "{a}" -> "{b}";' for a, b, label in FLOWS]
    lines.append('  { rank=same; "erb"; "herb"; "ontology"; }')
    lines.append('  { rank=same; "alignment"; "ingest"; }')
    lines.append('  { rank=same; "shared"; "cli"; "store"; }')
    lines.append("}")
    return "\n".join(lines) + "\n"


def layer_units() -> list[list[str]]:
    """The package's layers, bottom first (pyproject.toml's [tool.ekg], checked by tests/test_layers.py)."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ekg"]["layers"]


def unit_of(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "kg" and len(parts) > 1 else parts[0]


def unit_imports(base: set[str]) -> set[tuple[str, str]]:
    """(importer, imported) between units, for every import that runs (`if TYPE_CHECKING:` blocks left out);
    the base modules count as one unit, "kg (base)"."""

    def named(module: str) -> str:
        unit = unit_of(module)
        return "kg (base)" if unit in base else unit

    edges = set()
    for package in ("kg", "alignment"):
        for path in sorted((ROOT / package).rglob("*.py")):
            source = named(".".join(path.relative_to(ROOT).with_suffix("").parts))
            tree = ast.parse(path.read_text(encoding="utf-8"))
            typing_only = {
                id(inner)
                for node in ast.walk(tree)
                if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
                for inner in ast.walk(node)
            }
            for node in ast.walk(tree):
                if id(node) in typing_only:
                    continue
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    imported = [node.module]
                elif isinstance(node, ast.Import):
                    imported = [a.name for a in node.names]
                else:
                    continue
                edges |= {
                    (source, named(m))
                    for m in imported
                    if m.split(".")[0] in ("kg", "alignment") and named(m) != source
                }
    return edges


def layers_source() -> str:
    """The Graphviz source of the layers picture: one row per layer, bottom last, and an arrow for each unit
    that imports another (arrows only point down)."""
    layers = layer_units()
    base = set(layers[0])
    rows = [["kg (base)"], *layers[1:]]
    lines = [
        "digraph layers {",
        '  graph [rankdir=TB, fontname="Helvetica", labelloc=t, nodesep=0.35, ranksep=0.5,'
        ' label=<<FONT POINT-SIZE="20"><B>ekg layers: each package imports only those below it</B></FONT>>];',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=13, fillcolor="#dbe9f6"];',
        '  edge [color="#3b6ea8", arrowsize=0.7];',
    ]
    base_label = "kg (base)\\n" + " · ".join(sorted(u.removeprefix("kg.") for u in base if u != "kg"))
    for row in reversed(rows):
        names = " ".join(f'"{u}";' for u in row)
        lines.append(f"  {{ rank=same; {names} }}")
    lines.append(f'  "kg (base)" [label="{base_label}", fillcolor="{PIPELINE_COLOURS["side"]}"];')
    lines += [f'  "{a}" -> "{b}";' for a, b in sorted(unit_imports(base))]
    lines.append("}")
    return "\n".join(lines) + "\n"


def render(source: str, fmt: str, target: Path) -> None:
    """SVG at its natural size; PNG scaled to the README's width, to check what a reader sees there."""
    extra = ["-Gdpi=96", f"-Gsize={README_WIDTH / 96:.3f},100"] if fmt == "png" else []
    subprocess.run(["dot", f"-T{fmt}", *extra, "-o", str(target)], input=source.encode(), check=True)


def drawn_terms(onto: Ontology, family: Family) -> set[str]:
    """Every class and property the family's picture shows."""
    edges = {p for _, _, p in placed_edges(onto, family)}
    attrs = {a for names in placed_attributes(onto, family).values() for a in names}
    return set(family.classes) | edges | attrs


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--out", type=Path, default=OUT, help=f"folder for the pictures (default {OUT})")
    out = args.parse_args(argv).out
    if shutil.which("dot") is None:
        print("needs Graphviz `dot` on PATH (Debian: apt-get install graphviz)", file=sys.stderr)
        return 1
    onto = Ontology()
    out.mkdir(parents=True, exist_ok=True)
    for name, family in FAMILIES.items():
        source = dot_source(onto, family)
        for fmt in ("svg", "png"):
            render(source, fmt, out / f"{name}.{fmt}")
    for fmt in ("svg", "png"):
        render(pipeline_source(), fmt, out / f"pipeline.{fmt}")
        render(layers_source(), fmt, out / f"layers.{fmt}")
    print(f"wrote {len(FAMILIES) + 2} pictures (SVG + PNG) to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
