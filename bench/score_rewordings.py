"""Score a batch of reworded HERB dev questions against HERB's own wording of the same questions (the library
function is kg.qa.rewordings.score_rewordings; `kg eval --rewordings FILE` prints the same figures).

    python bench/score_rewordings.py tests/data/rewordings_blind_7.jsonl [--store .kg/store] [--json OUT] [--misses]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.paths import herb_path, store_path  # noqa: E402
from kg.qa.answer import Answerer  # noqa: E402
from kg.qa.evaluate import read_jsonl  # noqa: E402
from kg.qa.rewordings import score_rewordings  # noqa: E402
from kg.query.backend import open_backend, store_location  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("batch", type=Path)
    p.add_argument("--store", help="store directory (default: $KG_STORE, else ./.kg/store)")
    p.add_argument("--herb", help="HERB data folder (default: $HERB_DATA, else ../shared/herb)")
    p.add_argument("--json", type=Path, help="write the figures and per-line rows here")
    p.add_argument("--misses", action="store_true", help="print every line whose answer differs from its original")
    args = p.parse_args(argv)
    answerer = Answerer(open_backend(store_location(store_path(args.store))))
    result = score_rewordings(answerer, read_jsonl(args.batch), herb_path(args.herb) / "qa" / "dev")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.misses:
        for r in result["rows"]:
            if not r["same"]:
                print(f"{r['outcome']:>11} {r['intent']} <- {r['original_intent']}: {r['question']}")
    print(json.dumps({k: v for k, v in result.items() if k != "rows"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
