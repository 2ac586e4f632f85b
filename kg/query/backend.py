"""One way to name where a reading command's data is: `store:PATH` (the embedded store) or an endpoint URL.

Every reading command (`ask`, `eval`, `query`, `search`, `stats`, `validate`) opens its data through
`open_backend`, so each of them runs on the local store or, with `--endpoint URL [--token T]`, on any SPARQL 1.1
Protocol endpoint, with the same queries and the same results.
"""

from __future__ import annotations

from pathlib import Path

from kg.errors import KGError
from kg.query.sparql import Backend, EmbeddedStore

STORE_SCHEME = "store:"
ENDPOINT_SCHEMES = ("http://", "https://")


def open_backend(location: str, token: str | None = None) -> Backend:
    """`store:PATH` -> the embedded store at PATH (read-only); `http(s)://…` -> that endpoint, with the bearer
    token if given. A token for a store is refused: it would be silently ignored."""
    if location.startswith(STORE_SCHEME):
        if token:
            raise KGError("a token is for an endpoint; the local store takes none")
        return EmbeddedStore(Path(location[len(STORE_SCHEME) :]))
    if location.startswith(ENDPOINT_SCHEMES):
        from kg.query.remote import RemoteEndpoint  # requests is loaded only when an endpoint is used

        return RemoteEndpoint(location, token=token)
    raise KGError(f"not a store or an endpoint: {location!r} (give store:PATH or an http(s):// SPARQL endpoint URL)")


def store_location(path: Path) -> str:
    return f"{STORE_SCHEME}{path}"
