"""Rules over every Slack message's text: mentions, customers, links, shared URLs, conversations."""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cached_property

from pyoxigraph import Literal, NamedNode

from kg.ingest.rules import Message, RuleContext, rule
from kg.namespaces import node, term
from kg.vocab import (
    CHANNEL_CREATOR,
    CHANNEL_PURPOSE,
    CONVERSATION_IN,
    DCT_CREATED,
    IN_CONVERSATION,
    LINKS_TO,
    MENTIONS,
    MENTIONS_CUSTOMER,
    MENTIONS_URL,
    SHARES_LINK,
    WAS_DERIVED_FROM,
    XSD_ANYURI,
    XSD_DATETIME,
)

EID_MENTION = re.compile(r"@(eid_[0-9a-f]{8})\b")
CUSTOMER_ID = re.compile(r"\bCUST-\d{4}\b")
DOC_LINK = re.compile(r"/archives/docs/([A-Za-z0-9_\-]+)")
URL = re.compile(r"https?://[^\s<>|)\"']+")
MESSAGE_INDEX = re.compile(r"^(\d{8})-(\d+)-")


def normalise_url(url: str) -> str:
    """Compare links without scheme, `www.`, trailing slash or trailing punctuation."""
    url = url.rstrip(".,;:!?>")
    url = re.sub(r"^https?://(www\.)?", "", url.strip().casefold())
    return url.rstrip("/")


class LinkIndex:
    """The product's linkable artifacts by normalised URL: documents, pull requests, url artifacts."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx

    @cached_property
    def by_url(self) -> dict[str, tuple[str, NamedNode]]:
        out: dict[str, tuple[str, NamedNode]] = {}
        for kind, key in (("prs", "link"), ("urls", "link"), ("documents", "document_link")):
            for rec in self.ctx.records(kind):
                if isinstance(rec.get(key), str):
                    out[normalise_url(rec[key])] = (kind, self.ctx.artifact(rec["id"]))
        return out

    @cached_property
    def document_ids(self) -> set[str]:
        return {rec["id"] for rec in self.ctx.records("documents")}


def link_index(ctx: RuleContext) -> LinkIndex:
    if "links" not in ctx.facts:
        ctx.facts["links"] = LinkIndex(ctx)
    return ctx.facts["links"]


@rule("mentions", "An `@eid_…` in a message: the message ekg:mentions that employee.")
def mentions(ctx: RuleContext) -> None:
    for msg in ctx.messages:
        for eid in dict.fromkeys(EID_MENTION.findall(msg.text)):
            ctx.add(ctx.artifact(msg.id), MENTIONS, ctx.person(eid))


PURPOSES = {
    "planning": term("ekg:PlanningChannel"),
    "develop": term("ekg:DevelopChannel"),
    "bug": term("ekg:BugChannel"),
}


@rule(
    "channel-purpose",
    "A channel named planning-…, develop-… or bug-…: ekg:channelPurpose ekg:PlanningChannel, "
    "ekg:DevelopChannel or ekg:BugChannel.",
)
def channel_purpose(ctx: RuleContext) -> None:
    for channel in ctx.channels.values():
        purpose = PURPOSES.get(channel[0].channel.split("-", 1)[0].casefold())
        if purpose is not None:
            ctx.add(node("channel", channel[0].channel_id), CHANNEL_PURPOSE, purpose)


#: Slack's own note opening a channel: "@eid_… created this channel on 2026-04-19 00:29:00." (10 of HERB's 302
#: notes quote the id: "@'eid_…' created …").
CREATED_CHANNEL = re.compile(
    r"^@'?(eid_[0-9a-f]{8})'? created this channel on (\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})"
)


@rule(
    "channel-creation",
    "Slack's note '@eid_… created this channel on <time>': the channel's ekg:channelCreator and dct:created, "
    "the channel prov:wasDerivedFrom the note (a channel created twice under one name keeps both).",
)
def channel_creation(ctx: RuleContext) -> None:
    for msg in ctx.messages:
        if (found := CREATED_CHANNEL.match(msg.text)) is None:
            continue
        channel = node("channel", msg.channel_id)
        ctx.add(channel, CHANNEL_CREATOR, ctx.person(found.group(1)))
        ctx.add(channel, DCT_CREATED, Literal(f"{found.group(2)}T{found.group(3)}", datatype=XSD_DATETIME))
        ctx.add(channel, WAS_DERIVED_FROM, ctx.artifact(msg.id))


@rule("customer-mentions", "A `CUST-nnnn` in a message: the message ekg:mentionsCustomer that customer.")
def customer_mentions(ctx: RuleContext) -> None:
    for msg in ctx.messages:
        for cust in dict.fromkeys(CUSTOMER_ID.findall(msg.text)):
            ctx.add(ctx.artifact(msg.id), MENTIONS_CUSTOMER, ctx.customer(cust))


@rule(
    "links",
    "A URL in a message: ekg:linksTo the document or PR it names, ekg:sharesLink a url artifact, "
    "else the bare URL as ekg:mentionsURL.",
)
def links(ctx: RuleContext) -> None:
    index = link_index(ctx)
    for msg in ctx.messages:
        subject = ctx.artifact(msg.id)
        for url in dict.fromkeys(URL.findall(msg.text)):
            doc = DOC_LINK.search(url)
            target = index.by_url.get(normalise_url(url))
            if doc and doc.group(1) in index.document_ids:
                ctx.add(subject, LINKS_TO, ctx.artifact(doc.group(1)))
            elif target and target[0] == "urls":
                ctx.add(subject, SHARES_LINK, target[1])
            elif target:
                ctx.add(subject, LINKS_TO, target[1])
            else:
                ctx.add(subject, MENTIONS_URL, Literal(url.rstrip(".,;:!?>"), datatype=XSD_ANYURI))


def conversations(channel: list[Message]) -> list[list[Message]]:
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


def product_conversations(ctx: RuleContext) -> list[list[Message]]:
    """Every conversation of the product, computed once and shared with later rules through ctx.facts."""
    if "conversations" not in ctx.facts:
        ctx.facts["conversations"] = [run for chan in ctx.channels.values() for run in conversations(chan)]
    return ctx.facts["conversations"]


@rule(
    "conversations",
    "Messages of one channel numbered 0, 1, 2, … on one day (each joining the latest run "
    "ending at the previous number) form an ekg:Conversation; each message "
    "ekg:inConversation it.",
)
def conversation_rule(ctx: RuleContext) -> None:
    for run in product_conversations(ctx):
        conv = ctx.derived("conversation", run[0].id, "ekg:Conversation", [m.id for m in run])
        ctx.add(conv, CONVERSATION_IN, node("channel", run[0].channel_id))
        for msg in run:
            ctx.add(ctx.artifact(msg.id), IN_CONVERSATION, conv)
