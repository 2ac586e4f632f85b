"""`--target ontology`: align each source field to the project's own ontology properties where one fits.

Each property states the instance profile a field must have (declared title role, earliest date, a
single-valued person name, ...). That fit is the evidence; words in the field name only rank fields that
already fit (reporter vs assignee are both single-valued person names), and never decide alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from alignment.profile import TEMPORAL
from alignment.select import greedy
from alignment.similarity import name_tokens, name_word

FIT_FLOOR = 0.6


@dataclass(frozen=True)
class TargetProperty:
    """One ontology property: the profile it expects (fit in [0, 1]) and the name words that support it."""

    curie: str
    label: str
    fit: Callable[[pd.Series], float]
    words: frozenset[str] = frozenset()
    needs_words: bool = False  # the profile alone cannot tell it from a sibling property


def single(row: pd.Series) -> bool:
    return row["values"] <= 1.2 * row["records"]


def is_person(row: pd.Series) -> bool:
    return row["format"] == "person name"


PROPERTIES = [
    TargetProperty(
        "dct:title",
        "title",
        lambda r: float(r["title_share"] >= 0.5 and r["format"] in {"short text", "person name"}),
    ),
    TargetProperty("ekg:text", "text", lambda r: float(r["body_share"] >= 0.5)),
    TargetProperty(
        "dct:created",
        "created",
        lambda r: float(r["format"] in TEMPORAL and r["time_position"] <= 0.15),
        frozenset({"created", "recorded", "first", "start"}),
    ),
    TargetProperty(
        "dct:identifier",
        "identifier",
        lambda r: float(
            r["format"] == "identifier" and r["distinct_ratio"] >= 0.95 and single(r) and r["fill_rate"] >= 0.9
        ),
        frozenset({"id", "key", "number"}),
        needs_words=True,
    ),
    TargetProperty(
        "prov:wasAttributedTo",
        "attributed to",
        lambda r: float(is_person(r) and single(r) and r["fill_rate"] >= 0.9),
        frozenset({"author", "creator", "reporter", "owner", "sender", "from"}),
        needs_words=True,
    ),
    TargetProperty(
        "ekg:assignedTo",
        "assigned to",
        lambda r: float(is_person(r) and single(r)),
        frozenset({"assignee", "assigned"}),
        needs_words=True,
    ),
    TargetProperty(
        "ekg:attendee",
        "attendee",
        lambda r: float(is_person(r) and not single(r)),
        frozenset({"attendees", "participants", "collaborators"}),
        needs_words=True,
    ),
    TargetProperty(
        "ekg:reviewer",
        "reviewer",
        lambda r: float(is_person(r) and not single(r)),
        frozenset({"reviewers", "reviewer"}),
        needs_words=True,
    ),
    TargetProperty("ekg:url", "url", lambda r: float(r["format"] == "URL"), frozenset({"url", "links", "link"})),
]


def fit_matrix(profiles: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Fields x properties: the profile fit, and whether the field name holds one of the property's words."""
    fit = np.array([[p.fit(row) for p in PROPERTIES] for _, row in profiles.iterrows()], dtype=float)
    words = [{name_word(w) for w in p.words} for p in PROPERTIES]  # the same canonical tokens as the matcher's
    named = np.array([[bool(name_tokens(f).keys() & w) for w in words] for f in profiles["field"]])
    needs = np.array([p.needs_words for p in PROPERTIES])
    fit = np.where(needs & ~named, np.minimum(fit, FIT_FLOOR), fit)
    return fit, named


def target_rows(profiles: pd.DataFrame) -> pd.DataFrame:
    """Greedy 1-to-1 per source between its fields and the ontology properties, as SSSOM rows."""
    fit, named = fit_matrix(profiles)
    score = 0.8 * fit + 0.2 * named
    rows = []
    for source in profiles["source"].unique():
        idx = np.flatnonzero(profiles["source"].to_numpy() == source)
        for i, k in greedy(score[idx], fit[idx] > FIT_FLOOR):
            row, prop = profiles.iloc[idx[i]], PROPERTIES[k]
            rows += [
                target_row(row, member, prop, float(score[idx[i], k]), bool(named[idx[i], k]))
                for member in row["members"]
            ]
    return pd.DataFrame(rows)


def target_row(row: pd.Series, member: str, prop: TargetProperty, score: float, named: bool) -> dict:
    """One SSSOM row from a source field to an ontology property."""
    evidence = f"field profile fits {prop.curie}: {row['format']} values in {row['records']} records"
    if row["title_share"] >= 0.5 or row["body_share"] >= 0.5:
        evidence += "; declared " + ("title" if row["title_share"] >= 0.5 else "body") + " field"
    if named:
        evidence += f"; field name supports {prop.label}"
    return {
        "subject_id": f"{row['source']}:{member}",
        "subject_label": member,
        "predicate_id": "skos:exactMatch" if not prop.needs_words else "skos:closeMatch",
        "object_id": prop.curie,
        "object_label": prop.label,
        "mapping_justification": "semapv:CompositeMatching" if named else "semapv:InstanceBasedMatching",
        "confidence": round(score, 3),
        "similarity_score": round(score, 3),
        "similarity_measure": "0.8 x ontology-property profile fit + 0.2 x field-name support",
        "curation_rule": "ekgalign:target_greedy",
        "comment": evidence,
        "subject_source": f"ekgsrc:{row['source']}",
        "object_source": "w3ekg:ont",
    }
