"""Feature and PR rules on a small product written here: a planning meeting, two sprint reviews, team PRs
shared in a develop channel, a revert, a held PR, a delayed merge and a product rename; then the feature
queries run over the resulting graph with the same finisher the QA layer uses."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, Quad, Store

from kg.ingest.herb import Organisation, Product
from kg.ingest.rules import RuleContext, run_rules
from kg.ingest.rules.features import (
    Segment,
    assigned_segment,
    change_summary,
    feature_name,
    label_of,
    listed_names,
    review_segments,
    same_feature,
    volunteers,
)
from kg.ingest.rules.prs import TeamPR, reason_of
from kg.namespaces import node, term
from kg.qa.answer import fold_rows
from kg.qa.intents import table
from kg.qa.intents.features import keep_best_features, keep_top_authors
from kg.qa.residue import resolve_feature
from kg.query.sparql import named_query, prefixed
from kg.text import feature_tokens

DEV = "develop-alice-Demo"
ALICE, BOB, CAROL, DAN = "eid_0000000a", "eid_0000000b", "eid_0000000c", "eid_0000000d"


def topic_bindings(phrase: str) -> dict:
    """A feature phrase's ?topic / ?ntok bindings, as a question without a graph's labels binds them."""
    return resolve_feature(phrase, None).bindings


def msg(mid: str, author: str, ts: str, text: str, channel: str = DEV) -> dict:
    return {
        "id": mid,
        "Channel": {"name": channel, "channelID": f"ch-{channel}"},
        "Message": {"User": {"userId": author, "timestamp": ts, "text": text, "utterranceID": mid}},
    }


def pr(number: int, title: str, summary: str, author: str, created: str, merged: bool, states: list[str]) -> dict:
    return {
        "id": f"github_com_salesforce_Demo_pull_{number}",
        "number": str(number),
        "title": title,
        "summary": summary,
        "link": f"https://github.com/salesforce/Demo/pull/{number}",
        "user": {"login": author},
        "merged": str(merged),
        "state": "closed" if merged else "open",
        "created_at": created,
        "reviews": [{"state": s, "user": {"login": DAN}} for s in states],
    }


def meeting(mid: str, date: str, lines: list[str]) -> dict:
    return {
        "id": mid,
        "date": date,
        "document_type": "product-planning",
        "transcript": "Attendees\nA, B\nTranscript\n" + "\n".join(lines),
    }


ERIN_1, ERIN_2 = "eid_0000000e", "eid_0000000f"
NAMES = {
    ALICE: "Alice Smith",
    BOB: "Bob Jones",
    CAROL: "Carol White",
    DAN: "Dan Brown",
    ERIN_1: "Erin Gray",
    ERIN_2: "Erin Gray",
}
ORG = Organisation({eid: {"name": name, "role": "Engineer"} for eid, name in NAMES.items()}, {}, [])
#: The planning meeting discusses three features; the sprint reviews below assign only the last two.
PLANNING = [
    "Dan Brown: Team, let's get started. We have three tasks: real-time alerts, integrating predictive "
    "analytics and expanding security measures.",
    "Dan Brown: Let's start with real-time alerts. Carol, any thoughts on the API?",
    "Carol White: Sure, Dan. We should consider WebSockets to push alerts to the dashboard.",
    "Erin Gray: I'll define a JSON format for these alerts.",
    "Bob Jones: And we should ensure the alerts are non-intrusive. What do you think?",
    "Dan Brown: Moving on to predictive analytics. Alice?",
    "Alice Smith: I'll train LSTM forecast models on history.",
    "Dan Brown: Next, expanding security measures.",
    "Bob Jones: I'll upgrade TLS to version 1.3.",
    "Dan Brown: Now, let's discuss task prioritization. Who leads the real-time alerts feature?",
    "Alice Smith: I can take the lead on the real-time alerts feature.",
]
MEETINGS = [
    meeting("product_dev_Demo_1", "2026-01-01T09:00:00", PLANNING),
    meeting(
        "product_dev_Demo_2",
        "2026-01-02T09:00:00",
        [
            "Dan Brown: Now, the pending tasks. Let's start with the task of integrating predictive analytics. Alice, "
            "you're on it.",
            "Alice Smith: The PR is 'Train LSTM Forecast Models'. I'll train LSTM forecast models on history.",
            "Dan Brown: Next, we have the task of expanding security measures. Bob, you're assigned.",
            "Bob Jones: I'll upgrade TLS to version 1.3 for transport encryption.",
        ],
    ),
    # Bob holds two topics here: a chart task of the analytics feature and the OAuth task of the security one
    meeting(
        "product_dev_Demo_3",
        "2026-01-10T09:00:00",
        [
            "Dan Brown: On to the pending tasks. First up, the task of integrating predictive analytics. Alice, the CI "
            "pipeline work is yours.",
            "Alice Smith: I'll align the LSTM pipeline with CI deployment.",
            "Dan Brown: Bob, you'll also build the forecast chart for the dashboard.",
            "Bob Jones: Got it, I'll handle this.",
            "Dan Brown: Lastly, the task of expanding security measures. Bob, the OAuth review is yours.",
            "Bob Jones: Got it, I'll handle this. I'll review the OAuth token flow and rotate secrets.",
            "Dan Brown: That wraps up our review. Alice, Bob, please confirm.",
            "Alice Smith: Got it, I'll handle this.",
        ],
    ),
]
PRS = [
    pr(
        1,
        "Train LSTM Forecast Models",
        "Train LSTM forecast models on historical data.",
        ALICE,
        "2026-01-03T10:00:00",
        True,
        ["APPROVED"],
    ),
    pr(
        2,
        "Upgrade TLS to 1.3",
        "Upgrade transport encryption to TLS 1.3.",
        BOB,
        "2026-01-04T10:00:00",
        False,
        ["CHANGES_REQUESTED"],
    ),
    pr(
        3,
        "Upgrade TLS to 1.3",
        "Upgrade transport encryption to TLS 1.3.",
        CAROL,
        "2026-01-05T10:00:00",
        True,
        ["APPROVED"],
    ),
    pr(
        4,
        "Revert PR# 3: Address Security Risks in TLS Upgrade",
        "This revert is needed due to security risks.",
        CAROL,
        "2026-01-06T10:00:00",
        True,
        ["APPROVED"],
    ),
    pr(
        5,
        "Align LSTM Pipeline with CI",
        "Align the LSTM pipeline with CI deployment.",
        ALICE,
        "2026-01-11T10:00:00",
        False,
        ["APPROVED"],
    ),
    pr(
        6,
        "Review OAuth Token Flow",
        "Review the OAuth token flow and rotate secrets.",
        BOB,
        "2026-01-12T10:00:00",
        False,
        ["APPROVED"],
    ),
    pr(7, "Outside work", "Not a team PR.", "EMP_123", "2026-01-12T11:00:00", True, ["APPROVED"]),
    pr(
        8,
        "Build Forecast Chart",
        "Build a forecast chart on the dashboard.",
        BOB,
        "2026-01-13T10:00:00",
        False,
        ["CHANGES_REQUESTED"],
    ),
    # approved, then closed without merging: not left to merge
    {
        **pr(
            9, "Export LSTM Forecasts", "Export LSTM forecast models.", DAN, "2026-01-15T10:00:00", False, ["APPROVED"]
        ),
        "state": "closed",
    },
]
SLACK = [
    msg(
        "20260101-0-rn000",
        ALICE,
        "2026-01-01T08:00:00",
        "@here I'd like to suggest renaming the product from DemoAIX to Demo. Thoughts?",
        "planning-Demo",
    ),
    msg("20260101-1-rn001", BOB, "2026-01-01T08:01:00", "Agreed!", "planning-Demo"),
    msg(
        "20260103-0-s1000",
        ALICE,
        "2026-01-03T10:05:00",
        "Hi team, please check my PR: https://github.com/salesforce/Demo/pull/1",
    ),
    msg("20260103-1-s1001", DAN, "2026-01-03T10:06:00", "LGTM, approved!"),
    msg(
        "20260105-0-s3000",
        CAROL,
        "2026-01-05T10:05:00",
        "Please review https://github.com/salesforce/Demo/pull/3 and https://github.com/salesforce/Demo/pull/2",
    ),
    msg(
        "20260106-0-d3000",
        DAN,
        "2026-01-06T09:00:00",
        "Hi team, PR# 3 might expose some security risks. Should we revert it?",
    ),
    msg("20260106-1-d3001", BOB, "2026-01-06T09:01:00", "Yes, let's revert."),
    msg("20260106-0-s4000", CAROL, "2026-01-06T10:05:00", "https://github.com/salesforce/Demo/pull/4"),
    msg("20260111-0-s5000", ALICE, "2026-01-11T10:05:00", "PR: https://github.com/salesforce/Demo/pull/5"),
    msg("20260112-0-s6000", BOB, "2026-01-12T10:05:00", "PR: https://github.com/salesforce/Demo/pull/6"),
    msg("20260112-1-s6001", DAN, "2026-01-12T10:06:00", "Also see https://github.com/salesforce/Demo/pull/7"),
    msg("20260113-0-s8000", BOB, "2026-01-13T10:05:00", "PR: https://github.com/salesforce/Demo/pull/8"),
    msg("20260115-0-s9000", DAN, "2026-01-15T10:05:00", "PR: https://github.com/salesforce/Demo/pull/9"),
    msg(
        "20260113-0-h6000",
        DAN,
        "2026-01-13T09:00:00",
        "Hi team, PR# 6 is approved but not merged yet. Given the change in product direction, do we need it?",
    ),
    msg(
        "20260114-0-m1000",
        DAN,
        "2026-01-14T09:00:00",
        "As part of our updated priorities, we've decided to move forward with merging PRs 1. @here",
    ),
]


@pytest.fixture(scope="module")
def store() -> Store:
    product = Product(
        "Demo", Path("Demo.json"), list(NAMES), [], {"slack": SLACK, "prs": PRS, "meeting_transcripts": MEETINGS}
    )
    ctx = RuleContext(product, ORG)
    run_rules(
        ctx,
        [
            "pr-review-conversation",
            "pr-revert",
            "pr-decision",
            "product-rename",
            "feature-tracks",
            "pr-change-summary",
            "feature-discussed",
        ],
    )
    s = Store()
    s.extend(Quad(*statement) for statement in ctx.out)  # in the default graph
    # the plain PR fields the declarative mapping adds (only what the queries read)
    for rec in PRS:
        subject = node("artifact", rec["id"])
        for p, o in (
            ("rdf:type", term("ekg:PullRequest")),
            ("dct:identifier", Literal(rec["id"])),
            ("ekg:url", Literal(rec["link"])),
            ("ekg:prState", Literal(rec["state"])),
            ("ekg:description", Literal(rec["summary"])),
            ("prov:wasAttributedTo", node("person", rec["user"]["login"])),
            (
                "ekg:merged",
                Literal(rec["merged"].lower(), datatype=NamedNode("http://www.w3.org/2001/XMLSchema#boolean")),
            ),
        ):
            s.add(_quad(subject, p, o))
        for i, review in enumerate(rec["reviews"]):
            rv = node("review", f"{rec['id']}/{i}")
            s.add(_quad(rv, "rdf:type", term("ekg:PullRequestReview")))
            s.add(_quad(rv, "ekg:reviewOf", subject))
            s.add(
                _quad(
                    rv,
                    "ekg:reviewState",
                    term("ekg:Approved" if review["state"] == "APPROVED" else "ekg:ChangesRequested"),
                )
            )
    for rec in SLACK + MEETINGS:
        s.add(_quad(node("artifact", rec["id"]), "dct:identifier", Literal(rec["id"])))
    return s


def _quad(s: NamedNode, p: str, o: NamedNode | Literal) -> Quad:
    return Quad(s, term(p), o)


def objects(store: Store, s: NamedNode, p: str) -> set:
    return {q.object for q in store.quads_for_pattern(s, term(p), None)}


def select(store: Store, name: str, bindings: dict) -> list[dict]:
    from pyoxigraph import Variable

    query = named_query(name)
    rows = store.query(
        prefixed(query.text),
        substitutions={Variable(k): v for k, v in bindings.items()},
        use_default_graph_as_union=True,
    )
    return [{str(v)[1:]: sol[v] for v in rows.variables if sol[v] is not None} for sol in rows]


def with_evidence(store: Store, intent: str, cites: list[str]) -> set[str]:
    """The citations an answer of the intent row carries: its SELECT's, plus the ?cite ids of the row's evidence
    queries (which the answerer reads once per product)."""
    row = next(i for i in table()[1] if i.name == intent)
    return set(cites) | {r["cite"].value for e in row.evidence for r in select(store, e, {})}


def ask(store: Store, name: str, bindings: dict) -> bool:
    """The proof's verdict: true is proved absent (`ASK { FILTER NOT EXISTS { … } }`)."""
    from pyoxigraph import Variable

    return bool(
        store.query(
            prefixed(named_query(name).text),
            use_default_graph_as_union=True,
            substitutions={Variable(k): v for k, v in bindings.items()},
        )
    )


def artifact(herb_id: str) -> NamedNode:
    return node("artifact", herb_id)


def feature(label: str) -> NamedNode:
    return node("feature", f"Demo/{label}")


ANALYTICS, SECURITY = feature("integrating-predictive-analytics"), feature("expanding-security-measures")


def test_prs_belong_to_the_task_the_last_review_assigned_their_author(store: Store) -> None:
    prs = {number: artifact(f"github_com_salesforce_Demo_pull_{number}") for number in range(1, 10)}
    # Bob's chart PR joins analytics although his other PRs are security work: a topic is not an engineer
    assert objects(store, ANALYTICS, "ekg:implementedBy") == {prs[1], prs[5], prs[8], prs[9]}
    # Carol's PR 3 is named in no review: it joins the part its title matches; the revert PR joins none
    assert objects(store, SECURITY, "ekg:implementedBy") == {prs[2], prs[3], prs[6]}
    assert objects(store, SECURITY, "ekg:responsible") == {node("person", e) for e in (BOB, CAROL)}
    words = {o.value for o in objects(store, ANALYTICS, "ekg:keyword")}
    assert {"predictive", "analytic"} <= words
    assert objects(store, ANALYTICS, "skos:prefLabel") == {Literal("integrating predictive analytics")}
    assert artifact("product_dev_Demo_1") in objects(store, ANALYTICS, "prov:wasDerivedFrom")


def test_review_parts_and_how_a_pr_was_assigned() -> None:
    lines = MEETINGS[2]
    segments = review_segments(lines, frozenset({"alice", "bob", "dan", "smith", "jon", "brown"}))
    assert [seg.label for seg in segments] == ["integrating predictive analytics", "expanding security measures"]
    assert all("wraps up" not in text for seg in segments for _, text in seg.lines)  # the roll-call is cut off
    chart, oauth = (TeamPR(PRS[i]) for i in (7, 5))
    assert assigned_segment(segments, "Bob Jones", chart) == (segments[0], "author+title")
    assert assigned_segment(segments, "Bob Jones", oauth) == (segments[1], "author+title")
    assert assigned_segment(segments, "Alice Smith", TeamPR(PRS[4])) == (segments[0], "author")
    assert assigned_segment(segments, None, oauth) == (segments[1], "title")
    assert assigned_segment([], "Bob Jones", oauth) == (None, "none")


@pytest.mark.parametrize(
    ("text", "label"),
    [
        (
            "First up, the AI-driven data anomaly detection feature. Fiona, you're assigned to it.",
            "AI-driven data anomaly detection feature",
        ),
        (
            "Now, let's move on to the pending tasks. First, we have the task of integrating predictive analytics.",
            "integrating predictive analytics",
        ),
        ("Bob, you're up first with the 'Message queue setup'.", "Message queue setup"),
        ("For the UI/UX dashboard, I'm working on the initial layout.", "UI/UX dashboard"),
        (
            "I'm responsible for the data compliance and security enhancement.",
            "data compliance and security enhancement",
        ),
        ("We have the 'Deployment pipeline optimization' task.", "Deployment pipeline optimization' task"),
        # feature headings in the other wordings sprint reviews use
        ("Regarding the enhanced security protocols, I'm set to implement audits.", "enhanced security protocols"),
        ("For encryption protocols, Emma Brown, you're on the Key Management System.", "encryption protocols"),
        (
            "Now, the security for the customization engine. Fiona, you're assigned.",
            "security for the customization engine",
        ),
        (
            "Ian, can you lead us through the integration with Shopify and Salesforce?",
            "integration with Shopify and Salesforce",
        ),
        ("Now, let's discuss bolstering our security protocols.", "bolstering our security protocols"),
        ("Emma, you're tasked with enhancing the NLP models. Can you confirm?", "enhancing the NLP models"),
        (
            "Alice, you're working on expanding CRM integration capabilities, correct?",
            "expanding CRM integration capabilities",
        ),
    ],
)
def test_review_labels_in_every_wording(text: str, label: str) -> None:
    assert label_of(text)[0] == label


@pytest.mark.parametrize(
    "text",
    [
        "I'll be taking over the revisions for this task.",
        "Now, let's move on to the pending tasks.",
        "Alice, I believe you're next in line to work on this.",
        "So, the PR for this task is titled 'Add Indexes'.",
        # a follow-up question about the task under discussion is no heading
        "For the Kafka latency monitoring, are we using the existing tools?",
        "For the JSON to XML conversion, should we also consider other systems?",
    ],
)
def test_meeting_talk_opens_no_review_part(text: str) -> None:
    assert label_of(text) is None


def test_same_feature_needs_two_shared_words_unless_one_word_label() -> None:
    assert same_feature(frozenset({"salesforce", "integrat"}), frozenset({"salesforce", "integrat", "schema"}))
    assert not same_feature(frozenset({"aws", "azure", "integrat"}), frozenset({"salesforce", "integrat"}))
    assert same_feature(frozenset({"security"}), frozenset({"security", "data", "encrypt"}))


def test_prs_are_discussed_in_their_share_conversation_and_assignment_review(store: Store) -> None:
    first = objects(store, artifact(PRS[0]["id"]), "ekg:discussedIn")
    assert first == {artifact("20260103-0-s1000"), artifact("20260103-1-s1001"), artifact("product_dev_Demo_2")}
    # a task and its resubmission share every review that assigned either of them
    assert artifact("product_dev_Demo_2") in objects(store, artifact(PRS[2]["id"]), "ekg:discussedIn")
    assert not objects(store, artifact(PRS[6]["id"]), "ekg:discussedIn")  # EMP_ login: not a team PR


def test_revert_hold_and_delay_decisions_with_reasons(store: Store) -> None:
    assert objects(store, artifact(PRS[2]["id"]), "ekg:revertedBy") == {artifact(PRS[3]["id"])}
    assert term("ekg:RevertPullRequest") in objects(store, artifact(PRS[3]["id"]), "rdf:type")  # the revert itself
    assert term("ekg:RevertPullRequest") not in objects(store, artifact(PRS[2]["id"]), "rdf:type")
    reverted = node("decision", "Demo/3-reverted")
    assert objects(store, reverted, "ekg:statusReason") == {term("ekg:SecurityRisk")}
    assert artifact("20260106-1-d3001") in objects(store, reverted, "prov:wasDerivedFrom")
    held = node("decision", "Demo/6-held")
    assert objects(store, held, "ekg:statusReason") == {term("ekg:ProductDirectionChange")}
    delayed = node("decision", "Demo/1-merge-later")
    assert objects(store, delayed, "ekg:featureStatus") == {term("ekg:Delayed")}


def test_rename_conversation_is_a_typed_node(store: Store) -> None:
    rename = node("rename", "Demo/20260101-0-rn000")
    assert objects(store, rename, "ekg:formerName") == {Literal("DemoAIX")}
    assert objects(store, rename, "prov:wasDerivedFrom") == {artifact("20260101-0-rn000"), artifact("20260101-1-rn001")}


def test_topic_query_picks_the_feature_naming_the_phrase(store: Store) -> None:
    bindings = {
        **topic_bindings("integrating predictive analytics"),
        "approved": Literal("true", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#boolean")),
    }
    answers, cites = keep_best_features(select(store, "pr_feature_review", bindings))
    assert set(answers) == {f"https://github.com/salesforce/Demo/pull/{n}" for n in (1, 5, 9)}
    assert {"product_dev_Demo_1", "20260103-1-s1001"} <= set(cites)
    assert "20260101-0-rn000" in with_evidence(store, "pr_feature_review", cites)  # the rename, per product


def test_unrelated_topic_matches_no_feature(store: Store) -> None:
    bindings = topic_bindings("blockchain ledger for mobile apps")
    assert ask(store, "feature_added_topic.ask", bindings)  # true: proved absent
    assert keep_best_features(select(store, "feature_added_topic", bindings)) == ([], [])


def test_dropped_and_delayed_features(store: Store) -> None:
    answers, cites = fold_rows(select(store, "feature_dropped", {"reason": term("ekg:SecurityRisk")}))
    assert answers == ["Upgrade transport encryption to TLS 1.3."]
    assert {"github_com_salesforce_Demo_pull_4", "20260106-0-d3000", "20260106-0-s4000"} <= set(cites)
    direction = fold_rows(select(store, "feature_dropped", {"reason": term("ekg:ProductDirectionChange")}))[0]
    assert direction == ["Review the OAuth token flow and rotate secrets."]
    delayed = fold_rows(select(store, "feature_delayed", {"reason": term("ekg:ProductDirectionChange")}))[0]
    assert delayed == ["Train LSTM forecast models on historical data."]
    assert ask(store, "feature_delayed.ask", {"reason": term("ekg:SecurityRisk")})  # true: proved absent


def test_close_merge_and_top_author(store: Store) -> None:
    security = topic_bindings("expanding security measures")
    to_close = keep_best_features(select(store, "pr_to_close", security))[0]
    assert to_close == ["https://github.com/salesforce/Demo/pull/6"]
    analytics = topic_bindings("predictive analytics")
    to_merge = keep_best_features(select(store, "pr_to_merge", analytics))[0]
    assert to_merge == ["https://github.com/salesforce/Demo/pull/5"]  # PR 9 is approved but closed unmerged
    approved = Literal("true", datatype=NamedNode("http://www.w3.org/2001/XMLSchema#boolean"))
    assert keep_top_authors(select(store, "pr_top_author", {"approved": approved}))[0] == [ALICE]


def test_tokens_and_reasons() -> None:
    assert feature_tokens("Integrating the Predictive Analytics") == ["integrat", "predictive", "analytic"]
    assert reason_of("a change in product direction") == "ProductDirectionChange"
    assert reason_of("it introduced bugs") == "IntroducedBugs"
    assert reason_of("security risks and a new direction") == "SecurityRisk"


def discussed(name: str) -> NamedNode:
    return node("feature", f"Demo/discussed/{name}")


def test_planned_feature_no_review_assigns_is_discussed_not_implemented(store: Store) -> None:
    alerts = discussed("real-time-alerts")
    assert objects(store, alerts, "ekg:featureStatus") == {term("ekg:Discussed")}
    assert objects(store, alerts, "prov:wasDerivedFrom") == {artifact("product_dev_Demo_1")}
    assert not objects(store, alerts, "ekg:implementedBy")
    # the assigned features (predictive analytics, security measures) are not re-derived as discussed ones
    assert {q.subject for q in store.quads_for_pattern(None, term("ekg:featureStatus"), term("ekg:Discussed"))} == {
        alerts
    }
    text = next(iter(objects(store, alerts, "ekg:text"))).value
    assert text.startswith("Real-time alerts\n- ") and "WebSockets" in text and "What do you think" not in text


def test_responsible_are_who_took_it_on_and_ambiguous_names_are_not_guessed(store: Store) -> None:
    alerts = discussed("real-time-alerts")
    # Carol accepted in the discussion, Alice volunteered when it came up again; Bob only commented
    assert objects(store, alerts, "ekg:responsible") == {node("person", CAROL), node("person", ALICE)}
    # two team members are called Erin Gray: the name stays ambiguous on the meeting, no eid is chosen
    assert Literal("Erin Gray") in objects(store, artifact("product_dev_Demo_1"), "ekg:ambiguousName")
    assert not {node("person", ERIN_1), node("person", ERIN_2)} & objects(store, alerts, "ekg:responsible")


def test_discussed_feature_queries_answer_and_cite_the_absence_evidence(store: Store) -> None:
    assert not ask(store, "feature_discussed.ask", {}) and not ask(store, "feature_discussed_people.ask", {})
    answers, cites = fold_rows(select(store, "feature_discussed", {}))
    assert len(answers) == 1 and answers[0].startswith("Real-time alerts")
    assert {
        "product_dev_Demo_1",
        "product_dev_Demo_2",
        "github_com_salesforce_Demo_pull_1",
        "20260103-0-s1000",
        "20260101-0-rn000",
    } <= with_evidence(store, "feature_discussed", cites)
    people = fold_rows(select(store, "feature_discussed_people", {}))[0]
    assert sorted(people) == sorted([ALICE, CAROL])


def test_every_planned_feature_assigned_means_no_discussed_feature() -> None:
    planning = meeting("product_dev_Demo_1", "2026-01-01T09:00:00", PLANNING[5:9])
    product = Product(
        "Demo",
        Path("Demo.json"),
        list(NAMES),
        [],
        {"slack": SLACK, "prs": PRS, "meeting_transcripts": [planning, *MEETINGS[1:]]},
    )
    ctx = RuleContext(product, ORG)
    run_rules(ctx, ["feature-discussed"])
    s = Store()
    s.extend(Quad(*statement) for statement in ctx.out)  # in the default graph
    assert ask(s, "feature_discussed.ask", {})  # true: proved absent


def test_feature_names_and_change_summaries() -> None:
    assert feature_name("Great. Moving on to predictive analytics, we want forecasts.") == "predictive analytics"
    assert (
        feature_name("Absolutely, Emma. The first feature we need to discuss is enhancing the AI-driven suggestions.")
        == "enhancing the AI-driven suggestions"
    )
    assert feature_name("Now, let's talk about task prioritization.") is None  # names no feature
    assert feature_name("We could use Kafka here.") is None
    assert (
        change_summary("This PR introduces JWT for sessions. It ensures scalability. Tokens expire hourly.")
        == "JWT for sessions. Tokens expire hourly."
    )
    # a verb that is the change itself stays, in the imperative; a framing verb goes
    assert (
        change_summary("This PR optimizes the data workflow. It includes tuning.")
        == "Optimize the data workflow. It includes tuning."
    )
    assert change_summary("This PR addresses the login bug.") == "Address the login bug."
    assert change_summary("This PR focuses on caching.") == "Caching."


@pytest.mark.parametrize(
    ("text", "style", "names"),
    [
        (
            "We have four main tasks to discuss: enhancing real-time alerts, integrating predictive analytics, "
            "improving data ingestion efficiency, and expanding security measures.",
            "list",
            [
                "enhancing real-time alerts",
                "integrating predictive analytics",
                "improving data ingestion efficiency",
                "expanding security measures",
            ],
        ),
        (
            "I think we should start by discussing the high-level tasks. First, we need to enhance our edge processing "
            "capabilities to handle more complex AI models. Second, we should expand our device compatibility.",
            "ordinal",
            ["enhance our edge processing capabilities", "expand our device compatibility"],
        ),
        (
            "Here is the plan. 1. Improve the search ranking. 2. Add offline mode.",
            "numbered",
            ["Improve the search ranking", "Add offline mode"],
        ),
    ],
)
def test_planning_lists_in_every_style(text: str, style: str, names: list[str]) -> None:
    assert listed_names(text) == [(style, name) for name in names]


@pytest.mark.parametrize(
    "text",
    [
        "To recap: Julia is handling data ingestion, Emma is on NLP enhancements, and Alice is working on the API.",
        "We have one main task: the dashboard.",
    ],
)
def test_assignment_recaps_and_single_items_list_no_features(text: str) -> None:
    assert listed_names(text) == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Let's start by discussing the real-time data processing feature.", "real-time data processing feature"),
        ("I think a good starting point would be to discuss the Slack integration module.", "Slack integration module"),
    ],
)
def test_planning_cues_open_a_feature(text: str, name: str) -> None:
    assert feature_name(text) == name


def test_listed_feature_no_review_assigns_is_discussed() -> None:
    planning = meeting(
        "product_dev_List_1",
        "2025-12-01T09:00:00",
        [
            "Dan Brown: Team, we have three main tasks to discuss: offline sync, expanding security measures, and "
            "integrating predictive analytics.",
            "Carol White: For offline sync, we should cache edits locally and merge them on reconnect.",
            "Alice Smith: I'll take offline sync.",
            "Bob Jones: Regarding security measures, we need to upgrade TLS.",
            "Alice Smith: On predictive analytics, LSTM models fit.",
            "Dan Brown: Now, let's discuss task assignments.",
        ],
    )
    product = Product("List", Path("List.json"), list(NAMES), [], {"meeting_transcripts": [planning, *MEETINGS[1:]]})
    ctx = RuleContext(product, ORG)
    run_rules(ctx, ["feature-discussed"])
    labels = {q.object.value for q in ctx.out if q.predicate == term("skos:prefLabel")}
    assert labels == {"offline sync"}
    who = {q.object for q in ctx.out if q.predicate == term("ekg:responsible")}
    assert who == {node("person", ALICE)}


def test_a_topic_in_other_words_meets_the_same_feature_words() -> None:
    assert feature_tokens("enhancing natural language processing capabilities") == feature_tokens(
        "enhancing NLP capabilities"
    )
    assert feature_tokens("the User Interface dashboard") == feature_tokens("UI dashboard")
    nlp = label_of("Moving on to enhancing AI capabilities with NLP.")[1]
    spelled = label_of("Next, enhancing AI capabilities with natural language processing.")[1]
    assert same_feature(nlp, spelled)


def test_a_part_quoting_the_prs_title_to_its_author_outranks_an_acceptance_elsewhere() -> None:

    first = Segment(
        "GraphQL API setup",
        frozenset({"graphql", "api", "setup"}),
        (
            ("Ian Davis", "First up, GraphQL API setup. Fiona, can you take over the resolvers?"),
            ("Fiona Smith", "Got it, I'll handle the new PR."),
        ),
    )
    last = Segment(
        "resource planning",
        frozenset({"resource", "plann"}),
        (
            ("Ian Davis", "Lastly, resource planning. Fiona, you're also handling 'Allocate Cloud Architects'."),
            ("Fiona Smith", "Yes, I'll ensure we have the right personnel."),
        ),
    )
    allocate = TeamPR(
        pr(20, "Allocate Cloud Architects", "Staff the integration.", ERIN_1, "2026-01-20T10:00:00", False, [])
    )
    assert assigned_segment([first, last], "Fiona Smith", allocate) == (last, "author")


# R1 / R2: the heading a task follows owns it, across turns; sub-features of one group stay separate.
HEADINGS = [
    meeting(
        "product_dev_Heads_2",
        "2026-03-01T09:00:00",
        [
            "Dan Brown: Now, let's move on to the pending tasks. First up, the CRM integration task. Alice, you're "
            "assigned to the Salesforce connector.",
            "Alice Smith: Got it, I'll handle this.",
            "Dan Brown: Next, improving the user interface. Bob, the dashboard redesign is yours.",
            "Bob Jones: I confirm, I'll take care of this implementation.",
        ],
    ),
    meeting(
        "product_dev_Heads_3",
        "2026-03-10T09:00:00",
        [
            "Dan Brown: Now, the pending tasks. Moving on to the CRM integration.",
            "Dan Brown: Bob, you're up for the widget API layer of the user interface dashboard.",
            "Bob Jones: Got it, I'll handle this.",
            "Carol White: For the widget API layer, are we considering GraphQL?",
            "Dan Brown: Not yet. Lastly, improving the user interface. Alice, you're tasked with the login form.",
            "Alice Smith: I confirm, I'll take care of this implementation.",
        ],
    ),
]
SUBS = [
    meeting(
        "product_dev_Subs_2",
        "2026-04-01T09:00:00",
        [
            "Dan Brown: Let's dive into the pending tasks. First up, the real-time summary generation for the "
            "backend integration with Slack. Alice, you're assigned to it.",
            "Alice Smith: Got it, I'll handle this.",
            "Dan Brown: Next, the frontend components for real-time summary generation. Bob, this one's yours.",
            "Bob Jones: I confirm, I'll take care of this implementation.",
            "Dan Brown: Then the GraphQL API setup. Carol, you're assigned.",
            "Carol White: Got it, I'll handle this.",
            "Dan Brown: Lastly, the schema management task. Erin Gray, you're assigned.",
        ],
    ),
    meeting(
        "product_dev_Subs_3",
        "2026-04-10T09:00:00",
        [
            "Dan Brown: Now, the pending tasks. First up, Salesforce integration - GraphQL API setup. Carol, you're "
            "assigned to the resolvers.",
            "Carol White: Got it, I'll handle this.",
            "Dan Brown: Next, Salesforce integration - Schema management. Alice, you're up for schema versioning.",
            "Alice Smith: I confirm, I'll take care of this implementation.",
        ],
    ),
]


def tracks_of(name: str, meetings: list[dict], prs: list[dict]) -> dict[str, set[int]]:
    """Feature label -> PR numbers, as the feature-tracks rule groups a fixture product's PRs."""
    from kg.ingest.rules.features import dev_meetings, feature_tracks_of, pr_assignments

    shares = [
        msg(f"2026010{i % 10}-0-x{i:04d}", p["user"]["login"], p["created_at"], p["link"]) for i, p in enumerate(prs)
    ]
    records = {"prs": prs, "meeting_transcripts": meetings, "slack": shares}
    product = Product(name, Path(f"{name}.json"), list(NAMES), [], records)
    ctx = RuleContext(product, ORG)
    tracks = feature_tracks_of(pr_assignments(ctx, dev_meetings(ctx)))
    return {track.labels[0]: {p.number for p, _ in track.tasks} for track in tracks}


def test_a_task_belongs_to_the_heading_it_follows_across_turns() -> None:
    prs = [
        pr(1, "Build Salesforce Connector", "Connect Salesforce.", ALICE, "2026-03-02T10:00:00", True, []),
        pr(2, "Redesign Dashboard", "Redesign the dashboard.", BOB, "2026-03-03T10:00:00", True, []),
        # its words name the user interface, but the review gave it under the CRM heading, a turn before
        pr(
            3,
            "Build Widget API Layer for User Interface Dashboard",
            "Widget API.",
            BOB,
            "2026-03-11T10:00:00",
            False,
            [],
        ),
        pr(4, "Add Login Form", "A login form.", ALICE, "2026-03-12T10:00:00", False, []),
    ]
    found = tracks_of("Heads", [meeting("product_dev_Heads_1", "2026-02-20T09:00:00", PLANNING), *HEADINGS], prs)
    assert found == {"CRM integration task": {1, 3}, "improving the user interface": {2, 4}}


def test_sub_features_and_backend_frontend_parts_stay_separate_features() -> None:
    prs = [
        pr(1, "Capture Slack Events", "Slack events.", ALICE, "2026-04-02T10:00:00", True, []),
        pr(2, "Add Summary Settings Panel", "A panel.", BOB, "2026-04-02T11:00:00", True, []),
        pr(3, "Set Up GraphQL Server", "A server.", CAROL, "2026-04-02T12:00:00", True, []),
        pr(4, "Version GraphQL Schema", "Versioning.", ERIN_1, "2026-04-02T13:00:00", True, []),
        pr(5, "Implement Query Resolvers", "Resolvers.", CAROL, "2026-04-11T10:00:00", False, []),
        pr(6, "Add Schema Versioning to Pipeline", "Versioning.", ALICE, "2026-04-11T11:00:00", False, []),
    ]
    found = tracks_of("Subs", [meeting("product_dev_Subs_1", "2026-03-20T09:00:00", PLANNING), *SUBS], prs)
    assert found == {
        "real-time summary generation for the backend integration with Slack": {1},
        "frontend components for real-time summary generation": {2},
        "GraphQL API setup": {3, 5},
        "schema management task": {4, 6},
    }


def test_feature_keywords_come_from_its_names_not_the_dialogue_around_them() -> None:
    from kg.ingest.rules.features import Track, feature_keywords

    talk = (("Dan Brown", "Next, the CRM integration task. Alice, the dashboard caching layer is yours."),)
    seg = Segment("CRM integration task", frozenset({"crm", "integrat"}), talk)
    track = Track({"crm", "integrat"}, ["CRM integration task", "improving CRM integration"], tasks=[])
    track.tasks.append((TeamPR(PRS[0]), seg))
    words = feature_keywords("CRM integration task", track)
    assert {"crm", "integrat"} <= set(words)
    assert not {"dashboard", "cach"} & set(words)  # said beside the feature, not its name


def test_discussed_feature_responsible_are_the_assigned_and_volunteers_not_who_summarises() -> None:
    from kg.ingest.rules.features import volunteers

    lines = [
        ("Dan Brown", "Let's start with the offline sync feature."),
        ("Carol White", "We should queue edits locally."),
        ("Dan Brown", "Next, the usage reports."),
        ("Bob Jones", "Reports need a nightly export."),
        ("Erin Gray", "Alice, will you take the usage reports? I'll own offline sync, it needs care."),
        ("Alice Smith", "Sure, I'll handle the usage reports."),
        (
            "Dan Brown",
            "Great. So Carol will lead the offline sync work, Bob will handle the usage reports, "
            "and Erin will focus on QA.",
        ),
    ]
    others = ["usage reports"]
    # Erin commits on a line naming it; Carol is given it in the summary; Alice's reply takes another feature;
    # Dan only summarises the assignments
    assert volunteers(lines, 0, 2, "offline sync", others) == ["Erin Gray", "Carol White"]


def lines_of(*said: str) -> list[tuple[str, str]]:
    return [(s.split(": ", 1)[0], s.split(": ", 1)[1]) for s in said]


def test_a_request_by_first_name_accepted_on_the_next_line_assigns_the_feature() -> None:
    """As planning meetings write it: the feature's opening line asks a colleague by first name ("Ian, could you
    take the lead on this?"), and the reply accepts, even when that reply already opens the next feature."""
    lines = lines_of(
        "Carol White: We have three main tasks: offline sync, audit logging and smarter search.",
        "Dan Brown: For offline sync, we need local caching. Alice, could you take the lead on this?",
        "Alice Smith: Sure, Dan. I'll start with the cache and also look at audit logging hooks.",
        "Bob Jones: On audit logging, we should store events for a year.",
    )
    assert volunteers(lines, 1, 2, "offline sync", ["audit logging", "smarter search"]) == ["Alice Smith"]
    declined = [*lines[:2], ("Alice Smith", "Maybe later; my plate is full."), lines[3]]
    assert volunteers(declined, 1, 2, "offline sync", ["audit logging"]) == []
    someone_else = [*lines[:2], ("Bob Jones", "Sure, I'll help."), lines[3]]
    assert volunteers(someone_else, 1, 2, "offline sync", ["audit logging"]) == []


def test_an_assignment_after_the_discussion_may_name_the_feature_by_most_of_its_words() -> None:
    """After the discussion the feature is often named short ("Emma, can you handle the AI model enhancements?"
    for "enhancing the AI model's recommendation accuracy"; "the real-time insights feature" for "real-time
    coaching insights"): most of its words, more of them than of any other feature's."""
    lines = lines_of(
        "Carol White: We have two main tasks: enhancing the AI model's recommendation accuracy and improving CRM "
        "integration.",
        "Dan Brown: The AI model needs cross-validation.",
        "Bob Jones: For CRM integration, GraphQL is worth a look.",
        "Carol White: Now, task assignments. Alice, can you handle the AI model enhancements?",
        "Alice Smith: Sure, I'll set up the testing environments.",
        "Bob Jones: I'll take on the CRM integration improvements.",
        "Dan Brown: I'll take charge of the frontend for the real-time insights feature.",
    )
    name, other, third = (
        "enhancing the AI model's recommendation accuracy",
        "improving CRM integration",
        ("real-time coaching insights"),
    )
    assert volunteers(lines, 1, 2, name, [other, third]) == ["Alice Smith"]
    assert volunteers(lines, 2, 3, other, [name, third]) == ["Bob Jones"]
    assert volunteers(lines, 1, 2, third, [name, other]) == ["Dan Brown"]
    assert volunteers(lines, 1, 2, "real-time fraud alerting rules", [name, other]) == []  # two words of five


def test_an_approval_a_later_review_withdraws_by_asking_for_changes_is_no_approval() -> None:
    """As HERB's PRs hold it (an APPROVED review, then minutes later CHANGES_REQUESTED from another reviewer, the
    PR never merged): the PR is not approved; changes asked first and approved after leave it approved."""
    s = Store()
    feature = node("feature", "Demo/jwt")
    s.add(_quad(feature, "rdf:type", term("ekg:Feature")))
    for word in ("jwt", "authent"):
        s.add(_quad(feature, "ekg:keyword", Literal(word)))
    xsd = "http://www.w3.org/2001/XMLSchema#"
    for number, states in ((4, ("Approved", "ChangesRequested")), (5, ("ChangesRequested", "Approved"))):
        pr_node = node("artifact", f"github_com_salesforce_Demo_pull_{number}")
        s.add(_quad(feature, "ekg:implementedBy", pr_node))
        s.add(_quad(pr_node, "ekg:url", Literal(f"https://github.com/salesforce/Demo/pull/{number}")))
        s.add(_quad(pr_node, "dct:identifier", Literal(f"github_com_salesforce_Demo_pull_{number}")))
        for i, state in enumerate(states):
            rv = node("review", f"Demo/{number}/{i}")
            s.add(_quad(rv, "rdf:type", term("ekg:PullRequestReview")))
            s.add(_quad(rv, "ekg:reviewOf", pr_node))
            s.add(_quad(rv, "ekg:reviewState", term(f"ekg:{state}")))
            s.add(
                _quad(
                    rv, "dct:created", Literal(f"2026-08-19T17:0{3 + 5 * i}:00", datatype=NamedNode(xsd + "dateTime"))
                )
            )
    for approved, number in (("true", 5), ("false", 4)):
        bindings = {
            **topic_bindings("JWT authentication"),
            "approved": Literal(approved, datatype=NamedNode(xsd + "boolean")),
        }
        answers = keep_best_features(select(s, "pr_feature_review", bindings))[0]
        assert answers == [f"https://github.com/salesforce/Demo/pull/{number}"]
        assert not ask(s, "pr_feature_review.ask", bindings)  # false: the evidence exists
