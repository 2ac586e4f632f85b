"""The aiohttp application key the endpoint and the answer page share: typed `web.AppKey`s, not strings, so
aiohttp can tell them apart from any other application's keys (and does not warn)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aiohttp import web

#: The endpoint's access table: SHA-256 hex digest of a token -> its grant; None when the endpoint is open.
GRANTS: web.AppKey[Mapping[str, Any] | None] = web.AppKey("grants")
