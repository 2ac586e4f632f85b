"""Bug threads read as they happen, on a bug channel written here: an explicit component outranks the title's
"in Y" (R4); a report naming no component takes the one later messages name (R5); the assignee is the one asked,
not the one thanked; a resolution goes to the bug its root cause and PR describe; a reopen thread can reassign
the bug (R6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.ingest.herb import Organisation, Product
from kg.ingest.rules import RuleContext, run_rules
from kg.ingest.rules.bugs import BugRecord, bug_records

CHANNEL = "bug-ann-Demo"
ANN, BOB, CAT, DAN, EVE = (f"eid_0000000{i}" for i in range(1, 6))
NAMES = {ANN: "Ann Lee", BOB: "Bob Stone", CAT: "Cat Moss", DAN: "Dan Reed", EVE: "Eve Park"}


def msg(mid: str, author: str, ts: str, text: str) -> dict:
    return {
        "id": mid,
        "Channel": {"name": CHANNEL, "channelID": "ch-1"},
        "Message": {"User": {"userId": author, "timestamp": ts, "text": text, "utterranceID": mid}},
    }


def pr(number: int, title: str, author: str) -> dict:
    return {
        "id": f"github_com_salesforce_Demo_pull_{number}",
        "link": f"https://github.com/salesforce/Demo/pull/{number}",
        "user": {"login": author},
        "title": title,
        "summary": "",
    }


SLACK = [
    msg("20260101-0-a0000", ANN, "2026-01-01T10:00:00", "Hi team, several customers are reporting issues with Demo."),
    msg(
        "20260101-1-a0001",
        ANN,
        "2026-01-01T10:01:00",
        "First up, we have 'Stale Rows in Export Screen'. This affects the Data Export Module and impacts "
        "CUST-0001. @eid_00000002, can you take this one?",
    ),
    msg(
        "20260101-2-a0002",
        ANN,
        "2026-01-01T10:02:00",
        "Thanks, @eid_00000002! Next, there's 'XSS in Report Scheduling Service Module'. It is a vulnerability "
        "in the Data Export Module, impacting CUST-0002.",
    ),
    msg("20260101-3-a0003", ANN, "2026-01-01T10:03:00", "@eid_00000003, can you handle this one?"),
    msg("20260101-4-a0004", CAT, "2026-01-01T10:04:00", "On it!"),
    msg(
        "20260101-5-a0005",
        ANN,
        "2026-01-01T10:05:00",
        "Lastly, we have 'Traffic Misclassification in the Detector'. The detector flags benign endpoint "
        "behaviors as malicious for CUST-0001. @eid_00000003, this one's also for you.",
    ),
    msg(
        "20260101-6-a0006",
        CAT,
        "2026-01-01T10:06:00",
        "Sure, I'll dive into the Threat Detection Engine and see what's flagging them.",
    ),
    msg(
        "20260101-7-a0007",
        ANN,
        "2026-01-01T10:07:00",
        "Also, there's 'Improper Input Validation in API Requests'. This affects the Threat Detection Engine for "
        "CUST-0002. @eid_00000003, you're on this too.",
    ),
    # a resolution whose opening words fit the other bug better; its root cause and PR name its own bug
    msg(
        "20260105-0-b0000",
        CAT,
        "2026-01-05T09:00:00",
        "Hi team, the bug about incorrect classification of API endpoint behaviors has been resolved. See "
        "https://github.com/salesforce/Demo/pull/11",
    ),
    msg(
        "20260105-1-b0001",
        CAT,
        "2026-01-05T09:01:00",
        "The root cause was an outdated model flagging benign endpoint behaviors as malicious.",
    ),
    msg(
        "20260107-0-c0000",
        ANN,
        "2026-01-07T09:00:00",
        "Hi team, the customer has reopened the 'Traffic Misclassification in the Detector' bug. 😕",
    ),
    msg("20260107-1-c0001", CAT, "2026-01-07T09:01:00", "Odd. Dan knows the detector better than I do."),
    msg("20260107-2-c0002", DAN, "2026-01-07T09:02:00", "I can take another look at it."),
    msg("20260107-3-c0003", ANN, "2026-01-07T09:03:00", "Thanks, Dan! I'll reassign the bug to you."),
]
PRS = [pr(11, "Correct Endpoint Behavior Classification in the Detector", CAT)]
ORG = Organisation(
    employees={eid: {"name": name, "role": "Engineer"} for eid, name in NAMES.items()},
    customers={"CUST-0001": {"id": "CUST-0001", "company": "Acme"}, "CUST-0002": {"id": "CUST-0002"}},
    org_tree=[],
)


@pytest.fixture(scope="module")
def bugs() -> dict[str, BugRecord]:
    product = Product("Demo", Path("Demo.json"), list(NAMES), [], {"slack": SLACK, "prs": PRS})
    ctx = RuleContext(product, ORG)
    run_rules(ctx, ["conversations", "bug-reports", "bug-components", "bug-lifecycle"])
    return {b.title: b for b in bug_records(ctx)}


def test_an_explicit_component_outranks_the_titles_in_y_and_the_title_founds_none(bugs: dict) -> None:
    assert bugs["XSS in Report Scheduling Service Module"].component == "Data Export Module"
    assert bugs["Stale Rows in Export Screen"].component == "Data Export Module"
    assert "Report Scheduling Service Module" not in {b.component for b in bugs.values()}


def test_a_report_naming_no_component_takes_the_one_the_assignees_reply_names(bugs: dict) -> None:
    assert bugs["Traffic Misclassification in the Detector"].component == "Threat Detection Engine"


def test_the_assignee_is_the_one_asked_not_the_one_thanked(bugs: dict) -> None:
    assert bugs["Stale Rows in Export Screen"].assignee == BOB
    assert (
        bugs["XSS in Report Scheduling Service Module"].assignee == CAT
    )  # asked in the follow-up, not Bob thanked before


def test_a_resolution_goes_to_the_bug_its_root_cause_and_pr_describe(bugs: dict) -> None:
    misclassified, weak = (
        bugs["Traffic Misclassification in the Detector"],
        bugs["Improper Input Validation in API Requests"],
    )
    assert [e.kind for e in misclassified.events][:3] == ["reported", "assigned", "resolved"]
    assert [str(p.value).rsplit("_", 1)[-1] for p in misclassified.fixes] == ["11"]
    assert weak.state == "ekg:Open" and not weak.fixes


def test_a_reopened_bug_is_reassigned_to_whom_the_thread_hands_it(bugs: dict) -> None:
    reopened = bugs["Traffic Misclassification in the Detector"]
    assert reopened.assignee == DAN
    assert [(e.kind, e.agent) for e in reopened.events][-2:] == [("reopened", ANN), ("reassigned", DAN)]
    assert reopened.state == "ekg:Reopened"


def test_a_reopen_the_customer_made_is_the_customers(bugs: dict) -> None:
    """ "The customer has reopened 'X'": the bug's own customer reopened it, the poster only said so."""
    reopened = bugs["Traffic Misclassification in the Detector"]
    step = next(e for e in reopened.events if e.kind == "reopened")
    assert step.customer == reopened.customer == "CUST-0001"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hi team, the 'X' bug has been reopened by CUST-0046. 😕", "CUST-0046"),
        ("Hi team, customer CUST-0046 has reopened the bug 'X'.", "CUST-0046"),
        ("Hi team, the bug titled 'X' has been reopened by the customer. 🚨", "CUST-0001"),
        ("Hi team, the 'X' bug has been reopened. 😕 Customer CUST-0062 is still experiencing delays.", None),
    ],
)
def test_who_reopened_is_whom_the_message_says(text: str, expected: str | None) -> None:
    from kg.ingest.rules.bugs import BugRecord, reopener

    assert reopener(text, BugRecord(report=None, title="X", customer="CUST-0001", assignee=None)) == expected  # type: ignore[arg-type]
