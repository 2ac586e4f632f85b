"""A question answered over a what-if graph (`kg.query.whatif.ScratchStore`) beside the real one: an answer item
is marked as coming from the scratch facts when the same question over the real graph does not give it; items
the scratch facts took away are listed too."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kg.errors import KGError
from kg.qa.answer import Answer, Answerer
from kg.query.sparql import EmbeddedStore
from kg.query.whatif import ScratchStore


@dataclass
class WhatIf:
    """An answer over the scratch dataset beside the real one: which items only the scratch facts give, and
    which items of the real answer they took away."""

    answer: Answer
    real: Answer
    scratch_items: list[str] = field(default_factory=list)
    dropped_items: list[str] = field(default_factory=list)


def items(answer: Answer) -> list[str]:
    if answer.abstain or answer.answer is None:
        return []
    return answer.answer if isinstance(answer.answer, list) else answer.answer.splitlines()


def ask_what_if(real: EmbeddedStore, question: str, with_files: list[Path], without_files: list[Path]) -> WhatIf:
    """The question answered over the scratch copy of the product it names, compared with the real answer."""
    answerer = Answerer(real)
    q = answerer.read(question)
    if q.across is not None:  # no one graph to copy
        raise KGError("--with / --without copy one product's graph: ask the question of one product at a time")
    real_answer = answerer.answer_parsed(q)
    if q.product is None:
        raise KGError("--with / --without need a question that names a product (its graph is what is copied)")
    scratch = Answerer(ScratchStore(real, q.product, with_files, without_files)).answer_parsed(q)
    before, after = items(real_answer), items(scratch)
    return WhatIf(scratch, real_answer, [x for x in after if x not in before], [x for x in before if x not in after])
