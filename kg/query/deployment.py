"""`--deployment FILE`: product shards on existing engines, each with read replicas, routed by product.

A query whose dataset is one shard's (a product's graph, with or without the organisation graph, which every
shard holds) goes to a replica of that shard; a replica that cannot be reached or answers 5xx passes the query to
the next one, and a shard whose replicas are all down is an error (`ShardDown`), never an empty result. Any other
query (the whole company's data, or graphs on several shards) is fanned out through Comunica
(`kg.query.federation`), which computes joins, counts, ORDER BY and LIMIT itself: no rows are merged here.

Each replica is probed once, at its first use, for what would change answers silently: that it holds its
shard's products and the organisation graph, and that it answers ASK as a boolean (or in Virtuoso's documented
`__ASK_RETVAL` row form, accepted by `RemoteEndpoint.ask`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pyoxigraph import NamedNode, QueryBoolean, QuerySolutions, Triple

from kg.errors import KGError, ShardDown, Unavailable
from kg.namespaces import ORG_GRAPH, product_graph
from kg.query.remote import RemoteEndpoint
from kg.query.sparql import Row, Term, named_query

#: Keys a shard entry may have (`file` and `quads` are what `kg export --shards` wrote, kept for the operator).
SHARD_KEYS = {"replicas", "token_env", "file", "quads"}


@dataclass(frozen=True)
class Shard:
    name: str
    replicas: list[str]
    token_env: str | None
    products: list[str]


@dataclass(frozen=True)
class Deployment:
    path: Path
    shards: dict[str, Shard]
    product_shard: dict[str, str]


def load_deployment(path: Path) -> Deployment:
    """The deployment file, checked whole: every product on a listed shard, every shard with a replica URL, tokens
    only by the name of an environment variable."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise KGError(f"cannot read the deployment file {path}: {exc}") from exc
    except yaml.YAMLError as exc:
        raise KGError(f"the deployment file {path} is not YAML: {str(exc).splitlines()[0]}") from exc
    if (
        not isinstance(raw, dict)
        or not isinstance(raw.get("shards"), dict)
        or not isinstance(raw.get("products"), dict)
    ):
        raise KGError(f"the deployment file {path} needs a `shards` mapping and a `products` mapping (product: shard)")
    placement = {str(p): str(s) for p, s in raw["products"].items()}
    if unknown := sorted({s for s in placement.values()} - {str(s) for s in raw["shards"]}):
        raise KGError(f"{path}: products are placed on {', '.join(unknown)}, which `shards` does not list")
    shards = {
        str(name): _shard(path, str(name), entry, sorted(p for p, s in placement.items() if s == str(name)))
        for name, entry in raw["shards"].items()
    }
    return Deployment(path, shards, placement)


def _shard(path: Path, name: str, entry: Any, products: list[str]) -> Shard:
    if not isinstance(entry, dict):
        raise KGError(f"{path}: shard {name} must be a mapping with `replicas` (a list of SPARQL endpoint URLs)")
    if "token" in entry:
        raise KGError(
            f"{path}: shard {name} has an inline `token`; a deployment file never holds secrets: put the token in "
            "an environment variable and name it with `token_env`"
        )
    if extra := sorted(set(entry) - SHARD_KEYS):
        raise KGError(
            f"{path}: shard {name} has unknown keys {', '.join(extra)} (known: {', '.join(sorted(SHARD_KEYS))})"
        )
    replicas = entry.get("replicas") or []
    if not isinstance(replicas, list) or not replicas:
        raise KGError(f"{path}: shard {name} lists no replicas: add its SPARQL endpoint URLs under `replicas`")
    if bad := [r for r in replicas if not isinstance(r, str) or not r.startswith(("http://", "https://"))]:
        raise KGError(f"{path}: shard {name} has a replica that is not an http(s) URL: {bad[0]!r}")
    token_env = entry.get("token_env")
    if token_env is not None and (not isinstance(token_env, str) or token_env not in os.environ):
        raise KGError(f"{path}: shard {name} reads its token from ${token_env}, which is not set")
    return Shard(name, replicas, token_env, products)


class ReplicaSet:
    """One shard's replicas, tried in the listed order from the last one that answered."""

    def __init__(self, shard: Shard) -> None:
        token = os.environ[shard.token_env] if shard.token_env else None
        self.shard = shard
        self.endpoints = [RemoteEndpoint(url, token=token) for url in shard.replicas]
        self.current = 0
        self.probed: set[int] = set()

    def call(self, method: str, *args: Any) -> Any:
        """The first answer of a replica, trying the next on a connection failure or 5xx."""
        failures = []
        for step in range(len(self.endpoints)):
            i = (self.current + step) % len(self.endpoints)
            try:
                self._probe(i)
                result = getattr(self.endpoints[i], method)(*args)
            except Unavailable as exc:
                failures.append(str(exc))
                continue
            self.current = i
            return result
        products = self.shard.products
        raise ShardDown(
            self.shard.name,
            self.shard.products,
            f"every replica of {self.shard.name} is down ({'; '.join(failures)}): its {len(products)} products "
            f"({', '.join(products[:5])}{', …' if len(products) > 5 else ''}) cannot be answered",
        )

    def live(self) -> RemoteEndpoint:
        """A replica that answers now (for a fan-out, which names one source per shard)."""
        self.call("ask", "ASK {}")
        return self.endpoints[self.current]

    def _probe(self, i: int) -> None:
        """What would change answers silently, checked once per replica: ASK's result form, and the data."""
        if i in self.probed:
            return
        endpoint = self.endpoints[i]
        if not endpoint.ask("ASK {}"):
            raise KGError(f"{endpoint.url} answers `ASK {{}}` with false: it is not a SPARQL 1.1 engine we can trust")
        held = {r["label"].value for r in endpoint.select(named_query("qa_products").text) if "label" in r}
        if missing := sorted(set(self.shard.products) - held):
            raise KGError(
                f"{endpoint.url}, a replica of {self.shard.name}, holds no graph for {', '.join(missing[:5])}"
                f"{' …' if len(missing) > 5 else ''}: load {self.shard.name}'s export into it"
            )
        if not endpoint.ask(f"ASK {{ GRAPH <{ORG_GRAPH}> {{ ?s ?p ?o }} }}"):
            raise KGError(f"{endpoint.url}, a replica of {self.shard.name}, holds no organisation graph <{ORG_GRAPH}>")
        self.probed.add(i)


class ShardedBackend:
    """The reading backend over a deployment: routed by the product graph a query's dataset names."""

    #: The products are the deployment file's, whatever a replica answers: none is hidden from the reader.
    hides_graphs = False

    def __init__(self, deployment: Deployment) -> None:
        self.deployment = deployment
        self.location = str(deployment.path)
        self.replicas = {name: ReplicaSet(shard) for name, shard in deployment.shards.items()}
        self.graph_shard = {product_graph(p).value: s for p, s in deployment.product_shard.items()}

    def products(self) -> list[str]:
        """The deployment's products (each replica is checked to hold its shard's at its first use)."""
        return sorted(self.deployment.product_shard)

    def product_groups(self, products: list[str]) -> list[list[str]]:
        """The products grouped by shard, so a dataset built from one group is answered by one shard."""
        return [
            [p for p in products if self.deployment.product_shard.get(p) == name] for name in self.deployment.shards
        ]

    def select(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> list[Row]:
        if (shard := self.shard_of(graphs)) is None:
            return self.federated().select(query, bindings, graphs)
        return self.replicas[shard].call("select", query, bindings, graphs)

    def ask(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> bool:
        if (shard := self.shard_of(graphs)) is None:
            return self.federated().ask(query, bindings, graphs)
        return self.replicas[shard].call("ask", query, bindings, graphs)

    def run(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> QuerySolutions | QueryBoolean | list[Triple]:
        if (shard := self.shard_of(graphs)) is None:
            return self.federated().run(query, bindings, graphs)
        return self.replicas[shard].call("run", query, bindings, graphs)

    def construct(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> list[Triple]:
        result = self.run(query, bindings, graphs)
        if not isinstance(result, list):
            raise KGError("not a CONSTRUCT or DESCRIBE query")
        return result

    def shard_of(self, graphs: list[NamedNode] | None) -> str | None:
        """The one shard holding every graph of the dataset, or None when it takes several (or the whole data)."""
        if graphs is None:
            return None
        names = {self._shard_of_graph(g) for g in graphs} - {None}
        if len(names) > 1:
            return None
        return names.pop() if names else next(iter(self.deployment.shards))

    def _shard_of_graph(self, graph: NamedNode) -> str | None:
        if graph.value == ORG_GRAPH:
            return None
        if graph.value not in self.graph_shard:
            raise KGError(f"no shard of {self.location} holds the graph <{graph.value}>")
        return self.graph_shard[graph.value]

    def federated(self) -> Any:
        from kg.query.federation import Federation  # Node and Comunica only when a query fans out

        return Federation(self.sources())

    def sources(self) -> list[tuple[RemoteEndpoint, list[NamedNode]]]:
        """One live replica per shard, with the graphs it contributes: its products', and the organisation graph
        from the first shard only (every shard holds a copy; the federated dataset must hold it once)."""
        out = []
        for i, (name, shard) in enumerate(self.deployment.shards.items()):
            graphs = [product_graph(p) for p in shard.products] + ([NamedNode(ORG_GRAPH)] if i == 0 else [])
            out.append((self.replicas[name].live(), graphs))
        return out


def open_deployment(path: str) -> ShardedBackend:
    return ShardedBackend(load_deployment(Path(path)))
