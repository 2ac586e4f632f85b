"""`kg build --store PATH` loses no data: it writes only into an absent path, an empty folder or a store kg made;
it holds a lock beside the store; it removes dead builds' leftovers; and it reports the quads the store holds."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from herbkit import SOURCE, artifacts_per_kind, herb_layout, small_product
from pyoxigraph import Store

from kg.cli import main
from kg.errors import KGError
from kg.ingest.build import build
from kg.ingest.storepath import MARKER, has_marker, lock_path


@pytest.fixture(scope="module")
def small_herb(herb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return herb_layout(tmp_path_factory.mktemp("herb"), herb, {SOURCE: small_product(herb)})


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def tree(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def dead_pid() -> int:
    """The PID of a process that has exited (and been reaped), so no live process holds it."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_folder_of_user_files_is_refused_and_left_untouched(
    small_herb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "thesis"
    (folder / "chapters").mkdir(parents=True)
    (folder / "notes.txt").write_text("precious")
    (folder / "chapters" / "one.md").write_text("# One")
    before = tree(folder)
    code, _, err = run(capsys, "build", "--quiet", "--herb", small_herb, "--store", folder)
    assert code == 2 and err.startswith("kg: error: --store") and "not a kg store" in err
    assert tree(folder) == before
    assert not list(tmp_path.glob(".thesis.*-*")), "no temporary store is left beside it"


def test_a_file_is_refused_and_left_untouched(
    small_herb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# my project\n")
    code, _, err = run(capsys, "build", "--quiet", "--herb", small_herb, "--store", readme)
    assert code == 2 and "is a file, not a store" in err and "Traceback" not in err
    assert readme.read_text() == "# my project\n"


def test_a_folder_with_rocksdb_names_and_a_user_file_is_refused(small_herb: Path, tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    for name in ("CURRENT", "MANIFEST-000005", "budget.xlsx"):
        (folder / name).write_text("x")
    with pytest.raises(KGError, match="not a kg store"):
        build(small_herb, folder, progress=False)
    assert sorted(p.name for p in folder.iterdir()) == ["CURRENT", "MANIFEST-000005", "budget.xlsx"]


def test_an_empty_folder_and_an_absent_path_are_built_and_marked(small_herb: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    build(small_herb, empty, progress=False)
    absent = tmp_path / "deep" / "new" / "store"
    build(small_herb, absent, progress=False)
    assert has_marker(empty) and has_marker(absent)
    assert artifacts_per_kind(empty) == artifacts_per_kind(absent)


def test_a_store_from_before_the_marker_is_adopted_and_marked(small_herb: Path, tmp_path: Path) -> None:
    path = tmp_path / "store"
    build(small_herb, path, progress=False)
    (path / MARKER).unlink()
    assert not has_marker(path)
    report = build(small_herb, path, progress=False)
    assert has_marker(path) and report.quads == len(Store.read_only(str(path)))


def test_quad_count_is_what_the_store_export_and_stats_hold(
    small_herb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The mapping and the rules emit some quads more than once (a channel's type and label per message);
    the store keeps each once, and the build reports that number."""
    path = tmp_path / "store"
    code, out, _ = run(capsys, "build", "--quiet", "--herb", small_herb, "--store", path)
    reported = int(out.split("(")[-1].split(" quads")[0].replace(",", ""))
    held = len(Store.read_only(str(path)))
    code_e, exported, _ = run(capsys, "export", "--store", path)
    code_s, stats, _ = run(capsys, "stats", "--store", path)
    per_graph = stats.split("instances per class")[0].splitlines()
    stats_total = sum(int(line.split()[-1].replace(",", "")) for line in per_graph if line.startswith("graph:"))
    assert code == code_e == code_s == 0
    assert reported == held == len(exported.splitlines()) == stats_total


def test_unwritable_places_are_clear_errors(
    small_herb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    under_a_file = tmp_path / "file.txt"
    under_a_file.write_text("x")
    for target in (under_a_file / "store", Path("/proc/kg-no-such-place/store"), Path("/proc/kg-store")):
        code, _, err = run(capsys, "build", "--quiet", "--herb", small_herb, "--store", target)
        assert code == 2 and err.startswith(f"kg: error: --store {target}") and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1


def test_a_held_lock_refuses_the_build_naming_the_holder(small_herb: Path, tmp_path: Path) -> None:
    path = tmp_path / "store"
    build(small_herb, path, progress=False)
    before = tree(path)
    with lock_path(path).open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fh.write("4242\n")
        fh.flush()
        with pytest.raises(KGError, match=r"another kg build \(PID 4242\) is writing"):
            build(small_herb, path, progress=False)
    assert tree(path) == before
    build(small_herb, path, progress=False)


def test_two_builds_at_once_one_refused_and_the_store_whole(herb: Path, tmp_path: Path) -> None:
    """Two real `kg build` processes on one store: the second, started while the first writes its temporary
    store, is refused with the first's PID; the first completes and neither deletes the other's work."""
    text = (herb / "products" / f"{SOURCE}.json").read_text()
    src = herb_layout(tmp_path / "herb", herb, {f"{SOURCE}{i}": text for i in range(4)})
    path = tmp_path / "store"
    argv = [sys.executable, "-m", "kg", "build", "--quiet", "--herb", str(src), "--store", str(path)]
    first = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".store.building-*")) and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    second = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    _, first_err = first.communicate(timeout=300)
    assert first.returncode == 0, first_err
    assert second.returncode == 2 and f"another kg build (PID {first.pid}) is writing" in second.stderr
    assert "Traceback" not in second.stderr
    assert artifacts_per_kind(path, f"{SOURCE}3")["slack"] > 0
    assert not list(tmp_path.glob(".store.building-*"))


def test_dead_builds_leftovers_are_removed_and_others_kept(small_herb: Path, tmp_path: Path) -> None:
    path = tmp_path / "store"
    build(small_herb, path, progress=False)
    dead = dead_pid()
    old = tmp_path / f".store.old-{dead}"
    building = tmp_path / f".store.building-{dead}"
    shutil.copytree(path, old)
    shutil.copytree(path, building)
    alive = tmp_path / f".store.old-{os.getppid()}"
    shutil.copytree(path, alive)
    foreign = tmp_path / f".store.building-{dead_pid()}"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("not a store")
    build(small_herb, path, progress=False)
    assert not old.exists() and not building.exists()
    assert alive.exists(), "a leftover whose PID is alive may be a running build's: kept"
    assert (foreign / "mine.txt").read_text() == "not a store", "a folder that is not a store is never removed"


def test_a_build_killed_between_its_renames_gets_its_store_back(small_herb: Path, tmp_path: Path) -> None:
    """The store renamed aside, the new one never renamed in: the next build, even one that fails, restores it."""
    path = tmp_path / "store"
    build(small_herb, path, progress=False)
    before = artifacts_per_kind(path)
    path.rename(tmp_path / f".store.old-{dead_pid()}")
    broken = herb_layout(tmp_path / "broken", small_herb, {SOURCE: '{"team": [], "slack": ['})
    with pytest.raises(KGError, match="not valid JSON"):
        build(broken, path, progress=False)
    assert artifacts_per_kind(path) == before
    assert not list(tmp_path.glob(".store.old-*"))


def test_a_refused_or_failed_rebuild_leaves_the_previous_store(small_herb: Path, tmp_path: Path) -> None:
    path = tmp_path / "store"
    build(small_herb, path, progress=False)
    before = tree(path)
    deep = herb_layout(tmp_path / "deep", small_herb, {SOURCE: "[" * 100_000 + "]" * 100_000})
    with pytest.raises(KGError, match="nested too deeply"):
        build(deep, path, progress=False)
    assert tree(path) == before


def test_a_symbolic_link_is_refused_naming_its_target(small_herb: Path, tmp_path: Path) -> None:
    real = tmp_path / "real"
    build(small_herb, real, progress=False)
    link = tmp_path / "link"
    link.symlink_to(real)
    before = tree(real)
    with pytest.raises(KGError, match=f"symbolic link.*pass the folder it points to \\({real}\\)"):
        build(small_herb, link, progress=False)
    assert link.is_symlink() and tree(real) == before
