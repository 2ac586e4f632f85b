"""Which `Host` headers a server of this package answers: the defence against DNS rebinding, shared by every
HTTP surface (`kg serve`'s /query, /store, /ask and pages, and `kg mcp --transport http`).

A web page the user visits can make its own name resolve to 127.0.0.1 and then read whatever answers there as
same-origin content; its requests carry the page's name in `Host`. A server answers only a `Host` that is an IP
address (a page at an IP address is served by that address, so it is the server itself), a missing one (not a
browser), `localhost`, this machine's name, the address it listens on, or a name the operator allows.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable

#: Status and reason for a refused Host, as the MCP SDK answers it: the request reached the wrong server.
MISDIRECTED = 421
ANY = "*"


def allowed_names(listen: str, extra: Iterable[str] = ()) -> frozenset[str] | None:
    """The host names a server listening on `listen` answers, plus `extra`; None when `extra` holds `*`."""
    names = {name_of(n) for n in extra if n.strip()}
    if ANY in names:
        return None
    return frozenset(names | {"localhost", name_of(socket.gethostname()), name_of(listen)})


def name_of(host: str) -> str:
    """A host name as compared: lower case, without a trailing dot or IPv6 brackets."""
    return host.strip().lower().rstrip(".").removeprefix("[").removesuffix("]")


def host_part(header: str) -> str:
    """The host of a `Host` header, without its port."""
    header = header.strip()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    name, sep, port = header.rpartition(":")
    return name if sep and port.isdigit() else header


def is_allowed(header: str | None, names: frozenset[str] | None) -> bool:
    """Whether a request with this `Host` header may be answered (see the module's docstring)."""
    if names is None or not header:
        return True
    host = name_of(host_part(header))
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return host in names


def refusal(header: str | None) -> str:
    """The one-line reason a refused request gets."""
    shown = (header or "")[:100].encode("unicode_escape").decode()
    return (
        f"Host {shown!r} is not a name this server answers (a guard against DNS rebinding); "
        "the operator can allow it with --allow-host"
    )
