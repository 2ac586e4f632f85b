"""Audit of the names HERB's document ids carry, on every product (the artifacts, never the questions).

    python bench/audit_code_names.py            # print the audit as Markdown
    python bench/audit_code_names.py --write    # and replace its section of docs/rules/documents.md

A document id names its product before the document kind, version words aside (`prox_market_research_report_final`,
`latest_aix_market_research_report`). For each product, every such name and what the rules make of it: the
product's own name, a former name (rule product-rename), a code name (rule product-code-names, as the text
spells it), or no name (too short, an English word as written). A code name two products share is listed: the
question reader takes it for neither.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from audit_rules import HERB, ROOT, write

from kg.ingest.herb import Organisation, load_organisation, load_product, product_names
from kg.ingest.rules import RuleContext, run_rules
from kg.ingest.rules.prs import CODE_NAME_MIN, code_names, id_name
from kg.text import normalise

PAGE = "docs/rules/documents.md"
BEGIN, END = "<!-- code-names:begin (bench/audit_code_names.py --write) -->", "<!-- code-names:end -->"
HEAD = "| product | name in document ids | documents | read as | example id |\n|---|---|---:|---|---|"


def id_names(ctx: RuleContext) -> dict[str, list[str]]:
    """Each name the product's document ids carry, with those documents' ids."""
    out: dict[str, list[str]] = defaultdict(list)
    for doc in ctx.records("documents"):
        if name := id_name(doc["id"], str(doc.get("type", ""))):
            out[name].append(doc["id"])
    return dict(out)


def reading(name: str, ctx: RuleContext, codes: dict[str, str]) -> str:
    """What the rules make of one name of the product's document ids."""
    former = {f.casefold(): f for f in ctx.facts.get("product-rename", [])}
    if name == ctx.product.name.casefold():
        return "the product's name"
    if name in former:
        return f"former name {former[name]!r} (product-rename)"
    if name in codes:
        return f"**code name {codes[name]!r}** (product-code-names)"
    return "too short" if len(name) < CODE_NAME_MIN else "an English word as written: no name"


def product_rows(herb: Path, org: Organisation, product: str) -> tuple[list[str], dict[str, str]]:
    """The product's table rows, and its code names (normalised -> as spelled)."""
    ctx = RuleContext(load_product(herb, product), org)
    run_rules(ctx, ["product-rename"])
    codes = {normalise(spelling): spelling for spelling in code_names(ctx)}
    rows = [
        f"| {product} | `{name}` | {len(ids)} | {reading(name, ctx, codes)} | `{ids[0]}` |"
        for name, ids in sorted(id_names(ctx).items())
    ]
    return rows, codes


def audit(herb: Path) -> str:
    org = load_organisation(herb)
    rows: list[str] = []
    owners: dict[str, list[str]] = defaultdict(list)
    for product in product_names(herb):
        product_table, codes = product_rows(herb, org, product)
        rows += product_table
        for key in codes:
            owners[key].append(product)
    with_codes = sorted({p for products in owners.values() for p in products})
    shared = {key: products for key, products in owners.items() if len(products) > 1}
    summary = (
        f"{len(owners)} code names on {len(with_codes)} of {len(product_names(herb))} products "
        f"({', '.join(with_codes) or 'none'}); shared by two products: "
        + (", ".join(f"{k} ({', '.join(v)})" for k, v in sorted(shared.items())) or "none")
        + "."
    )
    return "\n".join([summary, "", HEAD, *rows])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--herb", type=Path, default=HERB)
    parser.add_argument("--write", action="store_true", help=f"replace the audit section of {PAGE}")
    args = parser.parse_args(argv)
    body = audit(args.herb)
    print(body)
    if args.write:
        write(ROOT / PAGE, body, (BEGIN, END), "Names in document ids: audit on all 30 products")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
