"""The CLI end to end on a real store: answers with citations, proofs, and clean errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.cli import main
from kg.qa.answer import Answer, Answerer
from kg.qa.question import Question


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ask_prints_answer_evidence_intent_and_explain(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "ask", "Who wrote the Market Research Report for ActionGenie?", "--store", str(store), "--explain"
    )
    assert code == 0
    assert "eid_13fdff84" in out and "onforcex_market_research_report" in out
    assert "intent: document_author" in out and "SELECT" in out


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ("", "the question is empty"),
        ("   ", "the question is empty"),
        ("x" * 1_000_000, "limit"),
        ("Who wrote ActionGenie's Market Research Report, the one SearchFlow cites?", "names 2 products"),
    ],
)
def test_invalid_questions_are_errors_not_abstentions(
    store: Path, capsys: pytest.CaptureFixture[str], question: str, message: str
) -> None:
    """As the README says: an empty (or otherwise invalid) question is `kg: error:` and exit 2; an abstention
    would claim a proof about the data."""
    code, out, err = run(capsys, "ask", question, "--store", str(store), "--json")
    assert code == 2 and out == "" and err.startswith("kg: error: invalid question: ") and message in err
    assert "Traceback" not in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("SELECT * WHERE { ?s ?p ?o } ; DROP ALL", "unsupported question"),
        ("Who wrote the Market Research Report for NoSuchProduct?", "names no product"),
    ],
)
def test_bad_questions_abstain_with_a_reason(
    store: Path, capsys: pytest.CaptureFixture[str], question: str, reason: str
) -> None:
    code, out, err = run(capsys, "ask", question, "--store", str(store), "--json")
    got = json.loads(out)
    assert code == 4 and got["abstain"] is True and reason in got["reason"] and got["outcome"] == "unsupported"
    assert "Traceback" not in err


def test_batch_reports_malformed_lines_and_answers_the_rest(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.jsonl"
    src.write_bytes(
        b'{"question": "Who wrote the Market Research Report for ActionGenie?", "id": 1}\n'
        b"{not json\n\xff\xfe\n"
        b'{"question": 42}\n'
        b'{"question": "What is the meaning of life?"}\n'
    )
    out = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "ask", "--batch", str(src), "--out", str(out), "--store", str(store))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert code == 2 and len(rows) == 5
    assert rows[0]["answer"] == ["eid_13fdff84"] and rows[0]["citations"]
    assert [r.get("abstain") for r in rows] == [False, None, None, None, True]  # errors never abstain
    assert [r.get("line") for r in rows[1:4]] == [2, 3, 4] and all(r["error"] for r in rows[1:4])
    assert "in.jsonl:2" in err and "in.jsonl:3" in err and "in.jsonl:4" in err
    assert err.strip().splitlines()[-1] == (
        "kg: error: 3 of 5 lines got an error record instead of an answer (0 failed, 3 malformed)"
    )
    assert set(rows[4]) >= {"question", "type", "abstain", "answer", "citations", "intent", "proof"}


def test_broken_sparql_is_a_one_line_error(store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.rq"
    bad.write_text("SELECT ?x WHERE { ?x ")
    code, _, err = run(capsys, "query", str(bad), "--store", str(store))
    assert code == 2 and err.startswith("kg: error: SPARQL syntax error") and "Traceback" not in err


def test_query_formats(store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    q = tmp_path / "q.rq"
    q.write_text("SELECT (COUNT(*) AS ?n) WHERE { ?d a ekg:Document }")
    code, out, _ = run(capsys, "query", str(q), "--store", str(store), "--product", "ActionGenie", "--format", "json")
    assert code == 0 and json.loads(out)["results"]["bindings"][0]["n"]["value"] == "15"
    code, out, _ = run(capsys, "query", str(q), "--store", str(store), "--product", "ActionGenie", "--format", "csv")
    assert out.splitlines() == ["n", "15"]


def test_missing_store_and_missing_data_say_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "stats", "--store", str(tmp_path / "nope"))
    assert code == 2 and "run `kg build` first" in err
    code, _, err = run(capsys, "build", "--herb", str(tmp_path / "nowhere"), "--store", str(tmp_path / "s"))
    assert code == 2 and "HERB_DATA" in err and "--herb" in err


def test_stats_and_export(store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", "--store", str(store))
    assert code == 0 and "graph:ActionGenie" in out and "ekg:SlackMessage" in out
    dump = tmp_path / "all.nq"
    code, _, _ = run(capsys, "export", "--store", str(store), "--out", str(dump))
    first = dump.open().readline()
    assert code == 0 and first.rstrip().endswith("> .") and "<https://w3id.org/ekg/graph/" in first


def test_fallback_needs_the_search_index(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys, "ask", "--fallback", "What did the team say about Kafka in ActionGenie?", "--store", str(store)
    )
    assert code == 2 and "run `kg index`" in err


def test_fallback_is_asked_only_when_no_intent_covers_the_question(answerer: Answerer) -> None:
    asked: list[str] = []

    def fallback(q: Question) -> Answer | None:
        asked.append(q.text)
        return None

    wired = Answerer(answerer.backend, fallback=fallback)
    assert not wired.ask("Who wrote the Market Research Report for ActionGenie?").abstain
    got = wired.ask("What did the team say about Kafka in ActionGenie?")
    assert got.abstain and asked == ["What did the team say about Kafka in ActionGenie?"]


def test_intents_and_rules_are_listed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "intents")
    assert code == 0 and "doc_authors_reviewers" in out and "sparql/doc_authors_reviewers.ask.rq" in out
    code, out, _ = run(capsys, "rules")
    assert code == 0 and "conversations" in out and "bug-lifecycle" in out


def test_eval_scores_writes_per_question_results_and_separates_noise(
    store: Path, herb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tiny QA folder: one answerable question, two unanswerables, one of them also listed as answerable."""
    doc_q = "Who wrote the Market Research Report for ActionGenie?"
    qa = tmp_path / "qa"
    qa.mkdir()
    (qa / "answerable.jsonl").write_text(
        json.dumps(
            {
                "product": "ActionGenie",
                "question": doc_q,
                "type": "person",
                "ground_truth": ["eid_13fdff84"],
                "citations": ["onforcex_market_research_report"],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    (qa / "unanswerable.jsonl").write_text(
        "\n".join(
            json.dumps(q)
            for q in [
                {"product": "ActionGenie", "question": doc_q},
                {
                    "product": "ActionGenie",
                    "question": (
                        "Find employee IDs of QA Specialists who reviewed the Product Vision Document for ActionGenie?"
                    ),
                },
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    results = tmp_path / "results.jsonl"
    code, out, _ = run(
        capsys,
        "eval",
        "--store",
        str(store),
        "--qa",
        str(qa),
        "--herb",
        str(herb),
        "--results",
        str(results),
        "--no-baseline",
    )
    assert code == 0
    rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    assert [r["split"] for r in rows] == ["answerable", "unanswerable", "unanswerable"]
    assert rows[0]["score"] == 1.0 and rows[0]["citation_recall"] == 1.0
    assert [r["also_answerable"] for r in rows[1:]] == [True, False]
    table = {line.split("  ")[0]: line.split() for line in out.splitlines() if line and line[0].isalpha()}
    assert table["unanswerable"][1:3] == ["2", "0.500"]  # the duplicate is answered, the other abstains
    assert table["unanswerable, not also answerable"][4:6] == ["1", "1.000"]


#: One question per outcome, and the exit status `kg ask` gives it.
OUTCOME_QUESTIONS = {
    "answer": ("Who wrote the Market Research Report for ActionGenie?", 0),
    "absent": ("Find employee IDs of QA Specialists who reviewed the Product Vision Document for ActionGenie?", 0),
    "uncertain": ("Which company has the most unresolved bugs in ActionGenie? Only the reopened ones.", 3),
    "unsupported": ("What is the meaning of life in ActionGenie?", 4),
}


@pytest.mark.parametrize("outcome", list(OUTCOME_QUESTIONS))
def test_exit_status_says_the_outcome(store: Path, capsys: pytest.CaptureFixture[str], outcome: str) -> None:
    question, status = OUTCOME_QUESTIONS[outcome]
    code, out, _ = run(capsys, "ask", question, "--store", str(store), "--json")
    assert (json.loads(out)["outcome"], code) == (outcome, status)


def test_a_batch_counts_each_outcome_and_exits_with_the_worst(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    for kept, status in ((["answer", "absent"], 0), (["answer", "uncertain"], 3), (list(OUTCOME_QUESTIONS), 4)):
        src.write_text("".join(json.dumps({"question": OUTCOME_QUESTIONS[k][0]}) + "\n" for k in kept))
        code, _, err = run(capsys, "ask", "--batch", str(src), "--out", str(out), "--store", str(store))
        assert code == status, err
    assert err.strip() == ("4 lines, 1 answered, 1 proved absent, 1 uncertain, 1 unsupported, 0 malformed, 0 failed")


def test_a_product_slip_is_unsupported_and_offers_the_product(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typo = "Which engineer resolved the most bugs in VizFroce?"
    code, out, _ = run(capsys, "ask", typo, "--store", str(store))
    assert code == 4 and "did you mean VizForce?" in out
    assert "1. Which engineer resolved the most bugs in VizForce?" in out
    code, out, _ = run(capsys, "ask", typo, "--store", str(store), "--pick", "1", "--json")
    assert code == 0 and json.loads(out)["outcome"] == "answer"
    code, out, _ = run(
        capsys, "ask", "Which engineer resolved the most bugs in VizFroce's graph?", "--store", str(store)
    )
    assert code == 4 and "1. Which engineer resolved the most bugs in VizForce's graph?" in out


def test_a_company_slip_is_uncertain_and_offers_the_company(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typo = "Which bugs reported by TechCorpp in ActionGenie are still unresolved?"
    code, out, _ = run(capsys, "ask", typo, "--store", str(store))
    assert code == 3 and "did you mean TechCorp?" in out  # answered without the company, it would mislead
    assert "1. Which bugs reported by TechCorp in ActionGenie are still unresolved?" in out
    code, out, _ = run(capsys, "ask", typo, "--store", str(store), "--pick", "1", "--json")
    assert code == 0 and json.loads(out)["outcome"] == "answer"


def test_no_dev_question_has_a_name_slip(herb: Path, answerer: Answerer) -> None:
    """A real word is never taken for a slip of a name ("collaboration" is not "CollaborationForce")."""
    from kg.qa.spelling import name_slips

    questions = [
        json.loads(line)["question"] for path in sorted((herb / "qa" / "dev").glob("*.jsonl")) for line in path.open()
    ]
    names = [*answerer.vocabulary.products.values(), *answerer.vocabulary.companies.values()]
    assert len(questions) > 500
    assert {q: s for q in questions if (s := name_slips(q, names))} == {}
