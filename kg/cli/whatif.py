"""The what-if side of `kg ask` and `kg query` (`--with FILE`, `--without FILE`): a scratch copy of the product's
graph, never the real store (kg/query/whatif.py, kg/qa/whatif.py)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

from kg.errors import KGError
from kg.paths import store_path
from kg.qa.answer import Answer
from kg.qa.whatif import WhatIf, ask_what_if
from kg.query.sparql import EmbeddedStore
from kg.query.whatif import ScratchStore


def files(args: argparse.Namespace) -> tuple[list[Path], list[Path]]:
    if args.endpoint or getattr(args, "deployment", None):
        raise KGError(
            "--with / --without build a scratch copy of the local store's graphs; "
            "they cannot be combined with --endpoint or --deployment"
        )
    return [Path(f) for f in args.with_files], [Path(f) for f in args.without_files]


def scratch_store(args: argparse.Namespace) -> ScratchStore:
    with_files, without_files = files(args)
    if not args.product:
        raise KGError("--with / --without need --product: the scratch copy is that product's graph")
    return ScratchStore(EmbeddedStore(store_path(args.store)), args.product, with_files, without_files)


def run_ask_what_if(args: argparse.Namespace, render_answer: Callable[[Answer, bool], str]) -> int:
    """`kg ask --with/--without`, each answer printed by `render_answer` (kg ask's own printer)."""
    with_files, without_files = files(args)
    if args.batch:
        raise KGError("--with / --without answer one question, not --batch")
    result = ask_what_if(EmbeddedStore(store_path(args.store)), args.question, with_files, without_files)
    if args.json:
        out = {
            **result.answer.to_json(),
            "what_if": {"scratch_items": result.scratch_items, "dropped_items": result.dropped_items},
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print(render(result, args.explain, render_answer))
    return 0


def is_marked(line: str, marked: set[str]) -> bool:
    item = line.strip()
    return item.startswith("- ") and (item in marked or item.removeprefix("- ") in marked)


def render(result: WhatIf, explain: bool, render_answer: Callable[[Answer, bool], str]) -> str:
    marked = set(result.scratch_items)
    lines = [
        f"{line}   [what-if: only with the scratch facts]" if is_marked(line, marked) else line
        for line in render_answer(result.answer, explain).splitlines()
    ]
    if result.dropped_items:
        lines.append("what-if: the scratch facts took away " + ", ".join(result.dropped_items))
    if not result.scratch_items and not result.dropped_items:
        lines.append("what-if: same answer as over the real graph")
    return "\n".join(lines)
