"""Competitor intelligence from Slack: which competitor products the team discussed, their strengths and
weaknesses (with who gave the insight), and the competitors' demo links team members shared.

HERB's teams discuss each competitor in a thread that opens "I was reading about <Name> …": one thread on
its features (strengths), one on its weaknesses. Demo links are external `…/demo` URLs posted with the
competitor's name ("see how QuoteMaster Pro works: https://www.quotemasterpro.com/demo").
Documented for data stewards in mappings/rules/competitors.md.
"""

from __future__ import annotations

import re
from collections import defaultdict

from pyoxigraph import Literal, NamedNode

from kg.namespaces import term
from kg.rules import Message, RuleContext, rule, slug

MESSAGE_INDEX = re.compile(r"^(\d{8})-(\d+)-")
URL = re.compile(r"https?://[^\s<>|)\"']+")

#: "I was reading about [a new competitor product called] <Name>" — the name is a run of capitalised words,
#: which may contain "for"/"of" ("SmartSearch for Slack").
_NAME = r"((?:[A-Z][\w\-]*)(?:\s+(?:[A-Z][\w\-]*|for|of))*)"
READING_ABOUT = re.compile(
    r"\bI (?:was|have been|'ve been) (?:reading|looking into|researching) about\s+"
    r"(?:(?:a|an|the|this)\s+)?(?:new\s+)?(?:competitor\s+)?(?:product\s+)?(?:called\s+)?" + _NAME)
#: Words that make a competitor thread a discussion of weaknesses rather than of features.
WEAKNESS_CUE = re.compile(r"weakness|drawback|struggl|falls? short|downside|\bissues?\b|barrier|"
                          r"steep learning curve|\blacks?\b", re.I)
INTERNAL_HOST = re.compile(r"^https?://[^/]*\bsf-internal\b", re.I)
DEMO_PATH = re.compile(r"^https?://[^/]+/(?:[^\s]*/)?demo\b", re.I)

STRENGTH = term("ekg:strength")
WEAKNESS = term("ekg:weakness")
COMPETITOR_OF = term("ekg:competitorOf")
INSIGHT_ON = term("ekg:insightOn")
DEMO_LINK = term("ekg:demoLink")
SHARED_BY = term("ekg:sharedBy")
EKG_URL = term("ekg:url")
RDFS_LABEL = term("rdfs:label")
ATTRIBUTED_TO = term("prov:wasAttributedTo")
XSD_ANYURI = term("xsd:anyURI")


def threads(channel: list[Message]) -> list[list[Message]]:
    """A channel's conversations. HERB numbers a conversation's messages 0, 1, 2, … on one day
    (`YYYYMMDD-i-hash`), and unrelated posts can fall between them, so a message with index i joins the
    conversation of its day whose last message has index i-1 and came latest; index 0 or no such conversation
    starts a new one."""
    runs: list[list[Message]] = []
    open_by_day: dict[str, list[list[Message]]] = defaultdict(list)
    for msg in channel:
        match = MESSAGE_INDEX.match(msg.id)
        if not match:
            runs.append([msg])
            continue
        day, index = match.group(1), int(match.group(2))
        candidates = [run for run in open_by_day[day] if _index(run[-1]) == index - 1] if index else []
        if candidates:
            max(candidates, key=lambda run: run[-1].position).append(msg)
        else:
            runs.append([msg])
            open_by_day[day].append(runs[-1])
    return runs


def _index(msg: Message) -> int:
    match = MESSAGE_INDEX.match(msg.id)
    return int(match.group(2)) if match else -1


def product_threads(ctx: RuleContext) -> list[list[Message]]:
    """Every conversation of the product, computed once and shared with later rules through ctx.facts."""
    if "threads" not in ctx.facts:
        ctx.facts["threads"] = [run for channel in ctx.channels.values() for run in threads(channel)]
    return ctx.facts["threads"]


def competitor_name(text: str) -> str | None:
    """The competitor a thread opener is about, or None when the text is no competitor-reading opener."""
    match = READING_ABOUT.search(text)
    if not match:
        return None
    return re.sub(r"\s+(?:for|of)$", "", match.group(1)).strip() or None


def competitor_node(ctx: RuleContext, name: str, source_ids: list[str]) -> NamedNode:
    node = ctx.derived("competitor", slug(name), "ekg:CompetitorProduct", source_ids)
    ctx.add(node, RDFS_LABEL, Literal(name))
    ctx.add(node, COMPETITOR_OF, ctx.product_node)
    return node


def insight_text(thread: list[Message]) -> str:
    """What the insight says: the opener of the thread, whose author summarises the competitor there; when the
    opener only announces the topic (one short sentence), the author's replies are added."""
    author = thread[0].author
    opener = thread[0].text.strip()
    if len(re.findall(r"\w+", opener)) >= 25:
        return opener
    replies = [m.text.strip() for m in thread[1:] if m.author == author]
    return " ".join([opener, *replies])


@rule("competitor-insights",
      "A thread opened with \"I was reading about <Name>\" is an insight on competitor <Name>: an "
      "ekg:CompetitorInsight by the opener's author with ekg:strength (features thread) or ekg:weakness "
      "(weaknesses thread) text, derived from every message of the thread.")
def competitor_insights(ctx: RuleContext) -> None:
    found: dict[str, str] = {}
    for thread in product_threads(ctx):
        name = competitor_name(thread[0].text)
        if name is None:
            continue
        ids = [m.id for m in thread]
        competitor = competitor_node(ctx, name, ids)
        insight = ctx.derived("competitor-insight", thread[0].id, "ekg:CompetitorInsight", ids)
        ctx.add(insight, INSIGHT_ON, competitor)
        ctx.add(insight, ATTRIBUTED_TO, ctx.agent(thread[0].author))
        aspect = WEAKNESS if WEAKNESS_CUE.search(thread[0].text) else STRENGTH
        ctx.add(insight, aspect, Literal(insight_text(thread)))
        found[slug(name)] = name
    ctx.facts["competitors"] = found


def demo_urls(text: str) -> list[str]:
    """External demo links in a message: a `/demo` path on a host outside the company's Slack."""
    urls = (u.rstrip(".,;:!?>") for u in URL.findall(text))
    return [u for u in dict.fromkeys(urls) if DEMO_PATH.match(u) and not INTERNAL_HOST.match(u)]


def competitor_of_demo(url: str, text: str, competitors: dict[str, str]) -> str | None:
    """The competitor a demo link belongs to: its name in the message, else its squashed name as the host."""
    host = re.sub(r"^https?://(?:www\.)?", "", url.casefold()).split("/")[0].split(".")[0]
    lowered = text.casefold()
    for key, name in competitors.items():
        if name.casefold() in lowered or key.replace("-", "") == host:
            return name
    return None


@rule("competitor-demos",
      "A message sharing an external `/demo` URL of a known competitor: an ekg:DemoLink with ekg:url, "
      "ekg:sharedBy the sender, and the competitor ekg:demoLink it; derived from the message and the url "
      "artifact.")
def competitor_demos(ctx: RuleContext) -> None:
    competitors = ctx.facts.get("competitors", {})
    for msg in ctx.messages:
        for url in demo_urls(msg.text):
            name = competitor_of_demo(url, msg.text, competitors)
            if name is not None:
                ctx.add(competitor_node(ctx, name, [msg.id]), DEMO_LINK, shared_demo(ctx, url, msg))


def url_artifact_ids(ctx: RuleContext) -> dict[str, str]:
    """The product's url artifacts: link (without trailing slash) -> HERB id."""
    if "url_ids" not in ctx.facts:
        ctx.facts["url_ids"] = {str(r["link"]).rstrip("/"): str(r["id"]) for r in ctx.records("urls")
                                if isinstance(r.get("link"), str)}
    return ctx.facts["url_ids"]


def shared_demo(ctx: RuleContext, url: str, msg: Message) -> NamedNode:
    """The ekg:DemoLink node for a URL shared in a message, derived from the message and the url artifact."""
    artifact = url_artifact_ids(ctx).get(url.rstrip("/"))
    demo = ctx.derived("demo", slug(url), "ekg:DemoLink", [msg.id] + ([artifact] if artifact else []))
    ctx.add(demo, EKG_URL, Literal(url, datatype=XSD_ANYURI))
    ctx.add(demo, SHARED_BY, ctx.agent(msg.author))
    return demo
