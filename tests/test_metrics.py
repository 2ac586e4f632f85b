"""The scoring functions `kg eval` uses."""

from kg.qa.metrics import recall_precision, set_f1, token_f1


def test_set_f1_normalises_case_and_whitespace() -> None:
    assert set_f1(["TechCorp ", "bluewave"], ["techcorp", "BlueWave"]) == 1.0
    assert set_f1(["a"], ["a", "b"]) == 2 * 1 * 0.5 / 1.5
    assert set_f1([], ["a"]) == 0.0


def test_token_f1_is_squad_style() -> None:
    assert token_f1("The fix, merged.", "fix merged") == 1.0
    assert round(token_f1("add caching layer", "caching"), 3) == 0.5
    assert token_f1("", "x") == 0.0


def test_citation_recall_and_precision() -> None:
    assert recall_precision(["a", "b", "c", "d"], ["a", "b"]) == (1.0, 0.5)
    assert recall_precision([], ["a"]) == (0.0, None)
