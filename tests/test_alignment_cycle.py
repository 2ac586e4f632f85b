"""The steward's cycle end to end on the ERB sample: propose (kg align --target ontology), edit as a spreadsheet
would, review (kg align review), diff, and build the ERB graphs from the approved rows (kg build --source erb).

A rejected row and a changed predicate change the graph there and only there."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
import requests
from conftest import erb_data
from pyoxigraph import Literal, NamedNode, Quad, Store

from alignment.curation import MANUAL, approved_rows, read
from alignment.fields import SOURCES
from kg.cli import main

ERB = erb_data() or Path("ERB_DATA-not-set")  # the erb marker skips (or fails) every test when it is absent
pytestmark = [pytest.mark.erb, pytest.mark.slow]
REVIEWER = "orcid:0000-0002-1825-0097"
PROV_ATTRIBUTED = "http://www.w3.org/ns/prov#wasAttributedTo"
INVOLVES = "https://w3id.org/ekg/ont#involves"
GRAPH = "https://w3id.org/ekg/graph/"
ROOT = Path(__file__).resolve().parent.parent
SYSTEM = NamedNode("https://w3id.org/ekg/ont#sourceSystem")
TITLE = NamedNode("http://purl.org/dc/terms/title")


def edit(src: Path, dst: Path, changes: dict[tuple[str, str], dict[str, str]]) -> None:
    """What a steward does in a spreadsheet: change cells of the rows named by (subject_id, object_id)."""
    lines = src.read_text(encoding="utf-8").splitlines(keepends=True)
    header = [line for line in lines if line.startswith("#")]
    rows = list(csv.DictReader(io.StringIO("".join(x for x in lines if not x.startswith("#"))), delimiter="\t"))
    for row in rows:
        row.update(changes.get((row["subject_id"], row["object_id"]), {}))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), delimiter="\t", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    dst.write_text("".join(header) + out.getvalue(), encoding="utf-8")


def quads(store_dir: Path) -> set[Quad]:
    return set(Store.read_only(str(store_dir)))


@pytest.fixture(scope="module")
def cycle(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("cycle")
    paths = {k: d / f"{k}.tsv" for k in ("proposed", "edited", "approved", "approved2", "edited2")}
    assert main(["align", "--erb", str(ERB), "--target", "ontology", "--out", str(paths["proposed"])]) == 0
    edit(paths["proposed"], paths["edited"], {})
    assert main(["align", "review", str(paths["edited"]), "--reviewer", REVIEWER, "--out", str(paths["approved"])]) == 0
    # the second run: one rejection (SSSOM's negative mapping) and one predicate changed to one ingestion skips
    edit(
        paths["proposed"],
        paths["edited2"],
        {
            ("gmail:mailbox_owner", "prov:wasAttributedTo"): {"predicate_modifier": "Not"},
            ("linear:stakeholders", "ekg:involves"): {"predicate_id": "skos:relatedMatch"},
        },
    )
    assert (
        main(["align", "review", str(paths["edited2"]), "--reviewer", REVIEWER, "--out", str(paths["approved2"])]) == 0
    )
    for run, approved in (("store1", "approved"), ("store2", "approved2")):
        paths[run] = d / run
        args = ["build", "--source", "erb", "--erb", str(ERB), "--mapping", str(paths[approved])]
        assert main([*args, "--store", str(paths[run])]) == 0
    return paths


def test_review_signs_rows_off_in_sssom_terms(cycle: dict[str, Path]) -> None:
    df = read(cycle["approved"]).df
    assert len(df) == len(read(cycle["proposed"]).df)  # nothing deleted: every row signed off
    assert set(df["mapping_justification"]) == {MANUAL}
    assert set(df["reviewer_id"]) == {REVIEWER}
    assert set(df["curation_rule"].astype(str)) == {"ekgalign:steward_review"}
    assert df["mapping_date"].nunique() == 1


def test_proposal_justifies_by_evidence_and_lists_unmatched_fields(cycle: dict[str, Path]) -> None:
    df = read(cycle["proposed"]).df
    onto = df[df["object_source"] == "w3ekg:ont"]
    assert set(onto["mapping_justification"]) <= {"semapv:CompositeMatching", "semapv:InstanceBasedMatching"}
    assert (onto["object_id"] == "sssom:NoTermFound").sum() > 0
    assert MANUAL not in set(df["mapping_justification"])
    assert set(df["author_id"]) == {"w3ekg:toolkit/kg-align"}  # the tool asserted them; a steward reviews
    assert set(read(cycle["approved"]).df["author_id"]) == {"w3ekg:toolkit/kg-align"}


def test_rejected_and_related_rows_are_not_used(cycle: dict[str, Path]) -> None:
    used = approved_rows(read(cycle["approved2"]).df)
    pairs = set(zip(used["subject_id"], used["object_id"], strict=True))
    assert ("gmail:mailbox_owner", "prov:wasAttributedTo") not in pairs
    assert ("linear:stakeholders", "ekg:involves") not in pairs
    assert ("jira:reporter", "prov:wasAttributedTo") in pairs


def test_second_run_changes_the_graph_there_and_only_there(cycle: dict[str, Path]) -> None:
    before, after = quads(cycle["store1"]), quads(cycle["store2"])
    removed, added = before - after, after - before
    assert not added
    edges = {q for q in removed if q.predicate.value in (PROV_ATTRIBUTED, INVOLVES)}
    assert {(q.graph_name.value, q.predicate.value) for q in edges} == {
        (GRAPH + "erb-gmail", PROV_ATTRIBUTED),
        (GRAPH + "erb-linear", INVOLVES),
    }
    # what else went: only agents' typing and labels as the dropped fields wrote them, in those two graphs
    for q in removed - edges:
        assert "/erb/agent/" in q.subject.value
        assert q.graph_name.value in (GRAPH + "erb-gmail", GRAPH + "erb-linear")
    assert any(
        q.predicate.value == PROV_ATTRIBUTED for q in after if q.graph_name.value == GRAPH + "erb-jira"
    )  # other sources keep their authors


def test_diff_lists_the_steward_changes(cycle: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["align", "diff", str(cycle["approved"]), str(cycle["approved2"])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "changed\tgmail:mailbox_owner\tprov:wasAttributedTo\tpredicate_modifier: - -> Not",
        "changed\tlinear:stakeholders\tekg:involves\tpredicate_id: skos:closeMatch -> skos:relatedMatch",
    ]


def test_every_record_lands_in_its_source_graph_with_links_across_sources(cycle: dict[str, Path]) -> None:
    store = Store.read_only(str(cycle["store1"]))
    rows = store.query(
        "SELECT ?g (COUNT(DISTINCT ?r) AS ?n) WHERE { GRAPH ?g { ?r a <https://w3id.org/ekg/ont#SourceRecord> } } "
        "GROUP BY ?g"
    )
    counts = {r["g"].value.removeprefix(GRAPH): int(r["n"].value) for r in rows}  # type: ignore[index,union-attr]
    assert set(counts) == {
        f"erb-{s}"
        for s in ("confluence", "fireflies", "github", "gmail", "google_drive", "hubspot", "jira", "linear", "slack")
    }
    assert sum(counts.values()) == 194  # 195 files, one record exported twice (same dataset_doc_uuid)
    cross = store.query(
        "ASK { GRAPH ?g { ?a <http://purl.org/dc/terms/references> ?b } GRAPH ?h { ?b a "
        "<https://w3id.org/ekg/ont#SourceRecord> } FILTER(?g != ?h) }"
    )
    assert bool(cross)
    provenance = store.query(
        "ASK { GRAPH ?g { ?g <http://www.w3.org/ns/prov#wasDerivedFrom> "
        "<https://w3id.org/ekg/mappings/erb-field-alignment.sssom.tsv> ; "
        "<http://www.w3.org/ns/prov#wasAttributedTo> <https://orcid.org/0000-0002-1825-0097> } }"
    )
    assert bool(provenance)  # each graph names the approved mapping set and its reviewer


def test_build_without_mapping_is_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--source", "erb", "--erb", str(ERB), "--store", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err
    assert "--mapping" in err and "Traceback" not in err


def test_review_of_a_file_that_is_not_sssom_is_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("not\tsssom\n1\t2\n")
    assert main(["align", "review", str(bad), "--reviewer", REVIEWER, "--out", str(tmp_path / "o.tsv")]) == 2
    err = capsys.readouterr().err
    assert "kg: error:" in err and "Traceback" not in err
    assert not (tmp_path / "o.tsv").exists()


def test_shacl_passes_on_the_erb_graphs_and_reports_a_planted_defect(cycle: dict[str, Path], tmp_path: Path) -> None:
    from kg.ingest.validate import validate

    clean = validate(cycle["store1"])
    assert clean.conforms and len(clean.graphs) == 9
    copy = tmp_path / "store"
    shutil.copytree(cycle["store1"], copy)
    store = Store(str(copy))
    record = next(iter(store.quads_for_pattern(None, SYSTEM, Literal("jira")))).subject
    store.add(Quad(record, TITLE, Literal("a second title"), NamedNode(GRAPH + "erb-jira")))
    store.flush()
    del store
    found = validate(copy).rows
    assert [(v.graph, v.focus, v.message) for v in found] == [
        ("erb-jira", record.value, "a source record has exactly one title")
    ]


def test_a_record_is_asked_by_its_key(cycle: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """Who wrote this Jira issue, and what does it link to (the Jira record's GitHub PRs, in GitHub's graph)."""
    args = ["query", str(ROOT / "sparql" / "record_facts.rq"), "--store", str(cycle["store1"])]
    assert main([*args, "--bind", "key=INT-10430", "--format", "tsv"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()[1:]]
    facts = {(fact, value) for _, fact, value, *_ in rows}
    assert ('"author"', '"Dev Patel"') in facts  # the reporter
    linked = {value for _, fact, value, *_ in rows if fact == '"links to"'}
    assert any(v.startswith('"github: ') for v in linked)


def test_the_endpoint_serves_erb_graphs_per_grant(cycle: dict[str, Path], tmp_path: Path) -> None:
    from endpoints import kg_serve

    token = "amlyYS10ZWFtLXRva2VuLWZvci10ZXN0cw"
    access = tmp_path / "access.yaml"
    access.write_text(f'jira-team: {{token: "{token}", products: [erb-jira]}}\n')
    query = "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g"
    with kg_serve(cycle["store1"], tmp_path, "--access", str(access)) as url:
        ok = requests.post(
            url, data={"query": query}, headers={"Authorization": f"Bearer {token}", "Accept": "text/csv"}, timeout=30
        )
        refused = requests.post(url, data={"query": query}, headers={"Accept": "text/csv"}, timeout=30)
    assert ok.status_code == 200
    assert ok.text.split() == ["g", GRAPH + "erb-jira"]
    assert refused.status_code == 401


@pytest.mark.herb
def test_search_finds_erb_records_in_a_store_that_holds_them(
    cycle: dict[str, Path], herb: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kg.search.index import build_index

    copy = tmp_path / "store"
    shutil.copytree(cycle["store1"], copy)
    report = build_index(copy, herb, use_dense=False, progress=False)
    assert report.products == [f"erb-{s}" for s in SOURCES]  # a store without HERB graphs: only the ERB ones
    args = ["search", "PagerDuty escalation policy", "--store", str(copy), "--json", "--no-log"]
    assert main([*args, "--product", "erb-jira", "--k", "3"]) == 0
    hits = json.loads(capsys.readouterr().out)["hits"]
    assert hits[0]["id"] == "jira/customer-support__INT-331-create-support-escalation-pagerduty-group.json"
    assert main([*args, "--k", "20"]) == 0  # unscoped: every indexed source is searched
    result = json.loads(capsys.readouterr().out)
    assert set(result["products"]) == set(report.products)
    assert "jira/customer-support__INT-331-create-support-escalation-pagerduty-group.json" in {
        h["id"] for h in result["hits"]
    }
