"""Pull-request rules over the `develop-*` channels (documented in mappings/rules/features.md).

HERB's feature work follows one script per product: an engineer shares a team PR in a develop channel
("please check my PR … /pull/N") and the channel reviews it; later a conversation may open on "PR# N"
because of a security risk, a change in product direction or bugs, ending in a "Revert PR# N: …" PR (when N
was merged) or in holding N back (when it was approved but not merged); and a lead may announce "we've
decided to move forward with merging PRs N, M" after a change of priorities. These rules make each of those
a typed edge so that PR questions are graph look-ups: which conversation reviewed a PR, which PR reverted
which, and an ekg:FeatureDecision node (dropped / delayed, with its reason) derived from the messages that
decided it. The plain PR fields (title, state, merged, reviews) are mapped declaratively in
mappings/herb.yaml. The names a product goes by beside its own are read here too, since its repository and early
artifacts use them: a former name from the rename thread, and a code name its document ids carry.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from pyoxigraph import Literal

from kg.ingest.herb import artifacts
from kg.ingest.rules import Message, RuleContext, rule, slug
from kg.ingest.rules.documents import VERSION_MARKERS
from kg.ingest.rules.events import DecisionFacts
from kg.ingest.rules.messages import conversations as threads
from kg.namespaces import node, term
from kg.text import is_english
from kg.vocab import (
    CODE_NAME,
    CODE_NAME_OF,
    DCT_CREATED,
    DECISION_KIND,
    DECISION_ON,
    DISCUSSED_IN,
    FEATURE_STATUS,
    FORMER_NAME,
    RDF_TYPE,
    RENAMED_TO,
    REVERTED_BY,
    STATUS_REASON,
    XSD_DATETIME,
)

DEVELOP_CHANNEL = "develop-"
PR_LINK = re.compile(r"https://github\.com/[\w.-]+/[\w.-]+/pull/\d+")
TEAM_LOGIN = re.compile(r"eid_[0-9a-f]{8}")
REVERT_TITLE = re.compile(r"^\s*Revert\s+PR\s*#?\s*(\d+)", re.I)
PR_NUMBER = re.compile(r"\bPR\s*#\s*(\d+)", re.I)
MERGE_LATER = re.compile(r"\bmerg\w*\s+(?:the\s+)?PRs?\s+((?:#?\d+(?:\s*,\s*|\s+and\s+)?)+)", re.I)
RENAME = re.compile(
    r"\b(?:renam\w*|chang\w*\s+(?:the\s+)?(?:product\s+)?name|name\s+change)\b.*?"
    r"\bfrom\s+(\S+?)\s+to\s+(\S+?)[\s.?!,]",
    re.I,
)
#: A document id's version word ("final_", "_final", "latest_", "new_"), as the document-versions rule reads it.
VERSION_WORD = re.compile("|".join(pattern.pattern for pattern, _ in VERSION_MARKERS))
#: Fewer letters than this name nothing on their own ("ai").
CODE_NAME_MIN = 3
#: A capital after the first letter ("ProX"): a coined name, never an English word as written.
COINED = re.compile(r".[A-Z]")
#: Reason words, checked in this order: a security concern outranks a direction change, which outranks bugs.
REASONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("SecurityRisk", re.compile(r"\bsecurity\b|\bvulnerab", re.I)),
    ("ProductDirectionChange", re.compile(r"\bdirection\b|\bpivot|\bpriorit|\bstrateg", re.I)),
    ("IntroducedBugs", re.compile(r"\bbugs?\b|\berrors?\b|\bcrash|\bissues?\b", re.I)),
)


@dataclass
class TeamPR:
    """A team PR (author login is an eid) shared in a develop channel, with what the rules learn about it."""

    rec: dict
    conversation: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return str(self.rec["id"])

    @property
    def number(self) -> int:
        return int(self.rec["number"])

    @property
    def title(self) -> str:
        return str(self.rec.get("title", ""))

    @property
    def merged(self) -> bool:
        return str(self.rec.get("merged")).casefold() == "true"

    @property
    def approved(self) -> bool:
        return any(str(r.get("state")).upper() == "APPROVED" for r in self.rec.get("reviews", []))

    @property
    def created(self) -> str:
        return str(self.rec.get("created_at", ""))

    @property
    def author(self) -> str:
        return str(self.rec["user"]["login"])

    @property
    def reverts(self) -> int | None:
        match = REVERT_TITLE.match(self.title)
        return int(match.group(1)) if match else None


def reason_of(text: str) -> str | None:
    """The first reason (security > direction > bugs) whose words occur in the text."""
    return next((name for name, pattern in REASONS if pattern.search(text)), None)


#: How many replies after a thread's opener may give the reason when the opener gives none.
REASON_REPLIES = 3


def thread_reason(run: list[Message]) -> str | None:
    """Why a develop thread about a PR dropped it: the opener's reason, else the next few replies' ("I've heard
    there's a discussion about reverting PR# 15" / "The product direction has shifted …"). Never the revert
    PR's title or the PR's summary: a security PR can be dropped because the product direction changed."""
    return reason_of(run[0].text) or reason_of(" ".join(m.text for m in run[1 : 1 + REASON_REPLIES]))


def develop_conversations(ctx: RuleContext) -> list[list[Message]]:
    """Conversations of the develop channels, in channel and time order (cached per product)."""
    if "develop_conversations" not in ctx.facts:
        ctx.facts["develop_conversations"] = [
            run
            for channel in ctx.channels.values()
            if channel[0].channel.startswith(DEVELOP_CHANNEL)
            for run in threads(channel)
        ]
    return ctx.facts["develop_conversations"]


def team_prs(ctx: RuleContext) -> dict[int, TeamPR]:
    """Team PRs shared in a develop channel, by number, each with the conversation that shared it."""
    if "team_prs" not in ctx.facts:
        shared: dict[str, list[str]] = {}
        for run in develop_conversations(ctx):
            for msg in run:
                for link in PR_LINK.findall(msg.text):
                    shared.setdefault(link, [])
                    shared[link] += [m.id for m in run if m.id not in shared[link]]
        out: dict[int, TeamPR] = {}
        for rec in ctx.records("prs"):
            login = str(rec.get("user", {}).get("login", ""))
            number = str(rec.get("number", ""))
            if rec.get("link") in shared and TEAM_LOGIN.fullmatch(login) and number.isdigit():
                out[int(rec["number"])] = TeamPR(rec, shared[rec["link"]])
        ctx.facts["team_prs"] = out
    return ctx.facts["team_prs"]


@rule(
    "pr-review-conversation",
    "A team PR whose link is shared in a develop channel: the PR ekg:discussedIn "
    "every message of the conversation that shared and reviewed it.",
)
def pr_review_conversation(ctx: RuleContext) -> None:
    for pr in team_prs(ctx).values():
        for msg_id in pr.conversation:
            ctx.add(ctx.artifact(pr.id), DISCUSSED_IN, ctx.artifact(msg_id))


@rule("pr-revert", "A team PR titled 'Revert PR# N: …': an ekg:RevertPullRequest, and PR N ekg:revertedBy it.")
def pr_revert(ctx: RuleContext) -> None:
    prs = team_prs(ctx)
    for pr in prs.values():
        if pr.reverts is not None:
            ctx.add(ctx.artifact(pr.id), RDF_TYPE, term("ekg:RevertPullRequest"))
        if pr.reverts is not None and pr.reverts in prs:
            ctx.add(ctx.artifact(prs[pr.reverts].id), REVERTED_BY, ctx.artifact(pr.id))


def _decide(
    ctx: RuleContext, pr: TeamPR, kind: str, status: str, reason: str | None, sources: list[str], at: str
) -> None:
    """A FeatureDecision dated `at` (when it was taken: the revert PR's creation, or the deciding message)."""
    decision = ctx.derived("decision", f"{pr.number}-{kind}", "ekg:FeatureDecision", dict.fromkeys(sources))
    ctx.add(decision, DECISION_ON, ctx.artifact(pr.id))
    ctx.add(decision, DECISION_KIND, Literal(kind))
    ctx.add(decision, FEATURE_STATUS, term(f"ekg:{status}"))
    ctx.add(decision, DCT_CREATED, Literal(at, datatype=XSD_DATETIME))
    facts = DecisionFacts(decision, pr.number, kind, status, at, tuple(dict.fromkeys(sources)))
    ctx.facts.setdefault("decisions", []).append(facts)
    if reason:
        ctx.add(decision, STATUS_REASON, term(f"ekg:{reason}"))


@rule(
    "pr-decision",
    "A develop conversation opening on 'PR# N': if N was reverted, a FeatureDecision 'reverted' (Dropped) "
    "with the reason read from the conversation (its opener, else the next replies), never the revert PR's "
    "title; if N is approved but unmerged, "
    "'held' (Dropped). 'merging PRs N, M': 'merge-later' (Delayed), citing any earlier talk on N. Each is "
    "dated (dct:created) when it was taken: the revert PR's creation or the deciding message.",
)
def pr_decision(ctx: RuleContext) -> None:
    prs = team_prs(ctx)
    reverters = {pr.reverts: pr for pr in prs.values() if pr.reverts is not None and pr.reverts in prs}
    talks: dict[int, list[str]] = {}
    for run in develop_conversations(ctx):
        opening = PR_NUMBER.search(run[0].text)
        target = prs.get(int(opening.group(1))) if opening else None
        if target is None or target.reverts is not None:
            continue
        ids = [m.id for m in run]
        if target.number in reverters:
            revert = reverters[target.number]
            _decide(
                ctx,
                target,
                "reverted",
                "Dropped",
                thread_reason(run),
                [*ids, revert.id, *revert.conversation],
                revert.created,
            )
        elif target.approved and not target.merged:
            _decide(ctx, target, "held", "Dropped", thread_reason(run), ids, run[0].timestamp)
        else:
            talks[target.number] = talks.get(target.number, []) + ids
    for run in develop_conversations(ctx):
        for msg in run:
            if match := MERGE_LATER.search(msg.text):
                for number in map(int, re.findall(r"\d+", match.group(1))):
                    if number in prs:
                        sources = [msg.id, *talks.get(number, [])]
                        _decide(ctx, prs[number], "merge-later", "Delayed", reason_of(msg.text), sources, msg.timestamp)


@rule(
    "product-rename",
    "A conversation opening with 'renaming the product from X to Y': an ekg:ProductRename "
    "(ekg:formerName X, ekg:renamedTo the product) derived from that conversation.",
)
def product_rename(ctx: RuleContext) -> None:
    for channel in ctx.channels.values():
        for run in threads(channel):
            if match := RENAME.search(run[0].text):
                rename = ctx.derived("rename", run[0].id, "ekg:ProductRename", [m.id for m in run])
                former = match.group(1).strip("'\"")
                ctx.facts.setdefault("product-rename", []).append(former)
                ctx.add(rename, FORMER_NAME, Literal(former))
                ctx.add(rename, RENAMED_TO, node("product", ctx.product.name))


def id_name(doc_id: str, kind: str) -> str | None:
    """The name a document id carries before its kind, version words dropped: "prox" in
    `prox_market_research_report_final`, "paix" in `latest_paix_market_research_report`."""
    stem, suffix = VERSION_WORD.sub("", doc_id.casefold()), "_" + slug(kind).replace("-", "_")
    return stem.removesuffix(suffix) if stem.endswith(suffix) and stem != suffix else None


def spelled(name: str, texts: list[str]) -> str:
    """How the product's text writes the name: its most used spelling with a capital ("ProX" for "prox"), as
    people write a name; the id's own lower case when the text never capitalises it."""
    pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", re.I)
    counts = Counter(found for text in texts for found in pattern.findall(text))
    return max(counts, key=lambda s: (s != s.casefold(), counts[s], s), default=name)


def is_code_name(spelling: str) -> bool:
    """Long enough to name something, and no English word as written ("prox" is a dictionary word, "ProX" a
    coined name)."""
    name = spelling.casefold()
    return len(name) >= CODE_NAME_MIN and not (is_english(name) and not COINED.search(spelling))


def code_names(ctx: RuleContext) -> dict[str, list[str]]:
    """Each code name of the product, as its text spells it, with the documents whose ids carry it: names the
    product does not already have (its name, its former names from product-rename)."""
    taken = {ctx.product.name.casefold(), *(n.casefold() for n in ctx.facts.get("product-rename", []))}
    carried: dict[str, list[str]] = {}
    for doc in ctx.records("documents"):
        if (name := id_name(doc["id"], str(doc.get("type", "")))) and name not in taken:
            carried.setdefault(name, []).append(doc["id"])
    texts = [text for _, _, text in artifacts(ctx.product)] if carried else []
    spellings = {name: spelled(name, texts) for name in carried}
    return {spellings[name]: docs for name, docs in carried.items() if is_code_name(spellings[name])}


@rule(
    "product-code-names",
    "A name a product's document ids carry before the document kind (`prox_…_final` for LeadForce) that is "
    "not the product's name or former name: an ekg:ProductCodeName (ekg:codeName as the text spells it, "
    "'ProX'; ekg:codeNameOf the product) derived from those documents. Runs after product-rename.",
)
def product_code_names(ctx: RuleContext) -> None:
    for spelling, doc_ids in code_names(ctx).items():
        named = ctx.derived("codename", slug(spelling), "ekg:ProductCodeName", doc_ids)
        ctx.add(named, CODE_NAME, Literal(spelling))
        ctx.add(named, CODE_NAME_OF, ctx.product_node)
