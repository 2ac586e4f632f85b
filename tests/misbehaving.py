"""Small real HTTP servers on 127.0.0.1 that misbehave as SPARQL endpoints do between "healthy" and "dead": slow,
trickling, answering garbage, refusing, redirecting. Each runs aiohttp in its own thread and counts its requests."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from aiohttp import ClientSession, web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Server:
    url: str
    hits: list[str] = field(default_factory=list)


async def slow(request: web.Request) -> web.StreamResponse:
    """Answers after two minutes: far past any deadline a test sets."""
    await asyncio.sleep(120)
    return web.Response(text="{}", content_type="application/sparql-results+json")


async def trickle(request: web.Request) -> web.StreamResponse:
    """Sends the headers at once, then one byte of a valid-looking body every half second, for 30 s."""
    response = web.StreamResponse(headers={"Content-Type": "application/sparql-results+json"})
    await response.prepare(request)
    try:
        for byte in (b'{"head": {"vars": []}, "results": {"bindings": []}}' + b" " * 60)[:60]:
            await response.write(bytes([byte]))
            await asyncio.sleep(0.5)
    except ConnectionError:  # the client gave up, as it should
        pass
    return response


async def garbage(request: web.Request) -> web.StreamResponse:
    return web.Response(text="<html><body>Welcome to nginx!</body></html>", content_type="text/html")


async def not_found(request: web.Request) -> web.StreamResponse:
    return web.Response(status=404, text="Not Found")


async def server_error(request: web.Request) -> web.StreamResponse:
    return web.Response(status=500, text="Internal Server Error")


def redirect_to(target: str) -> Handler:
    async def handler(request: web.Request) -> web.StreamResponse:
        raise web.HTTPTemporaryRedirect(target)

    return handler


async def ask_true(request: web.Request) -> web.StreamResponse:
    """A valid `ASK` result: true, whatever was asked (for a redirect's target, which must never be reached)."""
    return web.Response(text='{"head": {}, "boolean": true}', content_type="application/sparql-results+json")


@contextmanager
def serving(handler: Handler) -> Iterator[Server]:
    """The handler on a free loopback port (any path, GET or POST), until the block ends."""
    loop = asyncio.new_event_loop()
    server = Server("")

    async def counted(request: web.Request) -> web.StreamResponse:
        server.hits.append(request.path)
        return await handler(request)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", counted)
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0)  # a slow handler is cancelled, not awaited
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    server.url = f"http://127.0.0.1:{port}/sparql"
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.run_until_complete(runner.cleanup())
        loop.close()


class Switch:
    """A proxy's upstream URL, changed while it serves (a replica whose data is swapped under it)."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream


def proxy_to(switch: Switch) -> Handler:
    """Forwards each request, body and headers as sent, to the switch's current upstream, and its answer back."""

    async def handler(request: web.Request) -> web.StreamResponse:
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() in ("accept", "content-type")}
        async with ClientSession() as session, session.post(switch.upstream, data=body, headers=headers) as answer:
            return web.Response(status=answer.status, body=await answer.read(), content_type=answer.content_type)

    return handler
