"""Who may read what: bearer tokens, their names and the graphs each one is granted.

The access file (YAML or JSON) maps either a token to its grant, or a name to a token and its grant:

    "Qm9hcmQtYWRtaW4": "*"                                   # admin, logged as sha256:1a2b3c4d
    actiongenie-team: {token: "YWN0aW9uZ2VuaWU", products: [ActionGenie]}

Only each token's SHA-256 is kept in memory; the logs show the name, or the first 8 hex digits of the hash.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from kg.errors import KGError
from kg.grants import LOCAL_NAME, token_key
from kg.namespaces import ORG_GRAPH, product_graph
from kg.paths import read_input_text
from kg.text import closest

#: The largest access file (8 MiB: some 100,000 tokens); YAML parsing of more would take the server's start.
MAX_ACCESS = 8 << 20


@dataclass(frozen=True)
class Grant:
    """What one client may read: every graph (`graphs is None`) or exactly these named graphs."""

    name: str
    graphs: frozenset[str] | None

    def refused(self, iris: list[str]) -> list[str]:
        """The IRIs among `iris` this grant may not read, sorted."""
        return [] if self.graphs is None else sorted(set(iris) - self.graphs)


#: The grant of a loopback client when no access file is given.
LOCAL = Grant(LOCAL_NAME, None)


def product_grant(name: str, products: list[str]) -> Grant:
    """A product token reads its products' graphs and the organisation graph (people, customers)."""
    return Grant(name, frozenset({product_graph(p).value for p in products} | {ORG_GRAPH}))


def load_access(path: Path, known_products: list[str]) -> dict[str, Grant]:
    """The grants of an access file, keyed by token SHA-256; a KGError names any bad entry or unknown product."""
    try:
        data = yaml.safe_load(read_input_text(path, "access file", MAX_ACCESS))
    except (ValueError, yaml.YAMLError) as exc:  # ValueError: not UTF-8, or an over-long integer
        raise KGError(f"cannot read access file {path}: {exc}") from exc
    except RecursionError:
        raise KGError(f"cannot read access file {path}: nested too deeply") from None
    if not isinstance(data, dict) or not data:
        raise KGError(f"access file {path} must map bearer tokens to '*' or a list of product names")
    grants: dict[str, Grant] = {}
    for key, value in data.items():
        token, name, allowed = _entry(path, key, value)
        if token_key(token) in grants:
            raise KGError(f"access file {path}: the token of {name!r} is listed twice")
        grants[token_key(token)] = _grant(path, name, allowed, known_products)
    return grants


def _entry(path: Path, key: object, value: object) -> tuple[str, str, object]:
    """(token, name, allowed) of one access-file entry, in either of its two forms."""
    if isinstance(value, dict):
        if set(value) != {"token", "products"}:
            raise KGError(f"access file {path}: {key!r} must have exactly `token` and `products`")
        token, name, allowed = value["token"], str(key), value["products"]
    else:
        token, allowed = key, value
        name = f"sha256:{token_key(token)[:8]}" if isinstance(token, str) else ""
    if not isinstance(token, str) or not token.strip() or any(c.isspace() for c in token):
        raise KGError(f"access file {path}: a token must be a non-empty string without spaces (entry {name!r})")
    return token, name, allowed


def _grant(path: Path, name: str, allowed: object, known_products: list[str]) -> Grant:
    if allowed == "*":
        return Grant(name, None)
    if not (isinstance(allowed, list) and allowed and all(isinstance(p, str) and p for p in allowed)):
        raise KGError(f"access file {path}: {name!r} must map to '*' or a non-empty list of product names")
    for product in allowed:
        if product not in known_products:
            close = closest(product, known_products, cutoff=0.5)
            hint = f"; closest: {', '.join(close)}" if close else f"; the store has {len(known_products)}"
            raise KGError(f"access file {path}: {name!r} names unknown product {product!r}{hint}")
    return product_grant(name, allowed)
