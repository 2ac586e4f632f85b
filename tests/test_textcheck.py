"""A proof of absence checked against the product's own text (kg/qa/textcheck.py), on the real store and index."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode

from kg.qa.answer import Answerer
from kg.qa.intents import choose
from kg.qa.question import parse
from kg.qa.textcheck import Slots, TextChecker, slots_of, speaks_of
from kg.query.sparql import EmbeddedStore
from kg.search.index import build_index

PRODUCT = "ActionGenie"
XSD_DT = NamedNode("http://www.w3.org/2001/XMLSchema#dateTime")


@pytest.fixture(scope="module")
def indexed(store: Path, herb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's store seen from its own folder, with one product's search index beside it (the session's
    other answerers keep a store with no index)."""
    here = tmp_path_factory.mktemp("textcheck") / "store"
    here.symlink_to(store, target_is_directory=True)
    build_index(here, herb, [PRODUCT], use_dense=False, progress=False)
    return here


def test_every_evidence_cue_must_stand_in_one_sentence() -> None:
    """A bug thread's "fails due to network issues ... before giving up" speaks of no feature dropped for the
    bugs it introduced: the cues stand in one sentence, but the feature subject does not."""
    text = (
        "To fix this, I implemented a retry mechanism with exponential backoff for the submission requests. "
        "This ensures that if a submission fails due to network issues, it will automatically retry a few times "
        "before giving up."
    )
    dropped = Slots(frozenset({"not_added", "introduced_bugs"}), frozenset(), frozenset(), ())
    assert speaks_of(text, dropped)
    assert not speaks_of(text, Slots(dropped.cues | {"feature"}, frozenset(), frozenset(), ()))


def test_slot_words_may_stand_beside_the_cue_sentence_but_not_further() -> None:
    slots = Slots(frozenset({"reverted"}), frozenset({"anomaly", "detect"}), frozenset(), ())
    assert speaks_of("The anomaly detection PR broke the build. We reverted it.", slots)
    assert not speaks_of("The anomaly detection PR is up. Docs next. Lunch? We reverted it.", slots)


@pytest.mark.slow
def test_a_true_absence_keeps_its_proof_and_says_which_check_it_passed(indexed: Path) -> None:
    """HERB's unanswerable question names a topic its artifacts discuss; no passage says the feature was
    delayed for security and added later, so the proof stands."""
    got = Answerer(EmbeddedStore(indexed)).ask(
        f"What features were temporarily delayed due to security concerns but eventually added to {PRODUCT}?"
    )
    assert got.outcome == "absent" and got.proof is not None
    check = got.proof["textcheck"]
    assert check["ran"] and check["check"].startswith("passed: none of the 50 best search hits")
    assert "delayed" in check["check"] and "security" in check["check"]


@pytest.mark.slow
def test_the_check_finds_the_artifacts_a_missed_rule_would_have_typed(indexed: Path) -> None:
    """Run as if the proof had found nothing (a rule that missed, a replica lacking quads): the product's bug
    threads speak of unresolved bugs, so the answer would be uncertain, citing them."""
    answerer = Answerer(EmbeddedStore(indexed))
    q = parse(
        f"Find the name of company that has the maximum number of unresolved bugs in {PRODUCT}?", answerer.vocabulary
    )
    winner = choose(q, answerer.labels(PRODUCT)).winner
    assert winner is not None and winner.complete
    check = TextChecker(indexed).check(q, winner.bindings or {})
    assert not check.stands and check.ran and 1 <= len(check.matches) <= 5
    assert "unresolved" in check.check


def test_without_an_index_the_proof_says_the_check_could_not_run(answerer: Answerer) -> None:
    """The session's store has no search index: the proof stands, and says the text was not checked."""
    got = answerer.ask(f"Find employee IDs of QA Specialists who reviewed the Product Vision Document for {PRODUCT}?")
    assert got.outcome == "absent" and got.proof is not None
    assert got.proof["textcheck"]["ran"] is False
    assert "could not run" in got.proof["textcheck"]["check"] and "kg index" in got.proof["textcheck"]["check"]


@pytest.mark.slow
def test_a_proof_at_a_time_reads_only_the_artifacts_written_by_then(indexed: Path) -> None:
    """What an artifact says was not yet so before it was written: the same reading's matches all fall away
    for a time before the product's first artifact, and all stay for a time after its last."""
    answerer = Answerer(EmbeddedStore(indexed))
    q = parse(
        f"Find the name of company that has the maximum number of unresolved bugs in {PRODUCT}?", answerer.vocabulary
    )
    winner = choose(q, answerer.labels(PRODUCT)).winner
    assert winner is not None
    checker = TextChecker(indexed, EmbeddedStore(indexed))
    now = checker.check(q, winner.bindings or {})
    after = checker.check(q, {**(winner.bindings or {}), "asOf": Literal("2100-01-01T00:00:00", datatype=XSD_DT)})
    before = checker.check(q, {**(winner.bindings or {}), "asOf": Literal("2000-01-01T00:00:00", datatype=XSD_DT)})
    assert after.matches == now.matches and now.matches
    assert before.stands and before.ran and "were all written after 2000-01-01T00:00:00" in before.check


def test_a_named_bug_is_the_subject_not_a_bug_introduced(answerer: Answerer) -> None:
    """ "the state of the X bug" asks for a state of a bug, not for bugs some change introduced: the text check
    has no evidence cue to look for (the word "bug" alone is in every bug thread)."""
    q = parse("What is the state of the Token Expiry Mismanagement bug in ConnectForce?", answerer.vocabulary)
    assert slots_of(q, {}).cues == frozenset()
    q = parse("Which features were dropped because they introduced bugs in ConnectForce?", answerer.vocabulary)
    assert "introduced_bugs" in slots_of(q, {}).cues


def test_a_listing_needs_its_kind_named_beside_the_evidence() -> None:
    """An ontology listing's proof ("which PRs were reverted": none) is checked with the listed kind's words: "the
    permissions have since been reverted" speaks of no reverted pull request."""
    slots = Slots(frozenset({"reverted"}), frozenset(), frozenset(), (), frozenset({"pr", "pull request"}))
    assert not speaks_of("The permissions have since been reverted to their intended settings.", slots)
    assert speaks_of("We reverted both pull requests after the outage.", slots)
    assert speaks_of("That PR was reverted yesterday.", slots)


@pytest.mark.slow
def test_an_ontology_readings_proof_is_checked_against_the_text(indexed: Path) -> None:
    """A proof from the ontology reader ("which documents did eid_… author": none typed) goes through the same
    check as a table row's, with the person as the topic and the listed kind's words; the check it passed is in
    the proof, and an answer that does not stand is uncertain, never absent."""
    answerer = Answerer(EmbeddedStore(indexed))
    team = answerer.ask(f"Who are the QA Specialists on the {PRODUCT} team?").answer
    assert isinstance(team, list) and team
    got = [answerer.ask(f"Which {PRODUCT} documents did {eid} author?") for eid in team]
    checked = [a for a in got if (a.proof or a.unheld or {}).get("textcheck")]
    assert checked, "no QA Specialist of the product without a document: pick another role"
    for answer in checked:
        check = (answer.proof or answer.unheld or {})["textcheck"]
        assert check["ran"] and "authored" in check["check"] and "document" in check["check"]
        assert answer.outcome == ("absent" if check["check"].startswith("passed") else "uncertain")
        assert (answer.proof is None) == (answer.outcome == "uncertain")  # an unheld proof is no proof
