"""Plain-text tables for the terminal."""

from __future__ import annotations

from collections.abc import Sequence


def format_table(header: Sequence[str], rows: Sequence[Sequence[object]], max_width: int = 100) -> str:
    cells = [[str(c) if len(str(c)) <= max_width else str(c)[: max_width - 1] + "…" for c in row] for row in rows]
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(header)]
    line = "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))
    rule = "  ".join("-" * w for w in widths)
    body = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in cells]
    return "\n".join([line, rule, *body])


def print_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    print(format_table(header, rows))
