"""Read-side operations: statistics (on any backend) and export of the local store for other SPARQL engines."""

from __future__ import annotations

from pathlib import Path
from typing import IO

from pyoxigraph import RdfFormat

from kg.errors import KGError
from kg.query.sparql import Backend, EmbeddedStore, named_query

#: `kg stats` table title -> its query in sparql/.
STATS_QUERIES = {
    "triples per graph": "stats_triples_per_graph",
    "instances per class": "stats_instances_per_class",
    "edges per property": "stats_edges_per_property",
}
EXPORT_FORMATS = {"nquads": RdfFormat.N_QUADS, "trig": RdfFormat.TRIG}


def stats(backend: Backend) -> dict[str, list[tuple[str, int]]]:
    """The three tables `kg stats` prints, as (name, count) rows."""
    out: dict[str, list[tuple[str, int]]] = {}
    for title, name in STATS_QUERIES.items():
        rows = [list(row.values()) for row in backend.select(named_query(name).text)]
        out[title] = [(r[0].value, int(r[1].value)) for r in rows]
    return out


def export(path: Path, out: IO[bytes], fmt: str = "nquads") -> None:
    """Dump every named graph, for bulk-loading into Fuseki, GraphDB, Virtuoso, QLever or Neptune."""
    if fmt not in EXPORT_FORMATS:
        raise KGError(f"unknown export format {fmt!r}; choose one of {', '.join(EXPORT_FORMATS)}")
    EmbeddedStore(path).store.dump(out, EXPORT_FORMATS[fmt])
