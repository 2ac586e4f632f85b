"""The product's previous release, read from the planning threads of the team that took the product over:
its documents and their authors, what QA specialists and customers reported about it, what customers praised,
and the demos of the previous version that team members shared.

HERB's pattern: a kickoff thread "Let's start by reviewing the documents from the last release" links the
previous release's documents (`<old>prox_<kind>_final`, `latest_<code>_<kind>`); later threads report
"QA team found some issues in the last release of <code>", "one of the common issues reported for <code> is
… reported by Customer ID: CUST-…", "several customers have reported positive things about <code>"; demo
videos of the previous version live under `…/archives/<OldName>/demo_<n>`.
Documented for data stewards in mappings/rules/releases.md.
"""

from __future__ import annotations

import re

from pyoxigraph import Literal, NamedNode

from kg.ingest.rules import Message, RuleContext, rule
from kg.ingest.rules.competitors import shared_demo
from kg.ingest.rules.messages import CUSTOMER_ID, DOC_LINK, URL, product_conversations
from kg.ingest.rules.prose import content_sentences
from kg.vocab import (
    CONTRIBUTED_TO,
    CONTRIBUTION_KIND,
    CONTRIBUTION_TO,
    CONTRIBUTOR,
    CUSTOMER_ISSUE,
    CUSTOMER_PRAISE,
    DCT_CREATED,
    DEMO_LINK,
    DOCUMENT_AUTHORING,
    FEEDBACK_KIND,
    FEEDBACK_ON,
    PREVIOUS_RELEASE,
    QA_ISSUE,
    QA_TESTING,
    RDFS_LABEL,
    RELEASE_DOCUMENT,
    REPORTED_BY,
    TEXT,
    WAS_DERIVED_FROM,
    XSD_DATETIME,
)

KICKOFF = re.compile(r"documents from the (?:last|previous|prior) release", re.I)
DOC_KIND = re.compile(
    r"market_research_report|product_vision_document|product_requirements_document|"
    r"technical_specifications_document|system_design_document"
)
FINAL_DOC = re.compile(rf"^(\w+?)_(?:{DOC_KIND.pattern})_final$")
VERSION_DEMO = re.compile(r"/archives/([^/\s]+)/demo_\d+", re.I)

QA_REPORT = re.compile(
    r"\bQA (?:team )?(?:found|reported|identified) (?:some )?issues? (?:in|with) the "
    r"(?:last|previous|prior) release",
    re.I,
)
QA_SPECIALIST = re.compile(r"\bQA [Ss]pecialist,?\s+@?(eid_[0-9a-f]{8})")
INLINE_FINDING = re.compile(r"\breported that (.+)$", re.S)
CUSTOMER_ISSUE_MESSAGE = re.compile(r"\bissues? reported (?:for|with|about) \S+ (?:is|was)\s+(.+)$", re.S)
CUSTOMER_PRAISE_MESSAGE = re.compile(
    r"\bcustomers? ha(?:ve|s) (?:reported|shared|given) (?:positive|great|good) "
    r"(?:things|feedback)",
    re.I,
)


def release_documents(thread: list[Message], doc_ids: set[str]) -> list[str]:
    """The documents a kickoff thread links, plus every document of the same series (same id with another
    document kind), since a thread may link only some kinds of a release's document set."""
    linked = [d for m in thread for d in DOC_LINK.findall(m.text) if d in doc_ids]
    series = {DOC_KIND.sub("{}", d) for d in linked if DOC_KIND.search(d)}
    same_series = sorted(d for d in doc_ids if DOC_KIND.sub("{}", d) in series)
    return list(dict.fromkeys([*linked, *same_series]))


def version_names(doc_ids: list[str]) -> set[str]:
    """Lower-cased names of the previous version, from its final documents (`extprox_…_final` -> extprox)."""
    return {m.group(1).casefold() for d in doc_ids if (m := FINAL_DOC.match(d))}


def previous_release(ctx: RuleContext) -> NamedNode | None:
    return ctx.facts.get("release")


@rule(
    "release-kickoff",
    'A thread that starts reviewing "the documents from the last release": the product\'s ekg:Release '
    "(ekg:previousRelease), its ekg:releaseDocument set (linked documents and their series), and each "
    "document author ekg:contributedTo it, through an ekg:Contribution derived from document and thread; "
    "the release is dated (dct:created) by its latest document: when it shipped.",
)
def release_kickoff(ctx: RuleContext) -> None:
    doc_ids = {str(r["id"]) for r in ctx.records("documents")}
    dates = {str(r["id"]): str(r["date"]) for r in ctx.records("documents") if r.get("date")}
    shipped: list[str] = []
    authors = {str(r["id"]): str(r["author"]) for r in ctx.records("documents") if r.get("author")}
    for thread in product_conversations(ctx):
        if not KICKOFF.search(thread[0].text):
            continue
        thread_ids = [m.id for m in thread]
        release = ctx.facts.get("release") or ctx.derived("release", "previous", "ekg:Release", [])
        ctx.facts["release"] = release
        ctx.add(ctx.product_node, PREVIOUS_RELEASE, release)
        docs = release_documents(thread, doc_ids)
        ctx.facts.setdefault("release_names", set()).update(version_names(docs))
        for source in thread_ids:
            ctx.add(release, WAS_DERIVED_FROM, ctx.artifact(source))
        shipped += [dates[d] for d in docs if d in dates]
        for doc in docs:
            ctx.add(release, RELEASE_DOCUMENT, ctx.artifact(doc))
            if doc in authors:
                contribution(ctx, release, authors[doc], DOCUMENT_AUTHORING, doc, [doc, *thread_ids])
    if shipped:
        ctx.add(ctx.facts["release"], DCT_CREATED, Literal(max(shipped), datatype=XSD_DATETIME))


def contribution(ctx: RuleContext, release: NamedNode, eid: str, kind: NamedNode, key: str, sources: list[str]) -> None:
    """`eid` ekg:contributedTo the release, with an ekg:Contribution node carrying how and the evidence."""
    person = ctx.agent(eid)
    ctx.add(person, CONTRIBUTED_TO, release)
    item = ctx.derived("contribution", f"{eid}/{key}", "ekg:Contribution", sources)
    ctx.add(item, CONTRIBUTOR, person)
    ctx.add(item, CONTRIBUTION_TO, release)
    ctx.add(item, CONTRIBUTION_KIND, kind)


def feedback(
    ctx: RuleContext, release: NamedNode, kind: NamedNode, key: str, text: str, sources: list[str]
) -> NamedNode:
    item = ctx.derived("release-feedback", key, "ekg:ReleaseFeedback", sources)
    ctx.add(item, FEEDBACK_ON, release)
    ctx.add(item, FEEDBACK_KIND, kind)
    ctx.add(item, TEXT, Literal(text.strip()))
    return item


def prose(text: str) -> str:
    """A message's content sentences (greetings, addressing, invitations to discuss dropped); the text as
    written when every sentence is filler."""
    return " ".join(content_sentences(text)) or text


def qa_finding(thread: list[Message]) -> str | None:
    """What QA found: inline ("… reported that X") or the first reply that is not a question."""
    inline = INLINE_FINDING.search(thread[0].text)
    if inline:
        return prose(inline.group(1))
    for msg in thread[1:3]:
        if not msg.text.rstrip().endswith("?"):
            return prose(msg.text)
    return None


@rule(
    "release-qa-issues",
    'A thread "QA team found some issues in the last release … QA Specialist eid_…": an '
    "ekg:ReleaseFeedback of kind ekg:QAIssue with the finding as ekg:text, ekg:reportedBy the specialist, "
    "who ekg:contributedTo the release.",
)
def release_qa_issues(ctx: RuleContext) -> None:
    release = previous_release(ctx)
    if release is None:
        return
    for thread in product_conversations(ctx):
        if not QA_REPORT.search(thread[0].text):
            continue
        finding = qa_finding(thread)
        if finding is None:
            continue
        ids = [m.id for m in thread]
        item = feedback(ctx, release, QA_ISSUE, thread[0].id, finding, ids)
        specialist = QA_SPECIALIST.search(thread[0].text)
        if specialist:
            ctx.add(item, REPORTED_BY, ctx.agent(specialist.group(1)))
            contribution(ctx, release, specialist.group(1), QA_TESTING, f"qa/{thread[0].id}", ids)


@rule(
    "release-customer-issues",
    'A thread "one of the common issues reported for <code> is … Customer ID: CUST-…": an '
    "ekg:ReleaseFeedback of kind ekg:CustomerIssue (the issue sentence) with ekg:reportedBy that customer.",
)
def release_customer_issues(ctx: RuleContext) -> None:
    release = previous_release(ctx)
    if release is None:
        return
    for thread in product_conversations(ctx):
        match = CUSTOMER_ISSUE_MESSAGE.search(thread[0].text)
        customer = CUSTOMER_ID.search(thread[0].text)
        if match and customer:
            text = customer_issue_text(match.group(1))
            item = feedback(ctx, release, CUSTOMER_ISSUE, thread[0].id, text, [m.id for m in thread])
            ctx.add(item, REPORTED_BY, ctx.customer(customer.group(0)))


def customer_issue_text(rest: str) -> str:
    """The issue sentence after "… is": "that X." / "X.", or for "from Customer ID: CUST-…" the next one."""
    sentences = re.split(r"(?<=[.!?])\s+", rest.strip())
    if sentences[0].casefold().startswith("from customer") and len(sentences) > 1:
        return sentences[1]
    return re.sub(r"^that\s+", "", sentences[0])


@rule(
    "release-customer-praise",
    'A thread "several customers have reported positive things about <code>": each message naming a '
    "CUST id is an ekg:ReleaseFeedback of kind ekg:CustomerPraise, ekg:reportedBy that customer.",
)
def release_customer_praise(ctx: RuleContext) -> None:
    release = previous_release(ctx)
    if release is None:
        return
    for thread in product_conversations(ctx):
        if not CUSTOMER_PRAISE_MESSAGE.search(thread[0].text):
            continue
        ids = [m.id for m in thread]
        for msg in thread:
            for cust in dict.fromkeys(CUSTOMER_ID.findall(msg.text)):
                item = feedback(ctx, release, CUSTOMER_PRAISE, f"{msg.id}/{cust}", prose(msg.text), ids)
                ctx.add(item, REPORTED_BY, ctx.customer(cust))


@rule(
    "release-demos",
    "A message sharing `…/archives/<Name>/demo_<n>` where <Name> is the previous version's name (from its "
    "`<name>_<kind>_final` documents): an ekg:DemoLink of the release, ekg:sharedBy the sender.",
)
def release_demos(ctx: RuleContext) -> None:
    release = previous_release(ctx)
    names = ctx.facts.get("release_names", set())
    if release is None or not names:
        return
    for msg in ctx.messages:
        for url in dict.fromkeys(u.rstrip(".,;:!?>") for u in URL.findall(msg.text)):
            match = VERSION_DEMO.search(url)
            if match and match.group(1).casefold() in names:
                ctx.add(release, DEMO_LINK, shared_demo(ctx, url, msg))
                ctx.add(release, RDFS_LABEL, Literal(match.group(1)))
