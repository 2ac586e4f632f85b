"""Audit of the answers the dropped-feature rules support, on every HERB product (the artifacts, never the
questions): for each feature PR the rules read as dropped for a reason, HERB's two questions of that kind are
asked in their canonical wording, and every one must be answered, the PR among the answers.

    python bench/audit_answers.py [STORE]  # print the audit; exit 1 when a question is not answered
                                           # (STORE: default .kg/store; `kg build` writes it)

- "What features could not be added to P due to <reason>?" for each reason a dropped PR of P has;
- "Find the links to the PRs for <feature> in P that were reverted because of <reason>." for each merged (so
  reverted) PR with its feature.

A question proved absent here is a false proof in waiting: the graph holds the evidence its reading should find.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kg.errors import KGError
from kg.qa.answer import Answerer
from kg.query.sparql import EmbeddedStore, named_query, product_dataset

ROOT = Path(__file__).resolve().parent.parent
#: Each reason as HERB's questions say it.
SAID = {
    "SecurityRisk": ("security risks", "security risks"),
    "ProductDirectionChange": ("a change in product direction", "a change in product direction"),
    "IntroducedBugs": ("introduced bugs", "they introduced bugs"),
}


def questions(answerer: Answerer, product: str) -> list[tuple[str, set[str]]]:
    """The product's questions, each with the PR links one of its answers must hold (none: any answer)."""
    rows = answerer.backend.select(named_query("audit_dropped_features").text, None, product_dataset(product))
    out: dict[str, set[str]] = {}
    for r in rows:
        reason = r["reason"].value.rsplit("#", 1)[-1]
        if reason not in SAID:
            continue
        out.setdefault(f"What features could not be added to {product} due to {SAID[reason][0]}?", set())
        if "feature" in r and "merged" in r and r["merged"].value == "true":
            question = (
                f"Find the links to the PRs for {r['feature'].value} in {product} that were reverted because of "
                f"{SAID[reason][1]}."
            )
            out.setdefault(question, set()).add(r["link"].value)
    return sorted(out.items())


def main(argv: list[str]) -> int:
    store = Path(argv[0]) if argv else ROOT / ".kg" / "store"
    try:
        answerer = Answerer(EmbeddedStore(store))
    except KGError as exc:
        print(f"audit_answers: {exc}", file=sys.stderr)
        return 2
    asked, missed = 0, []
    products = sorted(set(answerer.vocabulary.products.values()))
    for product in products:
        for question, links in questions(answerer, product):
            answer = answerer.ask(question)
            asked += 1
            got = set(answer.answer) if isinstance(answer.answer, list) else set()
            if answer.outcome != "answer" or (links and not links & got):
                missed.append(f"{question} -> {answer.outcome}: {answer.reason or sorted(got)}")
    print(f"{asked} questions asked on {len(products)} products; {len(missed)} not answered")
    for line in missed:
        print(" ", line)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
