"""Pull-request and feature lifecycles as dated state events (documented in mappings/rules/lifecycles.md).

The bug rules write their own events (kg/ingest/rules/bugs.py); these rules do the same for the other two kinds of
item whose state questions ask about at a time, so that `sparql/asof_state.rq` reads all three alike.

- A pull request is **opened** at its `created_at`, **approved** at its first APPROVED review, **merged** or
  **closed** (unmerged) at its last review, and **reverted** when a team PR titled "Revert PR# N" is opened.
  HERB records no merge or close time: the last review is the latest act it records before either, so the
  merge is dated there (at `created_at` when there is no review). A message that says the PR had been merged
  (a bug resolution linking it as the fix, a develop message "PR# N was merged") is kept as the merge's
  evidence and bounds it: the merge is never dated after it. An event is never dated before the one it follows.
- A feature is **discussed** at its planning meeting, **implemented** when its first PR merges, and
  **delayed** or **dropped** when a feature decision on one of its PRs is taken (kg/ingest/rules/prs.py dates it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pyoxigraph import Literal

from kg.ingest.rules import Message, RuleContext, rule
from kg.ingest.rules.bugs import bug_conversations, fixing_prs
from kg.ingest.rules.events import DecisionFacts, FeatureFacts, state_event
from kg.ingest.rules.prs import PR_LINK, PR_NUMBER, TeamPR, develop_conversations, team_prs
from kg.vocab import AGENT, DCT_CREATED, XSD_DATETIME

#: The state each kind of event leaves its item in (ekg:PullRequestState and ekg:FeatureStatus concepts).
PR_STATE_AFTER = {
    "opened": "ekg:PullRequestOpen",
    "approved": "ekg:PullRequestApproved",
    "merged": "ekg:PullRequestMerged",
    "closed": "ekg:PullRequestClosed",
    "reverted": "ekg:PullRequestReverted",
}
FEATURE_STATE_AFTER = {
    "discussed": "ekg:Discussed",
    "implemented": "ekg:Implemented",
    "delayed": "ekg:Delayed",
    "dropped": "ekg:Dropped",
}
#: A develop message saying a PR had been merged ("PR# 20 has been merged", "after PR#17 was merged") …
MERGED_SAID = re.compile(r"\b(?:was|were|has been|have been|got)\s+(?:approved and\s+)?merged\b", re.I)
#: … and not that it had not ("approved but not merged yet").
NOT_MERGED = re.compile(r"\bnot\s+(?:yet\s+)?(?:been\s+)?merged\b", re.I)
#: A feature decision's status -> the feature event it is.
DECISION_EVENT = {"Delayed": "delayed", "Dropped": "dropped"}


@dataclass(frozen=True)
class Step:
    """One event of an item's life before it is written: what, when, by whom, read from which artifacts."""

    kind: str
    at: str
    agent: str | None
    sources: tuple[str, ...]


def review_times(rec: dict[str, Any]) -> list[str]:
    return sorted(str(r["submitted_at"]) for r in rec.get("reviews", []) if r.get("submitted_at"))


def first_approval(rec: dict[str, Any]) -> dict[str, Any] | None:
    approvals = [
        r for r in rec.get("reviews", []) if str(r.get("state")).upper() == "APPROVED" and r.get("submitted_at")
    ]
    return min(approvals, key=lambda r: str(r["submitted_at"]), default=None)


def merge_witnesses(ctx: RuleContext) -> dict[str, Message]:
    """Per PR id, the earliest message saying it had been merged: a message of a bug resolution conversation
    that links it (the fix is in when the bug is resolved) or a develop message "PR# N / <link> was merged"."""
    ids = {ctx.artifact(str(rec["id"])): str(rec["id"]) for rec in ctx.records("prs") if rec.get("id")}
    said: list[tuple[str, Message]] = [
        (ids[pr], msg)
        for kind, run in bug_conversations(ctx)
        if kind == "resolved"
        for msg in run
        for pr in fixing_prs(ctx, [msg])
        if pr in ids
    ]
    prs = team_prs(ctx)
    by_link = {pr.rec.get("link"): pr for pr in prs.values()}
    for run in develop_conversations(ctx):
        for msg in run:
            if MERGED_SAID.search(msg.text) and not NOT_MERGED.search(msg.text):
                named = [prs.get(int(n)) for n in PR_NUMBER.findall(msg.text)]
                said += [(pr.id, msg) for pr in [*named, *map(by_link.get, PR_LINK.findall(msg.text))] if pr]
    first: dict[str, Message] = {}
    for pr_id, msg in sorted(said, key=lambda s: (s[1].timestamp, s[1].id)):
        first.setdefault(pr_id, msg)
    return first


def pr_steps(rec: dict[str, Any], reverter: TeamPR | None, witness: Message | None = None) -> list[Step]:
    """A PR's life in order; each step dated no earlier than the step before it. `witness`: the first message
    saying it had been merged, the merge's evidence and the latest it can be dated."""
    pr_id, created = str(rec["id"]), str(rec.get("created_at", ""))
    steps = [Step("opened", created, str(rec.get("user", {}).get("login") or "") or None, (pr_id,))]
    if approval := first_approval(rec):
        steps.append(
            Step(
                "approved",
                str(approval["submitted_at"]),
                str(approval.get("user", {}).get("login") or "") or None,
                (pr_id,),
            )
        )
    ended = (review_times(rec) or [created])[-1]
    if str(rec.get("merged")).casefold() == "true":
        if witness is None:
            steps.append(Step("merged", ended, None, (pr_id,)))
        else:
            steps.append(Step("merged", min(ended, witness.timestamp), None, (pr_id, witness.id)))
        if reverter is not None:
            steps.append(Step("reverted", reverter.created, reverter.author, (pr_id, reverter.id)))
    elif str(rec.get("state")).casefold() == "closed":
        steps.append(Step("closed", ended, None, (pr_id,)))
    dated: list[Step] = []
    for step in steps:
        at = max(step.at, dated[-1].at) if dated else step.at
        dated.append(Step(step.kind, at, step.agent, step.sources))
    return dated


def pr_lifecycles(ctx: RuleContext) -> dict[str, list[Step]]:
    """Every PR's steps, by PR id (cached: the feature events read the merges)."""
    if "pr_lifecycles" not in ctx.facts:
        prs = team_prs(ctx)
        reverters = {prs[p.reverts].id: p for p in prs.values() if p.reverts is not None and p.reverts in prs}
        witnesses = merge_witnesses(ctx)
        ctx.facts["pr_lifecycles"] = {
            str(rec["id"]): pr_steps(rec, reverters.get(str(rec["id"])), witnesses.get(str(rec["id"])))
            for rec in ctx.records("prs")
            if rec.get("id") and rec.get("created_at")
        }
    return ctx.facts["pr_lifecycles"]


def write_steps(
    ctx: RuleContext, item_kind: str, item_key: str, item: Any, steps: list[Step], cls: str, states: dict[str, str]
) -> None:
    """One event node per step, numbered in order (ekg:sequence), each derived from its step's artifacts."""
    for sequence, step in enumerate(steps, start=1):
        record = ctx.derived(item_kind, f"{item_key}/{sequence}-{step.kind}", cls, step.sources)
        ctx.add(record, DCT_CREATED, Literal(step.at, datatype=XSD_DATETIME))
        if step.agent:
            ctx.add(record, AGENT, ctx.agent(step.agent))
        state_event(ctx, record, item, step.kind, states[step.kind], sequence)


@rule(
    "pr-events",
    "Every PR's life as dated ekg:PullRequestEvent nodes: opened (created_at), approved (first "
    "APPROVED review), merged or closed (last review: HERB records no merge time; a message saying it "
    "was merged, a bug resolution linking it or 'PR# N was merged', is the merge's evidence and its latest "
    "date), reverted (the 'Revert PR# N' PR's creation), each with the state it leaves the PR in.",
)
def pr_events(ctx: RuleContext) -> None:
    for pr_id, steps in pr_lifecycles(ctx).items():
        write_steps(ctx, "prevent", pr_id, ctx.artifact(pr_id), steps, "ekg:PullRequestEvent", PR_STATE_AFTER)


def feature_steps(ctx: RuleContext, feature: FeatureFacts, decisions: list[DecisionFacts]) -> list[Step]:
    """A feature's life: discussed at planning, implemented at its first merge, then its decisions, by time."""
    steps = [Step("discussed", feature.planning_date, None, (feature.planning_id,))]
    prs = team_prs(ctx)
    merges = sorted(
        (s.at, prs[n].id)
        for n in feature.pr_numbers
        if n in prs
        for s in pr_lifecycles(ctx).get(prs[n].id, [])
        if s.kind == "merged"
    )
    if merges:
        steps.append(Step("implemented", merges[0][0], None, (merges[0][1],)))
    taken = {}
    for d in sorted(decisions, key=lambda d: d.at):
        if d.pr_number in feature.pr_numbers and d.node not in taken:
            taken[d.node] = Step(DECISION_EVENT[d.status], d.at, None, d.sources)
    order = list(FEATURE_STATE_AFTER)
    return sorted([*steps, *taken.values()], key=lambda s: (s.at, order.index(s.kind)))


@rule(
    "feature-events",
    "Every feature's life as dated ekg:FeatureEvent nodes: discussed (its planning "
    "meeting), implemented (its first PR's merge), delayed / dropped (each feature decision "
    "on one of its PRs), each with the status it leaves the feature in.",
)
def feature_events(ctx: RuleContext) -> None:
    decisions = ctx.facts.get("decisions", [])
    for feature in ctx.facts.get("features", []):
        write_steps(
            ctx,
            "featureevent",
            feature.key,
            feature.node,
            feature_steps(ctx, feature, decisions),
            "ekg:FeatureEvent",
            FEATURE_STATE_AFTER,
        )
