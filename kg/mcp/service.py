"""Who is calling and what they may read: one `Reader` per tool call, made exactly as `kg serve` grants access.

- On the embedded store, grants come from the same access file as `kg serve` (kg/endpoint/access.py): over HTTP
  each request's `Authorization: Bearer` token picks its grant; over stdio the `--token` given at start does.
  Without an access file every caller reads everything, as a loopback client of `kg serve` without one does
  (the MCP server listens on loopback only). Client SPARQL runs in `kg serve`'s worker pool under its checks
  and limits (kg/endpoint/policy.py, kg/endpoint/engine.py); the library's own queries read the store here.
- On an endpoint (`--endpoint URL`), the endpoint decides: every query carries the caller's bearer token (over
  HTTP), else `--token`, and the products a token reads are the ones the endpoint shows it.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kg.endpoint.access import LOCAL, Grant, load_access, token_key
from kg.endpoint.engine import Pool
from kg.endpoint.policy import Limits
from kg.endpoint.shares import ByteBudget, Shares, TokenSlots, default_share
from kg.errors import KGError
from kg.ingest.storepath import serve_lock
from kg.namespaces import product_graph
from kg.qa.answer import Answerer
from kg.query.sparql import EmbeddedStore, known_products, record_graphs

if TYPE_CHECKING:
    from kg.search.searcher import Searcher


@dataclass
class Reader:
    """What one tool call runs on: its answerer (and backend), its grant's graphs and the products it reads."""

    name: str
    answerer: Answerer
    grant: Grant
    products: list[str]
    remote: bool = False
    #: The evidence searcher, made on the first `search` call (it loads the index).
    searcher: Searcher | None = field(default=None, repr=False)

    @property
    def graphs(self) -> frozenset[str] | None:
        return self.grant.graphs

    def check_product(self, product: str) -> str:
        """The product, if this caller reads it; else a KGError naming the ones it does."""
        if product not in self.products:
            shown = ", ".join(self.products[:40]) + (", …" if len(self.products) > 40 else "")
            raise KGError(f"unknown product {product!r} or not one this token reads; it reads: {shown}")
        return product


@dataclass(frozen=True)
class Settings:
    store: Path
    endpoint: str | None = None
    #: A deployment file of product shards (`kg export --shards`): questions routed by product to a replica.
    deployment: Path | None = None
    token: str | None = None
    access: Path | None = None
    workers: int = 2
    limits: Limits = field(default_factory=Limits)

    @property
    def per_token(self) -> int:
        """Queries one token may have at the workers at once (as `kg serve`'s default: a quarter, at least 1)."""
        return default_share(self.workers)


#: The `query` tool's largest result (SPARQL JSON or N-Triples): parsed and sent again as JSON text, a result
#: takes some 20 times its size in memory, and no model reads more than this in one answer anyway.
MAX_RESULT = 4 << 20
#: Large results (over 64 KiB) held at once, in units of MAX_RESULT: the tool's memory budget.
RESULTS_IN_FLIGHT = 2


class Service:
    """The data behind `kg mcp`: the store (with `kg serve`'s worker pool for client SPARQL) or an endpoint."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pool: Pool | None = None
        self.shares: Shares | None = None
        self.grants: dict[str, Grant] | None = None
        self._readers: dict[str, Reader] = {}
        self._lock = threading.Lock()
        self._held = ExitStack()
        try:
            self._open(settings)
        except BaseException:
            self._held.close()
            raise

    def _open(self, settings: Settings) -> None:
        """Check the settings and open what they name; on the store, first take `kg serve`'s lock on its real
        path, so no build replaces the store while the tools read it."""
        if settings.deployment:
            if settings.endpoint or settings.access or settings.token:
                raise KGError(
                    "--deployment routes to its shards' endpoints, which apply their own access (tokens by "
                    "`token_env` in the file): give it without --endpoint, --access or --token"
                )
            from kg.query.deployment import load_deployment

            load_deployment(settings.deployment)  # a file that will not do is refused at start, not per call
            return
        if settings.endpoint:
            if settings.access:
                raise KGError("--access is for the local store: an endpoint applies its own access file")
            return
        if not settings.store.is_dir():
            raise KGError(f"no store at {settings.store}: run `kg build` first (or pass --store PATH)")
        self.settings = settings = replace(settings, store=settings.store.resolve())
        self._held.enter_context(serve_lock(settings.store))
        self.answerer = Answerer(EmbeddedStore(settings.store))
        # the HERB products and the source-record graphs (ERB), as an access file names them for `kg serve`
        self.store_products = sorted({*known_products(self.answerer.backend), *record_graphs(self.answerer.backend)})
        if settings.access:
            self.grants = load_access(settings.access, self.store_products)
            if settings.token is not None and token_key(settings.token) not in self.grants:
                raise KGError(f"--token is not a token of the access file {settings.access}")
        elif settings.token is not None:
            raise KGError("--token without --endpoint selects a grant of --access FILE; give both")

    def start_pool(self) -> None:
        """The worker processes client SPARQL runs in (as `kg serve`'s, shared per token the same way): started
        once, before serving."""
        if self.settings.endpoint is None and self.settings.deployment is None and self.pool is None:
            limits = replace(self.settings.limits, max_result=min(self.settings.limits.max_result, MAX_RESULT))
            try:
                self.pool = Pool(self.settings.store, self.settings.workers, limits)
            except OSError as exc:
                raise KGError(str(exc)) from exc
            budget = ByteBudget(RESULTS_IN_FLIGHT * limits.max_result)
            self.shares = Shares(self.pool, TokenSlots(self.settings.per_token), budget, limits.timeout)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = self.shares = None
        self._held.close()

    def party(self, headers: Mapping[str, str] | None) -> str | None:
        """Whose turn a call takes: its grant's name; None without an access file (every caller alike)."""
        if self.grants is None:
            return None
        return self._grant(headers, bearer(headers) if headers is not None else None).name

    def reader(self, headers: Mapping[str, str] | None) -> Reader:
        """The caller's reader: `headers` are an HTTP request's (None over stdio)."""
        token = bearer(headers) if headers is not None else None
        if self.settings.deployment:
            return self._deployment_reader(self.settings.deployment)
        if self.settings.endpoint:
            return self._remote_reader(token or self.settings.token)
        return self._store_reader(self._grant(headers, token))

    def _grant(self, headers: Mapping[str, str] | None, token: str | None) -> Grant:
        if self.grants is None:
            return LOCAL
        if headers is None:  # stdio: the session's --token, checked at start
            return self.grants[token_key(self.settings.token)] if self.settings.token else _no_token()
        if token is None:
            raise KGError("a bearer token is required (Authorization: Bearer TOKEN)")
        grant = self.grants.get(token_key(token))
        if grant is None:
            raise KGError("unknown bearer token")
        return grant

    def _store_reader(self, grant: Grant) -> Reader:
        with self._lock:
            if grant.name not in self._readers:
                readable = [
                    p for p in self.store_products if grant.graphs is None or product_graph(p).value in grant.graphs
                ]
                self._readers[grant.name] = Reader(grant.name, self.answerer, grant, readable)
            return self._readers[grant.name]

    def _remote_reader(self, token: str | None) -> Reader:
        from kg.query.remote import RemoteEndpoint

        key = token_key(token) if token else "-"
        with self._lock:
            if key not in self._readers:
                assert self.settings.endpoint is not None
                answerer = Answerer(RemoteEndpoint(self.settings.endpoint, token=token))
                products = known_products(answerer.backend)
                self._readers[key] = Reader(f"endpoint:{key[:8]}", answerer, LOCAL, products, remote=True)
            return self._readers[key]

    def _deployment_reader(self, path: Path) -> Reader:
        """One reader over the deployment's shards, as `kg ask --deployment` reads them."""
        from kg.query.deployment import open_deployment

        with self._lock:
            if "deployment" not in self._readers:
                answerer = Answerer(open_deployment(str(path)))
                products = known_products(answerer.backend)
                self._readers["deployment"] = Reader("deployment", answerer, LOCAL, products, remote=True)
            return self._readers["deployment"]


def _no_token() -> Grant:
    raise KGError("this server has an access file: start it with --token TOKEN for a stdio session")


def bearer(headers: Mapping[str, str]) -> str | None:
    scheme, _, token = (headers.get("authorization") or headers.get("Authorization") or "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None
