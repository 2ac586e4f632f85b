"""Message-text rules on a small product written here: mentions, customers, links, conversations, repos."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kg.ingest.herb import Organisation, Product
from kg.ingest.rules import RuleContext, run_rules
from kg.ingest.rules.messages import normalise_url
from kg.namespaces import ID, expand


def slack(mid: str, text: str, ts: str, user: str = "eid_aaaaaaaa", channel: str = "bug-x-Demo") -> dict[str, Any]:
    return {
        "id": mid,
        "Channel": {"name": channel, "channelID": f"ch-{channel}"},
        "Message": {"User": {"userId": user, "timestamp": ts, "text": text, "utterranceID": mid}},
        "ThreadReplies": [],
    }


def context() -> RuleContext:
    artifacts = {
        "slack": [
            slack("20260101-0-aaaaa", "Hi @eid_bbbbbbbb, CUST-0042 reports a crash", "2026-01-01T10:00:00"),
            slack(
                "20260101-1-bbbbb",
                "See <https://sf-internal.slack.com/archives/docs/demo_prd|PRD> and "
                "https://github.com/acme/demo/pull/7 and https://www.example.com/demo/.",
                "2026-01-01T10:05:00",
            ),
            slack("20260101-2-ccccc", "Also https://unknown.example.org/x", "2026-01-01T10:06:00"),
            slack("20260102-0-ddddd", "Next day, new thread", "2026-01-02T09:00:00"),
        ],
        "documents": [
            {
                "id": "demo_prd",
                "content": "c",
                "type": "Product Requirements Document",
                "document_link": "https://sf-internal.slack.com/archives/docs/demo_prd",
            }
        ],
        "prs": [
            {
                "id": "github_com_acme_demo_pull_7",
                "link": "https://github.com/acme/demo/pull/7",
                "user": {"login": "eid_aaaaaaaa"},
            }
        ],
        "urls": [{"id": "www_example_com_demo", "link": "https://www.example.com/demo", "description": "A demo"}],
    }
    product = Product("Demo", Path("Demo.json"), ["eid_aaaaaaaa"], ["CUST-0042"], artifacts)
    org = Organisation({}, {"CUST-0042": {"id": "CUST-0042", "company": "Acme"}}, [])
    return RuleContext(product, org)


def edges(ctx: RuleContext, rules: list[str]) -> set[tuple[str, str, str]]:
    return {(q.subject.value, q.predicate.value, q.object.value) for q in run_rules(ctx, rules)}


def art(i: str) -> str:
    return ID + "artifact/" + i


def test_mentions_and_customer_ids() -> None:
    got = edges(context(), ["mentions", "customer-mentions"])
    assert got == {
        (art("20260101-0-aaaaa"), expand("ekg:mentions"), ID + "person/eid_bbbbbbbb"),
        (art("20260101-0-aaaaa"), expand("ekg:mentionsCustomer"), ID + "customer/CUST-0042"),
    }


def test_links_resolve_to_documents_prs_url_artifacts_or_bare_urls() -> None:
    got = edges(context(), ["links"])
    msg = art("20260101-1-bbbbb")
    assert (msg, expand("ekg:linksTo"), art("demo_prd")) in got
    assert (msg, expand("ekg:linksTo"), art("github_com_acme_demo_pull_7")) in got
    assert (msg, expand("ekg:sharesLink"), art("www_example_com_demo")) in got
    assert (art("20260101-2-ccccc"), expand("ekg:mentionsURL"), "https://unknown.example.org/x") in got


def test_conversations_split_on_index_zero_and_carry_provenance() -> None:
    got = edges(context(), ["conversations"])
    first = ID + "conversation/Demo/20260101-0-aaaaa"
    second = ID + "conversation/Demo/20260102-0-ddddd"
    members = {s for s, p, o in got if p == expand("ekg:inConversation") and o == first}
    assert members == {art("20260101-0-aaaaa"), art("20260101-1-bbbbb"), art("20260101-2-ccccc")}
    assert (art("20260102-0-ddddd"), expand("ekg:inConversation"), second) in got
    assert (first, expand("prov:wasDerivedFrom"), art("20260101-2-ccccc")) in got


def test_pr_repository_from_link() -> None:
    got = edges(context(), ["pr-repository"])
    assert (art("github_com_acme_demo_pull_7"), expand("ekg:inRepository"), ID + "repo/acme/demo") in got


def test_url_normalisation_ignores_scheme_www_and_trailing_punctuation() -> None:
    assert normalise_url("https://www.Example.com/demo/.") == normalise_url("http://example.com/demo")


def test_channel_purpose_from_the_name_prefix() -> None:
    got = edges(context(), ["channel-purpose"])
    assert got == {(ID + "channel/ch-bug-x-Demo", expand("ekg:channelPurpose"), expand("ekg:BugChannel"))}


def test_channel_creator_from_slacks_note_opening_the_channel() -> None:
    """Slack's note "@eid_… created this channel on …" gives the channel its creator and time, derived from the
    note; a message that only quotes such words is no note."""
    ctx = context()
    ctx.product.artifacts["slack"] += [
        slack(
            "20251231-0-zzzzz",
            "@eid_cccccccc created this channel on 2025-12-31 08:15:00. This is the very beginning of the bug-x-Demo "
            "channel.",
            "2025-12-31T08:15:00",
            user="slack_admin_bot",
        ),
        slack(
            "20260103-0-yyyyy", "Who said '@eid_dddddddd created this channel on 2025-01-01'?", "2026-01-03T09:00:00"
        ),
        slack(
            "20251230-0-xxxxx",
            "@'eid_eeeeeeee' created this channel on 2025-12-30 07:00:00. This is the very beginning of the x channel.",
            "2025-12-30T07:00:00",
            user="slack_admin_bot",
            channel="planning-x-Demo",
        ),
    ]
    got = edges(ctx, ["channel-creation"])
    channel, planning = ID + "channel/ch-bug-x-Demo", ID + "channel/ch-planning-x-Demo"
    assert got == {
        (channel, expand("ekg:channelCreator"), ID + "person/eid_cccccccc"),
        (channel, expand("dct:created"), "2025-12-31T08:15:00"),
        (channel, expand("prov:wasDerivedFrom"), ID + "artifact/20251231-0-zzzzz"),
        (planning, expand("ekg:channelCreator"), ID + "person/eid_eeeeeeee"),  # the id quoted, as 10 notes have it
        (planning, expand("dct:created"), "2025-12-30T07:00:00"),
        (planning, expand("prov:wasDerivedFrom"), ID + "artifact/20251230-0-xxxxx"),
    }
