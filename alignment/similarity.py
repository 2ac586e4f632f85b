"""Similarity between fields of two sources, from their instances.

Every measure is computed once for all fields of all sources as an N x N matrix (sparse products for value
overlap and TF-IDF), and a source pair reads its block. The field name adds a small bonus on top of the
instance score but can never carry a pair over the threshold on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse

from alignment.profile import FAMILY, TEMPORAL, TEXT

# Weights of the instance evidence; each measure is in [0, 1].
WEIGHTS = {
    "content": 0.25,  # value overlap or TF-IDF cosine, whichever is stronger
    "role": 0.15,  # the title / body role the export declares
    "format": 0.10,
    "specific": 0.15,  # format agreement weighted by how rare the format is among all fields
    "pattern": 0.10,  # character-class shapes of the values (`A-9` for SUP-1842)
    "length": 0.08,
    "shape": 0.07,  # distinct ratio and values per record (enum vs id vs list)
    "fill": 0.03,  # share of records carrying the field: an optional date is not an always-present one
    "time": 0.07,  # position among the record's dates: created vs updated
}
NAME_WEIGHT = 0.15
SIMILARITY_MEASURE = (
    "weighted mean of instance evidence: max(value containment, TF-IDF cosine of value tokens) 0.25, "
    "declared title/body role 0.15, format compatibility 0.10, format agreement x format rarity 0.15, "
    "TF-IDF cosine of value character shapes 0.10, value length 0.08, cardinality shape 0.07, fill rate 0.03, "
    "date position in record 0.07; halved when formats are incompatible; times 0.85, "
    "plus 0.15 x field-name token similarity (mean of Jaccard and overlap coefficient of singular tokens, "
    "with a small synonym lexicon)"
)


@dataclass
class Similarity:
    """All-fields similarity matrices, indexed like the profile frame's rows."""

    score: np.ndarray
    instance: np.ndarray
    name: np.ndarray
    features: dict[str, np.ndarray]
    shared_values: np.ndarray
    cosine: np.ndarray


def incidence(bags: list[dict[str, float]]) -> sparse.csr_matrix:
    """Fields x terms sparse matrix from one {term: weight} bag per field."""
    vocab: dict[str, int] = {}
    rows, cols, data = [], [], []
    for i, bag in enumerate(bags):
        for term, weight in bag.items():
            rows.append(i)
            cols.append(vocab.setdefault(term, len(vocab)))
            data.append(weight)
    return sparse.csr_matrix((data, (rows, cols)), shape=(len(bags), max(1, len(vocab))))


def tfidf_cosine(bags: pd.Series) -> np.ndarray:
    """Cosine of sublinear TF-IDF vectors of per-field term counts, IDF over fields, as one sparse product."""
    counts = incidence([dict(t) for t in bags])
    counts.data = 1.0 + np.log(counts.data)
    df = np.asarray((counts > 0).sum(axis=0)).ravel()
    idf = np.log((1 + counts.shape[0]) / (1 + df)) + 1.0
    weighted = counts @ sparse.diags(idf)
    norms = np.sqrt(np.asarray(weighted.multiply(weighted).sum(axis=1)).ravel())
    unit = sparse.diags(1.0 / np.where(norms > 0, norms, 1.0)) @ weighted
    return (unit @ unit.T).toarray()


def shared_value_counts(profiles: pd.DataFrame) -> np.ndarray:
    """How many distinct normalised values each pair of fields has in common."""
    members = incidence([dict.fromkeys(v, 1.0) for v in profiles["value_set"]])
    return (members @ members.T).toarray()


def small_set_damping(sizes: np.ndarray) -> np.ndarray:
    """Fields with one or two distinct values (booleans, constants) agree by chance, so their overlap and
    token similarity count for less."""
    return np.clip(np.minimum.outer(sizes, sizes) / 3.0, 0.0, 1.0)


def containment(shared: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Shared values over the smaller value set."""
    smaller = np.minimum.outer(sizes, sizes)
    return np.where(smaller > 0, shared / np.maximum(smaller, 1), 0.0)


def format_compatibility(formats: pd.Series) -> np.ndarray:
    """1 for the same detected format, a family score for related formats (date/datetime), else 0."""
    names = formats.tolist()
    out = np.equal.outer(np.array(names, dtype=object), np.array(names, dtype=object)).astype(float)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if a != b:
                out[i, j] = FAMILY.get(frozenset({a, b}), 0.0)
    return out


def format_specificity(formats: pd.Series, compatibility: np.ndarray) -> np.ndarray:
    """Format agreement weighted by the rarer format's rarity: two organisation-name fields agreeing says more
    than two short-text fields agreeing, because few fields hold organisation names."""
    counts = formats.map(formats.value_counts()).to_numpy(dtype=float)
    rarity = 1.0 - np.log(counts) / np.log(max(2, len(formats)))
    return compatibility * np.minimum.outer(rarity, rarity)


def closeness(values: np.ndarray, scale: float) -> np.ndarray:
    """1 when equal, falling linearly to 0 at a difference of `scale`."""
    return np.clip(1.0 - np.abs(np.subtract.outer(values, values)) / scale, 0.0, 1.0)


def role_similarity(profiles: pd.DataFrame) -> np.ndarray:
    """Agreement of the title/body roles the export bookkeeping declares: 1 when both fields hold the same
    role, 0.7 when neither holds one, down to 0.2 when only one of them is a record's title or body.

    The roles are read for prose only: a name, date or id the export shows as a record's headline (HubSpot's
    company record is titled by `company_name`) is still what its values say it is, so a typed field's
    declared role is neutral (0.7)."""
    prose = profiles["format"].isin(TEXT).to_numpy()
    title = np.where(prose, profiles["title_share"].to_numpy(dtype=float), 0.0)
    body = np.where(prose, profiles["body_share"].to_numpy(dtype=float), 0.0)
    declared = np.clip(title + body, 0.0, 1.0)
    agree = np.multiply.outer(title, title) + np.multiply.outer(body, body)
    neither = np.multiply.outer(1 - declared, 1 - declared)
    return np.clip(agree + 0.7 * neither + 0.2 * (1 - agree - neither), 0.0, 1.0)


def time_similarity(profiles: pd.DataFrame) -> np.ndarray:
    """Agreement of the fields' rank (mostly) and tie share among a record's dates; neutral 0.5 when unknown."""
    pos = profiles["time_position"].to_numpy(dtype=float)
    ties = profiles["time_ties"].to_numpy(dtype=float)
    sim = 0.75 * closeness(np.nan_to_num(pos, nan=0.5), 1.0) + 0.25 * closeness(np.nan_to_num(ties), 1.0)
    unknown = np.isnan(pos)
    return np.where(np.logical_or.outer(unknown, unknown), 0.5, sim)


def list_similarity(profiles: pd.DataFrame) -> np.ndarray:
    """Same number of values per record (single value vs list), on a log scale.

    Prose is exempt: a body split into messages in one record and kept whole in the next, or next steps
    written as a list in one system and as one sentence in another, is the export's noise, not a different
    field."""
    per_record = np.log2(profiles["values"].to_numpy(dtype=float) / profiles["records"].to_numpy(dtype=float))
    text = profiles["format"].isin(TEXT).to_numpy()
    return np.where(np.logical_and.outer(text, text), 1.0, closeness(per_record, 3.0))


# A small lexicon of generic metadata synonyms (Dublin Core's creator is the author; tags, labels and keywords
# are one thing; participants attend; modified is updated). It is applied to name tokens only, so it feeds
# the capped name evidence and never lifts a pair whose values disagree (INSTANCE_FLOOR in the pipeline).
NAME_SYNONYMS = {
    "creator": "author",
    "reporter": "author",
    "submitter": "author",
    "requester": "author",
    "originator": "author",
    "participant": "attendee",
    "invitee": "attendee",
    "label": "tag",
    "keyword": "tag",
    "modified": "updated",
}


def name_word(token: str) -> str:
    """One name token in its canonical form: singular (`labels` -> `label`, not `status`), then the lexicon's
    head word, so `labels` meets `tags` and `reporter` meets `author`."""
    if len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
        token = token[:-1]
    return NAME_SYNONYMS.get(token, token)


def name_tokens(field: str) -> dict[str, str]:
    """A field name's word tokens in canonical form, each mapped to the word as written."""
    return {name_word(t): t for t in re.split(r"[_.\-\s]+", field.lower()) if t}


def name_similarity(fields: pd.Series) -> np.ndarray:
    """Mean of the Jaccard and the overlap coefficient of the names' canonical tokens: evidence, never a
    decider. Jaccard alone punishes a qualified name (`owner_team` vs `team` 0.5, `crm_deal_id` vs `deal_id`
    0.67) as much as a different one; the overlap coefficient alone calls every qualified name identical."""
    tokens = [name_tokens(f) for f in fields]
    bags = incidence([dict.fromkeys(t, 1.0) for t in tokens])
    shared = (bags @ bags.T).toarray()
    sizes = np.array([len(t) for t in tokens], dtype=float)
    union = np.add.outer(sizes, sizes) - shared
    jaccard = shared / np.maximum(union, 1)
    overlap = shared / np.maximum(np.minimum.outer(sizes, sizes), 1)
    return np.where(union > 0, 0.5 * (jaccard + overlap), 0.0)


def name_equivalences(a: str, b: str) -> list[str]:
    """The name tokens that agree only through the lexicon or a plural (`reporter = author`), for the comment."""
    left, right = name_tokens(a), name_tokens(b)
    return [f"{left[w]} = {right[w]}" for w in left.keys() & right.keys() if left[w] != right[w]]


def similarity(profiles: pd.DataFrame) -> Similarity:
    """Every field-to-field similarity at once; pairs within one source are zeroed."""
    shared = shared_value_counts(profiles)
    cosine = tfidf_cosine(profiles["tokens"])
    sizes = profiles["distinct"].to_numpy(dtype=float)
    log_len = np.log10(1 + profiles["mean_length"].to_numpy(dtype=float))
    temporal = profiles["format"].isin(TEMPORAL).to_numpy()
    both_temporal = np.logical_and.outer(temporal, temporal)
    time = time_similarity(profiles)
    features = {
        # Two date fields share year and month tokens whatever they mean; what tells created from updated
        # is where the date sits in its record, so that is their content evidence.
        "content": np.where(
            both_temporal, time, np.maximum(containment(shared, sizes), cosine) * small_set_damping(sizes)
        ),
        "format": format_compatibility(profiles["format"]),
        "pattern": tfidf_cosine(profiles["shapes"]),
        "fill": closeness(profiles["fill_rate"].to_numpy(dtype=float), 1.0),
        "length": closeness(log_len, 1.5),
        "role": role_similarity(profiles),
        "list": list_similarity(profiles),
        "time": time,
    }
    features["specific"] = format_specificity(profiles["format"], features["format"])
    features["shape"] = 0.5 * closeness(profiles["distinct_ratio"].to_numpy(dtype=float), 1.0) + 0.5 * features["list"]
    instance = sum(WEIGHTS[k] * features[k] for k in WEIGHTS)
    instance = instance * (0.5 + 0.5 * features["format"])  # incompatible formats halve the evidence
    name = name_similarity(profiles["field"])
    same_source = np.equal.outer(profiles["source"].to_numpy(), profiles["source"].to_numpy())
    score = np.where(same_source, 0.0, (1 - NAME_WEIGHT) * instance + NAME_WEIGHT * name)
    return Similarity(score, np.where(same_source, 0.0, instance), name, features, shared, cosine)
