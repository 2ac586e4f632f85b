"""One registry pattern for the extension points: a decorator registers, a name registered twice or looked up
without being registered is an error naming what is registered, and `kg rules` / `kg intents --registered`
list what is registered."""

from __future__ import annotations

import re

import pytest

from kg.cli import COMMANDS, main
from kg.ingest.rules import core as rules_core
from kg.ingest.rules import load_rules
from kg.qa.intents import ABSENCES, FINISHERS, loader, table
from kg.qa.intents.binders import BINDERS
from kg.registry import NotRegistered, Registry


def test_a_decorator_registers_and_a_missing_name_is_an_error_naming_the_registered() -> None:
    shapes: Registry[object] = Registry("shape")

    @shapes.register()
    def circle() -> None: ...

    shapes.register("square", sides=4)(lambda: None)
    assert shapes.names() == ["circle", "square"] and shapes["circle"] is circle
    assert shapes.meta["square"] == {"sides": 4}
    with pytest.raises(NotRegistered, match=r"no shape named 'hexagon'; registered: circle, square"):
        shapes["hexagon"]
    with pytest.raises(ValueError, match="registered twice"):
        shapes.register("circle")(circle)


def test_a_lazy_entry_is_imported_on_first_use() -> None:
    lazy: Registry[object] = Registry("thing")
    lazy.add_lazy("registry", "kg.registry:Registry")
    assert "registry" in lazy and lazy["registry"] is Registry
    assert COMMANDS["rules"].__module__ == "kg.cli.rules"


def test_the_extension_points_are_registries_holding_what_the_table_names() -> None:
    rows = table()[1]
    assert {b for r in rows for b in r.binders} <= set(BINDERS.names())
    assert {FINISHERS[n] for n in FINISHERS} >= {r.finish for r in rows if r.finish}
    assert "nothing_yet" in ABSENCES and len(load_rules()) > 20


def test_a_row_naming_an_unregistered_finisher_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    data = loader.table_file()
    broken = {**data, "intent": {**data["intent"], "pr_to_merge": {**data["intent"]["pr_to_merge"], "finish": "nope"}}}
    monkeypatch.setattr(loader, "table_file", lambda: broken)
    loader.table.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"intent pr_to_merge: unknown finish 'nope' \(registered: bug_states"):
            loader.table()
    finally:
        loader.table.cache_clear()


def test_a_missing_rule_module_is_an_error_not_a_family_silently_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_core, "RULE_MODULES", [*rules_core.RULE_MODULES, "no_such_family"])
    with pytest.raises(ModuleNotFoundError, match="no_such_family"):
        load_rules()


def test_kg_rules_and_kg_intents_list_what_is_registered(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in load_rules().names())
    assert main(["intents", "--registered"]) == 0
    out = capsys.readouterr().out
    for registry in (BINDERS, FINISHERS, ABSENCES):  # a table, or one record per entry when it is too wide
        assert all(re.search(rf"\b{registry.kind}\b", out) and re.search(rf"\b{name}\b", out) for name in registry)
