"""End to end: records, profiles, similarity, selection per source pair, mapping rows with evidence."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from alignment.defaults import DEFAULT_THRESHOLD
from alignment.fields import Corpus, load_corpus
from alignment.profile import TEMPORAL
from alignment.profile import profiles as build_profiles
from alignment.select import METHODS
from alignment.similarity import SIMILARITY_MEASURE, Similarity, name_equivalences, similarity
from alignment.sssom_io import SSSOM_COLUMNS
from alignment.target import NO_TERM, target_rows

EXACT_SCORE = 0.75
MUTUAL_SCORE = 0.58  # a mutual best pair with consistent evidence needs only this much for exactMatch
CLOSE_SCORE = 0.56
EXACT_SUPPORT = 3  # records a field must appear in before its profile can justify an exactMatch
# A mutual best pair agreeing on a rare format (format agreement x rarity, the `specific` evidence: organisation
# names, datetimes, URLs) is exact at any score over the threshold: company names of two systems rarely
# overlap in a small sample, so their score stays low though nothing else competes for them.
RARE_FORMAT = 0.6
ROLE_CONFLICT = 0.5  # declared roles agreeing less often than not (title vs body) rule out an exactMatch
# Flags and counts look alike whatever they flag or count: two boolean fields agree on {true, false}, two
# number fields on small integers. Their values cannot say that two of them mean the same thing, so these
# formats reach exactMatch only when the field names agree too.
UNINFORMATIVE = frozenset({"boolean", "number"})
# The instance evidence alone must reach this share of the threshold: a matching name cannot lift a pair
# whose values disagree.
INSTANCE_FLOOR = 0.85

#: A run's mapping rows: the SSSOM columns (the tool columns are added on writing) plus the selection method.
MAPPING_COLUMNS = [c for c in SSSOM_COLUMNS if not c.startswith("mapping_tool")] + ["method"]


@dataclass
class Alignment:
    """Everything one run produced: the inputs' profiles, one mapping frame per method, the pair summary."""

    profiles: pd.DataFrame
    mappings: dict[str, pd.DataFrame]
    pairs: pd.DataFrame
    warnings: list[str] = field(default_factory=list)
    threshold: float = DEFAULT_THRESHOLD
    target: pd.DataFrame | None = None


def source_pairs(sources: list[str]) -> list[tuple[str, str]]:
    """Every unordered pair of sources, subject first in alphabetical order (36 for the nine ERB sources)."""
    return list(combinations(sorted(sources), 2))


def eligible_block(sim: Similarity, rows: np.ndarray, cols: np.ndarray, threshold: float) -> np.ndarray:
    """Pairs scoring at least the threshold whose instance evidence alone nearly does too."""
    block = np.ix_(rows, cols)
    return (sim.score[block] >= threshold) & (sim.instance[block] >= INSTANCE_FLOOR * threshold)


def predicate(score: float, evidence: dict[str, float], support: int, mutual_best: bool) -> str | None:
    """exactMatch: the same format, no role conflict, single vs list alike, enough records to judge, a
    known place among the record's dates for date fields, values able to tell fields apart (not flags or
    counts, unless the names agree), and a high score or a mutual best pair that is fair (MUTUAL_SCORE),
    shares a declared role or agrees on a rare format (RARE_FORMAT); closeMatch: a fair score with compatible
    formats; relatedMatch when values of one occur in the other; else None (no correspondence)."""
    return judged(score, evidence, support, mutual_best)[0]


#: Each test of an exact match, with what its failure means, in the order a row's reason names them.
EXACT_TESTS: list[tuple[str, Callable[[dict[str, float], int], bool]]] = [
    ("formats differ", lambda e, s: e["format"] == 1.0),
    ("declared roles conflict", lambda e, s: e["role"] >= ROLE_CONFLICT),
    ("one holds lists, the other single values", lambda e, s: e["list"] >= 0.8),
    (f"fewer than {EXACT_SUPPORT} records to judge", lambda e, s: s >= EXACT_SUPPORT),
    ("a date without a known place among the record's dates", lambda e, s: bool(e["dated"])),
    ("flags or counts whose names do not agree", lambda e, s: bool(e["informative"])),
]


def judged(score: float, evidence: dict[str, float], support: int, mutual_best: bool) -> tuple[str | None, str]:
    """The predicate (see `predicate`) and why, in words, for the row's comment. relatedMatch needs evidence of
    a relation (values of one field occur in the other: a reference, a shared vocabulary); a pair that is
    neither exact nor close and shares no value is no correspondence (None), not a bucket for low scores."""
    failed = [why for why, test in EXACT_TESTS if not test(evidence, support)]
    mutual = mutual_best and (score >= MUTUAL_SCORE or evidence["role"] == 1.0 or evidence["specific"] >= RARE_FORMAT)
    if not failed and (score >= EXACT_SCORE or mutual):
        strength = f"score {score:.3f} >= {EXACT_SCORE}" if score >= EXACT_SCORE else "each other's best fit"
        return "skos:exactMatch", f"exact: consistent evidence and {strength}"
    low = f"score {score:.3f} < {EXACT_SCORE}" + (
        f" (as each other's best fit: < {MUTUAL_SCORE}, no shared role, no rare format)"
        if mutual_best
        else ", and another field fits better"
    )
    short = "; ".join(failed) if failed else low
    if score >= CLOSE_SCORE and evidence["format"] >= 0.5:
        return "skos:closeMatch", f"close, not exact: {short}"
    weak = f"score {score:.3f} < {CLOSE_SCORE}" if score < CLOSE_SCORE else "formats incompatible"
    if not evidence.get("shared", 0):
        return None, f"no correspondence: {weak} and no value of one occurs in the other"
    return "skos:relatedMatch", f"related only: {weak}, but values of one occur in the other"


def evidence(p: pd.DataFrame, sim: Similarity, i: int, j: int) -> str:
    """The comment: what in the instances supports the pair, in words."""
    a, b = p.iloc[i], p.iloc[j]
    parts = []
    shared = int(sim.shared_values[i, j])
    if shared:
        parts.append(f"{shared} of {a['distinct']} subject values also occur in object")
    if sim.cosine[i, j] >= 0.05:
        parts.append(f"value-token TF-IDF cosine {sim.cosine[i, j]:.2f}")
    if a["format"] == b["format"]:
        parts.append(f"both {a['format']} formatted")
    else:
        parts.append(f"subject {a['format']}, object {b['format']}")
    for role, column in (("title", "title_share"), ("body", "body_share")):
        if a[column] >= 0.5 and b[column] >= 0.5:
            parts.append(f"both the records' declared {role} field")
    for word, low, high in (("earliest", 0.0, 0.2), ("latest", 0.8, 1.0)):
        if low <= a["time_position"] <= high and low <= b["time_position"] <= high:
            parts.append(f"both the {word} date in their records")
    parts.append(f"mean length {a['mean_length']:.0f} vs {b['mean_length']:.0f} chars")
    if sim.name[i, j] > 0:
        same = ", ".join(name_equivalences(a["field"], b["field"]))
        read = f"; read as one word: {same}" if same else ""
        parts.append(f"field names share tokens (name similarity {sim.name[i, j]:.2f}{read})")
    return "; ".join(parts)


def alias_note(side: str, key: str, members: tuple[str, ...]) -> str:
    """Says that a key was aligned together with its within-source aliases."""
    if len(members) == 1:
        return ""
    others = ", ".join(m for m in members if m != key)
    return f"; {side} key {key} aligned with its alias {others} (same declared role, never in one record)"


def justification(value_format: str, name: float) -> str:
    """SEMAPV's word for what a row rests on: the field names alone where the values cannot tell fields apart
    (two flags or counts agree on true/false or small integers whatever they mean: UNINFORMATIVE), names and
    values together where the name contributed, the values alone otherwise."""
    if name > 0:
        return "semapv:LexicalMatching" if value_format in UNINFORMATIVE else "semapv:CompositeMatching"
    return "semapv:InstanceBasedMatching"


def mapping_rows(p: pd.DataFrame, sim: Similarity, i: int, j: int, method: str, mutual_best: bool) -> list[dict]:
    """SSSOM rows for one selected field pair, one per combination of the two alias groups' keys."""
    a, b = p.iloc[i], p.iloc[j]
    score = round(float(sim.score[i, j]), 3)
    support = min(int(a["records"]), int(b["records"]))
    facts = {k: float(sim.features[k][i, j]) for k in ("format", "role", "list", "specific")}
    facts["dated"] = a["format"] not in TEMPORAL or not np.isnan([a["time_position"], b["time_position"]]).any()
    facts["informative"] = a["format"] not in UNINFORMATIVE or sim.name[i, j] > 0
    facts["shared"] = float(sim.shared_values[i, j])
    predicate_id, why = judged(score, facts, support, mutual_best)
    if predicate_id is None:
        return []
    comment = f"{why}. Evidence: {evidence(p, sim, i, j)}"
    base = {
        "predicate_id": predicate_id,
        "mapping_justification": justification(a["format"], float(sim.name[i, j])),
        "confidence": round(float(sim.instance[i, j]), 3),
        "similarity_score": score,
        "similarity_measure": SIMILARITY_MEASURE,
        "curation_rule": f"ekgalign:{method}",
        "comment": comment,
        "subject_source": f"ekgsrc:{a['source']}",
        "object_source": f"ekgsrc:{b['source']}",
        "method": method,
    }
    return [
        {
            **base,
            "subject_id": f"{a['source']}:{sm}",
            "subject_label": sm,
            "object_id": f"{b['source']}:{om}",
            "object_label": om,
            "comment": comment + alias_note("subject", sm, a["members"]) + alias_note("object", om, b["members"]),
        }
        for sm in a["members"]
        for om in b["members"]
    ]


def with_cardinality(rows: pd.DataFrame) -> pd.DataFrame:
    """mapping_cardinality from the rows themselves: 1:1 unless a subject or object occurs twice."""
    if rows.empty:
        return rows.assign(mapping_cardinality=pd.Series(dtype=str))
    subj = rows.groupby(["object_source", "subject_id"])["object_id"].transform("count")
    obj = rows.groupby(["subject_source", "object_id"])["subject_id"].transform("count")
    card = np.where(subj > 1, "1:n", "1:1")
    card = np.where(obj > 1, np.where(subj > 1, "n:n", "n:1"), card)
    return rows.assign(mapping_cardinality=card)


def no_term_cardinality(rows: pd.DataFrame) -> pd.DataFrame:
    """A field that matched nothing is 1:0 (SSSOM's cardinality for a subject without an object), not n:1 with
    every other unmatched field."""
    if rows.empty:
        return rows
    return rows.assign(mapping_cardinality=rows["mapping_cardinality"].where(rows["object_id"] != NO_TERM, "1:0"))


def align_corpus(
    corpus: Corpus,
    threshold: float = DEFAULT_THRESHOLD,
    min_records: int = 2,
    progress: Callable | None = None,
    target: bool = False,
) -> Alignment:
    """Align every source pair with greedy 1-to-1 and, as ablations, top-1 and Hungarian; with `target`,
    also each source's fields to the ontology properties."""
    p = build_profiles(corpus, min_records).reset_index(drop=True)
    if p.empty:
        return Alignment(
            p,
            {m: pd.DataFrame(columns=MAPPING_COLUMNS) for m in METHODS},
            pd.DataFrame(),
            corpus.warnings,
            threshold,
        )
    sim = similarity(p)
    rows: dict[str, list[dict]] = {m: [] for m in METHODS}
    summary = []
    pairs = source_pairs(list(p["source"].unique()))
    for s, t in progress(pairs) if progress else pairs:
        ri = np.flatnonzero(p["source"].to_numpy() == s)
        ci = np.flatnonzero(p["source"].to_numpy() == t)
        eligible = eligible_block(sim, ri, ci, threshold)
        block = sim.score[np.ix_(ri, ci)]
        entry = {
            "subject_source": s,
            "object_source": t,
            "subject_fields": len(ri),
            "object_fields": len(ci),
            "candidates": int(eligible.sum()),
        }
        for method, select in METHODS.items():
            start = time.perf_counter()
            chosen = select(block, eligible)
            entry[f"{method}_seconds"] = time.perf_counter() - start
            kept = 0
            for i, j in chosen:
                mutual = bool(block[i, j] >= block[i].max() and block[i, j] >= block[:, j].max())
                written = mapping_rows(p, sim, int(ri[i]), int(ci[j]), method, mutual)
                rows[method] += written
                kept += bool(written)
            entry[method] = kept
        summary.append(entry)
    mappings = {m: with_cardinality(pd.DataFrame(r, columns=MAPPING_COLUMNS)) for m, r in rows.items()}
    onto = no_term_cardinality(with_cardinality(target_rows(p))) if target else None
    return Alignment(p, mappings, pd.DataFrame(summary), corpus.warnings, threshold, onto)


def align(
    erb: Path,
    sources: list[str] | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    min_records: int = 2,
    progress: Callable | None = None,
    target: bool = False,
) -> Alignment:
    """Load the ERB folder and align it: the library entry point behind `kg align`."""
    return align_corpus(load_corpus(erb, sources), threshold, min_records, progress, target)
