"""`kg export --shards N`: the store split into N shard files by product, and the deployment file that routes them.

No query joins two products, so a product question is exact on any store holding its graph and the
organisation graph. Each shard file therefore holds whole product graphs plus a copy of the organisation graph,
for bulk-loading into an existing engine (Virtuoso, the Oxigraph server); replicas are copies of a shard.

Placement is deterministic and balanced by quads: the products, largest first (ties by name), each go to the
shard holding the fewest quads so far (ties to the lower shard number), the longest-processing-time rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml
from pyoxigraph import NamedNode, RdfFormat, serialize

from kg.errors import KGError
from kg.namespaces import ORG_GRAPH, product_graph
from kg.paths import open_output, output_path
from kg.query.sparql import EmbeddedStore, known_products, named_query

#: The name of shard i in files and in the deployment file.
SHARD_NAME = "shard-{}"
DEPLOYMENT_FILE = "deployment.yaml"


@dataclass(frozen=True)
class Placement:
    """product -> shard, and the quads each shard's products hold (organisation graph not counted)."""

    shards: list[str]
    product_shard: dict[str, str]
    quads: dict[str, int]

    def products_of(self, shard: str) -> list[str]:
        return sorted(p for p, s in self.product_shard.items() if s == shard)


def place(sizes: dict[str, int], n: int) -> Placement:
    """Products on n shards, largest first onto the lightest shard: the same sizes always give the same file."""
    if n < 1:
        raise KGError(f"--shards must be at least 1, got {n}")
    if n > len(sizes):
        raise KGError(f"--shards {n} is more than the {len(sizes)} products in the store: a shard would be empty")
    shards = [SHARD_NAME.format(i) for i in range(n)]
    load = dict.fromkeys(shards, 0)
    where: dict[str, str] = {}
    for product in sorted(sizes, key=lambda p: (-sizes[p], p)):
        lightest = min(shards, key=lambda s: (load[s], shards.index(s)))
        where[product] = lightest
        load[lightest] += sizes[product]
    return Placement(shards, dict(sorted(where.items())), load)


def product_sizes(store: EmbeddedStore) -> dict[str, int]:
    """Quads per product graph (each product's graph under the name `kg build` gives it), counted by the engine."""
    rows = store.select(named_query("stats_triples_per_graph").text)
    counts = {r["graph"].value: int(r["triples"].value) for r in rows}
    return {p: counts.get(product_graph(p).value, 0) for p in products(store)}


def products(store: EmbeddedStore) -> list[str]:
    found = known_products(store)
    if not found:
        raise KGError(f"no products in the store at {store.location}: run `kg build` first")
    return found


def export_shards(path: Path, out_dir: Path, n: int, force: bool = False) -> Placement:
    """One N-Quads file per shard (its products' graphs, then the organisation graph) and the deployment file,
    each written by kg.paths.open_output: every name is checked before the first is written, so a file there
    (the operator's deployment file with its replicas) is refused unless `force`, and a link is never followed."""
    store = EmbeddedStore(path)
    placement = place(product_sizes(store), n)
    targets = [out_dir / f"{shard}.nq" for shard in placement.shards]
    for target in [*targets, out_dir / DEPLOYMENT_FILE]:
        output_path(target, force)
    try:
        for shard, target in zip(placement.shards, targets, strict=True):
            graphs = [product_graph(p) for p in placement.products_of(shard)] + [NamedNode(ORG_GRAPH)]
            with open_output(target, binary=True, force=force) as fh:
                for graph in graphs:
                    serialize(store.store.quads_for_pattern(None, None, None, graph), fh, RdfFormat.N_QUADS)
        with open_output(out_dir / DEPLOYMENT_FILE, force=force) as fh:
            fh.write(deployment_yaml(placement))
    except OSError as exc:
        raise KGError(f"cannot write the shards to {out_dir}: {exc}") from exc
    return placement


def deployment_yaml(placement: Placement) -> str:
    """The deployment file `kg export --shards` writes: replicas left for the operator to list."""
    body = {
        "shards": {
            s: {
                "file": f"{s}.nq",
                "quads": placement.quads[s],
                "replicas": [],
                "token_env": None,
            }
            for s in placement.shards
        },
        "products": placement.product_shard,
    }
    head = (
        "# ekg deployment: which shard holds each product, and where its replicas answer.\n"
        "# Bulk-load each shard's file (plus nothing else) into every replica of that shard, then list the\n"
        "# replicas' SPARQL endpoint URLs under `replicas`. A token is never written here: `token_env` names the\n"
        "# environment variable that holds it. `quads` counts the shard's product graphs (each shard also holds\n"
        "# the organisation graph).\n"
    )
    return head + yaml.safe_dump(body, sort_keys=False, allow_unicode=True)
