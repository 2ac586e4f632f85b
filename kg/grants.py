"""What every way in shares about access: the key under which an aiohttp application keeps its access table, and
how a bearer token is looked up in it. The SPARQL endpoint (kg.endpoint) fills the table; the answer page
(kg.page) and any other routes mounted beside it read the same table, so the same grants hold on each.

The key is a typed `web.AppKey`, not a string, so aiohttp can tell it apart from any other application's keys
(and does not warn)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any

from aiohttp import web

#: The endpoint's access table: SHA-256 hex digest of a token -> its grant; None when the endpoint is open.
GRANTS: web.AppKey[Mapping[str, Any] | None] = web.AppKey("grants")

#: The server's turn-taking for answer-page views (`kg serve` sets it, kg/endpoint/shares.py): `share(request)` is
#: held while the request's view runs, so one token's looping requests leave other tokens their turns. Unset: none.
PAGE_SHARE: web.AppKey[Callable[[web.Request], AbstractAsyncContextManager[Any]]] = web.AppKey("page_share")

#: The name a loopback client's grant goes by when no access file is given (in the log and the grant).
LOCAL_NAME = "local"

#: The request key holding the caller's token name for the access log (the grant's name, never the token).
TOKEN_NAME = web.RequestKey("token_name", str)


def token_key(token: str) -> str:
    """The access table's key for a token: only its SHA-256 is kept in memory. A header's undecodable bytes
    arrive as surrogates (aiohttp decodes with surrogateescape); they hash to a key no access file can hold, so
    such a token is unknown (401), never an error."""
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()
