"""Rules over every Slack message's text: mentions, customers, links, shared URLs, conversations."""

from __future__ import annotations

import re
from functools import cached_property

from pyoxigraph import Literal, NamedNode

from kg.namespaces import node, term
from kg.rules import Message, RuleContext, rule

EID_MENTION = re.compile(r"@(eid_[0-9a-f]{8})\b")
CUSTOMER_ID = re.compile(r"\bCUST-\d{4}\b")
DOC_LINK = re.compile(r"/archives/docs/([A-Za-z0-9_\-]+)")
URL = re.compile(r"https?://[^\s<>|)\"']+")
MESSAGE_INDEX = re.compile(r"^(\d{8})-(\d+)-")

MENTIONS = term("ekg:mentions")
MENTIONS_CUSTOMER = term("ekg:mentionsCustomer")
LINKS_TO = term("ekg:linksTo")
SHARES_LINK = term("ekg:sharesLink")
MENTIONS_URL = term("ekg:mentionsURL")
IN_CONVERSATION = term("ekg:inConversation")
CONVERSATION_IN = term("ekg:conversationIn")
XSD_ANYURI = term("xsd:anyURI")


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


@rule("customer-mentions", "A `CUST-nnnn` in a message: the message ekg:mentionsCustomer that customer.")
def customer_mentions(ctx: RuleContext) -> None:
    for msg in ctx.messages:
        for cust in dict.fromkeys(CUSTOMER_ID.findall(msg.text)):
            ctx.add(ctx.artifact(msg.id), MENTIONS_CUSTOMER, ctx.customer(cust))


@rule("links", "A URL in a message: ekg:linksTo the document or PR it names, ekg:sharesLink a url artifact, "
               "else the bare URL as ekg:mentionsURL.")
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
    """Split a channel's messages into conversations: HERB numbers each conversation's messages 0, 1, 2, …
    within a day (`YYYYMMDD-i-hash`), so a new conversation starts at index 0 or on a new day."""
    runs: list[list[Message]] = []
    last_day = None
    for msg in channel:
        match = MESSAGE_INDEX.match(msg.id)
        day, index = (match.group(1), int(match.group(2))) if match else (None, -1)
        if not runs or index == 0 or day != last_day:
            runs.append([])
        runs[-1].append(msg)
        last_day = day
    return runs


@rule("conversations", "Consecutive messages of one channel numbered 0, 1, 2, … on one day form an "
                       "ekg:Conversation; each message ekg:inConversation it.")
def conversation_rule(ctx: RuleContext) -> None:
    for channel in ctx.channels.values():
        for run in conversations(channel):
            conv = ctx.derived("conversation", run[0].id, "ekg:Conversation", [m.id for m in run])
            ctx.add(conv, CONVERSATION_IN, node("channel", run[0].channel_id))
            for msg in run:
                ctx.add(ctx.artifact(msg.id), IN_CONVERSATION, conv)
