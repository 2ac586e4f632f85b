"""Conversational filler removed from the prose that rules store as answer text (documented in
mappings/rules/prose.md).

HERB's Slack messages and transcript lines wrap their point in conversation: greetings ("Hi team,"),
acknowledgements ("Great question, Julia!"), addressing ("Ian, …", "@eid_…"), emoji, invitations to discuss
("Thought it would be worth discussing…", "Thoughts?") and topic announcements ("I was reading about X, one
of our competitors, and…"). A reference summary of what was said keeps none of that, so every rule that
stores prose (competitor insights, release feedback, document suggestions) cleans it here, in one place.
The helpers only drop whole sentences or a sentence's leading greeting / address / "from what I gathered";
they never rewrite or add words, so what is kept is verbatim evidence.
"""

from __future__ import annotations

import re

EMOJI = re.compile("[\U0001f000-\U0001ffff\u2600-\u27bf\ufe0f\u200d]")
SLACK_LINK = re.compile(r"<(https?://[^|>]+)\|([^>]+)>")
MENTION = re.compile(r"@(?:eid_\w+|[A-Z][a-z]+(?: [A-Z][a-z]+)?)")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z@\"'])")
#: Greetings and agreement that open a sentence before its point ("Thanks, Emma! …", "Good point, @x.").
LEAD = re.compile(
    r"^(?:(?:hi|hey|hello|thanks|thank you|great work|great job|great point|good point|"
    r"good catch|great insights|great suggestions?|agreed|i agree|absolutely|nice work|"
    r"well done)\b"
    r"[^.!?]*?[,!.]\s+)+",
    re.I,
)
#: A sentence that opens with a pleasantry; a short one says nothing else.
PLEASANTRY = re.compile(
    r"^(thanks|thank you|great|good|hi|hey|hello|i agree|agreed|absolutely|sounds|nice|"
    r"love|i like|overall|everything looks|looking forward|makes sense|exactly|yes|"
    r"totally|definitely|well done|excellent|let us know|let me know|keep up)\b",
    re.I,
)
#: A sentence that hands the turn over ("Thoughts?", "What do you think?").
TURN_TAKING = re.compile(
    r"^(what do you think|thoughts|any thoughts|what are your thoughts|"
    r"does that make sense|what does everyone think)\b",
    re.I,
)
#: A sentence that only invites discussion or announces the topic, without saying anything about it.
INVITATION = re.compile(
    r"^(?:i )?(?:thought|think|figured) (?:it|this) (?:would|might|could) be (?:good|useful|worth|interesting|"
    r"helpful|great|nice)\b|^let'?s (?:dive|dig|discuss|talk|explore|see|keep|set up|brainstorm)\b|"
    r"\bworth discussing\b|"
    r"^i (?:was|have been|'ve been) (?:reading|looking into|researching) about\b",
    re.I,
)
#: Who is addressed, or what the speaker is hedging with, before the point ("Ian, their NLP …",
#: "From what I gathered, …", "Yes, …"); a leading discourse word ("Additionally, …") goes the same way.
ACK = re.compile(r"^(?:yes|sure|well|so|oh|indeed|right|exactly|of course|definitely)\b[,!.]?\s+(?=\S)", re.I)
ADDRESS = re.compile(
    r"^(?:[A-Z][a-z]+(?: [A-Z]\.?[a-z]*)?|(?i:from what i(?:'ve| have)? (?:gathered|read|seen|understand|know|"
    r"heard)|from my (?:research|reading|understanding)|as far as i know|for (?:instance|example)|in addition|"
    r"on the other hand))\s*,\s+(?=\S)"
)
NAME_ONLY = re.compile(r"^[A-Z][a-z]+(?: [A-Z]\.?[a-z]*)?[.!?]*$")
#: A pleasantry of at most this many words is only that ("Great question, Julia!", "Thanks, @eid_…!").
SHORT_PLEASANTRY = 6


def clean_text(text: str) -> str:
    """The text without emoji, with Slack links reduced to their label and whitespace collapsed."""
    text = SLACK_LINK.sub(r"\2", EMOJI.sub("", text))
    return re.sub(r"\s+", " ", text).strip()


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(clean_text(text)) if s.strip()]


def without_mentions(sentence: str) -> str:
    """The sentence with @-mentions removed and the punctuation they leave behind tidied ("Yes, , X")."""
    text = re.sub(r"\s+", " ", MENTION.sub("", sentence))
    text = re.sub(r"\s+([,.?!])", r"\1", text)
    return re.sub(r"([,.?!]),+", r"\1", text).strip(" ,")


def is_filler(sentence: str) -> bool:
    """True for a sentence that carries no content: a pleasantry, a turn hand-over, an invitation to discuss
    or the announcement of a topic."""
    said = without_mentions(sentence).strip(" ,.")
    if PLEASANTRY.match(said) and len(said.split()) <= SHORT_PLEASANTRY:
        return True
    core = strip_lead(said)
    return not core or bool(NAME_ONLY.match(core) or TURN_TAKING.match(core) or INVITATION.search(core))


def strip_lead(sentence: str) -> str:
    """The sentence from its point on: greeting, address and "from what I gathered" leads removed, first
    letter capitalised; the rest verbatim."""
    text = LEAD.sub("", without_mentions(sentence))
    for _ in range(3):
        text = ADDRESS.sub("", ACK.sub("", text))
    return text[:1].upper() + text[1:]


def content_sentences(text: str) -> list[str]:
    """The sentences of a message or utterance that carry content, each without its lead."""
    return [strip_lead(s) for s in sentences(text) if not is_filler(s)]
