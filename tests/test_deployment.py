"""The deployment file and its placement, without servers: what `kg export --shards` decides, what a deployment
file may hold, and that a shard whose replicas are all down is `kg: error:` (exit 2), never an abstention.

The answers, failover and fan-out on real Virtuoso shards are in tests/test_shards.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
import yaml
from endpoints import ROOT, free_port
from pyoxigraph import NamedNode

from kg.errors import KGError
from kg.namespaces import ORG_GRAPH, product_graph
from kg.query.deployment import load_deployment
from kg.query.federation import COMUNICA_GET_BELOW, Federation, source_url, standard_json
from kg.query.remote import RemoteEndpoint
from kg.query.shards import place

QUESTION = "Who wrote the Market Research Report for ActionGenie?"


def test_placement_is_deterministic_and_balances_quads_largest_first() -> None:
    sizes = {"A": 50, "B": 40, "C": 30, "D": 30, "E": 20, "F": 10}
    placement = place(sizes, 2)
    assert placement == place(dict(reversed(sizes.items())), 2)  # the input's order does not matter
    assert placement.product_shard == {
        "A": "shard-0",
        "B": "shard-1",
        "C": "shard-1",
        "D": "shard-0",
        "E": "shard-1",
        "F": "shard-0",
    }
    assert placement.quads == {"shard-0": 90, "shard-1": 90}
    assert place(sizes, 1).quads == {"shard-0": 180}


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
    assert done.stderr.startswith("kg: error: every replica of shard-0 is down") and "Traceback" not in done.stderr
    assert all(url in done.stderr for url in dead) and "ABSTAIN" not in done.stderr


def test_a_fan_out_source_names_its_dataset_in_a_url_comunica_posts_to_as_it_is() -> None:
    """Comunica appends `?query=` by GET to a URL under 600 characters, which would break one with parameters."""
    graphs = [product_graph("ActionGenie"), NamedNode(ORG_GRAPH)]
    url = source_url(RemoteEndpoint("http://127.0.0.1:8890/sparql"), graphs, named=True)
    params = parse_qs(urlparse(url).query)
    assert params["default-graph-uri"] == params["named-graph-uri"] == [g.value for g in graphs]
    assert len(url) >= COMUNICA_GET_BELOW and url.startswith("http://127.0.0.1:8890/sparql?")
    only = parse_qs(urlparse(source_url(RemoteEndpoint("http://h/sparql"), graphs[:1], named=False)).query)
    assert "named-graph-uri" not in only


def test_comunicas_extra_metadata_member_is_dropped_before_the_results_are_read() -> None:
    results = {"head": {"vars": ["n"]}, "results": {"bindings": [{"n": {"type": "literal", "value": "3"}}]}}
    body = json.dumps({**results, "metadata": {"httpRequests": 4}}).encode()
    assert json.loads(standard_json(body)) == results


def test_a_fan_out_whose_source_url_comunica_would_answer_empty_is_refused_before_it_runs() -> None:
    """Comunica 4.5.0 answered a source URL naming 150 product graphs with an empty result and exit status 0."""
    many = [product_graph(f"Product{i}") for i in range(150)]
    federation = Federation([(RemoteEndpoint("http://127.0.0.1:1/sparql"), many)])
    with pytest.raises(KGError, match="past the 15,000 Comunica is known to handle"):
        federation.select("SELECT * WHERE { ?s ?p ?o }")
