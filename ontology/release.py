"""Release the ontology: serialise the edited Turtle source as RDF/XML, which Protégé opens directly.

Run `python ontology/release.py` after editing `ontology/ekg.ttl`; `tests/test_ontology.py` fails while the
released `ekg.owl` is out of sync with the source.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyoxigraph
from rdflib import Graph
from rdflib.compare import to_canonical_graph

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "ekg.ttl"
RELEASE = HERE / "ekg.owl"


def source_graph(path: Path = SOURCE) -> Graph:
    return Graph(bind_namespaces="none").parse(path, format="turtle")


def canonical_ntriples(graph: Graph) -> str:
    """The graph as sorted N-Triples with content-derived blank-node labels: the same graph always gives
    the same text, so the committed release only changes when the ontology does."""
    lines = to_canonical_graph(graph).serialize(format="nt").splitlines()
    return "\n".join(sorted(line for line in lines if line.strip())) + "\n"


def release(source: Path = SOURCE, target: Path = RELEASE) -> int:
    """Write the RDF/XML release of `source` to `target`; returns its triple count."""
    graph = source_graph(source)
    triples = list(pyoxigraph.parse(canonical_ntriples(graph), format=pyoxigraph.RdfFormat.N_TRIPLES))
    used = {str(t) for triple in graph for t in triple}
    prefixes = {p: str(ns) for p, ns in graph.namespaces() if p and any(t.startswith(str(ns)) for t in used)}
    pyoxigraph.serialize(triples, target, format=pyoxigraph.RdfFormat.RDF_XML, prefixes=prefixes)
    return len(triples)


if __name__ == "__main__":
    print(f"wrote {RELEASE}: {release()} triples", file=sys.stderr)
