"""What every command prints besides tables: warnings in one style, progress on a terminal only, serialised
results that end with a newline, and options that make no sense in the chosen mode refused."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import BinaryIO

from kg.errors import KGError


def show_progress(quiet: bool = False) -> bool:
    """Progress bars only for a person watching: never with --quiet, never into a log file or a pipe."""
    return not quiet and sys.stderr.isatty()


def phase_printer(command: str) -> Callable[[str], None]:
    """A step line on standard error (`kg build: compacting the store (12.3 s)`) with the seconds since the
    command started, for the steps that run longer than a moment with no bar to move."""
    started = time.perf_counter()

    def phase(step: str) -> None:
        print(f"{command}: {step} ({time.perf_counter() - started:.1f} s)", file=sys.stderr, flush=True)

    return phase


def warn(message: str) -> None:
    """The one warning style (`kg: warning: ...`, as the logging set-up also writes them)."""
    print(f"kg: warning: {message}", file=sys.stderr)


def write_bytes(data: bytes, out: BinaryIO | None = None) -> None:
    """Serialised results (JSON, XML, CSV, N-Triples...) with a final newline, so a shell prompt or the next
    line of a log never sticks to the last line."""
    out = out or sys.stdout.buffer
    out.write(data if data.endswith(b"\n") else data + b"\n")
    out.flush()


def _given(args: argparse.Namespace, option: str) -> bool:
    return getattr(args, option, None) not in (None, False, [])


def _flag(option: str) -> str:
    return "--" + option.replace("_", "-")


def refuse_unused(args: argparse.Namespace, needs: dict[str, str]) -> None:
    """Raise when an option is given without the option it only works with (`{"out": "batch"}`: --out needs
    --batch): a silently ignored option hides a mistake."""
    for option, required in needs.items():
        if _given(args, option) and not _given(args, required):
            raise KGError(f"{_flag(option)} only works with {_flag(required)}")


def refuse_bad_jobs(jobs: int | None) -> None:
    """--jobs counts worker processes: 0 or fewer is a mistake, said before any work is done."""
    if jobs is not None and jobs < 1:
        raise KGError(f"--jobs {jobs}: give 1 or more worker processes")


def refuse_together(args: argparse.Namespace, pairs: list[tuple[str, str]]) -> None:
    """Raise when two options are given that cannot both take effect (`--explain` with `--batch`)."""
    for a, b in pairs:
        if _given(args, a) and _given(args, b):
            raise KGError(f"{_flag(a)} has no effect with {_flag(b)}")
