"""Readings that hold on every product: each row's canonical wording read back on all 30 products, and the blind
rewordings moved to products their writers never saw. The two longest reading tests, in a file of their own so
that the test workers share them out (pytest-xdist, --dist loadfile)."""

from __future__ import annotations

import itertools
import string
import tomllib
from pathlib import Path

import pytest

from kg.qa.answer import Answer, Answerer
from kg.qa.evaluate import read_jsonl

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


@pytest.mark.slow
def test_every_row_reads_back_its_canonical_wording_on_every_product(answerer: Answerer) -> None:
    """Each row's `ask` wording, filled with values of each of the 30 products (its components and features,
    document kinds, roles, companies, states, reasons; one fill a product, every fill in turn across them),
    reaches that row and answers or proves: the readings an
    uncertain answer offers work on products whose questions nobody here has seen, and a product's own names
    (a feature "enhancing security measures") do not read as constraints."""
    rows = tomllib.loads((ROOT / "kg" / "qa" / "intents" / "table.toml").read_text(encoding="utf-8"))["intent"]
    companies = sorted(answerer.vocabulary.companies.values())
    off, asked = [], 0
    for turn, product in enumerate(sorted(answerer.vocabulary.products.values())):
        labels = answerer.labels(product)
        values = {
            "product": [product],
            "doc_kind": ["Market Research Report", "Product Requirements Document"],
            "bug_state": ["unresolved", "reopened"],
            "by_company": ["", f" reported by {companies[0]}"],
            "role": ["Engineering Lead", "QA Specialist"],
            "role_people": ["QA Specialists", "team members"],
            "component": [c.title() for c in labels.components[:2]],
            "topic": sorted(labels.feature_names.values())[:2],
            "reason": ["security risks", "a change in product direction"],
            "approved": ["approved", "unapproved"],
            "pr_state": ["open", "merged"],
            "aspect": ["weaknesses", "strengths"],
            "feedback": ["strengths did customers praise", "issues did customers report"],
            "company_feedback": ["highlighted strengths of", "reported issues with"],
        }
        for name, row in rows.items():
            places = [field for _, field, _, _ in string.Formatter().parse(row["ask"]) if field]
            if not all(values.get(k) for k in places):
                continue  # a place no product value fills here (an employee id)
            combos = list(itertools.product(*(values[k] for k in places)))
            combo = combos[turn % len(combos)]  # one fill a product, each fill in turn across the products
            question = row["ask"].format(**dict(zip(places, combo, strict=True)))
            got, asked = answerer.ask(question), asked + 1
            # a row whose query may find no rows after its proof found evidence says so (`empty = "uncertain"`)
            empty = got.outcome == "uncertain" and row.get("empty") == "uncertain" and "rules could" in str(got.reason)
            if got.intent != name or (got.outcome not in ("answer", "absent") and not empty):
                off.append(f"{name} <- {question}: {got.outcome} {got.intent}")
    assert asked > 30 * 30 and not off, "\n".join(off[:20])


@pytest.mark.slow
def test_rewordings_moved_to_other_products_prove_nothing_their_originals_do_not(
    answerer: Answerer, herb: Path
) -> None:
    """Each blind rewording whose original names no product-specific thing (no feature, component, company or
    employee), moved with its original to another product (one of three, in turn): where the rewording proves
    absence, the moved original proves the same intent's absence; and nearly all read the same. A stand-in for
    products and writers nobody here has seen."""
    source = {(s, n): q for s in ("answerable", "unanswerable")
              for n, q in enumerate(read_jsonl(herb / "qa" / "dev" / f"{s}.jsonl"), start=1)}  # fmt: skip
    products = sorted(answerer.vocabulary.products.values())[::10]
    misread, differ, pairs = [], 0, 0
    asked: dict[str, Answer] = {}

    def ask(question: str) -> Answer:  # an original has many rewordings: asked once
        if question not in asked:
            asked[question] = answerer.ask(question)
        return asked[question]

    for path in sorted(DATA.glob("rewordings_blind_*.jsonl")):
        for number, line in enumerate(read_jsonl(path)):
            original = source[line["split"], line["line"]]
            home = original["product"]
            base = ask(original["question"])
            specific = {"topic", "phrase", "companies", "eids", "company", "customer_ids"} & set(base.slots)
            if home not in line["question"] or base.outcome not in ("answer", "absent") or specific:
                continue
            others = [p for p in products if p != home]
            for other in [others[number % len(others)]]:
                moved = ask(original["question"].replace(home, other))
                got, pairs = answerer.ask(line["question"].replace(home, other)), pairs + 1
                differ += (got.outcome, got.intent, got.answer) != (moved.outcome, moved.intent, moved.answer)
                if got.outcome == "absent" and (moved.outcome, moved.intent) != ("absent", got.intent):
                    misread.append(f"{line['question'].replace(home, other)}: {got.intent} / {moved.intent}")
    assert pairs > 3000 and not misread, "\n".join(misread)
    # 1.5 % on 2026-12-06 (was under 1 %): the word account leaves a rewording uncertain where a word it cannot
    # place stands, an honest outcome; a misread proof above stays the failure. 2.1 % on 2026-12-07 with batch 24
    # added (a writer whose scene clauses and idioms the reader leaves uncertain: its first run not answered 7.7 %).
    # 2.5 % on 2026-12-07 (ninth session) with batches 29 and 30 added (first runs not answered 5.1 % and 4.9 %):
    # each older batch reads exactly as at the session's start, and the session's start reads 6 more of the moved
    # lines otherwise, so the rate rose with the data, not the reader
    assert differ / pairs < 0.03, f"{differ} of {pairs} read otherwise than their originals"
