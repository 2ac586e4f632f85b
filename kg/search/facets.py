"""Facet filters as graph constraints: each facet is a SPARQL query over the product's dataset returning the
HERB ids it admits (sparql/search_facet_*.rq). Search intersects them and filters before fusion and rerank;
there is no second index to keep in step with the graph.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from datetime import datetime

from pyoxigraph import Literal, NamedNode

from kg.errors import KGError
from kg.namespaces import node, term
from kg.query.sparql import Backend, Term, named_query, product_dataset

#: --kind values and the artifact class each selects.
KIND_CLASSES = {
    "slack": "ekg:SlackMessage",
    "document": "ekg:Document",
    "meeting": "ekg:MeetingTranscript",
    "meeting_chat": "ekg:MeetingChat",
    "pr": "ekg:PullRequest",
    "url": "ekg:WebLink",
}
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$")


@dataclass(frozen=True)
class Facets:
    kind: str | None = None
    channel: str | None = None
    author: str | None = None  # an eid
    role: str | None = None
    since: str | None = None  # YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]
    until: str | None = None

    def __post_init__(self) -> None:
        """A date that is no date (`2026-02-30`, month 13) is an error at once, not a search that finds nothing."""
        for value, start in ((self.since, True), (self.until, False)):
            if value:
                instant(value, start)

    def active(self) -> dict[str, str]:
        return {k: v for k, v in asdict(self).items() if v}

    def constraints(self) -> list[tuple[str, dict[str, Term]]]:
        """(query name, bindings) for every facet set; raises KGError on a value that cannot be bound."""
        out: list[tuple[str, dict[str, Term]]] = []
        if self.kind:
            if self.kind not in KIND_CLASSES:
                raise KGError(f"unknown kind {self.kind!r}; one of: {', '.join(KIND_CLASSES)}")
            out.append(("search_facet_kind", {"cls": term(KIND_CLASSES[self.kind])}))
        if self.channel:
            out.append(("search_facet_channel", {"channel": Literal(self.channel)}))
        if self.author:
            if not re.fullmatch(r"eid_[0-9a-f]{8}", self.author):
                raise KGError(f"--author expects an employee id like eid_1a2b3c4d, got {self.author!r}")
            out.append(("search_facet_author", {"author": node("person", self.author)}))
        if self.role:
            out.append(("search_facet_role", {"role": Literal(self.role)}))
        if self.since or self.until:
            out.append(
                (
                    "search_facet_dates",
                    {
                        "since": instant(self.since or "0001-01-01", start=True),
                        "until": instant(self.until or "9999-12-31", start=False),
                    },
                )
            )
        return out


def instant(value: str, start: bool) -> Literal:
    """A date or date-time as an xsd:dateTime literal; a bare date spans its whole day."""
    if not _DATE.match(value):
        raise KGError(f"expected a date YYYY-MM-DD (or YYYY-MM-DDTHH:MM), got {value!r}")
    try:
        datetime.fromisoformat(value)
    except ValueError as exc:
        raise KGError(f"{value!r} is not a date on the calendar ({exc})") from exc
    if "T" not in value:
        value += "T00:00:00" if start else "T23:59:59"
    elif value.count(":") == 1:
        value += ":00"
    return Literal(value, datatype=term("xsd:dateTime"))


def allowed_ids(backend: Backend, product: str, facets: Facets) -> set[str] | None:
    """The HERB ids every active facet admits within the product, or None when no facet is set."""
    allowed: set[str] | None = None
    graphs: list[NamedNode] | None = product_dataset(product)
    for name, bindings in facets.constraints():
        rows = backend.select(named_query(name).text, bindings, graphs)
        ids = {r["id"].value for r in rows if "id" in r}
        allowed = ids if allowed is None else allowed & ids
    return allowed
