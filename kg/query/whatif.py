"""What-if graphs: answer over a product's graph plus (or minus) the facts in a file, in a scratch dataset.

`kg ask … --with extra.ttl` and `kg query … --with FILE` copy the product's named graph and the organisation
graph out of the store into an in-memory Oxigraph store, add FILE's triples to the product graph (`--without
FILE` removes the triples FILE lists, from both graphs) and run there. The real store is opened read-only and
never written. Nothing is re-derived: the facts in the files are taken as given (to say a bug was fixed, state
its new ekg:bugState too). Answering over the scratch store is `kg.qa.whatif`.
"""

from __future__ import annotations

from pathlib import Path

from pyoxigraph import NamedNode, Quad, RdfFormat, Store, parse

from kg.errors import KGError
from kg.namespaces import ORG_GRAPH, product_graph
from kg.paths import read_input
from kg.query.sparql import EmbeddedStore

#: File name endings -> the RDF syntax read for them.
FORMATS = {
    ".ttl": RdfFormat.TURTLE,
    ".nt": RdfFormat.N_TRIPLES,
    ".nq": RdfFormat.N_QUADS,
    ".trig": RdfFormat.TRIG,
    ".n3": RdfFormat.N3,
    ".rdf": RdfFormat.RDF_XML,
    ".owl": RdfFormat.RDF_XML,
}


def read_triples(path: Path) -> list[tuple]:
    """(subject, predicate, object) of every statement in the file, whatever graph it names."""
    fmt = FORMATS.get(path.suffix.casefold())
    if fmt is None:
        raise KGError(f"cannot read {path}: unknown RDF file type {path.suffix!r} (use one of {', '.join(FORMATS)})")
    data = read_input(path, "what-if file")
    try:
        return [(q.subject, q.predicate, q.object) for q in parse(data, format=fmt)]
    except (SyntaxError, OSError, ValueError) as exc:
        raise KGError(f"cannot read {path}: {exc}") from exc


class ScratchStore(EmbeddedStore):
    """A product's dataset copied into memory, plus and minus the facts in the given files."""

    def __init__(self, real: EmbeddedStore, product: str, with_files: list[Path], without_files: list[Path]):
        self.product = product
        self.location = f"{real.location} (what-if)"
        self.index_dir = None  # the real artifacts' text knows nothing of scratch facts: proofs stay unchecked
        self.graph = product_graph(product)
        self.store = Store()
        graphs = [self.graph, NamedNode(ORG_GRAPH)]
        self.store.extend(q for g in graphs for q in real.store.quads_for_pattern(None, None, None, g))
        if not any(True for _ in self.store.quads_for_pattern(None, None, None, self.graph)):
            raise KGError(f"no graph for product {product!r} in the store")
        self.added = [Quad(s, p, o, self.graph) for f in with_files for s, p, o in read_triples(f)]
        self.removed = [Quad(s, p, o, g) for f in without_files for s, p, o in read_triples(f) for g in graphs]
        self.store.extend(self.added)
        for quad in self.removed:
            self.store.remove(quad)
