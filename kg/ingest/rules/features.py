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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pyoxigraph import Literal

from kg.ingest.rules import RuleContext, rule, slug
from kg.ingest.rules.documents import UTTERANCE, resolve_name, suggestion_text
from kg.ingest.rules.events import FeatureFacts
from kg.ingest.rules.prs import TeamPR, team_prs
from kg.namespaces import term
from kg.text import WORD, feature_tokens, stem
from kg.vocab import (
    AMBIGUOUS_NAME,
    CHANGE_SUMMARY,
    DISCUSSED_IN,
    FEATURE_STATUS,
    IMPLEMENTED_BY,
    KEYWORD,
    PLANNED_IN,
    PREF_LABEL,
    RESPONSIBLE,
    TEXT,
)

PRODUCT_DEV = "product_dev_"
#: A line that opens a feature's part of a sprint review.
FEATURE_CUE = re.compile(
    r"\b(?:next|lastly|finally|first up|first,|moving on|move on|let's start|start with|up next|onto|then|"
    r"now,? (?:for|on)|task (?:of|to|on)|(?:the|our) [\w/ -]+ task)\b",
    re.I,
)

SUMMARY_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
#: "This PR introduces / focuses on / optimizes …": the framing before what a PR summary says it changes.
PR_FRAMING = re.compile(r"^This PR (?:also )?(?P<verb>\w+s)(?: on| to)?\s+", re.I)
#: Framing verbs that say only that the PR carries a change; any other verb (optimizes, integrates, refactors,
#: upgrades, …) is the change itself and stays, in the imperative ("Optimize the existing workflow …").
FRAMING_VERBS = frozenset(
    {"introduces", "adds", "focuses", "aims", "involves", "implements", "proposes", "outlines", "includes", "contains"}
)
#: A later summary sentence that only argues for the change ("It ensures …", "This will help …").
PR_RATIONALE = re.compile(
    r"^(?:This|It|These|That) (?:will |also )?(?:ensures?|helps?|allows?|will|aims?|is|are|"
    r"should|enables?|provides?|makes?)\b",
    re.I,
)


def imperative(verb: str) -> str:
    """The base form of a third-person verb: optimizes -> optimize, addresses -> address, sets -> set."""
    return verb[:-2] if re.search(r"(?:ss|sh|ch|x)es$", verb) else verb[:-1]


def unframed(sentence: str) -> str:
    """A summary sentence without "This PR <framing verb>"; a verb that is the change itself is kept."""
    found = PR_FRAMING.match(sentence)
    if found is None:
        return sentence
    verb = found.group("verb").casefold()
    rest = sentence[found.end() :]
    return rest if verb in FRAMING_VERBS else f"{imperative(verb)} {rest}"


def change_summary(summary: str) -> str:
    """What a PR summary says the PR changes: its sentences without the "This PR …s" framing, and without the
    later sentences that only argue for the change."""
    kept = [
        unframed(sent)
        for i, sent in enumerate(SUMMARY_SENTENCE.split(summary.strip()))
        if i == 0 or not PR_RATIONALE.match(sent)
    ]
    text = " ".join(k for k in kept if k)
    return text[:1].upper() + text[1:]


def transcript_lines(rec: dict[str, Any]) -> list[str]:
    """The spoken lines of a meeting transcript (speaker prefix removed), after its 'Transcript' header."""
    text = str(rec.get("transcript", ""))
    body = text.split("Transcript", 1)[1] if "Transcript" in text else text
    return [line.partition(": ")[2] or line for line in body.strip().splitlines() if line.strip()]


def dev_meetings(ctx: RuleContext) -> list[dict[str, Any]]:
    """The product's `product_dev_*` transcripts in date order: the planning meeting, then sprint reviews."""
    recs = [r for r in ctx.records("meeting_transcripts") if str(r.get("id", "")).startswith(PRODUCT_DEV)]
    return sorted(recs, key=lambda r: str(r.get("date", "")))


def review_before(reviews: list[dict[str, Any]], created: str) -> dict[str, Any] | None:
    """The last sprint review held before a PR was opened: where its task was assigned."""
    held = [r for r in reviews if str(r.get("date", "")) <= created]
    return held[-1] if held else None


#: A cue that opens a sprint review's part on one feature: the feature cues, and the wordings that name a lone
#: pending task ("We have the 'Deployment pipeline optimization' task", "you're up for the LSTM model
#: integration", "the task for Security for the Customization Engine", "can you lead us through the CRM
#: integration?"). The `address` group marks a cue addressing a person, which may name a task, not a feature.
LABEL_CUE = re.compile(
    FEATURE_CUE.pattern + r"|\b(?:starting with|we have the|"
    r"(?P<address>(?:you're|you are) (?:also )?"
    r"(?:up(?: first| next)?(?: for| with)|on the|handling the|tasked with|working on))|"
    r"task for|let's discuss (?:the|our|\w+ing)\b|(?:lead|walk|take) us through|"
    r"(?:the|our) '[^']+' task)\b|"
    r"^for the\b|^now,? the\b|\bfirst,",
    re.I,
)
#: The cue words before a label's name ("Let's start with the task of …", "Next, we have the …").
LABEL_LEAD = re.compile(
    r"^(?:(?:let's start with|start(?:ing)? with|next(?: up is)?|lastly|finally|first(?: up)?|"
    r"moving on(?: to)?|move on to|let's move on to|now,?(?: for| onto| on)?|onto|up next|then|"
    r"we have|"
    r"we need to address|let's discuss|(?:lead|walk|take) us through|"
    r"(?:you're|you are) (?:also )?(?:up (?:first |next )?(?:for|with)|on|handling|tasked with|working on)|"
    r"for|(?:the )?task (?:of|to|on|for)|the|our)\b[\s']*)+",
    re.I,
)
#: Where a sprint review's task parts end: the wrap-up ("that wraps up …", "any questions …", "adjourned").
WRAP_UP = re.compile(r"\bwraps? (?:up|this up)\b|\bany (?:other |further )?questions\b|\badjourn", re.I)
#: A speaker naming the feature they own ("I'm responsible for the data compliance and security enhancement").
OWNS = re.compile(r"\bI'm responsible for\b", re.I)
#: Where a sprint review turns to its pending tasks (the completed PRs it discusses before name no assignment).
PENDING = re.compile(r"\bpending\b", re.I)
#: Words that make a cue's phrase about the meeting, not a feature ("let's move on to the pending tasks").
LABEL_META = frozenset(
    stem(w)
    for w in (
        "pending",
        "completed",
        "review",
        "sprint",
        "meeting",
        "update",
        "progress",
        "one",
        "move",
        "moving",
        "discuss",
        "start",
        "have",
        "assigned",
        "next",
        "first",
        "lastly",
        "finally",
        "then",
        "now",
        "onto",
        "other",
        "also",
        "main",
        "assignment",
        "item",
        "agenda",
        "team",
        "everyone",
        "let",
        "week",
        "iteration",
        "line",
        "step",
        "re",
        "about",
        "talk",
        "here",
        "which",
        "need",
        "work",
        "look",
        "aim",
        "keep",
        "done",
    )
)
#: A question about the task under discussion ("For the Kafka latency monitoring, are we using the existing
#: tools?"): a follow-up inside the current part, not a heading that opens another.
FOLLOW_UP = re.compile(
    r"^(?:and |so )?for (?:the |our )?[^,?]+,\s*(?:are|is|do|does|did|should|will|would|can|could|have|has|how|what|"
    r"which|when|who|any)\b[^?]*\?\s*$",
    re.I,
)
#: A heading before an address in one sentence: "For encryption protocols, Emma, you're on the key store".
FOR_HEADING = re.compile(r"^(?:and |so |now,? )?(?:for|regarding|as for) (?P<head>[^,]+),", re.I)
#: A first-person sentence reports on someone's own work ("I'll address those in the next iteration").
FIRST_PERSON = re.compile(r"\bI(?:'ll|'m|'ve|'d)?\b")
#: A phrase pointing back at a task already named ("the PR for this task is titled …", "on my list").
ANAPHORA = re.compile(r"\b(?:this|that|these|those|my|your|titled|right|correct|possible|wrap)\b", re.I)


@dataclass(frozen=True)
class Segment:
    """A sprint review's part on one feature: its label (the cue's phrase), its label words, its lines, whether
    its cue addresses a person ("Alice, you're up for …": a task, or a feature heading when it names one), and
    the words of a sub-feature ("Salesforce integration - Schema management" -> schema, management)."""

    label: str
    words: frozenset[str]
    lines: tuple[tuple[str, str], ...]
    address: bool = False
    sub: frozenset[str] = frozenset()


class Label(NamedTuple):
    """The feature a review line opens: its name, its distinctive words, where its sentence starts in the line,
    whether the cue addresses a person, and the words of its sub-feature part (after "Group - ")."""

    label: str
    words: frozenset[str]
    at: int
    address: bool = False
    sub: frozenset[str] = frozenset()


#: "Salesforce integration - Schema management": a group, then the sub-feature (its siblings share the group).
SUB_FEATURE = re.compile(r"\s[-\u2013\u2014]\s")


def sub_words(label: str, names: frozenset[str] = frozenset()) -> frozenset[str]:
    """The distinctive words of a label's sub-feature part ("Group - Sub"), or none when it has no such part."""
    parts = SUB_FEATURE.split(label, maxsplit=1)
    if len(parts) < 2:
        return frozenset()
    return feature_words(parts[1], names)


def feature_words(phrase: str, names: frozenset[str] = frozenset()) -> frozenset[str]:
    """A label phrase's distinctive words: not about the meeting, not generic, not people's names."""
    return frozenset(w for w in feature_tokens(phrase) if len(w) > 1) - LABEL_META - GENERIC_WORDS - names


def label_of(text: str, names: frozenset[str] = frozenset()) -> Label | None:
    """The feature a review line opens: in its first sentence with a feature cue, the first comma-separated
    phrase from the cue on that names something beyond the meeting ("First up, the AI-driven data anomaly
    detection feature." -> "AI-driven data anomaly detection feature"), its distinctive words (people's names
    are not label words), and where that sentence starts in the line (what comes before still belongs to the
    previous part: "Great, Hannah Davis. Thanks for stepping in. Now, onto the CRM integration task.")."""
    at = 0
    for sentence in SENTENCE.split(text):
        at = text.find(sentence, at)
        if (head := FOR_HEADING.match(sentence)) and not FOLLOW_UP.match(sentence):  # "Regarding X, I'm set to …"
            words = feature_words(head.group("head"), names)
            if words and not ANAPHORA.search(head.group("head")):
                label = LABEL_LEAD.sub("", head.group("head").strip(" '\"")).strip(" '\"")
                return Label(label, words, at, False, sub_words(label, names))
        cue = OWNS.search(sentence) or LABEL_CUE.search(sentence)
        if (
            cue is None
            or FOLLOW_UP.match(sentence)
            or (
                FIRST_PERSON.search(sentence)
                and not OWNS.search(sentence)
                and not sentence.casefold().startswith("for the")
            )
        ):
            continue
        address = bool(cue.re is LABEL_CUE and cue.group("address"))
        begin = cue.end() if OWNS.match(cue.group()) else cue.start()
        for phrase in re.split(r"[,;:]", sentence[begin:].rstrip(".!?")):
            words = feature_words(phrase, names)
            if words and not ANAPHORA.search(phrase):
                label = LABEL_LEAD.sub("", phrase.strip(" '\"")).strip(" '\"")
                return Label(label, words, at, address, sub_words(label, names))
    return None


def review_segments(rec: dict[str, Any], names: frozenset[str] = frozenset()) -> list[Segment]:
    """The feature parts of a sprint review's pending tasks: each runs from a labelled cue sentence to the next,
    or to the wrap-up (where "Got it, I'll handle this" answers a roll-call, not one task)."""
    lines = spoken_lines(rec)
    begin = next((i for i, (_, text) in enumerate(lines) if PENDING.search(text)), 0)
    starts = [(i, found) for i in range(begin, len(lines)) if (found := label_of(lines[i][1], names))]
    parts: list[tuple[Label, list[tuple[str, str]]]] = []
    for k, (i, found) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        end = next((j for j in range(i + 1, end) if WRAP_UP.search(lines[j][1])), end)
        speaker, text = lines[i]
        if parts and text[: found.at].strip():
            parts[-1][1].append((speaker, text[: found.at]))
        parts.append((found, [(speaker, text[found.at :]), *lines[i + 1 : end]]))
    return [Segment(f.label, f.words, tuple(part), f.address, f.sub) for f, part in parts]


def heading_parts(segments: list[Segment], known: list[frozenset[str]]) -> list[Segment]:
    """A review's parts as its feature headings own them: a part whose cue only addresses a person with a task
    ("Moving on to expanding CRM integration. … Alice, you're up for the REST compatibility layer") and names
    none of the features the first review named belongs to the heading before it, even across turns."""
    out: list[Segment] = []
    for seg in segments:
        if out and seg.address and not any(same_feature(seg.words, k) for k in known):
            head = out[-1]
            out[-1] = Segment(head.label, head.words, head.lines + seg.lines, head.address, head.sub)
        else:
            out.append(seg)
    return out


#: A speaker accepting a task ("Got it, I'll handle this", "That's my task").
ACCEPTS = re.compile(
    r"\b(?:I(?:'ll| will) (?:handle|take|work|be (?:working|handling|taking))|I confirm|"
    r"that's (?:my task|mine|assigned to me)|I'm on it|got it)\b",
    re.I,
)


def author_evidence(seg: Segment, full: str) -> int:
    """How strongly a review part gives its task to the author: 2 when it names them in full or they accept
    it there, 1 when it only names their first name (which others may share; "Charlie Martinez" is another
    Charlie, not a mention of Charlie Garcia), else 0."""
    first, _, last = full.partition(" ")
    strong = any(
        (speaker.casefold() == full.casefold() and ACCEPTS.search(text))
        or re.search(rf"\b{re.escape(full)}\b", text, re.I)
        for speaker, text in seg.lines
    )
    alone = re.compile(rf"\b{re.escape(first)}\b(?!\s+(?!{re.escape(last)}\b)[A-Z][a-z]+)")
    return 2 if strong else int(any(alone.search(text) for _, text in seg.lines))


def assigned_segment(segments: list[Segment], full: str | None, pr: TeamPR) -> tuple[Segment | None, str]:
    """The review part assigning the PR's task to its author, and how it was found: 'author' (one part gives
    it to them most clearly; a part that also names the PR by its title, "Fiona, you're also handling 'Allocate
    Cloud Architects …'", most of all), 'author+title' (several do equally; the one sharing most words with the PR's
    title and summary), 'title' (none names them), or 'none' (the review has no labelled part)."""
    if not segments:
        return None, "none"
    wanted = set(feature_tokens(pr.title + " " + str(pr.rec.get("summary", ""))))

    def overlap(seg: Segment) -> int:
        return len(wanted & set(feature_tokens(" ".join(text for _, text in seg.lines))))

    title = pr.title.casefold().strip()

    def evidence_of(seg: Segment) -> int:  # a part naming the author and quoting the PR's own title is decisive
        found = author_evidence(seg, full) if full else 0
        quoted = len(title) > 10 and any(title in text.casefold() for _, text in seg.lines)
        return found + 2 * quoted if found else 0

    evidence = [evidence_of(seg) for seg in segments]
    best = max(evidence)
    named = [seg for seg, e in zip(segments, evidence, strict=True) if e == best and best > 0]
    if len(named) == 1:
        return named[0], "author"
    pool, how = (named, "author+title") if named else (segments, "title")
    return max(pool, key=overlap), how


def same_feature(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two labels name one feature when they share at least half of the shorter one's words, and two words
    unless the shorter has one ("Salesforce integration" is not "AWS and Azure integration")."""
    shared, shorter = len(a & b), min(len(a), len(b))
    return shared >= min(2, shorter) and 2 * shared >= shorter > 0


@dataclass(eq=False)  # two tracks are one only when they are the same object
class Track:
    """One feature across the sprint reviews: its labels' words, its labels, and its PRs with their parts."""

    words: set[str]
    labels: list[str] = field(default_factory=list)
    label_words: list[frozenset[str]] = field(default_factory=list)
    tasks: list[tuple[TeamPR, Segment | None]] = field(default_factory=list)
    subs: list[frozenset[str]] = field(default_factory=list)
    parts: dict[str, set[str]] = field(default_factory=dict)  # review id -> the labels of its parts here

    def takes(self, seg: Segment, review_id: str) -> bool:
        """False when the track already holds another part of the same review (a review names each feature
        once: "… for the backend" and "the frontend components for …" are two features), or another sub-feature
        of the same group ("Group - Sub A" is not "Group - Sub B")."""
        held = self.parts.get(review_id, set())
        if held and seg.label not in held:
            return False
        return not (seg.sub and self.subs and not any(same_feature(seg.sub, sub) for sub in self.subs))

    def join_score(self, seg: Segment) -> tuple[int, int]:
        """How well a part names this track: sub-feature words shared first, then label words."""
        return (
            max((len(seg.sub & w) for w in self.label_words), default=0),
            max((len(seg.words & w) for w in self.label_words), default=0),
        )


def person_name_words(ctx: RuleContext) -> frozenset[str]:
    """Every word of the organisation's people's names, normalised like label words (names are not labels)."""
    return frozenset(
        stem(w) for emp in ctx.org.employees.values() for w in WORD.findall(str(emp.get("name", "")).casefold())
    )


def review_parts(ctx: RuleContext, reviews: list[dict[str, Any]]) -> dict[str, list[Segment]]:
    """Each sprint review's feature parts, by review id: the first review with parts names the features, and a
    later part addressing a task to a person joins the heading before it (`heading_parts`)."""
    names = person_name_words(ctx)
    raw = {str(r["id"]): review_segments(r, names) for r in reviews}
    known = [seg.words for seg in next((segs for segs in raw.values() if segs), [])]
    return {rid: heading_parts(segs, known) for rid, segs in raw.items()}


def pr_assignments(
    ctx: RuleContext, reviews: list[dict[str, Any]]
) -> list[tuple[TeamPR, dict | None, Segment | None, str]]:
    """Each non-revert team PR (oldest first) with the review held last before it was opened, the part of that
    review assigning it to its author, and how that part was found (see `assigned_segment`)."""
    segments = review_parts(ctx, reviews)
    out = []
    for pr in sorted(team_prs(ctx).values(), key=lambda p: (p.created, p.number)):
        if pr.reverts is not None:
            continue
        review = review_before(reviews, pr.created)
        emp = ctx.org.employees.get(pr.author) or {}
        seg, how = assigned_segment(segments[str(review["id"])], emp.get("name"), pr) if review else (None, "none")
        out.append((pr, review, seg, how))
    return out


def feature_tracks_of(assignments: list[tuple[TeamPR, dict | None, Segment | None, str]]) -> list[Track]:
    """PRs grouped into features by the label of the review part that assigned them (labels naming one feature
    in other words join: `same_feature`). The first review with labelled parts names the features; a later
    label naming none of them is a task's name ("you're up for the LSTM model integration"), so its PR joins
    the feature whose label words its part shares most, else its author's latest feature. A PR whose review
    has no labelled part joins the feature of an earlier PR with its title (its task), else its author's
    latest feature, else starts its own."""
    tracks: list[Track] = []
    by_title: dict[str, Track] = {}
    latest: dict[str, Track] = {}
    seeding = None
    for pr, review, seg, _how in assignments:
        key = pr.title.casefold().strip()
        track = None
        if seg is not None:
            review_id = str((review or {}).get("id"))
            seeding = seeding or review_id
            open_ = [t for t in tracks if t.takes(seg, review_id)]
            joins = [t for t in open_ if any(same_feature(seg.words, w) for w in t.label_words)]
            track = max(joins, key=lambda t: t.join_score(seg), default=None)
            if track is None and open_ and review_id != seeding:
                text = set(feature_tokens(" ".join(line for _, line in seg.lines)))
                best = max(open_, key=lambda t: len(text & t.words))
                track = best if text & best.words else latest.get(pr.author)
            if track is None:
                track = Track(set(seg.words))
            track.parts.setdefault(review_id, set()).add(seg.label)
            if seg.sub:
                track.subs.append(seg.sub)
            if track.words >= seg.words or same_feature(seg.words, frozenset(track.words)) or not track.labels:
                track.words |= seg.words
                track.label_words.append(seg.words)
                track.labels.append(seg.label)
        else:
            track = by_title.get(key) or latest.get(pr.author) or Track(set(feature_tokens(pr.title)))
        if track not in tracks:
            tracks.append(track)
        track.tasks.append((pr, seg))
        by_title.setdefault(key, track)
        latest[pr.author] = track
    return tracks


def feature_keywords(label: str, track: Track) -> list[str]:
    """The words a question may name the feature by: its name's words, and the words at least half of the
    names the reviews give it share. Not the dialogue around it: words of nearby talk make two features tie,
    and the other feature's PRs would join the answer."""
    names = [[name] for name in track.labels] or [[pr.title] for pr, _ in track.tasks]
    return list(dict.fromkeys([*feature_tokens(label), *majority_keywords(names)]))


def majority_keywords(segments: list[list[str]]) -> list[str]:
    """Words named in at least half of a feature's task segments, in first-seen order."""
    counts = Counter(w for seg in segments for w in dict.fromkeys(feature_tokens(" ".join(seg))))
    return [w for w, n in counts.items() if 2 * n >= len(segments)]


@rule(
    "feature-tracks",
    "Each team PR belongs to the pending task assigned to its author in the sprint review held last before "
    "it was opened, under the feature heading that task follows; PRs whose assigning parts carry one feature "
    "label form one ekg:Feature (a review names each feature once, sub-features stay apart) with ekg:keyword "
    "words from its names; ekg:implementedBy each PR, PRs ekg:discussedIn their reviews.",
)
def feature_tracks(ctx: RuleContext) -> None:
    meetings = dev_meetings(ctx)
    if not meetings:
        return
    planning, reviews = meetings[0], meetings[1:]
    assignments = pr_assignments(ctx, reviews)
    task_reviews: dict[str, list[str]] = {}  # a task (one title) is discussed in every review assigning its PRs
    for pr, review, _seg, _how in assignments:
        if review is not None:
            task_reviews.setdefault(pr.title.casefold().strip(), []).append(str(review["id"]))
    for pr, _review, _seg, _how in assignments:
        for review_id in dict.fromkeys(task_reviews.get(pr.title.casefold().strip(), [])):
            ctx.add(ctx.artifact(pr.id), DISCUSSED_IN, ctx.artifact(review_id))
    for track in feature_tracks_of(assignments):
        prs = [pr for pr, _ in track.tasks]
        label = Counter(track.labels).most_common(1)[0][0] if track.labels else prs[0].title
        feature = ctx.derived("feature", slug(label), "ekg:Feature", [str(planning["id"])] + [p.id for p in prs])
        ctx.add(feature, PLANNED_IN, ctx.artifact(str(planning["id"])))
        ctx.add(feature, PREF_LABEL, Literal(label))
        for engineer in dict.fromkeys(pr.author for pr in prs):
            ctx.add(feature, RESPONSIBLE, ctx.person(engineer))
        for word in feature_keywords(label, track):
            ctx.add(feature, KEYWORD, Literal(word))
        for pr in prs:
            ctx.add(feature, IMPLEMENTED_BY, ctx.artifact(pr.id))
        numbers = [pr.number for pr in prs]
        facts = FeatureFacts(feature, slug(label), str(planning["id"]), str(planning.get("date", "")), numbers)
        ctx.facts.setdefault("features", []).append(facts)


#: A planning-meeting sentence that opens a feature's discussion, and the feature's name after the cue
#: ("Let's start with real-time alerts.", "The first feature we need to discuss is enhancing …").
_ACK = (
    r"(?:(?:and|so|now|great|perfect|okay|ok|alright|absolutely|agreed|thanks|sounds good|good point)"
    r"[,.!]?\s+(?:\w+[,.!]\s+)?)*"
)
TOPIC_OPENER = re.compile(
    _ACK + r"(?:(?:let's|let us|we should|i think we should|we can|i suggest we)\s+(?:start|begin)\s+"
    r"(?:with|by discussing)|(?:i think )?a good starting point would be to discuss|let's dive into|"
    r"(?:let's )?mov(?:e|ing) on(?: to)?|next(?:,? let's discuss)?|"
    r"(?:the|our)\s+(?:first|second|third|fourth|fifth|next|final|last)\s+(?:feature|task)"
    r"(?: (?:we need to discuss|involves))?(?: is)?(?: to)?|another (?:\w+ )?feature is|lastly|finally|"
    r"let's (?:also )?(?:discuss|talk about)|we (?:also )?need to discuss)[,:]?\s+(?:the\s+)?"
    r"(?:(?:first|next|second|third) feature:?\s+)?(?P<name>[^.,;:!?]+)",
    re.I,
)
#: Leading verbs left on a feature name by looser cues ("we need to discuss the X", "let's talk about X").
NAME_LEAD = re.compile(
    r"^(?:(?:we (?:should|need to|also need to)|let's(?: also)?) "
    r"(?:discuss|address|talk about|focus on|work on)|another [\w ]*?feature is|is)\s+"
    r"(?:the\s+)?",
    re.I,
)
NAME_END = re.compile(r"\s+(?:we|this|that|it|which)\s")
SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: Words that name no feature by themselves (a cue on "task prioritization" or "high-level tasks" opens none).
META_WORDS = frozenset(
    {
        "high",
        "level",
        "prioritizat",
        "assign",
        "timelin",
        "resourc",
        "concern",
        "technical",
        "breakdown",
        "specific",
        "precise",
        "discussion",
        "discuss",
        "roadmap",
        "first",
        "second",
    }
)
#: Words too general to tell features apart (dropped before comparing a name with the sprint reviews).
GENERIC_WORDS = frozenset(
    stem(w)
    for w in (
        "aspect",
        "capabilities",
        "implement",
        "implementation",
        "introduction",
        "implications",
        "ensure",
        "enhance",
        "enhancing",
        "enhanced",
        "enhancement",
        "enhancements",
        "improve",
        "improving",
        "improved",
        "expanding",
        "expand",
        "module",
    )
)
#: A speaker taking the work on: accepting when asked, or committing in the first person.
TAKES_ON = re.compile(
    r"^(?:sure|absolutely|yes|definitely|of course|certainly|got it)\b|"
    r"\bI(?:'ll| will| can| am going to|'m going to)\b",
    re.I,
)
#: Where a planning meeting's feature discussion ends (assignments, timelines, wrap-up).
PLANNING_END = re.compile(
    r"\b(?:task prioriti[sz]ation|(?:task )?assignments|assign (?:these|the) tasks|"
    r"timelines?|wrap up|summari[sz]e|recap|roadmap|concerns about)\b",
    re.I,
)


@rule(
    "pr-change-summary",
    "Each team PR's summary without its 'This PR …s' framing and its rationale sentences: the change it "
    "makes, as ekg:changeSummary (what feature answers quote).",
)
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


#: A planning line listing the features in one sentence: "We have four main tasks to discuss: a, b, c and d."
LIST_INTRO = re.compile(
    r"\b(?:we have|there are|we've got|the)\s+(?:\w+\s+)?(?:main\s+|key\s+|high-level\s+|core\s+)?"
    r"(?:tasks|features|areas|priorities)\b[^:.]*:\s*(?P<items>[^.;]+)",
    re.I,
)
#: A sentence of an ordinal list: "First, we need to enhance …", "Second, we should expand …", "1. Improve …".
ORDINAL = re.compile(
    r"^(?:first|second|third|fourth|fifth|lastly|finally)(?:ly)?,?\s+"
    r"(?:we (?:need|have|want|should|must|will)(?: to)?|let's|is|there's)?\s*(?P<name>[^.;:!?]+)",
    re.I,
)
#: An item that names who does what ("Julia is handling data ingestion"): a list of assignments, not features.
ASSIGNMENT_ITEM = re.compile(r"^[A-Z]\w+(?: [A-Z]\w+)? (?:is|will|'s|can)\b")
#: An item of a numbered list inside one line: "1. Improve search ranking. 2. Add offline mode."
NUMBERED = re.compile(r"(?:^|\s)\d[.)]\s+(?P<name>[^.;!?]+)")
#: Where a listed name stops: the purpose clause after it ("… capabilities to handle more complex AI models").
NAME_TAIL = re.compile(r"\s+(?:to|so that|in order to|which|that|by|so)\s.*$", re.I)


def listed_names(text: str) -> list[tuple[str, str]]:
    """(listing style, feature name) of the features one planning line lists: after "We have N main tasks:",
    or as ordinal / numbered sentences ("First, …. Second, …", "1. … 2. …")."""
    if intro := LIST_INTRO.search(text):
        items = [re.sub(r"^(?:and|or)\s+", "", i.strip()) for i in re.split(r",", intro.group("items"))]
        last = [i.strip() for i in re.split(r"\s+and\s+", items[-1])]
        if len(items) == 1 or all(len(i.split()) >= 2 for i in last):  # "b and c" ends the list, unless it is
            items[-1:] = last  # one name ("AWS and Google Cloud")
        named = [i for i in items if set(feature_tokens(i)) - GENERIC_WORDS - META_WORDS]
        if len(named) >= 2 and not any(ASSIGNMENT_ITEM.match(i) for i in named):
            return [("list", i) for i in named]
    for style, found in (
        ("numbered", [m.group("name") for m in NUMBERED.finditer(text)]),
        ("ordinal", [m.group("name") for sentence in SENTENCE.split(text) if (m := ORDINAL.match(sentence.strip()))]),
    ):
        named = [NAME_TAIL.sub("", n.strip()) for n in found if set(feature_tokens(n)) - GENERIC_WORDS - META_WORDS]
        if len(named) >= 2:
            return [(style, n) for n in named]
    return []


def listed_topics(lines: list[tuple[str, str]]) -> tuple[str, list[tuple[str, int, int]]]:
    """The listing style and (feature name, first line, end line) of the features a planning line lists: each
    feature's discussion starts at the first later line naming most of its words (else at the list) and ends
    where the next one starts or the meeting turns to assignments. Features a topic cue opens later and the list
    does not name are added (a list may name only some). Without a list, the cue reading alone."""
    for at, (_, text) in enumerate(lines):
        if not (named := listed_names(text)):
            continue
        starts = []
        for _, name in named:
            words = frozenset(feature_tokens(name)) - GENERIC_WORDS
            start = next(
                (
                    j
                    for j in range(at + 1, len(lines))
                    if same_feature(words, frozenset(feature_tokens(lines[j][1])) & words | words)
                    and 2 * len(words & set(feature_tokens(lines[j][1]))) >= len(words)
                ),
                at,
            )
            starts.append((start, name))
        cues = planning_topics(lines)
        bounds = sorted({s for s, _ in starts} | {start for _, start, _ in cues} | {len(lines)})
        out = []
        for start, name in starts:
            end = next(b for b in bounds if b > start)
            stop = next((j for j in range(start + 1, end) if PLANNING_END.search(lines[j][1])), end)
            out.append((name, start, stop))
        listed = [frozenset(feature_tokens(name)) - GENERIC_WORDS for name, _, _ in out]
        more = [
            t for t in cues if not any(same_feature(frozenset(feature_tokens(t[0])) - GENERIC_WORDS, w) for w in listed)
        ]
        return named[0][0], out + more
    return "cue", planning_topics(lines)


def review_task_words(reviews: list[dict[str, Any]]) -> list[set[str]]:
    """The word set of every sprint-review line that names a task (the lines with a feature cue)."""
    return [set(feature_tokens(line)) for rv in reviews for line in transcript_lines(rv) if FEATURE_CUE.search(line)]


def is_assigned(
    name: str, task_lines: list[set[str]], labels: Sequence[frozenset[str]] = (), discussion: str = ""
) -> bool:
    """True when one sprint-review task line names every distinctive word of the feature's name, or when the
    label of a sprint review's task part is named whole in the feature's name and discussion ("RESTful API
    framework" in "… set up the initial RESTful API framework"; a one-word label such as "NLP" in the name)."""
    words = set(feature_tokens(name)) - GENERIC_WORDS
    said = set(feature_tokens(name + " " + discussion))
    return any(words <= line for line in task_lines) or any(
        label <= said and (len(label) >= 2 or label <= words) for label in labels
    )


def review_labels(ctx: RuleContext, reviews: list[dict[str, Any]]) -> list[frozenset[str]]:
    """The label words of every task part of the sprint reviews."""
    names = person_name_words(ctx)
    return list(dict.fromkeys(seg.words for rv in reviews for seg in review_segments(rv, names)))


def discussion_text(name: str, lines: list[tuple[str, str]]) -> str:
    """The feature's name, then what its discussion proposes (greetings, questions and hedges dropped, as for
    document suggestions); every line when none proposes anything."""
    proposed = [p for p in (suggestion_text(text) for _, text in lines) if p]
    return f"{name[:1].upper()}{name[1:]}\n- " + " ".join(proposed or [text for _, text in lines])


#: A clause handing work to someone by name ("Julia will lead the recommendation engine enhancement", "Bob,
#: you'll lead the anomaly detection task"): the name, then what they take.
ASSIGNS = re.compile(
    r"(?:^|[.;,:]\s+|\band\s+)(?:(?i:so|then|now|okay|ok),?\s+)?(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?),?\s+"
    r"(?:you'll|will|you will|is going to|to)\s+"
    r"(?:lead|handle|work|focus|take|own|drive|be (?:leading|handling|working))\b(?P<what>[^.;,]*)"
)


def assigned_in(text: str, words: set[str]) -> list[str] | None:
    """Who a line summarising several assignments gives the feature to (the names whose clause names its
    words), or None when the line is no such summary (fewer than two assignments)."""
    clauses = list(ASSIGNS.finditer(text))
    if len(clauses) < 2:
        return None
    return [c.group("who") for c in clauses if words <= set(feature_tokens(c.group("what")))]


def full_name(name: str, lines: list[tuple[str, str]]) -> str:
    """A first name as the meeting's one speaker of that first name, else as said."""
    fits = {speaker for speaker, _ in lines if speaker.split(" ")[0] == name}
    return fits.pop() if " " not in name and len(fits) == 1 else name


#: A request handing work to someone by first name: "Julia, could you take the lead on this?", "Emma, can you
#: handle the AI model enhancements?", "Bob, can you review our current implementations …?".
ASKS = re.compile(
    r"(?:^|[.!?;,]\s+)(?P<who>[A-Z][a-z]+),\s+(?:could|can|would|will) you\s+(?:please\s+)?"
    r"(?:take|handle|lead|own|work|look|focus|drive|review|oversee|manage|be responsible)\b"
)


def accepted_requests(lines: list[tuple[str, str]], start: int, end: int) -> list[str]:
    """The people asked by first name to take work on a line from `start` to `end` (the discussion's opening line
    included) who accept on the next line ("Sure, Alice. I'll …"): the reply's speaker, whose first name the
    request used."""
    out = []
    for i in range(start, min(end, len(lines) - 1)):
        speaker, reply = lines[i + 1]
        asked = {m.group("who") for m in ASKS.finditer(lines[i][1])}
        if speaker.split(" ")[0] in asked and TAKES_ON.search(reply):
            out.append(speaker)
    return out


def names_feature(text: str, words: set[str], other_words: list[set[str]]) -> bool:
    """The line names the feature: every distinctive word of its name, or (two words or more) most of them and a
    larger share than it names of any other feature's ("the real-time insights feature" for "real-time coaching
    insights", "the AI model enhancements" for "enhancing the AI model's recommendation accuracy")."""
    said = set(feature_tokens(text))
    if words <= said:
        return True
    words = {w for w in words if len(w) > 1}  # a possessive's "s" ("the AI model's accuracy") names nothing
    share = len(words & said) / len(words) if words else 0.0
    return (
        len(words & said) >= 2
        and share >= 0.5
        and all(len(o & said) / len(o) < share for o in other_words if o and o != words)
    )


def volunteers(
    lines: list[tuple[str, str]], start: int, end: int, name: str, others: tuple[str, ...] | list[str] = ()
) -> list[str]:
    """Who took the feature on: speakers committing to it in its discussion, and those asked there by name who
    accept; later, the people a summary of the assignments gives it to (not who summarises), a speaker committing
    on a line that names it, and the reply right after that commits to it (not a reply taking on one of the
    `others` features)."""
    out = [lines[i][0] for i in range(start + 1, end) if TAKES_ON.search(lines[i][1])]
    out += accepted_requests(lines, start, end)
    words = set(feature_tokens(name)) - GENERIC_WORDS
    other_words = [set(feature_tokens(o)) - GENERIC_WORDS for o in others]
    for j in range(end, len(lines)):
        speaker, text = lines[j]
        if not names_feature(text, words, other_words):
            continue
        if (given := assigned_in(text, words)) is not None:
            out += [full_name(who, lines) for who in given]
            continue
        if TAKES_ON.search(text):
            out.append(speaker)
        if j + 1 < len(lines) and TAKES_ON.search(lines[j + 1][1]):
            reply = lines[j + 1][1]
            if not any(w and not w <= words and names_feature(reply, w, [words]) for w in other_words):
                out.append(lines[j + 1][0])
    return list(dict.fromkeys(out))


@rule(
    "feature-discussed",
    "A feature the planning meeting discusses (listed: 'We have N main tasks: …', 'First, … Second, …', "
    "'1. …'; or named after a topic cue) that no sprint review assigns: an ekg:Feature with "
    "ekg:featureStatus ekg:Discussed, its discussion as ekg:text, and the "
    "people who took it on as ekg:responsible: assigned or volunteering, not who only sums up the "
    "assignments (names shared in the roster left ambiguous).",
)
def feature_discussed(ctx: RuleContext) -> None:
    meetings = dev_meetings(ctx)
    if len(meetings) < 2:
        return
    planning, task_lines = meetings[0], review_task_words(meetings[1:])
    labels = review_labels(ctx, meetings[1:])
    planning_id = str(planning["id"])
    participants = [p for p in planning.get("participants", []) if isinstance(p, str)]
    lines = spoken_lines(planning)
    style, topics = listed_topics(lines)
    for name, start, end in topics:
        # a listed feature's discussion is found by its words, so a review label said there assigns it too
        said = " ".join(text for _, text in lines[start:end]) if style != "cue" else ""
        if is_assigned(name, task_lines, labels if style != "cue" else [], said):
            continue
        feature = ctx.derived("feature", f"discussed/{slug(name)}", "ekg:Feature", [planning_id])
        ctx.add(feature, FEATURE_STATUS, term("ekg:Discussed"))
        facts = FeatureFacts(feature, f"discussed/{slug(name)}", planning_id, str(planning.get("date", "")))
        ctx.facts.setdefault("features", []).append(facts)
        ctx.add(feature, PLANNED_IN, ctx.artifact(planning_id))
        ctx.add(feature, PREF_LABEL, Literal(name))
        ctx.add(feature, TEXT, Literal(discussion_text(name, lines[start + 1 : end])))
        for word in dict.fromkeys(feature_tokens(name)):
            ctx.add(feature, KEYWORD, Literal(word))
        others = [other for other, _, _ in topics if other != name]
        for speaker in volunteers(lines, start, end, name, others):
            eid, _candidates = resolve_name(ctx, speaker, participants, None)
            if eid:
                ctx.add(feature, RESPONSIBLE, ctx.person(eid))
            else:
                ctx.add(ctx.artifact(planning_id), AMBIGUOUS_NAME, Literal(speaker))
