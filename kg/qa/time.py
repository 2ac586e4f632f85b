"""The time slot of a question: "on 2026-08-01", "as of August 1, 2026", "before July 2026", "at the end of July
2026", "before 2025", "when ConnectForce's previous release shipped", "at the time of the previous release".

The expression is found in the question's normalised text, removed from it (so the intents match the rest
of the wording exactly as they do today), and kept as a `TimeSlot`. An absolute date becomes an instant right
away; a named point (a release) becomes one later, from the graph (`sparql/asof_release_time.rq`). What each
cue word means is data: the tables below, not code.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from kg.errors import KGError

MONTHS = {name: i for i, name in enumerate(calendar.month_name) if name} | {
    name: i for i, name in enumerate(calendar.month_abbr) if name
}
MONTH_WORDS = {k.casefold(): v for k, v in MONTHS.items()} | {"sept": 9}
#: Cue words before a date -> which instant of the named day or month the state is read at:
#: "end" = its last second (the state once the day/month is over), "start" = its first second,
#: "before" = the second before it starts.
DATE_CUES: tuple[tuple[str, str], ...] = (
    (r"at the (?:very )?end of|by the end of|at the close of|end of", "end"),
    (r"at the (?:start|beginning) of|at the outset of|start of|beginning of", "start"),
    (r"before|prior to|ahead of", "before"),
    (r"as of|as at|on|by|at|in|during|of|dated", "end"),
)
#: Named points in time, resolved from the graph: phrase -> the point's key. "{item}" is an optional product
#: name ("connectforce's ", "the ").
NAMED_POINTS: tuple[tuple[str, str], ...] = (
    (
        r"(?:when |by the time |at the time )?(?:{item})?(?:previous|last|prior|earlier) release"
        r"(?: of [\w-]+)? (?:shipped|was shipped|was released|came out|launched|went out)",
        "previous release",
    ),
    (r"(?:at|by) the time of (?:{item})?(?:previous|last|prior|earlier) release(?: of [\w-]+)?", "previous release"),
)
#: A cue before a named point that reads the state just before it.
BEFORE_POINT = r"before|prior to"
_ITEM = r"(?:the |[\w-]+'s |[\w-]+ )"
_MONTH = "|".join(sorted(MONTH_WORDS, key=len, reverse=True))
#: Date shapes in normalised text (no punctuation but '-'), each with named groups y / m / d (d optional).
DATE_SHAPES = (
    r"(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})",
    rf"(?P<m>{_MONTH}) (?P<d>\d{{1,2}})(?:st|nd|rd|th)? (?P<y>\d{{4}})",
    rf"(?P<d>\d{{1,2}})(?:st|nd|rd|th)? (?:of )?(?P<m>{_MONTH}) (?P<y>\d{{4}})",
    rf"(?P<m>{_MONTH}) (?P<y>\d{{4}})",
)
#: Cues that after an event's verb name a window ("opened in October 2026"), and those verbs.
WINDOW_CUES = frozenset({"in", "during"})
#: Cues that after an event's verb bound the events ("opened before November 2026"): a window too, not the state
#: read just before that point.
BOUND_CUES = frozenset({"before", "prior", "ahead"})
#: How many words before "in <month>" an event's verb may stand and still make it a window of those events.
EVENT_REACH = 8
EVENT_VERBS = frozenset(
    {
        "opened",
        "created",
        "filed",
        "reported",
        "submitted",
        "raised",
        "written",
        "authored",
        "published",
        "added",
        "merged",
        "closed",
        "resolved",
        "fixed",
        "reopened",
        "reverted",
        "approved",
        "assigned",
        "made",
        "started",
        "launched",
        "posted",
        "sent",
        "shared",
        "released",
        "shipped",
        "implemented",
        "dropped",
    }
)
#: A year alone is a point only after a cue that names one ("before 2025", "as of 2026", "by the end of
#: 2026"): "in 2027" or "during 2027" asks for a window of events, which no as-of reading answers.
YEAR_SHAPE = r"(?P<y>(?:19|20)\d{2})"
YEAR_CUES = frozenset({"end", "start", "before"})
YEAR_POINT_CUE = r"as of|as at"


@dataclass(frozen=True)
class TimeSlot:
    """A question's time: the phrase as found, and either an instant (ISO, no time zone, like HERB's) or a
    named point to look up in the graph ("previous release"), read at `mode` ("end" / "start" / "before")."""

    phrase: str
    mode: str
    instant: str | None = None
    point: str | None = None

    def at(self, point_time: str | None = None) -> str:
        """The instant the state is read at; for a named point, from the point's time in the graph."""
        if self.instant is not None:
            return self.instant
        if point_time is None:
            raise ValueError(f"the named point {self.point!r} needs its time from the graph")
        return shift(point_time, self.mode)


def shift(instant: str, mode: str) -> str:
    """An event time read "before" (one second earlier) or at it ("end" / "start")."""
    t = datetime.fromisoformat(instant)
    return (t - timedelta(seconds=1) if mode == "before" else t).isoformat(timespec="seconds")


def span_instant(year: int, month: int | None, day: int | None, mode: str) -> str:
    """The instant of a day, a month or a year read in the cue's mode."""
    last_day = calendar.monthrange(year, month or 12)[1]
    first = datetime(year, month or 1, day or 1)
    last = datetime(year, month or 12, day or last_day, 23, 59, 59)
    chosen = {"end": last, "start": first, "before": first - timedelta(seconds=1)}[mode]
    return chosen.isoformat(timespec="seconds")


def _date_pattern(cue: str, shape: str) -> re.Pattern[str]:
    return re.compile(rf"(?:^|\s)(?:{cue}) (?:the )?{shape}(?=[\s,;:?!.]|$)")


_DATE_PATTERNS = [(_date_pattern(cue, shape), mode) for cue, mode in DATE_CUES for shape in DATE_SHAPES] + [
    (_date_pattern(cue, YEAR_SHAPE), mode)
    for cue, mode in [*DATE_CUES[:3], (YEAR_POINT_CUE, "end")]
    if mode in YEAR_CUES
]
_NAMED_PATTERNS = [
    (re.compile(rf"(?:^|\s)(?P<before>(?:{BEFORE_POINT}) )?{phrase.format(item=_ITEM)}(?=\s|$)"), key)
    for phrase, key in NAMED_POINTS
]


def find_time(norm: str) -> tuple[TimeSlot | None, str]:
    """The time slot of a normalised question and the text without it; (None, text) when there is none. A
    date-shaped phrase that is no date ("on 2026-02-30", "as of May 45 2026") is the asker's error, raised:
    left in the text it would only make the question abstain on a phrase that names nothing."""
    for pattern, key in _NAMED_PATTERNS:
        if found := pattern.search(norm):
            mode = "before" if found.group("before") else "end"
            return TimeSlot(found.group(0).strip(), mode, point=key), _without(norm, found)
    for pattern, mode in _DATE_PATTERNS:
        if (found := pattern.search(norm)) and not _event_window(norm, found):
            return _date_slot(found, mode), _without(norm, found)
    return None, norm


def _event_window(norm: str, found: re.Match[str]) -> bool:
    """ "Opened in October 2026", "resolved the most bugs in March 2027", "during 2026", "opened before November
    2026": a window the events fall in, not a point to read the state at. Left in the text, the words are placed
    by nothing (or by the window operator), so the reading says so."""
    cue = found.group(0).split()[0]
    before = norm[: found.start()].split()
    if cue == "during":  # "during March 2027": the whole month, never the state at its end
        return True
    if cue in WINDOW_CUES:  # "resolved the most customer bugs in March 2027": the events of that month
        return bool(set(before[-EVENT_REACH:]) & EVENT_VERBS)
    return cue in BOUND_CUES and bool(before) and before[-1] in EVENT_VERBS


def _date_slot(found: re.Match[str], mode: str) -> TimeSlot:
    month = found.groupdict().get("m")
    month_number = None if month is None else int(month) if month.isdigit() else MONTH_WORDS[month]
    day = found.groupdict().get("d")
    phrase = found.group(0).strip()
    try:
        instant = span_instant(int(found.group("y")), month_number, int(day) if day else None, mode)
    except ValueError as exc:  # 2026-02-30, month 13
        raise KGError(f"{phrase!r} is not a date ({exc})") from exc
    return TimeSlot(phrase, mode, instant=instant)


def _without(norm: str, found: re.Match[str]) -> str:
    return re.sub(r"\s+", " ", norm[: found.start()] + " " + norm[found.end() :]).strip()


#: The verbs of creation a window may be said of: only an item's creation time is read ("opened in 2027"); a
#: window of another event ("merged in 2027") is no window these times answer.
CREATION_VERBS = frozenset(
    {"opened", "created", "filed", "reported", "submitted", "raised", "written", "authored", "published", "made",
     "started", "posted", "sent", "shared", "added", "logged", "held", "set", "launched"}
)  # fmt: skip
#: Windows of events a question keeps its items to ("opened in 2027", "reported in the first half of 2026",
#: "between June and August 2026", "before March 2026"): each shape with named groups, read by `window_of`.
#: A window names where events fall, never the state at a point (find_time).
_Y = r"(?P<y>(?:19|20)\d{2})"
WINDOW_SHAPES = (
    rf"(?:in|during|within|throughout) (?:the )?(?P<half>first|second) half of {_Y}",
    rf"(?:in|during|within) (?:the )?(?P<qn>first|second|third|fourth) quarter of {_Y}",
    rf"(?:in|during|within) (?P<q>q[1-4]) {_Y}",
    rf"(?:between|from) (?P<m1>{_MONTH}) (?:and|to|through|until|till) (?P<m2>{_MONTH}) {_Y}",
    rf"(?:in|during|within|from) (?P<lm>{_MONTH}) {_Y} (?P<later>or later|or after|and later|onwards|onward)",
    rf"(?:in|during|within) (?P<m>{_MONTH}) {_Y}",
    rf"(?:back in|in|during|within|throughout) (?:the year )?{_Y}",
    rf"(?P<bound>before|prior to|after|since) (?:(?P<bm>{_MONTH}) )?{_Y}",
)
_WINDOWS = [re.compile(rf"(?:^|\s)(?:{shape})(?=[\s,;:?!.]|$)") for shape in WINDOW_SHAPES]
QUARTERS = {"first": 1, "second": 2, "third": 3, "fourth": 4}


@dataclass(frozen=True)
class Window:
    """A window of events: the phrase as found, and its first and last instants (ISO, no time zone)."""

    phrase: str
    start: str
    end: str

    def holds(self, instant: str) -> bool:
        return self.start <= instant[:19] <= self.end


def window_of(norm: str) -> Window | None:
    """The first window of events a normalised question names; None when it names none."""
    for pattern in _WINDOWS:
        if found := pattern.search(norm):
            return _window(found)
    return None


def _window(found: re.Match[str]) -> Window:
    g, year = found.groupdict(), int(found.group("y"))
    phrase = found.group(0).strip()
    first, last = 1, 12
    if g.get("half"):
        first, last = (1, 6) if g["half"] == "first" else (7, 12)
    elif g.get("qn") or g.get("q"):
        n = QUARTERS[g["qn"]] if g.get("qn") else int(g["q"][1])
        first, last = 3 * n - 2, 3 * n
    elif g.get("m1"):
        first, last = MONTH_WORDS[g["m1"]], MONTH_WORDS[g["m2"]]
    elif g.get("m") or g.get("lm"):
        first = last = MONTH_WORDS[g.get("m") or g["lm"]]
    start, end = span_instant(year, first, 1, "start"), span_instant(year, last, None, "end")
    if g.get("later"):
        end = "9999-12-31T23:59:59"
    if g.get("bound"):
        month = MONTH_WORDS[g["bm"]] if g.get("bm") else None
        if g["bound"] in ("before", "prior to"):
            start, end = "0001-01-01T00:00:00", span_instant(year, month or 1, 1, "before")
        else:
            start = span_instant(year, month or 12, None, "end") if g["bound"] == "after" else start
            start = span_instant(year, month, 1, "start") if g["bound"] == "since" and month else start
            end = "9999-12-31T23:59:59"
    return Window(phrase, start, end)
