"""Picture a reviewed SSSOM/TSV as a steward sees it in a spreadsheet: `python docs/make_steward_view.py
APPROVED.tsv` -> docs/steward-review.png (headless Chromium renders a grid with column letters and row numbers).

Shows the field-to-ontology rows of the sources named by --sources (default gmail), with the columns a
steward reads and edits; the metadata block (the lines starting with #) stays in the file and out of the view,
as a spreadsheet shows it on rows above the table.
"""

from __future__ import annotations

import argparse
import csv
import html
import io
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = [
    "subject_id",
    "predicate_modifier",
    "predicate_id",
    "object_id",
    "mapping_justification",
    "reviewer_id",
    "confidence",
    "comment",
]
STYLE = """
body { margin: 0; font: 12px Arial, sans-serif; background: #fff; }
.bar { background: #f1f3f4; border-bottom: 1px solid #c0c0c0; padding: 6px 8px; color: #333; }
.bar b { color: #188038; }
table { border-collapse: collapse; table-layout: fixed; }
td, th { border: 1px solid #d4d4d4; padding: 2px 5px; white-space: nowrap; overflow: hidden;
         text-overflow: ellipsis; height: 18px; }
th { background: #f1f3f4; color: #555; font-weight: normal; text-align: center; }
th.row { width: 28px; }
tr.head td { font-weight: bold; background: #e8f0fe; }
td.not { background: #fce8e6; color: #a50e0e; font-weight: bold; }
"""
WIDTHS = [190, 120, 120, 150, 215, 200, 70, 420]


def rows_of(path: Path, sources: list[str]) -> list[dict[str, str]]:
    """The ontology rows of the chosen sources, in file order."""
    text = "".join(line for line in path.read_text(encoding="utf-8").splitlines(True) if not line.startswith("#"))
    rows = list(csv.DictReader(io.StringIO(text), delimiter="\t"))
    return [r for r in rows if r.get("object_source") == "w3ekg:ont" and r["subject_id"].split(":", 1)[0] in sources]


def page(path: Path, rows: list[dict[str, str]]) -> str:
    """The grid: column letters, row numbers, the header row, then the rows."""
    letters = "".join(f'<th style="width:{w}px">{chr(65 + i)}</th>' for i, w in enumerate(WIDTHS))
    head = "".join(f"<td>{c}</td>" for c in COLUMNS)
    body = []
    for n, row in enumerate(rows, start=2):
        cells = "".join(
            f'<td class="not">{html.escape(row.get(c, ""))}</td>'
            if c == "predicate_modifier" and row.get(c)
            else f"<td>{html.escape(row.get(c, ''))}</td>"
            for c in COLUMNS
        )
        body.append(f'<tr><th class="row">{n}</th>{cells}</tr>')
    return (
        f"<html><head><style>{STYLE}</style></head><body>"
        f'<div class="bar">{html.escape(path.name)} — reviewed SSSOM/TSV, field-to-ontology rows '
        f"(<b>semapv:ManualMappingCuration</b> after <code>kg align review</code>)</div>"
        f'<table><tr><th class="row"></th>{letters}</tr><tr class="head"><th class="row">1</th>{head}</tr>'
        + "".join(body)
        + "</table></body></html>"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("approved", type=Path)
    parser.add_argument("--sources", default="gmail")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "steward-review.png")
    args = parser.parse_args()
    rows = rows_of(args.approved, args.sources.split(","))
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("needs headless Chromium: apt-get install chromium")
    with tempfile.TemporaryDirectory() as tmp:
        sheet = Path(tmp) / "sheet.html"
        sheet.write_text(page(args.approved, rows), encoding="utf-8")
        height = 60 + 23 * (len(rows) + 2)
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--screenshot={args.out}",
                f"--window-size=1540,{height}",
                sheet.as_uri(),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    print(f"wrote {args.out} ({len(rows)} rows)")


if __name__ == "__main__":
    main()
