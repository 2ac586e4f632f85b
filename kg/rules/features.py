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
from kg.rules import RuleContext, rule, slug
from kg.rules.documents import UTTERANCE, resolve_name, suggestion_text
from kg.rules.events import FeatureFacts
from kg.rules.prose import WORD
from kg.rules.prs import TeamPR, team_prs

PRODUCT_DEV = "product_dev_"
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
FEATURE_STATUS = term("ekg:featureStatus")
TEXT = term("ekg:text")
AMBIGUOUS_NAME = term("ekg:ambiguousName")
CHANGE_SUMMARY = term("ekg:changeSummary")
SUMMARY_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
#: "This PR introduces / focuses on / optimizes …": the framing before what a PR summary says it changes.
PR_FRAMING = re.compile(r"^This PR (?:also )?(?P<verb>\w+s)(?: on| to)?\s+", re.I)
#: Framing verbs that say only that the PR carries a change; any other verb (optimizes, integrates, refactors,
#: upgrades, …) is the change itself and stays, in the imperative ("Optimize the existing workflow …").
FRAMING_VERBS = frozenset({"introduces", "adds", "focuses", "aims", "involves", "implements", "proposes",
                           "outlines", "includes", "contains"})
#: A later summary sentence that only argues for the change ("It ensures …", "This will help …").
PR_RATIONALE = re.compile(r"^(?:This|It|These|That) (?:will |also )?(?:ensures?|helps?|allows?|will|aims?|is|are|"
                          r"should|enables?|provides?|makes?)\b", re.I)


def imperative(verb: str) -> str:
    """The base form of a third-person verb: optimizes -> optimize, addresses -> address, sets -> set."""
    return verb[:-2] if re.search(r"(?:ss|sh|ch|x)es$", verb) else verb[:-1]


def unframed(sentence: str) -> str:
    """A summary sentence without "This PR <framing verb>"; a verb that is the change itself is kept."""
    found = PR_FRAMING.match(sentence)
    if found is None:
        return sentence
    verb = found.group("verb").casefold()
    rest = sentence[found.end():]
    return rest if verb in FRAMING_VERBS else f"{imperative(verb)} {rest}"


def change_summary(summary: str) -> str:
    """What a PR summary says the PR changes: its sentences without the "This PR …s" framing, and without the
    later sentences that only argue for the change."""
    kept = [unframed(sent) for i, sent in enumerate(SUMMARY_SENTENCE.split(summary.strip()))
            if i == 0 or not PR_RATIONALE.match(sent)]
    text = " ".join(k for k in kept if k)
    return text[:1].upper() + text[1:]


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
        numbers = [pr.number for task, _ in tasks for pr in task]
        facts = FeatureFacts(feature, engineer, str(planning["id"]), str(planning.get("date", "")), numbers)
        ctx.facts.setdefault("features", []).append(facts)


#: A planning-meeting sentence that opens a feature's discussion, and the feature's name after the cue
#: ("Let's start with real-time alerts.", "The first feature we need to discuss is enhancing …").
_ACK = (r"(?:(?:and|so|now|great|perfect|okay|ok|alright|absolutely|agreed|thanks|sounds good|good point)"
        r"[,.!]?\s+(?:\w+[,.!]\s+)?)*")
TOPIC_OPENER = re.compile(
    _ACK + r"(?:(?:let's|let us|we should|i think we should|we can|i suggest we)\s+(?:start|begin)\s+"
    r"(?:with|by discussing)|(?:i think )?a good starting point would be to discuss|let's dive into|"
    r"(?:let's )?mov(?:e|ing) on(?: to)?|next(?:,? let's discuss)?|"
    r"(?:the|our)\s+(?:first|second|third|fourth|fifth|next|final|last)\s+(?:feature|task)"
    r"(?: (?:we need to discuss|involves))?(?: is)?(?: to)?|another (?:\w+ )?feature is|lastly|finally|"
    r"let's (?:also )?(?:discuss|talk about)|we (?:also )?need to discuss)[,:]?\s+(?:the\s+)?"
    r"(?:(?:first|next|second|third) feature:?\s+)?(?P<name>[^.,;:!?]+)", re.I)
#: Leading verbs left on a feature name by looser cues ("we need to discuss the X", "let's talk about X").
NAME_LEAD = re.compile(r"^(?:(?:we (?:should|need to|also need to)|let's(?: also)?) "
                       r"(?:discuss|address|talk about|focus on|work on)|another [\w ]*?feature is|is)\s+"
                       r"(?:the\s+)?", re.I)
NAME_END = re.compile(r"\s+(?:we|this|that|it|which)\s")
SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: Words that name no feature by themselves (a cue on "task prioritization" or "high-level tasks" opens none).
META_WORDS = frozenset({"high", "level", "prioritizat", "assign", "timelin", "resourc", "concern",
                        "technical", "breakdown", "specific", "precise", "discussion", "discuss", "roadmap",
                        "first", "second"})
#: Words too general to tell features apart (dropped before comparing a name with the sprint reviews).
GENERIC_WORDS = frozenset(stem(w) for w in (
    "aspect", "capabilities", "implement", "implementation", "introduction", "implications", "ensure",
    "enhance", "enhancing", "enhanced", "enhancement", "enhancements", "improve", "improving", "improved",
    "expanding", "expand", "module"))
#: A speaker taking the work on: accepting when asked, or committing in the first person.
TAKES_ON = re.compile(r"^(?:sure|absolutely|yes|definitely|of course|certainly|got it)\b|"
                      r"\bI(?:'ll| will| can| am going to|'m going to)\b", re.I)
#: Where a planning meeting's feature discussion ends (assignments, timelines, wrap-up).
PLANNING_END = re.compile(r"\b(?:task prioriti[sz]ation|(?:task )?assignments|assign (?:these|the) tasks|"
                          r"timelines?|wrap up|summari[sz]e|recap|roadmap|concerns about)\b", re.I)


@rule("pr-change-summary",
      "Each team PR's summary without its 'This PR …s' framing and its rationale sentences: the change it "
      "makes, as ekg:changeSummary (what feature answers quote).")
def pr_change_summary(ctx: RuleContext) -> None:
    for pr in team_prs(ctx).values():
        if text := change_summary(str(pr.rec.get("summary", ""))):
            ctx.add(ctx.artifact(pr.id), CHANGE_SUMMARY, Literal(text))


def spoken_lines(rec: dict[str, Any]) -> list[tuple[str, str]]:
    """(speaker name, text) of each transcript line after the 'Transcript' header, apostrophes unified."""
    text = str(rec.get("transcript", "")).replace("\u2019", "'")
    body = text.split("Transcript", 1)[1] if "Transcript" in text else text
    return [(m.group(1), m.group(2)) for m in UTTERANCE.finditer(body)]


def feature_name(text: str) -> str | None:
    """The feature a planning line opens, if one of its sentences starts with a topic cue."""
    for sentence in SENTENCE.split(text):
        match = TOPIC_OPENER.match(sentence)
        if match:
            name = NAME_LEAD.sub("", NAME_END.split(match.group("name"))[0].strip())
            words = set(feature_tokens(name)) - GENERIC_WORDS
            return name if words - META_WORDS else None
    return None


def planning_topics(lines: list[tuple[str, str]]) -> list[tuple[str, int, int]]:
    """(feature name, first line, end line) of each feature the planning meeting discusses, in order."""
    starts = [(i, name) for i, (_, text) in enumerate(lines) if (name := feature_name(text))]
    out = []
    for k, (i, name) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        stop = next((j for j in range(i + 1, end) if PLANNING_END.search(lines[j][1])), end)
        out.append((name, i, stop))
    return out


def review_task_words(reviews: list[dict[str, Any]]) -> list[set[str]]:
    """The word set of every sprint-review line that names a task (the lines with a feature cue)."""
    return [set(feature_tokens(line)) for rv in reviews for line in transcript_lines(rv)
            if FEATURE_CUE.search(line)]


def is_assigned(name: str, task_lines: list[set[str]]) -> bool:
    """True when one sprint-review task line names every distinctive word of the feature's name."""
    words = set(feature_tokens(name)) - GENERIC_WORDS
    return any(words <= line for line in task_lines)


def discussion_text(name: str, lines: list[tuple[str, str]]) -> str:
    """The feature's name, then what its discussion proposes (greetings, questions and hedges dropped, as for
    document suggestions); every line when none proposes anything."""
    proposed = [p for p in (suggestion_text(text) for _, text in lines) if p]
    return f"{name[:1].upper()}{name[1:]}\n- " + " ".join(proposed or [text for _, text in lines])


def volunteers(lines: list[tuple[str, str]], start: int, end: int, name: str) -> list[str]:
    """Speakers who took the feature on: in its discussion, and right after a later line naming it."""
    out = [lines[i][0] for i in range(start + 1, end) if TAKES_ON.search(lines[i][1])]
    words = set(feature_tokens(name)) - GENERIC_WORDS
    for j in range(end, len(lines)):
        if words <= set(feature_tokens(lines[j][1])):
            out += [lines[k][0] for k in (j, j + 1) if k < len(lines) and TAKES_ON.search(lines[k][1])]
    return list(dict.fromkeys(out))


@rule("feature-discussed",
      "A feature the planning meeting discusses (its name after a topic cue) that no sprint review "
      "assigns: an ekg:Feature with ekg:featureStatus ekg:Discussed, its discussion as ekg:text, and the "
      "speakers who took it on as ekg:responsible (names shared in the roster left ambiguous).")
def feature_discussed(ctx: RuleContext) -> None:
    meetings = dev_meetings(ctx)
    if len(meetings) < 2:
        return
    planning, task_lines = meetings[0], review_task_words(meetings[1:])
    planning_id = str(planning["id"])
    participants = [p for p in planning.get("participants", []) if isinstance(p, str)]
    lines = spoken_lines(planning)
    for name, start, end in planning_topics(lines):
        if is_assigned(name, task_lines):
            continue
        feature = ctx.derived("feature", f"discussed/{slug(name)}", "ekg:Feature", [planning_id])
        ctx.add(feature, FEATURE_STATUS, term("ekg:Discussed"))
        facts = FeatureFacts(feature, f"discussed/{slug(name)}", planning_id, str(planning.get("date", "")))
        ctx.facts.setdefault("features", []).append(facts)
        ctx.add(feature, PLANNED_IN, ctx.artifact(planning_id))
        ctx.add(feature, PREF_LABEL, Literal(name))
        ctx.add(feature, TEXT, Literal(discussion_text(name, lines[start + 1:end])))
        for word in dict.fromkeys(feature_tokens(name)):
            ctx.add(feature, KEYWORD, Literal(word))
        for speaker in volunteers(lines, start, end, name):
            eid, _candidates = resolve_name(ctx, speaker, participants, None)
            if eid:
                ctx.add(feature, RESPONSIBLE, ctx.person(eid))
            else:
                ctx.add(ctx.artifact(planning_id), AMBIGUOUS_NAME, Literal(speaker))
