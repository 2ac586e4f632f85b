"""`kg ask --batch`: one answer object per input line, in order; a malformed line or a failing question gets an
error record (`"error": …`, no `abstain`), is reported, and the batch goes on."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from kg.errors import KGError
from kg.ingest.herb import valid_unicode
from kg.qa.answer import Answerer


def read_questions(path: Path) -> Iterator[tuple[int, str | None, str | None]]:
    """(line number, question, problem) per non-blank line; exactly one of question/problem is set."""
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise KGError(f"cannot read {path}: {exc}") from exc
    with fh:
        for number, raw in enumerate(fh, start=1):
            if raw.strip():
                question, problem = parse_line(raw)
                yield number, question, problem


def parse_line(raw: bytes) -> tuple[str | None, str | None]:
    """(question, None) for a well-formed line, else (None, what is wrong with it)."""
    try:
        obj = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"not a JSON object ({exc})"
    except RecursionError:
        return None, "not a JSON object (nested too deeply)"
    if not isinstance(obj, dict) or not isinstance(obj.get("question"), str):
        return None, 'expected an object with a string "question"'
    if not valid_unicode(obj["question"]):
        return None, "the question is not valid Unicode (it holds a lone surrogate escape such as \\ud800)"
    return obj["question"], None


def error_record(number: int, question: str | None, message: str) -> dict[str, Any]:
    """A line that got no answer: an error, never an abstention (an abstention claims a proof of absence)."""
    return {"line": number, "question": question, "error": message}


def run_batch(answerer: Answerer, src: Path, out: TextIO, errors: TextIO | None = None) -> dict[str, int]:
    """Answer every line, in order; a malformed line or a failing question gets an error record and the batch
    goes on (the caller decides the exit status from the counts)."""
    errors = errors or sys.stderr
    counts = {"lines": 0, "answered": 0, "abstained": 0, "malformed": 0, "failed": 0}
    for number, question, problem in read_questions(src):
        counts["lines"] += 1
        if problem is not None:
            counts["malformed"] += 1
            print(f"{src}:{number}: {problem}; skipped", file=errors)
            record = error_record(number, None, f"line {number}: {problem}")
        else:
            try:
                answer = answerer.ask(question or "")
            except KGError as exc:
                counts["failed"] += 1
                print(f"{src}:{number}: {exc}", file=errors)
                record = error_record(number, question, str(exc))
            else:
                counts["abstained" if answer.abstain else "answered"] += 1
                record = answer.to_json()
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return counts
