"""Debian programs some tests need (Java for HermiT, Graphviz, headless Chromium, Virtuoso): a test that lacks
one skips with the command that installs it, except under CI (`CI` set), which installs them all (.ci/run) and
must run those tests, so there a missing program fails the test instead."""

from __future__ import annotations

import os
import shutil

import pytest

#: program on PATH -> the Debian package that installs it
PACKAGES = {
    "java": "default-jre-headless",
    "dot": "graphviz",
    "chromium": "chromium",
    "chromedriver": "chromium-driver",
    "virtuoso-t": "virtuoso-opensource",
    "isql-vt": "virtuoso-opensource",
}
#: what each program is for, in the skip message
PURPOSES = {
    "java": "Java (HermiT runs on it)",
    "dot": "Graphviz `dot`",
    "chromium": "headless Chromium",
    "chromedriver": "Chromium's driver",
    "virtuoso-t": "Virtuoso",
    "isql-vt": "Virtuoso's isql",
}


def install_command(programs: list[str]) -> str:
    return "apt-get install " + " ".join(dict.fromkeys(PACKAGES[p] for p in programs))


def missing_reason(*programs: str) -> str | None:
    """Why a test cannot run here (the missing programs and how to install them), or None."""
    missing = [p for p in programs if shutil.which(p) is None]
    if not missing:
        return None
    names = ", ".join(PURPOSES[p] for p in missing)
    return f"{names} not installed (Debian: {install_command(missing)})"


def require(*programs: str) -> None:
    """Skip the running test when a program is missing; under CI, fail it."""
    if reason := missing_reason(*programs):
        if os.environ.get("CI"):
            pytest.fail(f"CI must run this test: {reason}")
        pytest.skip(reason)


def needs(*programs: str) -> pytest.MarkDecorator:
    """A mark for a test that needs these programs (see `require`)."""
    reason = missing_reason(*programs)
    return pytest.mark.skipif(reason is not None and not os.environ.get("CI"), reason=reason or "")
