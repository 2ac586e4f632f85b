"""Where the store and the datasets live: flag, then environment variable, then default."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
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


def output_path(flag: str | os.PathLike) -> Path:
    """A file the user asked to be written (--out, --results). Every command treats it alike: missing parent
    folders are created; a folder, or a place that cannot be written, is an error before any work is done."""
    path = Path(flag)
    if path.is_dir():
        raise KGError(f"{path} is a folder, not a file to write; name a file (in it, or elsewhere)")
    make_folder(path.parent, f"cannot write {path}")
    return path


@contextmanager
def open_output(flag: str | os.PathLike, binary: bool = False) -> Iterator[IO]:
    """`output_path`, opened for writing (UTF-8 text unless `binary`)."""
    path = output_path(flag)
    try:
        fh = path.open("wb") if binary else path.open("w", encoding="utf-8")
    except OSError as exc:
        raise KGError(f"cannot write {path} ({exc.strerror or exc})") from exc
    with fh:
        yield fh
