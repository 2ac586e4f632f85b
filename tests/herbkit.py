"""Small HERB layouts for tests: a slice of one real product file, written beside HERB's real metadata."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from pyoxigraph import Store

from kg.cli import main
from kg.ingest.herb import REQUIRED_FIELDS

KINDS = tuple(REQUIRED_FIELDS)
#: The class each artifact kind is mapped to (mappings/herb.yaml), to count what landed in a store.
KIND_CLASS = {
    "slack": "SlackMessage",
    "documents": "Document",
    "meeting_transcripts": "MeetingTranscript",
    "meeting_chats": "MeetingChat",
    "urls": "WebLink",
    "prs": "PullRequest",
}
SOURCE = "CollaborationForce"


def small_product(herb: Path, per_kind: int = 10, name: str = SOURCE) -> dict[str, Any]:
    """The first `per_kind` records of each kind of a real product (roster kept), so a build takes a second."""
    data = json.loads((herb / "products" / f"{name}.json").read_text(encoding="utf-8"))
    return {k: (v[:per_kind] if k in KINDS and isinstance(v, list) else v) for k, v in data.items()}


def herb_layout(root: Path, herb: Path, products: dict[str, Any]) -> Path:
    """A HERB folder at `root`: each product as JSON (or a str written as is), metadata linked from `herb`."""
    (root / "products").mkdir(parents=True, exist_ok=True)
    if not (root / "metadata").exists():
        (root / "metadata").symlink_to((herb / "metadata").resolve())
    for name, data in products.items():
        text = data if isinstance(data, str) else json.dumps(data)
        (root / "products" / f"{name}.json").write_text(text, encoding="utf-8")
    return root


def mutated(data: dict[str, Any], kind: str, index: int, path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """A deep copy of the product with one field of one record replaced (or the whole record, for path ())."""
    out = copy.deepcopy(data)
    if not path:
        out[kind][index] = value
        return out
    target = out[kind][index]
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return out


def artifacts_per_kind(store: Path, product: str = SOURCE) -> dict[str, int]:
    """Distinct artifacts of each kind the store holds for `product`."""
    s = Store.read_only(str(store))
    out = {}
    for kind, cls in KIND_CLASS.items():
        rows = s.query(f"""SELECT (COUNT(DISTINCT ?a) AS ?n) WHERE {{ GRAPH <https://w3id.org/ekg/graph/{product}>
            {{ ?a a <https://w3id.org/ekg/ont#{cls}> ; <http://purl.org/dc/terms/identifier> ?id }} }}""")
        out[kind] = int(next(iter(rows))[0].value)
    return out


def built_store(herb: Path, root: Path, product: dict[str, Any]) -> Path:
    """`product` alone, built through the CLI (as a user would) into root/store."""
    src = herb_layout(root / "herb", herb, {SOURCE: product})
    assert main(["build", "--quiet", "--herb", str(src), "--store", str(root / "store")]) == 0
    return root / "store"
