"""Feature rules: feature tracks from sprint-review transcripts and team PRs (documented in
mappings/rules/features.md).

A product's `product_dev_*` meeting transcripts are, in date order, one planning meeting (the features to
build) and then sprint reviews that assign one pending task per feature ("Next, we have the task of
improving data ingestion efficiency. Hannah, you're assigned to …"). Each task becomes team PRs with one
title (a PR and its resubmissions). A task is assigned at the last sprint review held before its first PR
was opened; the feature it serves is named in the review's lines from the nearest feature cue ("Next, …", "…
task of …") down to the line that best matches the PR's title and summary. An engineer keeps one feature
across sprints, so the tasks first opened by one engineer form one ekg:Feature, whose ekg:keyword literals
are the normalised words named in at least half of its tasks' review lines. Questions name a feature by a
phrase; `feature_tokens` normalises it the same way, so the query side only compares word sets.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Any

from pyoxigraph import Literal

from kg.namespaces import term
from kg.rules import RuleContext, rule
from kg.rules.prs import TeamPR, team_prs

PRODUCT_DEV = "product_dev_"
WORD = re.compile(r"[a-z0-9]+")
STOPWORDS = frozenset({
    "a", "an", "the", "of", "for", "to", "in", "on", "and", "or", "with", "by", "from", "into", "at", "as",
    "is", "are", "be", "this", "that", "it", "its", "our", "we", "you", "your", "i", "via", "new", "task",
    "tasks",
    "feature", "features", "pr", "prs", "up"})
SUFFIXES = ("ments", "ions", "ment", "ion", "ing", "es", "ed", "s")  # longest first
#: A line that opens a feature's part of a sprint review.
FEATURE_CUE = re.compile(
    r"\b(?:next|lastly|finally|first up|first,|moving on|move on|let's start|start with|up next|onto|then|"
    r"now,? (?:for|on)|task (?:of|to|on)|(?:the|our) [\w/ -]+ task)\b", re.I)

IMPLEMENTED_BY = term("ekg:implementedBy")
RESPONSIBLE = term("ekg:responsible")
KEYWORD = term("ekg:keyword")
DISCUSSED_IN = term("ekg:discussedIn")
PREF_LABEL = term("skos:prefLabel")
PLANNED_IN = term("ekg:plannedIn")


def stem(word: str) -> str:
    """Crude suffix stripping so 'integrating' / 'integration' / 'integrate' meet at 'integrat'."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def feature_tokens(text: str) -> list[str]:
    """Normalised content words of a phrase: casefolded, stop words dropped, suffixes stripped."""
    return [stem(w) for w in WORD.findall(text.casefold()) if w not in STOPWORDS]


def transcript_lines(rec: dict[str, Any]) -> list[str]:
    """The spoken lines of a meeting transcript (speaker prefix removed), after its 'Transcript' header."""
    text = str(rec.get("transcript", ""))
    body = text.split("Transcript", 1)[1] if "Transcript" in text else text
    return [line.partition(": ")[2] or line for line in body.strip().splitlines() if line.strip()]


def dev_meetings(ctx: RuleContext) -> list[dict[str, Any]]:
    """The product's `product_dev_*` transcripts in date order: the planning meeting, then sprint reviews."""
    recs = [r for r in ctx.records("meeting_transcripts") if str(r.get("id", "")).startswith(PRODUCT_DEV)]
    return sorted(recs, key=lambda r: str(r.get("date", "")))


def tasks_of(prs: dict[int, TeamPR]) -> dict[str, list[TeamPR]]:
    """Non-revert team PRs grouped by title (a task and its resubmissions), oldest PR first."""
    out: dict[str, list[TeamPR]] = defaultdict(list)
    for pr in sorted(prs.values(), key=lambda p: (p.created, p.number)):
        if pr.reverts is None:
            out[pr.title.casefold().strip()].append(pr)
    return dict(out)


def review_before(reviews: list[dict[str, Any]], created: str) -> dict[str, Any] | None:
    """The last sprint review held before a PR was opened: where its task was assigned."""
    held = [r for r in reviews if str(r.get("date", "")) <= created]
    return held[-1] if held else None


def feature_lines(lines: list[str], pr: TeamPR) -> list[str]:
    """The review lines naming the PR's feature: from the nearest feature cue to the best-matching line."""
    wanted = set(feature_tokens(pr.title + " " + str(pr.rec.get("summary", ""))))
    scores = [len(wanted & set(feature_tokens(line))) for line in lines]
    anchor = max(range(len(lines)), key=lambda i: (scores[i], -i))
    start = anchor
    while start > 0 and not FEATURE_CUE.search(lines[start]):
        start -= 1
    return lines[start:anchor + 1]


def majority_keywords(segments: list[list[str]]) -> list[str]:
    """Words named in at least half of a feature's task segments, in first-seen order."""
    counts = Counter(w for seg in segments for w in dict.fromkeys(feature_tokens(" ".join(seg))))
    return [w for w, n in counts.items() if 2 * n >= len(segments)]


@rule("feature-tracks",
      "Team PRs grouped by title into tasks, tasks assigned at the sprint review before their first PR, "
      "tasks first opened by one engineer into one ekg:Feature with ekg:keyword words from the review "
      "lines; ekg:implementedBy each PR, PRs ekg:discussedIn their reviews.")
def feature_tracks(ctx: RuleContext) -> None:
    meetings = dev_meetings(ctx)
    if not meetings:
        return
    planning, reviews = meetings[0], meetings[1:]
    lines = {str(r["id"]): transcript_lines(r) for r in reviews}
    by_engineer: dict[str, list[tuple[list[TeamPR], list[str]]]] = defaultdict(list)
    for task in tasks_of(team_prs(ctx)).values():
        held = [rv for rv in (review_before(reviews, pr.created) for pr in task) if rv is not None]
        seen = list(dict.fromkeys(str(rv["id"]) for rv in held))
        for pr in task:
            for review_id in seen:
                ctx.add(ctx.artifact(pr.id), DISCUSSED_IN, ctx.artifact(review_id))
        segment = feature_lines(lines[seen[0]], task[0]) if seen else []
        by_engineer[task[0].author].append((task, segment))
    for engineer, tasks in by_engineer.items():
        sources = [str(planning["id"])] + [pr.id for task, _ in tasks for pr in task]
        feature = ctx.derived("feature", engineer, "ekg:Feature", sources)
        ctx.add(feature, PLANNED_IN, ctx.artifact(str(planning["id"])))
        ctx.add(feature, RESPONSIBLE, ctx.person(engineer))
        label = next((seg[0] for _, seg in tasks if seg), tasks[0][0][0].title)
        ctx.add(feature, PREF_LABEL, Literal(label))
        for word in majority_keywords([seg for _, seg in tasks]):
            ctx.add(feature, KEYWORD, Literal(word))
        for task, _ in tasks:
            for pr in task:
                ctx.add(feature, IMPLEMENTED_BY, ctx.artifact(pr.id))
