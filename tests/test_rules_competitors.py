"""Competitor rules on a small product written here: insight threads (strength vs weakness, who), demo links,
and the conversation splitter that keeps interleaved posts out of a thread."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulekit import objects, rule_triples

from kg.ingest.herb import Organisation, Product
from kg.ingest.rules import Message, RuleContext
from kg.ingest.rules.competitors import (
    competitor_name,
    demo_urls,
    insight_text,
    named_competitors,
    table_competitors,
)
from kg.ingest.rules.messages import conversations as threads
from kg.namespaces import ID

RULES = ["competitor-insights", "competitor-demos"]


def slack(mid: str, text: str, ts: str, user: str, channel: str = "planning-Demo") -> dict[str, Any]:
    return {
        "id": mid,
        "Channel": {"name": channel, "channelID": f"ch-{channel}"},
        "Message": {"User": {"userId": user, "timestamp": ts, "text": text, "utterranceID": mid}},
        "ThreadReplies": [],
    }


FEATURES = (
    "Hi team, I was reading about a competitor product called PulseWatch. It offers real-time "
    "monitoring with customizable alerts, predictive modeling, a drag-and-drop interface and a "
    "scalable distributed architecture for large data volumes."
)
WEAKNESSES = "Hi team, I was reading about PulseWatch and thought it would be useful to discuss some of its weaknesses."


def context() -> RuleContext:
    artifacts = {
        "slack": [
            slack("20260101-0-aaaaa", FEATURES, "2026-01-01T10:00:00", "eid_aaaaaaaa"),
            slack(
                "20260101-1-bbbbb",
                "How does it handle false positives?",
                "2026-01-01T10:01:00",
                "eid_bbbbbbbb",
            ),
            slack(
                "20260101-7-zzzzz",
                "@here a blog post https://blog.example.com/x",
                "2026-01-01T10:01:30",
                "eid_cccccccc",
            ),
            slack("20260101-2-ccccc", "It learns thresholds over time.", "2026-01-01T10:02:00", "eid_aaaaaaaa"),
            slack("20260105-0-ddddd", WEAKNESSES, "2026-01-05T09:00:00", "eid_dddddddd", "develop-x-Demo"),
            slack("20260105-1-eeeee", "Such as?", "2026-01-05T09:01:00", "eid_bbbbbbbb", "develop-x-Demo"),
            slack(
                "20260105-2-fffff",
                "Alert options are limited and it uses a lot of memory.",
                "2026-01-05T09:02:00",
                "eid_dddddddd",
                "develop-x-Demo",
            ),
            slack(
                "20260110-0-ggggg",
                "@here see how PulseWatch works: https://www.pulsewatch.com/demo",
                "2026-01-10T09:00:00",
                "eid_eeeeeeee",
            ),
            slack(
                "20260111-0-hhhhh",
                "@here our own demo https://sf-internal.slack.com/archives/Demo/demo_1",
                "2026-01-11T09:00:00",
                "eid_eeeeeeee",
            ),
            slack(
                "20260112-0-iiiii",
                "@here unrelated https://www.othertool.com/demo",
                "2026-01-12T09:00:00",
                "eid_eeeeeeee",
            ),
        ],
        "urls": [{"id": "www_pulsewatch_com_demo", "link": "https://www.pulsewatch.com/demo", "description": "d"}],
    }
    product = Product("Demo", Path("Demo.json"), [], [], artifacts)
    return RuleContext(product, Organisation({}, {}, []))


def triples(ctx: RuleContext) -> set[tuple[str, str, str]]:
    return rule_triples(ctx, RULES)


def test_features_thread_is_a_strength_attributed_to_its_opener() -> None:
    found = triples(context())
    insight = "competitor-insight/Demo/20260101-0-aaaaa"
    assert objects(found, insight, "prov:wasAttributedTo") == {ID + "person/eid_aaaaaaaa"}
    assert objects(found, insight, "ekg:strength") == {FEATURES.split("PulseWatch. ", 1)[1]}
    assert objects(found, insight, "ekg:insightOn") == {ID + "competitor/Demo/pulsewatch"}
    assert objects(found, "competitor/Demo/pulsewatch", "rdfs:label") == {"PulseWatch"}
    assert objects(found, "competitor/Demo/pulsewatch", "ekg:competitorOf") == {ID + "product/Demo"}


def test_thread_provenance_excludes_the_interleaved_post() -> None:
    derived = objects(triples(context()), "competitor-insight/Demo/20260101-0-aaaaa", "prov:wasDerivedFrom")
    assert derived == {
        ID + "artifact/20260101-0-aaaaa",
        ID + "artifact/20260101-1-bbbbb",
        ID + "artifact/20260101-2-ccccc",
    }


def test_short_weakness_opener_takes_the_authors_replies() -> None:
    """The opener only announces the topic, so the insight is what its author says in the replies."""
    text = objects(triples(context()), "competitor-insight/Demo/20260105-0-ddddd", "ekg:weakness")
    assert text == {"Alert options are limited and it uses a lot of memory."}


def test_insight_keeps_the_openers_content_without_greeting_or_invitation() -> None:
    thread = [
        Message(
            "20260101-0-a",
            "planning-x",
            "C1",
            "eid_aaaaaaaa",
            "2026-01-01T10:00:00",
            "Hi team, I was reading about a new competitor product called Foo. It offers bar and baz. "
            "Thought it would be worth discussing how it compares to our offerings. 🤔",
            0,
        ),
        Message(
            "20260101-1-b",
            "planning-x",
            "C1",
            "eid_aaaaaaaa",
            "2026-01-01T10:01:00",
            "Great question, Ian! From what I gathered, Foo also runs offline.",
            1,
        ),
    ]
    assert insight_text(thread) == "It offers bar and baz."


def test_announcing_opener_takes_reply_facts_but_not_questions_or_talk_about_us() -> None:
    thread = [
        Message(
            "20260101-0-a",
            "planning-x",
            "C1",
            "eid_aaaaaaaa",
            "2026-01-01T10:00:00",
            "Hi team, I was reading about Foo, one of our competitors, and thought it would be useful "
            "to discuss some of its weaknesses.",
            0,
        ),
        Message("20260101-1-b", "planning-x", "C1", "eid_bbbbbbbb", "2026-01-01T10:01:00", "What are they?", 1),
        Message(
            "20260101-2-c",
            "planning-x",
            "C1",
            "eid_aaaaaaaa",
            "2026-01-01T10:02:00",
            "Great question, Ian! From what I gathered, Foo is slow on big data. Our product is faster. "
            "Do they plan a fix?",
            2,
        ),
    ]
    assert insight_text(thread) == "Foo is slow on big data."


def test_demo_of_a_known_competitor_only() -> None:
    found = triples(context())
    demo = "demo/Demo/https-www-pulsewatch-com-demo"
    assert objects(found, "competitor/Demo/pulsewatch", "ekg:demoLink") == {ID + demo}
    assert objects(found, demo, "ekg:sharedBy") == {ID + "person/eid_eeeeeeee"}
    assert objects(found, demo, "ekg:url") == {"https://www.pulsewatch.com/demo"}
    assert objects(found, demo, "prov:wasDerivedFrom") == {
        ID + "artifact/20260110-0-ggggg",
        ID + "artifact/www_pulsewatch_com_demo",
    }
    assert not any("othertool" in s or "sf-internal" in s for s, _, _ in found)


def test_competitor_name_variants() -> None:
    assert (
        competitor_name("Hi team, I was reading about SmartSearch for Slack, and I thought") == "SmartSearch for Slack"
    )
    assert competitor_name("I was reading about the VulnGuard API Scanner, and I think") == "VulnGuard API Scanner"
    assert competitor_name("Hi team, I was reading about a new product called ChatBrief. It") == "ChatBrief"
    assert competitor_name("I was reading about how AI changes search") is None


def test_demo_urls_are_external_demo_paths() -> None:
    assert demo_urls(
        "see https://www.x.com/demo. and https://sf-internal.slack.com/archives/P/demo_1 and https://www.x.com/pricing"
    ) == ["https://www.x.com/demo"]


def test_threads_follow_index_chains_per_day() -> None:
    def msg(mid: str, pos: int) -> Message:
        return Message(mid, "c", "c", "u", "", "", pos)

    channel = [
        msg("20260821-0-a", 0),
        msg("20260821-1-b", 1),
        msg("20260821-6-x", 2),
        msg("20260821-2-c", 3),
        msg("20260821-3-d", 4),
        msg("20260821-4-e", 5),
        msg("20260821-5-f", 6),
        msg("20260821-6-g", 7),
        msg("20260821-7-h", 8),
        msg("20260822-0-i", 9),
    ]
    assert [[m.id[-1] for m in run] for run in threads(channel)] == [
        ["a", "b", "c", "d", "e", "f", "g", "h"],
        ["x"],
        ["i"],
    ]


def test_named_competitors_are_the_list_after_the_cue_and_stop_where_it_ends() -> None:
    assert named_competitors("Key competitors include Apigee, AWS API Gateway, and IBM API Connect.") == [
        "Apigee",
        "AWS API Gateway",
        "IBM API Connect",
    ]
    assert named_competitors("While competitors like Apigee and AWS API Gateway offer API management, we") == [
        "Apigee",
        "AWS API Gateway",
    ]
    assert named_competitors("Competitors such as Otter.ai and SummarizeBot lead.") == ["Otter.ai", "SummarizeBot"]
    assert named_competitors("Our competitors are strong in analytics.") == []
    # a name may open with digits ("42Crunch"), and the list goes on past it
    assert named_competitors("Competitors like Salt Security, 42Crunch, and Data Theorem lead.") == [
        "Salt Security",
        "42Crunch",
        "Data Theorem",
    ]


def test_named_competitors_after_a_kind_of_product_or_as_key_players() -> None:
    said = (
        "Key competitors include tools like Microsoft Viva, Culture Amp, and TINYpulse, which offer similar features."
    )
    assert named_competitors(said) == ["Microsoft Viva", "Culture Amp", "TINYpulse"]
    assert named_competitors("The market includes several key players such as Gong, Chorus.ai, and SalesLoft.") == [
        "Gong",
        "Chorus.ai",
        "SalesLoft",
    ]
    assert named_competitors("Key players include established tools that lack depth.") == []


def test_named_competitors_with_a_modal_an_owner_or_a_number_in_the_name() -> None:
    """Wordings audited on all 30 products' documents (2026-12-06): "may include", "established players like",
    an owner's product ("IBM's AI Explainability 360"); an owner alone is no name."""
    assert named_competitors("Key competitors may include tools like Otter.ai and SummarizeBot.") == [
        "Otter.ai",
        "SummarizeBot",
    ]
    said = "It is competitive, with established players like IBM's AI Explainability 360 and Google's What-If Tool."
    assert named_competitors(said) == ["IBM's AI Explainability 360", "Google's What-If Tool"]
    said = "It faces established players like Tableau, Power BI, and Salesforce's own Einstein Analytics."
    assert named_competitors(said) == ["Tableau", "Power BI"]


def test_a_comparison_tables_header_names_the_competitors_after_the_product() -> None:
    table = (
        "Below is a comparison table of flowAIX against its competitors:\n\n"
        "| Feature/Competitor | flowAIX | Zapier | Workato |\n|---|---|---|---|\n| AI insights | Yes | No | Yes |\n"
    )
    assert table_competitors(table) == ["Zapier", "Workato"]
    assert table_competitors(table.replace("Zapier | Workato", "Competitor A | Competitor B")) == []
    plain = "| Feature | Description |\n|---|---|\n| Search | Finds things |\n"
    assert table_competitors(plain) == []  # no competitor spoken of: a table of something else


def test_named_competitors_after_the_space_or_market_they_play_in() -> None:
    """ "Established players in the X space, including companies like A, B, and C" (ContentForce's market research
    report) and "key competitors in the X market include A, B" list their competitors too."""
    said = (
        "entAIX faces competition from several established players in the AI-driven content recommendation space, "
        "including companies like Salesforce, HubSpot, and Seismic. These competitors offer similar solutions."
    )
    assert named_competitors(said) == ["Salesforce", "HubSpot", "Seismic"]
    said = "Key competitors in the lead qualification market include HubSpot and Marketo. ProX differs."
    assert named_competitors(said) == ["HubSpot", "Marketo"]
    assert named_competitors("We should partner with key players in the collaboration software space.") == []


def test_named_competitors_after_the_competition_a_product_faces() -> None:
    """ "Faces competition from established collaboration tools like A, B, and C" (CollaborationForce's first market
    research report names its competitors only so); competition from no one named lists nothing."""
    said = (
        "CForceAIX faces competition from established collaboration tools like Microsoft Teams, Slack, and Asana, "
        "which are increasingly integrating AI features."
    )
    assert named_competitors(said) == ["Microsoft Teams", "Slack", "Asana"]
    assert named_competitors("Competition from established players and new entrants poses a significant threat.") == []
    said = "There is competition from established AI providers like IBM and Google, as well as rapid advancements."
    assert named_competitors(said) == ["IBM", "Google"]
