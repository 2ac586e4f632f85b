"""Where the store and the datasets live: flag, then environment variable, then default."""

from __future__ import annotations

import os
from pathlib import Path

from kg.errors import DataNotFound

HERB_URL = (
    "https://huggingface.co/datasets/Salesforce/HERB "
    "(or the data/ folder of github.com/SalesforceAIResearch/HERB)"
)
ERB_URL = "https://github.com/onyx-dot-app/EnterpriseRAG-Bench (generated_data/sources/)"


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
        raise DataNotFound(f"No answerable.jsonl in {path}. Pass --qa DIR holding answerable.jsonl "
                           "and unanswerable.jsonl.")
    return path
