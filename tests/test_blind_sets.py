"""The blind sets of new kinds of question, meaning shifts and negation-heavy rewordings (tests/data), written by
writers who never saw the reader, kept as a regression set: each set's figures as recorded once after tuning
(data/blind_sets_recorded.json), with a tolerance, never re-measured at each change. Their first runs, taken
before any change made for them, are in data/blind_first_runs_2026-12-06.json and
data/blind_first_runs_2026-12-07.json.

The verdicts follow the briefs in ../shared/briefs: a new-kinds answer is right when its set F1 against the
writer's gold (read from the raw artifacts) is at least 0.8, or it says the number / yes or no; a proof of
absence where the gold has an answer is a false proof. A shift is ignored when it is answered with exactly the
original's gold; right when an exclusion drops the item, a count says the gold's size, or a yes or no says the
writer's. A negated rewording keeps its original's set F1 (the ratio over a set's answerable rows)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from kg.errors import KGError
from kg.qa.answer import Answer, Answerer
from kg.qa.evaluate import read_jsonl

DATA = Path(__file__).parent / "data"
RECORDED = json.loads((DATA / "blind_sets_recorded.json").read_text(encoding="utf-8"))["sets"]
#: How much of a set's right answers a change may lose (at least one), and of the F1 ratio.
TOLERANCE = 0.01
EMPTY = ([], 0, "0", "no", "not in the data")


def f1(got: set[str], gold: set[str]) -> float:
    got, gold = {g.casefold() for g in got}, {g.casefold() for g in gold}
    hit = len(got & gold)
    return 0.0 if not hit else 2 * hit / (len(got) + len(gold))


def answered(a: Answer) -> bool:
    return a.outcome == "answer"


def new_kind_verdict(row: dict, a: Answer) -> str:
    gold = row["answer"]
    text = json.dumps(a.answer).casefold() if a.answer is not None else ""
    if not answered(a):
        return ("right" if a.proof else "honest") if gold in EMPTY else ("false_proof" if a.proof else "honest")
    if gold in EMPTY:
        return "right" if re.search(r"\b(0|no|none)\b", text) else "wrong"
    if isinstance(gold, list):
        items = a.answer if isinstance(a.answer, list) else re.findall(r"[^\n\-•]+", str(a.answer or ""))
        got = {str(i).strip() for i in items}
        hit = f1(got, {str(g) for g in gold}) >= 0.8 or all(str(g).casefold() in text for g in gold)
        return "right" if hit else "wrong"
    return "right" if str(gold).casefold() in text else "wrong"


def shift_verdict(row: dict, a: Answer) -> str:
    gold = {str(i) for i in row["original_answer"]} if isinstance(row["original_answer"], list) else None
    if not answered(a):
        return "honest"
    got = {str(i) for i in a.answer} if isinstance(a.answer, list) else None
    kind, text = row["kind"], json.dumps(a.answer).casefold()
    if kind == "exclude" and got is not None and gold is not None:
        item = max((g for g in gold if g in row["question"]), key=len, default=None)  # pull/10, not pull/1
        return "right" if got == gold - {item} else "ignored" if got == gold else "other"
    if kind == "count" and gold:
        return "right" if str(len(gold)) in re.findall(r"\d+", text) else "ignored" if got == gold else "other"
    if kind in ("yesno", "yes_no") and row.get("expect"):
        return "right" if re.search(rf"\b{row['expect']}\b", text) else "ignored" if got == gold else "other"
    return "ignored" if got is not None and got == gold else "other"


def asked(answerer: Answerer, question: str) -> Answer:
    """The answer, or for a question the parser refuses with its reason (two products named with no join), that
    refusal as an unsupported outcome: a clear error is no answer and no proof."""
    try:
        return answerer.ask(question)
    except KGError as exc:
        refused = Answer(question=question, type="content", abstain=True, answer=None, citations=[], intent=None)
        refused.reason, refused.outcome = str(exc), "unsupported"
        return refused


def judged(answerer: Answerer, name: str, verdict: Callable[[dict, Answer], str]) -> Counter[str]:
    """Each question of the set answered and judged; the verdicts counted, with `lost`: the right answers the
    set may lose against its record (1 %, at least one)."""
    rows = read_jsonl(DATA / name)
    verdicts = Counter(verdict(r, asked(answerer, r["question"])) for r in rows)
    verdicts["lost"] = RECORDED[name]["right"] - verdicts["right"] - max(1, round(TOLERANCE * len(rows)))
    return verdicts


@pytest.mark.slow
@pytest.mark.herb
@pytest.mark.parametrize("name", sorted(n for n in RECORDED if n.startswith("new_kinds")))
def test_new_kinds_keep_their_right_answers_and_prove_nothing_the_data_answers(answerer: Answerer, name: str) -> None:
    verdicts = judged(answerer, name, new_kind_verdict)
    assert verdicts["lost"] <= 0, verdicts
    assert verdicts["wrong"] <= RECORDED[name]["wrong"], verdicts
    assert verdicts["false_proof"] <= RECORDED[name]["false_proof"], verdicts


@pytest.mark.slow
@pytest.mark.herb
@pytest.mark.parametrize("name", sorted(n for n in RECORDED if n.startswith("shifts")))
def test_meaning_shifts_are_never_answered_as_the_original(answerer: Answerer, name: str) -> None:
    verdicts = judged(answerer, name, shift_verdict)
    assert verdicts["ignored"] == 0 and verdicts["lost"] <= 0, verdicts


@pytest.mark.slow
@pytest.mark.herb
@pytest.mark.parametrize("name", sorted(n for n in RECORDED if n.startswith("negation")))
def test_negated_rewordings_keep_their_originals_answers(answerer: Answerer, name: str) -> None:
    rows = [r for r in read_jsonl(DATA / name) if isinstance(r.get("ground_truth"), list) and r["ground_truth"]]
    originals = {o: asked(answerer, o) for o in {r["original"] for r in rows}}
    mine = theirs = 0.0
    false_proofs = 0
    for r in rows:
        a, o = asked(answerer, r["question"]), originals[r["original"]]
        gold = {str(g) for g in r["ground_truth"]}
        mine += f1({str(x) for x in a.answer}, gold) if answered(a) and isinstance(a.answer, list) else 0.0
        theirs += f1({str(x) for x in o.answer}, gold) if answered(o) and isinstance(o.answer, list) else 0.0
        false_proofs += a.outcome == "absent" and answered(o)
    assert false_proofs == 0
    assert mine / theirs >= RECORDED[name]["f1_ratio"] - TOLERANCE
