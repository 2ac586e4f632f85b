"""Bug lifecycle rules over the `bug-*` Slack channels (documented in mappings/rules/bugs.md).

HERB's bug channels hold five kinds of conversation, each recognisable by its opening message: a triage
batch ("several customers are reporting issues…", one message per bug naming title, component, CUST id and
an @eid assignee), a resolution ("the bug titled '…' has been resolved", with the fixing PR link in the
conversation), a reopen ("the customer has reopened '…'"), a dismissal ("I looked into the reported issue
about … does not require a fix") and open-source look-alikes (ignored). The rules turn these into ekg:Bug
nodes and ekg:BugEvent records, each derived from the message it was read from, and give every bug its
state after its latest event, so that questions about unresolved / reopened / dismissed bugs are typed
graph look-ups instead of text search.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from pyoxigraph import Literal, NamedNode

from kg.ingest.rules import Message, RuleContext, rule, slug
from kg.ingest.rules.events import state_event
from kg.ingest.rules.messages import CUSTOMER_ID, EID_MENTION, URL, conversations, link_index, normalise_url
from kg.namespaces import node, term
from kg.text import EXTERNAL_PR, component_key, content_words
from kg.vocab import (
    AFFECTS_COMPONENT,
    AFFECTS_CUSTOMER,
    AGENT,
    ALT_LABEL,
    ASSIGNED_TO,
    BUG_STATE,
    DCT_CREATED,
    DCT_TITLE,
    DESCRIPTION,
    EVENT_OF,
    FIXED_BY,
    HIDDEN_LABEL,
    IN_SCHEME,
    PREF_LABEL,
    RDF_TYPE,
    TRIAGED_BY,
    XSD_DATETIME,
)

BUG_CHANNEL = "bug-"
# A quoted span: the opening quote follows no letter (so "Let's" opens none), the closing one precedes none.
QUOTED = re.compile(r"(?<![A-Za-z0-9])['‘\"“]([^'’\"”]{4,}?)['’\"”](?![A-Za-z0-9])")
# A title a lifecycle conversation quotes as the bug's name ("the bug titled 'X'", "the issue about the 'X'").
NAMED_TITLE = re.compile(
    r"\b(?:titled|called|named|reopened|bug|issue|(?:about|regarding|on) the)\s+"
    r"['‘\"“]([^'’\"”]{4,}?)['’\"”](?![A-Za-z0-9])"
)
# Markdown emphasis around a title ("**Faulty Data Transformation Logic**", "__X__"): the marks are no part of it.
MARKUP = re.compile(r"(\*\*|__)(.+?)\1")
# Discourse that precedes a triage item's title ("Great, thanks! Next, we have a …").
ITEM_LEAD = re.compile(r"^.*?\b(?:first up|first|next up|next|lastly|finally|also)\b[,:]?\s*", re.I)
TITLE_PHRASE = re.compile(
    r"(?:we have|there's|there is|we've got|we got)\s+(?:an?\s+|the\s+)?(?:(?:critical|major|new)\s+)?"
    r"(?:(?:issue|bug|problem)\s+(?:titled|called|with|where|regarding)\s+)?(.+?)(?:[.:;!]\s|,\s|$)",
    re.I,
)
# Where a triage item names the affected component: "affects the X", "impacting our X", "under X", ...
COMPONENT_CUE = re.compile(
    r"\b(?:affect(?:s|ing|ed)?|impact(?:s|ing|ed)?|under|within|in|of|is|hitting|disrupting|throttling|"
    r"involv(?:es|ing))\s+(?:again\s+)?(?:both\s+)?(?:the\s+|our\s+)?"
    r"((?:[A-Z][\w/\-]*|&)(?:\s+(?:[A-Z][\w/\-]*|&|and|of|/))*)"
)
# A component named only once must end like a component does ("… Module", "… Layer", "… API").
_HEADS = (
    "module engine layer system api gateway pipeline interface algorithm service server database ui "
    "component logic functionality wizard queue model dashboard control processing management "
    "performance "
    "visualization rendering integration security authentication"
)
COMPONENT_HEAD = frozenset(_HEADS.split())
NOT_COMPONENT_START = ("I ", "We ", "It ", "This ", "The ", "Salesforce", "Customer", "CUST", "Users ")
#: Conversation kinds, decided by the opening message (first match wins; order matters).
OPENERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("admin", re.compile(r"created this channel|\bjoined\b", re.I)),
    ("lookalike", re.compile(r"open[- ]source|popular (?:projects|libraries)|similar (?:bugs|issues) in", re.I)),
    ("reopened", re.compile(r"\breopen", re.I)),
    ("dismissed", re.compile(r"looked into the reported (?:issue|bug)", re.I)),
    ("resolved", re.compile(r"\b(?:has|have) been (?:resolved|fixed)\b|\bis (?:now )?(?:resolved|fixed)\b", re.I)),
    ("triage", re.compile(r"\breport", re.I)),
)
EVENT_CLASS = {
    "reported": "ekg:BugReported",
    "assigned": "ekg:BugAssigned",
    "resolved": "ekg:BugResolved",
    "reopened": "ekg:BugReopened",
    "dismissed": "ekg:BugClosedWithoutFix",
    "reassigned": "ekg:BugAssigned",
}
#: A bug's state is decided by its latest lifecycle event.
STATE_AFTER = {
    "reported": "ekg:Open",
    "assigned": "ekg:Open",
    "resolved": "ekg:Resolved",
    "reopened": "ekg:Reopened",
    "dismissed": "ekg:NoFixNeeded",
    "reassigned": "ekg:Reopened",  # a reopened bug handed to someone else stays reopened
}


@dataclass
class BugEvent:
    kind: str  # reported | assigned | resolved | reopened | dismissed
    agent: str | None  # eid of who did it, or of who said it was done
    message: Message  # the message it was read from
    #: the customer who took the step, where the message says one did ("reopened by CUST-…", "the customer has
    #: reopened …"): then the step's agent, the employee only its messenger
    customer: str | None = None


@dataclass
class BugRecord:
    """One reported bug, as read from its triage message, and what happened to it afterwards."""

    report: Message
    title: str
    customer: str
    assignee: str | None
    component: str | None = None
    events: list[BugEvent] = field(default_factory=list)
    fixes: list[NamedNode] = field(default_factory=list)
    #: the titles its later conversations quote for it, where they differ from the report's
    names: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return self.report.id

    @property
    def state(self) -> str:
        return STATE_AFTER[self.events[-1].kind]


def conversation_kind(opening: Message) -> str:
    for kind, pattern in OPENERS:
        if pattern.search(opening.text):
            return kind
    return "other"


def bug_conversations(ctx: RuleContext) -> list[tuple[str, list[Message]]]:
    """Every conversation of the product's bug channels with its kind, in channel order (cached per product:
    three rules read it)."""
    if "bug_conversations" not in ctx.facts:
        ctx.facts["bug_conversations"] = [
            (conversation_kind(run[0]), run)
            for channel in ctx.channels.values()
            if channel[0].channel.startswith(BUG_CHANNEL)
            for run in conversations(channel)
        ]
    return ctx.facts["bug_conversations"]


def item_title(text: str) -> str:
    """A triage item's title: the first quoted span, else the noun phrase after "we have / there's"."""
    if quoted := QUOTED.search(text):
        return quoted.group(1).strip()
    body = ITEM_LEAD.sub("", text, count=1)
    phrase = TITLE_PHRASE.search(body)
    title = (phrase.group(1) if phrase else body.split(".")[0]).strip()
    title = re.sub(r"^(?:an?|the)\s+", "", title, flags=re.I)
    return MARKUP.sub(r"\2", title).strip()  # "an issue with **Faulty Data Transformation Logic**": no stars


def triage_items(run: list[Message]) -> list[tuple[int, Message]]:
    """The messages of a triage conversation that each report one bug: written by the conversation's opener,
    naming a customer id, and not pointing at an outside project's PR."""
    opener = run[0].author
    return [
        (i, m)
        for i, m in enumerate(run)
        if m.author == opener and CUSTOMER_ID.search(m.text) and not EXTERNAL_PR.search(m.text)
    ]


#: A mention that thanks someone for the item before ("Thanks, @eid_x! Next, …"): not who this item goes to.
THANKED = re.compile(
    r"\b(?:thanks|thank you|great|awesome|perfect|appreciate it|cheers)\b[,!]?\s*(?:so much\s*)?@eid_\w+", re.I
)
#: An opener's later message handing several items out at once ("All these issues are assigned to @eid_x").
ALL_ITEMS = re.compile(r"\b(?:all (?:of )?these|these (?:issues|bugs)|both|all three|all of them)\b", re.I)


def item_assignee(run: list[Message], index: int) -> str | None:
    """Who the item is asked of: the last @eid in the item that does not thank someone for the item before
    ("Thanks, @eid_a! Next, … @eid_b, can you take this one?"); else the one the opener asks in a follow-up
    before the next item ("@eid_b, can you handle this one?") or hands all items to after the last; else
    whoever answers it first."""
    opener = run[0].author
    mentioned = EID_MENTION.findall(THANKED.sub(" ", run[index].text))
    if mentioned:
        return mentioned[-1]
    items = [i for i, _ in triage_items(run)]
    later = [i for i in items if i > index]
    for msg in run[index + 1 : later[0] if later else len(run)]:
        if msg.author == opener and (asked := EID_MENTION.findall(THANKED.sub(" ", msg.text))):
            return asked[0]
    for msg in run[items[-1] + 1 :]:
        if msg.author == opener and ALL_ITEMS.search(msg.text) and (asked := EID_MENTION.findall(msg.text)):
            return asked[0]
    return next((m.author for m in run[index + 1 :] if m.author != opener), None)


def read_reports(ctx: RuleContext) -> list[BugRecord]:
    bugs = []
    for kind, run in bug_conversations(ctx):
        if kind != "triage":
            continue
        for i, msg in triage_items(run):
            customer = CUSTOMER_ID.search(msg.text)
            assert customer is not None  # triage_items keeps only the messages naming a customer
            bug = BugRecord(msg, item_title(msg.text), customer.group(0), item_assignee(run, i))
            bug.events.append(BugEvent("reported", run[0].author, msg))
            if bug.assignee:
                bug.events.append(BugEvent("assigned", bug.assignee, msg))
            bugs.append(bug)
    return bugs


def outside_title(bug: BugRecord, quoted_only: bool = False) -> str:
    """The report's text without its title: what the reporter says about the bug beside naming it. A title's
    "… in Y" is the bug's name, not a statement of the component it affects. With `quoted_only`, a title the
    report does not quote stays (where an unquoted title ends is a guess)."""
    text = bug.report.text
    for quoted in QUOTED.finditer(text):
        if quoted.group(1).strip() == bug.title:
            return text[: quoted.start()] + " " + text[quoted.end() :]
    at = -1 if quoted_only else text.find(bug.title)
    return text if at < 0 else text[:at] + " " + text[at + len(bug.title) :]


def component_vocabulary(bugs: list[BugRecord], product: str) -> dict[str, str]:
    """The product's components, key -> canonical surface form. A capitalised phrase after a component cue
    ("affects the X") outside a quoted title is a component when two or more triage items name it. A phrase
    named once counts only when it ends in a component head noun ("… Module"); if it shares two or more words
    with exactly one recurring component it is read as a variant of that one ("Data Visualization Module" ->
    "User Interface & Data Visualization"), and if it shares them with several it is dropped as ambiguous."""
    forms: dict[str, Counter[str]] = {}
    for bug in bugs:
        for match in COMPONENT_CUE.finditer(outside_title(bug, quoted_only=True)):
            phrase = re.sub(r"(?:\s+(?:and|of|&|/))+$", "", match.group(1).strip())
            if f"{phrase} ".startswith(NOT_COMPONENT_START) or len(phrase) < 4:
                continue
            key = component_key(phrase)
            if key and key != component_key(product):
                forms.setdefault(key, Counter())[phrase] += 1
    recurring = {k: c.most_common(1)[0][0] for k, c in forms.items() if sum(c.values()) >= 2}
    vocabulary = dict(recurring)
    for key, counts in forms.items():
        if key in recurring or " " not in key or key.rsplit(" ", 1)[1] not in COMPONENT_HEAD:
            continue
        related = [k for k in recurring if len(set(key.split()) & set(k.split())) >= 2]
        if not related:
            vocabulary[key] = counts.most_common(1)[0][0]
        elif len(related) == 1:
            vocabulary[key] = recurring[related[0]]
    return vocabulary


def named_component(text: str, vocabulary: dict[str, str]) -> str | None:
    """The component (canonical form) of the longest vocabulary phrase a text names in full — a component named
    in its own words before a variant read as it ("… in User Feedback Interface … also in the Security Module"
    is Security Module); None when it names none (naming never founds a component)."""
    padded = f" {component_key(text)} "
    named = [k for k in vocabulary if f" {k} " in padded]
    if not named:
        return None
    own_words = [k for k in named if component_key(vocabulary[k]) == k]
    return vocabulary[max(own_words or named, key=len)]


def bug_component(ctx: RuleContext, bug: BugRecord, vocabulary: dict[str, str]) -> str | None:
    """The component a bug affects: the one its report names outside its quoted title ("'XSS in Export
    Functionality' … affects the Data Export Module"), else the one its title names; when the report names
    none, the one the assignee's reply, the resolution conversation or the fixing PR names."""
    found = named_component(outside_title(bug), vocabulary) or item_component(bug.report.text, vocabulary)
    if found:
        return found
    for text in later_texts(ctx, bug):
        if found := named_component(text, vocabulary):
            return found
    return None


def later_texts(ctx: RuleContext, bug: BugRecord) -> list[str]:
    """What is said about a bug after its report, in order: the assignee's replies before the next triage
    item, then each resolution conversation and the title and summary of the PRs that fixed it."""
    out = []
    assignees = {e.agent for e in bug.events if e.kind == "assigned"}
    for kind, run in bug_conversations(ctx):
        ids = [m.id for m in run]
        if kind == "triage" and bug.report.id in ids:
            for msg in run[ids.index(bug.report.id) + 1 :]:
                if msg.author == run[0].author:
                    break
                if msg.author in assignees:
                    out.append(msg.text)
    resolutions = {e.message.id for e in bug.events if e.kind == "resolved"}
    out += [" ".join(m.text for m in run) for kind, run in bug_conversations(ctx) if run[0].id in resolutions]
    prs = {str(rec.get("id")): rec for rec in ctx.records("prs")}
    for fix in bug.fixes:
        rec = prs.get(fix.value.rsplit("/", 1)[-1], {})
        out.append(f"{rec.get('title', '')} {rec.get('summary', '')}")
    return out


def item_component(text: str, vocabulary: dict[str, str]) -> str | None:
    """The component the item names (`named_component`); else, among the product's components, the one
    sharing most words (two or more) with the item; a tie leaves it unknown."""
    if named := named_component(text, vocabulary):
        return named
    words = content_words(text)
    overlap = {k: len(words & set(k.split())) for k in vocabulary}
    best = max(overlap.values(), default=0)
    winners = {vocabulary[k] for k, n in overlap.items() if n == best}
    return winners.pop() if best >= 2 and len(winners) == 1 else None


def event_text(kind: str, run: list[Message]) -> str:
    """The words that name the bug: a dismissal names it across its first messages, the rest in the first."""
    return " ".join(m.text for m in run[:3]) if kind == "dismissed" else run[0].text


#: The states a bug must be in for a lifecycle step to apply to it.
APPLIES_TO = {
    "resolved": ("ekg:Open", "ekg:Reopened"),
    "dismissed": ("ekg:Open", "ekg:Reopened"),
    "reopened": ("ekg:Resolved", "ekg:NoFixNeeded"),
}


def unprefixed(words: set[str]) -> set[str]:
    """Words with their "mis-" forms read as the word too: a misclassification is an incorrect classification."""
    return words | {w[3:] for w in words if w.startswith("mis") and len(w) > 7}


def match_bug(kind: str, run: list[Message], bugs: list[BugRecord], fix: str = "") -> BugRecord | None:
    """The reported bug a lifecycle conversation is about. An exact quoted title decides; otherwise the typed
    candidates are the bugs reported earlier in the same channel whose state the step applies to (narrowed to
    the customer it names, and for a resolution to the resolver's own bugs); word overlap with the title and
    report then breaks the tie — for a resolution, of its opening together with what `fix` says (the root cause
    and the fixing PR's title), not of its opening alone."""
    opening = run[0]
    text = event_text(kind, run)
    earlier = [b for b in bugs if b.report.timestamp <= opening.timestamp]
    for quoted in QUOTED.findall(text):
        same = [b for b in earlier if component_key(b.title) == component_key(quoted)]
        if same:
            return max(same, key=lambda b: b.report.timestamp)
    candidates = [b for b in earlier if b.report.channel == opening.channel]
    candidates = [b for b in candidates if b.state in APPLIES_TO[kind]] or candidates
    named_customers = set(CUSTOMER_ID.findall(text))
    candidates = [b for b in candidates if b.customer in named_customers] or candidates
    if kind == "resolved":
        candidates = [b for b in candidates if b.assignee == opening.author] or candidates
    if not candidates:
        return None
    words = unprefixed(content_words(f"{text} {fix}"))

    def closeness(b: BugRecord) -> tuple[float, int, str]:
        title = content_words(b.title)
        shared_report = len(words & content_words(b.report.text))
        if fix:  # the root cause and the PR describe the bug as its title and report do, in their own words
            title = unprefixed(title)
            described = title | unprefixed(content_words(b.report.text))
            score = len(words & title) / max(1, len(title)) + len(words & described) / max(1, len(described))
            return score, shared_report, b.report.timestamp
        return len(words & title) / max(1, len(title)), shared_report, b.report.timestamp

    return max(candidates, key=closeness)


#: A resolver's message explaining what caused the bug ("The root cause was …", "the issue was due to …").
ROOT_CAUSE = re.compile(r"\broot cause\b|\b(?:issue|problem|bug) was (?:due to|caused by)\b|\bwas caused by\b", re.I)


def fixing_prs(ctx: RuleContext, run: list[Message]) -> list[NamedNode]:
    """The product's own PRs linked anywhere in a resolution conversation."""
    index = link_index(ctx).by_url
    out = []
    for msg in run:
        for url in URL.findall(msg.text):
            target = index.get(normalise_url(url))
            if target and target[0] == "prs" and not EXTERNAL_PR.search(url) and target[1] not in out:
                out.append(target[1])
    return out


#: A reopen said to be the customer's: "reopened by CUST-…", "customer CUST-… has reopened", "the customer has
#: reopened", "reopened by the customer".
CUSTOMER_REOPENED = re.compile(
    r"\breopened by (?:the )?(?:customer\b|(?P<named>CUST-\d+))|"
    r"\bcustomer (?:(?P<id>CUST-\d+) )?(?:has |had )?reopened",
    re.I,
)


def reopener(text: str, bug: BugRecord) -> str | None:
    """The customer who reopened the bug, as its reopen message says: the one it names, else the bug's own
    customer where it says "the customer"; None where it names nobody."""
    said = CUSTOMER_REOPENED.search(text)
    if said is None:
        return None
    return said.group("named") or said.group("id") or bug.customer


def read_lifecycle(ctx: RuleContext, bugs: list[BugRecord]) -> None:
    """Apply the lifecycle conversations to the bugs in time order, so each step sees the states before it."""
    steps = [(kind, run) for kind, run in bug_conversations(ctx) if kind in APPLIES_TO]
    titles = {str(rec.get("id")): str(rec.get("title", "")) for rec in ctx.records("prs")}
    for kind, run in sorted(steps, key=lambda step: (step[1][0].timestamp, step[1][0].id)):
        fix = ""
        if kind == "resolved":
            prs = [titles.get(pr.value.rsplit("/", 1)[-1], "") for pr in fixing_prs(ctx, run)]
            fix = " ".join(
                [*prs, *(m.text for m in run[1:] if m.author == run[0].author and ROOT_CAUSE.search(m.text))]
            )
        bug = match_bug(kind, run, bugs, fix)
        if bug is None:
            continue
        bug.events.append(
            BugEvent(kind, run[0].author, run[0], reopener(run[0].text, bug) if kind == "reopened" else None)
        )
        for said in NAMED_TITLE.findall(event_text(kind, run)):  # "UI Rendering Glitch on Dashboard": the
            if said.casefold() != bug.title.casefold() and said not in bug.names:  # words a question types too
                bug.names.append(said)
        if kind == "resolved":
            bug.fixes.extend(pr for pr in fixing_prs(ctx, run) if pr not in bug.fixes)
        if kind == "reopened" and (handed := reassignment(ctx, run)) and handed[0] != bug.assignee:
            bug.assignee = handed[0]
            bug.events.append(BugEvent("reassigned", handed[0], handed[1]))


#: A reopen thread handing the bug over: "I'll reassign the bug to you", "Reassigning it to myself", "can you
#: assign it back to me?".
REASSIGN = re.compile(
    r"\b(?:re)?assign(?:ing|ed)?\s+(?:the bug |the ticket |this |it |this one )?(?:back )?to\s+"
    r"(?P<to>me|myself|you|@eid_\w+)",
    re.I,
)
#: A person's name as a message addresses them: "@Alice Taylor", "Alice Taylor", "David".
NAME = re.compile(r"@?\b[A-Z][a-z]+(?: [A-Z][a-z]+)?\b")


def addressed(ctx: RuleContext, run: list[Message], text: str, author: str) -> str | None:
    """The person a message speaks to before it hands something over: the last @eid, else the last name that is
    one of the thread's other speakers (a full name, or a first name only one of them has)."""
    if mentioned := EID_MENTION.findall(text):
        return mentioned[-1]
    speakers = {m.author for m in run if m.author != author}
    names = {e: str(ctx.org.employees.get(e, {}).get("name", "")) for e in speakers}
    for name in reversed(NAME.findall(text)):
        name = name.lstrip("@")
        fits = [e for e, full in names.items() if full == name or full.split(" ")[0] == name]
        if len(fits) == 1:
            return fits[0]
    return None


def reassignment(ctx: RuleContext, run: list[Message]) -> tuple[str, Message] | None:
    """Whom a reopen thread hands the bug to, and the message that says so: the last reassignment in it. "To me"
    is its author; "to @eid" that person; "to you" the one the message addresses before saying so
    (`addressed`), else the author of the message it answers. None when no message reassigns it."""
    found = None
    for i, msg in enumerate(run):
        if not (hit := REASSIGN.search(msg.text)):
            continue
        to = hit.group("to")
        if to.casefold() in ("me", "myself"):
            who: str | None = msg.author
        elif to.startswith("@"):
            who = to[1:]
        else:
            who = addressed(ctx, run, msg.text[: hit.start()], msg.author)
            who = who or (run[i - 1].author if i > 0 and run[i - 1].author != msg.author else None)
        if who:
            found = (who, msg)
    return found


def bug_records(ctx: RuleContext) -> list[BugRecord]:
    """The product's bugs with their components and lifecycles, read once and shared by the rules."""
    if "bugs" not in ctx.facts:
        bugs = read_reports(ctx)
        vocabulary = component_vocabulary(bugs, ctx.product.name)
        read_lifecycle(ctx, bugs)
        for bug in bugs:
            bug.component = bug_component(ctx, bug, vocabulary)
        ctx.facts["bugs"] = bugs
    return ctx.facts["bugs"]


def bug_node(ctx: RuleContext, bug: BugRecord) -> NamedNode:
    return node("bug", f"{ctx.product.name}/{bug.key}")


@rule(
    "bug-reports",
    "A triage item in a bug-* channel (the opener's message naming a CUST id): an ekg:Bug "
    "with its title, description, affected customer, assignee (the one the item or its "
    "follow-up asks, not the one thanked) and triager (the opener, who logged it and handed it out), plus its "
    "reported and assigned events.",
)
def bug_reports(ctx: RuleContext) -> None:
    for bug in bug_records(ctx):
        subject = ctx.derived("bug", bug.key, "ekg:Bug", [bug.key])
        ctx.add(subject, DCT_TITLE, Literal(bug.title))
        ctx.add(subject, DESCRIPTION, Literal(bug.report.text))
        ctx.add(subject, DCT_CREATED, Literal(bug.report.timestamp, datatype=XSD_DATETIME))
        ctx.add(subject, AFFECTS_CUSTOMER, ctx.customer(bug.customer))
        if bug.assignee:
            ctx.add(subject, ASSIGNED_TO, ctx.person(bug.assignee))
        if (triager := bug.events[0].agent) is not None:  # the triage message's author logged it and handed it out
            ctx.add(subject, TRIAGED_BY, ctx.person(triager))


@rule(
    "bug-components",
    "The component a bug affects: capitalised phrases after 'affects / impacting / "
    "under …' outside quoted titles, seen in two or more triage items, form the product's components; "
    "each bug gets the one its report names outside its title, else in it, else the one its "
    "assignee's reply, resolution or fixing PR names.",
)
def bug_components(ctx: RuleContext) -> None:
    for bug in bug_records(ctx):
        if not bug.component:
            continue
        comp = node("component", f"{ctx.product.name}/{slug(bug.component)}")
        ctx.add(comp, RDF_TYPE, term("ekg:Component"))
        ctx.add(comp, PREF_LABEL, Literal(bug.component))
        ctx.add(comp, HIDDEN_LABEL, Literal(component_key(bug.component)))
        ctx.add(comp, IN_SCHEME, term("ekg:ComponentScheme"))
        ctx.add(bug_node(ctx, bug), AFFECTS_COMPONENT, comp)


@rule(
    "bug-lifecycle",
    "Resolution, reopen and 'no fix needed' conversations in bug-* channels: an "
    "ekg:BugEvent per step (who, when, from which message), the fixing PR (ekg:fixedBy), "
    "and the bug's state after its latest event (ekg:bugState), with each title a step quotes that differs "
    "from the report's as a skos:altLabel; each event carries the state it "
    "leaves the bug in (ekg:stateAfter) and its place in the lifecycle (ekg:sequence). A resolution "
    "goes to the bug its opening, root cause and fixing PR describe; a reopen thread may reassign it.",
)
def bug_lifecycle(ctx: RuleContext) -> None:
    for bug in bug_records(ctx):
        subject = bug_node(ctx, bug)
        for sequence, event in enumerate(bug.events, start=1):
            record = ctx.derived(
                "bugevent", f"{bug.key}/{event.kind}/{event.message.id}", EVENT_CLASS[event.kind], [event.message.id]
            )
            ctx.add(record, EVENT_OF, subject)
            ctx.add(record, DCT_CREATED, Literal(event.message.timestamp, datatype=XSD_DATETIME))
            state_event(ctx, record, subject, event.kind, STATE_AFTER[event.kind], sequence)
            if event.customer:
                ctx.add(record, AGENT, ctx.customer(event.customer))
            elif event.agent:
                ctx.add(record, AGENT, ctx.agent(event.agent))
        for pr in bug.fixes:
            ctx.add(subject, FIXED_BY, pr)
        for name in bug.names:  # the title its resolution, reopen or dismissal quotes: a name the team uses
            ctx.add(subject, ALT_LABEL, Literal(name))
        ctx.add(subject, BUG_STATE, term(bug.state))
