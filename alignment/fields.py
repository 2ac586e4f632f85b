"""Field discovery: load each source's JSON records, flatten them to dotted field paths, build the inventory.

The ERB export is noisy, so loading never stops at the first bad file: every problem becomes a warning that
names the file or folder, and the remaining records still align.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

SOURCES = (
    "confluence",
    "fireflies",
    "github",
    "gmail",
    "google_drive",
    "hubspot",
    "jira",
    "linear",
    "slack",
)

# Export bookkeeping, not source schema: they describe the record (its id, which key holds the title and
# body, where it was filed), so they would match each other across every source. They are read for the
# title/body role evidence and then dropped from the fields.
TITLE_KEY = "title_field_name"
CONTENT_KEY = "content_field_names"
BOOKKEEPING = {
    "dataset_doc_uuid": "export record id",
    TITLE_KEY: "export bookkeeping: names the title field (used as role evidence)",
    CONTENT_KEY: "export bookkeeping: names the body fields (used as role evidence)",
    "original_location": "export provenance: original file path",
    "file_path": "export provenance: original file path",
    "_id": "export provenance: original file path",
    "dataset_noise_document": "benchmark flag for a noise document",
}


@dataclass
class Record:
    """One flattened record: field path -> its values as strings, plus the roles its bookkeeping declares."""

    file: Path
    values: dict[str, list[str]]
    title_field: str | None = None
    content_fields: tuple[str, ...] = ()
    bookkeeping: tuple[str, ...] = ()


@dataclass
class Corpus:
    """The records of every source that loaded, and one warning per problem met on the way."""

    records: dict[str, list[Record]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def scalar_text(value: object) -> str:
    """Booleans and numbers as the export writes them ("true", "42"), so typed and string forms agree."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def flatten(value: object, prefix: str, out: dict[str, list[str]]) -> None:
    """Nested objects and lists of objects become dotted paths; lists of scalars keep all their values.

    Walked with an explicit stack, so a record nested thousands deep costs time, not a RecursionError."""
    stack: list[tuple[object, str]] = [(value, prefix)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            stack.extend((sub, f"{path}.{key}" if path else str(key)) for key, sub in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((sub, path) for sub in reversed(item))
        elif item is not None and path:
            out.setdefault(path, []).append(scalar_text(item))


def record_from_json(data: dict, file: Path) -> Record:
    """Flatten one record, setting aside bookkeeping keys but keeping the title/body roles they declare."""
    values: dict[str, list[str]] = {}
    flatten({k: v for k, v in data.items() if k not in BOOKKEEPING}, "", values)
    title = data.get(TITLE_KEY)
    content = data.get(CONTENT_KEY)
    content_fields = tuple(str(c) for c in content) if isinstance(content, list) else ()
    kept = tuple(k for k in data if k in BOOKKEEPING)
    return Record(file, values, title if isinstance(title, str) else None, content_fields, kept)


def read_json(file: Path, warnings: list[str]) -> object | None:
    """The parsed file, or None with a warning naming it when it is unreadable, not JSON, nested too deeply for
    the parser, or holding a lone surrogate (which no output could encode)."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        warnings.append(f"{file}: skipped, a string in it is not valid Unicode (a lone surrogate)")
        return None
    except (OSError, ValueError) as exc:  # unreadable, not UTF-8, not JSON, or an over-long integer
        warnings.append(f"{file}: skipped, not valid JSON ({exc})")
        return None
    except RecursionError:
        warnings.append(f"{file}: skipped, JSON nested too deeply to read")
        return None
    return data


def records_in(data: object, file: Path, warnings: list[str]) -> list[Record]:
    """A file holds one record object; a list of objects is accepted with a warning, anything else skipped."""
    if isinstance(data, dict):
        return [record_from_json(data, file)] if data else _empty(file, warnings)
    if isinstance(data, list) and data and all(isinstance(d, dict) for d in data):
        warnings.append(f"{file}: expected one record object, found a list of {len(data)}; using each")
        return [record_from_json(d, file) for d in data]
    warnings.append(f"{file}: skipped, expected a JSON object but found {type(data).__name__}")
    return []


def _empty(file: Path, warnings: list[str]) -> list[Record]:
    warnings.append(f"{file}: skipped, empty record")
    return []


def load_source(folder: Path, warnings: list[str]) -> list[Record]:
    """All records of one source folder, each export record once (duplicates share a dataset_doc_uuid)."""
    records: list[Record] = []
    seen: set[str] = set()
    for file in sorted(folder.glob("*.json")):
        data = read_json(file, warnings)
        if data is None:
            continue
        uuid = data.get("dataset_doc_uuid") if isinstance(data, dict) else None
        if isinstance(uuid, str) and uuid in seen:
            warnings.append(f"{file}: duplicate of record {uuid}, counted once")
            continue
        if isinstance(uuid, str):
            seen.add(uuid)
        records.extend(r for r in records_in(data, file, warnings) if r.values)
    return records


def load_corpus(erb: Path, sources: list[str] | None = None) -> Corpus:
    """Records for each requested source; a missing, empty or single-field source is a warning, not a stop."""
    corpus = Corpus()
    for source in sources or discover_sources(erb):
        folder = erb / source
        if not folder.is_dir():
            corpus.warnings.append(f"{folder}: source folder missing, {source} not aligned")
            continue
        records = load_source(folder, corpus.warnings)
        if not records:
            corpus.warnings.append(f"{folder}: no usable records, {source} not aligned")
            continue
        n_fields = len({f for r in records for f in r.values})
        if n_fields == 1:
            corpus.warnings.append(f"{folder}: only one field, so {source} can map at most one field per pair")
        corpus.records[source] = records
    return corpus


def discover_sources(erb: Path) -> list[str]:
    """Every sub-folder of the data folder is a source (the nine ERB systems in the shipped sample)."""
    return sorted(p.name for p in erb.iterdir() if p.is_dir() and not p.name.startswith("."))


def inventory(corpus: Corpus, min_records: int = 2) -> pd.DataFrame:
    """One row per source field: records carrying it, values, multi-valued records, and whether it aligns."""
    rows = []
    for source, records in corpus.records.items():
        present: Counter[str] = Counter()
        n_values: Counter[str] = Counter()
        as_list: Counter[str] = Counter()
        for record in records:
            present.update(record.bookkeeping)
            for path, values in record.values.items():
                present[path] += 1
                n_values[path] += len(values)
                as_list[path] += len(values) != 1
        rows += [
            {
                "source": source,
                "field": path,
                "records": present[path],
                "of_records": len(records),
                "fill_rate": round(present[path] / len(records), 3),
                "values": n_values[path],
                "multi_valued_records": as_list[path],
                "status": field_status(path, present[path], min_records),
            }
            for path in sorted(present)
        ]
    columns = [
        "source",
        "field",
        "records",
        "of_records",
        "fill_rate",
        "values",
        "multi_valued_records",
        "status",
    ]
    return pd.DataFrame(rows, columns=columns)


def field_status(path: str, records: int, min_records: int) -> str:
    """Why a field is or is not a schema element to align."""
    if path in BOOKKEEPING:
        return f"excluded: {BOOKKEEPING[path]}"
    if records < min_records:
        return f"excluded: in fewer than {min_records} records"
    return "aligned"
