"""One pattern for every extension point (extraction rules, intent binders, finishers and absences, the CLI's
commands), after rdflib's plugin registry: a decorator registers an object under a name, looking up a name that
is not registered is an error that lists what is, and each registry lists itself (`kg rules`,
`kg intents --registered`). An entry may be registered lazily as "module:attribute" and is imported on first
use (the CLI imports only the command it runs)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class NotRegistered(LookupError):
    """A name no entry of the registry has."""


class Registry(Generic[T]):
    """Named entries of one kind, in registration order, with optional metadata per entry."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, T] = {}
        self._lazy: dict[str, str] = {}
        self.meta: dict[str, dict[str, Any]] = {}

    def register(self, name: str | None = None, **meta: Any) -> Callable[[T], T]:
        """Decorator: register the object under `name` (default: its `__name__`), with `meta` beside it."""

        def add(item: T) -> T:
            key = name or getattr(item, "__name__", None)
            if not key:
                raise ValueError(f"a {self.kind} without a __name__ is registered with a name")
            self.add(key, item, **meta)
            return item

        return add

    def add(self, name: str, item: T, **meta: Any) -> None:
        if name in self:
            raise ValueError(f"{self.kind} {name!r} is registered twice")
        self._entries[name] = item
        self.meta[name] = meta

    def add_lazy(self, name: str, target: str, **meta: Any) -> None:
        """Register "module:attribute", imported when the entry is first looked up."""
        if name in self:
            raise ValueError(f"{self.kind} {name!r} is registered twice")
        self._lazy[name] = target
        self.meta[name] = meta

    def __getitem__(self, name: str) -> T:
        if name not in self._entries and name in self._lazy:
            module, _, attribute = self._lazy[name].partition(":")
            self._entries[name] = getattr(importlib.import_module(module), attribute)
        try:
            return self._entries[name]
        except KeyError:
            raise NotRegistered(f"no {self.kind} named {name!r}; registered: {', '.join(self.names())}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._entries or name in self._lazy

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def names(self) -> list[str]:
        """Every registered name, in registration order."""
        return list(self.meta)

    def values(self) -> list[T]:
        """Every entry, in registration order (lazy ones imported)."""
        return [self[name] for name in self.names()]

    def missing(self, names: list[str] | tuple[str, ...]) -> list[str]:
        """The names among `names` that are not registered."""
        return [n for n in names if n not in self]
