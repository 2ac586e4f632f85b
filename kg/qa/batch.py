"""`kg ask --batch`: one answer object per input line, in order; a malformed line or a failing question gets an
error record (`"error": …`, no `abstain`), is reported, and the batch goes on.

With `jobs` > 1 the lines are answered in that many worker processes, each with its own answerer over its own
store handle (a store handle must not cross a fork), in chunks whose results are written back in input order,
so the output is byte for byte the one process's.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import IO, Any, TextIO

from kg.errors import KGError
from kg.paths import read_input
from kg.qa.answer import Answerer
from kg.text import valid_unicode

#: Lines a worker answers per task: enough to amortise the hand-over, few enough that the last task leaves the
#: other workers idle only briefly.
CHUNK = 16
#: Below this many lines per worker, forking and opening costs more than it saves.
MIN_LINES_PER_JOB = 64

#: How each answer outcome is counted: three kinds of abstention stay apart.
COUNTED = {"answer": "answered", "absent": "proved absent", "uncertain": "uncertain", "unsupported": "unsupported"}

Line = tuple[int, str | None, str | None]
#: One line's outcome: its kind (a key of the counts), its JSON record, and what to report on stderr (or None).
Outcome = tuple[str, str, str | None]


def read_questions(path: Path) -> list[Line]:
    """(line number, question, problem) per non-blank line; exactly one of question/problem is set."""
    data = read_input(path, "batch file")
    return [(number, *parse_line(raw)) for number, raw in enumerate(data.split(b"\n"), start=1) if raw.strip()]


def parse_line(raw: bytes) -> tuple[str | None, str | None]:
    """(question, None) for a well-formed line, else (None, what is wrong with it)."""
    try:
        obj = json.loads(raw.decode("utf-8"))
    except ValueError as exc:  # not UTF-8, not JSON, or an integer past Python's 4,300-digit conversion limit
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


def outcome(answerer: Answerer, src: Path, line: Line) -> Outcome:
    number, question, problem = line
    if problem is not None:
        record, kind = error_record(number, None, f"line {number}: {problem}"), "malformed"
        report = f"{src}:{number}: {problem}; skipped"
    else:
        try:
            answer = answerer.ask(question or "")
        except KGError as exc:
            record, kind, report = error_record(number, question, str(exc)), "failed", f"{src}:{number}: {exc}"
        else:
            record, kind, report = answer.to_json(), COUNTED[answer.outcome], None
    return kind, json.dumps(record, ensure_ascii=False) + "\n", report


def run_batch(
    open_answerer: Callable[[], Answerer],
    src: Path,
    open_out: Callable[[], AbstractContextManager[IO[str]]],
    errors: TextIO | None = None,
    jobs: int = 1,
) -> dict[str, int]:
    """Answer every line, in order; a malformed line or a failing question gets an error record and the batch
    goes on (the caller decides the exit status from the counts). The output is opened once the data is, so
    a store that will not open leaves an existing output file as it was."""
    errors = errors or sys.stderr
    lines = read_questions(src)
    jobs = max(1, min(jobs, len(lines) // MIN_LINES_PER_JOB))
    counts = {"lines": len(lines), **dict.fromkeys(COUNTED.values(), 0), "malformed": 0, "failed": 0}
    results = outcomes(open_answerer, src, lines, jobs)
    first = next(results, None)  # the data opens (or fails) before the output is touched
    with open_out() as out:
        for kind, record, report in itertools.chain([first] if first else [], results):
            counts[kind] += 1
            if report:
                print(report, file=errors)
            out.write(record)
    return counts


def outcomes(open_answerer: Callable[[], Answerer], src: Path, lines: list[Line], jobs: int) -> Iterator[Outcome]:
    """Each line's outcome in input order, from this process or from `jobs` forked workers."""
    if jobs == 1:
        answerer = open_answerer()
        yield from (outcome(answerer, src, line) for line in lines)
        return
    chunks = (lines[i : i + CHUNK] for i in range(0, len(lines), CHUNK))
    with worker_context().Pool(jobs, _start_worker, (open_answerer, src)) as pool:
        for done in pool.imap(_answer_chunk, chunks):
            yield from done


def worker_context() -> multiprocessing.context.BaseContext:
    """Workers forked from this process when it runs no other thread, as the CLI does (it opens no store
    before its workers start): a fork then copies no lock another thread may hold. Otherwise (a store's
    threads, a server's) they are forked from a fresh server process that has imported the answering code."""
    if single_threaded():
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context


def single_threaded() -> bool:
    """Whether this process runs one thread: the kernel's count, which sees a native library's threads too
    (False where it cannot be read)."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


_worker: tuple[Answerer | KGError, Path] | None = None


def _start_worker(open_answerer: Callable[[], Answerer], src: Path) -> None:
    """Open this worker's own answerer; a failure to open is kept and raised by its first task, in the parent
    (an initializer that raises would only be restarted by the pool, again and again)."""
    global _worker
    try:
        answerer: Answerer | KGError = open_answerer()
    except KGError as exc:
        answerer = exc
    _worker = (answerer, src)


def _answer_chunk(lines: list[Line]) -> list[Outcome]:
    assert _worker is not None, "the pool starts every worker with _start_worker"
    answerer, src = _worker
    if isinstance(answerer, KGError):
        raise answerer
    return [outcome(answerer, src, line) for line in lines]
