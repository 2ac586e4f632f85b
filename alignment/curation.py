"""The steward's cycle over an SSSOM mapping set: review an edited file, diff two runs, and read off the rows
ingestion may use.

A steward edits the TSV `kg align` wrote in any spreadsheet: deletes a row, sets `predicate_modifier` to `Not`
(SSSOM's negative mapping: "this field is *not* that property") or changes `predicate_id`. Review validates
the edited file with sssom-py and signs every remaining row off as `semapv:ManualMappingCuration` with the
reviewer. Ingestion then reads only the approved, positive rows to an ontology property.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

import curies
import pandas as pd
from sssom.parsers import parse_sssom_table
from sssom.util import MappingSetDataFrame

from alignment.sssom_io import SHARED_PREFIXES, SSSOM_COLUMNS, prefix_map, validation_errors

MANUAL = "semapv:ManualMappingCuration"
REVIEW_RULE = "ekgalign:steward_review"
#: Predicates that let a field's values stand as the property's values (skos:narrowMatch: the field is a
#: narrower kind of it); related and broad matches do not.
USABLE_PREDICATES = frozenset({"skos:exactMatch", "skos:closeMatch", "skos:narrowMatch"})
NEGATED = "Not"
#: Known namespaces of reviewer ids; any other prefix names people under the project's namespace.
REVIEWER_PREFIXES = {"orcid": "https://orcid.org/"}
NO_TERM = "sssom:NoTermFound"
#: The columns a diff compares; the comment and scores are the tool's evidence, not the decision.
DECISION_COLUMNS = ("predicate_id", "predicate_modifier", "mapping_justification", "reviewer_id")


def read(path: Path) -> MappingSetDataFrame:
    """An SSSOM/TSV file as sssom-py reads it; ValueError naming the file when it is missing, unreadable or
    fails sssom-py's validation."""
    if not path.is_file():
        raise ValueError(f"mapping file not found: {path}")
    try:
        msdf = parse_sssom_table(path)
    except Exception as exc:  # sssom-py raises many kinds on a malformed table
        raise ValueError(f"{path}: not an SSSOM/TSV mapping set ({str(exc).splitlines()[0][:200]})") from exc
    if msdf.df.empty or "subject_id" not in msdf.df:
        raise ValueError(f"{path}: no well-formed mapping rows (subject_id, predicate_id, object_id, ...)")
    if problems := validation_errors(msdf):
        raise ValueError(f"{path}: fails SSSOM validation: " + "; ".join(problems[:3]))
    return msdf


def column(df: pd.DataFrame, name: str) -> pd.Series:
    """A column as strings, empty where the file has none."""
    if name not in df:
        return pd.Series([""] * len(df), index=df.index, dtype=str)
    return df[name].fillna("").astype(str)


def reviewed(msdf: MappingSetDataFrame, reviewer: str, reviewer_label: str | None = None) -> MappingSetDataFrame:
    """Every row of the edited set signed off: justification semapv:ManualMappingCuration, the reviewer, and
    the review rule; the set's metadata records the review date."""
    if ":" not in reviewer or reviewer.startswith(":") or reviewer.endswith(":"):
        raise ValueError(f"--reviewer must be a CURIE such as orcid:0000-0002-1825-0097, got {reviewer!r}")
    df = msdf.df.copy()
    df["mapping_justification"] = MANUAL
    df["reviewer_id"] = reviewer
    if reviewer_label:
        df["reviewer_label"] = reviewer_label
    df["curation_rule"] = REVIEW_RULE
    df["mapping_date"] = date.today().isoformat()
    df = df[[c for c in [*SSSOM_COLUMNS, "mapping_date"] if c in df.columns]]
    prefixes = {**dict(msdf.converter.bimap), **prefix_map(df)}
    prefix = reviewer.split(":", 1)[0]
    prefixes[prefix] = REVIEWER_PREFIXES.get(prefix, f"https://w3id.org/ekg/people/{prefix}/")
    metadata = {k: v for k, v in msdf.metadata.items() if k != "curie_map"}
    return MappingSetDataFrame.with_converter(
        converter=curies.Converter.from_prefix_map(prefixes), df=df.reset_index(drop=True), metadata=metadata
    )


def approved_rows(df: pd.DataFrame) -> pd.DataFrame:
    """The rows ingestion uses: reviewed, positive, to an ontology property (not sssom:NoTermFound), with a
    predicate that lets the field's values stand as the property's."""
    keep = (
        (column(df, "mapping_justification") == MANUAL)
        & (column(df, "predicate_modifier") != NEGATED)
        & column(df, "predicate_id").isin(USABLE_PREDICATES)
        & (column(df, "object_id") != NO_TERM)
        & column(df, "object_id").map(lambda v: v.split(":", 1)[0] in ONTOLOGY_PREFIXES)
    )
    return df[keep]


#: Prefixes of the ontology's own and reused properties (an object in one of them is a property to ingest into).
ONTOLOGY_PREFIXES = frozenset({"ekg", "dct", "prov", "foaf"} & SHARED_PREFIXES.keys())


@dataclass(frozen=True)
class Change:
    """One row added, removed or changed between two mapping sets (keyed by subject and object)."""

    kind: str
    subject_id: str
    object_id: str
    detail: str


def diff(old: pd.DataFrame, new: pd.DataFrame) -> list[Change]:
    """Rows added, removed, and changed (in a decision column) from `old` to `new`, in subject/object order."""
    before, after = keyed(old), keyed(new)
    changes = [Change("added", s, o, describe(after[(s, o)])) for s, o in after.keys() - before.keys()]
    changes += [Change("removed", s, o, describe(before[(s, o)])) for s, o in before.keys() - after.keys()]
    for key in before.keys() & after.keys():
        moved = [
            f"{c}: {before[key].get(c, '') or '-'} -> {after[key].get(c, '') or '-'}"
            for c in DECISION_COLUMNS
            if before[key].get(c, "") != after[key].get(c, "")
        ]
        if moved:
            changes.append(Change("changed", *key, "; ".join(moved)))
    return sorted(changes, key=lambda c: (c.subject_id, c.object_id, c.kind))


def keyed(df: pd.DataFrame) -> dict[tuple[str, str], dict[str, str]]:
    """Row decisions by (subject_id, object_id)."""
    cols = {c: column(df, c) for c in ("subject_id", "object_id", *DECISION_COLUMNS)}
    return {(cols["subject_id"][i], cols["object_id"][i]): {c: cols[c][i] for c in DECISION_COLUMNS} for i in df.index}


def describe(decision: dict[str, str]) -> str:
    """A row's decision in words: its (possibly negated) predicate and justification."""
    negated = "Not " if decision.get("predicate_modifier") == NEGATED else ""
    return f"{negated}{decision.get('predicate_id', '')} ({decision.get('mapping_justification', '')})"
