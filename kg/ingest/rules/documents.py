"""Documents, their versions and reviews: who reviewed which document, what they suggested, who attended.

HERB's product documents come in versions (a draft `x`, then `final_x`, then `latest_x`; some products have
`x_final`, `latest_y` and `new_y` instead). A draft is reviewed in a Slack conversation that opens with its
link ("I've shared the <…/archives/docs/x|…>. Let's discuss…"); a final version may also be reviewed in a
meeting (transcript `meetingType` = the document kind, chat `<meeting>_chat` sharing the final link). These
rules turn that into typed, provenance-carrying facts, so that "who reviewed", "what did the QA Specialist
suggest" and "who attended" are graph look-ups. A person is an eid; a name is resolved only where it is
unique (see `resolve_name`), otherwise it is recorded as ambiguous and never guessed.
Documented for data stewards in mappings/rules/documents.md.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from itertools import pairwise
from typing import Any

from pyoxigraph import Literal, NamedNode

from kg.ingest.rules import Message, RuleContext, rule
from kg.ingest.rules.messages import DOC_LINK, MESSAGE_INDEX
from kg.ingest.rules.prose import LEAD, MENTION, PLEASANTRY, TURN_TAKING, sentences
from kg.namespaces import term
from kg.vocab import (
    AMBIGUOUS_NAME,
    ATTENDEE,
    CANDIDATE_REVIEWER,
    DCT_CREATED,
    REVIEWED_BY,
    REVIEWED_DOCUMENT,
    SUGGESTED_BY,
    SUGGESTION_ON,
    TEXT,
    VERSION_STATUS,
    WAS_REVISION_OF,
    XSD_DATETIME,
)

#: HERB id markers of a document's version; the first that matches wins.
VERSION_MARKERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^final_|_final$"), "ekg:Final"),
    (re.compile(r"^latest_"), "ekg:Latest"),
    (re.compile(r"^new_"), "ekg:Revised"),
)
ATTENDEES_BLOCK = re.compile(r"^\s*Attendees\s*\n(.*?)\n\s*Transcript\s*\n", re.S)
UTTERANCE = re.compile(r"^([A-Z][\w.'\-]*(?: [A-Z][\w.'\-]*){1,3}):\s*(.+)$", re.M)

# --- suggestion sentences --------------------------------------------------------------------------------
#: A sentence proposes a change when it names an editing action or what to add.
ACTION = re.compile(
    r"\b(add|adding|include|including|specify\w*|clarify\w*|elaborat\w*|expand\w*|mention\w*|highlight\w*|"
    r"emphasi[sz]\w*|detail\w*|consider\w*|explain\w*|outline\w*|provide|incorporat\w*|define|ensure|enhance|"
    r"strengthen|delve|benefit from|more (?:data|details?|specific\w*|information|examples?)|breakdown|"
    r"comparison|section|discuss\w*|address\w*|run\w* this by|integrat\w*|identify\w*|show\w*|focus\w*|"
    r"tailor\w*|revis\w*|refin\w*|updat\w*|reconsider|sharper|clearer|stronger|rationale|brainstorm|"
    r"(?:could|would|might) be (?:useful|helpful|beneficial|valuable))\b",
    re.I,
)
#: A sentence that only argues for the previous one ("This could help…") is not itself a change.
RATIONALE = re.compile(
    r"^(?:this|that|it) (?:(?:could|would|might|will|may)\b(?! (?:also )?be "
    r"(?:helpful|beneficial|useful|worth|good|great|nice|valuable|wise)\b)|"
    r"(?:shows|demonstrates|ensures|helps|gives|makes)\b)",
    re.I,
)
#: Hedges and discourse markers stripped from a kept sentence, leaving the change itself.
HEDGES: tuple[re.Pattern[str], ...] = tuple(
    re.compile(h, re.I)
    for h in (
        r"^(?:also|additionally|and|so|plus|on that note|one more thing|just one more thing)\b,?\s*",
        r"^(?:one suggestion|one thing|just a (?:quick|minor) (?:note|thing|one|point)|a quick note)"
        r"(?:,? [A-Z][a-z]+)?\s*[:,]\s*",
        r"^from (?:a|an|the) [\w ]{2,30}? (?:perspective|standpoint|point of view)\s*,\s*",
        r"^[A-Z][a-z]+(?: [A-Z][a-z]+)?,\s+(?=[a-zA-Z])",
        r"\b(?:i think|i believe|i feel|i noticed(?: that)?|i suggest(?: that)?|i'd suggest|i would suggest)\s+",
        r"\bit (?:might|may|could|would) (?:be )?"
        r"(?:helpful|beneficial|useful|worth|good|great|nice|valuable|wise) (?:to )?",
        r"\b(?:we|you) (?:might|may) (?:want|need) to\s+",
        r"\b(?:maybe|perhaps)\s+(?:we (?:could|can|should)\s+)?",
        r"\b(?:could|can|should) we (?:also )?",
        r"\bwe (?:could|should|can|need to)(?: also| consider)?\s+",
    )
)


def version_status(doc_id: str) -> str:
    """The version a HERB document id names: final_/…_final, latest_, new_ (a later revision), else draft."""
    for pattern, status in VERSION_MARKERS:
        if pattern.search(doc_id):
            return status
    return "ekg:Draft"


def revision_pairs(docs: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(newer id, older id) for consecutive versions of each document kind, ordered by date."""
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for doc in docs:
        by_kind[str(doc.get("type", ""))].append(doc)
    pairs: list[tuple[str, str]] = []
    for versions in by_kind.values():
        versions.sort(key=lambda d: (str(d.get("date", "")), d["id"]))
        pairs.extend((newer["id"], older["id"]) for older, newer in pairwise(versions))
    return pairs


def is_change_proposal(sentence: str) -> bool:
    """True for a sentence proposing a change to the document; false for greetings, thanks, turn-taking."""
    core = LEAD.sub("", MENTION.sub("", sentence).strip(" ,."))
    if not core or TURN_TAKING.match(core) or RATIONALE.match(core):
        return False
    if PLEASANTRY.match(core) and not re.search(
        r"\b(but|also|however|additionally|could|should|might|maybe|"
        r"perhaps)\b",
        core,
        re.I,
    ):
        return False
    return bool(ACTION.search(core))


def strip_hedges(sentence: str) -> str:
    text = re.sub(r"\s+([,.?!])", r"\1", re.sub(r"\s+", " ", MENTION.sub("", sentence)))
    text = LEAD.sub("", text.strip(" ,"))
    for _ in range(2):
        for hedge in HEDGES:
            text = hedge.sub("", text)
    text = text.strip(" ,")
    return text[:1].upper() + text[1:]


def suggestion_text(text: str) -> str:
    """The change-proposing sentences of a message or utterance, hedges removed; '' when it proposes none."""
    kept = (strip_hedges(s) for s in sentences(text) if is_change_proposal(s))
    return " ".join(s for s in kept if s)


def feedback_items(feedback: str) -> list[str]:
    """The bullet items of a document's feedback field ("- Add …\\n- Include …")."""
    items = (re.sub(r"\*\*", "", line).strip(" -•*\t") for line in feedback.splitlines())
    return [i for i in items if i]


# --- discussions and meetings ----------------------------------------------------------------------------
def chained_run(channel: list[Message], start: int) -> list[Message]:
    """The conversation opened at `channel[start]`: later messages of the same id day numbered 1, 2, 3, … in
    turn. Messages of other conversations interleaved in time (another day or index sequence) are skipped; the
    run ends at the day's next conversation (index 0) or once a day passes without a continuation."""
    first = MESSAGE_INDEX.match(channel[start].id)
    if not first:
        return [channel[start]]
    day, last = first.group(1), int(first.group(2))
    run = [channel[start]]
    for msg in channel[start + 1 :]:
        match = MESSAGE_INDEX.match(msg.id)
        if match and match.group(1) == day and int(match.group(2)) == last + 1:
            run.append(msg)
            last += 1
        elif (match and match.group(1) == day and match.group(2) == "0") or days_between(run[-1], msg) > 1:
            break
    return run


def days_between(earlier: Message, later: Message) -> float:
    try:
        delta = datetime.fromisoformat(later.timestamp) - datetime.fromisoformat(earlier.timestamp)
    except ValueError:
        return float("inf")
    return delta.total_seconds() / 86400


@dataclass
class Utterance:
    name: str
    text: str
    eid: str | None
    candidates: list[str] = field(default_factory=list)


@dataclass
class Meeting:
    """A review meeting: the transcript, its chat, the document version it reviewed and who spoke."""

    id: str
    chat_id: str | None
    doc_id: str
    participants: list[str]
    utterances: list[Utterance]


def documents_by_id(ctx: RuleContext) -> dict[str, dict[str, Any]]:
    return {rec["id"]: rec for rec in ctx.records("documents")}


def names_of(ctx: RuleContext, eids: Iterable[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for eid in dict.fromkeys(eids):
        emp = ctx.org.employees.get(eid)
        if emp and emp.get("name"):
            out[str(emp["name"]).casefold()].append(eid)
    return out


def resolve_name(
    ctx: RuleContext, name: str, participants: list[str], author: str | None
) -> tuple[str | None, list[str]]:
    """(eid, []) when the name is unique among the meeting's participants, is the document author's name,
    or is unique in the team roster; else (None, candidates): the participants (else roster members) of
    that name."""
    key = name.casefold()
    among = names_of(ctx, participants).get(key, [])
    if len(among) == 1:
        return among[0], []
    if author and names_of(ctx, [author]).get(key):
        return author, []
    roster = ctx.roster_by_name.get(key, [])
    if not among and len(roster) == 1:
        return roster[0], []
    return None, among or roster


def discussions(ctx: RuleContext) -> dict[str, list[list[Message]]]:
    """Draft document id -> the Slack conversations that open by sharing its link."""
    if "document-discussions" not in ctx.facts:
        docs = documents_by_id(ctx)
        found: dict[str, list[list[Message]]] = defaultdict(list)
        for channel in ctx.channels.values():
            for i, msg in enumerate(channel):
                index = MESSAGE_INDEX.match(msg.id)
                if not index or index.group(2) != "0":
                    continue
                linked = [d for d in dict.fromkeys(DOC_LINK.findall(msg.text)) if d in docs]
                if len(linked) == 1 and version_status(linked[0]) == "ekg:Draft":
                    found[linked[0]].append(chained_run(channel, i))
        ctx.facts["document-discussions"] = dict(found)
    return ctx.facts["document-discussions"]


def reviewed_version(docs: dict[str, dict[str, Any]], kind: str, chat_links: list[str]) -> str | None:
    """The document a review meeting is about: the one its chat links, else the kind's final, else latest."""
    linked = [d for d in chat_links if d in docs and docs[d].get("type") == kind]
    if linked:
        return linked[0]
    of_kind = sorted((d for d in docs.values() if d.get("type") == kind), key=lambda d: str(d.get("date", "")))
    finals = [d["id"] for d in of_kind if version_status(d["id"]) == "ekg:Final"]
    return finals[0] if finals else (of_kind[-1]["id"] if of_kind else None)


def meetings(ctx: RuleContext) -> list[Meeting]:
    """Meetings held to review a document (meetingType is a document kind of this product)."""
    if "document-meetings" not in ctx.facts:
        docs = documents_by_id(ctx)
        kinds = {str(d.get("type")) for d in docs.values()}
        chats = {rec["id"]: rec for rec in ctx.records("meeting_chats")}
        out = []
        for rec in ctx.records("meeting_transcripts"):
            kind = rec.get("document_type")
            if kind not in kinds:
                continue
            chat = chats.get(f"{rec['id']}_chat")
            doc_id = reviewed_version(docs, kind, DOC_LINK.findall(str(chat["text"])) if chat else [])
            if doc_id is None:
                continue
            out.append(parse_meeting(ctx, rec, chat, doc_id, docs[doc_id].get("author")))
        ctx.facts["document-meetings"] = out
    return ctx.facts["document-meetings"]


def attendees_and_body(transcript: str) -> tuple[list[str], str]:
    """A transcript's Attendees line as names (in order, once each), and the spoken text after it."""
    block = ATTENDEES_BLOCK.search(transcript)
    if not block:
        return [], transcript
    names = list(dict.fromkeys(n.strip() for n in block.group(1).split(",") if n.strip()))
    return names, transcript[block.end() :]


def parse_meeting(
    ctx: RuleContext, rec: dict[str, Any], chat: dict[str, Any] | None, doc_id: str, author: str | None
) -> Meeting:
    _, body = attendees_and_body(str(rec["transcript"]))
    participants = [p for p in rec.get("participants", []) if isinstance(p, str)]
    utterances = []
    host = None
    for match in UTTERANCE.finditer(body):
        host = host or match.group(1)
        eid: str | None
        candidates: list[str]
        if match.group(1) == host and author and names_of(ctx, [author]).get(host.casefold()):
            eid, candidates = author, []  # the host presenting the document is its author, not a namesake
        else:
            eid, candidates = resolve_name(ctx, match.group(1), participants, author)
        utterances.append(Utterance(match.group(1), match.group(2), eid, candidates))
    return Meeting(rec["id"], chat["id"] if chat else None, doc_id, participants, utterances)


# --- rules -------------------------------------------------------------------------------------------------
@rule(
    "document-versions",
    "Each document's version (draft, final, latest, revised) from its id marker, and "
    "prov:wasRevisionOf the previous version of the same kind.",
)
def document_versions(ctx: RuleContext) -> None:
    docs = list(documents_by_id(ctx).values())
    for doc in docs:
        ctx.add(ctx.artifact(doc["id"]), VERSION_STATUS, term(version_status(doc["id"])))
    for newer, older in revision_pairs(docs):
        ctx.add(ctx.artifact(newer), WAS_REVISION_OF, ctx.artifact(older))


def add_review(ctx: RuleContext, key: str, doc_id: str, sources: list[str]) -> NamedNode:
    review = ctx.derived("docreview", key, "ekg:DocumentReview", sources)
    ctx.add(review, REVIEWED_DOCUMENT, ctx.artifact(doc_id))
    return review


@rule(
    "document-discussions",
    "A Slack conversation opening with a draft document's link is an "
    "ekg:DocumentReview of it; every employee who wrote in it ekg:reviewedBy.",
)
def document_discussions(ctx: RuleContext) -> None:
    for doc_id, runs in discussions(ctx).items():
        for run in runs:
            review = add_review(ctx, run[0].id, doc_id, [m.id for m in run])
            for eid in dict.fromkeys(m.author for m in run if m.author.startswith("eid_")):
                ctx.add(review, REVIEWED_BY, ctx.person(eid))


@rule(
    "document-meetings",
    "A meeting whose type is a document kind is an ekg:DocumentReview of the version "
    "its chat links (else the final); speakers ekg:reviewedBy (the presenting host who carries "
    "the author's name is the author), same-name participants as ekg:candidateReviewer.",
)
def document_meetings(ctx: RuleContext) -> None:
    for meeting in meetings(ctx):
        review = add_review(ctx, meeting.id, meeting.doc_id, [meeting.id, *filter(None, [meeting.chat_id])])
        for utt in meeting.utterances:
            if utt.eid:
                ctx.add(review, REVIEWED_BY, ctx.person(utt.eid))
            else:
                ctx.add(ctx.artifact(meeting.id), AMBIGUOUS_NAME, Literal(utt.name))
                for eid in utt.candidates:
                    ctx.add(review, CANDIDATE_REVIEWER, ctx.person(eid))


@rule(
    "meeting-attendees",
    "Each name in a transcript's Attendees line, resolved within the product's "
    "roster: unique -> ekg:attendee; shared by several members -> ekg:ambiguousName.",
)
def meeting_attendees(ctx: RuleContext) -> None:
    for rec in ctx.records("meeting_transcripts"):
        names, _ = attendees_and_body(str(rec["transcript"]))
        meeting = ctx.artifact(rec["id"])
        for name in names:
            eids = ctx.roster_by_name.get(name.casefold(), [])
            if len(eids) == 1:
                ctx.add(meeting, ATTENDEE, ctx.person(eids[0]))
            elif eids:
                ctx.add(meeting, AMBIGUOUS_NAME, Literal(name))


def add_suggestion(
    ctx: RuleContext, key: str, source: str, doc_id: str, text: str, by: str | None, when: str | None
) -> None:
    suggestion = ctx.derived("suggestion", key, "ekg:Suggestion", [source])
    ctx.add(suggestion, SUGGESTION_ON, ctx.artifact(doc_id))
    ctx.add(suggestion, TEXT, Literal(text))
    if by:
        ctx.add(suggestion, SUGGESTED_BY, ctx.person(by))
    if when:
        ctx.add(suggestion, DCT_CREATED, Literal(when, datatype=XSD_DATETIME))


@rule(
    "document-suggestions",
    "In a document review (Slack discussion or meeting), what someone other than "
    "the author proposes to change: an ekg:Suggestion by them on the document.",
)
def document_suggestions(ctx: RuleContext) -> None:
    docs = documents_by_id(ctx)
    for doc_id, runs in discussions(ctx).items():
        author = docs[doc_id].get("author")
        for msg in (m for run in runs for m in run[1:]):
            text = suggestion_text(msg.text)
            if text and msg.author != author and msg.author.startswith("eid_"):
                add_suggestion(ctx, msg.id, msg.id, doc_id, text, msg.author, msg.timestamp or None)
    dates = {r["id"]: str(r.get("date") or "") or None for r in ctx.records("meeting_transcripts")}
    for meeting in meetings(ctx):
        author = docs[meeting.doc_id].get("author")
        for i, utt in enumerate(meeting.utterances):
            text = suggestion_text(utt.text)
            if text and utt.eid and utt.eid != author:
                add_suggestion(
                    ctx, f"{meeting.id}/{i}", meeting.id, meeting.doc_id, text, utt.eid, dates.get(meeting.id)
                )


@rule(
    "document-feedback",
    "Each bullet of a document's feedback field: an ekg:Suggestion on the version it "
    "revises (no suggester: the field does not say who).",
)
def document_feedback(ctx: RuleContext) -> None:
    revises = dict(revision_pairs(list(documents_by_id(ctx).values())))
    for doc in ctx.records("documents"):
        if not isinstance(doc.get("feedback"), str):
            continue
        target = revises.get(doc["id"], doc["id"])
        for i, item in enumerate(feedback_items(doc["feedback"])):
            add_suggestion(ctx, f"{doc['id']}/feedback/{i}", doc["id"], target, item, None, None)
