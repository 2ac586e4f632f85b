"""What `kg build --store PATH` may write into, and the files beside a store that keep builds safe.

A build writes only into a path that is absent, an empty folder, or a store this tool made. A store made by
`kg build` carries a marker file (`MARKER`); a folder that holds only RocksDB's own files (`CURRENT`, a
`MANIFEST-*`, …) is an Oxigraph store built before the marker existed and is adopted. Anything else — a file, a
folder of someone's documents — is refused, never deleted.

Beside the store `S` live `.S.lock` (held with flock for the whole build, so two builds cannot delete each
other's work), `.S.building-PID` (the store being written) and, for an instant during the swap, `.S.old-PID`
(the previous store). A build killed at the wrong moment can leave the last two behind; the next build removes
them if they are ours (marked, or RocksDB's files only) and their PID is no longer alive.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from kg import __version__
from kg.errors import KGError
from kg.paths import STORE_MARKER, make_folder

MARKER = STORE_MARKER
TOOL = "ekg-toolkit"
#: Files RocksDB (hence Oxigraph) keeps in its folder: a folder holding only these is a store.
ROCKSDB_FILE = re.compile(r"CURRENT|IDENTITY|LOCK|LOG(\.old\.\d+)?|(MANIFEST|OPTIONS)-\d+|\d+\.(sst|log|blob|dbtmp)")
LEFTOVER = re.compile(r"\.(?P<store>.+)\.(?P<what>building|old)-(?P<pid>\d+)")


def write_marker(folder: Path) -> None:
    """Mark `folder` as a store made by this tool; written to a temporary name and renamed, so it is whole."""
    body = {"tool": TOOL, "version": __version__, "built": datetime.now(UTC).isoformat(timespec="seconds")}
    part = folder / f".{MARKER}.part"
    part.write_text(json.dumps(body) + "\n", encoding="utf-8")
    os.replace(part, folder / MARKER)


def has_marker(folder: Path) -> bool:
    try:
        body = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(body, dict) and body.get("tool") == TOOL


def looks_like_oxigraph(folder: Path) -> bool:
    """A store from before the marker: RocksDB's CURRENT and a MANIFEST, and no file RocksDB would not write."""
    names = [p.name for p in folder.iterdir()]
    return (
        "CURRENT" in names
        and any(n.startswith("MANIFEST-") for n in names)
        and all(ROCKSDB_FILE.fullmatch(n) for n in names)
    )


def is_ours(folder: Path) -> bool:
    return folder.is_dir() and not folder.is_symlink() and (has_marker(folder) or looks_like_oxigraph(folder))


def check_target(path: Path) -> None:
    """Refuse a --store that is neither absent, nor an empty folder, nor a store this tool made."""
    if not path.exists() and not path.is_symlink():
        return
    if path.is_symlink():
        raise KGError(
            f"--store {path} is a symbolic link; a build replaces the folder it names, so pass the "
            f"folder it points to ({path.resolve()})"
        )
    if not path.is_dir():
        raise KGError(
            f"--store {path} is a file, not a store; refusing to replace it (pass an absent path, an "
            "empty folder or a store kg built)"
        )
    try:
        empty = not any(path.iterdir())
    except OSError as exc:
        raise KGError(f"--store {path}: cannot read the folder ({exc.strerror})") from exc
    if not empty and not is_ours(path):
        raise KGError(
            f"--store {path} is a folder that is not a kg store (no {MARKER}); refusing to replace "
            "its contents (pass an absent path, an empty folder or a store kg built)"
        )


def prepare_parent(path: Path) -> None:
    """Create the store's parent folder, turning 'cannot' into a clear error instead of RocksDB's IO error."""
    make_folder(path.parent, f"--store {path}")


def lock_path(path: Path) -> Path:
    """The lock file of the store at `path`, beside the folder `path` really names (links resolved), so every
    spelling of one store (a link, a relative path, `..`) meets at one lock."""
    real = path.resolve()
    return real.with_name(f".{real.name}.lock")


@contextmanager
def build_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive flock on `.S.lock` beside the store; a second build is refused, naming the first."""
    lock = lock_path(path)
    try:
        fh = lock.open("a+", encoding="utf-8")
    except OSError as exc:
        raise KGError(f"--store {path}: cannot create the lock file {lock} ({exc.strerror or exc})") from exc
    with fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EACCES):
                raise KGError(f"--store {path}: cannot lock {lock} ({exc.strerror})") from exc
            fh.seek(0)
            holder = fh.read().strip() or "unknown"
            if holder.startswith(SERVER_MARK):
                pid = holder.removeprefix(SERVER_MARK).strip()
                raise KGError(
                    f"a server (kg serve or kg mcp, PID {pid}) is serving {path}; stop it before building, so it "
                    "never serves a mix of the old and the new store"
                ) from exc
            raise KGError(f"another kg build (PID {holder}) is writing {path}; wait for it to finish") from exc
        fh.seek(0)
        fh.truncate()
        fh.write(f"{os.getpid()}\n")
        fh.flush()
        try:
            yield
        finally:
            fh.seek(0)
            fh.truncate()
            fh.flush()


SERVER_MARK = "serve"


@contextmanager
def serve_lock(path: Path) -> Iterator[None]:
    """Hold a shared flock on `.S.lock` while a server reads the store: builds (which need it exclusively) are
    refused meanwhile, other servers are not. Where the lock file cannot be created no build can run either
    (it needs the same file), so the store is served without it."""
    try:
        fh = lock_path(path).open("a+", encoding="utf-8")
    except OSError:
        yield
        return
    with fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError as exc:
            fh.seek(0)
            holder = fh.read().strip() or "unknown"
            raise KGError(f"a kg build (PID {holder}) is writing {path}; serve it once the build is done") from exc
        fh.seek(0)
        fh.truncate()
        fh.write(f"{SERVER_MARK} {os.getpid()}\n")
        fh.flush()
        yield


def running_build(pid: int) -> bool:
    """Whether a leftover's PID may be a build still at work: alive, and not this process (which holds the lock
    and has not started writing, so a folder with its PID is an earlier process's that had the same PID)."""
    return pid != os.getpid() and pid_alive(pid)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def leftovers(path: Path) -> list[tuple[str, Path]]:
    """('building' | 'old', folder) for every leftover of a dead build beside the store that is ours."""
    out = []
    for sibling in sorted(path.parent.glob(f".{path.name}.*-*")):
        match = LEFTOVER.fullmatch(sibling.name)
        if match and match["store"] == path.name and not running_build(int(match["pid"])) and is_ours(sibling):
            out.append((match["what"], sibling))
    return out


def recover_and_clean(path: Path) -> list[Path]:
    """Remove dead builds' leftovers; the removed folders. If a build died between its two renames (the
    store gone, its previous copy still `.S.old-PID`), that copy is put back first, so nothing is lost."""
    found = leftovers(path)
    if not path.exists():
        olds = sorted((p for what, p in found if what == "old"), key=lambda p: p.stat().st_mtime)
        if olds:
            olds[-1].rename(path)
            found = [(w, p) for w, p in found if p != olds[-1]]
    for _, folder in found:
        shutil.rmtree(folder, ignore_errors=True)
    return [p for _, p in found]
