"""docs/deployment.md's commands, run as written: every ```bash block marked `# (tested)`, in order, in one folder,
with Virtuoso and the Oxigraph server as the guide starts them. Only the first block's port variables are set
(to free ports), and the replica URLs are filled in where the guide says to edit the deployment file."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
from pathlib import Path

import pytest
import yaml
from endpoints import ROOT, free_port, virtuoso_binaries

pytestmark = [pytest.mark.herb, pytest.mark.slow]

GUIDE = ROOT / "docs" / "deployment.md"
BLOCK = re.compile(r"```bash\n# \(tested\)\n(.*?)```", re.DOTALL)


def blocks() -> list[str]:
    return BLOCK.findall(GUIDE.read_text(encoding="utf-8"))


def run(block: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def list_replicas(folder: Path, env: dict[str, str]) -> None:
    """Section 4's edit: each shard's replica URLs, and the deadline, as the guide's example shows."""
    path = folder / "deploy" / "deployment.yaml"
    body = yaml.safe_load(path.read_text())
    body["deadline"] = 10
    body["shards"]["shard-0"]["replicas"] = [
        f"http://{env['VIRTUOSO_HTTP']}/sparql",
        f"http://{env['SHARD0_B']}/query",
    ]
    body["shards"]["shard-1"]["replicas"] = [f"http://{env['SHARD1_A']}/query"]
    path.write_text(yaml.safe_dump(body, sort_keys=False))


def stop_started(folder: Path) -> None:
    """The servers the guide started, by the process ids they wrote, if a block failed before the last one."""
    for pid_file in folder.glob("*.pid"):
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)


def test_the_deployment_guide_runs_as_written(dev_store: Path, tmp_path: Path) -> None:
    virtuoso_binaries()
    env = {
        **os.environ,
        "PATH": f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "KG_STORE": str(dev_store),
        **{name: f"127.0.0.1:{free_port()}" for name in ("SHARD0_B", "SHARD1_A", "VIRTUOSO_HTTP", "VIRTUOSO_SQL")},
    }
    steps = blocks()
    assert len(steps) >= 8
    outputs: list[subprocess.CompletedProcess[str]] = []
    try:
        for block in steps:
            done = run(block, tmp_path, env)
            assert done.returncode == 0, f"{block}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            assert "Traceback" not in done.stderr
            outputs.append(done)
            if "oxigraph load" in block:
                list_replicas(tmp_path, env)
    finally:
        if len(outputs) < len(steps):  # the last block stops them when all went well
            stop_started(tmp_path)
    check = next(o for b, o in zip(steps, outputs, strict=True) if "kg deployment check" in b)
    assert "every shard of deploy/deployment.yaml has a healthy replica" in check.stdout
    assert check.stdout.count("healthy") >= 3 and "skipped" not in check.stdout
    asked = next(o for b, o in zip(steps, outputs, strict=True) if "kg ask" in b)
    assert "eid_13fdff84" in asked.stdout
    assert "replicas (served: this run" in (tmp_path / "stats.txt").read_text()
    again = next(o for b, o in zip(steps, outputs, strict=True) if "--out deploy-next" in b)
    assert "against deploy/deployment.yaml: 0 of" in again.stdout  # the same data, the same placement
    for shard in ("shard-0", "shard-1"):  # and the same build ids: no replica needs a reload
        files = [yaml.safe_load((tmp_path / d / "deployment.yaml").read_text()) for d in ("deploy", "deploy-next")]
        assert files[0]["shards"][shard]["manifest"] == files[1]["shards"][shard]["manifest"]
    added = next(o for b, o in zip(steps, outputs, strict=True) if "--shards 3" in b)
    assert re.search(r"against deploy/deployment.yaml: \d+ of \d+ products move", added.stdout)
