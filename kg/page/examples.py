"""Example questions for the answer page: one per family of intents, for a product the reader's token reads.

Each family lists wordings in order of preference; the page offers the first one the product's graph answers
(asked live, once per product), so an example never leads to an abstention. A family none of whose wordings
the product answers (not every product has competitors or a previous release) is left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.qa.answer import Answerer
from kg.query.sparql import known_products

#: family -> wordings with `{product}`, most telling first
FAMILIES: dict[str, list[str]] = {
    "documents": [
        "Find employee IDs of the authors and key reviewers of the Market Research Report for the {product} product?",
        "Who wrote the Product Requirements Document for {product}?",
    ],
    "bugs": [
        "Which customers reported bugs in {product} that are still unresolved?",
        "Which engineer resolved the most bugs in {product}?",
    ],
    "features": [
        "Find features for {product} that were discussed but not implemented",
        "What features were temporarily delayed but eventually added to {product}?",
    ],
    "pull requests": [
        "Find the employee ID of the engineer with the most approved feature development PRs in {product}?",
    ],
    "competitors": [
        "What are the weaknesses of {product}'s competitor products?",
        "Find the demo URLs shared by team members for {product}'s competitor products?",
    ],
    "releases": [
        "Find employee IDs of team members who worked on the previous release of {product}?",
        "Find names of companies that reported issues with the previous release of {product}?",
    ],
}


@dataclass
class Examples:
    """The products of the graph and, per product, its example questions (each read once)."""

    answerer: Answerer
    _products: list[str] | None = None
    _by_product: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def products(self) -> list[str]:
        if self._products is None:
            self._products = known_products(self.answerer.backend)
        return self._products

    def questions(self, product: str) -> list[tuple[str, str]]:
        """(family, question) for each family the product's graph answers, in FAMILIES order."""
        if product not in self._by_product:
            self._by_product[product] = [
                (family, question)
                for family, wordings in FAMILIES.items()
                if (question := self._first_answered(wordings, product)) is not None
            ]
        return self._by_product[product]

    def _first_answered(self, wordings: list[str], product: str) -> str | None:
        for wording in wordings:
            question = wording.format(product=product)
            if not self.answerer.ask(question).abstain:
                return question
        return None
