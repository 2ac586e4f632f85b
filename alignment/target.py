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
    many: bool = False  # several fields of one source may hold it (a record links through several fields)


def single(row: pd.Series) -> bool:
    return row["values"] <= 1.2 * row["records"]


def is_person(row: pd.Series) -> bool:
    return row["format"] == "person name"


def listed(row: pd.Series) -> bool:
    return not single(row)


def is_reference(row: pd.Series) -> bool:
    """Values that point at something else: ids, paths or URLs, nearly all distinct (tags and labels repeat)."""
    return row["format"] in {"identifier", "URL", "short text"} and row["distinct_ratio"] >= 0.9


PROPERTIES = [
    TargetProperty(
        "dct:title",
        "title",
        lambda r: float(r["title_share"] >= 0.5),  # the export declares it the title, whatever its values look like
    ),
    TargetProperty("ekg:text", "text", lambda r: float(r["body_share"] >= 0.5)),
    TargetProperty(
        "dct:created",
        "created",
        lambda r: float(r["format"] in TEMPORAL and not r["time_position"] > 0.15),  # NaN: the record's only date
        frozenset({"created", "recorded", "first", "start"}),
    ),
    TargetProperty(
        "dct:modified",
        "modified",
        lambda r: float(r["format"] in TEMPORAL and r["time_position"] >= 0.6),
        frozenset({"updated", "modified", "last"}),
        needs_words=True,
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
        "ekg:status",
        "status",
        lambda r: float(r["format"] == "enum" and single(r) and r["fill_rate"] >= 0.9),
        frozenset({"status", "state", "stage"}),
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
        "ekg:assignee",
        "assignee",
        lambda r: float(is_person(r) and single(r)),
        frozenset({"assignee", "assigned"}),
        needs_words=True,
    ),
    TargetProperty(
        "ekg:involves",
        "involves",
        lambda r: float(listed(r) and r["format"] in {"person name", "identifier"}),
        frozenset({"attendees", "participants", "collaborators", "stakeholders"}),
        needs_words=True,
        many=True,
    ),
    TargetProperty(
        "ekg:recordReviewer",
        "record reviewer",
        lambda r: float(is_person(r) and listed(r)),
        frozenset({"reviewers", "reviewer", "approvers"}),
        needs_words=True,
        many=True,
    ),
    TargetProperty(
        "ekg:recipient",
        "recipient",
        lambda r: float(is_person(r)),
        frozenset({"recipient", "recipients", "to", "cc"}),
        needs_words=True,
        many=True,
    ),
    TargetProperty(
        "dct:references",
        "references",
        lambda r: float(is_reference(r)),
        frozenset({"linked", "related", "link", "links", "references", "parent", "dependencies", "sub"}),
        needs_words=True,
        many=True,
    ),
    TargetProperty("ekg:url", "url", lambda r: float(r["format"] == "URL" and single(r)), frozenset({"url", "link"})),
]


def name_share(field: str, words: set[str]) -> float:
    """The share of the field name's words that are the property's: `status` 1.0, `ci_status` 0.5, so a
    qualified name ranks below the plain one when both fit."""
    tokens = name_tokens(field).keys()
    return len(tokens & words) / len(tokens) if tokens else 0.0


def fit_matrix(profiles: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Fields x properties: the profile fit, and whether the field name holds one of the property's words."""
    fit = np.array([[p.fit(row) for p in PROPERTIES] for _, row in profiles.iterrows()], dtype=float)
    words = [{name_word(w) for w in p.words} for p in PROPERTIES]  # the same canonical tokens as the matcher's
    named = np.array([[name_share(f, w) for w in words] for f in profiles["field"]])
    needs = np.array([p.needs_words for p in PROPERTIES])
    fit = np.where(needs & (named == 0), np.minimum(fit, FIT_FLOOR), fit)
    return fit, named


def source_choice(score: np.ndarray, eligible: np.ndarray) -> list[tuple[int, int]]:
    """One source's field -> property pairs: greedy 1-to-1 over the one-field properties, then each field left
    over to the best many-field property it fits (a record links and lists people through several fields)."""
    many = np.array([p.many for p in PROPERTIES])
    chosen = greedy(score, eligible & ~many)
    taken = {i for i, _ in chosen}
    for i in range(score.shape[0]):
        options = np.flatnonzero(eligible[i] & many)
        if i not in taken and options.size:
            chosen.append((i, int(options[np.argmax(score[i, options])])))
    return chosen


def target_rows(profiles: pd.DataFrame) -> pd.DataFrame:
    """Each source's fields aligned to ontology properties (`source_choice`), as SSSOM rows, and one
    sssom:NoTermFound row per field no property fits, so the steward sees what matched nothing."""
    fit, named = fit_matrix(profiles)
    score = 0.8 * fit + 0.2 * named
    rows = []
    for source in profiles["source"].unique():
        idx = np.flatnonzero(profiles["source"].to_numpy() == source)
        chosen = source_choice(score[idx], fit[idx] > FIT_FLOOR)
        for i, k in chosen:
            row, prop = profiles.iloc[idx[i]], PROPERTIES[k]
            rows += [
                target_row(row, member, prop, float(score[idx[i], k]), bool(named[idx[i], k] > 0))
                for member in row["members"]
            ]
        matched = {i for i, _ in chosen}
        for i in sorted(set(range(len(idx))) - matched):
            row = profiles.iloc[idx[i]]
            rows += [no_term_row(row, member) for member in row["members"]]
    return pd.DataFrame(rows)


NO_TERM = "sssom:NoTermFound"


def no_term_row(row: pd.Series, member: str) -> dict:
    """A field no ontology property fits: SSSOM's own way of saying so (object sssom:NoTermFound)."""
    return {
        "subject_id": f"{row['source']}:{member}",
        "subject_label": member,
        "predicate_id": "skos:exactMatch",
        "object_id": NO_TERM,
        "mapping_justification": "semapv:InstanceBasedMatching",
        "confidence": 0.0,
        "similarity_score": 0.0,
        "similarity_measure": "0.8 x ontology-property profile fit + 0.2 x field-name support",
        "curation_rule": "ekgalign:target_greedy",
        "comment": f"no ontology property fits the field's profile ({row['format']} values in {row['records']} "
        "records) with its name's support",
        "subject_source": f"ekgsrc:{row['source']}",
        "object_source": "w3ekg:ont",
    }


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
