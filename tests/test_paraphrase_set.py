"""Hand-written paraphrases of the dev question templates must reach the canonical wording's intent and answer.

The held-out products' questions are phrased like dev's but not identically, so the matchers must generalise
over word order, synonyms and politeness rather than one wording. Each pair in data/paraphrases.jsonl is
compared on the real store: same intent, same answer (set-equal for lists, equal for prose). The first 265
pairs were written before reading the matchers (0.879 passed then), the next 44 after, in terser styles; the
next 120 by a separate writer who never saw the matchers (108 of 120 passed as written), and the last 100 by
another such writer after the matchers were generalised on those (95 of 100 passed as written), and the last
80 by a third one after the next round (74 of 80 passed as written).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from kg.qa.answer import Answer, Answerer

PAIRS = Path(__file__).parent / "data" / "paraphrases.jsonl"
#: A fifth blind batch (240 pairs, 8 per answered intent, written from the canonical wordings alone by a writer
#: who never saw the matchers or the gold). Scored before any change made for it: 222 of 240 (0.925) on
#: 2026-12-01. Its floor only rises as the matchers generalise; it is kept apart so that first score stays known.
#: With the cue lexicon, the intent table and free phrases resolved against the graph: 240 of 240 (2026-12-01).
BLIND_5 = Path(__file__).parent / "data" / "paraphrases_blind_5.jsonl"
BLIND_5_FLOOR = 0.99
#: A sixth blind batch (240 pairs: one paraphrase of each of 120 canonical wordings, covering all 33 answered
#: intents, timed ones included, by each of two writers in different styles who never saw the matchers or the
#: gold). First run on 2026-12-01: 225 of 240 (0.938) on the regex matchers it was written against, then 238 of
#: 240 (0.992) on the cue lexicon and intent table, before any change made for it. Its floor is that first run.
BLIND_6 = Path(__file__).parent / "data" / "paraphrases_blind_6.jsonl"
BLIND_6_FLOOR = 0.99
#: The pass rate reached on the set is 609 of 609 (608 with the regex matchers); a change to the matchers must not
#: lower it below this floor.
MIN_PASS_RATE = 0.99


def load_pairs(path: Path = PAIRS) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def comparable(answer: Answer) -> object:
    """What must agree between wordings: the intent and the answer (order-free for lists)."""
    value = frozenset(answer.answer) if isinstance(answer.answer, list) else answer.answer
    return answer.intent, answer.abstain, value


@pytest.fixture(scope="module")
def canonical(answerer: Answerer) -> Callable[[str], Answer]:
    """A canonical wording's answer, asked once: 307 wordings stand behind the 1,089 pairs of the three sets."""
    return cache(answerer.ask)


def failures(answerer: Answerer, canonical_answer: Callable[[str], Answer], pairs: list[dict[str, str]]) -> list[str]:
    """One line per paraphrase whose intent or answer differs from its canonical question's."""
    out = []
    for pair in pairs:
        canonical, para = canonical_answer(pair["canonical"]), answerer.ask(pair["paraphrase"])
        if comparable(canonical) != comparable(para):
            got = "abstained" if para.abstain else "another answer"
            out.append(
                f"{pair['paraphrase']!r}: {para.intent} ({got}; {para.reason or ''}) "
                f"!= {canonical.intent} for {pair['canonical']!r}"
            )
    return out


def test_paraphrases_reach_the_canonical_answer(answerer: Answerer, canonical: Callable[[str], Answer]) -> None:
    pairs = load_pairs()
    failed = failures(answerer, canonical, pairs)
    rate = 1 - len(failed) / len(pairs)
    assert rate >= MIN_PASS_RATE, f"pass rate {rate:.3f} < {MIN_PASS_RATE}:\n" + "\n".join(failed)


def test_fifth_blind_batch_holds_its_floor(answerer: Answerer, canonical: Callable[[str], Answer]) -> None:
    pairs = load_pairs(BLIND_5)
    failed = failures(answerer, canonical, pairs)
    rate = 1 - len(failed) / len(pairs)
    assert rate >= BLIND_5_FLOOR, f"pass rate {rate:.3f} < {BLIND_5_FLOOR}:\n" + "\n".join(failed)


def test_sixth_blind_batch_holds_its_first_run_score(answerer: Answerer, canonical: Callable[[str], Answer]) -> None:
    pairs = load_pairs(BLIND_6)
    failed = failures(answerer, canonical, pairs)
    rate = 1 - len(failed) / len(pairs)
    assert rate >= BLIND_6_FLOOR, f"pass rate {rate:.3f} < {BLIND_6_FLOOR}:\n" + "\n".join(failed)


@pytest.mark.slow
def test_canonical_questions_are_answered(canonical: Callable[[str], Answer]) -> None:
    """A paraphrase is only a fair test of a canonical wording the system answers."""
    abstained = {
        p["canonical"]
        for p in [*load_pairs(), *load_pairs(BLIND_5), *load_pairs(BLIND_6)]
        if canonical(p["canonical"]).abstain
    }
    assert not abstained, "\n".join(sorted(abstained))
