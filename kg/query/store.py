"""Read-side operations on a built store: statistics and export for other SPARQL engines."""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

from pyoxigraph import RdfFormat, Store

from kg.errors import KGError
from kg.query.sparql import named_query

#: `kg stats` table title -> its query in sparql/.
STATS_QUERIES = {
    "triples per graph": "stats_triples_per_graph",
    "instances per class": "stats_instances_per_class",
    "edges per property": "stats_edges_per_property",
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
    for title, name in STATS_QUERIES.items():
        rows = store.query(named_query(name).text)
        out[title] = [(s[0].value, int(s[1].value)) for s in rows]
    return out


def export(path: Path, out: BinaryIO, fmt: str = "nquads") -> None:
    """Dump every named graph, for bulk-loading into Fuseki, GraphDB, Virtuoso, QLever or Neptune."""
    if fmt not in EXPORT_FORMATS:
        raise KGError(f"unknown export format {fmt!r}; choose one of {', '.join(EXPORT_FORMATS)}")
    open_read_only(path).dump(out, EXPORT_FORMATS[fmt])
