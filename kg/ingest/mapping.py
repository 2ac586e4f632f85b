"""Interpret `mappings/herb.yaml`: turn HERB records into quads, field by field, as the table says.

The table is the single place a data steward reads to know which JSON field became which property; this
module only executes it, so a mapping change never needs a code change.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

import yaml
from pyoxigraph import Literal, NamedNode

from kg.errors import KGError
from kg.namespaces import ID, expand, node, term
from kg.paths import resource
from kg.vocab import ABOUT_PRODUCT, ACCOUNT, DCT_IDENTIFIER, RDF_TYPE, RDFS_LABEL

MAPPING_FILE = resource("mappings") / "herb.yaml"
EID = re.compile(r"^eid_[0-9a-f]+$")
_TEMPLATE_FIELD = re.compile(r"\{([^}]+)\}")
_UNSAFE = re.compile(r"[^A-Za-z0-9\-_.~/]+")


def agent_node(login: str) -> NamedNode:
    """Identity rule `agent`: an eid is a person; any other login stays a distinct account, never merged."""
    return node("person", login) if EID.match(login) else node("account", login)


def typed_agent(login: str) -> tuple[NamedNode, NamedNode | None]:
    """The `agent` resolver with the class to assert: accounts are typed where they are used; people are
    typed ekg:Employee once, in the organisation graph."""
    found = agent_node(login)
    return found, None if EID.match(login) else ACCOUNT


RESOLVERS: dict[str, Callable[[str], tuple[NamedNode, NamedNode | None]]] = {"agent": typed_agent}


def dig(record: dict[str, Any], path: str) -> Any:
    """Follow a dotted path into nested objects; None when any step is missing."""
    if "." not in path:
        return record.get(path) if isinstance(record, dict) else None
    value: Any = record
    for step in path.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(step)
    return value


def as_list(value: Any) -> list[Any]:
    """A list, or a string holding a Python/JSON list literal (HERB's meeting participants), as a list."""
    if isinstance(value, list):
        return value
    if isinstance(value, str) and value.startswith("["):
        try:
            parsed = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return [value]
        return parsed if isinstance(parsed, list) else [value]
    return [value]


@dataclass(frozen=True)
class FieldMap:
    path: str
    predicate: NamedNode
    datatype: NamedNode | None
    node_template: str | None
    node_class: NamedNode | None
    node_label: str | None
    lookup: dict[str, NamedNode] | None
    resolver: Callable[[str], tuple[NamedNode, NamedNode | None]] | None
    split: bool

    def objects(self, record: dict[str, Any], emit: Callable[[NamedNode, NamedNode, Any], None]) -> list[Any]:
        """The field's objects in `record`; `emit` receives what they need said about them (class, label)."""
        raw = dig(record, self.path)
        if raw is None or raw == "":
            return []
        values = as_list(raw) if self.split else [raw]
        return [obj for value in values if (obj := self.object(record, value, emit)) is not None]

    def object(self, record: dict[str, Any], value: Any, emit: Callable[[NamedNode, NamedNode, Any], None]) -> Any:
        """One value's object (None when a lookup does not know it)."""
        text = value if isinstance(value, str) else str(value)
        if self.resolver:
            obj, cls = self.resolver(text)
            if cls is not None:
                emit(obj, RDF_TYPE, cls)
            return obj
        if self.lookup is not None:
            return self.lookup.get(text)
        if self.node_template:
            obj = NamedNode(ID + self.node_template.replace("{value}", _safe(text)))
            if self.node_class:
                emit(obj, RDF_TYPE, self.node_class)
            if self.node_label and (label := dig(record, self.node_label)):
                emit(obj, RDFS_LABEL, Literal(str(label)))
            return obj
        return _literal(text, self.datatype)


def _literal(text: str, datatype: NamedNode | None) -> Literal:
    if datatype is None:
        return Literal(text)
    if datatype.value.endswith("#boolean"):
        text = text.strip().lower()
    return Literal(text, datatype=datatype)


def _safe(text: str) -> str:
    """Percent-encode everything but unreserved characters and `/`, so any value makes a valid IRI."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), text)


@dataclass(frozen=True)
class RecordMap:
    """How one kind of record becomes an instance: class, subject IRI template, fields, nested children."""

    section: str
    cls: NamedNode
    subject: str
    fields: tuple[FieldMap, ...]
    children: tuple[tuple[str, NamedNode, RecordMap], ...]

    @cached_property
    def subject_pieces(self) -> tuple[str, ...]:
        """The subject template split at its fields: text, field, text, field, …, text (odd places are fields),
        so filling it per record needs no regular expression."""
        return tuple(_TEMPLATE_FIELD.split(self.subject))

    def subject_node(self, record: dict[str, Any], **extra: str) -> NamedNode:
        parts = [ID]
        for i, piece in enumerate(self.subject_pieces):
            if i % 2 == 0:
                parts.append(piece)
                continue
            value = extra[piece] if piece in extra else dig(record, piece)
            if value is None:
                raise KeyError(piece)
            parts.append(_safe(value if isinstance(value, str) else str(value)))
        return NamedNode("".join(parts))


def _field_map(path: str, spec: dict[str, Any], lookups: dict[str, dict[str, NamedNode]]) -> FieldMap:
    if "property" not in spec:
        raise KGError(f"{MAPPING_FILE}: field '{path}' has no property")
    lookup_name = spec.get("lookup")
    if lookup_name is not None and lookup_name not in lookups:
        raise KGError(f"{MAPPING_FILE}: field '{path}' names unknown lookup '{lookup_name}'")
    resolver_name = spec.get("resolver")
    if resolver_name is not None and resolver_name not in RESOLVERS:
        raise KGError(f"{MAPPING_FILE}: field '{path}' names unknown resolver '{resolver_name}'")
    return FieldMap(
        path=path,
        predicate=term(spec["property"]),
        datatype=term(spec["datatype"]) if "datatype" in spec else None,
        node_template=spec.get("node"),
        node_class=term(spec["node_class"]) if "node_class" in spec else None,
        node_label=spec.get("node_label"),
        lookup=lookups.get(lookup_name) if lookup_name else None,
        resolver=RESOLVERS.get(resolver_name) if resolver_name else None,
        split=bool(spec.get("split", False)),
    )


def _record_map(section: str, spec: dict[str, Any], lookups: dict[str, dict[str, NamedNode]]) -> RecordMap:
    try:
        fields = tuple(_field_map(p, s, lookups) for p, s in (spec.get("fields") or {}).items())
        children = tuple(
            (name, term(child["link"]), _record_map(f"{section}.{name}", child, lookups))
            for name, child in (spec.get("children") or {}).items()
        )
        return RecordMap(section, term(spec["class"]), spec["subject"], fields, children)
    except (KeyError, TypeError, AttributeError) as exc:
        raise KGError(f"{MAPPING_FILE}: section '{section}' is malformed ({exc!r})") from exc


@dataclass(frozen=True)
class Mapping:
    artifacts: dict[str, RecordMap]
    organisation: dict[str, RecordMap]


def load_mapping(path: Path = MAPPING_FILE) -> Mapping:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise KGError(f"{path}: cannot read mapping ({exc})") from exc
    lookups = {name: {k: term(v) for k, v in table.items()} for name, table in (raw.get("lookups") or {}).items()}
    return Mapping(
        artifacts={k: _record_map(k, v, lookups) for k, v in raw["artifacts"].items()},
        organisation={k: _record_map(k, v, lookups) for k, v in raw["organisation"].items()},
    )


class Statement(NamedTuple):
    """One triple of the graph a build step writes. Not a pyoxigraph Quad: a Quad whose object is a literal
    costs ~4.7 µs to make (its constructor tries each term type in turn, raising as it goes), a tuple well
    under one, and every statement of a step goes to the same graph (`nquads` names it)."""

    subject: NamedNode
    predicate: NamedNode
    object: NamedNode | Literal


def nquads(statements: Iterable[Statement], graph: NamedNode) -> bytes:
    """The statements as N-Quads in `graph`: each term in its own N-Triples form, checked and escaped when
    the term was made, so the text is what pyoxigraph's serializer writes."""
    tail = f" {graph} .\n"
    return "".join(f"{s} {p} {o}{tail}" for s, p, o in statements).encode()


def map_record(rmap: RecordMap, record: dict[str, Any], **extra: str) -> list[Statement]:
    """All statements one record yields under its record map (children included)."""
    out: list[Statement] = []
    _map_into(out, rmap, record, extra)
    return out


def _map_into(out: list[Statement], rmap: RecordMap, record: dict[str, Any], extra: dict[str, str]) -> None:
    """Append the record's statements to `out`: its type and fields, then each child's and its link."""

    def emit(s: NamedNode, p: NamedNode, o: Any) -> None:
        out.append(Statement(s, p, o))

    subject = rmap.subject_node(record, **extra)
    emit(subject, RDF_TYPE, rmap.cls)
    for fmap in rmap.fields:
        for obj in fmap.objects(record, emit):
            emit(subject, fmap.predicate, obj)
    for name, link, child in rmap.children:
        for index, item in enumerate(record.get(name) or []):
            if isinstance(item, dict):
                first = len(out)
                _map_into(out, child, item, {"parent": subject.value.rsplit("/", 1)[-1], "index": str(index)})
                out.append(Statement(out[first].subject, link, subject))


def map_artifact(mapping: Mapping, kind: str, record: dict[str, Any], product: NamedNode) -> list[Statement]:
    """An artifact's statements: its mapped fields plus the HERB id it is cited by and its product."""
    statements = map_record(mapping.artifacts[kind], record)
    subject = statements[0].subject
    statements.append(Statement(subject, DCT_IDENTIFIER, Literal(record["id"])))
    statements.append(Statement(subject, ABOUT_PRODUCT, product))
    return statements


__all__ = [
    "Mapping",
    "Statement",
    "agent_node",
    "as_list",
    "dig",
    "expand",
    "load_mapping",
    "map_artifact",
    "map_record",
    "nquads",
]
