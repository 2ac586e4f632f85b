"""`kg`'s entry point: the parser (only the command being run is imported) and the one place a user error
becomes `kg: error: …` and exit 2 (see kg/cli/__init__.py)."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from typing import Any

from kg import __version__
from kg.errors import KGError
from kg.registry import Registry

#: Subcommand modules, in the order `kg --help` lists them. Each exposes `register(subparsers)`.
_MODULES = [
    "build",
    "stats",
    "query",
    "validate",
    "export",
    "deployment",
    "ask",
    "eval",
    "serve",
    "mcp",
    "index",
    "search",
    "align",
    "rules",
    "intents",
    "timeline",
    "analyze",
]
#: The commands: each entry is its module's `register(subparsers)`, imported only when that command is looked up.
COMMANDS: Registry[Callable[[Any], None]] = Registry("command")
for _name in _MODULES:
    COMMANDS.add_lazy(_name, f"kg.cli.{_name}:register")


def command_of(argv: list[str]) -> str | None:
    """The subcommand argv names: the first word that is not a top-level option (none of those takes a value)."""
    word = next((w for w in argv if not w.startswith("-")), None)
    return word if word in COMMANDS else None


def parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser for `argv`: with a known command, only that command's module is imported and registered."""
    top = argparse.ArgumentParser(prog="kg", description="Enterprise knowledge graph toolkit over HERB.")
    top.add_argument("--version", action="version", version=f"kg {__version__}")
    top.add_argument("-v", "--verbose", action="store_true", help="log debug detail")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", required=True)
    command = command_of(sys.argv[1:] if argv is None else argv)
    for name in [command] if command else COMMANDS.names():
        COMMANDS[name](sub)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser(argv).parse_args(argv)
    for level in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR):
        logging.addLevelName(level, logging.getLevelName(level).lower())  # `kg: warning:`, as kg.cli.output.warn
    before = set(logging.getLogger().handlers)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING, format="kg: %(levelname)s: %(message)s"
    )
    # Libraries may lower their own loggers' level when imported (bm25s sets DEBUG on import, after this), so
    # the level of the handler made here is what keeps their debug lines out unless --verbose asks for them.
    for handler in set(logging.getLogger().handlers) - before:
        handler.setLevel(logging.DEBUG if args.verbose else logging.WARNING)
    try:
        return int(args.func(args) or 0)
    except KGError as exc:
        print(f"kg: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("kg: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
