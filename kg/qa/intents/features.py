"""Feature and pull-request intents: dropped / delayed / added features, a feature's PRs by review outcome,
reverted PRs, PRs left to close or merge, and the engineer with the most (un)approved feature PRs.

A question names a feature by a free phrase ("integrating predictive analytics"). It is matched to the typed
ekg:Feature nodes the feature rules derived, by word sets normalised the same way on both sides
(`kg.text.feature_tokens`): the query returns every feature sharing a word with the phrase, and
the finisher keeps those naming at least half of the phrase's words and at least three quarters as many as
the best one. When no feature qualifies the answer is empty and the system abstains; no phrase is ever
matched to text.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from pyoxigraph import Literal, NamedNode

from kg.namespaces import expand, term
from kg.qa.answer import term_text
from kg.qa.intents import Intent, register
from kg.qa.question import MOST, Question
from kg.query.sparql import Row, Term
from kg.text import feature_tokens

XSD_BOOLEAN = NamedNode(expand("xsd:boolean"))
XSD_INTEGER = NamedNode(expand("xsd:integer"))
PRS = r"(?:(?:prs?|pull requests?)(?: (?:links?|urls?))?|links?|urls?)"
#: Where a PR question's feature phrase starts: "PRs for | related to | about | of | on [the] <phrase> …".
#: A review clause may sit between the PRs and the phrase: "PRs that were approved for <phrase>".
PR_TOPIC_START = re.compile(
    rf"{PRS}\s+(?:(?:that|which)\s+(?:were|are|was|is|have been|has been|got)\s+(?:not\s+)?"
    r"\w+\s+)?(?:for|related to|relating to|about|regarding|of|on|implementing)\s+"
    r"(?:the\s+)?(.+)"
)
#: Where it ends: a relative clause or the verb that follows the phrase.
PR_TOPIC_END = re.compile(r"\s+(?:that|which|who|where|were|was|are|is|have|has|had|need|needs|got|get)\b")
#: "new <what> [related to|about|for <topic>] are|have been added to|implemented in|shipped in <product>".
ADDED_TOPIC = re.compile(
    r"\bnew\s+(.+?)\s+(?:are|is|were|was|have been|has been|had been|got|get|been)\s+"
    r"(?:added|implemented|introduced|shipped|released|delivered|built|rolled out)\s+"
    r"(?:to|in|into|for|on|with)\b"
)
#: Words that only link the noun of an "added" question to its topic ("features related to X").
TOPIC_LINKS = re.compile(r"\b(?:features?|related to|relating to|regarding|about|concerning|around)\b")
#: Other shapes of an "added" question: "new(ly)" somewhere, and the adding verb in any voice or tense.
NEW = re.compile(r"\bnew(?:ly)?\b")
ADDING_CLAUSE = re.compile(
    r"(?:\s+(?:that|which))?(?:\s+(?:are|is|were|was|have been|has been|had been|got|get|"
    r"been|did|do|does|has|have))?\s+(?:newly\s+)?(?:added|add|implemented|implement|"
    r"introduced|introduce|shipped|ship|released|release|delivered|deliver|built|build|"
    r"rolled out|roll out|gone(?: into)?|went into|made it(?: into)?|landed(?: in)?|got|gained|"
    r"received)\b"
    r"(?:\s+(?:to|in|into|for|on|with)\b)?"
)
#: An "added" question with no adding verb: "new features for X", "what's new in P regarding X".
NEW_WITHOUT_VERB = re.compile(
    r"(?:\bnew\s+(?:\w+\s+)?features?|\bwhat(?:'s| is) new\b.*?)\s+(?:for|about|regarding|"
    r"related to|relating to|concerning|around|on|with)\s+(.+)$"
)
#: The topic, after its linking word, up to the adding clause or a relative clause.
LINKED_TOPIC = re.compile(
    r"\b(?:related to|relating to|regarding|about|concerning|around)\s+(.+?)"
    r"(?:\s*\||\s+(?:that|which|were|was|are|is|have|has|did)\b|$)"
)
#: A topic worded before its noun: "which <topic> PRs …", "list the new <topic> features …".
TOPIC_BEFORE = r"^(?:which|what|list|show|give me|find)(?: (?:all|the|of|me|new|newly))* (?P<t>.+?) (?:{noun})\b"
#: The unapproved outcome: "not approved", "unapproved", "weren't approved", "did not get approved", "rejected".
UNAPPROVED = (
    r"\b(?:not|never|un)\s?approved\b|\b(?:not|never|\w+n't)(?:\s+(?:be|been|being|get|got|gotten|yet))*"
    r"\s+approved\b|\b(?:rejected|declined|turned down)\b"
)
#: Still to be done: "need(s) to be merged", "need merging", "should be merged", "pending merge", "to merge".
STILL_TO = (
    r"\b(?:need|needs|needing|needed|require|requires|should|must|ha(?:ve|s) to|awaiting|waiting|pending|"
    r"yet to|still to)"
    r"(?:\s+to)?(?:\s+be)?\s+{stem}(?:e|ed|ing|ure)\b|\bto {stem}e\b"
)


def reason_of(q: Question) -> str | None:
    """The status reason a question names, if any."""
    if q.has_any("security", "vulnerab"):
        return "SecurityRisk"
    if q.has_any(
        "product direction", "direction change", "change in direction", "change of direction", "priorit", "strategy"
    ):
        return "ProductDirectionChange"
    if q.matches(r"\b(bug|error|defect|regression|issue|problem|broke|breaking)"):
        return "IntroducedBugs"
    return None


def topic_bindings(phrase: str) -> dict[str, Term] | None:
    words = list(dict.fromkeys(feature_tokens(phrase)))
    if not words:
        return None
    return {"topic": Literal(" " + " ".join(words) + " "), "ntok": Literal(str(len(words)), datatype=XSD_INTEGER)}


def _bool(value: bool) -> Literal:
    return Literal("true" if value else "false", datatype=XSD_BOOLEAN)


def pr_topic(q: Question) -> str | None:
    """The feature phrase of a PR question: after "PRs for …", up to the product's mention (with its
    preposition) or the clause that follows, whichever comes first; a trailing "feature" is dropped."""
    match = PR_TOPIC_START.search(q.norm)
    if not match:
        before = re.search(TOPIC_BEFORE.format(noun=r"prs?|pull requests?"), q.norm)
        return before.group("t") if before else None
    rest = re.sub(rf"^(?:{PR_TOPIC_START.pattern})", r"\1", match.group(1))  # "links of the PRs for <phrase>"
    if q.product:
        product = re.escape(q.product.casefold())
        rest = re.sub(rf"^{product}(?:'s)?\s+", "", rest)  # "PRs for P's <phrase>"
        rest = re.split(rf"\s+(?:(?:in|for|of|on|within|from)\s+)?(?:the\s+)?{product}(?:'s)?\b", rest, maxsplit=1)[0]
    phrase = PR_TOPIC_END.split(rest, maxsplit=1)[0]
    phrase = re.sub(r"\s+features?$", "", phrase.strip())
    return phrase or None


def is_pr_question(q: Question) -> bool:
    return q.matches(r"\b(pr|prs|pull request|pull requests|pr link|pr links)\b") is not None


def match_feature_dropped(q: Question) -> dict[str, Term] | None:
    """ "What features could not be added / were dropped / were not added to <P> due to <reason>?"."""
    if is_pr_question(q) or not q.has("feature"):
        return None
    if not q.matches(
        r"\b(could not|couldn't|can ?not|can't|were not|weren't|was not|not|never|unable to|failed to)"
        r"\s+(be\s+|been\s+|get\s+)?(add|added|implement|implemented|include|included|ship|shipped|"
        r"release|released|incorporated?)\b|\b(didn't|did not|never) make it\b|"
        r"\b(dropped|abandoned|scrapped|removed|"
        r"blocked|shelved|cancell?ed|excluded|left out|ruled out)\b"
    ):
        return None
    reason = reason_of(q)
    return {"reason": term(f"ekg:{reason}")} if reason else None


def match_feature_delayed(q: Question) -> dict[str, Term] | None:
    """ "What features were temporarily delayed due to <reason> but eventually added to <P>?"."""
    if (
        is_pr_question(q)
        or not q.has("feature")
        or not q.has_any("delay", "postpone", "deferred", "on hold", "pushed back", "put off", "held back")
    ):
        return None
    reason = reason_of(q)
    return {"reason": term(f"ekg:{reason}")} if reason else None


def match_feature_added_topic(q: Question) -> dict[str, Term] | None:
    """ "What new <features related to X | security enhancements for X> are added to / implemented in <P>?";
    the topic is everything the question says the new things are, minus the linking words."""
    if is_pr_question(q):
        return None
    if (match := ADDED_TOPIC.search(q.norm)) and (bindings := topic_bindings(TOPIC_LINKS.sub(" ", match.group(1)))):
        return bindings
    phrase = linked_added_topic(q)
    return topic_bindings(phrase) if phrase else None


def linked_added_topic(q: Question) -> str | None:
    """The topic of an "added" question in another word order ("list the new features added to P related to
    X", "which features about X were newly added to P", "what new features concerning X did P add", "what's
    new in P regarding X"): the product mention and the adding clause are cut out, and the topic is what
    follows the linking word."""
    if q.product is None or not NEW.search(q.norm):
        return None
    product = re.escape(q.product.casefold())
    text = re.sub(
        rf"(?:\b(?:to|in|into|for|of|on|within)\s+)?(?:the\s+)?\b{product}(?:'s)?(?:\s+product)?\b", " ", q.norm
    )
    text, adding = ADDING_CLAUSE.subn(" | ", text)
    text = re.sub(r"\s+", " ", text).strip()
    if not adding:
        found = NEW_WITHOUT_VERB.search(text)
        return found.group(1) if found else None
    if match := LINKED_TOPIC.search(text):
        return match.group(1).strip()
    before = re.search(TOPIC_BEFORE.format(noun="features?"), text)
    if before and feature_tokens(before.group("t")):
        return before.group("t")
    # "… what new <topic> have gone into P": the new things named right before the adding clause
    if (new := re.search(r"\bnew\s+(?P<t>[^|]+?)\s*\|", text)) and feature_tokens(new.group("t")):
        return new.group("t")
    # "what new features have been added for <topic>": the topic follows the adding clause
    after = re.search(r"\|\s*(?:the\s+)?(?P<t>[^|]+)$", text)
    return after.group("t").strip() if after else None


def is_discussed_not_implemented(q: Question) -> bool:
    """ "… features … discussed (in planning) but not / never implemented (built, developed, shipped)"."""
    return (
        q.has("feature")
        and q.matches(
            r"\b(discussed|planned|proposed|talked about)\b.*(\bnot|\bnever|n't|\bwithout being)\s+"
            r"(been\s+|being\s+|got\s+|gotten\s+|get\s+)?(implemented|built|developed|shipped|delivered|added)"
        )
        is not None
    )


def asks_for_people(q: Question) -> bool:
    """A person word, or who was "responsible" for the features."""
    return q.asks_for_people() or q.matches(r"\bresponsible\b") is not None


def match_feature_discussed(q: Question) -> dict[str, Term] | None:
    """ "Find features for <P> that were discussed but not implemented"."""
    if is_pr_question(q) or not is_discussed_not_implemented(q) or asks_for_people(q):
        return None
    return {}


def match_feature_discussed_people(q: Question) -> dict[str, Term] | None:
    """ "Employee IDs of team members responsible for features in <P> that were discussed, not implemented"."""
    if is_pr_question(q) or not is_discussed_not_implemented(q) or not asks_for_people(q):
        return None
    return {}


def match_pr_feature_review(q: Question) -> dict[str, Term] | None:
    """ "Links to the approved PRs for <topic> in <P>" / "PRs for <topic> in <P> that were not approved"."""
    if (
        not is_pr_question(q)
        or not q.matches(r"approv|reject|declin|turned down")
        or q.has_any("revert", "need to be", "needs to be")
    ):
        return None
    phrase = pr_topic(q)
    bindings = topic_bindings(phrase) if phrase else None
    if bindings is None:
        return None
    unapproved = q.matches(UNAPPROVED) is not None
    return {**bindings, "approved": _bool(not unapproved)}


def match_pr_reverted(q: Question) -> dict[str, Term] | None:
    """ "Links to PRs for <topic> in <P> that were reverted due to <reason>"."""
    if not is_pr_question(q) or not q.has("revert"):
        return None
    phrase, reason = pr_topic(q), reason_of(q)
    bindings = topic_bindings(phrase) if phrase else None
    if bindings is None or reason is None:
        return None
    return {**bindings, "reason": term(f"ekg:{reason}")}


def match_pr_to_close(q: Question) -> dict[str, Term] | None:
    """ "Links to the approved PRs for <topic> in <P> that need to be closed"."""
    if not is_pr_question(q) or not q.matches(STILL_TO.format(stem="clos")):
        return None
    phrase = pr_topic(q)
    return topic_bindings(phrase) if phrase else None


def match_pr_to_merge(q: Question) -> dict[str, Term] | None:
    """ "Links to the PRs for <topic> in <P> that need to be merged"."""
    if not is_pr_question(q) or not q.matches(STILL_TO.format(stem="merg")):
        return None
    phrase = pr_topic(q)
    return topic_bindings(phrase) if phrase else None


def match_pr_top_author(q: Question) -> dict[str, Term] | None:
    """ "Employee ID of the engineer with the most (un)approved feature development PRs in <P>"."""
    if not is_pr_question(q) or not q.matches(MOST):
        return None
    if q.has_any("bug", "reopen") or not q.has("approved"):
        return None
    unapproved = q.matches(r"\b(unapproved|not approved|non-approved)\b") is not None
    return {"approved": _bool(not unapproved)}


def keep_best_features(rows: list[Row]) -> tuple[list[str], list[str]]:
    """Answers and citations of the features naming most of the topic's words (see the module docstring)."""
    hits: dict[str, set[str]] = defaultdict(set)
    ntok = 0
    for row in rows:
        if "feature" in row and "hit" in row:
            hits[term_text(row["feature"])].add(term_text(row["hit"]))
        if "ntok" in row:
            ntok = int(term_text(row["ntok"]))
    if not hits:
        return [], []
    best = max(len(h) for h in hits.values())
    chosen = {f for f, h in hits.items() if 2 * len(h) >= ntok and 4 * len(h) >= 3 * best}
    kept = [r for r in rows if term_text(r.get("feature", "")) in chosen]
    answers = dict.fromkeys(term_text(r["answer"]) for r in kept if "answer" in r)
    cites = dict.fromkeys(term_text(r["cite"]) for r in kept if "cite" in r)
    return list(answers), list(cites) if answers else []


def keep_top_authors(rows: list[Row]) -> tuple[list[str], list[str]]:
    """The author(s) with the most distinct PRs, citing every counted PR's evidence."""
    prs: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        if "answer" in row and "pr" in row:
            prs[term_text(row["answer"])].add(term_text(row["pr"]))
    counts = Counter({author: len(p) for author, p in prs.items()})
    if not counts:
        return [], []
    top = max(counts.values())
    cites = dict.fromkeys(term_text(r["cite"]) for r in rows if "cite" in r)
    return sorted(a for a, n in counts.items() if n == top), list(cites)


for _intent in (
    Intent("feature_dropped", "content", match_feature_dropped, "feature_dropped", "feature_dropped.ask", 5),
    Intent("feature_delayed", "content", match_feature_delayed, "feature_delayed", "feature_delayed.ask", 5),
    Intent("feature_discussed", "content", match_feature_discussed, "feature_discussed", "feature_discussed.ask", 6),
    Intent(
        "feature_discussed_people",
        "person",
        match_feature_discussed_people,
        "feature_discussed_people",
        "feature_discussed_people.ask",
        6,
    ),
    Intent(
        "feature_added_topic",
        "content",
        match_feature_added_topic,
        "feature_added_topic",
        "feature_added_topic.ask",
        5,
        keep_best_features,
    ),
    Intent("pr_reverted", "pr", match_pr_reverted, "pr_reverted", "pr_reverted.ask", 7, keep_best_features),
    Intent("pr_to_close", "pr", match_pr_to_close, "pr_to_close", "pr_to_close.ask", 7, keep_best_features),
    Intent("pr_to_merge", "pr", match_pr_to_merge, "pr_to_merge", "pr_to_merge.ask", 7, keep_best_features),
    Intent("pr_top_author", "person", match_pr_top_author, "pr_top_author", "pr_top_author.ask", 6, keep_top_authors),
    Intent(
        "pr_feature_review",
        "pr",
        match_pr_feature_review,
        "pr_feature_review",
        "pr_feature_review.ask",
        5,
        keep_best_features,
    ),
):
    register(_intent)
