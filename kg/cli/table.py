"""Tables for the terminal, drawn by rich: full text (folded to the terminal's width, never cut), numbers
right-aligned, IRIs written with the project's prefixes."""

from __future__ import annotations

import io
import re
import shutil
import sys
from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kg.namespaces import curie

_NUMBER = re.compile(r"^-?[\d,]+(\.\d+)?%?$")
#: Width of a table written to a file or a pipe: wide enough that no cell is ever folded.
UNFOLDED = 10_000


def cell_text(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    return curie(str(value))


def is_numeric(column: list[str]) -> bool:
    return bool(column) and all(_NUMBER.match(c) for c in column if c) and any(column)


def terminal_width() -> int | None:
    return shutil.get_terminal_size().columns if sys.stdout.isatty() else None


def format_table(header: Sequence[str], rows: Sequence[Sequence[object]], width: int | None = None) -> str:
    """The table as text. On a terminal long cells fold onto more lines; elsewhere (width None) nothing folds."""
    cells = [[cell_text(c) for c in row] for row in rows]
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="", highlight=False)
    for i, name in enumerate(header):
        numeric = is_numeric([r[i] for r in cells])
        table.add_column(name, justify="right" if numeric else "left", overflow="fold", no_wrap=width is None)
    for row in cells:
        table.add_row(*(Text(c) for c in row))
    out = io.StringIO()
    Console(file=out, width=width or UNFOLDED, color_system=None, highlight=False, emoji=False).print(table)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines() if line.strip())


def print_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    print(format_table(header, rows, terminal_width()))
