"""What every HTTP request to `kg mcp` passes before the SDK sees it (an ASGI middleware).

- its `Host` must be one this server answers (kg/hosts.py, as for `kg serve`), else 421;
- with `--access`, its bearer token must be one of the file's, else 401: checked before a session is made, so a
  caller without a token cannot fill the server with sessions;
- a client (its token's name with `--access`, else its address) holds at most `MAX_SESSIONS` sessions: opening
  one more ends its oldest, so one client's sessions never crowd out another's.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from kg import hosts
from kg.errors import KGError
from kg.mcp.service import Service

#: Sessions one client may hold open at once; the next one ends its oldest.
MAX_SESSIONS = 32
SESSION_HEADER = "mcp-session-id"

Scope = dict[str, Any]


class Guard:
    """The checks above, around the SDK's streamable HTTP application `app`."""

    def __init__(self, app: Any, service: Service, names: frozenset[str] | None) -> None:
        self.app, self.service, self.names = app, service, names
        self.sessions: dict[str, OrderedDict[str, None]] = {}

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if not hosts.is_allowed(headers.get("host"), self.names):
            return await refuse(send, hosts.MISDIRECTED, hosts.refusal(headers.get("host")))
        try:
            client = self.client_of(scope, headers)
        except KGError as exc:
            return await refuse(send, 401, str(exc), {"www-authenticate": 'Bearer realm="kg"'})
        if scope["method"] == "POST" and SESSION_HEADER not in headers:
            await self.make_room(client, scope)
            send = self.recording(client, send)
        await self.app(scope, receive, send)

    def client_of(self, scope: Scope, headers: dict[str, str]) -> str:
        """Who the request is from: its grant's name (a KGError for a missing or unknown token) with an access
        file, else its address."""
        party = self.service.party(headers)
        if party is not None:
            return f"token {party}"
        return f"address {(scope.get('client') or ('-',))[0]}"

    async def make_room(self, client: str, scope: Scope) -> None:
        """End the client's oldest sessions until a new one fits, as its own DELETE would."""
        mine = self.sessions.setdefault(client, OrderedDict())
        while len(mine) >= MAX_SESSIONS:
            oldest, _ = mine.popitem(last=False)
            await self.app(ending(scope, oldest), nothing_to_read, ignore)

    def recording(self, client: str, send: Any) -> Any:
        """`send`, noting the session id the SDK gives a new session."""

        async def record(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                for key, value in message.get("headers", []):
                    if key.decode("latin-1").lower() == SESSION_HEADER:
                        self.sessions.setdefault(client, OrderedDict())[value.decode("latin-1")] = None
            await send(message)

        return record


def ending(scope: Scope, session: str) -> Scope:
    """A DELETE of `session`, with the original request's Host (which passed the check)."""
    kept = [(k, v) for k, v in scope["headers"] if k.lower() in (b"host", b"authorization")]
    return {**scope, "method": "DELETE", "headers": [*kept, (SESSION_HEADER.encode(), session.encode("latin-1"))]}


async def nothing_to_read() -> dict[str, Any]:
    return {"type": "http.request", "body": b"", "more_body": False}


async def ignore(message: dict[str, Any]) -> None:
    return None


async def refuse(send: Any, status: int, message: str, extra: dict[str, str] | None = None) -> None:
    """A JSON-RPC error body, as the SDK's own refusals have, with a one-line message."""
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += [(k.encode(), v.encode()) for k, v in (extra or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
