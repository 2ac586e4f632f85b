"""The reader generated from the ontology (kg/qa/ontology_reader.py): every labelled property answers on the
hand-written fixture graph, and questions made up about the raw artifacts of dev products are answered with
what the artifacts say (the expected answers are read from ../shared/herb, never from the graph)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pyoxigraph import NamedNode, RdfFormat, Store

from kg.qa.answer import Answer, Answerer
from kg.qa.ontology_reader import local, read_by_ontology, schema
from kg.qa.question import Vocabulary, parse
from kg.query.sparql import EmbeddedStore

FIXTURE = Path(__file__).parent / "fixtures" / "ekg_sample.trig"
NAMES = (
    "http://xmlns.com/foaf/0.1/name",
    "http://purl.org/dc/terms/title",
    "http://www.w3.org/2000/01/rdf-schema#label",
)
ID = "http://purl.org/dc/terms/identifier"


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedStore:
    path = tmp_path_factory.mktemp("sample") / "store"
    store = Store(str(path))
    store.load(path=str(FIXTURE), format=RdfFormat.TRIG)
    store.flush()
    del store
    return EmbeddedStore(path)


def names(backend: EmbeddedStore, iri: str) -> list[str]:
    """How a question may name the node: its id, its name or title, or an employee's or customer's id."""
    node = NamedNode(iri)
    found = [q.object.value for p in (ID, *NAMES) for q in backend.store.quads_for_pattern(node, NamedNode(p), None)]
    if "/person/" in iri or "/customer/" in iri:
        found.append(local(iri))
    return found


def questions(backend: EmbeddedStore, prop: str) -> list[str]:
    """Questions asking for the property of a named subject, of a named record's neighbour, or backwards."""
    label = next(iter(schema().properties[prop].forward))
    out: list[str] = []
    for quad in backend.store.quads_for_pattern(None, NamedNode(prop), None):
        subject, obj = quad.subject.value, quad.object
        out += [f"what is the {label} of {n}" for n in names(backend, subject)]
        for link in backend.store.quads_for_pattern(quad.subject, None, None):
            if isinstance(link.object, NamedNode):
                out += [f"what is the {label} of {n}" for n in names(backend, link.object.value)]
        out += [f"what is {n} {label}" for n in names(backend, subject)]  # a verb phrase: "… discussed in"
        if isinstance(obj, NamedNode):
            out += [f"what {label} {n}" for n in names(backend, obj.value)]
    return list(dict.fromkeys(out))


def read(backend: EmbeddedStore, text: str) -> Answer | None:
    """The question asked about the fixture's product (names and titles are looked up in a product)."""
    return read_by_ontology(parse(f"{text} in Demo", Vocabulary({"demo": "Demo"}, {}, {})), backend)


#: Labelled properties the fixture graph holds no statement of.
NOT_IN_FIXTURE = {"https://w3id.org/ekg/ont#mentionsURL"}


def test_every_labelled_property_has_a_reading_that_answers_on_the_fixture(sample: EmbeddedStore) -> None:
    unanswered = []
    for prop in sorted(schema().properties):
        if prop in NOT_IN_FIXTURE or not any(sample.store.quads_for_pattern(None, NamedNode(prop), None)):
            continue
        asked = questions(sample, prop)
        answers = [a for q in asked if (a := read(sample, q)) is not None and a.outcome == "answer"]
        if not any(a.intent and a.intent.split(":")[1] == local(prop) for a in answers):
            unanswered.append((local(prop), asked[:3]))
    assert not unanswered, unanswered


# ---- dev products: questions made up about the raw artifacts, answers read from them ----


def product_file(herb: Path, product: str) -> dict:
    return json.loads((herb / "products" / f"{product}.json").read_text(encoding="utf-8"))


@pytest.mark.herb
def test_who_reviewed_a_pr_by_its_link_is_read_from_its_review_records(answerer: Answerer, herb: Path) -> None:
    prs = [pr for pr in product_file(herb, "FlowForce")["prs"] if pr.get("reviews")][:3]
    for pr in prs:
        answer = answerer.ask(f"Who reviewed {pr['link']}?")
        assert answer.outcome == "answer", answer.reason
        assert set(answer.answer or []) == {r["user"]["login"] for r in pr["reviews"]}
        assert pr["id"] in answer.citations


@pytest.mark.herb
def test_who_attended_a_meeting_is_its_participant_list(answerer: Answerer, herb: Path) -> None:
    meeting = product_file(herb, "FlowForce")["meeting_transcripts"][0]
    answer = answerer.ask(f"who attended {meeting['id']}?")
    assert answer.outcome == "answer", answer.reason
    listed = meeting["participants"]  # a list, or a string that looks like one
    listed = listed if isinstance(listed, list) else json.loads(listed.replace("'", '"'))
    assert set(answer.answer or []) == set(listed)
    assert answer.citations == [meeting["id"]]


def managers(herb: Path) -> dict[str, str]:
    """eid -> the eid of the person above it in salesforce_team.json's tree."""
    out: dict[str, str] = {}

    def walk(node: dict, boss: str | None) -> None:
        if boss:
            out[node["employee_id"]] = boss
        for value in node.values():
            if isinstance(value, list):
                for child in value:
                    if isinstance(child, dict) and "employee_id" in child:
                        walk(child, node["employee_id"])

    for top in json.loads((herb / "metadata" / "salesforce_team.json").read_text(encoding="utf-8")):
        walk(top, None)
    return out


@pytest.mark.herb
def test_reporting_lines_forwards_backwards_and_along_the_chain(answerer: Answerer, herb: Path) -> None:
    above = managers(herb)
    eid = next(e for e in above if above[e] in above)  # someone with a skip-level manager
    boss = above[eid]
    assert answerer.ask(f"Who does {eid} report to?").answer == [boss]
    assert answerer.ask(f"who is {eid}'s manager").answer == [boss]
    assert answerer.ask(f"who is {eid}'s skip-level manager?").answer == [above[boss]]
    assert set(answerer.ask(f"who reports to {boss}?").answer or []) == {e for e, b in above.items() if b == boss}
    # the manager's manager, said with the noun twice or with the verb after it: two steps, never one
    assert answerer.ask(f"who is {eid}'s manager's manager?").answer == [above[boss]]
    assert answerer.ask(f"who does {eid}'s manager report to?").answer == [above[boss]]
    assert answerer.ask(f"who is the manager {eid} reports to?").answer == [boss]
    assert answerer.ask(f"Who sits two levels above {eid} in the reporting chain?").answer == [above[boss]]
    chain = [boss]
    while chain[-1] in above:
        chain.append(above[chain[-1]])
    assert answerer.ask(f"what is the management chain above {eid}").answer == sorted(chain)
    top = chain[-1]
    under = {e for e in above if top in walk_up(above, e)}
    assert set(answerer.ask(f"who is under {top}").answer or []) == under
    # "roll up to" points either way, by where the entity stands
    assert set(answerer.ask(f"Everyone who rolls up to {top}, directly or indirectly?").answer or []) == under
    assert answerer.ask(f"Which VP does {eid} ultimately roll up to?").answer == [top]


@pytest.mark.herb
def test_the_top_of_a_chain_and_a_verb_said_in_other_forms(answerer: Answerer, herb: Path) -> None:
    above = managers(herb)
    eid = next(e for e in above if above[e] in above)
    chain = walk_up(above, eid)
    # "ultimately" asks for the chain's head, never the direct manager
    assert answerer.ask(f"Who does {eid} ultimately report to?").answer == [chain[-1]]
    assert answerer.ask(f"Does {eid} ultimately report to {chain[-1]}?").answer == "yes"
    # "report up to" walks the chain above, as "roll up to" does; never "who reports to it" (was: absent)
    assert answerer.ask(f"Who does {eid} report up to?").answer == sorted(chain)
    assert answerer.ask(f"Does {eid} report up to {chain[-1]}?").answer == "yes"
    # a verb in -ing form completes the phrase its base begins (was: a bug's customer, "proved" absent)
    assert answerer.ask(f"who is {eid} reporting to").answer == [chain[0]]
    assert set(answerer.ask(f"Who is reporting to {chain[0]}?").answer or []) == {
        e for e, b in above.items() if b == chain[0]
    }


@pytest.mark.herb
def test_a_team_peers_and_a_shared_manager_said_of_an_employee(answerer: Answerer, herb: Path) -> None:
    above = managers(herb)
    boss = next(b for b in set(above.values()) if sum(v == b for v in above.values()) > 2)
    reports = {e for e, b in above.items() if b == boss}
    for wording in (
        f"Who is on {boss}'s team?",
        f"Who's on {boss}'s team (direct reports)?",
        f"Who's on {boss}'s team, i.e. reports directly to them?",
    ):
        assert set(answerer.ask(wording).answer or []) == reports, wording
    one = sorted(reports)[0]
    for wording in (
        f"Who are {one}'s peers?",
        f"Who are {one}'s peers, i.e. the other people reporting to the same manager?",
        f"Which other people share {one}'s manager?",
    ):
        assert set(answerer.ask(wording).answer or []) == reports - {one}, wording
    # two employees named: the team is the second one's, and the pronoun stands for it
    assert answerer.ask(f"Is {one} part of {boss}'s team (reports directly to them)?").answer == "yes"


@pytest.mark.herb
def test_the_pr_that_fixed_a_bug_said_in_other_verbs(answerer: Answerer) -> None:
    """ "closed out by", "went in to fix", "merged for", "addressed": the fixing PR, as "fixed" reads it; "fixed
    with a PR" is a yes or no that names the value's kind."""
    title, product = "Alert Suppression Logic Failure", "MonitorForce"
    fixed = answerer.ask(f"Which PR fixed the '{title}' bug in {product}?")
    assert fixed.outcome == "answer" and fixed.answer
    for wording in (
        f"Which PR went in to fix '{title}' in {product}?",
        f"What PR did we merge for '{title}' in {product}?",
        f"Which PR addressed '{title}' in {product}?",
    ):
        got = answerer.ask(wording)
        assert (got.outcome, got.answer) == ("answer", fixed.answer), (wording, got.reason)
    assert str(answerer.ask(f"Was the '{title}' bug in {product} fixed with a PR?").answer).startswith("yes")


def walk_up(above: dict[str, str], eid: str) -> list[str]:
    out = []
    while eid in above:
        eid = above[eid]
        out.append(eid)
    return out


@pytest.mark.herb
def test_a_name_several_employees_share_is_uncertain_with_every_candidate(answerer: Answerer, herb: Path) -> None:
    people = json.loads((herb / "metadata" / "employee.json").read_text(encoding="utf-8")).values()
    by_name: dict[str, set[str]] = {}
    for p in people:
        by_name.setdefault(p["name"], set()).add(p["employee_id"])
    name, eids = max(by_name.items(), key=lambda kv: len(kv[1]))
    answer = answerer.ask(f"Who is {name}'s manager?")
    assert answer.outcome == "uncertain"
    assert set(answer.slots["candidates"]) == eids


@pytest.mark.herb
def test_a_bug_named_by_its_title_in_quotes(answerer: Answerer) -> None:
    answer = answerer.ask("What is the state of the 'Incorrect Load Balancing Recommendations' bug in FlowForce?")
    assert answer.outcome == "answer" and answer.answer in (["resolved"], "resolved")  # the table's or the ontology's
    company = answerer.ask("Which company reported the Incorrect Load Balancing Recommendations bug in FlowForce?")
    assert company.outcome == "answer" and company.answer


def test_who_assigned_a_bug_is_its_triager_and_who_was_assigned_it_its_assignee(sample: EmbeddedStore) -> None:
    """Active "assigned" asks who handed the bug out; passive "was assigned" and "assigned to" who got it."""
    for question, expected in [
        ("Who assigned the 'Slow sync' bug", ["eid_00000001"]),
        ("Who triaged the 'Slow sync' bug", ["eid_00000001"]),
        ("Who was assigned the 'Slow sync' bug", ["eid_00000002"]),
        ("Who got assigned the 'Slow sync' ticket", ["eid_00000002"]),
        ("Who is the assignee of the 'Slow sync' bug", ["eid_00000002"]),
    ]:
        answer = read(sample, question)
        assert answer is not None and answer.outcome == "answer" and answer.answer == expected, question


@pytest.mark.herb
def test_a_record_linked_to_the_entity_never_answers_with_the_entity_itself(answerer: Answerer) -> None:
    """ "Which PR resolved the bug 'X'": the bug's resolution record links to the bug (ekg:eventOf, a sub-property
    of ekg:stateEventOf); reading stateEventOf back from it gives the bug, never an answer about it."""
    title = "Incorrect Load Balancing Recommendations"
    fixed = answerer.ask(f"Which PR fixed the FlowForce bug '{title}'?")
    assert fixed.outcome == "answer" and all("/pull/" in str(v) for v in fixed.answer or [])
    resolved = answerer.ask(f"Which PR resolved the FlowForce bug '{title}'?")
    assert title not in str(resolved.answer)
    assert resolved.outcome != "answer" or resolved.answer == fixed.answer


@pytest.mark.herb
def test_a_title_no_bug_has_is_unsupported_with_the_closest_titles(answerer: Answerer) -> None:
    answer = answerer.ask("Who is the Incorrect Load Balancer Recommendation bug in FlowForce assigned to?")
    assert answer.outcome == "unsupported"
    reason = answer.reason or ""
    assert "no bug titled" in reason and "Incorrect Load Balancing Recommendations" in reason
    assert answer.proof is None


@pytest.mark.herb
def test_a_property_asked_at_a_time_is_never_answered_with_its_value_now(answerer: Answerer, herb: Path) -> None:
    """The ontology's properties hold as of now: "at the end of July" is no word to drop."""
    eid = next(iter(managers(herb)))
    answer = answerer.ask(f"who did {eid} report to at the end of July 2026?")
    assert answer.outcome == "uncertain" and "'at the end of july 2026'" in (answer.reason or "")
    assert not answer.answer


@pytest.mark.herb
def test_a_word_no_reading_places_leaves_the_question_uncertain(answerer: Answerer, herb: Path) -> None:
    eid = next(iter(managers(herb)))
    answer = answerer.ask(f"who does {eid} report to about lunch")
    assert answer.outcome in ("uncertain", "unsupported") and not answer.answer


@pytest.mark.herb
def test_a_products_competitors_as_its_documents_name_them(answerer: Answerer, herb: Path) -> None:
    # FlowForce's market research report: "Key competitors include Apigee, AWS API Gateway, and IBM API Connect."
    report = next(d for d in product_file(herb, "FlowForce")["documents"] if "Key competitors include" in d["content"])
    answer = answerer.ask("What are the competitors of FlowForce?")
    assert answer.outcome == "answer", answer.reason
    assert answer.answer == ["AWS API Gateway", "Apigee", "IBM API Connect"]
    assert report["id"] in answer.citations


@pytest.mark.herb
def test_class_listings_with_a_filter(answerer: Answerer, herb: Path) -> None:
    flow = product_file(herb, "FlowForce")
    roles = {e: p["role"] for e, p in json.loads((herb / "metadata" / "employee.json").read_text()).items()}
    leads = answerer.ask("Who are the Engineering Leads on the FlowForce team?")
    assert leads.answer == sorted(e for e in flow["team"] if roles.get(e) == "Engineering Lead")
    reverted = answerer.ask("Which PRs in FlowForce were reverted?")
    titles = [p["title"] for p in flow["prs"] if p["title"].startswith("Revert PR#")]
    numbers = {t.split("#")[1].split(":")[0].strip() for t in titles}
    assert reverted.outcome == "answer", reverted.reason
    assert {link.rsplit("/", 1)[-1] for link in reverted.answer or []} == numbers
    reverts = answerer.ask("List the revert PRs in FlowForce")  # the reverting PRs themselves: a class of PR
    assert sorted(reverts.answer or []) == sorted(p["link"] for p in flow["prs"] if p["title"].startswith("Revert PR#"))
    counted = answerer.ask("How many revert PRs are there in FlowForce?")
    assert counted.answer == str(len(titles))


@pytest.mark.herb
def test_a_channel_named_as_typed_scopes_the_question_to_its_product(answerer: Answerer, herb: Path) -> None:
    slack = product_file(herb, "ProposalForce")["slack"]
    names = {c["Channel"]["name"] for c in slack}
    name = min(n for n in names if n.startswith("planning-") and "ProposalForce" not in n)  # an earlier name
    answer = answerer.ask(f"Who created the {name} channel?")  # no product named: the channel's says it
    assert answer.outcome == "answer" and answer.slots["product"] == "ProposalForce", answer.reason


def test_kg_intents_lists_a_reading_for_every_labelled_property(capsys: pytest.CaptureFixture[str]) -> None:
    from kg.cli import main

    assert main(["intents", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["ontology_readings"]
    assert {r["property"] for r in listed} == set(schema().properties)
    assert all(r["asks"].startswith("What is the ") for r in listed)


def test_an_unsupported_question_is_offered_the_askable_questions_its_words_name(sample: EmbeddedStore) -> None:
    from kg.qa.ontology_reader import nearest

    offered = nearest(parse("who is the boss around here", Vocabulary({}, {}, {})))
    assert [o["question"] for o in offered] == ["What is the boss of <employee>?"]


@pytest.mark.herb
def test_who_approved_a_pr_follows_its_review_records(answerer: Answerer, herb: Path) -> None:
    prs = product_file(herb, "FlowForce")["prs"]
    approved = next(p for p in prs if any(r["state"] == "APPROVED" for r in p["reviews"]))
    answer = answerer.ask(f"who approved {approved['link']}?")
    assert answer.outcome == "answer", answer.reason
    assert set(answer.answer or []) == {r["user"]["login"] for r in approved["reviews"] if r["state"] == "APPROVED"}
    unapproved = next(p for p in prs if p["reviews"] and all(r["state"] != "APPROVED" for r in p["reviews"]))
    none = answerer.ask(f"who approved {unapproved['link']}?")
    assert none.outcome == "absent" and none.proof and none.proof["query"] == "onto_value_where.ask"


@pytest.mark.herb
def test_did_a_reviewer_approve_a_pr_is_a_yes_or_no_of_its_review_records(answerer: Answerer, herb: Path) -> None:
    prs = product_file(herb, "FlowForce")["prs"]
    pr = next(p for p in prs if {r["state"] for r in p["reviews"]} >= {"APPROVED", "COMMENTED"})
    by_state = {r["state"]: r["user"]["login"] for r in pr["reviews"]}
    assert answerer.ask(f"Did {by_state['APPROVED']} approve {pr['link']}?").answer == "yes"
    if by_state["COMMENTED"] != by_state["APPROVED"]:
        assert answerer.ask(f"Did {by_state['COMMENTED']} approve {pr['link']}?").answer == "no"


def bug_titles(herb: Path) -> dict[str, set[str]]:
    """Each title quoted in a bug channel's opening messages -> the products whose channels quote it."""
    out: dict[str, set[str]] = {}
    for path in sorted((herb / "products").glob("*.json")):
        for thread in json.loads(path.read_text(encoding="utf-8"))["slack"]:
            if thread["Channel"]["name"].startswith("bug-"):
                for title in re.findall(r"'([A-Z][^']{8,})'", thread["Message"]["User"]["text"]):
                    out.setdefault(title, set()).add(path.stem)
    return out


@pytest.mark.herb
def test_is_a_bug_named_by_its_title_resolved_and_its_product_from_the_title(answerer: Answerer) -> None:
    """Yes or no on a bug's state by its quoted title; a question naming no product is scoped by a title only one
    product holds, and told which products hold a title several do."""
    yes = answerer.ask("Has the 'Incorrect Load Balancing Recommendations' bug in FlowForce been resolved?")
    assert yes.outcome == "answer" and yes.answer == "yes (its state: resolved)"  # the state said beside it
    no = answerer.ask("Is the 'Incorrect Load Balancing Recommendations' bug in FlowForce still open?")
    assert no.outcome == "answer" and no.answer == "no (its state: resolved)"
    which = answerer.ask("Is the FlowForce bug 'Incorrect Load Balancing Recommendations' resolved, open, or reopened?")
    assert which.outcome == "answer" and which.answer == ["resolved"]  # offered values: which one, not yes or no
    scoped = answerer.ask("What is the state of the 'Incorrect Load Balancing Recommendations' bug?")
    assert scoped.outcome == "answer" and scoped.slots.get("product") == "FlowForce"


@pytest.mark.herb
def test_a_title_several_products_hold_asks_for_the_product(answerer: Answerer, herb: Path) -> None:
    title, products = next((t, p) for t, p in sorted(bug_titles(herb).items()) if len(p) > 2)
    answer = answerer.ask(f"Who resolved the '{title}' bug?")
    assert answer.outcome == "unsupported" and "name one" in (answer.reason or "")
    assert set(products) <= set(re.findall(r"\w+", answer.reason or ""))


@pytest.mark.herb
def test_who_requested_changes_on_a_pr_is_a_review_state_by_its_other_name(answerer: Answerer, herb: Path) -> None:
    prs = product_file(herb, "FlowForce")["prs"]
    pr = next(p for p in prs if any(r["state"] == "CHANGES_REQUESTED" for r in p["reviews"]))
    answer = answerer.ask(f"Who requested changes on {pr['link']}?")
    assert set(answer.answer or []) == {r["user"]["login"] for r in pr["reviews"] if r["state"] == "CHANGES_REQUESTED"}


@pytest.mark.herb
def test_readings_that_agree_answer_and_words_of_impact_name_the_customer(answerer: Answerer) -> None:
    """Two paths through the records to one resolver are one answer; "affected by" and "impacted by" a bug name
    the customer it affects, as "reported" does."""
    reported = answerer.ask(
        "Which customer company reported the 'Incorrect Load Balancing Recommendations' bug in FlowForce?"
    )
    for verb in ("is affected by", "was impacted by"):
        got = answerer.ask(
            f"Which customer company {verb} the 'Incorrect Load Balancing Recommendations' bug in FlowForce?"
        )
        assert got.outcome == "answer" and got.answer == reported.answer, verb
    resolved = answerer.ask("Who resolved the 'Incorrect Load Balancing Recommendations' bug in FlowForce?")
    assert resolved.outcome == "answer" and resolved.answer and len(resolved.answer) == 1


# ---- listings with two conditions, counts, described meetings and versions, yes/no, roles ----


def participants(meeting: dict) -> set[str]:
    listed = meeting["participants"]
    return set(listed if isinstance(listed, list) else json.loads(listed.replace("'", '"')))


@pytest.mark.herb
@pytest.mark.parametrize("product", ["ActionGenie", "SearchForce"])
def test_pr_listings_by_state_and_merge_and_their_counts(answerer: Answerer, herb: Path, product: str) -> None:
    prs = product_file(herb, product)["prs"]
    unmerged = {p["link"] for p in prs if p["state"] == "closed" and str(p["merged"]) == "False"}
    opened = {p["link"] for p in prs if p["state"] == "open"}
    closed = answerer.ask(f"Which {product} pull requests were closed without being merged?")
    assert closed.outcome == "answer", closed.reason
    assert set(closed.answer or []) == unmerged
    count = answerer.ask(f"How many {product} pull requests are still open?")
    assert (count.type, count.answer) == ("count", str(len(opened)))


@pytest.mark.herb
def test_a_meeting_described_by_its_document_and_day(answerer: Answerer, herb: Path) -> None:
    meetings = [m for m in product_file(herb, "ActionGenie")["meeting_transcripts"] if " " in m["document_type"]]
    meeting = meetings[0]
    day = meeting["date"][:10]
    said = f"ActionGenie's {meeting['document_type']} review meeting on {day}"
    answer = answerer.ask(f"Who attended {said}?")
    assert answer.outcome == "answer", answer.reason
    assert set(answer.answer or []) == participants(meeting)
    outsider = next(e for e in product_file(herb, "ActionGenie")["team"] if e not in participants(meeting))
    assert answerer.ask(f"Did {outsider} attend {said}?").answer == "no"
    insider = sorted(participants(meeting))[0]
    assert answerer.ask(f"Did {insider} attend {said}?").answer == "yes"
    dated = answerer.ask(f"Who attended ActionGenie's {meeting['document_type']} review meeting of {day}?")
    assert set(dated.answer or []) == participants(meeting)


@pytest.mark.herb
def test_no_meeting_of_that_kind_is_proved_absent(answerer: Answerer, herb: Path) -> None:
    kinds = {m["document_type"] for m in product_file(herb, "ContextForce")["meeting_transcripts"]}
    assert "Market Research Report" not in kinds
    answer = answerer.ask("Who attended ContextForce's Market Research Report review meeting?")
    assert answer.outcome == "absent" and answer.proof and answer.proof["result"] is True
    days = {m["date"][:10] for m in product_file(herb, "ActionGenie")["meeting_transcripts"]}
    assert "2026-01-03" not in days
    none = answerer.ask("Who attended the ActionGenie sprint review meeting on 2026-01-03?")
    assert none.outcome == "absent" and none.proof and none.proof["query"] == "onto_meetings.ask"
    many = answerer.ask("Who attended the ActionGenie sprint review meeting?")
    assert many.outcome == "uncertain" and len(many.slots["candidates"]) == len(days)


@pytest.mark.herb
def test_document_versions_latest_first_and_every(answerer: Answerer, herb: Path) -> None:
    docs = sorted(
        (d for d in product_file(herb, "EdgeForce")["documents"] if d["type"] == "Technical Specifications Document"),
        key=lambda d: d["date"],
    )
    # a document asked for itself is shown by its link, cited by its id
    latest = answerer.ask("What is the latest version of EdgeForce's Technical Specifications Document?")
    assert latest.answer == [docs[-1]["document_link"]] and docs[-1]["id"] in latest.citations
    first = answerer.ask("What is the original version of EdgeForce's Technical Specifications Document?")
    assert first.answer == [docs[0]["document_link"]] and docs[0]["id"] in first.citations
    every = answerer.ask("How many versions of EdgeForce's Technical Specifications Document are there?")
    assert every.answer == str(len(docs))
    author = answerer.ask("Who authored the most recent version of EdgeForce's Technical Specifications Document?")
    assert author.answer == [docs[-1]["author"]]
    # "the final version" is the one HERB marks final (final_x, x_final), not the newest
    final = next(d for d in docs if d["id"].startswith("final_") or d["id"].endswith("_final"))
    marked = answerer.ask("Who authored the final version of EdgeForce's Technical Specifications Document?")
    assert marked.answer == [final["author"]] and marked.citations == [final["id"]]


@pytest.mark.herb
def test_yes_no_between_two_employees_and_a_role_beside_an_id(answerer: Answerer, herb: Path) -> None:
    above = managers(herb)
    roles = {e: p["role"] for e, p in json.loads((herb / "metadata" / "employee.json").read_text()).items()}
    eid = next(e for e in sorted(above) if roles.get(e) == "Software Engineer")
    other = next(e for e in sorted(above.values()) if e != above[eid])
    assert answerer.ask(f"Does {eid} report to {above[eid]}?").answer == "yes"
    assert answerer.ask(f"Does {eid} report to {other}?").answer == "no"
    assert answerer.ask(f"Who does software engineer {eid} report to?").answer == [above[eid]]
    wrong = answerer.ask(f"Who does QA specialist {eid} report to?")
    assert wrong.outcome == "uncertain" and "premise" in (wrong.reason or "")


@pytest.mark.herb
def test_a_role_filters_the_people_a_reading_answers(answerer: Answerer, herb: Path) -> None:
    above = managers(herb)
    roles = {e: p["role"] for e, p in json.loads((herb / "metadata" / "employee.json").read_text()).items()}
    boss = next(
        b
        for b in sorted(set(above.values()))
        if {roles.get(e) for e, m in above.items() if m == b} > {"Engineering Lead"}
    )
    leads = answerer.ask(f"Which engineering leads report directly to {boss}?")
    assert set(leads.answer or []) == {e for e, m in above.items() if m == boss and roles.get(e) == "Engineering Lead"}


@pytest.mark.herb
def test_competitors_a_kind_of_document_lists(answerer: Answerer, herb: Path) -> None:
    from kg.ingest.rules.competitors import named_competitors

    docs = [d for d in product_file(herb, "SentimentForce")["documents"] if d["type"] == "Market Research Report"]
    listed = {n for d in docs for n in named_competitors(d["content"])}
    answer = answerer.ask("Which competitors are listed in SentimentForce's market research report?")
    assert answer.outcome == "answer", answer.reason
    assert set(answer.answer or []) == listed
    assert set(answer.citations) & {d["id"] for d in docs}
    for wording in (  # the source said first, the product named twice, "who … list as", "key players"
        "According to the SentimentForce market research report, who are SentimentForce's key competitors?",
        "Who does the SentimentForce market research report list as its key competitors?",
        "Per SentimentForce's market research report, who are the key players in its competitive landscape?",
    ):
        got = answerer.ask(wording)
        assert got.outcome == "answer" and set(got.answer or []) == listed, wording


@pytest.mark.herb
def test_a_meeting_by_a_day_written_without_a_cue(answerer: Answerer, herb: Path) -> None:
    from datetime import date

    meeting = next(m for m in product_file(herb, "SentimentForce")["meeting_transcripts"] if "product_dev" in m["id"])
    day = date.fromisoformat(meeting["date"][:10])
    said = f"{day.strftime('%B')} {day.day}, {day.year}"
    answer = answerer.ask(f"Who joined the SentimentForce sprint review meeting of {said}?")
    assert answer.outcome == "answer", answer.reason
    assert set(answer.answer or []) == participants(meeting)


@pytest.mark.herb
def test_a_title_two_kinds_share_is_read_as_the_kind_the_question_speaks_of(answerer: Answerer, herb: Path) -> None:
    """HERB gives a bug's fixing PR in another repository the bug's title: "the bug 'X'" picks the bug, and so
    does "who resolved 'X'" (a bug is what gets resolved)."""
    answer = answerer.ask("Who resolved 'Weak Encryption Algorithm Usage' for ContextForce?")
    assert answer.outcome == "answer", answer.reason
    slack = product_file(herb, "ContextForce")["slack"]
    said = [m for m in slack if "Weak Encryption Algorithm Usage" in m["Message"]["User"]["text"]]
    assert set(answer.answer or []) <= {m["Message"]["User"]["userId"] for m in said}


@pytest.mark.herb
def test_yes_no_about_a_pr_reads_its_flag_and_its_state(answerer: Answerer, herb: Path) -> None:
    """ "Was <PR> merged?" is its merged flag, not whether it has one: an unmerged PR is "no"."""
    prs = [p for p in product_file(herb, "ActionGenie")["prs"] if "/salesforce/" in p["link"]]
    for pr in (next(p for p in prs if str(p["merged"]) == "False"), next(p for p in prs if str(p["merged"]) == "True")):
        merged = answerer.ask(f"Was {pr['link']} merged?")
        assert merged.answer == ("yes" if str(pr["merged"]) == "True" else "no"), merged.reason
        still = answerer.ask(f"Is {pr['link']} still open?")
        assert still.answer == ("yes" if pr["state"] == "open" else "no"), still.reason


@pytest.mark.herb
def test_is_one_employee_among_anothers_direct_reports(answerer: Answerer, herb: Path) -> None:
    above = managers(herb)
    eid = sorted(above)[0]
    other = next(e for e in sorted(set(above.values())) if e != above[eid])
    assert answerer.ask(f"Is {eid} one of {above[eid]}'s direct reports?").answer == "yes"
    assert answerer.ask(f"Is {eid} one of {other}'s direct reports?").answer == "no"


@pytest.mark.herb
def test_operators_over_an_ontology_listing(answerer: Answerer, herb: Path) -> None:
    """A count and an exclusion compose with a listing the ontology reader answers; "open or closed" is no
    listing of it (its conditions are read together)."""
    roles = {e: p["role"] for e, p in json.loads((herb / "metadata" / "employee.json").read_text()).items()}
    pms = sorted(e for e in product_file(herb, "TrendForce")["team"] if roles.get(e) == "Product Manager")
    assert len(pms) > 1
    others = answerer.ask(f"Who are the product managers on the TrendForce team other than {pms[0]}?")
    assert others.answer == pms[1:], others.reason
    assert answerer.ask("How many product managers are on the TrendForce team?").answer == str(len(pms))
    either = answerer.ask("Which ActionGenie PRs are open or closed?")
    assert either.outcome != "answer"


@pytest.mark.herb
def test_the_prs_an_employee_has_open(answerer: Answerer, herb: Path) -> None:
    prs = [p for p in product_file(herb, "FlowForce")["prs"] if p["user"]["login"].startswith("eid_")]
    author = next(p["user"]["login"] for p in prs if p["state"] == "open")
    theirs = {p["link"] for p in prs if p["user"]["login"] == author and p["state"] == "open"}
    each_answers(
        answerer,
        (f"What PRs does {author} still have open on FlowForce?", f"Which of {author}'s FlowForce PRs are open?"),
        theirs,
    )


def each_answers(answerer: Answerer, asked: tuple[str, ...], expected: set[str]) -> None:
    """Every wording is answered with exactly the expected items."""
    for said in asked:
        got = answerer.ask(said)
        assert got.outcome == "answer" and set(got.answer or []) == expected, (said, got.reason)


@pytest.mark.herb
def test_artifacts_that_share_a_title_are_answered_each(answerer: Answerer, herb: Path) -> None:
    """HERB opens some PRs twice under one title: "who opened 'X'" answers for every PR of that title, each
    shown in the reading; a yes or no answers only when all of them agree."""
    prs = [p for p in product_file(herb, "KnowledgeForce")["prs"] if "/salesforce/" in p["link"]]
    titles: dict[str, list[dict]] = {}
    for p in prs:
        titles.setdefault(p["title"], []).append(p)
    title, shared = next((t, ps) for t, ps in sorted(titles.items()) if len(ps) > 1)
    answer = answerer.ask(f"Who opened the '{title}' PR in KnowledgeForce?")
    assert answer.outcome == "answer", answer.reason
    assert set(answer.answer or []) == {p["user"]["login"] for p in shared}
    assert all(p["link"].rsplit("/", 1)[1] in answer.slots["reading"] for p in shared)
    merged = answerer.ask(f"Was '{title}' in KnowledgeForce merged?")
    flags = {str(p["merged"]) == "True" for p in shared}
    if len(flags) == 1:
        assert merged.answer == ("yes" if flags == {True} else "no"), merged.reason
    else:
        assert merged.outcome == "uncertain", merged.answer


@pytest.mark.herb
def test_products_said_of_competitors_are_the_competitors(answerer: Answerer, herb: Path) -> None:
    """ "Which products compete with X" asks for competitors' products, a kin class of X's own: never a proof
    that no product of the company competes with X (the reading's class is the property's own)."""
    from kg.ingest.rules.competitors import named_competitors

    docs = [d for d in product_file(herb, "SentimentForce")["documents"] if d["type"] == "Market Research Report"]
    listed = {n for d in docs for n in named_competitors(d["content"])}
    rivals = answerer.ask("Which products compete with SentimentForce?")
    assert rivals.outcome == "answer", rivals.reason
    assert listed <= set(rivals.answer or [])
    for asked in (
        "What rival products were named in SentimentForce's market research?",
        "Per the SentimentForce market research report, which products are our key competitors?",
        "According to the SentimentForce market research report, who are the key competitors?",
    ):
        answer = answerer.ask(asked)
        assert answer.outcome == "answer", (asked, answer.reason)
        assert set(answer.answer or []) == listed, asked


@pytest.mark.herb
def test_a_pr_named_by_its_number(answerer: Answerer, herb: Path) -> None:
    """ "PR #12" in a product is the pull request whose link ends in /pull/12; a number two of the product's PRs
    end in is uncertain, listing both."""
    prs = product_file(herb, "KnowledgeForce")["prs"]
    numbers: dict[str, list[dict]] = {}
    for p in prs:
        numbers.setdefault(p["link"].rsplit("/", 1)[1], []).append(p)
    number, (pr,) = next((n, ps) for n, ps in sorted(numbers.items()) if len(ps) == 1)
    opened = answerer.ask(f"Who opened KnowledgeForce PR #{number}?")
    assert opened.answer == [pr["user"]["login"]], opened.reason
    merged = answerer.ask(f"Did KnowledgeForce pull request {number} ever get merged?")
    assert merged.answer == ("yes" if str(pr["merged"]) == "True" else "no"), merged.reason
    shared = next((n for n, ps in sorted(numbers.items()) if len(ps) > 1), None)
    if shared is not None:
        assert answerer.ask(f"Who opened KnowledgeForce PR #{shared}?").outcome == "uncertain"


@pytest.mark.herb
def test_does_a_team_have_a_role_is_whether_there_is_one(answerer: Answerer, herb: Path) -> None:
    roles = {e: p["role"] for e, p in json.loads((herb / "metadata" / "employee.json").read_text()).items()}
    team = product_file(herb, "SearchForce")["team"]
    held = {roles.get(e) for e in team}
    for role in ("QA Specialist", "Chief Product Officer"):
        answer = answerer.ask(f"Does the SearchForce team have a {role}?")
        if role in held:
            assert answer.answer == "yes", answer.reason
        else:
            assert answer.outcome in ("absent", "uncertain") or answer.answer == "no", answer.answer


@pytest.mark.herb
def test_a_role_above_or_below_at_any_distance(answerer: Answerer, herb: Path) -> None:
    """ "Which VP does eid_… report to" where the manager is no VP: the VP further up the chain, never a proof
    that the employee reports to none."""
    above = managers(herb)
    roles = {e: p["role"] for e, p in json.loads((herb / "metadata" / "employee.json").read_text()).items()}
    eid = next(
        e for e in sorted(above) if roles.get(e) == "QA Specialist" and roles.get(above[e]) != "VP of Engineering"
    )
    vps = [b for b in walk_up(above, eid) if roles.get(b) == "VP of Engineering"]
    assert vps
    answer = answerer.ask(f"Which VP does {eid} report to?")
    assert answer.outcome == "answer", answer.reason
    assert answer.answer == sorted(vps)


@pytest.mark.herb
def test_a_meeting_described_by_its_month(answerer: Answerer, herb: Path) -> None:
    meetings = [m for m in product_file(herb, "SentimentForce")["meeting_transcripts"]]
    month = meetings[0]["date"][:7]
    same = [m for m in meetings if m["date"].startswith(month)]
    from datetime import date

    said = date.fromisoformat(f"{month}-01").strftime("%B %Y")
    answer = answerer.ask(f"Who sat in on the SentimentForce meeting in {said}?")
    if len(same) == 1:
        assert answer.outcome == "answer", answer.reason
        assert set(answer.answer or []) == participants(same[0])
    else:
        assert answer.outcome == "uncertain" and all(m["id"] in str(answer.reason) for m in same), answer.reason
    assert answer.outcome != "absent"
    none = answerer.ask("Who sat in on the SentimentForce meeting in January 2020?")
    assert none.outcome == "absent", none.reason


@pytest.mark.herb
def test_a_kind_of_artifact_listed_counted_and_proved_absent(answerer: Answerer, herb: Path) -> None:
    """A product's artifacts of one kind, with no condition: listed, counted, and, where the product has none,
    proved absent; "meeting transcripts" in the plural lists them, it describes no one meeting."""
    raw = product_file(herb, "SecurityForce")
    docs = answerer.ask("Which documents does SecurityForce have?")
    assert set(docs.citations) == {d["id"] for d in raw["documents"]}, docs.reason
    count = answerer.ask("number of meeting transcripts we have for SecurityForce?")
    assert count.answer == str(len(raw["meeting_transcripts"])), count.reason
    assert not raw["meeting_chats"]
    chats = answerer.ask("Can you pull up the meeting chat logs for SecurityForce?")
    assert chats.outcome == "absent" and chats.proof, chats.reason


@pytest.mark.herb
def test_is_an_employee_part_of_a_products_team(answerer: Answerer, herb: Path) -> None:
    team = set(product_file(herb, "VizForce")["team"])
    inside = sorted(team)[0]
    outside = next(e for e in sorted(managers(herb)) if e not in team)
    assert answerer.ask(f"Is {inside} part of the VizForce team?").answer == "yes"
    assert answerer.ask(f"Is {outside} a member of the VizForce team?").answer == "no"


@pytest.mark.herb
def test_a_yes_or_no_followed_by_which_ones_answers_the_items(answerer: Answerer, herb: Path) -> None:
    """ "Is anyone on X based in Y? Who?": the items, which answer the yes as well; with none, the proof's no."""
    people = json.loads((herb / "metadata" / "employee.json").read_text())
    team = product_file(herb, "EdgeForce")["team"]
    places = sorted({people[e]["location"] for e in team if e in people})
    there = {e for e in team if e in people and people[e]["location"] == places[0]}
    who = answerer.ask(f"Is anyone on EdgeForce based in {places[0]}? Who?")
    assert who.outcome == "answer" and set(who.answer or []) == there, who.reason
    assert who.question.endswith("Who?")
    reverted = answerer.ask("Were any EdgeForce PRs rolled back? Which ones?")
    assert reverted.answer == answerer.ask("Which EdgeForce PRs were rolled back?").answer


@pytest.mark.herb
def test_the_whole_team_listed_and_counted(answerer: Answerer, herb: Path) -> None:
    team = set(product_file(herb, "ProposalForce")["team"])
    assert set(answerer.ask("Who is on the ProposalForce team?").answer or []) == team
    assert answerer.ask("How many people are on the ProposalForce team?").answer == str(len(team))


@pytest.mark.herb
def test_when_asks_for_a_date_and_only_of_a_time_property(answerer: Answerer, herb: Path) -> None:
    docs = [d for d in product_file(herb, "SentimentForce")["documents"] if d["type"] == "System Design Document"]
    newest = max(docs, key=lambda d: d["date"])
    final = next(d for d in docs if d["id"].startswith("final_") or d["id"].endswith("_final"))  # marked final
    for asked, doc in (
        ("When was the latest version of the SentimentForce system design doc published?", newest),
        ("What is the date of the final version of the SentimentForce system design document?", final),
    ):
        answer = answerer.ask(asked)
        assert answer.outcome == "answer" and answer.answer == [doc["date"]], (asked, answer.reason)
    pr = next(p for p in product_file(herb, "SentimentForce")["prs"] if str(p["merged"]) == "True")
    reverted = answerer.ask(f"When was {pr['link']} reverted?")  # its revert event's time, never a PR
    answered = reverted.answer if reverted.outcome == "answer" and isinstance(reverted.answer, list) else []
    assert reverted.outcome in ("answer", "absent") and all(
        re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:]+", v) for v in answered
    )


@pytest.mark.herb
def test_competitors_read_from_one_version_of_a_document(answerer: Answerer, herb: Path) -> None:
    """ "Which competitors does X's latest market research report name": the competitors derived from that
    version, each named in its text (checked against the raw artifact), never a proof while it names some."""
    for product in ("SummarizeForce", "ExplainabilityForce", "MonitorForce"):
        reports = sorted(
            (d for d in product_file(herb, product)["documents"] if d["type"] == "Market Research Report"),
            key=lambda d: d["date"],
        )
        got = answerer.ask(f"Which competitors does {product}'s latest market research report name?")
        assert got.outcome == "answer" and isinstance(got.answer, list) and got.answer, product
        assert all(name in reports[-1]["content"] for name in got.answer), product
        assert reports[-1]["id"] in got.citations


@pytest.mark.herb
def test_an_employees_items_with_a_state_the_question_adds(answerer: Answerer, herb: Path) -> None:
    """ "Which open LeadForce PRs were authored by eid_…": the PRs attributed to the employee that are open, as
    the PR records give them (user login and state)."""
    prs = [p for p in product_file(herb, "LeadForce")["prs"] if "/salesforce/" in p["link"]]
    by_author: dict[str, list[dict]] = {}
    for p in prs:
        by_author.setdefault(str(p.get("user", {}).get("login", "")), []).append(p)
    eid, own = max(((e, ps) for e, ps in by_author.items() if e.startswith("eid_")), key=lambda kv: len(kv[1]))
    expected = sorted(p["link"] for p in own if p.get("state") == "open")
    got = answerer.ask(f"Which open LeadForce PRs were authored by {eid}?")
    if expected:
        assert got.outcome == "answer" and sorted(got.answer or []) == expected
    else:
        assert got.outcome == "absent" and got.proof is not None


@pytest.mark.herb
def test_a_lead_clause_that_names_nothing_is_context(answerer: Answerer) -> None:
    plain = answerer.ask("Which competitors are named in SecurityForce's market research report?")
    assert plain.outcome == "answer"
    lead = answerer.ask(
        "For a sales battlecard: which competitors are named in SecurityForce's market research report?"
    )
    assert lead.answer == plain.answer
    shifted = answerer.ask(
        "Excluding internal QA findings: which competitors are named in SecurityForce's market research report?"
    )
    assert shifted.outcome != "answer"  # a clause with a word that can change what is asked is no lead


@pytest.mark.herb
def test_when_was_a_described_meeting_is_its_date(answerer: Answerer, herb: Path) -> None:
    """ "When was <product>'s <kind> review meeting": the meeting's date, however it is asked (the first product
    whose transcripts hold one meeting of a document kind, read from the raw artifacts)."""
    product, meeting = next(
        (path.stem, m)
        for path in sorted((herb / "products").glob("*.json"))
        for m in product_file(herb, path.stem)["meeting_transcripts"]
        if " " in m["document_type"]
        and [x["document_type"] for x in product_file(herb, path.stem)["meeting_transcripts"]].count(m["document_type"])
        == 1
    )
    for asked in (
        f"When was the {product} {meeting['document_type']} review meeting?",
        f"When did the {product} team hold its review meeting on the {meeting['document_type']}?",
    ):
        got = answerer.ask(asked)
        assert got.outcome == "answer" and got.answer == [meeting["date"]], asked


def slack_texts(herb: Path, product: str) -> dict[str, str]:
    """Every Slack message and thread reply of the product's raw file: id -> text."""
    out: dict[str, str] = {}
    for m in product_file(herb, product)["slack"]:
        out[m["id"]] = m["Message"]["User"]["text"]
        for reply in m.get("ThreadReplies", []):
            out[reply.get("id", reply["Message"]["User"].get("utterranceID", ""))] = reply["Message"]["User"]["text"]
    return out


@pytest.mark.herb
def test_items_said_to_be_read_from_slack_are_derived_from_slack_messages(answerer: Answerer, herb: Path) -> None:
    """ "Which competitor products did the X team discuss on Slack?": the competitors read from the product's
    Slack messages (a kind of artifact said beside the asked kind), each named in a message it cites."""
    for product in ("SummarizeForce", "PersonalizeForce", "CollaborateForce"):
        texts = slack_texts(herb, product)
        for asked in (
            f"Which competitor products did the {product} team discuss on Slack?",
            f"Which rival products came up in the {product} team's Slack conversations?",
        ):
            got = answerer.ask(asked)
            assert got.outcome == "answer" and isinstance(got.answer, list) and got.answer, (asked, got.reason)
            cited = [texts[c] for c in got.citations if c in texts]
            assert all(any(name in t for t in cited) for name in got.answer), asked
    documents = answerer.ask("Which competitors does SummarizeForce's market research report name?")
    slack = answerer.ask("Which competitor products did the SummarizeForce team discuss on Slack?")
    assert set(documents.answer or []) != set(slack.answer or [])  # the source said is read, not dropped


@pytest.mark.herb
def test_a_meeting_described_by_a_bare_date_and_the_askers_own_verb(answerer: Answerer, herb: Path) -> None:
    """ "the X review meeting held 2026-06-26", "I missed the X meeting on <day> - who was there?": the meeting
    of that day, its participants as the raw transcript lists them."""
    product = "WorkFlowGenie"
    meetings = product_file(herb, product)["meeting_transcripts"]
    kinds = [m["document_type"] for m in meetings]
    meeting = next(m for m in meetings if kinds.count(m["document_type"]) > 1 and m.get("participants"))
    day = meeting["date"][:10]
    asked = (
        f"For the {product} {meeting['document_type']} meeting held {day}, who attended?",
        f"I missed the {product} {meeting['document_type']} meeting on {day} - who was there?",
    )
    each_answers(answerer, asked, set(meeting["participants"]))
    days = {m["date"][:10] for m in meetings}
    free = next(f"2026-01-{d:02d}" for d in range(1, 29) if f"2026-01-{d:02d}" not in days)
    none = answerer.ask(f"Who attended the {product} {meeting['document_type']} meeting held {free}?")
    assert none.outcome in ("absent", "uncertain") and not none.answer  # no meeting that day: never a crash


@pytest.mark.herb
def test_the_records_an_answer_is_read_from_said_by_the_asker(answerer: Answerer, herb: Path) -> None:
    """ "According to its review records, who approved <PR>": the review records are where the answer is read
    from, no property of their own (the approvers as the raw PR's reviews give them)."""
    pr = next(
        p for p in product_file(herb, "SummarizeForce")["prs"] if any(r["state"] == "APPROVED" for r in p["reviews"])
    )
    asked = (
        f"According to its review records, who approved {pr['link']}?",
        f"Per the PR review records, who approved {pr['link']}?",
    )
    each_answers(answerer, asked, {r["user"]["login"] for r in pr["reviews"] if r["state"] == "APPROVED"})


@pytest.mark.herb
def test_which_pr_resolved_a_bug_and_whether_it_is_resolved(answerer: Answerer) -> None:
    """ "resolved" names the fixing PR when a PR is asked for, and the bug's state in a yes or no."""
    fixed = answerer.ask("Which PR fixed the InsightForce bug 'Insight Summary Text Overlap'?")
    resolved = answerer.ask("Which PR resolved 'Insight Summary Text Overlap' in InsightForce?")
    assert fixed.outcome == resolved.outcome == "answer" and resolved.answer == fixed.answer
    state = answerer.ask("Is the InsightForce bug 'Insight Summary Text Overlap' resolved?")
    assert state.outcome == "answer" and str(state.answer).split()[0] in ("yes", "no")
    assert "bug state" in state.slots.get("reading", "")


@pytest.mark.herb
def test_a_class_the_graph_types_only_by_its_narrower_classes_proves_nothing(answerer: Answerer, herb: Path) -> None:
    """A meeting is its transcript (one per meeting, as the raw file lists them); a meeting artifact, which the
    graph types only as a transcript or a chat, is never proved absent."""
    transcripts = product_file(herb, "ExplainabilityForce")["meeting_transcripts"]
    meetings = answerer.ask("How many meetings have been recorded for ExplainabilityForce?")
    assert meetings.outcome == "answer" and meetings.answer == str(len(transcripts))
    artifacts = answerer.ask("How many meeting artifacts does ExplainabilityForce have?")
    assert artifacts.outcome == "uncertain" and artifacts.proof is None


@pytest.mark.herb
def test_a_bug_named_by_the_title_its_later_steps_quote(answerer: Answerer, herb: Path) -> None:
    """SecurityForce's triage item calls a bug "a non-functional scan cancellation button …"; the dismissal and
    the reopen call it 'Scan Cancellation Button Non-Functional' (raw file). Named that way, it is found: who
    dismissed it (the dismissal's author), whether it was reopened, and whether a code change fixed it."""
    texts = slack_texts(herb, "SecurityForce")
    title = "Scan Cancellation Button Non-Functional"
    dismissal = next(i for i, t in texts.items() if title in t and "does not require a fix" in t)
    author = next(
        m["Message"]["User"]["userId"] for m in product_file(herb, "SecurityForce")["slack"] if m["id"] == dismissal
    )
    who = answerer.ask(f"Who decided SecurityForce's '{title}' bug didn't need a fix?")
    assert who.outcome == "answer" and who.answer == [author], who.reason
    reopened = answerer.ask(f"Was the '{title}' bug in SecurityForce reopened?")
    assert reopened.outcome == "answer" and reopened.answer == "yes (its state: reopened)"
    fixed = answerer.ask(f"Was the '{title}' bug in SecurityForce fixed with a code change?")  # and its state said
    assert fixed.outcome == "answer" and fixed.answer == "no (its state: reopened)"


@pytest.mark.herb
def test_who_created_a_channel_and_when(answerer: Answerer, herb: Path) -> None:
    """ "Who created / set up the <channel> channel", "when was it created": Slack's note opening the channel
    (the raw file's "@eid_… created this channel on …"), for a channel created once."""
    notes = [
        m
        for m in product_file(herb, "SecurityForce")["slack"]
        if re.match(r"@eid_\w+ created this channel on ", m["Message"]["User"]["text"])
    ]
    names = [m["Channel"]["name"] for m in notes]
    note = next(m for m in notes if names.count(m["Channel"]["name"]) == 1)
    creator = note["Message"]["User"]["text"].split()[0].lstrip("@")
    channel = note["Channel"]["name"]
    each_answers(
        answerer, (f"Who created the {channel} channel?", f"Who set up the {channel} Slack channel?"), {creator}
    )
    when = answerer.ask(f"When was the {channel} channel created?")
    day = re.search(r"on (\d{4}-\d{2}-\d{2})", note["Message"]["User"]["text"])
    assert when.outcome == "answer" and day and str(when.answer[0]).startswith(day.group(1))  # type: ignore[index]


def employees(herb: Path) -> dict[str, dict]:
    return json.loads((herb / "metadata" / "employee.json").read_text())


@pytest.mark.herb
def test_an_employees_own_items_said_in_other_ways(answerer: Answerer, herb: Path) -> None:
    """ "eid_…'s own PRs that ended up getting reverted", "PRs written by eid_… later reverted", "eid_… - which
    of their PRs are still open": the raw PR records' author, state and "Revert PR# N" titles."""
    prs = [p for p in product_file(herb, "PitchForce")["prs"] if "/salesforce/" in p["link"]]
    reverted = {  # the reverted PR's link: the revert's own repository and the number its title gives
        f"{p['link'].rsplit('/', 1)[0]}/{p['title'].split('#')[1].split(':')[0].strip()}"
        for p in prs
        if p["title"].startswith("Revert PR#")
    }
    author = next(p["user"]["login"] for p in prs if p["link"] in reverted)
    theirs = {p["link"] for p in prs if p["user"]["login"] == author and p["link"] in reverted}
    asked = (
        f"Which of {author}'s own PitchForce pull requests ended up getting reverted?",
        f"Which PitchForce PRs written by {author} were later reverted?",
    )
    each_answers(answerer, asked, theirs)
    opened = {p["link"] for p in prs if p["user"]["login"] == author and p["state"] == "open"}
    got = answerer.ask(f"{author} - which of their PitchForce PRs are still open?")
    assert (got.outcome == "answer" and set(got.answer or []) == opened) or (not opened and got.outcome == "absent")


@pytest.mark.herb
def test_a_meeting_by_its_id_with_an_apposition_that_restates_it(answerer: Answerer, herb: Path) -> None:
    """ "Who was in the room for <id>, the <product> <kind> review?": the apposition restates the meeting (its
    type, as the raw transcript gives it); another kind said there is a word not placed, never the answer."""
    meeting = next(m for m in product_file(herb, "MonitorForce")["meeting_transcripts"] if m.get("participants"))
    kind = meeting["document_type"]
    other = next(k for k in ("Market Research Report", "System Design Document") if k != kind)
    expected = set(meeting["participants"])
    each_answers(
        answerer,
        (f"Who was in the room for {meeting['id']}, the MonitorForce {kind} review?", f"Who was at {meeting['id']}?"),
        expected,
    )
    wrong = answerer.ask(f"Who attended {meeting['id']}, the MonitorForce {other} review?")
    assert wrong.outcome == "uncertain"


@pytest.mark.herb
def test_requests_said_as_the_askers_need(answerer: Answerer) -> None:
    plain = answerer.ask("Who reports to eid_7017b913?")
    assert plain.outcome == "answer"
    for asked in ("I need the direct reports of eid_7017b913.", "How do I find out who reports to eid_7017b913?"):
        assert answerer.ask(asked).answer == plain.answer, asked
    link = answerer.ask("Link me the PR that fixed the 'Alert Suppression Logic Failure' in MonitorForce.")
    fixed = answerer.ask("Which PR fixed the MonitorForce bug 'Alert Suppression Logic Failure'?")
    assert link.outcome == "answer" and link.answer == fixed.answer


@pytest.mark.herb
def test_a_place_said_beside_a_chain_and_a_role(answerer: Answerer, herb: Path) -> None:
    """ "Which software engineers under eid_… are based in Seattle": the chain's people with that role and
    place, as employee.json gives them."""
    people = employees(herb)
    got = answerer.ask("Which software engineers under eid_95f6d01c on WorkFlowGenie are based in Seattle?")
    below = answerer.ask("Who is under eid_95f6d01c?")
    assert got.outcome == "answer" and set(got.answer or []) <= set(below.answer or [])
    assert all(
        people[e]["role"] == "Software Engineer" and people[e]["location"] == "Seattle" for e in got.answer or []
    )
    expected = {
        e for e in below.answer or [] if people[e]["role"] == "Software Engineer" and people[e]["location"] == "Seattle"
    }
    assert set(got.answer or []) == expected
    located = answerer.ask("Is eid_95f6d01c based in Seattle?")
    assert located.answer == ("yes" if people["eid_95f6d01c"]["location"] == "Seattle" else "no")


@pytest.mark.herb
def test_a_property_noun_names_the_asked_kind(answerer: Answerer) -> None:
    said = answerer.ask("Which competing tools does the VizForce market research report name?")
    plain = answerer.ask("Which competitors does VizForce's market research report name?")
    assert said.outcome == plain.outcome == "answer" and said.answer == plain.answer


@pytest.mark.herb
def test_a_repository_in_the_askers_own_scene_filters_nothing(answerer: Answerer) -> None:
    """ "I'm new to the SearchForce repo. Could you …": where the asker works, not a repository the answer is
    kept to (that had proved the PRs absent)."""
    plain = answerer.ask(
        "Could you point me to the approved PRs for improving integration with third-party applications in "
        "SearchForce that need to be closed?"
    )
    scene = answerer.ask(
        "I'm new to the SearchForce repo. Could you point me to the approved PRs for improving integration with "
        "third-party applications that are supposed to be closed?"
    )
    assert plain.outcome == "answer" and scene.outcome == "answer" and scene.answer == plain.answer
    assert not scene.slots.get("repos")


@pytest.mark.herb
def test_a_state_said_of_a_named_pr_is_asked_not_restated(answerer: Answerer, herb: Path) -> None:
    """ "Is <PR link> closed / open?": the PR's state as its raw record gives it (a value the entity holds is a
    restatement only in an apposition of a kind the data file names, a meeting)."""
    for pr in [p for p in product_file(herb, "AnomalyForce")["prs"] if "/salesforce/" in p["link"]][:4]:
        for state in ("open", "closed"):
            got = answerer.ask(f"Is {pr['link']} {state}?")
            assert got.outcome == "answer" and got.answer == ("yes" if pr["state"] == state else "no"), pr["link"]


@pytest.mark.herb
def test_a_pr_named_by_its_repository_and_number_is_that_pr(answerer: Answerer, herb: Path) -> None:
    prs = product_file(herb, "CollaborateForce")["prs"]
    pr = next(p for p in prs if p["link"].endswith("/CollaborateForce/pull/43"))
    answer = answerer.ask(f"Has CollaborateForce/pull/43 '{pr['title']}' been merged?")  # its title restates it
    merged = str(pr["merged"]).casefold() == "true"  # the records hold it as text
    assert answer.outcome == "answer" and answer.answer == ("yes" if merged else "no"), answer.reason


@pytest.mark.herb
def test_the_competitors_one_document_names_given_by_its_id(answerer: Answerer, herb: Path) -> None:
    """ "Which competitors does <document id> name": the competitor products read from that one document, each
    a name its text holds, citing it alone (no product is said: the document's id is the scope)."""
    doc = next(
        d for d in product_file(herb, "KnowledgeForce")["documents"] if d["id"] == "ledgeaix_market_research_report"
    )
    answer = answerer.ask(f"Which competitors are named in {doc['id']}?")
    assert answer.outcome == "answer", answer.reason
    assert answer.answer and all(name in doc["content"] for name in answer.answer)
    assert answer.citations == [doc["id"]]


@pytest.mark.herb
def test_is_a_competitor_named_in_a_kind_of_document(answerer: Answerer) -> None:
    """Yes for a competitor the market research report names, no for one only Slack talks about (both
    competitor products of the product): the listing by source, then whether it holds the name."""
    named = answerer.ask("Which competitors are named in the KnowledgeForce market research report?")
    slack = answerer.ask("Which competitors came up in Slack for KnowledgeForce?")
    assert named.outcome == slack.outcome == "answer"
    only_slack = sorted(set(slack.answer or []) - set(named.answer or []))
    assert only_slack, "the Slack threads name competitors the report does not"
    said = answerer.ask(f"Is {named.answer[0]} named as a competitor in the KnowledgeForce market research report?")
    unsaid = answerer.ask(f"Is {only_slack[0]} named as a competitor in the KnowledgeForce market research report?")
    assert (said.answer, unsaid.answer) == ("yes", "no"), (said.reason, unsaid.reason)


@pytest.mark.herb
def test_who_authored_the_most_prs_counts_the_pr_records(answerer: Answerer, herb: Path) -> None:
    """ "Who has authored the most PRs in X": every PR of the product counted by its author (the raw records'
    user.login), every author tied at the top; the answer cites the winners' PRs."""
    prs = product_file(herb, "FlowForce")["prs"]
    counts: dict[str, int] = {}
    for pr in prs:
        counts[pr["user"]["login"]] = counts.get(pr["user"]["login"], 0) + 1
    top = max(counts.values())
    answer = answerer.ask("Who has authored the most PRs in FlowForce?")
    assert answer.outcome == "answer", answer.reason
    assert set(answer.answer or []) == {login for login, n in counts.items() if n == top}
    assert set(answer.citations) <= {pr["id"] for pr in prs}
    stated = answerer.ask("Which customer has the most reopened bugs in SentimentForce?")  # a state it cannot count
    assert stated.intent != "ontology:affectsCustomer:most"


@pytest.mark.herb
def test_a_pr_named_by_number_and_link_is_one_pr(answerer: Answerer, herb: Path) -> None:
    """ "Was <repo> PR #N (<its link>) merged?": the number and the link name one PR, whose merged flag the raw
    record gives."""
    prs = [pr for pr in product_file(herb, "FlowForce")["prs"] if "/salesforce/" in pr["link"]]
    for merged in ("True", "False"):
        pr = next(p for p in prs if p["merged"] == merged)
        repo = pr["link"].split("/")[-3]
        answer = answerer.ask(f"Was {repo} PR #{pr['number']} ({pr['link']}) ever merged?")
        assert answer.outcome == "answer", answer.reason
        assert str(answer.answer).split()[0] == ("yes" if merged == "True" else "no")


@pytest.mark.herb
def test_a_bug_asked_about_in_other_words_than_its_own_question(answerer: Answerer) -> None:
    """The bug's fixer, asked as "the bug titled 'X'", "by whom was 'X' fixed", "'X' - who fixed it?", and as a
    yes or no of the fixer and of someone else; "to whom was it assigned" is its assignee, never its triager;
    "who fixed it and which PR" is both answers."""
    title, product = "Alert Configuration Loss", "MonitorForce"
    fixer = answerer.ask(f"Who fixed the {product} bug '{title}'?")
    assert fixer.outcome == "answer" and len(fixer.answer or []) == 1, fixer.reason
    for asked in (
        f"Who resolved the {product} bug titled '{title}'?",
        f"By whom was the {product} bug '{title}' fixed?",
        f"'{title}' in {product} - who fixed it?",
    ):
        assert answerer.ask(asked).answer == fixer.answer, asked
    did = answerer.ask(f"Did {fixer.answer[0]} fix '{title}' in {product}?")
    assert str(did.answer).startswith("yes"), did.reason
    nobody = next(e for e in ("eid_9de52b6e", "eid_a0fe567d") if e not in (fixer.answer or []))
    assert str(answerer.ask(f"Did {nobody} fix '{title}' in {product}?").answer).startswith("no")
    assigned = answerer.ask(f"Who was the {product} bug '{title}' assigned to?")
    assert answerer.ask(f"To whom was the {product} bug '{title}' assigned?").answer == assigned.answer
    pr = answerer.ask(f"Which PR fixed the {product} bug '{title}'?")
    both = answerer.ask(f"Who fixed the {product} bug '{title}' and which PR did it?")
    assert both.outcome == "answer" and both.answer == [*(fixer.answer or []), *(pr.answer or [])], both.reason


@pytest.mark.herb
def test_fixed_or_not_is_a_yes_or_no_that_says_the_state(answerer: Answerer) -> None:
    """ "'X' (P) -- fixed or not?" is the yes or no of "was 'X' fixed?", with the bug's state beside it: a bug
    closed without a fix is "no (its state: no fix needed)", never a proof that it has no fix."""
    plain = answerer.ask("Was 'Excessive Lock Contention' in ForecastForce fixed?")
    assert plain.answer == "no (its state: no fix needed)", plain.reason
    assert answerer.ask("Excessive Lock Contention (ForecastForce) -- fixed or not?").answer == plain.answer
    lead = answerer.ask("hey, the 'Excessive Lock Contention' bug on ForecastForce - did it get fixed?")
    assert lead.answer == plain.answer, lead.reason


@pytest.mark.herb
def test_has_a_company_reported_any_bugs_is_a_yes_or_no(answerer: Answerer, herb: Path) -> None:
    """ "Has <company> reported any X bugs?": yes for a company the product's bugs name, no (with the listing's
    proof) for a customer company the product file never mentions."""
    listed = answerer.ask("Which WorkFlowGenie bugs did BlueWave report?")
    assert listed.outcome == "answer"
    assert answerer.ask("Has BlueWave reported any WorkFlowGenie bugs?").answer == "yes"
    text = json.dumps(product_file(herb, "WorkFlowGenie"))
    assert "InnovateAI" not in text
    never = answerer.ask("Has InnovateAI reported any WorkFlowGenie bugs?")
    assert never.answer == "no" and never.proof, never.reason


@pytest.mark.herb
def test_requests_said_with_words_that_name_properties(answerer: Answerer) -> None:
    """ "Name the …" and "give me links to …" ask; they ask for no name and no link property: the QA
    specialists of a team (never a proof that the product has no name), a document's versions by their links."""
    team = answerer.ask("Who are the QA specialists on the ForecastForce team?")
    named = answerer.ask("Name the QA specialists on ForecastForce.")
    assert named.outcome == "answer" and named.answer == team.answer, named.reason
    versions = answerer.ask("Give me every version of the FeedbackForce System Design Document.")
    links = answerer.ask("Give me links to every version of the FeedbackForce System Design Document.")
    assert links.answer == versions.answer and all(str(v).startswith("https://") for v in links.answer or [])
    listed = answerer.ask("Open PRs in CollaborationForce, links please.")
    assert listed.answer == answerer.ask("Which PRs in CollaborationForce are open?").answer


@pytest.mark.herb
def test_a_question_for_competitor_products_is_never_answered_with_their_demo_links(answerer: Answerer) -> None:
    answer = answerer.ask("Which competitor products have demo links in PersonalizeForce?")
    assert not (answer.outcome == "answer" and any("://" in str(v) for v in answer.answer or [])), answer.answer


@pytest.mark.herb
def test_skip_level_said_in_numbers_and_the_org_chart_as_a_frame(answerer: Answerer) -> None:
    skip = answerer.ask("Who is eid_13cb0e90's skip-level manager?")
    assert skip.outcome == "answer"
    for asked in (
        "whos the skip-level manager of eid_13cb0e90 (2 levels up)?",
        "Who sits two levels above eid_13cb0e90 in the org chart?",
    ):
        assert answerer.ask(asked).answer == skip.answer, asked


@pytest.mark.herb
def test_the_most_asked_as_a_yes_or_no_and_a_class_said_twice(answerer: Answerer, herb: Path) -> None:
    """ "Is eid_… the person with the most authored PRs in X?": yes for an author at the top of the raw PR records'
    counts, no for another; "the revert PRs in the X PR history": the PR history says where, not a second kind."""
    counts: dict[str, int] = {}
    for pr in product_file(herb, "FlowForce")["prs"]:
        counts[pr["user"]["login"]] = counts.get(pr["user"]["login"], 0) + 1
    ranked = sorted(counts, key=lambda login: -counts[login])
    top, other = ranked[0], next(x for x in ranked if counts[x] < counts[ranked[0]] and x.startswith("eid_"))
    assert answerer.ask(f"Is {top} the person with the most authored PRs in FlowForce?").answer == "yes"
    assert answerer.ask(f"Is {other} the person with the most authored PRs in FlowForce?").answer == "no"
    plain = answerer.ask("How many revert PRs are there in ExplainabilityForce?")
    said = answerer.ask("How many revert PRs are there in the ExplainabilityForce PR history?")
    assert plain.outcome == "answer" and said.answer == plain.answer


@pytest.mark.herb
def test_every_version_said_as_various_versions(answerer: Answerer, herb: Path) -> None:
    """ "Who authored the various versions of <doc>": each version's author (the raw documents' author field)."""
    docs = [d for d in product_file(herb, "LeadForce")["documents"] if d["type"] == "Product Vision Document"]
    answer = answerer.ask("Who authored the various versions of the LeadForce Product Vision Document?")
    assert answer.outcome == "answer" and set(answer.answer or []) == {d["author"] for d in docs}


@pytest.mark.herb
def test_did_an_employee_open_is_authorship_and_two_approvers_compared(answerer: Answerer, herb: Path) -> None:
    """ "Did eid_… open …" is the act (the PR's author), never the "open" state; "did A approve more PRs than B"
    compares the two reviewers' APPROVED reviews in the raw records, as a yes or no."""
    prs = product_file(herb, "FlowForce")["prs"]
    opened: dict[str, int] = {}
    approved: dict[str, int] = {}
    for pr in prs:
        opened[pr["user"]["login"]] = opened.get(pr["user"]["login"], 0) + 1
        for who in {r["user"]["login"] for r in pr.get("reviews", []) if r["state"] == "APPROVED"}:
            approved[who] = approved.get(who, 0) + 1
    author = max(opened, key=lambda e: (opened[e], e))
    got = answerer.ask(f"How many PRs did {author} open in FlowForce?")
    assert got.outcome == "answer" and got.answer == str(opened[author]), got.reason
    first, second = sorted(approved, key=lambda e: (-approved[e], e))[:2]
    for a, b in ((first, second), (second, first)):
        said = answerer.ask(f"Did {a} approve more FlowForce PRs than {b}?")
        assert said.outcome == "answer" and said.answer == ("yes" if approved[a] > approved[b] else "no"), said.reason


def test_an_empty_step_after_the_proof_is_no_answer(answerer: Answerer) -> None:
    """A reading whose last step reaches nothing ("who is customer X": the authors of the bugs affecting them)
    is uncertain, never an empty answer and never a proof."""
    got = answerer.ask("Who is customer CUST-0026?")
    assert got.outcome != "answer" or got.answer, got.answer
    assert got.outcome != "absent"


def test_a_quoted_bug_title_holds_no_cue_of_its_own(answerer: Answerer) -> None:
    """Words of a quoted bug title that are cues elsewhere ("Strategy": a change of direction) are the title's."""
    plain = answerer.ask("What is the state of the 'Inefficient Caching Strategy' bug in ExplainabilityForce?")
    said = answerer.ask("is 'Inefficient Caching Strategy' in ExplainabilityForce actually fixed? what's its state?")
    assert plain.outcome == "answer" and said.outcome == "answer" and said.answer == plain.answer


def bug_reports_by_customer(herb: Path, product: str) -> dict[str, set[str]]:
    """Each customer id with the bug-channel triage messages that name it (the raw Slack records)."""
    said: dict[str, set[str]] = {}
    for m in product_file(herb, product)["slack"]:
        if m["Channel"].get("name", "").startswith("bug-"):
            for cid in re.findall(r"CUST-\d+", m["Message"]["User"]["text"]):
                said.setdefault(cid, set()).add(m["id"])
    return said


@pytest.mark.herb
def test_a_customer_named_by_id_with_its_class_noun(answerer: Answerer, herb: Path) -> None:
    """ "Customer CUST-…" is the customer (its class's noun before its id), and "did <customer> report / raise",
    "came from" read the bugs it reported: as many as the triage messages that name it; a customer of the product
    that no bug names is a no, with the proof."""
    said = bug_reports_by_customer(herb, "ActionGenie")
    assert len(said["CUST-0047"]) == 3
    listed = answerer.ask("Which ActionGenie bugs did customer CUST-0047 raise?")
    assert listed.outcome == "answer" and "Duplicate Log Entries for Manual Actions" in (listed.answer or [])
    counted = answerer.ask("How many ActionGenie bugs came from customer CUST-0047?")
    assert counted.outcome == "answer" and counted.answer == str(len(listed.answer or [])) == "3"
    quiet = next(c for c in sorted(product_file(herb, "ActionGenie")["customers"]) if c not in said)
    got = answerer.ask(f"Has customer {quiet} reported any ActionGenie bugs?")
    assert got.outcome == "answer" and got.answer == "no" and got.proof is not None


@pytest.mark.herb
def test_who_opened_the_most_prs_ranked_and_compared(answerer: Answerer, herb: Path) -> None:
    """Every PR of the product counted by its author (the raw records' user.login): the most, the second most,
    and two authors compared as a yes or no, all from the same ranked counts."""
    opened: dict[str, int] = {}
    for pr in product_file(herb, "FlowForce")["prs"]:
        opened[pr["user"]["login"]] = opened.get(pr["user"]["login"], 0) + 1
    levels = sorted(set(opened.values()), reverse=True)
    top = {e for e, n in opened.items() if n == levels[0]}
    runner = {e for e, n in opened.items() if n == levels[1]}
    assert set(answerer.ask("Who opened the most PRs in FlowForce?").answer or []) == top
    assert set(answerer.ask("Who opened the second most PRs in FlowForce?").answer or []) == runner
    first, second = sorted(top)[0], sorted(runner)[0]
    assert answerer.ask(f"Did {second} open more FlowForce PRs than {first}?").answer == "no"
    assert answerer.ask(f"Did {first} author more FlowForce PRs than {second}?").answer == "yes"


def test_same_and_a_customer_said_alone_are_never_dropped(answerer: Answerer) -> None:
    """ "Do A and B have the same manager" is no "does A report to B"; "which customer filed the most bugs" may
    ask for the customer contact, so it is never answered with a company."""
    same = answerer.ask("Do eid_4812cbd8 and eid_e3c15ff5 have the same manager?")
    assert same.outcome in ("uncertain", "unsupported") or same.answer == "yes"
    customer = answerer.ask("Which customer has filed the most ActionGenie bugs?")
    companies = answerer.ask("Which customer company has filed the most ActionGenie bugs?")
    assert companies.outcome == "answer" and customer.answer != companies.answer


@pytest.mark.herb
def test_peers_are_the_others_under_the_same_manager(answerer: Answerer, herb: Path) -> None:
    """ "Who reports to eid_…'s manager", "who else reports to the same manager as eid_…", "who has the same
    manager as eid_…": the others the org chart puts under that person's manager (never the manager's manager,
    never the manager); "who does eid_…'s manager report to" stays two steps up."""
    above = managers(herb)
    eid = "eid_a7dd9c52"
    peers = {e for e, boss in above.items() if boss == above[eid]} - {eid}
    assert peers
    for wording in (f"Who reports to {eid}'s manager?", f"Who else reports to the same manager as {eid}?",
                    f"Who has the same manager as {eid}?"):  # fmt: skip
        got = answerer.ask(wording)
        assert got.outcome == "answer" and set(got.answer or []) == peers, (wording, got.reason)
    two = answerer.ask(f"Who does {eid}'s manager report to?")
    assert two.answer == [above[above[eid]]]
    roles = json.loads((herb / "metadata" / "employee.json").read_text(encoding="utf-8"))
    other = "eid_4812cbd8"
    engineers = {e for e, boss in above.items() if boss == above[other] and e != other}
    engineers = {e for e in engineers if roles[e]["role"] == "Software Engineer"}
    got = answerer.ask(f"Which other software engineers share a manager with {other}?")
    assert engineers and set(got.answer or []) == engineers, got.answer


def test_the_competitors_of_a_documents_section(answerer: Answerer) -> None:
    """ "The Competitive Analysis of <document id>": the section is the document's, so its competitors."""
    doc = "Which competitors are named in the ProposalForce Market Research Report (osalaix_market_research_report)?"
    plain = answerer.ask(doc)
    said = answerer.ask(doc.replace("named in the", "named in the Competitive Analysis section of the"))
    assert plain.outcome == "answer" and (said.outcome, said.answer) == ("answer", plain.answer)


def test_an_artifact_named_by_id_scopes_the_question_to_its_product(answerer: Answerer) -> None:
    """A question naming no product but a HERB artifact's id is read in that artifact's product (as a source
    record's id scopes an ERB question): the same answer as with the product said; a meeting named by its id is
    the meeting a yes/no asks about, never a second meeting described beside it."""
    doc = "Which competitors are named in osalaix_market_research_report?"
    said = answerer.ask(doc.replace("?", " for ProposalForce?"))
    got = answerer.ask(doc)
    assert said.outcome == "answer" and (got.outcome, got.answer) == ("answer", said.answer)
    assert got.slots.get("product") == "ProposalForce"
    meeting = "Was any QA specialist on the attendee list for the product_dev_ForecastForce_5 meeting"
    plain, scoped = answerer.ask(f"{meeting}?"), answerer.ask(f"{meeting} in ForecastForce?")
    assert plain.outcome == "answer" and (scoped.outcome, scoped.answer) == ("answer", plain.answer)


@pytest.mark.herb
def test_an_item_described_by_another_question_is_asked_in_two_steps(answerer: Answerer) -> None:
    """ "Who manages the engineer that fixed 'X'?": the fixer first (one person), then their manager; nothing
    fixed it is the outer question's absence, with the inner proof."""
    title, product = "Transcription Progress Bar Stuck", "CoachForce"
    fixer = answerer.ask(f"Who fixed the '{title}' bug in {product}?")
    assert fixer.outcome == "answer" and len(fixer.answer or []) == 1
    boss = answerer.ask(f"Who is {fixer.answer[0]}'s manager?")
    assert boss.outcome == "answer"
    for wording in (
        f"Who manages the engineer that fixed '{title}' in {product}?",
        f"The engineer who fixed '{title}' in {product} - who is their manager?",
        f"Whoever fixed '{title}' in {product} - who do they report to?",
    ):
        got = answerer.ask(wording)
        assert (got.outcome, got.answer) == ("answer", boss.answer), (wording, got.reason)
        assert got.operator and got.operator["kind"] == "nested"
    pr = answerer.ask(f"Which PR fixed the '{title}' bug in {product}?")
    author = answerer.ask(f"Who authored {pr.answer[0]}?")
    assert answerer.ask(f"Who authored the PR that fixed '{title}' in {product}?").answer == author.answer
    unfixed = answerer.ask("Who authored the PR that fixed 'Insecure Parameter Storage Mechanism' in AutoTuneForce?")
    assert unfixed.outcome == "absent" and unfixed.proof


@pytest.mark.herb
def test_a_verb_whose_subject_is_asked_reads_towards_the_entity(answerer: Answerer, herb: Path) -> None:
    """ "Who manages eid_…" is its manager (was: its reports, "proved" absent for one with none)."""
    above = managers(herb)
    eid = next(e for e in above if not any(b == e for b in above.values()))  # manages nobody
    assert answerer.ask(f"Who manages {eid}?").answer == [above[eid]]
    assert answerer.ask(f"Which lead manages {eid}?").answer == [above[eid]]
    boss = above[eid]
    assert set(answerer.ask(f"Who does {boss} manage?").answer or []) == {e for e, b in above.items() if b == boss}


@pytest.mark.herb
def test_the_item_a_clause_before_names_and_the_asker_s_own_verbs(answerer: Answerer) -> None:
    plain = answerer.ask("Who attended flowAIX_planning_3?")
    assert plain.outcome == "answer"
    for wording in (
        "Pulling together notes from flowAIX_planning_3 - who was in that meeting?",
        "I missed the flowAIX_planning_3 meeting - who was there?",
        "About flowAIX_planning_3: who attended it?",
    ):
        assert answerer.ask(wording).answer == plain.answer, wording
    manager = answerer.ask("Who is eid_7687dbe6's manager?")
    escalate = answerer.ask("I need to escalate something for eid_7687dbe6 - who is their manager?")
    assert escalate.answer == manager.answer


@pytest.mark.herb
def test_a_document_said_to_name_its_items_and_a_pr_by_its_repository(answerer: Answerer) -> None:
    listed = answerer.ask("Which competitors are named in pprox_product_vision_document_final?")
    assert listed.outcome == "answer"
    for verb in ("name", "mention", "list"):
        got = answerer.ask(f"Which competitors does pprox_product_vision_document_final {verb}?")
        assert got.answer == listed.answer, verb
    # "<repo>/pull/<n>" scopes the question to the repository's product, so its quoted title restates it
    plain = answerer.ask("Did https://github.com/salesforce/backAIX/pull/15 ever get merged?")
    got = answerer.ask("Did backAIX/pull/15 ('Conduct Regular Security Audits') ever get merged?")
    assert got.answer == plain.answer and got.outcome == "answer"


@pytest.mark.herb
def test_a_meeting_restated_beside_its_id_with_a_person_asked_about(answerer: Answerer) -> None:
    plain = answerer.ask("Was eid_2fc784e1 at torAIX_planning_1?")
    assert plain.outcome == "answer"
    for wording in (
        "Was eid_2fc784e1 at the torAIX market research report review (torAIX_planning_1)?",
        "Was eid_2fc784e1 at torAIX_planning_1, the torAIX market research report review?",
    ):
        assert answerer.ask(wording).answer == plain.answer, wording
    # a description the meeting does not hold is no restatement
    assert answerer.ask("Was eid_2fc784e1 at torAIX_planning_1, the torAIX system design review?").outcome != "answer"


@pytest.mark.herb
def test_a_bug_reported_against_its_product_and_a_customer_s_bugs(answerer: Answerer) -> None:
    plain = answerer.ask("Which PR fixed the 'Alert Suppression Logic Failure' bug in MonitorForce?")
    got = answerer.ask("Which PR fixed the 'Alert Suppression Logic Failure' bug reported against MonitorForce?")
    assert got.answer == plain.answer
    # "reported by" a customer: the bugs it filed, not who reported a piece of release feedback
    bugs = answerer.ask("Which bugs did CUST-0015 report?")
    assert bugs.outcome == "answer"
    assert answerer.ask("Which bugs were reported by CUST-0015?").answer == bugs.answer


@pytest.mark.herb
def test_a_role_asked_of_one_person_and_the_meetings_a_person_was_in(answerer: Answerer, herb: Path) -> None:
    people = json.loads((herb / "metadata" / "employee.json").read_text(encoding="utf-8"))
    eid = next(e for e, p in people.items() if p["role"] == "QA Specialist")
    assert answerer.ask(f"Is {eid} a QA specialist?").answer == "yes"
    assert answerer.ask(f"Is {eid} a software engineer?").answer == "no"
    meeting = product_file(herb, "FlowForce")["meeting_transcripts"][0]
    listed = meeting["participants"]
    listed = listed if isinstance(listed, list) else json.loads(listed.replace("'", '"'))
    attended = answerer.ask(f"Which FlowForce meetings did {listed[0]} attend?")
    assert attended.outcome == "answer" and meeting["id"] in attended.answer
    assert answerer.ask(f"Which FlowForce meetings was {listed[0]} in?").answer == attended.answer


@pytest.mark.herb
def test_a_slip_of_a_word_the_ontology_gives_is_respelled(answerer: Answerer) -> None:
    """ "attendess", "loacted": slips of the ontology's words, read as those words, shown as respelled."""
    for typed, meant in (
        ("attendess of ghtAIX_planning_3", "attendees of ghtAIX_planning_3"),
        ("who on ForecastForce is loacted in Austin", "who on ForecastForce is located in Austin"),
    ):
        got, want = answerer.ask(typed), answerer.ask(meant)
        assert want.outcome == "answer" and (got.outcome, got.answer) == ("answer", want.answer), typed
        assert got.respelled


@pytest.mark.herb
def test_more_two_step_wordings_and_a_trailing_clause_that_asks_nothing(answerer: Answerer) -> None:
    pr = "https://github.com/salesforce/ContentForce/pull/42"
    bug = answerer.ask(f"Which bug did {pr} fix?")
    assert bug.outcome == "answer" and len(bug.answer) == 1
    company = answerer.ask(f"Which company reported the '{bug.answer[0]}' bug in ContentForce?")
    assert answerer.ask(f"which company reported the bug that {pr} fixed?").answer == company.answer
    title = "Memory Leak in AI Model Processing"
    fix = answerer.ask(f"Which PR fixed '{title}'?")
    approver = answerer.ask(f"Who approved {fix.answer[0]}?")
    assert answerer.ask(f"who approved the fix PR for '{title}'").answer == approver.answer
    fixer = answerer.ask("Who fixed 'Inconsistent API Vulnerability Reports'?")
    manager = answerer.ask(f"Who is {fixer.answer[0]}'s manager?")
    got = answerer.ask("who's the manager of whoever fixed 'Inconsistent API Vulnerability Reports'?")
    assert got.answer == manager.answer
    listed = answerer.ask("Which competitors are named in final_backaix_market_research_report?")
    tail = answerer.ask("Which competitors are named in final_backaix_market_research_report? need it for a slide")
    assert tail.answer == listed.answer
    # a last clause that can change what is asked is never set aside
    assert answerer.ask("Who attended flowAIX_planning_3? not the presenter").outcome == "uncertain"


@pytest.mark.herb
def test_a_bug_title_said_unquoted_scopes_a_question_naming_no_product(answerer: Answerer) -> None:
    scoped = answerer.ask("Who fixed the 'Suboptimal Query Parameterization' bug?")
    assert scoped.outcome == "answer"
    assert answerer.ask("who fixed Suboptimal Query Parameterization").answer == scoped.answer


@pytest.mark.herb
def test_the_asker_saying_what_they_are_busy_with_sets_the_scene(answerer: Answerer) -> None:
    plain = answerer.ask("How many SummarizeForce PRs are still open?")
    busy = answerer.ask("I'm doing release planning for SummarizeForce - how many PRs are still open?")
    assert busy.answer == plain.answer and plain.outcome == "answer"


@pytest.mark.herb
def test_another_employee_s_team_and_lead(answerer: Answerer, herb: Path) -> None:
    above = managers(herb)
    eid = next(e for e in above if above[e] in above)
    boss = above[eid]
    assert answerer.ask(f"Is {eid} on {boss}'s team?").answer == "yes"
    assert answerer.ask(f"Is {eid} on {above[boss]}'s team?").answer == "no"  # a skip level is no direct report
    assert answerer.ask(f"who is {eid}'s lead").answer == [boss]


@pytest.mark.herb
def test_a_chain_said_one_way_and_its_reports_the_other_is_uncertain(answerer: Answerer, herb: Path) -> None:
    """ "eid_…'s reporting line (direct reports)": the chain up and the reports down are two readings (was: the
    manager); "report into" is "report to"."""
    above = managers(herb)
    boss = next(b for b in set(above.values()) if b in above)
    got = answerer.ask(f"Who is in {boss}'s reporting line (direct reports)?")
    assert got.outcome == "uncertain"
    assert answerer.ask(f"Who does {boss} report into?").answer == [above[boss]]


@pytest.mark.herb
def test_a_title_several_products_hold_is_named_with_them_when_no_product_is(answerer: Answerer) -> None:
    """ "who fixed 'X'?" with an X in several products: unsupported, naming the products (was: "no intent covers
    this wording"); the two-step form says the same."""
    for wording in ("who fixed 'Insecure API Key Storage'?", "Who manages whoever fixed 'Insecure API Key Storage'?"):
        got = answerer.ask(wording)
        assert got.outcome == "unsupported" and "MonitorForce" in (got.reason or "") and "name one" in got.reason


def test_a_role_narrows_the_people_of_a_meeting_named_by_its_date(answerer: Answerer) -> None:
    """ "Which QA specialists attended the planning meeting on <date>": the participants with that role, as for
    the meeting named by its id (was: every participant, the role dropped)."""
    by_date = answerer.ask("Which QA specialists attended the PitchForce planning meeting on 2026-09-16?")
    by_id = answerer.ask("which QA specialists were at product_dev_PitchForce_4")
    assert by_date.outcome == by_id.outcome == "absent"
    leads = answerer.ask("Which engineering leads attended the PitchForce planning meeting on 2026-09-16?")
    everyone = answerer.ask("Who attended the PitchForce planning meeting on 2026-09-16?")
    assert leads.outcome == everyone.outcome == "answer"
    assert set(leads.answer) < set(everyone.answer)


def test_a_role_said_as_an_employees_own_is_read_up_the_reporting_line(answerer: Answerer) -> None:
    """ "Who is eid_…'s engineering lead" is the manager with that role, at any distance up the line; nobody
    there with the role is no proof (the words may name another relation: a product manager)."""
    lead = answerer.ask("who is eid_9307fe85's engineering lead on AutoTuneForce?")
    manager = answerer.ask("which engineering lead does eid_9307fe85 report to in AutoTuneForce?")
    assert lead.outcome == "answer" and lead.answer == manager.answer
    vp = answerer.ask("who is eid_9307fe85's VP of engineering on AutoTuneForce?")
    assert vp.outcome == "answer" and vp.answer != lead.answer
    other = answerer.ask("who is eid_9307fe85's product manager on AutoTuneForce?")
    assert other.outcome == "uncertain" and other.proof is None


def test_two_employees_said_to_have_the_same_manager(answerer: Answerer) -> None:
    """ "Do A and B have the same manager", "are A and B under the same manager": as "does A share a manager
    with B"."""
    shared = "Does eid_036b54bf share a manager with eid_e01a396c on SearchFlow?"
    for question in (
        "Do eid_036b54bf and eid_e01a396c on SearchFlow have the same manager?",
        "Are eid_036b54bf and eid_e01a396c under the same manager in SearchFlow?",
    ):
        assert answerer.ask(question).answer == answerer.ask(shared).answer == "yes", question
    assert answerer.ask("Do eid_036b54bf and eid_9e9883de have the same manager?").answer == "no"


def test_the_first_planning_meeting_is_the_earliest_product_planning_one(answerer: Answerer) -> None:
    """ "The first ContentForce planning meeting": the earliest of the product-planning meetings (not a document
    review), also when its id is said beside it."""
    first = answerer.ask("who was in the first ContentForce planning meeting?")
    by_id = answerer.ask("who was in product_dev_ContentForce_1?")
    assert first.outcome == "answer" and first.answer == by_id.answer
    count = answerer.ask(
        "How many people were in the first AutoTuneForce product planning meeting (product_dev_ATF_AIX_1)?"
    )
    assert count.outcome == "answer" and count.answer == str(
        len(answerer.ask("who was in product_dev_ATF_AIX_1?").answer)
    )


def test_when_asks_for_a_time_and_last_revised_is_the_latest_version(answerer: Answerer) -> None:
    """A "when" question is never answered with people; "when was X last revised" is the latest version's
    time."""
    created = answerer.ask("When was the SearchFlow System Design Document created?")
    assert created.outcome != "answer" or created.type not in ("person", "name")
    revised = answerer.ask("When was the SearchFlow System Design Document last revised?")
    latest = answerer.ask("When was the latest SearchFlow System Design Document created?")
    assert revised.outcome == "answer" and revised.answer == latest.answer


def test_a_role_stated_of_a_named_employee_describes_it(answerer: Answerer) -> None:
    """ "eid_… is an engineering lead on X. Who is his manager?": the role says who the employee is (as
    "engineering lead eid_…" does), it filters nothing; a role the employee does not hold is uncertain. "Is eid_…
    a QA specialist?" still asks it."""
    got = answerer.ask("Bob Davis (eid_e0273792) is an engineering lead on ExplainabilityForce. Who is his manager?")
    plain = answerer.ask("Who is the manager of eid_e0273792?")
    assert got.outcome == "answer" and got.answer == plain.answer
    wrong = answerer.ask("eid_e0273792 is a QA specialist on ExplainabilityForce. Who is his manager?")
    assert wrong.outcome == "uncertain" and wrong.proof is None
    assert answerer.ask("Is eid_e0273792 a QA specialist?").answer == "no"


def test_the_people_of_a_document_review_meeting_are_its_participants(answerer: Answerer) -> None:
    """ "Which QA specialists were in the X review meeting" asks the meeting's participants with that role, not
    the document's reviewers."""
    got = answerer.ask("Which QA specialists were in the CoachForce System Design Document review meeting?")
    reviewers = answerer.ask(
        "Find employee IDs of QA Specialists who reviewed the System Design Document for CoachForce?"
    )
    assert got.outcome == reviewers.outcome == "answer" and got.answer != reviewers.answer
    everyone = answerer.ask("Who was in the CoachForce System Design Document review meeting?")
    assert set(got.answer) < set(everyone.answer)


def test_reverts_listed_and_counted(answerer: Answerer) -> None:
    """ "Which X pull requests are reverts?" lists the revert PRs (a kind of PR), "how many … were reverts"
    counts them; "what did PR #33 revert" still reads the verb, not the kind."""
    reverts = answerer.ask("Which SummarizeForce pull requests are reverts?")
    listed = answerer.ask("List the revert PRs in SummarizeForce")
    assert reverts.outcome == listed.outcome == "answer" and sorted(reverts.answer) == sorted(listed.answer)
    counted = answerer.ask("How many SummarizeForce pull requests are reverts?")
    assert counted.outcome == "answer" and str(counted.answer) == str(len(listed.answer))
    again = answerer.ask("Which ContentForce PRs are reverts of reverts of reverts?")  # more than the kind said
    assert again.outcome != "answer"
    undone = answerer.ask("In LeadForce, what did PR #33 revert?")
    assert undone.outcome == "answer" and undone.answer == ["https://github.com/salesforce/AIX/pull/32"]


def test_acts_said_in_the_passive_or_with_a_customer_bug(answerer: Answerer) -> None:
    """ "which bugs were resolved by eid_…" reads as "which bugs did eid_… resolve"; "customer bugs" are bugs."""
    active = answerer.ask("Which bugs did eid_a94d726f resolve in ContentForce?")
    assert active.outcome == "answer"
    for question in (
        "Which ContentForce bugs were resolved by eid_a94d726f?",
        "Which ContentForce customer bugs did eid_a94d726f resolve?",
    ):
        got = answerer.ask(question)
        assert got.outcome == "answer" and sorted(got.answer) == sorted(active.answer), question


def test_a_role_joined_to_other_people_is_uncertain(answerer: Answerer) -> None:
    """ "Which engineers and QA folks report to X" asks for both kinds; the role would filter to one."""
    got = answerer.ask("Which engineers and QA folks report to eid_95f6d01c?")
    assert got.outcome == "uncertain" and "joins a role" in (got.reason or "")
    assert answerer.ask("Which QA folks report to eid_95f6d01c?").outcome == "answer"


def test_a_product_named_with_its_code_name(answerer: Answerer) -> None:
    """ "WorkFlowGenie/flowAIX": the product and its code name, one scope."""
    both = answerer.ask("Who approved the most WorkFlowGenie/flowAIX pull requests?")
    one = answerer.ask("Who approved the most WorkFlowGenie pull requests?")
    assert both.outcome == one.outcome == "answer" and both.answer == one.answer


def test_a_role_in_brackets_after_an_employee_describes_it(answerer: Answerer) -> None:
    """ "eid_… (AnomalyForce engineering lead)" says who the employee is, never a filter on the answer (its
    reports hold no engineering lead: no proof of nobody); a role it does not hold is the question's premise
    failing: uncertain."""
    said = answerer.ask("Who reports directly to eid_131494b8 (AnomalyForce engineering lead)?")
    plain = answerer.ask("Who reports directly to eid_131494b8?")
    assert said.outcome == plain.outcome == "answer" and said.answer == plain.answer
    unclosed = answerer.ask("Who reports directly to eid_131494b8 (AnomalyForce engineering lead")
    assert unclosed.outcome == "answer" and unclosed.answer == plain.answer
    wrong = answerer.ask("Who reports directly to eid_131494b8 (AnomalyForce QA specialist)?")
    assert wrong.outcome == "uncertain" and "premise" in (wrong.reason or "")
