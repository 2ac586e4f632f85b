"""Where the store and the datasets live: flag, then environment variable, then default."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

from kg.errors import DataNotFound, KGError

HERB_URL = (
    "https://huggingface.co/datasets/Salesforce/HERB (or the data/ folder of github.com/SalesforceAIResearch/HERB)"
)
ERB_URL = "https://github.com/onyx-dot-app/EnterpriseRAG-Bench (generated_data/sources/)"

#: The package's folder; an installed wheel holds `sparql/`, `ontology/` and `mappings/` in it (setup.py).
PACKAGE = Path(__file__).resolve().parent
#: A checkout: the edit sources `sparql/`, `ontology/`, `mappings/` sit beside the package.
PROJECT = PACKAGE.parent


def resource(name: str) -> Path:
    """A folder the package ships (`sparql`, `ontology`, `mappings`): inside it when installed, else the checkout's,
    so `kg` finds its queries, ontology and mapping from any working folder."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else PROJECT / name


def store_path(flag: str | os.PathLike | None = None) -> Path:
    """The on-disk store: --store, else $KG_STORE, else ./.kg/store."""
    return Path(flag or os.environ.get("KG_STORE") or ".kg/store")


def _shared(name: str) -> Path:
    return Path.cwd().parent / "shared" / name


def herb_path(flag: str | os.PathLike | None = None) -> Path:
    """HERB's data folder (holding products/ and metadata/): --herb, else $HERB_DATA, else ../shared/herb."""
    path = Path(flag or os.environ.get("HERB_DATA") or _shared("herb"))
    if not (path / "products").is_dir():
        raise DataNotFound(
            f"HERB data not found at {path} (expected {path / 'products'}/). "
            f"Download HERB from {HERB_URL} and pass --herb PATH or set HERB_DATA=PATH."
        )
    return path


def erb_path(flag: str | os.PathLike | None = None) -> Path:
    """EnterpriseRAG-Bench source sample: --erb, else $ERB_DATA, else ../shared/erb."""
    path = Path(flag or os.environ.get("ERB_DATA") or _shared("erb"))
    if not path.is_dir():
        raise DataNotFound(
            f"ERB data not found at {path}. Get the source documents from {ERB_URL} "
            "and pass --erb PATH or set ERB_DATA=PATH."
        )
    return path


def qa_path(flag: str | os.PathLike | None = None, herb_flag: str | os.PathLike | None = None) -> Path:
    """The question folder for `kg eval`: --qa, else <HERB>/qa/dev."""
    path = Path(flag) if flag else herb_path(herb_flag) / "qa" / "dev"
    if not (path / "answerable.jsonl").is_file():
        raise DataNotFound(
            f"No answerable.jsonl in {path}. Pass --qa DIR holding answerable.jsonl and unanswerable.jsonl."
        )
    return path


def make_folder(folder: Path, purpose: str) -> None:
    """Create `folder` (and its parents) for `purpose`, or say in one line why it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as exc:
        raise KGError(f"{purpose}: {folder} or a folder above it is a file, not a folder") from exc
    except OSError as exc:
        raise KGError(f"{purpose}: cannot create the folder {folder} ({exc.strerror or exc})") from exc
    if not os.access(folder, os.W_OK | os.X_OK):
        raise KGError(f"{purpose}: the folder {folder} is not writable")


#: The marker file `kg build` writes into a store (kg/ingest/storepath.py); no output file is written beside it.
STORE_MARKER = "kg-store.json"
#: The extended attribute on a file `open_output` wrote: its inode, size and modification time then. A file whose
#: attribute still matches is kg's own output, untouched since, and is replaced without --force; any other is not.
WRITTEN = "user.ekg.written"
#: The largest input file the CLI reads (a query, a batch, an access or rewordings file): 64 MiB.
MAX_INPUT = 64 << 20


def read_input(flag: str | os.PathLike, what: str, limit: int = MAX_INPUT) -> bytes:
    """The bytes of an input file the user named: the one way the CLI reads one. It is opened without waiting
    (a FIFO never hangs) and checked on the descriptor it was opened as (no swap after a check): a regular file
    of at most `limit` bytes, else a one-line KGError."""
    path = Path(flag)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        reason = "no such file" if isinstance(exc, FileNotFoundError) else exc.strerror or str(exc)
        raise KGError(f"cannot read {what} {path}: {reason}") from exc
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a pipe, device or socket"
            raise KGError(f"{what} {path} is {kind}, not a regular file")
        data = fh.read(limit + 1) if info.st_size <= limit else b""
    if info.st_size > limit or len(data) > limit:
        raise KGError(f"{what} {path} is larger than the {limit >> 20} MiB an input file may be")
    return data


def read_input_text(flag: str | os.PathLike, what: str, limit: int = MAX_INPUT) -> str:
    """`read_input` decoded as UTF-8; a file that is not UTF-8 is a one-line KGError naming the first bad byte."""
    data = read_input(flag, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise KGError(f"{what} {flag} is not UTF-8 text (line {line}, byte {exc.start})") from None


def store_holding(folder: Path) -> Path | None:
    """The store `folder` is in (or is), by its marker or RocksDB's CURRENT and IDENTITY files; None when none."""
    for place in (folder, *folder.parents):
        if (place / STORE_MARKER).is_file() or ((place / "CURRENT").is_file() and (place / "IDENTITY").is_file()):
            return place
    return None


def output_path(flag: str | os.PathLike, force: bool = False) -> Path:
    """A file the user asked to be written (--out, --results), checked before any work is done: not a folder,
    not a symbolic link, not inside a store, and not an existing file unless it is kg's own untouched output
    (`WRITTEN`) or `force`; missing parent folders are created."""
    path = Path(flag)
    if path.is_symlink():
        raise KGError(f"{path} is a symbolic link; refusing to write through it (name the file itself)")
    if path.is_dir():
        raise KGError(f"{path} is a folder, not a file to write; name a file (in it, or elsewhere)")
    existing = next(p for p in (path.parent, *path.parent.parents) if p.exists())
    store = store_holding(existing.resolve())  # before any folder is made: never one inside a store
    if store is not None:
        raise KGError(f"{path} is inside the store {store}; refusing to write there (name a file elsewhere)")
    if path.exists() and not force and not ours(path):
        raise KGError(f"{path} exists and is not kg's own untouched output; refusing to overwrite it (--force does)")
    make_folder(path.parent, f"cannot write {path}")
    return path


def stamp(fd: int) -> bytes:
    """What `WRITTEN` holds for the open file: its inode, size and modification time."""
    info = os.fstat(fd)
    return f"{info.st_ino} {info.st_size} {info.st_mtime_ns}".encode()


def ours(path: Path) -> bool:
    """Whether `path` is a file `open_output` wrote and no one has changed since (a link never is)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and os.getxattr(fd, WRITTEN) == stamp(fd)
    except OSError:  # no attribute, or a file system without them
        return False
    finally:
        os.close(fd)


@contextmanager
def open_output(flag: str | os.PathLike, binary: bool = False, force: bool = False) -> Iterator[IO]:
    """The one way the CLI writes a file: `output_path`'s checks, then a new temporary file beside it (never
    through a link), moved into place only once written whole. Without `force` the move refuses a file that
    appeared meanwhile; with it, or over kg's own untouched output, the file is replaced (a link in its place is
    refused, not followed). The new file is stamped as kg's (`WRITTEN`)."""
    path = output_path(flag, force)
    force = force or ours(path)
    part = path.with_name(f".{path.name}.part-{os.getpid()}")
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
    except OSError as exc:
        raise KGError(f"cannot write {path} ({exc.strerror or exc})") from exc
    try:
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8") as fh:
            yield fh
            fh.flush()
            with suppress(OSError):  # a file system without extended attributes: only --force replaces it
                os.setxattr(fh.fileno(), WRITTEN, stamp(fh.fileno()))
        _put_in_place(part, path, force)
    finally:
        part.unlink(missing_ok=True)


def _put_in_place(part: Path, path: Path, force: bool) -> None:
    """Move the written file to its name: a hard link (refused if the name exists) unless `force` replaces it."""
    try:
        if force:
            if path.is_symlink():
                raise KGError(f"{path} became a symbolic link; refusing to replace it")
            os.replace(part, path)
        else:
            os.link(part, path, follow_symlinks=False)
    except FileExistsError:
        raise KGError(f"{path} appeared while it was written; refusing to overwrite it (pass --force)") from None
    except OSError as exc:
        raise KGError(f"cannot write {path} ({exc.strerror or exc})") from exc


def index_dir(store: Path) -> Path:
    """The search index lives beside the store: `<store>.search/`."""
    return store.with_name(store.name + ".search")
