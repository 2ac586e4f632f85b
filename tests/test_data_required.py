"""A test whose data is missing skips with where to get it; under EKG_REQUIRE_DATA=1 (set by .ci/run) it fails, so
CI cannot pass without the data it claims to test on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NEEDS_HERB = "tests/test_asof.py::test_timed_answers_serialise"
NEEDS_ERB = "tests/test_alignment_erb.py::test_all_nine_sources_and_36_pairs_align"


def run_without_data(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    absent = str(tmp_path / "absent")
    inherited = {k: v for k, v in os.environ.items() if k != "EKG_REQUIRE_DATA"}
    environ = {**inherited, "HERB_DATA": absent, "ERB_DATA": absent, **env}
    cmd = [sys.executable, "-m", "pytest", "-q", "-rs", "-n", "0", "-p", "no:cacheprovider", NEEDS_HERB, NEEDS_ERB]
    return subprocess.run(cmd, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=300)


def test_without_the_data_a_user_gets_skips_naming_where_to_get_it(tmp_path: Path) -> None:
    result = run_without_data(tmp_path)
    assert result.returncode == 0, result.stdout
    assert "2 skipped" in result.stdout
    for words in ("HERB data not found: download it from https://", "set HERB_DATA=PATH", "ERB_DATA=PATH"):
        assert words in result.stdout
    assert "EKG_REQUIRE_DATA=1 turns this skip into a failure" in result.stdout


def test_with_ekg_require_data_a_missing_dataset_fails(tmp_path: Path) -> None:
    result = run_without_data(tmp_path, EKG_REQUIRE_DATA="1")
    assert result.returncode == 1, result.stdout
    assert "2 errors" in result.stdout and "skipped" not in result.stdout


def test_ci_requires_the_data() -> None:
    assert "EKG_REQUIRE_DATA=1 .venv/bin/pytest" in (ROOT / ".ci" / "run").read_text()
