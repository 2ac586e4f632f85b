"""Read HERB's JSON files into plain records, checking their shape as we go.

A record that does not have the shape its kind needs — a required field missing, or a field the mapping or a
rule reads of another JSON type (null included), or a string that is not valid Unicode (a lone surrogate) — is
reported with its file, kind and index and skipped, so one bad record never sinks a build and no later step
meets a value it cannot handle. A file that is not JSON at all (or nested too deeply to parse) stops the build
(see README).
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from kg.errors import KGError
from kg.namespaces import GRAPH, ORG_GRAPH
from kg.text import valid_unicode

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

#: The JSON type of every field the mapping (mappings/herb.yaml) or a rule (kg/ingest/rules/) reads, per kind; when
#: present, the field must have it. "a.b" is a field of the object a; "x[]" is every element of the list x.
FIELD_TYPES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "slack": {
        "id": str,
        "Channel": dict,
        "Channel.name": str,
        "Channel.channelID": str,
        "Message": dict,
        "Message.User": dict,
        "Message.User.userId": str,
        "Message.User.timestamp": str,
        "Message.User.text": str,
    },
    "documents": {
        "id": str,
        "content": str,
        "type": str,
        "date": str,
        "author": str,
        "document_link": str,
        "feedback": str,
    },
    "meeting_transcripts": {
        "id": str,
        "transcript": str,
        "date": str,
        "document_type": str,
        "participants": (list, str),
        "participants[]": str,
    },
    "meeting_chats": {"id": str, "text": str},
    "urls": {"id": str, "link": str, "description": str},
    "prs": {
        "id": str,
        "link": str,
        "title": str,
        "summary": str,
        "number": (str, int),
        "state": str,
        "merged": (str, bool),
        "mergeable": (str, bool),
        "created_at": str,
        "user": dict,
        "user.login": str,
        "reviews": list,
        "reviews[]": dict,
        "reviews[].state": str,
        "reviews[].user": dict,
        "reviews[].user.login": str,
        "reviews[].comment": str,
        "reviews[].submitted_at": str,
    },
}
JSON_TYPE_NAMES = {
    dict: "an object",
    list: "a list",
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}


@dataclass(frozen=True)
class Message:
    """A Slack message flattened: the fields rules read, in channel order."""

    id: str
    channel: str
    channel_id: str
    author: str
    timestamp: str
    text: str
    position: int  # index within its channel, by timestamp then id order in the file


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
    """Parse one JSON file, turning every failure into a KGError that names the file. Only a regular file is
    read: a FIFO or a device would block the build (or never end)."""
    if path.exists() and not path.is_file():
        raise KGError(f"{path}: not a regular file")
    try:
        with path.open("rb") as fh:
            return json.load(fh)
    except FileNotFoundError as exc:
        raise KGError(f"{path}: file not found") from exc
    except ValueError as exc:  # not UTF-8, not JSON, or an integer past Python's 4,300-digit conversion limit
        raise KGError(f"{path}: not valid JSON ({exc})") from exc
    except RecursionError as exc:
        raise KGError(f"{path}: JSON nested too deeply to read") from exc
    except OSError as exc:
        raise KGError(f"{path}: cannot read ({exc.strerror or exc})") from exc


#: Names a product file may not have: each names a graph that is not a product's (the organisation graph).
RESERVED_PRODUCT_NAMES = frozenset({ORG_GRAPH.removeprefix(GRAPH).casefold()})


def product_names(herb: Path) -> list[str]:
    """The products' names, from products/*.json; a KGError names a file whose name cannot be a product's."""
    paths = sorted((herb / "products").glob("*.json"))
    for path in paths:
        if problem := product_name_problem(path.stem):
            raise KGError(f"{path}: {problem}; rename the file")
    return [p.stem for p in paths]


def product_name_problem(name: str) -> str | None:
    """Why `name` cannot name a product graph, or None. A name must be its own graph IRI's last segment
    unencoded (no two names can then meet after encoding, and the access file spells it as the file does),
    and must not be a reserved graph's."""
    if not name or quote(name, safe="-_.~") != name or name.startswith("."):
        return "a product name may only use ASCII letters, digits, '-', '_', '.' and '~', and may not start with '.'"
    if name.casefold() in RESERVED_PRODUCT_NAMES:
        return f"{name!r} is reserved for the organisation graph, which every token reads"
    return None


def _record_problem(kind: str, rec: Any) -> str | None:
    if not isinstance(rec, dict):
        return f"expected an object, got {type_name(rec)}"
    missing = [f for f in REQUIRED_FIELDS[kind] if f not in rec]
    if missing:
        return f"missing field(s) {', '.join(missing)}"
    if isinstance(rec["id"], str) and not rec["id"]:
        return "id is an empty string"
    if kind == "slack" and isinstance(rec["Message"], dict) and "User" not in rec["Message"]:
        return "missing field Message.User"
    return shape_problem(rec, shape_of(kind))


#: A compiled FIELD_TYPES entry: field name (or "[]" for a list's elements) -> (its types, its own fields).
Shape = dict[str, tuple[tuple[type, ...], "Shape"]]


@cache
def shape_of(kind: str) -> Shape:
    """FIELD_TYPES[kind] as a tree, so a record is walked once, however many paths share a prefix."""
    root: Shape = {}
    for path, wanted in FIELD_TYPES[kind].items():
        node = root
        steps = path_steps(path)
        for step in steps[:-1]:
            node = node.setdefault(step, ((object,), {}))[1]
        node[steps[-1]] = (_tuple(wanted), node.get(steps[-1], ((), {}))[1])
    return root


def path_steps(path: str) -> list[str]:
    """'reviews[].user.login' -> ['reviews', '[]', 'user', 'login']."""
    return [part for step in path.split(".") for part in ([step[:-2], "[]"] if step.endswith("[]") else [step])]


def shape_problem(value: Any, shape: Shape, where: str = "") -> str | None:
    """The first field under `value` (at `where`) that does not have its declared type, or holds a lone
    surrogate; None when all do. Absent fields are not problems (REQUIRED_FIELDS says which must be there)."""
    for key, (types, fields) in shape.items():
        if key == "[]":
            for i, item in enumerate(value if isinstance(value, list) else ()):
                if problem := field_problem(item, types, fields, where, i):
                    return problem
        elif (
            isinstance(value, dict)
            and key in value
            and (problem := field_problem(value[key], types, fields, where, key))
        ):
            return problem
    return None


def field_problem(value: Any, types: tuple[type, ...], fields: Shape, parent: str, step: str | int) -> str | None:
    """What is wrong with one field (its name, `parent` + `step`, is only spelt out when needed)."""
    if not isinstance(value, types):
        return f"{field_name(parent, step)} is {type_name(value)}, expected {' or '.join(map(type_name_of, types))}"
    if type(value) is str and not valid_unicode(value):
        return f"{field_name(parent, step)} is not valid Unicode (a lone surrogate)"
    return shape_problem(value, fields, field_name(parent, step)) if fields else None


def field_name(parent: str, step: str | int) -> str:
    """reviews[2].user.login, from its parent's name and one step."""
    if isinstance(step, int):
        return f"{parent}[{step}]"
    return f"{parent}.{step}" if parent else step


def type_name(value: Any) -> str:
    return type_name_of(type(value))


def type_name_of(cls: type) -> str:
    return JSON_TYPE_NAMES.get(cls, cls.__name__)


def _tuple(wanted: type | tuple[type, ...]) -> tuple[type, ...]:
    return wanted if isinstance(wanted, tuple) else (wanted,)


def slack_messages(product: Product) -> list[Message]:
    """All Slack messages of the product, grouped by channel, each channel in time order. A channel is its
    channelID: two channels may share a name (two members with the same name each get one)."""
    by_channel: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for rec in product.artifacts.get("slack", []):
        by_channel[str(rec["Channel"].get("channelID") or rec["Channel"].get("name", ""))].append(rec)
    out: list[Message] = []
    for recs in by_channel.values():
        recs.sort(key=lambda r: str(r["Message"]["User"].get("timestamp", "")))
        for i, rec in enumerate(recs):
            user = rec["Message"]["User"]
            out.append(
                Message(
                    rec["id"],
                    str(rec["Channel"].get("name", "")),
                    str(rec["Channel"].get("channelID", "")),
                    str(user.get("userId", "")),
                    str(user.get("timestamp", "")),
                    str(user.get("text", "")),
                    i,
                )
            )
    return out


def artifact_text(kind: str, rec: dict[str, Any]) -> str:
    """The searchable text of one artifact: what a person would read in it."""
    if kind == "slack":
        return str(rec["Message"]["User"].get("text", ""))
    if kind == "documents":
        return f"{rec.get('type', '')}\n{rec.get('content', '')}\n{rec.get('feedback', '')}"
    if kind == "meeting_transcripts":
        return str(rec.get("transcript", ""))
    if kind == "meeting_chats":
        return str(rec.get("text", ""))
    if kind == "urls":
        return f"{rec.get('link', '')} {rec.get('description', '')}"
    if kind == "prs":
        reviews = " ".join(str(r.get("comment", "")) for r in rec.get("reviews", []) if isinstance(r, dict))
        return f"{rec.get('title', '')}\n{rec.get('summary', '')}\n{reviews}"
    return ""


def artifacts(product: Product) -> Iterator[tuple[str, str, str]]:
    """(HERB id, kind, searchable text) of every artifact of the product, kind by kind in file order."""
    for kind, records in product.artifacts.items():
        for rec in records:
            yield rec["id"], kind, artifact_text(kind, rec)


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


def selected_products(herb: Path, only: list[str] | None = None) -> list[str]:
    """The product names to read, in name order: all of them, or `only` once each is known to exist."""
    names = product_names(herb)
    if only:
        unknown = sorted(set(only) - set(names))
        if unknown:
            raise KGError(f"unknown product(s) {', '.join(unknown)}; known: {', '.join(names)}")
        names = [n for n in names if n in only]
    return names


def _str_list(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _rec_id(rec: Any) -> str:
    """The record's id for a warning, printable whatever it holds."""
    if not isinstance(rec, dict):
        return "not an object"
    rid = rec.get("id", "no id")
    text = rid if isinstance(rid, str) else f"id is {type_name(rid)}"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
