"""The `kg align` workflow as library calls the CLI, the benchmarks and the tests share: the selected mappings
of an alignment as a validated SSSOM mapping set, and the reference file it is scored against."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from sssom.util import MappingSetDataFrame

from alignment.evaluate import reference_frame
from alignment.pipeline import Alignment
from alignment.sssom_io import mapping_set, validation_errors


@dataclass(frozen=True)
class MappingSelection:
    """What `kg align` writes: one method's mappings (plus the ontology rows with --target), as SSSOM."""

    method: str
    rows: pd.DataFrame
    mapping_set: MappingSetDataFrame


def description(method: str, threshold: float, target: bool) -> str:
    """The mapping set's description: how its rows were chosen."""
    text = (
        f"Fields of each EnterpriseRAG-Bench source aligned from their values (instance-based). {method} "
        f"selection per source pair (greedy = best remaining pair first, 1-to-1), threshold {threshold}. "
        "Within-source alias keys (same declared role, never in one record) are aligned as one field and "
        "written once per key."
    )
    if target:
        text += " Rows with an ontology property as object align a field to the project ontology."
    return text


def selected_rows(result: Alignment, method: str) -> pd.DataFrame:
    """The method's mappings, followed by the field-to-ontology rows when the alignment has them."""
    rows = result.mappings[method].drop(columns="method")
    if result.target is not None and not result.target.empty:
        rows = pd.concat([rows, result.target], ignore_index=True)
    return rows


def select_mappings(result: Alignment, method: str, erb: Path) -> MappingSelection:
    """The mapping set `kg align` writes, validated by sssom-py; ValueError when there is nothing to align or
    the set does not validate (a file that fails SSSOM validation is never written)."""
    if result.pairs.empty:
        raise ValueError(
            f"need at least two sources with usable records under {erb}, found "
            f"{len(set(result.profiles.get('source', [])))}"
        )
    rows = selected_rows(result, method)
    msdf = mapping_set(rows, description(method, result.threshold, result.target is not None))
    if problems := validation_errors(msdf):
        raise ValueError("the mapping set failed SSSOM validation: " + "; ".join(problems[:3]))
    return MappingSelection(method, rows, msdf)


def read_reference(path: Path) -> pd.DataFrame:
    """A reference alignment (SSSOM/TSV) to score against; ValueError naming the file when it is not one."""
    if not path.is_file():
        raise ValueError(f"reference alignment not found: {path}")
    return reference_frame(path)
