"""The MCP SDK's own client, held open on a background event loop so that plain (sync) tests can drive one
server process through many calls: over stdio (`kg mcp` as a child process) or streamable HTTP (with a bearer
token)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
from endpoints import ROOT, free_port, stopping, wait_for
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

KG = [sys.executable, "-m", "kg"]


@dataclass
class Result:
    error: bool
    text: str

    @property
    def value(self) -> Any:
        assert not self.error, self.text
        return json.loads(self.text)


class Session:
    """One client session on its own thread's event loop; `call` and `read` block until the server answers."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.failure: BaseException | None = None
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._main(),), daemon=True)
        self.thread.start()
        if not self.ready.wait(90) or self.failure:
            raise RuntimeError(f"the MCP client did not connect: {self.failure!r}")

    async def _main(self) -> None:
        self.stop = asyncio.Event()
        try:
            async with Client(self.server, read_timeout_seconds=120) as client:
                self.client = client
                self.ready.set()
                await self.stop.wait()
        except BaseException as exc:
            self.failure = exc
            self.ready.set()

    def _run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(180)

    def call(self, tool: str, arguments: dict[str, Any] | None = None) -> Result:
        result = self._run(self.client.call_tool(tool, arguments or {}))
        return Result(bool(result.is_error), "".join(c.text for c in result.content if hasattr(c, "text")))

    def tools(self) -> list[Any]:
        return self._run(self.client.list_tools()).tools

    def resources(self) -> list[str]:
        return [str(r.uri) for r in self._run(self.client.list_resources()).resources]

    def read(self, uri: str) -> str:
        return self._run(self.client.read_resource(uri)).contents[0].text

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(60)


@contextmanager
def stdio_session(*args: str) -> Iterator[Session]:
    """`kg mcp ARGS` over stdio, as an MCP host starts it."""
    session = Session(StdioServerParameters(command=KG[0], args=[*KG[1:], "mcp", *args], cwd=str(ROOT)))
    try:
        yield session
    finally:
        session.close()


@contextmanager
def http_server(log_dir: Path, *args: str) -> Iterator[str]:
    """`kg mcp --transport http ARGS` on a free loopback port; yields its MCP URL."""
    port = free_port()
    log = log_dir / f"kg-mcp-{port}.log"
    with log.open("w") as err:
        proc = subprocess.Popen([*KG, "mcp", "--transport", "http", "--port", str(port), *args], cwd=ROOT, stderr=err)
    with stopping(proc):
        url = f"http://127.0.0.1:{port}/mcp"
        wait_for(url, proc, log, 60)
        yield url


@contextmanager
def http_session(url: str, token: str | None) -> Iterator[Session]:
    """A client session on the HTTP server, sending `token` as its bearer token on every request."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    client = httpx2.AsyncClient(headers=headers, timeout=120)
    session = Session(streamable_http_client(url, http_client=client))
    try:
        yield session
    finally:
        session.close()


def hostile(result: Result) -> None:
    """A refusal as the tools give it: a tool error with a message, never a traceback or an abstention."""
    assert result.error, result.text[:300]
    assert result.text.strip() and "Traceback" not in result.text and "internal error" not in result.text
    assert '"abstain"' not in result.text
