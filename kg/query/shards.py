"""`kg export --shards N`: the store split into N shard files by product, and the deployment file that routes them.

No query joins two products, so a product question is exact on any store holding its graph and the
organisation graph. Each shard file therefore holds whole product graphs plus a copy of the organisation graph,
for bulk-loading into an existing engine (Virtuoso, the Oxigraph server); replicas are copies of a shard.

Placement is rendezvous hashing weighted by quads, with bounded loads: each product ranks the shards by a hash of
(product, shard), and the products, largest first (ties by name), each go to the best-ranked shard with room under
`BALANCE` times the mean load (the lightest one when none has room); then products move from the heaviest shard to
the lightest until every shard is within `BALANCE` of the mean. A product's ranking does not depend on how many
shards there are. Given the placement in use (`kg export --shards N --from OLD`), products stay where they are
and only the balance moves them, so adding a shard moves about the share it takes (1/N), not most of the data.

Each shard file ends with a manifest graph (`MANIFEST_GRAPH`): the export's build id and each graph's quad count
and digest. The deployment file records the same, so a replica is used only when it holds this export, whole.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import yaml
from pyoxigraph import Literal, NamedNode, Quad, RdfFormat, serialize

from kg.errors import KGError
from kg.namespaces import ORG_GRAPH, product_graph
from kg.paths import open_output, output_path
from kg.query.deployment import read_limited_yaml
from kg.query.sparql import EmbeddedStore, known_products, named_query

#: The name of shard i in files and in the deployment file.
SHARD_NAME = "shard-{}"
DEPLOYMENT_FILE = "deployment.yaml"
#: The graph, last in each shard file, that says which export the replica holds (outside the product graphs' names).
MANIFEST_GRAPH = "https://w3id.org/ekg/graph-manifest"
#: The manifest's terms.
DEPLOY = "https://w3id.org/ekg/deployment#"
#: A shard may hold up to this times the mean quads before a product goes to its next-ranked shard.
BALANCE = 1.05


@dataclass(frozen=True)
class Placement:
    """product -> shard, and the quads each shard's products hold (organisation graph not counted)."""

    shards: list[str]
    product_shard: dict[str, str]
    quads: dict[str, int]
    #: Quads per product, as placed.
    sizes: dict[str, int]

    def products_of(self, shard: str) -> list[str]:
        return sorted(p for p, s in self.product_shard.items() if s == shard)


def place(sizes: dict[str, int], n: int, old: dict[str, str] | None = None) -> Placement:
    """Products on n shards: the same sizes (and old placement) always give the same file. With `old`, the
    placement in use, a product stays where it is unless balance needs it elsewhere, so adding a shard moves
    about the share the new shard takes; without it, rendezvous hashing keeps most products where n-1 put them."""
    if n < 1:
        raise KGError(f"--shards must be at least 1, got {n}")
    if n > len(sizes):
        raise KGError(f"--shards {n} is more than the {len(sizes)} products in the store: a shard would be empty")
    shards = [SHARD_NAME.format(i) for i in range(n)]
    mean = sum(sizes.values()) / n
    load = dict.fromkeys(shards, 0)
    where = {p: s for p, s in (old or {}).items() if p in sizes and s in load}
    for product in where:
        load[where[product]] += sizes[product]
    for product in sorted(set(sizes) - set(where), key=lambda p: (-sizes[p], p)):
        ranked = sorted(shards, key=lambda s: rendezvous(product, s), reverse=True)
        roomy = [s for s in ranked if load[s] + sizes[product] <= BALANCE * mean]
        where[product] = roomy[0] if roomy else min(shards, key=lambda s: (load[s], shards.index(s)))
        load[where[product]] += sizes[product]
    rebalance(where, sizes, load)
    return Placement(shards, dict(sorted(where.items())), load, dict(sizes))


def rebalance(where: dict[str, str], sizes: dict[str, int], load: dict[str, int]) -> None:
    """Move products from the heaviest shard to the lightest while that brings both nearer the mean and one is
    more than BALANCE off it: each move the one product that best closes the gap."""
    mean = sum(load.values()) / len(load)
    for _ in range(len(sizes) * len(load)):
        heavy = max(load, key=lambda s: (load[s], s))
        light = min(load, key=lambda s: (load[s], s))
        if load[heavy] <= BALANCE * mean and load[light] >= (2 - BALANCE) * mean:
            return
        gap = min(load[heavy] - mean, mean - load[light])
        movable = [p for p, s in where.items() if s == heavy and sizes[p] < load[heavy] - load[light]]
        if not movable:
            return
        product = min(movable, key=lambda p: (abs(sizes[p] - gap), p))
        where[product] = light
        load[heavy] -= sizes[product]
        load[light] += sizes[product]


def rendezvous(product: str, shard: str) -> int:
    """The product's score for the shard: a stable hash, the same in every run and on every machine."""
    return int.from_bytes(hashlib.sha256(f"{product}\0{shard}".encode()).digest()[:8], "big")


def moves(old: dict[str, str], new: Placement) -> dict[str, tuple[str, str]]:
    """The products whose shard changes from the old deployment's placement: product -> (old shard, new shard)."""
    return {p: (old[p], s) for p, s in new.product_shard.items() if p in old and old[p] != s}


def load_placement(path: Path) -> dict[str, str]:
    """Only the file's product -> shard mapping (for `kg export --shards N --from FILE`: replicas may be unlisted)."""
    raw = read_limited_yaml(path)
    if not isinstance(raw, dict) or not isinstance(raw.get("products"), dict):
        raise KGError(f"the deployment file {path} needs a `products` mapping (product: shard)")
    return {str(p): str(s) for p, s in raw["products"].items()}


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


def export_shards(
    path: Path, out_dir: Path, n: int, old: dict[str, str] | None = None, force: bool = False
) -> tuple[Placement, dict[str, Manifest]]:
    """One N-Quads file per shard (its products' graphs, the organisation graph, then its manifest graph) and the
    deployment file with each shard's manifest; `old` is the placement in use, kept where balance allows. Each
    file is written by kg.paths.open_output: every name is checked before the first is written, so a file there
    (the operator's deployment file with its replicas) is refused unless `force`, and a link is never followed."""
    store = EmbeddedStore(path)
    placement = place(product_sizes(store), n, old)
    manifests: dict[str, Manifest] = {}
    targets = [out_dir / f"{shard}.nq" for shard in placement.shards]
    for target in [*targets, out_dir / DEPLOYMENT_FILE]:
        output_path(target, force)
    try:
        for shard, target in zip(placement.shards, targets, strict=True):
            graphs = [product_graph(p) for p in placement.products_of(shard)] + [NamedNode(ORG_GRAPH)]
            with open_output(target, binary=True, force=force) as fh:
                held: dict[str, tuple[int, str]] = {}
                for graph in graphs:
                    quads = store.store.quads_for_pattern(None, None, None, graph)
                    body = serialize(quads, None, RdfFormat.N_QUADS) or b""
                    held[graph.value] = (body.count(b"\n"), hashlib.sha256(body).hexdigest())
                    fh.write(body)
                manifests[shard] = Manifest(build_id(held), held)
                serialize(manifests[shard].quads(), fh, RdfFormat.N_QUADS)
        with open_output(out_dir / DEPLOYMENT_FILE, force=force) as fh:
            fh.write(deployment_yaml(placement, manifests))
    except OSError as exc:
        raise KGError(f"cannot write the shards to {out_dir}: {exc}") from exc
    return placement, manifests


@dataclass(frozen=True)
class Manifest:
    """What a shard's replica must hold: the export's build id, and each graph's quad count and digest."""

    build: str
    graphs: dict[str, tuple[int, str]]

    def quads(self) -> list[Quad]:
        """The manifest graph: the build id on the graph itself, each graph's count and digest on the graph."""
        g = NamedNode(MANIFEST_GRAPH)
        out = [Quad(g, NamedNode(DEPLOY + "build"), Literal(self.build), g)]
        for iri, (count, digest) in sorted(self.graphs.items()):
            out.append(Quad(NamedNode(iri), NamedNode(DEPLOY + "quads"), Literal(count), g))
            out.append(Quad(NamedNode(iri), NamedNode(DEPLOY + "digest"), Literal(digest), g))
        return out

    def as_yaml(self) -> dict[str, object]:
        return {"build": self.build, "graphs": {iri: {"quads": q, "digest": d} for iri, (q, d) in self.graphs.items()}}


def build_id(held: dict[str, tuple[int, str]]) -> str:
    """The digest of the graphs' digests: equal for the same data, whenever and wherever it was exported."""
    return hashlib.sha256("".join(f"{iri} {d}\n" for iri, (_, d) in sorted(held.items())).encode()).hexdigest()[:16]


def deployment_yaml(placement: Placement, manifests: dict[str, Manifest]) -> str:
    """The deployment file `kg export --shards` writes: replicas left for the operator to list."""
    body = {
        "shards": {
            s: {
                "file": f"{s}.nq",
                "quads": placement.quads[s],
                "replicas": [],
                "token_env": None,
                "manifest": manifests[s].as_yaml(),
            }
            for s in placement.shards
        },
        "products": placement.product_shard,
    }
    head = (
        "# ekg deployment: which shard holds each product, and where its replicas answer.\n"
        "# Bulk-load each shard's file (plus nothing else) into every replica of that shard, then list the\n"
        "# replicas' SPARQL endpoint URLs under `replicas`. A token is never written here: `token_env` names the\n"
        "# environment variable that holds it (its name starts with KG_). `quads` counts the shard's product\n"
        "# graphs (each shard also holds the organisation graph); `manifest` is what a replica must hold to be used.\n"
    )
    return head + yaml.safe_dump(body, sort_keys=False, allow_unicode=True)
