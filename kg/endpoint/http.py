"""The client-facing HTTP server (aiohttp): routes, tokens, CORS, the query page and one log line a request.

aiohttp's parser (llhttp) owns the framing: a negative, duplicate or conflicting Content-Length or a bad
chunk is a 400 and the connection is closed, never a second request. Headers that do not complete within
`client_timeout` close the connection (aiohttp's keep-alive timer runs from the connection's start), as do
idle keep-alive connections; a body gets the same time to arrive and is bounded by `max_body`, chunked or not.
Connections beyond `max_connections` get a 503 and are closed at once.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import struct
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_server import Server

from kg import hosts
from kg.endpoint.access import LOCAL, Grant
from kg.endpoint.engine import SMALL_REPLY, Job, Pool, Reply
from kg.endpoint.policy import HttpError, Limits, check_iris, check_query, dataset_for, mentions_service
from kg.endpoint.service_description import described
from kg.endpoint.shares import ByteBudget, Shares, TokenSlots, default_share
from kg.grants import GRANTS, PAGE_SHARE, TOKEN_NAME, token_key
from kg.namespaces import PREFIXES

access_log = logging.getLogger("kg.endpoint.access")
log = logging.getLogger("kg.endpoint")

TEXT = "text/plain; charset=utf-8"
STATIC = files("kg.endpoint") / "static"
STATIC_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'"
)
FORM = "application/x-www-form-urlencoded"


@dataclass(frozen=True)
class Settings:
    store: Path
    host: str = "127.0.0.1"
    port: int = 7878
    access: Path | None = None
    workers: int = 2
    limits: Limits = field(default_factory=Limits)
    cors: tuple[str, ...] = ()
    client_timeout: float = 15.0
    max_connections: int = 256
    max_per_client: int = 32
    max_per_token: int | None = None  # None: a quarter of the workers, at least 1
    max_inflight: int | None = None  # bytes; None: workers x max_result
    send_timeout: float = 60.0
    #: Host names answered besides localhost, this machine's name and --host; `*` answers any (kg.hosts).
    allow_hosts: tuple[str, ...] = ()

    @property
    def per_token(self) -> int:
        return default_share(self.workers) if self.max_per_token is None else self.max_per_token

    @property
    def inflight(self) -> int:
        return self.workers * self.limits.max_result if self.max_inflight is None else self.max_inflight


SETTINGS = web.AppKey("settings", Settings)
POOL = web.AppKey("pool", Pool)
SHARES = web.AppKey("shares", Shares)
#: Replies up to this size are handed to aiohttp whole (they sit in the socket's buffer, which the memory bound
#: counts per connection); larger ones are written in chunks of it, each waiting for the client to read.
CHUNK = SMALL_REPLY
#: Header fields a request may have (aiohttp's default is 128): with 16 KiB a field, 512 KiB a connection at most.
MAX_HEADERS = 32


class AccessLog(AbstractAccessLogger):
    """One line a request: token name (never the token), method, path, status, milliseconds, bytes."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info(
            "%s %s %s %d %.1f ms %d B",
            printable(request.get(TOKEN_NAME, "-")),
            printable(request.method),
            printable(request.rel_url.raw_path),
            response.status,
            time * 1000,
            response.body_length,
        )


def printable(text: str) -> str:
    """`text` for a log line: control characters, backslashes and non-ASCII escaped, so a client cannot forge
    a line (the path is logged as sent, still percent-encoded: `%0A` stays three characters)."""
    return "".join(
        c if " " <= c < "\x7f" and c != "\\" else c.encode("unicode_escape", "backslashreplace").decode() for c in text
    )


def text_response(status: int, message: str) -> web.Response:
    response = web.Response(
        status=status, body=(message.rstrip("\n") + "\n").encode(), content_type="text/plain", charset="utf-8"
    )
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="kg"'
    return response


def host_guard(names: frozenset[str] | None) -> Any:
    """421 for a request whose Host is not a name this server answers (kg/hosts.py), before anything else."""

    @web.middleware
    async def guard(request: web.Request, handler: Any) -> web.StreamResponse:
        header = request.headers.get("Host")
        if hosts.is_allowed(header, names):
            return await handler(request)
        response = text_response(hosts.MISDIRECTED, hosts.refusal(header))
        if request.body_exists:
            response.force_close()
        return response

    return guard


@web.middleware
async def refusals(request: web.Request, handler: Any) -> web.StreamResponse:
    """HttpError and aiohttp's own client errors become a one-line text reply."""
    try:
        return await handler(request)
    except HttpError as exc:
        response = text_response(exc.status, exc.message)
    except web.HTTPRequestEntityTooLarge:
        limit = request.app[SETTINGS].limits.max_body
        response = text_response(413, f"the request body exceeds the {limit}-byte limit")
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        response = text_response(exc.status, exc.text or exc.reason)
    if request.body_exists and not request.content.is_eof():
        response.force_close()  # the unread body must never be taken for another request
    return response


def set_working(request: web.BaseRequest, working: bool) -> None:
    """Mark the request's connection as working (not evictable) or idle again; see Admission."""
    protocol = request.protocol
    if isinstance(protocol, LimitedHandler):
        protocol.set_working(working)


@web.middleware
async def working_marks(request: web.Request, handler: Any) -> web.StreamResponse:
    """A request works from its start once its body, if any, has arrived whole (the wait is then the server's);
    one whose body is still coming once body_text has read it."""
    set_working(request, not request.body_exists or request.content.is_eof())
    try:
        return await handler(request)
    finally:
        set_working(request, False)


def cors_middleware(origins: tuple[str, ...]) -> Any:
    """Preflights answered here; the Allow-Origin header is added as each response is prepared (`cors_headers`),
    so a reply streamed in chunks gets it too."""

    @web.middleware
    async def cors(request: web.Request, handler: Any) -> web.StreamResponse:
        if request.method != "OPTIONS":
            return await handler(request)
        response = web.Response(status=204, headers={"Allow": "GET, HEAD, POST, OPTIONS"})
        if cors_allowed(request, origins):
            response.headers.update(
                {
                    "Access-Control-Allow-Methods": "GET, HEAD, POST, OPTIONS",
                    "Access-Control-Allow-Headers": "Authorization, Content-Type",
                    "Access-Control-Max-Age": "600",
                }
            )
        return response

    return cors


def cors_allowed(request: web.BaseRequest, origins: tuple[str, ...]) -> bool:
    origin = request.headers.get("Origin")
    return origin is not None and ("*" in origins or origin in origins)


async def cors_headers(request: web.Request, response: web.StreamResponse) -> None:
    origins = request.app[SETTINGS].cors
    if cors_allowed(request, origins):
        response.headers["Access-Control-Allow-Origin"] = "*" if "*" in origins else request.headers["Origin"]
        response.headers["Vary"] = "Origin"


def grant_of(request: web.Request) -> Grant:
    """The caller's grant: its bearer token's; without an access file, everything for loopback callers."""
    grants: Mapping[str, Grant] | None = request.app[GRANTS]
    if grants is None:
        if not ipaddress.ip_address(request.remote or "0.0.0.0").is_loopback:
            raise HttpError(403, "without an access file the endpoint only answers loopback clients")
        request[TOKEN_NAME] = LOCAL.name
        return LOCAL
    scheme, _, token = (request.headers.get("Authorization") or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HttpError(401, "a bearer token is required (Authorization: Bearer TOKEN)")
    grant = grants.get(token_key(token.strip()))
    if grant is None:
        raise HttpError(401, "unknown bearer token")
    request[TOKEN_NAME] = grant.name
    return grant


def read_only() -> HttpError:
    return HttpError(403, "this endpoint is read-only: updates are refused")


async def body_text(request: web.Request) -> str:
    """The whole body as UTF-8, within the size limit and the client time limit."""
    settings: Settings = request.app[SETTINGS]
    if (request.content_length or 0) > settings.limits.max_body:
        raise HttpError(
            413, f"request body of {request.content_length} bytes exceeds the {settings.limits.max_body}-byte limit"
        )
    try:
        async with asyncio.timeout(settings.client_timeout):
            body = await request.read()
    except TimeoutError:
        raise HttpError(408, f"the request body did not arrive within {settings.client_timeout:g} s") from None
    set_working(request, True)
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise HttpError(400, "the request body is not UTF-8") from None


async def params_of(request: web.Request) -> dict[str, list[str]]:
    """The request's parameters: the URL's, plus a form body; a direct POST's body becomes `query`."""
    params: dict[str, list[str]] = {}
    for key, value in request.query.items():
        params.setdefault(key, []).append(value)
    if request.method != "POST":
        return params
    kind = request.content_type.lower()
    if kind == "application/sparql-update":
        raise read_only()
    if kind not in ("application/sparql-query", FORM):
        raise HttpError(415, "POST the query as application/sparql-query or as an HTML form")
    text = await body_text(request)
    if kind == "application/sparql-query":
        params.setdefault("query", []).append(text)
    else:
        for key, value in parse_qsl(text, keep_blank_values=True):
            params.setdefault(key, []).append(value)
    return params


def share_key(request: web.Request) -> str | None:
    """Whose turn a request takes: its token's name; None without an access file (one party, no shares)."""
    return request.get(TOKEN_NAME) if request.app[GRANTS] is not None else None


def queued_mark(request: web.Request) -> Any:
    """While a request waits for its token's turn its connection counts as idle (evictable), not as working;
    evicting it cancels the wait."""
    protocol = request.protocol

    def mark(queued: bool) -> None:
        set_working(request, not queued)
        if isinstance(protocol, LimitedHandler):
            protocol.queued = asyncio.current_task() if queued else None

    return mark


async def run_job(request: web.Request, job: Job, query: str | None = None) -> web.StreamResponse:
    """Run a job within the token's share of the workers and send its reply. A reply over CHUNK bytes needs
    room in the server's budget of result bytes before it leaves the worker, and holds it until the client has
    read it or the send deadline has passed; smaller ones are counted per connection (docs/endpoint.md)."""
    async with request.app[SHARES].run(job, share_key(request), queued_mark(request)) as reply:
        if query is not None and reply.status == 500 and mentions_service(query):
            # the network-less engine read a SERVICE call and could not connect: say why, as a refusal
            raise HttpError(403, "SERVICE (federated query) is disabled: the engine has no network")
        return await send_reply(request, reply, request.app[SETTINGS].send_timeout)


async def send_reply(request: web.Request, reply: Reply, deadline: float) -> web.StreamResponse:
    """A small reply whole; a larger one in chunks, each written once the client has read the one before, and
    the connection closed when the whole reply has not been read within `deadline` seconds."""
    headers = {"Content-Type": reply.content_type}
    if reply.status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="kg"'
    if len(reply.body) <= CHUNK or request.method == "HEAD":
        return web.Response(status=reply.status, body=reply.body, headers=headers)
    response = web.StreamResponse(status=reply.status, headers=headers)
    response.content_length = len(reply.body)
    body = memoryview(reply.body)
    try:
        async with asyncio.timeout(deadline):
            await response.prepare(request)
            for start in range(0, len(body), CHUNK):
                await response.write(body[start : start + CHUNK])
            await response.write_eof()
    except TimeoutError:
        log.warning("kg serve: a client read %d bytes too slowly; closed after %g s", len(body), deadline)
        if request.transport is not None:
            sock = request.transport.get_extra_info("socket")
            if sock is not None:  # a reset, not a close: the kernel drops what the socket still holds
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            request.transport.abort()
    return response


async def query_route(request: web.Request) -> web.StreamResponse:
    if request.method not in ("GET", "HEAD", "POST"):
        raise read_only()
    grant = grant_of(request)
    params = await params_of(request)
    if "update" in params:
        raise read_only()
    if "query" not in params:
        try:  # the endpoint's own IRI is built from the Host header, which the client chose
            media, body = described(str(request.url.with_query(None)), grant, request.headers.get("Accept", ""))
        except ValueError:
            raise HttpError(400, "the Host header does not make a valid IRI for this endpoint") from None
        return web.Response(body=body, headers={"Content-Type": media})
    if len(params["query"]) != 1:
        raise HttpError(400, "send exactly one `query` parameter")
    query = params["query"][0]
    settings: Settings = request.app[SETTINGS]
    pool = request.app[POOL]
    check_query(query, settings.limits, service_by_text=pool.isolation_problem is not None)
    dataset = dataset_for(grant, params.get("default-graph-uri", []), params.get("named-graph-uri", []))
    accept = request.headers.get("Accept") or "application/sparql-results+json"
    return await run_job(request, Job(accept, query=query, dataset=dataset), query)


async def store_route(request: web.Request) -> web.StreamResponse:
    """Graph Store Protocol, read side: GET (or HEAD) of one named graph the caller may read."""
    grant = grant_of(request)
    if request.method not in ("GET", "HEAD"):
        raise read_only()
    graphs = request.query.getall("graph", [])
    if len(graphs) != 1 or "default" in request.query:
        if grant.graphs is not None:
            raise HttpError(403, "a product token may only GET a named graph: /store?graph=IRI")
        raise HttpError(400, "name one graph: /store?graph=IRI (`kg export` dumps the whole store)")
    check_iris(graphs)
    if forbidden := grant.refused(graphs):
        raise HttpError(403, f"this token may not read graph <{forbidden[0]}>")
    accept = request.headers.get("Accept") or "text/turtle"
    return await run_job(request, Job(accept, graph=graphs[0]))


async def update_route(request: web.Request) -> web.StreamResponse:
    raise read_only()


async def page_route(request: web.Request) -> web.StreamResponse:
    """The query page (YASGUI) and its assets, from the package, under a same-origin-only policy."""
    name = request.match_info.get("name", "index.html")
    asset = STATIC / name
    suffix = Path(name).suffix
    if "/" in name or name.startswith(".") or suffix not in STATIC_TYPES or not asset.is_file():
        raise HttpError(404, "not found")
    headers = {
        "Content-Type": f"{STATIC_TYPES[suffix]}; charset=utf-8",
        "Content-Security-Policy": PAGE_POLICY,
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "no-cache",
    }
    return web.Response(body=asset.read_bytes(), headers=headers)


def page_examples() -> dict[str, Any]:
    """What the query page preloads: the project's PREFIX lines and the library's queries that need no
    parameter (sparql/*.rq, each with its header), so a reader starts from working queries."""
    from kg.query.sparql import library

    prefixes = "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in PREFIXES.items())
    queries = [
        {"name": q.name, "intent": q.intent, "query": prefixes + "\n" + q.text}
        for q in sorted(library().values(), key=lambda q: q.name)
        if not q.params and not q.name.endswith(".ask")
    ]
    return {"prefixes": prefixes, "queries": queries}


async def examples_route(request: web.Request) -> web.StreamResponse:
    """/examples.json for the query page (same-origin, like its assets)."""
    headers = {"Content-Security-Policy": PAGE_POLICY, "X-Content-Type-Options": "nosniff"}
    return web.json_response(page_examples(), headers=headers)


async def not_found(request: web.Request) -> web.StreamResponse:
    raise HttpError(
        404, "not found: the endpoint serves / (query page), /query, /store, /ask (answer page) and /api/ask (its JSON)"
    )


def answer_page_routes(store: Path) -> web.RouteTableDef:
    """/ask and /artifact/<id>. They run only the library's own parameterised queries, never a client's
    SPARQL, so they read the store in this process (read-only) under the same tokens and product scope."""
    from kg.page.app import ask_routes
    from kg.qa.answer import Answerer
    from kg.query.sparql import EmbeddedStore

    return ask_routes(Answerer(EmbeddedStore(store)))


def make_app(settings: Settings, grants: dict[str, Grant] | None, pool: Pool) -> web.Application:
    names = hosts.allowed_names(settings.host, settings.allow_hosts)
    app = web.Application(
        middlewares=[working_marks, host_guard(names), cors_middleware(settings.cors), refusals],
        client_max_size=settings.limits.max_body,
    )
    app[SETTINGS], app[GRANTS], app[POOL] = settings, grants, pool
    app[SHARES] = Shares(pool, TokenSlots(settings.per_token), ByteBudget(settings.inflight), settings.limits.timeout)
    page_slots = TokenSlots(settings.per_token)  # the answer page's own turns: it runs in this process
    app[PAGE_SHARE] = lambda request: page_slots.slot(share_key(request), settings.limits.timeout, queued_mark(request))
    app.on_response_prepare.append(cors_headers)
    app.router.add_route("*", "/query", query_route)
    app.router.add_route("*", "/store", store_route)
    app.router.add_route("*", "/update", update_route)
    app.router.add_get("/", page_route)
    app.router.add_get("/static/{name}", page_route)
    app.router.add_get("/examples.json", examples_route)
    app.add_routes(answer_page_routes(settings.store))
    app.router.add_route("*", "/{tail:.*}", not_found)
    return app


class Admission:
    """Who holds a connection slot: at most `limit` connections, at most `per_client` from one address.

    A newcomer over its address's limit takes the slot of that address's **idle** connection that has waited
    longest (one still sending its headers or body, or on keep-alive) and closes it; failing that, of its
    request that has waited longest for its token's turn (kg/endpoint/shares.py), so one token's queue never
    holds slots against other tokens. A newcomer over the server's limit takes a slot from the address holding
    the most connections, if that one holds more than the newcomer's: there the choice goes on to a request
    that has arrived whole but is not yet at work, so an address flooding the server with requests (or with a
    token's requests past its share) gives way to one holding fewer. A connection is never closed while its
    request is being answered (`working`), nor for its own address's newcomers once its request has arrived:
    a server slowed by load must not count its own delay (a request still in the socket or in aiohttp's queue)
    against the client. Only when nothing in the way can go does the newcomer get a 503. A slot is given back
    exactly once, whatever closed the connection (aiohttp's force_close() clears `transport` before
    connection_lost runs).
    """

    def __init__(self, limit: int, per_client: int) -> None:
        self.limit, self.per_client = limit, per_client
        self.by_peer: dict[str, dict[LimitedHandler, None]] = {}
        self.count = 0

    def admit(self, handler: LimitedHandler) -> bool:
        """Give `handler` a slot, closing a connection in the way (above); False when none can go."""
        mine = self.by_peer.get(handler.peer, {})
        if len(mine) >= self.per_client or self.count >= self.limit:
            victim = victim_among(mine, False) if len(mine) >= self.per_client else self._fair_victim(len(mine))
            if victim is None:
                return False
            self._evict(victim)
        self.by_peer.setdefault(handler.peer, {})[handler] = None
        self.count += 1
        return True

    def release(self, handler: LimitedHandler) -> None:
        """Give the slot back; a second call for the same connection does nothing."""
        mine = self.by_peer.get(handler.peer, {})
        if handler in mine:
            del mine[handler]
            self.count -= 1
            if not mine:
                del self.by_peer[handler.peer]

    def _fair_victim(self, held: int) -> LimitedHandler | None:
        """With every slot taken, for a newcomer whose address holds `held`: a connection of the address holding
        the most, if more than `held` (even one whose request has arrived); else an idle or queued one of an
        address holding as many as `held` (the newcomer's own among them)."""
        for peer in sorted(self.by_peer.values(), key=len, reverse=True):
            if len(peer) <= held:
                break
            if (victim := victim_among(peer, True)) is not None:
                return victim
        return victim_among([h for peer in self.by_peer.values() if len(peer) == held for h in peer], False)

    def _evict(self, victim: LimitedHandler) -> None:
        self.release(victim)
        victim.force_close()
        if victim.queued is not None:  # its request waits for its token's turn: it will never be answered
            victim.queued.cancel()


def victim_among(handlers: Iterable[LimitedHandler], arrived_too: bool) -> LimitedHandler | None:
    """The connection to close among `handlers`: the longest-idle one whose request has not arrived, else the one
    that has waited longest for its token's turn, else (`arrived_too`) the longest-idle one whose request has
    arrived but is not yet at work; never a working one."""
    resting = sorted((h for h in handlers if not h.working), key=lambda h: h.idle_since)
    idle = [h for h in resting if h.queued is None]
    unsent = next((h for h in idle if not h.request_arrived()), None)  # each socket peeked only as far as needed
    queued = next((h for h in resting if h.queued is not None), None)
    return unsent or queued or (idle[0] if arrived_too and idle else None)


#: Bytes of a connection's unread input looked at for the end of a request head (a longer head is not seen).
PEEK = 16384


def head_unread(transport: asyncio.BaseTransport | None) -> bool:
    """Whether the socket holds a whole request head this server has not read yet (peeked, not consumed)."""
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None:
        return False
    view = socket.socket(fileno=sock.fileno())  # the same descriptor, not a copy: detached, never closed
    try:
        return b"\r\n\r\n" in view.recv(PEEK, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except OSError:
        return False
    finally:
        view.detach()


class LimitedHandler(RequestHandler):
    """aiohttp's connection handler under an Admission: a connection refused a slot gets one 503 and is closed.

    The check runs in connection_made, not in the protocol factory: asyncio accepts a burst of connections
    (calling the factory for each) before any of them is counted as made. `working` is set once a request has
    arrived whole (its body too) and cleared when its response is sent: only then is the connection safe from
    eviction. Before that, `request_arrived()` tells a request waiting for the server from a slow client.
    """

    __slots__ = ("_admission", "_admitted", "arrived", "idle_since", "peer", "queued", "working")
    REFUSAL = (
        b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Length: 30\r\nConnection: close\r\n\r\ntoo many connections; retry.\r\n"
    )

    def __init__(self, server: Server, admission: Admission, **kwargs: Any) -> None:
        super().__init__(server, **kwargs)
        self._admission, self._admitted, self.working, self.arrived = admission, False, False, False
        self.peer, self.idle_since = "", 0.0
        self.queued: asyncio.Task | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        self.peer, self.idle_since = str(peer[0]) if peer else "", time.monotonic()
        if not self._admission.admit(self):
            transport.write(self.REFUSAL)  # type: ignore[attr-defined]
            transport.close()
            return
        self._admitted = True
        super().connection_made(transport)

    def connection_lost(self, exc: BaseException | None) -> None:
        self._admission.release(self)
        if self._admitted:
            super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._messages:  # a request head was parsed: it waits for the handler (working_marks clears this)
            self.arrived = True

    def request_arrived(self) -> bool:
        """Whether a request head has arrived and waits for this server: parsed (and perhaps already taken from
        aiohttp's queue by a task not yet run), or still unread in the socket."""
        return self.arrived or bool(self._messages) or head_unread(self.transport)

    def set_working(self, working: bool) -> None:
        self.working, self.arrived = working, False
        if not working:
            self.idle_since = time.monotonic()


async def run_server(
    settings: Settings, grants: dict[str, Grant] | None, pool: Pool, started: Any, stop: asyncio.Event
) -> None:
    """Listen until `stop` is set; `started(url)` is called once the socket is bound."""
    app = make_app(settings, grants, pool)
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    server = runner.server
    assert server is not None

    loop = asyncio.get_running_loop()
    handler_options = {
        "loop": loop,
        "access_log_class": AccessLog,
        "access_log": access_log,
        "max_field_size": 16384,
        "max_headers": MAX_HEADERS,
        "keepalive_timeout": settings.client_timeout,
        "lingering_time": 1.0,
    }

    admission = Admission(settings.max_connections, settings.max_per_client)

    def protocol() -> asyncio.Protocol:
        return LimitedHandler(server, admission, **handler_options)

    try:
        listener = await loop.create_server(protocol, settings.host, settings.port, backlog=512, reuse_address=True)
    except OSError:
        await runner.cleanup()
        raise
    port = listener.sockets[0].getsockname()[1]
    started(f"http://{settings.host}:{port}")
    try:
        await stop.wait()
    finally:
        listener.close()
        await server.shutdown(2.0)
        await runner.cleanup()
