"""Starting `kg serve`: the settings checked, the access file read, the worker pool started, the server run until
a signal stops it (the package's parts: kg/endpoint/__init__.py)."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import math
import signal
import sys
from dataclasses import replace

from kg.endpoint.access import Grant, load_access
from kg.endpoint.engine import Pool
from kg.endpoint.http import Settings, run_server
from kg.errors import KGError
from kg.ingest.storepath import serve_lock
from kg.namespaces import product_of_graph

log = logging.getLogger("kg.endpoint")


def store_products(settings: Settings) -> list[str]:
    """The product names the store holds, read from its named graphs."""
    from kg.query.sparql import read_only_store

    store = read_only_store(settings.store)
    return sorted(p for g in store.named_graphs() if (p := product_of_graph(g.value)))


def check_settings(settings: Settings) -> None:
    if not settings.store.is_dir():
        raise KGError(f"no store at {settings.store}: run `kg build` first (or pass --store PATH)")
    if settings.access is None and not _is_loopback(settings.host):
        raise KGError(f"refusing to serve {settings.host} without --access: an open endpoint is local only")
    limits = settings.limits
    if not 0 <= settings.port <= 65535:
        raise KGError(f"--port {settings.port}: a TCP port is 0 to 65535 (0 picks a free one)")
    if not all(math.isfinite(x) for x in (limits.timeout, settings.client_timeout, settings.send_timeout)):
        raise KGError("--timeout, --client-timeout and --send-timeout must be finite numbers of seconds")
    if (
        min(
            limits.timeout,
            limits.max_body,
            limits.max_memory,
            limits.max_query_bytes,
            limits.max_result,
            limits.max_groups,
            settings.workers,
            settings.client_timeout,
            settings.max_connections,
            settings.max_per_client,
            settings.per_token,
            settings.send_timeout,
        )
        <= 0
    ):
        raise KGError(
            "--timeout, --max-body, --max-memory, --max-query-bytes, --max-result, --max-groups, --workers, "
            "--client-timeout, --max-connections, --max-per-client, --max-per-token and --send-timeout must be positive"
        )
    if settings.inflight < limits.max_result:
        raise KGError("--max-inflight must be at least --max-result: a reply of the largest size must fit")


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def configure_logging() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    for name in ("kg.endpoint", "kg.endpoint.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler] if name == "kg.endpoint" else []
        logger.setLevel(logging.INFO)
        logger.propagate = name != "kg.endpoint"
    logging.getLogger("aiohttp").setLevel(logging.CRITICAL)  # client disconnects are not errors


def serve(settings: Settings) -> None:
    """Run the endpoint until SIGINT or SIGTERM, then stop the workers. The store is locked and opened by its
    real path, so a link changed meanwhile cannot give the workers and the answer page two stores."""
    check_settings(settings)
    settings = replace(settings, store=settings.store.resolve())
    with serve_lock(settings.store):  # no build replaces the store while its workers read it
        products = store_products(settings)  # opened here first, so a folder that is no store is one clear line
        grants = load_access(settings.access, products) if settings.access else None
        configure_logging()
        try:
            pool = Pool(settings.store, settings.workers, settings.limits)
        except OSError as exc:
            raise KGError(str(exc)) from exc
        try:
            asyncio.run(_serve(settings, grants, pool))
        except OSError as exc:
            raise KGError(f"cannot listen on {settings.host}:{settings.port}: {exc}") from exc
        finally:
            pool.close()


async def _serve(settings: Settings, grants: dict[str, Grant] | None, pool: Pool) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    mode = f"access file {settings.access}" if grants is not None else "no access file: loopback clients only"
    network = (
        "network isolation on (workers in an empty network namespace: SERVICE cannot connect)"
        if pool.isolation_problem is None
        else f"WARNING: network isolation OFF ({pool.isolation_problem}); SERVICE refused by its letters in the text"
    )
    if pool.isolation_problem is not None:
        log.warning("kg serve: workers could not be isolated from the network: %s", pool.isolation_problem)

    def started(url: str) -> None:
        print(
            f"kg serve: SPARQL endpoint at {url}/query, query page at {url}/ (store {settings.store}, "
            f"{settings.workers} workers, {network}, {mode})",
            file=sys.stderr,
            flush=True,
        )

    await run_server(settings, grants, pool, started, stop)
