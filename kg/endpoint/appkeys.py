"""The keys the endpoint and the answer page share: the application's typed `web.AppKey`s, not strings, so
aiohttp can tell them apart from any other application's keys (and does not warn), and the request's log key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aiohttp import web

#: The endpoint's access table: SHA-256 hex digest of a token -> its grant; None when the endpoint is open.
GRANTS: web.AppKey[Mapping[str, Any] | None] = web.AppKey("grants")

#: The request key holding the caller's token name for the access log (the grant's name, never the token).
TOKEN_NAME = web.RequestKey("token_name", str)
