"""SSSOM output through sssom-py: the mapping set with its metadata, written as TSV, JSON or OWL."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import IO

import curies
import pandas as pd
from sssom import writers
from sssom.util import MappingSetDataFrame
from sssom.validators import validate

ERB_BASE = "https://w3id.org/ekg/erb/"
MAPPING_SET_ID = "https://w3id.org/ekg/mappings/erb-field-alignment.sssom.tsv"
LICENSE = "https://creativecommons.org/licenses/by/4.0/"
TOOL = "ekg-toolkit alignment (instance-based field matcher)"
SHARED_PREFIXES = {
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "semapv": "https://w3id.org/semapv/vocab/",
    "ekgalign": "https://w3id.org/ekg/alignment/rule/",
    "ekgsrc": ERB_BASE + "source/",
    "ekg": "https://w3id.org/ekg/ont#",
    "dct": "http://purl.org/dc/terms/",
    "prov": "http://www.w3.org/ns/prov#",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "w3ekg": "https://w3id.org/ekg/",
    "sssom": "https://w3id.org/sssom/",  # w3ekg:ont is the ontology itself, the object_source of --target rows
}
SSSOM_COLUMNS = [
    "subject_id",
    "subject_label",
    "predicate_modifier",
    "predicate_id",
    "object_id",
    "object_label",
    "mapping_justification",
    "confidence",
    "similarity_score",
    "similarity_measure",
    "mapping_tool",
    "mapping_tool_version",
    "mapping_cardinality",
    "curation_rule",
    "author_id",
    "reviewer_id",
    "reviewer_label",
    "comment",
    "subject_source",
    "object_source",
]
FORMATS = {"tsv": ".sssom.tsv", "json": ".sssom.json", "owl": ".owl.ttl"}
#: Format -> sssom-py's writer and the serialisation it is given (as `writers.get_writer_function` picks them,
#: whose declared return type omits the keywords these take).
WRITERS: dict[str, tuple[Callable[..., None], str]] = {
    "tsv": (writers.write_table, "tsv"),
    "json": (writers.write_json, "json"),
    "owl": (writers.write_owl, "turtle"),
}


def tool_version() -> str:
    """The installed package version (the mapping_tool_version of every row)."""
    try:
        return importlib.metadata.version("ekg-toolkit")
    except importlib.metadata.PackageNotFoundError:
        return "0.0.0+source"


def prefix_of(curie: str) -> str:
    return curie.split(":", 1)[0]


def prefix_map(mappings: pd.DataFrame) -> dict[str, str]:
    """One prefix per source field namespace (`jira:` -> .../erb/jira/), plus the vocabularies used."""
    used = set()
    for column in (
        "subject_id",
        "object_id",
        "predicate_id",
        "mapping_justification",
        "curation_rule",
        "subject_source",
        "object_source",
    ):
        if column in mappings:
            used |= {prefix_of(v) for v in mappings[column].dropna() if v != ""}
    sources = {p: f"{ERB_BASE}{p}/" for p in used if p not in SHARED_PREFIXES}
    return {
        **sources,
        **{p: iri for p, iri in SHARED_PREFIXES.items() if p in used or p in {"skos", "semapv", "w3ekg"}},
    }


#: The tool as the creator of the mapping set (a CURIE under `w3ekg:`, the project's namespace)
CREATOR_ID = "w3ekg:toolkit/kg-align"
#: What a row's two numbers mean, for the set's comment
SCORES_EXPLAINED = (
    "confidence: the instance evidence alone, in [0, 1]: the weighted mean that similarity_measure lists, "
    "before the field names are read (halved when the formats are incompatible). similarity_score: "
    "0.85 x confidence + 0.15 x field-name similarity, the number the selection ranks pairs by and the "
    "threshold applies to. Each row's comment says why its predicate is exact, close or related, then the "
    "evidence: shared values, token cosine, formats, roles, date positions, lengths, names."
)


def metadata(description: str) -> dict[str, object]:
    """The mapping-set metadata block: absolute id and version, creator, licence, date, title, description,
    and a comment explaining the rows' numbers."""
    return {
        "mapping_set_id": MAPPING_SET_ID,
        "mapping_set_version": tool_version(),
        "mapping_set_title": "Field alignment of the nine EnterpriseRAG-Bench source systems",
        "mapping_set_description": description,
        "creator_id": [CREATOR_ID],
        "creator_label": [TOOL],
        "license": LICENSE,
        "mapping_date": date.today().isoformat(),
        "comment": SCORES_EXPLAINED,
    }


def mapping_set(mappings: pd.DataFrame, description: str) -> MappingSetDataFrame:
    """An sssom-py MappingSetDataFrame of the rows, with tool columns and the curie map filled in."""
    df = mappings.assign(mapping_tool=TOOL, mapping_tool_version=tool_version(), author_id=CREATOR_ID)
    df = df[[c for c in SSSOM_COLUMNS if c in df.columns]].reset_index(drop=True)
    converter = curies.Converter.from_prefix_map(prefix_map(df))
    return MappingSetDataFrame.with_converter(converter=converter, df=df, metadata=metadata(description))


def validation_errors(msdf: MappingSetDataFrame) -> list[str]:
    """sssom-py's own validation (JSON schema, prefix map completeness, strict CURIEs), as messages."""
    reports = validate(msdf, fail_on_error=False)
    return [f"{kind.value}: {result.message}" for kind, report in reports.items() for result in report.results]


def write(msdf: MappingSetDataFrame, out: Path | IO[str], fmt: str = "tsv") -> None:
    """Write SSSOM/TSV (with its YAML metadata block), SSSOM/JSON or OWL (Turtle) through sssom-py's own writer
    for the format, to a file or an open text stream.

    A column whose value every row shares (the tool, its version, the similarity measure when no ontology
    rows are added) is condensed into the metadata block, where SSSOM propagates it to every row.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown SSSOM format {fmt!r}; use one of {', '.join(FORMATS)}")
    if isinstance(out, Path):
        with out.open("w", encoding="utf-8") as handle:
            write(msdf, handle, fmt)
        return
    writer, serialisation = WRITERS[fmt]
    writer(msdf, out, serialisation=serialisation, condense=True)
