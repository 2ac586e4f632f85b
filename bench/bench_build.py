"""Benchmark `kg build` on all 30 HERB products against its floor and a peer, each in its own process.

- ours:  `kg build` (mapping + rules + load into a fresh on-disk store, swapped in), with the products mapped in
  this process (`--jobs 1`) and in two worker processes while this one loads (`--jobs 2`, the default on 2 cores);
- floor: pyoxigraph `bulk_load` of the very same quads (as N-Quads) into an empty on-disk store;
- peer:  rdflib parsing the same N-Quads file into a Dataset.

Run: `.venv/bin/python bench/bench_build.py [--herb PATH] [--repeat 3]` — prints a table (median of repeats).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

STAGES = {
    "ours": """
import json, resource, sys, time
from pathlib import Path
from kg.ingest.build import build
t = time.perf_counter()
r = build(Path(sys.argv[1]), Path(sys.argv[2]), progress=False, jobs=int(sys.argv[3]))
print(json.dumps({"seconds": time.perf_counter() - t, "quads": r.quads, "artifacts": r.artifacts,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
""",
    "floor": """
import json, resource, sys, time
from pyoxigraph import RdfFormat, Store
t = time.perf_counter()
store = Store(sys.argv[2])
store.bulk_load(path=sys.argv[1], format=RdfFormat.N_QUADS)
store.flush()
print(json.dumps({"seconds": time.perf_counter() - t,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
""",
    "peer": """
import json, resource, sys, time
from rdflib import Dataset
t = time.perf_counter()
ds = Dataset()
ds.parse(sys.argv[1], format="nquads")
print(json.dumps({"seconds": time.perf_counter() - t, "quads": len(ds),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
""",
}


def run_stage(stage: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-c", STAGES[stage], *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--herb", default=str(Path(__file__).resolve().parents[2] / "shared" / "herb"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, list[dict]] = {"ours1": [], "ours2": [], "floor": [], "peer": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            for jobs in (1, 2):  # each into a fresh path: rebuilding in place would also time removing the last
                store = Path(tmp) / f"ours{i}-jobs{jobs}" / "store"
                results[f"ours{jobs}"].append(run_stage("ours", args.herb, str(store), str(jobs)))
            dump = Path(tmp) / "all.nq"
            if not dump.exists():
                subprocess.run(
                    [sys.executable, "-m", "kg", "export", "--store", str(store), "--out", str(dump)], check=True
                )
            results["floor"].append(run_stage("floor", str(dump), str(Path(tmp) / f"floor{i}")))
            if i == 0:
                results["peer"].append(run_stage("peer", str(dump)))
    ours = results["ours1"][0]
    floor_s = statistics.median(r["seconds"] for r in results["floor"])
    print(
        f"kg build benchmark: {ours['artifacts']:,} artifacts, {ours['quads']:,} quads, "
        f"median of {args.repeat} (peer once), load average {os.getloadavg()[0]:.1f} at the end\n"
    )
    print(f"{'system':48s} {'seconds':>8s} {'quads/s':>10s} {'peak RSS':>9s} {'vs floor':>8s}")
    rows = [
        ("ours: kg build --jobs 1 (map + rules + load)", "ours1"),
        ("ours: kg build --jobs 2 (2 mappers + 1 loader)", "ours2"),
        ("floor: pyoxigraph bulk_load of the same N-Quads", "floor"),
        ("peer: rdflib parse of the same N-Quads", "peer"),
    ]
    for label, key in rows:
        secs = statistics.median(r["seconds"] for r in results[key])
        rss = max(r["rss_mb"] for r in results[key])
        print(f"{label:48s} {secs:8.2f} {ours['quads'] / secs:10,.0f} {rss:7.0f}MB {secs / floor_s:7.2f}x")


if __name__ == "__main__":
    main()
