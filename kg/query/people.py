"""People as a reader knows them: an eid with its name and role, read from the organisation graph once.

Answers keep eids (they are what the benchmark scores and what is unique: 530 employees share 98 names); every
place that shows a person to a reader adds the name and role beside the eid (`shown`), and JSON adds a `people`
map (`people_map`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pyoxigraph import NamedNode

from kg.namespaces import ORG_GRAPH
from kg.query.sparql import Backend, named_query

EID = re.compile(r"\beid_[0-9a-f]+\b")


@dataclass(frozen=True)
class Person:
    eid: str
    name: str | None
    role: str | None
    location: str | None = None

    def shown(self) -> str:
        """`Name (Role, eid_…)`, or the eid alone for an id the organisation does not list."""
        if self.name is None:
            return self.eid
        return f"{self.name} ({', '.join(x for x in (self.role, self.eid) if x)})"

    def to_json(self) -> dict[str, str | None]:
        return {"name": self.name, "role": self.role}


class People:
    """The organisation's employees by eid; an eid it does not hold is shown as itself."""

    def __init__(self, backend: Backend) -> None:
        rows = backend.select(named_query("people").text, None, [NamedNode(ORG_GRAPH)])
        self.by_eid: dict[str, Person] = {}
        for row in rows:
            eid = row["person"].value.rsplit("/", 1)[-1]
            name = row["name"].value if "name" in row else None
            role = row["role"].value if "role" in row else None
            location = row["location"].value if "location" in row else None
            self.by_eid.setdefault(eid, Person(eid, name, role, location))

    def person(self, eid: str) -> Person:
        return self.by_eid.get(eid, Person(eid, None, None))

    def shown(self, eid: str) -> str:
        return self.person(eid).shown()

    def people_map(self, texts: Iterable[str]) -> dict[str, dict[str, str | None]]:
        """{eid: {name, role}} for every known eid the texts hold, in sorted order."""
        eids = sorted({m for t in texts for m in EID.findall(t)})
        return {e: self.by_eid[e].to_json() for e in eids if e in self.by_eid}


def shown_value(value: str, people: dict[str, dict[str, str | None]]) -> str:
    """An answer value as a reader sees it: an eid in the answer's `people` map as `Name (Role, eid_…)`."""
    return Person(value, **people[value]).shown() if value in people else value
