"""Competitor intelligence from Slack: which competitor products the team discussed, their strengths and
weaknesses (with who gave the insight), and the competitors' demo links team members shared.

HERB's teams discuss each competitor in a thread that opens "I was reading about <Name> …": one thread on
its features (strengths), one on its weaknesses. Demo links are external `…/demo` URLs posted with the
competitor's name ("see how QuoteMaster Pro works: https://www.quotemasterpro.com/demo").
Documented for data stewards in mappings/rules/competitors.md.
"""

from __future__ import annotations

import re

from pyoxigraph import Literal, NamedNode

from kg.ingest.rules import Message, RuleContext, rule, slug
from kg.ingest.rules.messages import URL, product_conversations
from kg.ingest.rules.prose import content_sentences
from kg.vocab import (
    COMPETITOR_OF,
    DEMO_LINK,
    EKG_URL,
    INSIGHT_ON,
    RDFS_LABEL,
    SHARED_BY,
    STRENGTH,
    WAS_ATTRIBUTED_TO,
    WEAKNESS,
    XSD_ANYURI,
)

#: "I was reading about [a new competitor product called] <Name>" — the name is a run of capitalised words,
#: which may contain "for"/"of" ("SmartSearch for Slack").
_NAME = r"((?:[A-Z][\w\-]*)(?:\s+(?:[A-Z][\w\-]*|for|of))*)"
READING_ABOUT = re.compile(
    r"\bI (?:was|have been|'ve been) (?:reading|looking into|researching) about\s+"
    r"(?:(?:a|an|the|this)\s+)?(?:new\s+)?(?:competitor\s+)?(?:product\s+)?(?:called\s+)?" + _NAME
)
#: Words that make a competitor thread a discussion of weaknesses rather than of features.
WEAKNESS_CUE = re.compile(
    r"weakness|drawback|struggl|falls? short|downside|\bissues?\b|barrier|"
    r"steep learning curve|\blacks?\b",
    re.I,
)
INTERNAL_HOST = re.compile(r"^https?://[^/]*\bsf-internal\b", re.I)
DEMO_PATH = re.compile(r"^https?://[^/]+/(?:[^\s]*/)?demo\b", re.I)


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


#: A reply sentence about the team's own product or plans, not about the competitor.
ABOUT_US = re.compile(r"\b(?:we|we're|we've|our|us|ours)\b", re.I)


def insight_text(thread: list[Message]) -> str:
    """What the insight says: the content sentences of the opener, whose author summarises the competitor
    there; when the opener only announces the topic (no content sentence), the author's reply sentences about
    the competitor (not questions, not about the team's own product)."""
    author = thread[0].author
    kept = content_sentences(thread[0].text)
    if not kept:
        kept += [
            s
            for m in thread[1:]
            if m.author == author
            for s in content_sentences(m.text)
            if not s.endswith("?") and not ABOUT_US.search(s)
        ]
    return " ".join(kept)


@rule(
    "competitor-insights",
    'A thread opened with "I was reading about <Name>" is an insight on competitor <Name>: an '
    "ekg:CompetitorInsight by the opener's author with ekg:strength (features thread) or ekg:weakness "
    "(weaknesses thread) text, derived from every message of the thread.",
)
def competitor_insights(ctx: RuleContext) -> None:
    found: dict[str, str] = {}
    for thread in product_conversations(ctx):
        name = competitor_name(thread[0].text)
        if name is None:
            continue
        ids = [m.id for m in thread]
        competitor = competitor_node(ctx, name, ids)
        insight = ctx.derived("competitor-insight", thread[0].id, "ekg:CompetitorInsight", ids)
        ctx.add(insight, INSIGHT_ON, competitor)
        ctx.add(insight, WAS_ATTRIBUTED_TO, ctx.agent(thread[0].author))
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


@rule(
    "competitor-demos",
    "A message sharing an external `/demo` URL of a known competitor: an ekg:DemoLink with ekg:url, "
    "ekg:sharedBy the sender, and the competitor ekg:demoLink it; derived from the message and the url "
    "artifact.",
)
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
        ctx.facts["url_ids"] = {
            str(r["link"]).rstrip("/"): str(r["id"]) for r in ctx.records("urls") if isinstance(r.get("link"), str)
        }
    return ctx.facts["url_ids"]


def shared_demo(ctx: RuleContext, url: str, msg: Message) -> NamedNode:
    """The ekg:DemoLink node for a URL shared in a message, derived from the message and the url artifact."""
    artifact = url_artifact_ids(ctx).get(url.rstrip("/"))
    demo = ctx.derived("demo", slug(url), "ekg:DemoLink", [msg.id] + ([artifact] if artifact else []))
    ctx.add(demo, EKG_URL, Literal(url, datatype=XSD_ANYURI))
    ctx.add(demo, SHARED_BY, ctx.agent(msg.author))
    return demo


#: "Key competitors include A, B, and C", "competitors like A and B", "competitors such as A", "competitors
#: include tools like A", "key players such as A", "established players in the X space, including companies like
#: A", "faces competition from established collaboration tools like A, B, and C": the list that follows, up to
#: the sentence's end.
NAMED_COMPETITORS = re.compile(
    r"\b(?:competitors|(?:key|major|established|leading|main|notable|emerging)\s+players|"
    r"competition\s+from(?:\s+(?!like\b|such\b|including\b)[\w-]+){0,4}?(?=\s+(?:like|such\s+as|including)\b))"
    r"(?:\s+(?:in|within|across)\s+(?:the\s+)?[\w\s-]{1,60}?\s+(?:space|market|sector|industry|segment))?,?\s+"
    r"(?:(?:may|might|could|would|will)\s+)?(?:include|including|like|such\s+as|are)\s+"
    r"(?:(?:companies|tools|products|platforms|solutions|players|offerings|services)\s+(?:like|such\s+as)\s+)?"
    r"(?P<names>(?:[^.;:!?]|\.(?=\w))+)",
    re.I,
)
#: A list item's leading name: capitalised words, a dotted one whole ("AWS API Gateway", "Otter.ai").
_WORD = r"(?:[A-Z]|\d+[A-Z])[\w\-]*(?:['’]s)?(?:\.\w+)*"
LEADING_NAME = re.compile(rf"^((?:{_WORD})(?:\s+(?:{_WORD}|\d[\w.]*|for|of))*)")
LIST_SEPARATOR = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")


def named_competitors(text: str) -> list[str]:
    """The competitor names a sentence lists after "competitors include / like / such as"; the list ends at
    the first item that is not only a name ("… and AWS API Gateway offer API management")."""
    names: list[str] = []
    for match in NAMED_COMPETITORS.finditer(text):
        for item in LIST_SEPARATOR.split(match.group("names").strip()):
            lead = LEADING_NAME.match(item.strip())
            if not lead:
                break
            name = re.sub(r"\s+(?:for|of)$", "", lead.group(1))
            if re.search(r"['’]s$", name):
                break  # an owner whose product is not named ("Salesforce's own Einstein Analytics")
            names.append(name)
            if lead.group(0) != item.strip():
                break
    return names


#: A comparison table's header row ("| Feature/Competitor | flowAIX | Zapier | Workato |"): the product's own
#: column, then one column per competitor.
TABLE_HEADER = re.compile(r"^\|\s*Feature[^|\n]*\|(?P<cells>[^\n]+)\|\s*$", re.M | re.I)
#: A column standing for no one in particular ("Competitor A").
PLACEHOLDER = re.compile(r"^(?:competitor|company|product|vendor|tool)\s+\w$", re.I)
#: How far before a table its introduction may say it compares competitors, in characters.
TABLE_INTRO = 300


def table_competitors(text: str) -> list[str]:
    """The competitors a comparison table lists in its header: the columns after the product's own, in a
    table whose header or introduction speaks of competitors; every cell must be a name and nothing more."""
    names: list[str] = []
    for match in TABLE_HEADER.finditer(text):
        intro = text[max(0, match.start() - TABLE_INTRO) : match.end()]
        if "compet" not in intro.casefold():
            continue
        cells = [c.strip() for c in match.group("cells").split("|")][1:]
        leads = [LEADING_NAME.match(c) for c in cells]
        if cells and all(lead and lead.group(0) == c for lead, c in zip(leads, cells, strict=True)):
            names += [c for c in cells if not PLACEHOLDER.match(c)]
    return names


@rule(
    "competitors-named",
    'A document or Slack message that lists "competitors include / like / such as A, B and C" names each as '
    "an ekg:CompetitorProduct ekg:competitorOf the product, derived from every artifact that names it (the same "
    "node as a competitor the team discussed by that name).",
)
def competitors_named(ctx: RuleContext) -> None:
    sources: dict[str, dict[str, list[str]]] = {}
    texts = [(str(d["id"]), str(d.get("content", ""))) for d in ctx.records("documents")]
    texts += [(m.id, m.text) for m in ctx.messages]
    for artifact_id, text in texts:
        for name in dict.fromkeys([*named_competitors(text), *table_competitors(text)]):
            sources.setdefault(slug(name), {}).setdefault(name, []).append(artifact_id)
    for names in sources.values():
        name = min(names)  # one spelling per node, the same on every build
        competitor_node(ctx, name, [i for ids in names.values() for i in ids])
