"""Read HERB's JSON files into plain records, checking their shape as we go.

A record that does not have the shape its kind needs is reported with its file and index and skipped,
so one bad record never sinks a build; a file that is not JSON at all stops the build (see README).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg.errors import KGError

log = logging.getLogger(__name__)

#: Artifact kinds in a product file and the fields each record must carry.
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    "slack": ("id", "Channel", "Message"),
    "documents": ("id", "content", "type"),
    "meeting_transcripts": ("id", "transcript"),
    "meeting_chats": ("id", "text"),
    "urls": ("id", "link"),
    "prs": ("id", "link", "user"),
}


@dataclass
class Product:
    """One product file: its roster and its artifacts, grouped by kind."""

    name: str
    path: Path
    team: list[str]
    customers: list[str]
    artifacts: dict[str, list[dict[str, Any]]]
    skipped: list[str] = field(default_factory=list)


@dataclass
class Organisation:
    """HERB's metadata: employees by eid, customers by CUST id, the org tree."""

    employees: dict[str, dict[str, Any]]
    customers: dict[str, dict[str, Any]]
    org_tree: Any


def read_json(path: Path) -> Any:
    """Parse one JSON file, turning every failure into a KGError that names the file."""
    try:
        with path.open("rb") as fh:
            return json.load(fh)
    except FileNotFoundError as exc:
        raise KGError(f"{path}: file not found") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise KGError(f"{path}: not valid JSON ({exc})") from exc


def product_names(herb: Path) -> list[str]:
    return sorted(p.stem for p in (herb / "products").glob("*.json"))


def _record_problem(kind: str, rec: Any) -> str | None:
    if not isinstance(rec, dict):
        return f"expected an object, got {type(rec).__name__}"
    missing = [f for f in REQUIRED_FIELDS[kind] if f not in rec]
    if missing:
        return f"missing field(s) {', '.join(missing)}"
    if not isinstance(rec["id"], str) or not rec["id"]:
        return "id is not a non-empty string"
    if kind == "slack" and not isinstance(rec["Message"], dict):
        return "Message is not an object"
    if kind == "slack" and not isinstance(rec["Message"].get("User"), dict):
        return "Message.User is not an object"
    return None


def load_product(herb: Path, name: str) -> Product:
    """Load and shape-check one product; bad records are logged and skipped, never half-mapped."""
    path = herb / "products" / f"{name}.json"
    data = read_json(path)
    if not isinstance(data, dict):
        raise KGError(f"{path}: expected a JSON object with team, customers, slack, documents, ...")
    product = Product(name, path, _str_list(data.get("team")), _str_list(data.get("customers")), {})
    for kind in REQUIRED_FIELDS:
        records = data.get(kind, [])
        if not isinstance(records, list):
            product.skipped.append(f"{path}: '{kind}' is not a list; skipped")
            records = []
        good = []
        for i, rec in enumerate(records):
            problem = _record_problem(kind, rec)
            if problem:
                product.skipped.append(f"{path}: {kind}[{i}] ({_rec_id(rec)}): {problem}; skipped")
            else:
                good.append(rec)
        product.artifacts[kind] = good
    for msg in product.skipped:
        log.warning(msg)
    return product


def load_organisation(herb: Path) -> Organisation:
    meta = herb / "metadata"
    employees = read_json(meta / "employee.json")
    customers = read_json(meta / "customers_data.json")
    if not isinstance(employees, dict) or not isinstance(customers, list):
        raise KGError(f"{meta}: employee.json must be an object and customers_data.json a list")
    tree_path = meta / "salesforce_team.json"
    tree = read_json(tree_path) if tree_path.exists() else []
    good_customers = {}
    for i, c in enumerate(customers):
        if isinstance(c, dict) and isinstance(c.get("id"), str):
            good_customers[c["id"]] = c
        else:
            log.warning("%s: customers_data.json[%d]: no id; skipped", meta, i)
    good_employees = {k: v for k, v in employees.items() if isinstance(v, dict)}
    return Organisation(good_employees, good_customers, tree)


def iter_products(herb: Path, only: list[str] | None = None) -> Iterator[Product]:
    names = product_names(herb)
    if only:
        unknown = sorted(set(only) - set(names))
        if unknown:
            raise KGError(f"unknown product(s) {', '.join(unknown)}; known: {', '.join(names)}")
        names = [n for n in names if n in only]
    for name in names:
        yield load_product(herb, name)


def _str_list(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _rec_id(rec: Any) -> str:
    return str(rec.get("id", "no id")) if isinstance(rec, dict) else "not an object"
