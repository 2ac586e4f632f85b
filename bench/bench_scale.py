"""How cost grows with the data: a synthetic company of x1, x3, x10 HERB, built, indexed, validated and queried.

    .venv/bin/python bench/bench_scale.py [--factors 1 3 10] [--json scale.json] [--workdir /tmp/x] [--no-index]
        [--no-validate]

Copy k of a product gets a new product name (`<name>C<k>`), new artifact and channel ids (suffix `c<k>`) and
new employee ids (every `eid_` of the company mapped to a fresh 8-hex id, in the metadata too), so no identity
of a copy collides with the original's; customers are shared, as one company's customers are. The copies are
written to a temporary folder (or --workdir), never into the repository.

Per factor, each stage in its own process: build seconds (`kg build` as a user runs it: products mapped in
`--jobs` worker processes, default one per core up to two, then the store compacted; with `--peer-jobs M` also
the same build with M processes, as the row to compare with), quads/s, peak RSS, store size on disk, `kg index`
and `kg validate` seconds; then p50/p99 per question over the same dev questions asked of one original product
inside the bigger store, and whether the answers equal those at x1. The growth exponent b of each row is the
least-squares slope of log(value) on log(factor): 1.0 is linear, 0 is flat. Targets (issue 16): build and index
b <= 1.2 (at most 1.2x linear); per-question p50/p99 at x10 within 1.3x of x1; peak RSS at x10 < 4 GB; x10
built in < 2 min. The machine is shared: compare rows of one run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kg.cli import DEFAULT_JOBS

HERB = Path(__file__).resolve().parents[2] / "shared" / "herb"
ARTIFACT_LISTS = ("slack", "documents", "meeting_transcripts", "meeting_chats", "urls", "prs")
EID = re.compile(r"\beid_[0-9a-f]{8}\b")
TOKEN = re.compile(r"[\w-]+")

STAGES = {
    "build": """
import json, resource, sys, time
from pathlib import Path
from kg.ingest.build import build
t = time.perf_counter()
only = json.loads(sys.argv[3])
jobs = int(sys.argv[4])
r = build(Path(sys.argv[1]), Path(sys.argv[2]), products=only, progress=False, jobs=jobs)
print(json.dumps({"seconds": time.perf_counter() - t, "quads": r.quads,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
""",
    "index": """
import json, resource, sys, time
from pathlib import Path
from kg.search.index import build_index
t = time.perf_counter()
build_index(Path(sys.argv[2]), Path(sys.argv[1]), use_dense=False, progress=False)
print(json.dumps({"seconds": time.perf_counter() - t,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
""",
    "validate": """
import json, resource, sys, time
from pathlib import Path
from kg.ingest.validate import validate
t = time.perf_counter()
r = validate(Path(sys.argv[2]))
print(json.dumps({"seconds": time.perf_counter() - t, "violations": r.violations,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
""",
    "ask": """
import json, resource, sys, time
from pathlib import Path
from kg.qa.answer import Answerer
from kg.query.sparql import EmbeddedStore
questions = json.loads(Path(sys.argv[3]).read_text())
answerer = Answerer(EmbeddedStore(Path(sys.argv[2])))
answerer.vocabulary
ms, answers = [], []
for _ in range(2):  # the first pass warms the store's caches; the second is timed
    ms, answers = [], []
    for q in questions:
        t = time.perf_counter()
        a = answerer.ask(q)
        ms.append(1000 * (time.perf_counter() - t))
        answers.append([a.abstain, sorted(map(str, a.answer)) if isinstance(a.answer, list) else str(a.answer)])
print(json.dumps({"ms": ms, "answers": answers}))
""",
}


def new_eid(eid: str, k: int) -> str:
    return "eid_" + hashlib.sha1(f"{eid}/{k}".encode()).hexdigest()[:8]


def eid_map(herb: Path, k: int) -> dict[str, str]:
    """Every eid of the company (metadata and product files) -> its copy-k id, checked collision-free."""
    eids = set(EID.findall((herb / "metadata" / "employee.json").read_text()))
    for path in sorted((herb / "products").glob("*.json")):
        eids |= set(EID.findall(path.read_text()))
    mapping = {e: new_eid(e, k) for e in eids}
    if len(set(mapping.values()) | eids) != 2 * len(eids):
        raise SystemExit(f"bench_scale: eid collision in copy {k}; change the hash salt")
    return mapping


def artifact_ids(product: dict[str, Any]) -> set[str]:
    """The ids that name instances: each artifact's id and each Slack channel's id."""
    ids = {rec["id"] for key in ARTIFACT_LISTS for rec in product.get(key, []) if isinstance(rec.get("id"), str)}
    ids |= {rec["Channel"]["channelID"] for rec in product.get("slack", []) if "channelID" in rec.get("Channel", {})}
    return ids


def renamed(text: str, names: dict[str, str]) -> str:
    """`text` with every whole token (a run of word characters and dashes, as ids are) that `names` maps
    replaced: one pass, so links and mentions follow their ids."""
    return TOKEN.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def synthetic_herb(herb: Path, out: Path, factor: int) -> Path:
    """HERB times `factor`: the originals plus factor-1 renamed copies of every product and employee."""
    (out / "products").mkdir(parents=True)
    shutil.copytree(herb / "metadata", out / "metadata")
    originals = json.loads((herb / "metadata" / "employee.json").read_text())
    employees = dict(originals)
    tree = json.loads((herb / "metadata" / "salesforce_team.json").read_text())
    tree_text = json.dumps(tree)
    for path in sorted((herb / "products").glob("*.json")):
        shutil.copy(path, out / "products" / path.name)
    for k in range(2, factor + 1):
        eids = eid_map(herb, k)
        for eid, rec in originals.items():
            employees[eids[eid]] = json.loads(renamed(json.dumps(rec), eids))
        tree.extend(json.loads(renamed(tree_text, eids)))
        for path in sorted((herb / "products").glob("*.json")):
            text = path.read_text()
            names = eids | {i: f"{i}c{k}" for i in artifact_ids(json.loads(text))}
            (out / "products" / f"{path.stem}C{k}.json").write_text(renamed(text, names))
    (out / "metadata" / "employee.json").write_text(json.dumps(employees))
    (out / "metadata" / "salesforce_team.json").write_text(json.dumps(tree))
    return out


def run_stage(stage: str, *args: str) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", STAGES[stage], *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def sharded_build(data: Path, work: Path, shards: int) -> float:
    """Wall seconds to build the products as `shards` stores at once, one process each (products split by
    name): what a build costs when each shard lives on its own endpoint."""
    names = sorted(p.stem for p in (data / "products").glob("*.json"))
    started = time.perf_counter()
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                STAGES["build"],
                str(data),
                str(work / f"shard-{i}"),
                json.dumps(names[i::shards]),
                "1",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for i in range(shards)
    ]
    for proc in procs:
        if proc.wait() != 0:
            raise SystemExit(f"bench_scale: a shard build failed: {proc.stderr.read().decode()[-500:]}")
    seconds = time.perf_counter() - started
    for i in range(shards):
        shutil.rmtree(work / f"shard-{i}")
    return seconds


def disk_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def questions_of(herb: Path, product: str) -> list[str]:
    rows = [
        json.loads(line)
        for name in ("answerable", "unanswerable")
        for line in (herb / "qa" / "dev" / f"{name}.jsonl").read_text().splitlines()
        if line.strip()
    ]
    return [r["question"] for r in rows if r.get("product") == product]


def measure(
    herb: Path,
    work: Path,
    factor: int,
    questions: Path,
    index: bool,
    shards: int,
    ask: bool,
    validate: bool,
    jobs: int,
    peer_jobs: int | None,
) -> dict[str, Any]:
    data = synthetic_herb(herb, work / f"herb-x{factor}", factor) if factor > 1 else herb
    store = work / f"store-x{factor}"
    built = run_stage("build", str(data), str(store), "null", str(jobs))
    row: dict[str, Any] = {
        "factor": factor,
        "build_s": built["seconds"],
        "quads": built["quads"],
        "quads_per_s": built["quads"] / built["seconds"],
        "build_rss_mb": built["rss_mb"],
        "store_mb": disk_mb(store),
    }
    if shards > 1:
        row["sharded_build_s"] = sharded_build(data, work, shards)
    if peer_jobs is not None:
        peer = run_stage("build", str(data), str(work / "store-peer"), "null", str(peer_jobs))
        row |= {"peer_build_s": peer["seconds"], "peer_build_rss_mb": peer["rss_mb"]}
        shutil.rmtree(work / "store-peer")
    if index:
        indexed = run_stage("index", str(data), str(store))
        row |= {"index_s": indexed["seconds"], "index_rss_mb": indexed["rss_mb"]}
    if ask and validate:
        checked = run_stage("validate", str(data), str(store))
        row |= {
            "validate_s": checked["seconds"],
            "violations": checked["violations"],
            "validate_rss_mb": checked["rss_mb"],
        }
    if ask:
        asked = run_stage("ask", str(data), str(store), str(questions))
        row |= {
            "p50_ms": quantile(asked["ms"], 0.5),
            "p99_ms": quantile(asked["ms"], 0.99),
            "answers": asked["answers"],
        }
    row["peak_rss_mb"] = max(built["rss_mb"], row.get("index_rss_mb", 0), row.get("validate_rss_mb", 0))
    if factor > 1:
        shutil.rmtree(data)
    shutil.rmtree(store)
    shutil.rmtree(store.with_name(store.name + ".search"), ignore_errors=True)
    return row


def exponent(factors: list[int], values: list[float]) -> float | None:
    """Least-squares slope of log(value) against log(factor)."""
    points = [(math.log(f), math.log(v)) for f, v in zip(factors, values, strict=True) if v > 0]
    if len(points) < 2:
        return None
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else None


ROWS = [
    ("build (s)", "build_s", "{:.1f}"),
    ("quads", "quads", "{:,}"),
    ("quads/s", "quads_per_s", "{:,.0f}"),
    ("peak RSS (MB)", "peak_rss_mb", "{:,.0f}"),
    ("store on disk (MB)", "store_mb", "{:,.0f}"),
    ("build as shards, one process each, at once (s)", "sharded_build_s", "{:.1f}"),
    ("peer: the same build with --peer-jobs processes (s)", "peer_build_s", "{:.1f}"),
    ("peer build, loader's peak RSS (MB)", "peer_build_rss_mb", "{:,.0f}"),
    ("kg index (s)", "index_s", "{:.1f}"),
    ("kg validate (s)", "validate_s", "{:.1f}"),
    ("violations", "violations", "{}"),
    ("per question p50 (ms)", "p50_ms", "{:.2f}"),
    ("per question p99 (ms)", "p99_ms", "{:.2f}"),
]


def print_report(rows: list[dict[str, Any]], product: str, n: int) -> None:
    from kg.cli.table import print_table

    factors = [r["factor"] for r in rows]
    table = []
    for label, key, fmt in ROWS:
        if not all(key in r for r in rows):
            continue
        b = exponent(factors, [float(r[key]) for r in rows])
        table.append([label, *(fmt.format(r[key]) for r in rows), "" if b is None else f"{b:.2f}"])
    if all("answers" in r for r in rows):
        same = ["yes" if r["answers"] == rows[0]["answers"] else "NO" for r in rows]
        table.append([f"answers equal to x{factors[0]}", *same, ""])
    print(f"\n{n} dev questions of {product} asked inside each store (second pass timed)\n")
    print_table(["measure", *(f"x{f}" for f in factors), "growth exponent"], table)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--herb", default=str(HERB))
    p.add_argument("--factors", type=int, nargs="+", default=[1, 3, 10])
    p.add_argument("--product", default="KnowledgeForce", help="the original product whose questions are asked")
    p.add_argument("--json", help="also write the rows here")
    p.add_argument("--workdir", help="where copies and stores go (default: a new temporary folder, removed after)")
    p.add_argument("--no-index", action="store_true", help="skip `kg index`")
    p.add_argument("--no-ask", action="store_true", help="skip validation and the questions (build figures only)")
    p.add_argument("--no-validate", action="store_true", help="skip `kg validate` (keep the questions)")
    p.add_argument("--shards", type=int, default=1, help="also build each factor as this many stores at once")
    p.add_argument(
        "--jobs", type=int, default=DEFAULT_JOBS, help="`kg build --jobs N` (default: %(default)s, as kg build)"
    )
    p.add_argument("--peer-jobs", type=int, help="also build each factor with this many processes, to compare")
    args = p.parse_args(argv)
    herb = Path(args.herb)
    with tempfile.TemporaryDirectory(prefix="kg-scale-", dir=args.workdir) as tmp:
        work = Path(tmp)
        questions = work / "questions.json"
        asked = questions_of(herb, args.product)
        questions.write_text(json.dumps(asked))
        rows = []
        for factor in args.factors:
            rows.append(
                measure(
                    herb,
                    work,
                    factor,
                    questions,
                    not args.no_index,
                    args.shards,
                    not args.no_ask,
                    not args.no_validate,
                    args.jobs,
                    args.peer_jobs,
                )
            )
            print(
                f"x{factor}: " + ", ".join(f"{k}={v:.1f}" for k, v in rows[-1].items() if isinstance(v, float)),
                file=sys.stderr,
                flush=True,
            )
    print_report(rows, args.product, len(asked))
    if args.json:
        rows = [{k: v for k, v in r.items() if k != "answers"} for r in rows]
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
