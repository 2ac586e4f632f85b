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
#: Widest table written to a file or a pipe; a wider one of more than two columns is written record by record.
PIPED_WIDTH = 120


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
    """The table as text, as wide as the terminal (`width`) or PIPED_WIDTH elsewhere (width None). A table
    wider than that is written record by record (`vertical`) when it has more than two columns, since folding
    many columns leaves each a sliver; one of two columns folds its long cells on a terminal and keeps them
    whole on one line elsewhere, so a pipe can grep them."""
    cells = [[cell_text(c) for c in row] for row in rows]
    natural = _rich_table(header, cells, None)
    if max((len(line) for line in natural.splitlines()), default=0) <= (width or PIPED_WIDTH):
        return natural
    if len(header) > 2:
        return vertical(header, cells)
    return natural if width is None else _rich_table(header, cells, width)


def vertical(header: Sequence[str], cells: Sequence[Sequence[str]]) -> str:
    """One block per row, one `column: value` line per cell, blocks apart by a blank line."""
    pad = max(len(h) for h in header) + 1
    blocks = ["\n".join(f"{h + ':':<{pad}} {c}".rstrip() for h, c in zip(header, row, strict=True)) for row in cells]
    return "\n\n".join(blocks)


def _rich_table(header: Sequence[str], cells: list[list[str]], width: int | None) -> str:
    """Drawn by rich: folded to `width`, or never folded (width None)."""
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
