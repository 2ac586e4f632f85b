"""SHACL shapes on fixtures: the hand-written sample conforms, and each broken variant fails on the shape
that guards the broken statement."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import RDF, Dataset, Graph, Literal, URIRef

from kg.ingest.validate import ResultRow, result_rows, shacl_results

SAMPLE = Path(__file__).resolve().parent / "fixtures" / "ekg_sample.trig"
EKG = "https://w3id.org/ekg/ont#"
ID = "https://w3id.org/ekg/id/"
PROV = "http://www.w3.org/ns/prov#"
DCT = "http://purl.org/dc/terms/"
FOAF = "http://xmlns.com/foaf/0.1/"
XSD_DATETIME = URIRef("http://www.w3.org/2001/XMLSchema#dateTime")

MSG = URIRef(ID + "artifact/20260101-0-aaaaa")
DOC = URIRef(ID + "artifact/demo_spec")
PR = URIRef(ID + "artifact/github_com_acme_demo_pull_7")
BUG = URIRef(ID + "bug/Demo/slow-sync")
EVENT = URIRef(ID + "bugevent/Demo/slow-sync/reported")
SUGGESTION = URIRef(ID + "suggestion/Demo/1")
FEATURE = URIRef(ID + "feature/Demo/offline-mode")
COMPETITOR = URIRef(ID + "competitor/Demo/Rival")
CONVERSATION = URIRef(ID + "conversation/Demo/20260101-0-aaaaa")
EMPLOYEE = URIRef(ID + "person/eid_00000002")
CUSTOMER = URIRef(ID + "customer/CUST-0001")
REVIEW = URIRef(ID + "review/github_com_acme_demo_pull_7/0")
DECISION = URIRef(ID + "decision/Demo/7-reverted")


def ekg(local: str) -> URIRef:
    return URIRef(EKG + local)


def sample() -> Graph:
    """The fixture's product and organisation graphs as one graph, as `kg validate` reads them."""
    g = Graph()
    for s, p, o, _ in Dataset().parse(SAMPLE, format="trig").quads():
        g.add((s, p, o))
    return g


def violations(g: Graph) -> list[ResultRow]:
    return [r for r in result_rows("Demo", shacl_results(g)) if r.severity == "Violation"]


def test_sample_conforms() -> None:
    assert violations(sample()) == []


def drop(node: URIRef, prop: str):
    return lambda g: g.remove((node, URIRef(prop), None))


def put(node: URIRef, prop: str, value):
    return lambda g: g.set((node, URIRef(prop), value))


def add(node: URIRef, prop: str, value):
    return lambda g: g.add((node, URIRef(prop), value))


# (what is broken, the mutation, the focus node and path the violation must name, a phrase of its message)
BROKEN = [
    ("artifact without HERB id", drop(MSG, DCT + "identifier"), MSG, DCT + "identifier", "exactly one dct:identifier"),
    (
        "artifact with two ids",
        add(DOC, DCT + "identifier", Literal("other")),
        DOC,
        DCT + "identifier",
        "exactly one dct:identifier",
    ),
    (
        "HERB id not a string",
        put(PR, DCT + "identifier", Literal(7)),
        PR,
        DCT + "identifier",
        "exactly one dct:identifier",
    ),
    (
        "timestamp not a dateTime",
        put(MSG, DCT + "created", Literal("yesterday", datatype=XSD_DATETIME)),
        MSG,
        DCT + "created",
        "valid xsd:dateTime",
    ),
    ("message without channel", drop(MSG, EKG + "inChannel"), MSG, EKG + "inChannel", "exactly one ekg:SlackChannel"),
    (
        "message without sender",
        drop(MSG, PROV + "wasAttributedTo"),
        MSG,
        PROV + "wasAttributedTo",
        "exactly one sender",
    ),
    (
        "message by an unknown eid",
        put(MSG, PROV + "wasAttributedTo", URIRef(ID + "person/eid_99999999")),
        MSG,
        PROV + "wasAttributedTo",
        "known agent",
    ),
    (
        "mention of an unknown eid",
        add(MSG, EKG + "mentions", URIRef(ID + "person/eid_99999999")),
        MSG,
        EKG + "mentions",
        "known employee",
    ),
    ("document without kind", drop(DOC, EKG + "documentKind"), DOC, EKG + "documentKind", "ekg:documentKind"),
    ("document without version", drop(DOC, EKG + "versionStatus"), DOC, EKG + "versionStatus", "ekg:versionStatus"),
    ("pull request without url", drop(PR, EKG + "url"), PR, EKG + "url", "exactly one ekg:url"),
    ("pull request without repository", drop(PR, EKG + "inRepository"), PR, EKG + "inRepository", "ekg:Repository"),
    (
        "pull request in an odd state",
        put(PR, EKG + "prState", Literal("merged")),
        PR,
        EKG + "prState",
        '"open" or "closed"',
    ),
    ("review without state", drop(REVIEW, EKG + "reviewState"), REVIEW, EKG + "reviewState", "ekg:reviewState"),
    ("bug without title", drop(BUG, DCT + "title"), BUG, DCT + "title", "dct:title"),
    (
        "bug without provenance",
        drop(BUG, PROV + "wasDerivedFrom"),
        BUG,
        PROV + "wasDerivedFrom",
        "prov:wasDerivedFrom at least one",
    ),
    (
        "bug derived from no artifact",
        put(BUG, PROV + "wasDerivedFrom", URIRef(ID + "artifact/missing")),
        BUG,
        PROV + "wasDerivedFrom",
        "artifact that exists",
    ),
    (
        "bug in a document's state",
        put(BUG, EKG + "bugState", ekg("Draft")),
        BUG,
        EKG + "bugState",
        "Open, Resolved, Reopened, NoFixNeeded",
    ),
    ("bug assigned to a customer", put(BUG, EKG + "assignedTo", CUSTOMER), BUG, EKG + "assignedTo", "known employee"),
    ("bug event of no bug", drop(EVENT, EKG + "eventOf"), EVENT, EKG + "eventOf", "exactly one bug"),
    ("state event without a state", drop(EVENT, EKG + "stateAfter"), EVENT, EKG + "stateAfter", "exactly one state"),
    ("state event without a time", drop(EVENT, DCT + "created"), EVENT, DCT + "created", "exactly one time"),
    (
        "state event without its place",
        drop(EVENT, EKG + "sequence"),
        EVENT,
        EKG + "sequence",
        "exactly one ekg:sequence",
    ),
    (
        "bug event without provenance",
        drop(EVENT, PROV + "wasDerivedFrom"),
        EVENT,
        PROV + "wasDerivedFrom",
        "prov:wasDerivedFrom at least one",
    ),
    (
        "suggestion on no document",
        drop(SUGGESTION, EKG + "suggestionOn"),
        SUGGESTION,
        EKG + "suggestionOn",
        "exactly one document",
    ),
    ("suggestion without text", drop(SUGGESTION, EKG + "text"), SUGGESTION, EKG + "text", "its text"),
    (
        "suggestion without provenance",
        drop(SUGGESTION, PROV + "wasDerivedFrom"),
        SUGGESTION,
        PROV + "wasDerivedFrom",
        "prov:wasDerivedFrom at least one",
    ),
    (
        "feature without provenance",
        drop(FEATURE, PROV + "wasDerivedFrom"),
        FEATURE,
        PROV + "wasDerivedFrom",
        "prov:wasDerivedFrom at least one",
    ),
    (
        "competitor without provenance",
        drop(COMPETITOR, PROV + "wasDerivedFrom"),
        COMPETITOR,
        PROV + "wasDerivedFrom",
        "prov:wasDerivedFrom at least one",
    ),
    (
        "conversation without provenance",
        drop(CONVERSATION, PROV + "wasDerivedFrom"),
        CONVERSATION,
        PROV + "wasDerivedFrom",
        "prov:wasDerivedFrom at least one",
    ),
    (
        "decision of an unknown kind",
        put(DECISION, EKG + "decisionKind", Literal("maybe")),
        DECISION,
        EKG + "decisionKind",
        "ekg:decisionKind is one of",
    ),
    ("employee without name", drop(EMPLOYEE, FOAF + "name"), EMPLOYEE, FOAF + "name", "foaf:name"),
    ("employee without role", drop(EMPLOYEE, EKG + "hasRole"), EMPLOYEE, EKG + "hasRole", "ekg:hasRole"),
    (
        "customer working for a product",
        put(CUSTOMER, EKG + "worksFor", URIRef(ID + "product/Demo")),
        CUSTOMER,
        EKG + "worksFor",
        "ekg:Company",
    ),
]


@pytest.mark.parametrize(("mutate", "focus", "path", "phrase"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_broken_sample_fails_on_the_guarding_shape(mutate, focus: URIRef, path: str, phrase: str) -> None:
    g = sample()
    mutate(g)
    found = violations(g)
    assert found, "the broken sample conforms"
    assert all(r.focus == str(focus) and r.path == path for r in found), found
    assert any(phrase in r.message for r in found), [r.message for r in found]


def test_an_account_is_an_agent_but_no_employee() -> None:
    """sh:class sees types through the ontology's subclasses: an Account is a prov:Agent (so it may author
    a PR) but not an ekg:Employee (so it may not be mentioned as one)."""
    g = sample()
    account = URIRef(ID + "account/octocat")
    assert (account, RDF.type, ekg("Account")) in g
    g.add((MSG, ekg("mentions"), account))
    assert [(r.focus, r.value) for r in violations(g)] == [(str(MSG), str(account))]
