"""Read-side operations on a built store: statistics and export for other SPARQL engines."""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

from pyoxigraph import RdfFormat, Store

from kg.errors import KGError

STATS_QUERIES = {
    "triples per graph": "SELECT ?graph (COUNT(*) AS ?triples) WHERE { GRAPH ?graph { ?s ?p ?o } } "
                         "GROUP BY ?graph ORDER BY ?graph",
    "instances per class": "SELECT ?class (COUNT(DISTINCT ?s) AS ?instances) WHERE { GRAPH ?g { ?s a ?class } } "
                           "GROUP BY ?class ORDER BY DESC(?instances)",
    "edges per property": "SELECT ?property (COUNT(*) AS ?edges) WHERE { GRAPH ?g { ?s ?property ?o } } "
                          "GROUP BY ?property ORDER BY DESC(?edges)",
}
EXPORT_FORMATS = {"nquads": RdfFormat.N_QUADS, "trig": RdfFormat.TRIG}


def open_read_only(path: Path) -> Store:
    if not path.exists():
        raise KGError(f"no store at {path}: run `kg build` first (or pass --store PATH / set KG_STORE)")
    try:
        return Store.read_only(str(path))
    except OSError as exc:
        raise KGError(f"cannot open the store at {path}: {exc}") from exc


def stats(path: Path) -> dict[str, list[tuple[str, int]]]:
    """The three tables `kg stats` prints, as (name, count) rows."""
    store = open_read_only(path)
    out: dict[str, list[tuple[str, int]]] = {}
    for title, query in STATS_QUERIES.items():
        rows = store.query(query)
        out[title] = [(s[0].value, int(s[1].value)) for s in rows]
    return out


def export(path: Path, out: BinaryIO, fmt: str = "nquads") -> None:
    """Dump every named graph, for bulk-loading into Fuseki, GraphDB, Virtuoso, QLever or Neptune."""
    if fmt not in EXPORT_FORMATS:
        raise KGError(f"unknown export format {fmt!r}; choose one of {', '.join(EXPORT_FORMATS)}")
    open_read_only(path).dump(out, EXPORT_FORMATS[fmt])
