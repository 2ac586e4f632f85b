"""Questions across products (kg/qa/across.py): how the products a question names are joined and how their
answers combine, through the real CLI on the HERB store, and under tokens through the real `kg serve` (/api/ask,
`kg ask --endpoint --token`). The gold is read from HERB's raw files here: the product files' `team` lists with
metadata/employee.json's roles, and HERB's own dev answers (qa/dev/answerable.jsonl) for one product at a time,
joined as the question joins the products."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
import requests
from test_serve import start_server

from kg.cli import main
from kg.qa.across import Across, find

NAMES = {"leadforce": "LeadForce", "pitchforce": "PitchForce", "vizforce": "VizForce", "onforcex": "ActionGenie"}
EVERY = ("ActionGenie", "LeadForce", "PitchForce", "VizForce")


def across(text: str) -> Across:
    found = find(text, NAMES, EVERY)
    assert found is not None, text
    return found


@pytest.mark.parametrize(
    ("text", "kind", "asked"),
    [
        ("Who is on both the LeadForce and PitchForce teams?", "both", "Who is on the P teams?"),
        ("Who is on LeadForce's and also PitchForce's team?", "both", "Who is on P's team?"),
        ("Who is on the LeadForce team as well as the PitchForce team?", "both", "Who is on the P team?"),
        ("Who is on the LeadForce team, PitchForce team or VizForce team?", "either", "Who is on the P team?"),
        ("Which companies had bugs in LeadForce or in PitchForce?", "either", "Which companies had bugs in P?"),
        ("Who worked on either LeadForce, PitchForce or VizForce?", "either", "Who worked on P?"),
        ("How many bugs across LeadForce and PitchForce?", "either", "How many bugs in P?"),
        ("Which engineers worked on LeadForce and PitchForce both?", "both", "Which engineers worked on P?"),
        ("How many bugs did BlueWave report across all products?", "either", "How many bugs did BlueWave report in P?"),
        ("Which customers reported bugs in every product?", "both", "Which customers reported bugs in P?"),
        ("Which product has the most open bugs?", "rank", "Which open bugs in P?"),
        ("Which product had the fewest QA Specialists on its team?", "rank", "Which QA Specialists on P's team?"),
    ],
)
def test_the_join_says_how_answers_combine_and_what_each_product_is_asked(text: str, kind: str, asked: str) -> None:
    found = across(text)
    assert found.kind == kind and found.asked_of("P") == asked
    assert found.named == (kind in ("both", "either") and "product" not in text)


def test_every_product_is_the_callers_and_a_former_name_is_its_product() -> None:
    every = across("How many PRs were reverted across all products?")
    assert every.products == EVERY and every.within(["VizForce", "LeadForce"]).products == ("LeadForce", "VizForce")
    named = across("Who is on both the onForceX and LeadForce teams?")
    assert named.products == ("ActionGenie", "LeadForce") and named.within(["LeadForce"]) == named


def test_which_of_the_named_products_ranks_them() -> None:
    found = across("Which of LeadForce and PitchForce has the most QA Specialists on its team?")
    assert (found.kind, found.products, found.named) == ("rank", ("LeadForce", "PitchForce"), True)
    assert found.asked_of("P") == "Which QA Specialists on P's team?" and not found.fewest


def test_in_all_products_is_read_neither_way_and_offers_both_readings() -> None:
    found = across("Which customers reported bugs in all products?")
    assert found.kind == "and" and not found.named and found.products == EVERY
    assert found.readings == (
        "Which customers reported bugs in every product?",
        "Which customers reported bugs across all products?",
    )


def test_and_alone_is_read_neither_way_and_offers_both_readings() -> None:
    found = across("Which customers reported bugs in LeadForce and in PitchForce?")
    assert found.kind == "and"
    assert found.readings == (
        "Which customers reported bugs in both LeadForce and in PitchForce?",
        "Which customers reported bugs in LeadForce or in PitchForce?",
    )


@pytest.mark.parametrize(
    "text",
    [
        "Who wrote LeadForce's report, the one PitchForce cites?",  # named apart: no join
        "Who is on the LeadForce team? PitchForce",
        "Who wrote LeadForce's report and PitchForce's?",  # a noun after one product only
    ],
)
def test_products_named_apart_are_no_join(text: str) -> None:
    assert find(text, NAMES, EVERY) is None


def test_every_product_is_no_phrase_inside_a_longer_name() -> None:
    """ "For every product manager" names a role (a compound the vocabulary holds), not every product."""
    compounds = ("product manager", "product managers", "product vision document")
    assert find("Please list the eids of every Product Manager on the team", NAMES, EVERY, compounds) is None
    assert find("Who reviewed it for every product manager?", NAMES, EVERY, compounds) is None
    found = find("Which QA Specialists are in every product team?", NAMES, EVERY, compounds)
    assert found is not None and found.kind == "both" and found.asked_of("P") == "Which QA Specialists are in P team?"


def test_a_product_named_beside_every_product_is_not_read() -> None:
    found = across("How many bugs in LeadForce across all products?")
    assert found.kind == "unread" and found.products == ("LeadForce",)


# ---------------------------------------------------------------------------------------------------------------
# On the HERB store, through the CLI


def ask(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = main(["ask", "--json", *argv])
    out = capsys.readouterr().out
    return code, json.loads(out)


def team_with_role(herb: Path, product: str, role: str) -> set[str]:
    """The product's team members (its raw file's `team`) whose role (metadata/employee.json) is the role."""
    employees = json.loads((herb / "metadata" / "employee.json").read_text())
    team = json.loads((herb / "products" / f"{product}.json").read_text())["team"]
    return {eid for eid in team if employees.get(eid, {}).get("role") == role}


def all_products(herb: Path) -> list[str]:
    return sorted(p.stem for p in (herb / "products").glob("*.json"))


def dev_gold(herb: Path, template: str, product: str) -> tuple[set[str], set[str]]:
    """HERB's own answer and citations to one dev question (its wording with the product put in)."""
    question = template.format(product=product)
    for line in (herb / "qa" / "dev" / "answerable.jsonl").open():
        row = json.loads(line)
        if row["question"] == question:
            return set(row["ground_truth"]), set(row["citations"])
    raise AssertionError(f"no dev question {question!r}")


STRENGTHS = "Find names of companies that highlighted strengths of the previous release of {product}?"
ARCHITECTS = "Find employee IDs of Technical Architects who worked on the previous release of {product}?"


@pytest.mark.herb
@pytest.mark.parametrize(("join", "combine"), [("both {a} and {b}", set.intersection), ("{a} or {b}", set.union)])
def test_herb_dev_answers_joined_as_the_question_joins_them(
    store: Path, herb: Path, capsys: pytest.CaptureFixture[str], join: str, combine
) -> None:
    """HERB's dev answers for ContextForce and EdgeForce (one product each), intersected or united: the
    answer, and every citation HERB gives for either product is cited."""
    pair = ("ContextForce", "EdgeForce")
    gold = [dev_gold(herb, STRENGTHS, p) for p in pair]
    code, got = ask(capsys, STRENGTHS.format(product=join.format(a=pair[0], b=pair[1])), "--store", str(store))
    assert code == 0 and got["outcome"] == "answer" and got["type"] == "company"
    assert set(got["answer"]) == combine(*(answer for answer, _ in gold)) != set()
    assert {c for _, cites in gold for c in cites} <= set(got["citations"])
    parts = {p["product"]: p for p in got["cross"]["parts"]}
    assert list(parts) == list(pair) and got["cross"]["products"] == list(pair)
    for product, (answer, cites) in zip(pair, gold, strict=True):
        assert set(parts[product]["answer"]) == answer and cites <= set(parts[product]["citations"])
        assert parts[product]["asked"] == STRENGTHS.format(product=product)


@pytest.mark.herb
def test_operators_compose_with_the_join(store: Path, herb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Yes/no, exclusion and count over HERB's dev answers for two products, joined by the question."""
    pair = ("ContextForce", "EdgeForce")
    gold = [dev_gold(herb, STRENGTHS, p)[0] for p in pair]
    both, either = gold[0] & gold[1], gold[0] | gold[1]
    among = "Is {company} among the companies that highlighted strengths of the previous release of {join}?"
    for company in sorted(either):
        for join, held in (("both ContextForce and EdgeForce", both), ("ContextForce or EdgeForce", either)):
            code, got = ask(capsys, among.format(company=company, join=join), "--store", str(store))
            assert code == 0 and got["type"] == "yes_no" and got["answer"] == ("yes" if company in held else "no")
            assert got["answer"] == "yes" or got["proof"]["result"].startswith("no in")
    left = sorted(both)[0]
    other = f"Find names of companies other than {left} that highlighted strengths of the previous release of {{}}?"
    code, got = ask(capsys, other.format("both ContextForce and EdgeForce"), "--store", str(store))
    assert code == 0 and set(got["answer"]) == both - {left}
    counted = "How many companies highlighted strengths of the previous release of ContextForce or EdgeForce?"
    code, got = ask(capsys, counted, "--store", str(store))
    assert code == 0 and got["answer"] == str(len(either)) and set(got["operator"]["items"]) == either


@pytest.mark.herb
def test_an_empty_intersection_of_full_answers_is_nothing_with_those_answers_as_proof(
    store: Path, herb: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """HERB's Technical Architects of ContextForce's and of EdgeForce's previous releases share nobody: each
    product's full answer is the proof (as an excluded item's own answer is), so the answer is nothing, never a
    pick; "how many" is 0 on the same proof."""
    gold = [dev_gold(herb, ARCHITECTS, p)[0] for p in ("ContextForce", "EdgeForce")]
    assert gold[0] and gold[1] and not gold[0] & gold[1]
    code, got = ask(capsys, ARCHITECTS.format(product="both ContextForce and EdgeForce"), "--store", str(store))
    assert code == 0 and got["outcome"] == "absent" and got["answer"] is None
    assert "no item is in every product's answer" in got["reason"] and got["citations"]
    assert [set(v) for v in got["proof"]["bindings"].values()] == gold
    assert [set(p["answer"]) for p in got["cross"]["parts"]] == gold
    counted = ARCHITECTS.format(product="both ContextForce and EdgeForce").replace("Find employee IDs of", "How many")
    code, got = ask(capsys, counted, "--store", str(store))
    assert code == 0 and got["answer"] == "0" and got["proof"]["query"] == "each product's answer"


@pytest.mark.herb
def test_team_roles_either_both_and_and(store: Path, herb: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The Technical Architects of two teams (raw `team` lists and roles): "or" unites them; "and" alone is
    uncertain, offering "both" and "or" as readings, and `--pick 2` asks the "or"."""
    gold = team_with_role(herb, "LeadForce", "Technical Architect") | team_with_role(
        herb, "PitchForce", "Technical Architect"
    )
    either = "Who are the Technical Architects on the LeadForce or PitchForce teams?"
    code, got = ask(capsys, either, "--store", str(store))
    assert code == 0 and set(got["answer"]) == gold and got["cross"]["kind"] == "either"
    assert all(got["people"][eid]["role"] == "Technical Architect" for eid in gold)
    contested = "Who are the Technical Architects on the LeadForce and PitchForce teams?"
    code, got = ask(capsys, contested, "--store", str(store))
    assert code == 3 and got["outcome"] == "uncertain" and got["answer"] is None
    assert [r["question"] for r in got["readings"]] == [
        "Who are the Technical Architects on both the LeadForce and PitchForce teams?",
        "Who are the Technical Architects on the LeadForce or PitchForce teams?",
    ]
    code, picked = ask(capsys, contested, "--pick", "2", "--store", str(store))
    assert code == 0 and set(picked["answer"]) == gold


@pytest.mark.herb
def test_a_count_across_all_products_and_the_product_with_the_most(
    store: Path, herb: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Across all 30 products (raw `team` lists and roles): how many QA Specialists there are, each counted once
    however many teams they are on; and which product's team has the most of them."""
    per = {p: team_with_role(herb, p, "QA Specialist") for p in all_products(herb)}
    code, got = ask(capsys, "How many QA Specialists are on the team across all products?", "--store", str(store))
    assert code == 0 and got["type"] == "count" and got["answer"] == str(len(set().union(*per.values())))
    assert got["cross"]["products"] == all_products(herb)
    assert set(got["operator"]["items"]) == set().union(*per.values())
    most = max(len(v) for v in per.values())
    code, got = ask(capsys, "Which product has the most QA Specialists on its team?", "--store", str(store))
    assert code == 0 and set(got["answer"]) == {p for p, v in per.items() if len(v) == most}
    assert dict(got["cross"]["ranked"]) == {p: len(v) for p, v in per.items()}
    pair = ("LeadForce", "PitchForce")
    fewer = min(len(per[p]) for p in pair)
    named = "Which of LeadForce and PitchForce has the fewest QA Specialists on its team?"
    code, got = ask(capsys, named, "--store", str(store))
    assert code == 0 and set(got["answer"]) == {p for p in pair if len(per[p]) == fewer}
    assert dict(got["cross"]["ranked"]) == {p: len(per[p]) for p in pair}


def approvals(herb: Path) -> dict[str, int]:
    """How many pull requests each reviewer approved, over every product: the raw PR records' reviews whose
    state is APPROVED, each PR once per reviewer (a PR belongs to one product, so the counts add up)."""
    counts: dict[str, int] = {}
    for product in all_products(herb):
        approved: dict[str, set[str]] = {}
        for pr in json.loads((herb / "products" / f"{product}.json").read_text())["prs"]:
            for review in pr.get("reviews", []):
                if review.get("state") == "APPROVED":
                    approved.setdefault(review["user"]["login"], set()).add(pr["link"])
        for who, prs in approved.items():
            counts[who] = counts.get(who, 0) + len(prs)
    return counts


@pytest.mark.herb
def test_the_most_across_all_products_sums_each_products_ranked_rows(
    store: Path, herb: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Who approved the most PRs across all products, and who the second most: each reviewer's approvals summed
    over the products, as the raw PR records count them; "the most in both" is not read."""
    counts = approvals(herb)
    levels = sorted(set(counts.values()), reverse=True)
    code, got = ask(capsys, "Who approved the most PRs across all products?", "--store", str(store))
    assert code == 0 and got["intent"] == "pr_top_approver" and dict(got["operator"]["ranked"]) == counts
    assert set(got["answer"]) == {who for who, n in counts.items() if n == levels[0]}
    code, got = ask(capsys, "Who approved the second most PRs across all products?", "--store", str(store))
    assert code == 0 and set(got["answer"]) == {who for who, n in counts.items() if n == levels[1]}
    code, got = ask(capsys, "Who approved the most PRs in both LeadForce and PitchForce?", "--store", str(store))
    assert code == 3 and got["outcome"] == "uncertain" and "say 'across'" in got["reason"]


REVIEWERS = "Find employee IDs of Product Managers who reviewed the Product Vision Document for {product}?"


@pytest.mark.herb
def test_nothing_across_products_rests_on_every_products_proof(
    store: Path, herb: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A question HERB marks unanswerable for each of three products (qa/dev/unanswerable.jsonl) is absent
    across them, with each product's proof; its count is 0 on the same proofs."""
    products = ("ActionGenie", "ConnectForce", "SupportForce")
    unanswerable = {json.loads(line)["question"] for line in (herb / "qa" / "dev" / "unanswerable.jsonl").open()}
    assert {REVIEWERS.format(product=p) for p in products} <= unanswerable
    code, got = ask(
        capsys, REVIEWERS.format(product="ActionGenie, ConnectForce or SupportForce"), "--store", str(store)
    )
    assert code == 0 and got["outcome"] == "absent" and got["proof"]["result"] is True
    assert list(got["proof"]["bindings"]) == list(products) and got["intent"] == "doc_reviewers_by_role"
    assert all(p["outcome"] == "absent" and p["proof"]["result"] is True for p in got["cross"]["parts"])
    counted = "How many Product Managers reviewed the Product Vision Document for either ActionGenie or ConnectForce?"
    code, got = ask(capsys, counted, "--store", str(store))
    assert code == 0 and got["answer"] == "0" and got["proof"]["result"] is True


@pytest.mark.herb
def test_a_word_no_product_reading_places_is_uncertain_never_one_products_answer(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A word no product's reading places leaves the whole question as that product's own question is left
    (here unsupported, exit 4), never answered with the products' answers to less than was asked."""
    question = "Who are the Technical Architects on the {} teams in Atlantis?"
    alone_code, alone = ask(capsys, question.format("LeadForce"), "--store", str(store))
    code, got = ask(capsys, question.format("LeadForce or PitchForce"), "--store", str(store))
    assert code == alone_code == 4 and got["outcome"] == alone["outcome"] and got["answer"] is None
    assert got["reason"] == f"unsupported question: asked of LeadForce: {alone['reason'].split(': ', 1)[1]}"
    beside = "How many Technical Architects are on LeadForce's team across all products?"
    code, got = ask(capsys, beside, "--store", str(store))
    assert code == 3 and got["outcome"] == "uncertain" and "across all products" in got["reason"]


# ---------------------------------------------------------------------------------------------------------------
# Tokens: the real `kg serve`


@pytest.fixture(scope="module")
def server(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    access = tmp_path_factory.mktemp("across-access") / "access.json"
    access.write_text(json.dumps({"two-token": ["LeadForce", "PitchForce"], "lead-token": ["LeadForce"]}))
    yield from start_server(store, "--access", str(access))


def api(server: str, question: str, token: str) -> requests.Response:
    return requests.get(
        f"{server}/api/ask", params={"q": question}, headers={"Authorization": f"Bearer {token}"}, timeout=120
    )


@pytest.mark.herb
@pytest.mark.slow
def test_across_all_products_reads_only_the_tokens_products_and_says_which(
    server: str, herb: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    question = "How many Technical Architects are on the team across all products?"
    gold = team_with_role(herb, "LeadForce", "Technical Architect") | team_with_role(
        herb, "PitchForce", "Technical Architect"
    )
    got = api(server, question, "two-token")
    assert got.status_code == 200 and got.json()["answer"] == str(len(gold))
    assert got.json()["cross"]["products"] == ["LeadForce", "PitchForce"]
    code, cli = ask(capsys, question, "--endpoint", f"{server}/query", "--token", "two-token")
    assert code == 0 and cli["answer"] == str(len(gold)) and cli["cross"]["products"] == ["LeadForce", "PitchForce"]
    code = main(["ask", question, "--endpoint", f"{server}/query", "--token", "two-token"])
    assert code == 0 and "in any of LeadForce, PitchForce" in capsys.readouterr().out
    page = requests.get(
        f"{server}/ask", params={"q": question}, headers={"Authorization": "Bearer two-token"}, timeout=120
    )
    assert page.status_code == 200 and '<section id="per-product">' in page.text
    for product in ("LeadForce", "PitchForce"):  # each product's own question, where its answer is cited
        asked = question.replace("across all products", f"in {product}")
        assert f'href="/ask?q={quote(asked, safe="")}">{product}</a>' in page.text


@pytest.mark.herb
@pytest.mark.slow
def test_a_product_the_token_cannot_read_is_refused_as_a_name_it_does_not_hold(server: str, herb: Path) -> None:
    """With a token for LeadForce alone, PitchForce in a question is read exactly as a name the store does not
    hold: the same outcome and reason (the name aside), no PitchForce item, never LeadForce's answer alone."""
    question = "Who are the Technical Architects on the LeadForce or {other} teams?"
    hidden = api(server, question.format(other="PitchForce"), "lead-token").json()
    unknown = api(server, question.format(other="NoSuchForce"), "lead-token").json()
    assert hidden["outcome"] == unknown["outcome"] != "answer"
    assert hidden["reason"].replace("pitchforce", "X") == unknown["reason"].replace("nosuchforce", "X")
    pitch = team_with_role(herb, "PitchForce", "Technical Architect")
    assert not any(eid in json.dumps(hidden) for eid in pitch)
    only = api(server, "Who are the Technical Architects on the PitchForce team?", "lead-token")
    assert only.status_code == 403


@pytest.mark.herb
def test_a_what_if_question_across_products_is_refused_in_one_line(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`kg ask --with` copies one product's graph: a question across products has none to copy."""
    scratch = tmp_path / "scratch.jsonl"
    scratch.write_text("")
    question = "Who are the Technical Architects on the LeadForce or PitchForce teams?"
    code = main(["ask", question, "--with", str(scratch), "--store", str(store)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("kg: error: --with / --without copy one product's graph")
    assert len(err.splitlines()) == 1
