"""Previous-release rules on a small product written here: the kickoff thread and its document series, QA
findings (reply and inline forms), customer issues and praise, previous-version demos."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulekit import objects, rule_triples

from kg.ingest.herb import Organisation, Product
from kg.ingest.rules import RuleContext
from kg.namespaces import ID, expand

RULES = [
    "release-kickoff",
    "release-qa-issues",
    "release-customer-issues",
    "release-customer-praise",
    "release-demos",
]
DOCS = "https://sf-internal.slack.com/archives/docs/"


def slack(mid: str, text: str, user: str, channel: str = "planning-oldAIX") -> dict[str, Any]:
    day = mid[:8]
    ts = f"{day[:4]}-{day[4:6]}-{day[6:]}T10:{int(mid.split('-')[1]):02d}:00"
    return {
        "id": mid,
        "Channel": {"name": channel, "channelID": f"ch-{channel}"},
        "Message": {"User": {"userId": user, "timestamp": ts, "text": text, "utterranceID": mid}},
        "ThreadReplies": [],
    }


def doc(doc_id: str, kind: str, author: str) -> dict[str, Any]:
    return {"id": doc_id, "content": "c", "type": kind, "author": author, "document_link": DOCS + doc_id}


def context(with_kickoff: bool = True) -> RuleContext:
    kickoff = (
        [
            slack(
                "20260101-0-k0",
                "Hi team, let's start by reviewing the documents from the last release. Here are "
                f"the <{DOCS}oldprox_market_research_report_final|a> and "
                f"<{DOCS}latest_oldaix_market_research_report|b>.",
                "eid_11111111",
            ),
            slack("20260101-1-k1", "Thanks, I'll read them.", "eid_22222222"),
        ]
        if with_kickoff
        else []
    )
    artifacts = {
        "slack": [
            *kickoff,
            slack(
                "20260102-0-q0",
                "Hi team, QA team found some issues in the last release of oldAIX. The report "
                "came from QA Specialist eid_33333333.",
                "eid_22222222",
            ),
            slack("20260102-1-q1", "What exactly did they find?", "eid_11111111"),
            slack("20260102-2-q2", "Search results are slow under load.", "eid_22222222"),
            slack(
                "20260103-0-r0",
                "Hi team, QA team found some issues in the last release of oldAIX. The QA "
                "specialist, eid_44444444, reported that exports fail for large files.",
                "eid_22222222",
            ),
            slack(
                "20260104-0-c0",
                "Hi team, one of the common issues reported for oldAIX is that the setup is "
                "complex. This was reported by Customer ID: CUST-0001.",
                "eid_22222222",
            ),
            slack(
                "20260105-0-p0",
                "Hi team, several customers have reported positive things about oldAIX.",
                "eid_22222222",
            ),
            slack("20260105-1-p1", "Customer CUST-0002 mentioned that dashboards are fast.", "eid_11111111"),
            slack(
                "20260106-0-d0",
                "@here a quick video of our last release https://sf-internal.slack.com/archives/OldProX/demo_1",
                "eid_55555555",
                "develop-x-New",
            ),
            slack(
                "20260107-0-d1",
                "@here our product demo https://sf-internal.slack.com/archives/New/demo_1",
                "eid_66666666",
                "develop-x-New",
            ),
        ],
        "documents": [
            doc("oldprox_market_research_report_final", "Market Research Report", "eid_77777777"),
            doc("latest_oldaix_market_research_report", "Market Research Report", "eid_88888888"),
            doc("oldprox_system_design_document_final", "System Design Document", "eid_99999999"),
            doc("new_oldaix_system_design_document", "System Design Document", "eid_aaaaaaaa"),
        ],
        "urls": [
            {
                "id": "demo_art",
                "link": "https://sf-internal.slack.com/archives/OldProX/demo_1",
                "description": "A demo video of OldProX.",
            }
        ],
    }
    product = Product("New", Path("New.json"), [], [], artifacts)
    return RuleContext(product, Organisation({}, {}, []))


def triples(ctx: RuleContext) -> set[tuple[str, str, str]]:
    return rule_triples(ctx, RULES)


def subjects(found: set[tuple[str, str, str]], prop: str, obj: str) -> set[str]:
    return {s for s, p, o in found if p == expand(prop) and o == obj}


RELEASE = "release/New/previous"


def test_kickoff_makes_the_release_with_its_document_series() -> None:
    found = triples(context())
    assert objects(found, "product/New", "ekg:previousRelease") == {ID + RELEASE}
    assert objects(found, RELEASE, "ekg:releaseDocument") == {
        ID + "artifact/oldprox_market_research_report_final",
        ID + "artifact/latest_oldaix_market_research_report",
        ID + "artifact/oldprox_system_design_document_final",
    }  # same series, not linked; `new_…` is not in it
    assert objects(found, RELEASE, "prov:wasDerivedFrom") == {
        ID + "artifact/20260101-0-k0",
        ID + "artifact/20260101-1-k1",
    }


def test_authors_and_qa_specialists_contribute() -> None:
    found = triples(context())
    contributors = subjects(found, "ekg:contributedTo", ID + RELEASE)
    assert contributors == {f"person/eid_{d * 8}" for d in "3479"} | {"person/eid_88888888"}
    qa = "contribution/New/eid_44444444/qa/20260103-0-r0"
    assert objects(found, qa, "ekg:contributionKind") == {expand("ekg:QATesting")}


def test_qa_findings_reply_and_inline() -> None:
    found = triples(context())
    assert objects(found, "release-feedback/New/20260102-0-q0", "ekg:text") == {"Search results are slow under load."}
    assert objects(found, "release-feedback/New/20260103-0-r0", "ekg:text") == {"Exports fail for large files."}
    assert objects(found, "release-feedback/New/20260102-0-q0", "ekg:reportedBy") == {ID + "person/eid_33333333"}


def test_customer_issue_and_praise() -> None:
    found = triples(context())
    issue = "release-feedback/New/20260104-0-c0"
    assert objects(found, issue, "ekg:text") == {"the setup is complex."}
    assert objects(found, issue, "ekg:reportedBy") == {ID + "customer/CUST-0001"}
    praise = "release-feedback/New/20260105-1-p1/CUST-0002"
    assert objects(found, praise, "ekg:feedbackKind") == {expand("ekg:CustomerPraise")}
    assert objects(found, praise, "prov:wasDerivedFrom") == {
        ID + "artifact/20260105-0-p0",
        ID + "artifact/20260105-1-p1",
    }


def test_only_previous_version_demos() -> None:
    found = triples(context())
    demos = objects(found, RELEASE, "ekg:demoLink")
    assert demos == {ID + "demo/New/https-sf-internal-slack-com-archives-oldprox-demo-1"}
    demo = demos.pop().removeprefix(ID)
    assert objects(found, demo, "ekg:sharedBy") == {ID + "person/eid_55555555"}
    assert objects(found, demo, "prov:wasDerivedFrom") == {
        ID + "artifact/20260106-0-d0",
        ID + "artifact/demo_art",
    }


def test_no_kickoff_no_release_facts() -> None:
    assert triples(context(with_kickoff=False)) == set()
