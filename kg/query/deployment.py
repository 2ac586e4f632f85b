"""`--deployment FILE`: product shards on existing engines, each with read replicas, routed by product.

A query whose dataset is one shard's (a product's graph, with or without the organisation graph, which every
shard holds) goes to a replica of that shard. Reads take the shard's replicas in turn (round-robin), so two
healthy replicas each serve about half. Any failure of a replica (a dead port, the deadline passed, a refusal,
a redirect, a body that is not results, a failed health check) moves the query to the next replica, logged on
one line and recorded beside the deployment file (`events_path`), where `kg stats --deployment` counts every
process's; only a shard whose every replica failed is an error (`ShardDown`), for its own products'
questions only, never an empty result. Any other query (the whole company's data, or graphs on several shards)
runs once per product on its shard and the results are merged exactly, or refused with the reason
(`kg.query.federation`).

A replica is used only while it is healthy: it holds its shard's manifest (the build id `kg export --shards`
wrote, `deployment_build_held.rq`) and every graph of the shard with the quad count the manifest records
(`deployment_graph_quads.rq`). A replica mid-reload or partly loaded fails that check, is skipped and logged,
and so never answers, nor proves an absence. The check runs at a replica's first use and again after
`HEALTH_EVERY` seconds or after the replica failed; in between, any answer but a non-empty SELECT's (an ASK proves an
absence, an empty result may be an emptied store) is used only when the replica still holds its build right after
(`still_holds`), so a reload begun in between proves nothing.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pyoxigraph import Literal, NamedNode, QueryBoolean, QuerySolutions, Triple

from kg.errors import KGError, ShardDown, Unavailable
from kg.namespaces import ORG_GRAPH, product_graph
from kg.paths import read_input_text
from kg.query.federation import Federation, ShardRun
from kg.query.remote import RemoteEndpoint
from kg.query.sparql import Row, Term, named_query

LOG = logging.getLogger("kg.deployment")

#: Keys a shard entry may have (`file`, `quads` and `manifest` are what `kg export --shards` wrote).
SHARD_KEYS = {"replicas", "token_env", "file", "quads", "manifest"}
#: Keys the file may have at its top.
TOP_KEYS = {"shards", "products", "deadline"}
#: A shard's token is read only from an environment variable named with this prefix: a deployment file cannot
#: send any other secret of the environment to a URL it lists.
TOKEN_ENV_PREFIX = "KG_"
#: Limits on the file as read, before YAML builds anything: its size, its nesting and its aliases.
MAX_FILE_BYTES = 16 << 20
MAX_DEPTH = 16
MAX_ALIASES = 0
#: Seconds one replica call may take in all, unless the file or --deadline says otherwise: short enough that a
#: stuck replica listed first still leaves the question answered by the next within half a minute.
REPLICA_DEADLINE = 20.0
#: Seconds a replica's health stands before it is checked again.
HEALTH_EVERY = 30.0
#: Seconds a replica that failed is tried only after the others.
RETRY_AFTER = 30.0
#: Characters of a failure's reason kept in the events file: a line stays one short write.
MAX_WHY = 1000


@dataclass(frozen=True)
class Shard:
    name: str
    replicas: list[str]
    token_env: str | None
    products: list[str]
    #: The build id and {graph IRI: quads} a replica must hold; None for a file written by hand without one.
    build: str | None = None
    graphs: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Deployment:
    path: Path
    shards: dict[str, Shard]
    product_shard: dict[str, str]
    #: Seconds each replica call may take in all.
    deadline: float = REPLICA_DEADLINE


def load_deployment(path: Path) -> Deployment:
    """The deployment file, checked whole: every product on a listed shard, every shard with a replica URL, tokens
    only by the name of a KG_ environment variable."""
    raw = read_limited_yaml(path)
    if not isinstance(raw, dict) or not all(isinstance(raw.get(k), dict) for k in ("shards", "products")):
        raise KGError(f"the deployment file {path} needs a `shards` mapping and a `products` mapping (product: shard)")
    if extra := sorted(str(k) for k in set(raw) - TOP_KEYS):
        raise KGError(f"{path}: unknown keys {', '.join(extra)} (known: {', '.join(sorted(TOP_KEYS))})")
    placement = {str(p): str(s) for p, s in raw["products"].items()}
    names = {str(s) for s in raw["shards"]}
    if unknown := sorted(set(placement.values()) - names):
        raise KGError(f"{path}: products are placed on {', '.join(unknown[:5])}, which `shards` does not list")
    by_shard: dict[str, list[str]] = {name: [] for name in names}
    for product, shard in sorted(placement.items()):
        by_shard[shard].append(product)
    shards = {str(name): _shard(path, str(name), entry, by_shard[str(name)]) for name, entry in raw["shards"].items()}
    return Deployment(path, shards, placement, _deadline(path, raw.get("deadline", REPLICA_DEADLINE)))


def read_limited_yaml(path: Path) -> Any:
    """YAML read with limits on size, depth and aliases, checked on the parser's events before any object is
    built: a deep nest or an alias bomb is one line of error, not a RecursionError or gigabytes."""
    text = read_input_text(path, "the deployment file", MAX_FILE_BYTES)  # a regular file, capped, UTF-8
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        depth = aliases = 0
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise KGError(f"the deployment file {path} nests deeper than {MAX_DEPTH} levels")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
            elif isinstance(event, yaml.AliasEvent):
                aliases += 1
                if aliases > MAX_ALIASES:
                    raise KGError(f"the deployment file {path} uses YAML aliases (*name): write each value out")
        return yaml.load(text, Loader=loader)  # a safe loader, on text whose shape was checked
    except yaml.YAMLError as exc:
        raise KGError(f"the deployment file {path} is not YAML: {str(exc).splitlines()[0][:200]}") from exc


def _deadline(path: Path, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 3600:
        raise KGError(f"{path}: `deadline` must be a number of seconds between 0 and 3600, got {value!r}")
    return float(value)


def _shard(path: Path, name: str, entry: Any, products: list[str]) -> Shard:
    if not isinstance(entry, dict):
        raise KGError(f"{path}: shard {name} must be a mapping with `replicas` (a list of SPARQL endpoint URLs)")
    if "token" in entry:
        raise KGError(
            f"{path}: shard {name} has an inline `token`; a deployment file never holds secrets: put the token in "
            f"an environment variable named {TOKEN_ENV_PREFIX}… and name it with `token_env`"
        )
    if extra := sorted(str(k) for k in set(entry) - SHARD_KEYS):
        raise KGError(
            f"{path}: shard {name} has unknown keys {', '.join(extra)} (known: {', '.join(sorted(SHARD_KEYS))})"
        )
    replicas = entry.get("replicas") or []
    if not isinstance(replicas, list) or not replicas:
        raise KGError(f"{path}: shard {name} lists no replicas: add its SPARQL endpoint URLs under `replicas`")
    if bad := [r for r in replicas if not isinstance(r, str) or not r.startswith(("http://", "https://"))]:
        raise KGError(f"{path}: shard {name} has a replica that is not an http(s) URL: {str(bad[0])[:200]!r}")
    token_env = entry.get("token_env")
    if token_env is not None:
        if not isinstance(token_env, str) or not token_env.startswith(TOKEN_ENV_PREFIX):
            raise KGError(
                f"{path}: shard {name} reads its token from {str(token_env)[:100]!r}: `token_env` must name an "
                f"environment variable starting with {TOKEN_ENV_PREFIX} (so no other secret can be sent)"
            )
        if token_env not in os.environ:
            raise KGError(f"{path}: shard {name} reads its token from ${token_env}, which is not set")
    build, graphs = _manifest(path, name, entry.get("manifest"))
    return Shard(name, replicas, token_env, products, build, graphs)


def _manifest(path: Path, name: str, manifest: Any) -> tuple[str | None, dict[str, int]]:
    """The build id and the quads per graph a replica of the shard must hold."""
    if manifest is None:
        return None, {}
    try:
        graphs = {str(iri): int(g["quads"]) for iri, g in manifest["graphs"].items()}
        return str(manifest["build"]), graphs
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise KGError(
            f"{path}: shard {name} has a `manifest` that is not the one `kg export --shards` writes "
            "(build, graphs: {IRI: {quads, digest}})"
        ) from exc


def events_path(deployment: Path) -> Path:
    """Where a deployment's failovers and skips are recorded, one JSON line each, by every process using it:
    `deploy/deployment.yaml` -> `deploy/deployment.events.jsonl`."""
    return deployment.with_name(f"{deployment.stem}.events.jsonl")


class EventLog:
    """The failovers and skips of every process reading a deployment, appended to one file beside it: one short
    line per event, written with a single O_APPEND write, so processes (a batch's workers among them) never
    interleave or lose each other's lines. Where the file cannot be written, the events stay counted in this
    process only, said once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.unrecorded: Counter[tuple[str, str]] = Counter()
        self.warned = False

    def record(self, shard: str, url: str, event: str, why: str) -> None:
        line = {"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "shard": shard, "replica": url}
        data = json.dumps(line | {"event": event, "why": why[:MAX_WHY]}, ensure_ascii=False) + "\n"
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
            try:
                os.write(fd, data.encode())
            finally:
                os.close(fd)
        except OSError as exc:
            self.unrecorded[url, event] += 1
            if not self.warned:
                self.warned = True
                LOG.warning("cannot record replica events in %s (%s): counted in this process only", self.path, exc)

    def counts(self) -> Counter[tuple[str, str]]:
        """(replica URL, "failed" | "skipped") -> events recorded by every process, and this one's unrecorded; a
        line that is not an event (cut short, edited) is not counted."""
        counts = Counter(self.unrecorded)
        try:
            with self.path.open(encoding="utf-8", errors="replace") as fh:
                for raw in fh:
                    with suppress(ValueError):
                        event = json.loads(raw)
                        if isinstance(event, dict) and event.get("event") in ("failed", "skipped"):
                            counts[str(event.get("replica")), event["event"]] += 1
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise KGError(f"cannot read the replica events in {self.path} ({exc.strerror or exc})") from exc
        return counts


class ReplicaSet:
    """One shard's replicas, taken in turn while healthy; a failed one passes the call to the next."""

    def __init__(self, shard: Shard, deadline: float = REPLICA_DEADLINE, events: EventLog | None = None) -> None:
        token = os.environ[shard.token_env] if shard.token_env else None
        self.shard = shard
        self.events = events
        self.endpoints = [RemoteEndpoint(url, token=token, timeout=deadline) for url in shard.replicas]
        self.turn = 0
        self.checked: dict[int, float] = {}  # replica -> when its health was last confirmed
        self.failed_at: dict[int, float] = {}  # replica -> when it last failed
        self.counts: Counter[tuple[str, str]] = Counter()  # (replica URL, "served" | "failed" | "skipped")
        self.lock = threading.Lock()

    def call(self, method: str, *args: Any) -> Any:
        """The first answer of a healthy replica, starting from the next in turn."""
        with self.lock:
            start, self.turn = self.turn, self.turn + 1
        failures = []
        for i in self.order(start):
            try:
                self.check(i)
            except Unavailable as exc:
                failures.append(str(exc))
                continue
            try:
                result = getattr(self.endpoints[i], method)(*args)
                if method != "select" or not result:  # a proof or nothing found: only from a replica still whole
                    still_holds(self.endpoints[i], self.shard)
            except Unavailable as exc:
                self._failed(i, "failed", exc)
                failures.append(str(exc))
                continue
            self.counts[self.endpoints[i].url, "served"] += 1
            return result
        raise self.down(failures)

    def order(self, start: int) -> list[int]:
        """The replicas from `start` in turn, those that failed within RETRY_AFTER seconds last: a slow or dead
        replica costs one deadline, not one per question."""
        n, now = len(self.endpoints), time.monotonic()
        turn = [(start + step) % n for step in range(n)]
        return sorted(turn, key=lambda i: now - self.failed_at.get(i, -RETRY_AFTER) < RETRY_AFTER)

    def down(self, failures: list[str]) -> ShardDown:
        products = self.shard.products
        return ShardDown(
            self.shard.name,
            products,
            f"every replica of {self.shard.name} is down ({'; '.join(failures)}): its {len(products)} products "
            f"({', '.join(products[:5])}{', …' if len(products) > 5 else ''}) cannot be answered",
        )

    def check(self, i: int) -> None:
        """Raise Unavailable unless replica i is healthy: checked at first use, after a failure, and every
        HEALTH_EVERY seconds."""
        when = self.checked.get(i)
        if when is not None and time.monotonic() - when < HEALTH_EVERY:
            return
        try:
            health(self.endpoints[i], self.shard)
        except Unavailable as exc:
            self._failed(i, "skipped", exc)
            raise
        self.checked[i] = time.monotonic()

    def _failed(self, i: int, event: str, exc: Exception) -> None:
        url = self.endpoints[i].url
        self.checked.pop(i, None)
        self.failed_at[i] = time.monotonic()
        self.counts[url, event] += 1
        then = "trying the next replica" if len(self.endpoints) > 1 else "it is the shard's only replica"
        LOG.warning("%s: replica %s: %s; %s", self.shard.name, event, exc, then)
        if self.events is not None:
            self.events.record(self.shard.name, url, event, str(exc))


def still_holds(endpoint: RemoteEndpoint, shard: Shard) -> None:
    """After an ASK (a proof of absence, as often as not) or an empty result: the replica still holds the
    shard's build, or the answer is not used. A reload in place that began since the last health check has
    cleared the manifest graph (a shard file loads it last), so an emptied replica proves nothing in between."""
    if shard.build and not endpoint.ask(named_query("deployment_build_held").text, {"build": Literal(shard.build)}):
        raise Unavailable(
            f"{endpoint.url} no longer holds build {shard.build} of {shard.name} (a reload began?): its answer "
            "is not used"
        )


def health(endpoint: RemoteEndpoint, shard: Shard) -> float:
    """Seconds the checks took; Unavailable when the replica does not hold exactly its shard's export: a
    replica that is stale, mid-reload or partly loaded must never answer, nor prove an absence."""
    began = time.monotonic()
    if not endpoint.ask("ASK {}"):
        raise Unavailable(f"{endpoint.url} answers `ASK {{}}` with false: it is not a SPARQL 1.1 engine we can trust")
    if shard.build is None:  # a hand-written file without a manifest: at least its products and the org graph
        wanted = {product_graph(p).value: 1 for p in shard.products} | {ORG_GRAPH: 1}
    elif not endpoint.ask(named_query("deployment_build_held").text, {"build": Literal(shard.build)}):
        raise Unavailable(
            f"{endpoint.url} does not hold build {shard.build} of {shard.name} (stale, mid-reload or not "
            f"loaded from this export's {shard.name}.nq): skipped until it does"
        )
    else:
        wanted = shard.graphs
    query = named_query("deployment_graph_quads").text
    for iri, quads in sorted(wanted.items()):
        rows = endpoint.select(query, {"graph": NamedNode(iri)})
        held = int(rows[0]["quads"].value) if rows and "quads" in rows[0] else 0
        if held < quads if shard.build is None else held != quads:
            raise Unavailable(
                f"{endpoint.url} holds {held} quads in <{iri}> where {shard.name}'s manifest records {quads} "
                "(partly loaded or changed): skipped until it matches"
            )
    return time.monotonic() - began


class ShardedBackend:
    """The reading backend over a deployment: routed by the product graph a query's dataset names."""

    #: The products are the deployment file's, whatever a replica answers: none is hidden from the reader.
    hides_graphs = False

    def __init__(self, deployment: Deployment, deadline: float | None = None) -> None:
        self.deployment = deployment
        self.location = str(deployment.path)
        seconds = deadline or deployment.deadline
        self.events = EventLog(events_path(deployment.path))
        self.replicas = {name: ReplicaSet(shard, seconds, self.events) for name, shard in deployment.shards.items()}
        self.graph_shard = {product_graph(p).value: s for p, s in deployment.product_shard.items()}

    def products(self) -> list[str]:
        """The deployment's products (each replica is checked to hold its shard's at its first use)."""
        return sorted(self.deployment.product_shard)

    def product_groups(self, products: list[str]) -> list[list[str]]:
        """The products grouped by shard, so a dataset built from one group is answered by one shard."""
        groups: dict[str, list[str]] = {name: [] for name in self.deployment.shards}
        for p in products:
            if (shard := self.deployment.product_shard.get(p)) is not None:
                groups[shard].append(p)
        return list(groups.values())

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

    def federated(self) -> Federation:
        """The query per product on its shard (each through the shard's replica set, so failover holds), merged
        exactly."""

        def on(name: str) -> ShardRun:
            return lambda text, default, named: self.replicas[name].call("run_dataset", text, default, named)

        shards = [
            (on(name), [product_graph(p) for p in shard.products]) for name, shard in self.deployment.shards.items()
        ]
        return Federation(shards, self.location)

    def counters(self) -> list[tuple[str, str, int, int, int]]:
        """Per replica: shard, URL, calls served in this process, and the failures and health-check skips every
        process recorded (`events_path`)."""
        recorded = self.events.counts()
        return [
            (name, e.url, rs.counts[e.url, "served"], recorded[e.url, "failed"], recorded[e.url, "skipped"])
            for name, rs in self.replicas.items()
            for e in rs.endpoints
        ]


def open_deployment(path: str, deadline: float | None = None) -> ShardedBackend:
    return ShardedBackend(load_deployment(Path(path)), deadline)
