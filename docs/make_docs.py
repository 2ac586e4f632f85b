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
from pathlib import Path

from rdflib import RDF, SKOS, Graph
from rdflib.compare import to_canonical_graph

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "ontology" / "ekg.ttl"
TARGET = ROOT / "docs" / "ontology" / "index.html"


def documented_graph(source: Path = SOURCE) -> Graph:
    """The ontology as pyLODE should read it.

    OntPub takes every skos:ConceptScheme for the ontology itself (title, metadata), so the page would be
    titled after one of our controlled vocabularies; the schemes' own typing is left out of this copy.
    """
    parsed = Graph().parse(source, format="turtle")
    graph = Graph()
    for prefix, ns in parsed.namespaces():
        graph.bind(prefix, ns, override=True)
    # Content-derived blank-node labels: pyLODE orders union members by them, so random ones reorder the page.
    for triple in to_canonical_graph(parsed):
        graph.add(triple)
    for scheme in list(graph.subjects(RDF.type, SKOS.ConceptScheme)):
        graph.remove((scheme, RDF.type, SKOS.ConceptScheme))
    return graph


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

    return sorted_unions(OntPub(ontology=documented_graph(source), sort_subjects=True).make_html())


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
