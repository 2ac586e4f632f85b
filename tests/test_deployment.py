"""The deployment file and its placement, without servers: what `kg export --shards` decides, what a deployment
file may hold, and that a shard whose replicas are all down is `kg: error:` (exit 2), never an abstention.

The answers, failover and fan-out on real Virtuoso shards are in tests/test_shards.py.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from endpoints import ROOT, free_port

from kg.errors import KGError
from kg.query.deployment import load_deployment
from kg.query.federation import shape_of
from kg.query.shards import moves, place

QUESTION = "Who wrote the Market Research Report for ActionGenie?"


#: Product sizes shaped like HERB's (17,000 to 31,000 quads), 30 and 300 of them, from a fixed seed.
SIZES = {n: {f"P{i}": random.Random(i).randint(17_000, 31_000) for i in range(n)} for n in (30, 300)}


@pytest.mark.parametrize("count", list(SIZES))
def test_placement_is_deterministic_and_every_shard_within_10_percent_of_the_mean(count: int) -> None:
    sizes = SIZES[count]
    for n in range(1, 7):
        placement = place(sizes, n)
        assert placement == place(dict(reversed(sizes.items())), n)  # the input's order does not matter
        mean = sum(sizes.values()) / n
        assert all(abs(q - mean) <= 0.10 * mean for q in placement.quads.values()), (n, placement.quads)
        assert sorted(placement.product_shard) == sorted(sizes)


@pytest.mark.parametrize("count", list(SIZES))
def test_adding_a_shard_moves_about_the_share_it_takes(count: int) -> None:
    """From n to n+1 shards the new shard must take 1/(n+1) of the quads; --from keeps the rest in place (the
    longest-processing-time placement moved 58-68 %)."""
    sizes = SIZES[count]
    total = sum(sizes.values())
    for n in (2, 3, 4):
        old = place(sizes, n)
        new = place(sizes, n + 1, old.product_shard)
        moved = sum(sizes[p] for p in moves(old.product_shard, new)) / total
        assert moved <= 1.2 / (n + 1) + 0.05, (n, moved)
        assert {s for s, _ in moves(old.product_shard, new).values()} <= set(old.shards)
        mean = total / (n + 1)
        assert all(abs(q - mean) <= 0.10 * mean for q in new.quads.values())


def test_placement_refuses_a_shard_count_that_leaves_a_shard_empty() -> None:
    with pytest.raises(KGError, match="at least 1"):
        place({"A": 1}, 0)
    with pytest.raises(KGError, match="more than the 2 products"):
        place({"A": 1, "B": 2}, 3)


def write(tmp_path: Path, body: object) -> Path:
    path = tmp_path / "deployment.yaml"
    path.write_text(yaml.safe_dump(body) if not isinstance(body, str) else body)
    return path


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ("shards: [", "is not YAML"),
        ({"shards": {}}, "needs a `shards` mapping and a `products` mapping"),
        (
            {"shards": {"s": {"replicas": ["http://127.0.0.1:1/sparql"]}}, "products": {"P": "t"}},
            "which `shards` does not list",
        ),
        ({"shards": {"s": {"replicas": []}}, "products": {"P": "s"}}, "lists no replicas"),
        ({"shards": {"s": {"replicas": ["ftp://x"]}}, "products": {"P": "s"}}, "not an http(s) URL"),
        (
            {"shards": {"s": {"replicas": ["http://127.0.0.1:1/sparql"], "token": "secret"}}, "products": {"P": "s"}},
            "never holds secrets",
        ),
        (
            {
                "shards": {"s": {"replicas": ["http://127.0.0.1:1/sparql"], "token_env": "KG_TEST_UNSET_TOKEN"}},
                "products": {"P": "s"},
            },
            "$KG_TEST_UNSET_TOKEN, which is not set",
        ),
        (  # D7: a hostile file naming another secret of the environment
            {
                "shards": {"s": {"replicas": ["http://127.0.0.1:1/sparql"], "token_env": "HOME"}},
                "products": {"P": "s"},
            },
            "must name an environment variable starting with KG_",
        ),
        (
            {"shards": {"s": {"replicas": ["http://127.0.0.1:1/sparql"]}}, "products": {"P": "s"}, "deadline": 0},
            "`deadline`",
        ),
        (
            {"shards": {"s": {"replicas": ["http://127.0.0.1:1/sparql"], "urls": []}}, "products": {"P": "s"}},
            "unknown keys urls",
        ),
    ],
)
def test_a_bad_deployment_file_is_refused_with_what_to_fix(tmp_path: Path, body: object, needle: str) -> None:
    with pytest.raises(KGError) as refused:
        load_deployment(write(tmp_path, body))
    assert needle in str(refused.value)


#: Files that once gave a traceback, a hang or gigabytes (the reliability issue's D1-D3), and the one line each gets.
HOSTILE = {
    "nested": ("[" * 50_000, "is not YAML"),  # libyaml's own limit
    "nested within libyaml's limit": ("shards: " + "[" * 500, "nests deeper than 16 levels"),
    "latin-1": ("shards: {}\nproducts: {caf\xe9: s}\n".encode("latin-1"), "is not UTF-8 text"),
    "alias bomb": (
        "a: &a [x, x, x, x, x, x, x, x, x]\n"
        + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))
        + "shards: *i\nproducts: *i\n",
        "uses YAML aliases",
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_deployment_file_is_one_line_of_error_at_once(tmp_path: Path, name: str) -> None:
    body, needle = HOSTILE[name]
    path = tmp_path / "deployment.yaml"
    path.write_bytes(body if isinstance(body, bytes) else body.encode())
    done = subprocess.run(
        [sys.executable, "-m", "kg", "ask", QUESTION, "--deployment", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr, done.stderr[-500:]
    assert done.stderr.startswith("kg: error: ") and needle in done.stderr and len(done.stderr) < 500


def test_a_deployment_file_of_200000_products_on_4000_shards_loads(tmp_path: Path) -> None:
    """The loader grouped products shard by shard (products x shards steps: past 60 s here); it is linear now."""
    shards = "".join(f"  s{j}:\n    replicas: ['http://127.0.0.1:1/sparql']\n" for j in range(4000))
    products = "".join(f"  P{i}: s{i % 4000}\n" for i in range(200_000))
    path = tmp_path / "deployment.yaml"
    path.write_text(f"shards:\n{shards}products:\n{products}")
    code = (
        "import sys; from pathlib import Path; from kg.query.deployment import open_deployment as o; b = o(sys.argv[1])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code + "; print(len(b.products()), len(b.product_groups(b.products())))", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.split() == ["200000", "4000"], done.stderr[-500:]


def test_a_token_is_read_from_the_environment_variable_the_file_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KG_TEST_SHARD_TOKEN", "t0k3n")
    body = {
        "shards": {"s": {"replicas": ["http://127.0.0.1:1/sparql"], "token_env": "KG_TEST_SHARD_TOKEN"}},
        "products": {"P": "s"},
    }
    deployment = load_deployment(write(tmp_path, body))
    assert (
        deployment.shards["s"].token_env == "KG_TEST_SHARD_TOKEN"
        and "t0k3n" not in (tmp_path / "deployment.yaml").read_text()
    )


def test_a_shard_with_every_replica_down_is_an_error_naming_each_replica_never_an_abstention(tmp_path: Path) -> None:
    dead = [f"http://127.0.0.1:{free_port()}/sparql" for _ in range(2)]
    path = write(tmp_path, {"shards": {"shard-0": {"replicas": dead}}, "products": {"ActionGenie": "shard-0"}})
    done = subprocess.run(
        [sys.executable, "-m", "kg", "ask", QUESTION, "--deployment", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == "", done.stdout
    *warnings, error = done.stderr.strip().splitlines()
    assert error.startswith("kg: error: every replica of shard-0 is down") and "Traceback" not in done.stderr
    assert all(url in error for url in dead) and "ABSTAIN" not in done.stderr
    assert warnings and all(w.startswith("kg: warning: shard-0: replica skipped: cannot reach") for w in warnings)


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("SELECT ?s WHERE { ?s a ekg:Bug OPTIONAL { ?s ekg:bugState ?x } }", "it uses OPTIONAL"),
        ("SELECT ?s WHERE { ?s a ekg:Bug FILTER NOT EXISTS { ?s ekg:bugState ?x } }", "EXISTS / NOT EXISTS"),
        ("SELECT ?s WHERE { ?s a ekg:Bug MINUS { ?s ekg:bugState ?x } }", "MINUS"),
        ("SELECT (AVG(?n) AS ?a) WHERE { ?s ekg:sequence ?n }", "AVG cannot be combined"),
        ("SELECT (SUM(DISTINCT ?n) AS ?a) WHERE { ?s ekg:sequence ?n }", "other than COUNT(DISTINCT ?variable)"),
        ("SELECT (COUNT(?s) + 1 AS ?n) WHERE { ?s a ekg:Bug }", "COUNT inside an expression"),
        ("SELECT ?k (COUNT(?s) AS ?n) WHERE { ?s ekg:bugState ?k } GROUP BY ?k HAVING (COUNT(?s) > 2)", "HAVING"),
        ("SELECT ?s WHERE { ?s a ekg:Bug } ORDER BY STR(?s) LIMIT 2", "an ORDER BY expression"),
        ("SELECT ?s WHERE { ?s a ekg:Bug } ORDER BY ?t", "?t is not a column"),
        ("SELECT ?s WHERE { { SELECT ?s WHERE { ?s a ekg:Bug } LIMIT 1 } }", "a sub-query"),
        ("DESCRIBE ?s WHERE { ?s a ekg:Bug }", "DESCRIBE"),
        ("CONSTRUCT { ?s a ekg:Bug } WHERE { ?s a ekg:Bug } LIMIT 3", "pick solutions the merge cannot"),
    ],
)
def test_a_fan_out_the_merge_cannot_answer_exactly_is_refused_with_the_reason(query: str, reason: str) -> None:
    with pytest.raises(KGError) as refused:
        shape_of(query)
    assert reason in str(refused.value) and "cannot be merged exactly" in str(refused.value)


def test_what_the_fan_out_sends_each_shard_and_applies_after_the_merge() -> None:
    shape = shape_of(
        "SELECT ?k (COUNT(?s) AS ?n) WHERE { ?s ekg:bugState ?k } GROUP BY ?k ORDER BY DESC(?n) ?k LIMIT 3"
    )
    assert shape.shard_text.rstrip().endswith("GROUP BY ?k") and shape.limit == 3
    assert shape.order == (("n", True), ("k", False)) and shape.aggregates == (("n", "COUNT"),)
    counted = shape_of("SELECT ?c (COUNT(DISTINCT ?s) AS ?n) WHERE { GRAPH ?g { ?s a ?c } } GROUP BY ?c")
    assert "SELECT DISTINCT ?c ?s WHERE" in counted.shard_text and counted.distinct_counts == (("n", "s"),)
