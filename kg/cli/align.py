"""`kg align`: instance-based field alignment of the ERB sources, written as SSSOM (a thin layer over
`alignment`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from alignment.defaults import DEFAULT_THRESHOLD
from kg.cli.options import add_force_option
from kg.cli.output import show_progress, warn
from kg.cli.table import format_table
from kg.errors import KGError
from kg.extras import require
from kg.paths import erb_path, open_output, output_path
from kg.text import plural

if TYPE_CHECKING:
    import pandas as pd


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("align", help="align the ERB sources' fields from their values; write SSSOM")
    p.add_argument("--erb", metavar="PATH", help="ERB source folder (default: $ERB_DATA, else ../shared/erb)")
    p.add_argument("--sources", metavar="A,B,...", help="comma-separated sources (default: every sub-folder)")
    p.add_argument("--out", metavar="FILE", help="output file (default: standard output)")
    p.add_argument(
        "--format",
        choices=["tsv", "json", "owl"],
        default="tsv",
        help="SSSOM/TSV with YAML metadata (default), SSSOM/JSON, or OWL in Turtle",
    )
    p.add_argument(
        "--threshold",
        type=float,
        default=None,
        metavar="X",
        help=f"minimum similarity for a correspondence, in [0, 1] (default {DEFAULT_THRESHOLD})",
    )
    p.add_argument(
        "--method",
        choices=["greedy", "hungarian", "top1"],
        default="greedy",
        help="selection written to the output; the other two are reported as ablations",
    )
    p.add_argument("--inventory", action="store_true", help="write the field inventory (TSV) instead")
    p.add_argument("--target", choices=["ontology"], help="also align fields to the project ontology's properties")
    p.add_argument("--reference", metavar="SSSOM", help="score the methods against a reference SSSOM/TSV")
    add_force_option(p)
    p.set_defaults(func=run)
    steps = p.add_subparsers(dest="step", title="the steward's cycle", metavar="{review,diff}")
    review = steps.add_parser(
        "review",
        help="validate a steward-edited SSSOM/TSV and sign its rows off (semapv:ManualMappingCuration)",
        description="Validate EDITED (sssom-py) and mark every row in it reviewed: mapping_justification "
        "semapv:ManualMappingCuration, reviewer_id, curation_rule. A row the steward deleted is gone; a row with "
        "predicate_modifier Not is kept as a reviewed negative mapping and never ingested.",
    )
    review.add_argument("edited", metavar="EDITED.tsv", help="the SSSOM/TSV the steward edited")
    review.add_argument(
        "--reviewer", required=True, metavar="CURIE", help="who reviewed, e.g. orcid:0000-0002-1825-0097"
    )
    review.add_argument("--reviewer-label", metavar="NAME", help="the reviewer's name, written as reviewer_label")
    review.add_argument("--out", required=True, metavar="APPROVED.tsv", help="the approved SSSOM/TSV to write")
    review.set_defaults(func=run_review)
    diff = steps.add_parser("diff", help="rows added, removed or changed between two SSSOM/TSV files")
    diff.add_argument("old", metavar="OLD.tsv")
    diff.add_argument("new", metavar="NEW.tsv")
    diff.set_defaults(func=run_diff)


def source_list(text: str | None) -> list[str] | None:
    if not text:
        return None
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:
        raise KGError("--sources needs at least one source name, e.g. --sources jira,linear")
    return names


def threshold_value(value: float | None) -> float:
    if value is None:
        return DEFAULT_THRESHOLD
    if not 0.0 <= value <= 1.0:
        raise KGError(f"--threshold must be between 0 and 1, got {value}")
    return value


def emit(text: str, out: str | None, force: bool) -> None:
    if out:
        with open_output(out, force=force) as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


def reference_rows(path: str | None) -> pd.DataFrame | None:
    """The --reference alignment, read before the (slower) alignment runs, so a bad file fails fast."""
    if path is None:
        return None
    from alignment.workflow import read_reference

    try:
        return read_reference(Path(path))
    except ValueError as exc:
        raise KGError(str(exc)) from exc


def run_inventory(erb: Path, sources: list[str] | None, out: str | None, force: bool) -> int:
    from alignment.fields import inventory, load_corpus

    corpus = load_corpus(erb, sources)
    report_warnings(corpus.warnings)
    emit(inventory(corpus).to_csv(sep="\t", index=False), out, force)
    return 0


def report_warnings(warnings: list[str]) -> None:
    for message in warnings:
        warn(message)


def mapping_count(rows: pd.DataFrame, pairs: int, method: str, out: str | None) -> str:
    """The closing line: rows written, and how they relate to the field pairs the table counts (a field
    aligned with its within-source aliases is written once per key; --target adds ontology rows)."""
    target = int((rows["object_source"] == "w3ekg:ont").sum()) if "object_source" in rows else 0
    extra = f" and {plural(target, 'field-to-ontology row')}" if target else ""
    return (
        f"{plural(len(rows), 'mapping row')} written to {out or 'standard output'}: the {pairs:,} field pairs "
        f"{method} kept (the table's {method} column), one row per alias key{extra}"
    )


def summary_table(pairs: pd.DataFrame) -> str:
    """Per source pair: fields on each side, candidate field pairs over the threshold, field pairs kept."""
    header = ["subject", "object", "fields", "candidates", "greedy", "top1", "hungarian"]
    rows = [
        [
            r.subject_source,
            r.object_source,
            f"{r.subject_fields}x{r.object_fields}",
            r.candidates,
            r.greedy,
            r.top1,
            r.hungarian,
        ]
        for r in pairs.itertuples()
    ]
    totals = [
        "all",
        f"{len(pairs)} pairs",
        "",
        int(pairs["candidates"].sum()),
        int(pairs["greedy"].sum()),
        int(pairs["top1"].sum()),
        int(pairs["hungarian"].sum()),
    ]
    return format_table(header, [*rows, totals])


def run(args: argparse.Namespace) -> int:
    require("align", "align")
    threshold = threshold_value(args.threshold)  # before any data loads
    erb = erb_path(args.erb)
    sources = source_list(args.sources)
    if args.out:
        output_path(args.out, args.force)
    reference = reference_rows(args.reference)
    if args.inventory:
        return run_inventory(erb, sources, args.out, args.force)
    from tqdm import tqdm

    from alignment.pipeline import align
    from alignment.sssom_io import write
    from alignment.workflow import select_mappings

    result = align(
        erb,
        sources,
        threshold,
        target=args.target == "ontology",
        progress=lambda pairs: tqdm(
            pairs, desc="aligning source pairs", delay=1.0, leave=False, disable=not show_progress()
        ),
    )
    report_warnings(result.warnings)
    try:
        chosen = select_mappings(result, args.method, erb)
    except ValueError as exc:
        raise KGError(str(exc)) from exc
    if args.out:
        with open_output(args.out, force=args.force) as fh:
            write(chosen.mapping_set, fh, args.format)
    else:
        write(chosen.mapping_set, sys.stdout, args.format)
    print(summary_table(result.pairs), file=sys.stderr)
    print(mapping_count(chosen.rows, int(result.pairs[args.method].sum()), args.method, args.out), file=sys.stderr)
    if reference is not None:
        print_scores(result.mappings, reference)
    return 0


def print_scores(mappings: dict[str, pd.DataFrame], reference: pd.DataFrame) -> None:
    from alignment.evaluate import score_table

    table = score_table(mappings, reference)
    rows = [
        [
            r.split,
            r.method,
            r.scope,
            r.found,
            r.reference,
            r.correct,
            f"{r.precision:.3f}",
            f"{r.recall:.3f}",
            f"{r.f1:.3f}",
        ]
        for r in table.itertuples()
    ]
    print(
        format_table(["split", "method", "scope", "found", "reference", "correct", "P", "R", "F1"], rows),
        file=sys.stderr,
    )


def mapping_file(path: str):
    """An SSSOM/TSV read and validated by sssom-py; a one-line error when it is not one."""
    from alignment.curation import read

    try:
        return read(Path(path))
    except ValueError as exc:
        raise KGError(str(exc)) from exc


def run_review(args: argparse.Namespace) -> int:
    require("align", "align review")
    from alignment.curation import approved_rows, reviewed
    from alignment.sssom_io import write

    out = output_path(args.out)
    edited = mapping_file(args.edited)
    try:
        signed = reviewed(edited, args.reviewer, args.reviewer_label)
    except ValueError as exc:
        raise KGError(str(exc)) from exc
    write(signed, out)
    usable = len(approved_rows(signed.df))
    print(
        f"{plural(len(signed.df), 'row')} reviewed by {args.reviewer} -> {out}; {usable} approved for ingestion "
        f"(positive exact/close/narrow rows to an ontology property)",
        file=sys.stderr,
    )
    return 0


def run_diff(args: argparse.Namespace) -> int:
    require("align", "align diff")
    from alignment.curation import diff

    changes = diff(mapping_file(args.old).df, mapping_file(args.new).df)
    for change in changes:
        print(f"{change.kind}\t{change.subject_id}\t{change.object_id}\t{change.detail}")
    counts = {k: sum(c.kind == k for c in changes) for k in ("added", "removed", "changed")}
    print(", ".join(f"{n} {k}" for k, n in counts.items()), file=sys.stderr)
    return 0
