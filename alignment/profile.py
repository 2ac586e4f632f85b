"""Instance profiles: what each field's values look like (format, overlap set, tokens, lengths, roles).

The profile, not the field name, is what the matcher compares. Keys that mean the same thing inside one
source (Confluence `body` in half the records, `content` in the other half) are pooled into one alias group
first, because they never co-occur and the export's own bookkeeping gives them the same role. Each source then
has one body (`primary_body`): the alias group its export declares as content in the most records.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from datetime import UTC, datetime
from itertools import combinations

import numpy as np
import pandas as pd

from alignment.fields import Corpus, Record

EMAIL = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[a-z]{2,}$", re.I)
NAMED_EMAIL = re.compile(r"^[^<>@]*<\s*[^@\s<>]+@[^@\s<>]+\s*>$")
DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2}|[A-Z]{2,4})?$")
EPOCH = re.compile(r"^1\d{9}(\.\d+)?$")  # Unix seconds 2001..2033, as Slack's *_ts fields hold
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MONTH = re.compile(r"^\d{4}-\d{2}$")  # a month, as forecast or billing-period fields hold: coarser than a date
URL = re.compile(r"^(https?://|www\.)\S+$", re.I)
NUMBER = re.compile(r"^[-+]?\d+(\.\d+)?$")
BOOLEAN = {"true", "false", "yes", "no"}
PERSON = re.compile(r"^[A-Z][\w'’-]+(?: [A-Z][\w'’.-]+){1,2}(?: \([^)]*\))?$")
# Words that mark a name as an organisation's ("Acme Health", "FinApps Inc"), so company fields are not taken
# for person fields: legal forms and the generic trade words company names end in.
ORG_WORDS = frozenset(
    {
        "inc",
        "llc",
        "ltd",
        "corp",
        "corporation",
        "co",
        "company",
        "gmbh",
        "ag",
        "plc",
        "sa",
        "group",
        "labs",
        "lab",
        "health",
        "healthcare",
        "bank",
        "capital",
        "analytics",
        "solutions",
        "systems",
        "technologies",
        "tech",
        "financial",
        "finance",
        "services",
        "payments",
        "cloud",
        "ai",
        "networks",
        "partners",
        "holdings",
        "insights",
        "metrics",
        "works",
        "software",
        "data",
        "logistics",
        "media",
        "energy",
        "pharma",
        "bio",
        "therapeutics",
        "ventures",
        "industries",
        "international",
        "global",
        "enterprises",
        "university",
        "edu",
        "retail",
        "insurance",
        "securities",
        "markets",
        "platforms",
        "robotics",
        "dynamics",
        "medical",
        "clinic",
        "hospital",
        "foundation",
        "institute",
    }
)
NAME_WORD = re.compile(r"^[A-Z][\w&'’.-]*$")
CAMEL = re.compile(r"^[A-Z][a-z]+[A-Z]\w*$")  # OpenHealth, QuantaPlane: one-word brand names
PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")
TOKEN = re.compile(r"[a-z0-9]+")
SHAPE_MAX = 40  # longer values are prose; their character shape says nothing

# How compatible two field formats are, beyond "identical" (1.0).
FAMILY = {
    frozenset({"date", "datetime"}): 0.8,
    frozenset({"month", "date"}): 0.5,
    frozenset({"month", "datetime"}): 0.4,
    frozenset({"organisation", "person name"}): 0.3,
    frozenset({"organisation", "short text"}): 0.3,
    frozenset({"organisation", "enum"}): 0.3,
    frozenset({"free text", "short text"}): 0.5,
    frozenset({"person name", "email"}): 0.5,
    frozenset({"identifier", "enum"}): 0.4,
    frozenset({"number", "enum"}): 0.3,
    frozenset({"boolean", "enum"}): 0.3,
    frozenset({"identifier", "URL"}): 0.3,
}
TEMPORAL = {"date", "datetime", "month"}
TEXT = {"short text", "free text"}  # prose: read by its tokens, not by a pattern


def unescape(text: str) -> str:
    r"""Undo the export's double escaping (a literal backslash-n where a newline was meant)."""
    if "\\" not in text:
        return text
    return text.replace("\\r\\n", "\n").replace("\\n", "\n").replace("\\t", "\t").replace('\\"', '"')


def normalise(value: str) -> str:
    """Comparable form of one value: lower case, no role suffix, name of a mail address, `_`/`-` as spaces.

    Dates, datetimes and Unix seconds all become their day, so a Slack `*_ts` meets an ISO `*_at`.
    """
    text = unescape(value).strip()
    if DATETIME.match(text) or EPOCH.match(text) or DATE.match(text) or MONTH.match(text):
        text = sortable_time(text)
    if NAMED_EMAIL.match(text):
        text = text.split("<", 1)[0].strip().strip('"') or text.split("<", 1)[1].rstrip(">")
    text = PARENTHETICAL.sub("", text)
    return " ".join(re.sub(r"[_\-]+", " ", text.lower()).split())


def is_organisation(text: str) -> bool:
    """A short capitalised name with an organisation word ("Northstar Bank", "FinApps Inc") or a one-word
    CamelCase brand ("QuantaPlane"): company fields hold these, person fields do not."""
    words = PARENTHETICAL.sub("", text).split()
    if not 1 <= len(words) <= 5 or not all(NAME_WORD.match(w) for w in words):
        return False
    if len(words) == 1:
        return bool(CAMEL.match(words[0]))
    return any(w.lower().strip(".,") in ORG_WORDS for w in words[1:])


def value_shape(value: str) -> str:
    """The value's character-class signature: `SUP-100012` -> `A-9`, `1712345678.123456` -> `9.9`,
    `Ava Chen` -> `Aa Aa`; prose is just `text`. Identifier fields of two systems share these shapes."""
    text = unescape(value).strip()
    if len(text) > SHAPE_MAX:
        return "text"
    classes = re.sub(r"[A-Z]", "A", re.sub(r"[a-z]", "a", re.sub(r"\d", "9", text)))
    return re.sub(r"(.)\1+", r"\1", re.sub(r"\s+", " ", classes))


def value_format(value: str) -> str:
    """The format of one value, by pattern; `code` and `short text` are refined per field."""
    text = unescape(value).strip()
    checks = (
        (DATETIME.match(text) or EPOCH.match(text), "datetime"),
        (DATE.match(text), "date"),
        (MONTH.match(text), "month"),
        (URL.match(text), "URL"),
        (EMAIL.match(text), "email"),
        (NUMBER.match(text), "number"),
        (text.lower() in BOOLEAN, "boolean"),
        (is_organisation(text), "organisation"),
        (PERSON.match(text) or NAMED_EMAIL.match(text), "person name"),
    )
    for hit, name in checks:
        if hit:
            return name
    if not text:
        return "empty"
    if not re.search(r"\s", text):
        return "code"
    return "free text" if len(text) > 160 or "\n" in text else "short text"


def field_format(formats: Counter[str], n_distinct: int, n_values: int) -> tuple[str, float]:
    """Majority value format, with repeated short codes/phrases read as an enum (a status vocabulary)."""
    formats = formats.copy()
    formats.pop("empty", None)
    if not formats:
        return "empty", 0.0
    name, count = formats.most_common(1)[0]
    share = count / sum(formats.values())
    repeated = n_distinct <= max(2, 0.6 * n_values) and n_distinct <= 40
    if name == "code":
        name = "enum" if repeated else "identifier"
    elif (name == "short text" and repeated and n_values >= 4) or (
        name == "number" and n_distinct <= 3 and n_values >= 4
    ):
        name = "enum"
    elif name == "person name" and n_distinct <= 0.3 * n_values:
        name = "enum"  # "In Progress", "Closed": a status vocabulary that happens to look like names
    return name, share


def declared_roles(record: Record) -> dict[str, str]:
    """The role this record's bookkeeping declares for each field: title, first listed content ("body") or
    other content. Read per record, this is noisy (Fireflies lists `summary` first in half the records), so it
    only decides which keys are aliases; the source's body is chosen by `primary_body`."""
    roles = {f: "content" for f in record.content_fields[1:]}
    if record.content_fields:
        roles[record.content_fields[0]] = "body"
    if record.title_field:
        roles[record.title_field] = "title"
    return roles


def record_roles(record: Record, body: frozenset[str]) -> dict[str, str]:
    """Each field's role in this record: its declared title, the source's body (`primary_body`, wherever
    the record holds it), else content when the record declares it so."""
    roles = {f: "content" for f in record.content_fields}
    roles.update({f: "body" for f in record.values if f in body})
    if record.title_field:
        roles[record.title_field] = "title"
    return roles


def primary_body(records: list[Record], groups: dict[str, str]) -> frozenset[str]:
    """The keys of the source's body: the alias group its export declares as content in the most records,
    (near-)ties broken by how often it is listed first (score = records declaring it + records listing it
    first), so Fireflies' `transcript` (content in 22 records, first in 11) beats `summary` (11 and 11).

    A group that only ever stands in for it (never in a record with it, declared content wherever present,
    like HubSpot's `crm_notes` in the two records without `notes`) joins it, best scoring first."""
    declared: Counter[str] = Counter()
    first: Counter[str] = Counter()
    present: dict[str, set[int]] = defaultdict(set)
    always_content: dict[str, bool] = defaultdict(lambda: True)
    for i, record in enumerate(records):
        listed = {groups[f] for f in record.content_fields if f in groups}
        declared.update(listed)
        if record.content_fields and record.content_fields[0] in groups:
            first[groups[record.content_fields[0]]] += 1
        for f in record.values:
            if f in groups:
                present[groups[f]].add(i)
                always_content[groups[f]] &= groups[f] in listed
    if not declared:
        return frozenset()
    score = {g: declared[g] + first[g] for g in declared}
    ranked = sorted(score, key=lambda g: (-score[g], g))
    body, held = {ranked[0]}, set(present[ranked[0]])
    for g in ranked[1:]:
        if always_content[g] and not present[g] & held:
            body.add(g)
            held |= present[g]
    return frozenset(f for f, g in groups.items() if g in body)


def sortable_time(value: str) -> str:
    """The value's day as YYYY-MM-DD, so ISO dates, ISO datetimes and Unix seconds order together."""
    if EPOCH.match(value.strip()):
        return datetime.fromtimestamp(float(value), tz=UTC).strftime("%Y-%m-%d")
    return value.strip()[:10]


def instant(value: str) -> float | None:
    """The value as Unix seconds when it carries a time of day (ISO datetime with offset, Unix seconds), else
    None: a bare day cannot be ordered against a time on that same day."""
    text = value.strip()
    if EPOCH.match(text):
        return float(text)
    if not DATETIME.match(text):
        return None
    try:
        parsed = datetime.fromisoformat(text.replace(" ", "T", 1))
    except ValueError:
        return None
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).timestamp()


def record_times(dated: dict[str, str]) -> pd.Series:
    """Sort keys for one record's dates: exact instants when every date has a time of day, else days."""
    instants = {f: instant(v) for f, v in dated.items()}
    if all(t is not None for t in instants.values()):
        return pd.Series(instants, dtype=float)
    return pd.Series({f: sortable_time(v) for f, v in dated.items()})


def time_positions(records: list[Record], formats: dict[str, str]) -> dict[str, tuple[float, float]]:
    """Where each date field sits among the dates of the same record, as (mean rank, share of ties).

    Rank 0 is the earliest date (created), 1 the latest (updated, due); a tie means the same instant (or day,
    when a date has no time) as another date of the record (merged on the day of the last update)."""
    ranks: dict[str, list[float]] = defaultdict(list)
    ties: dict[str, list[bool]] = defaultdict(list)
    for record in records:
        dated = {f: v[0] for f, v in record.values.items() if formats.get(f) in TEMPORAL and v}
        if len(dated) < 2:
            continue
        times = record_times(dated)
        order = times.rank(method="dense")  # two fields holding one instant are one event, not two
        repeated = times.duplicated(keep=False)
        top = max(order.max() - 1, 1)
        for f, r in order.items():
            ranks[str(f)].append((r - 1) / top)
            ties[str(f)].append(bool(repeated[str(f)]))
    return {f: (float(np.mean(ranks[f])), float(np.mean(ties[f]))) for f in ranks}


def alias_groups(records: list[Record], fields: list[str]) -> dict[str, str]:
    """Field -> alias group: fields never present together that the bookkeeping gives one role (title, body).

    The group is named after its most frequent member.
    """
    present = {f: {i for i, r in enumerate(records) if f in r.values} for f in fields}
    role_of: dict[str, Counter[str]] = defaultdict(Counter)
    for record in records:
        for f, role in declared_roles(record).items():
            role_of[f][role] += 1
    parent = {f: f for f in fields}

    def root(f: str) -> str:
        while parent[f] != f:
            f = parent[f]
        return f

    for a, b in combinations(fields, 2):
        same_role = [
            role
            for role in ("title", "body")
            if role_of[a][role] >= 0.8 * len(present[a]) and role_of[b][role] >= 0.8 * len(present[b])
        ]
        if same_role and not present[a] & present[b]:
            parent[root(a)] = root(b)
    members: dict[str, list[str]] = defaultdict(list)
    for f in fields:
        members[root(f)].append(f)
    return {f: max(group, key=lambda m: (len(present[m]), m)) for group in members.values() for f in group}


def source_profiles(source: str, records: list[Record], min_records: int) -> list[dict]:
    """Profile rows for one source: one per alias group of fields present in at least `min_records`."""
    counts = Counter(f for r in records for f in r.values)
    fields = sorted(f for f, n in counts.items() if n >= min_records)
    groups = alias_groups(records, fields)
    body = primary_body(records, groups)
    if body:  # stand-ins of the body are pooled with it
        name = max(body, key=lambda f: (sum(f in r.values for r in records), f))
        groups = {f: name if f in body else g for f, g in groups.items()}
    roles: dict[str, Counter[str]] = defaultdict(Counter)
    pooled: dict[str, list[str]] = defaultdict(list)
    present: Counter[str] = Counter()
    for record in records:
        for f, role in record_roles(record, body).items():
            if f in groups:
                roles[groups[f]][role] += 1
        for f, values in record.values.items():
            if f in groups:
                pooled[groups[f]].extend(values)
                present[groups[f]] += 1
    rows = [group_profile(source, g, pooled[g], present[g], len(records), roles[g]) for g in sorted(pooled)]
    per_record: dict[str, list[int]] = {g: [] for g in pooled}
    for record in records:
        for f, values in record.values.items():
            if f in groups:
                per_record[groups[f]].append(sum(len(normalise(v)) for v in values))
    for row in rows:
        if row["format"] == "free text":  # a body split into messages is still one body per record
            row["mean_length"] = float(np.mean(per_record[row["field"]]))
    for row in rows:
        row["members"] = tuple(sorted(f for f, g in groups.items() if g == row["field"]))
    formats = {f: next(r["format"] for r in rows if r["field"] == g) for f, g in groups.items()}
    positions = time_positions(
        [Record(r.file, {groups[f]: v for f, v in r.values.items() if f in groups}) for r in records], formats
    )
    for row in rows:
        row["time_position"], row["time_ties"] = positions.get(row["field"], (np.nan, np.nan))
    return rows


def group_profile(source: str, name: str, values: list[str], present: int, n_records: int, roles: Counter[str]) -> dict:
    """The instance profile of one field (alias group) from its pooled values."""
    normalised = [normalise(v) for v in values]
    distinct = {v for v in normalised if v}
    fmt, share = field_format(Counter(value_format(v) for v in values), len(distinct), len(values))
    lengths = np.array([len(v) for v in normalised] or [0])
    return {
        "source": source,
        "field": name,
        "records": present,
        "fill_rate": present / n_records,
        "values": len(values),
        "distinct": len(distinct),
        "distinct_ratio": len(distinct) / max(1, len(values)),
        "format": fmt,
        "format_share": share,
        "mean_length": float(lengths.mean()),
        "p50_length": float(np.median(lengths)),
        "p90_length": float(np.percentile(lengths, 90)),
        "title_share": roles["title"] / present,
        "body_share": roles["body"] / present,
        "content_share": (roles["body"] + roles["content"]) / present,
        "value_set": frozenset(distinct),
        "tokens": Counter(TOKEN.findall(" ".join(normalised))),
        "shapes": Counter(value_shape(v) for v in values if v.strip()),
    }


def profiles(corpus: Corpus, min_records: int = 2) -> pd.DataFrame:
    """One row per (source, field) with the instance profile used for matching."""
    rows = [row for source, records in corpus.records.items() for row in source_profiles(source, records, min_records)]
    return with_person_handles(pd.DataFrame(rows))


def with_person_handles(frame: pd.DataFrame) -> pd.DataFrame:
    """Handles such as `ava_chen` or `maya` are person names when most of them name someone whom another
    field spells out in full ("Ava Chen", first name "maya")."""
    if frame.empty:
        return frame
    people: set[str] = set().union(*frame.loc[frame["format"] == "person name", "value_set"])
    known = people | {name.split()[0] for name in people if name}

    def named_share(values: frozenset[str]) -> float:
        return sum(v in known for v in values) / len(values) if values else 0.0

    handles = frame["format"].isin(["enum", "identifier"]) & (frame["value_set"].map(named_share) >= 0.5)
    return frame.assign(format=frame["format"].mask(handles, "person name"))
