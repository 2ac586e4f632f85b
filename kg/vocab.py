"""The ontology terms the code writes and reads, one constant each, checked against `ontology/ekg.ttl`.

Every ekg: term is made by the helper for its OWL kind (class, individual, object or datatype property), which
records the kind in `KINDS`; tests/test_vocab.py fails when ekg.ttl does not declare a term with that kind, so a
renamed or retyped ontology term breaks the build's tests, not a query at run time. Standard terms (rdf, rdfs,
xsd, dct, skos, prov) are made with `term` and need no declaration here.
"""

from __future__ import annotations

from pyoxigraph import NamedNode

from kg.namespaces import EKG, term

#: ekg: IRI -> the OWL kind ekg.ttl must declare it with ("Class", "NamedIndividual", "ObjectProperty",
#: "DatatypeProperty").
KINDS: dict[str, str] = {}


def _declared(local: str, kind: str) -> NamedNode:
    iri = NamedNode(EKG + local)
    KINDS[iri.value] = kind
    return iri


def ekg_class(local: str) -> NamedNode:
    return _declared(local, "Class")


def individual(local: str) -> NamedNode:
    return _declared(local, "NamedIndividual")


def object_property(local: str) -> NamedNode:
    return _declared(local, "ObjectProperty")


def datatype_property(local: str) -> NamedNode:
    return _declared(local, "DatatypeProperty")


# Classes.
ACCOUNT = ekg_class("Account")

# Individuals (controlled values).
CUSTOMER_ISSUE = individual("CustomerIssue")
CUSTOMER_PRAISE = individual("CustomerPraise")
DOCUMENT_AUTHORING = individual("DocumentAuthoring")
QA_ISSUE = individual("QAIssue")
QA_TESTING = individual("QATesting")

# Object properties.
ABOUT_PRODUCT = object_property("aboutProduct")
AFFECTS_COMPONENT = object_property("affectsComponent")
AFFECTS_CUSTOMER = object_property("affectsCustomer")
AGENT = object_property("agent")
ASSIGNED_TO = object_property("assignedTo")
ATTENDEE = object_property("attendee")
BUG_STATE = object_property("bugState")
CANDIDATE_REVIEWER = object_property("candidateReviewer")
CHANNEL_PURPOSE = object_property("channelPurpose")
CHANNEL_CREATOR = object_property("channelCreator")
CODE_NAME_OF = object_property("codeNameOf")
COMPETITOR_OF = object_property("competitorOf")
CONTRIBUTED_TO = object_property("contributedTo")
CONTRIBUTION_KIND = object_property("contributionKind")
CONTRIBUTION_TO = object_property("contributionTo")
CONTRIBUTOR = object_property("contributor")
CONVERSATION_IN = object_property("conversationIn")
DECISION_ON = object_property("decisionOn")
DEMO_LINK = object_property("demoLink")
DISCUSSED_IN = object_property("discussedIn")
EVENT_OF = object_property("eventOf")
FEATURE_STATUS = object_property("featureStatus")
FEEDBACK_KIND = object_property("feedbackKind")
FEEDBACK_ON = object_property("feedbackOn")
FIXED_BY = object_property("fixedBy")
IMPLEMENTED_BY = object_property("implementedBy")
INSIGHT_ON = object_property("insightOn")
IN_CONVERSATION = object_property("inConversation")
LINKS_TO = object_property("linksTo")
MENTIONS = object_property("mentions")
MENTIONS_CUSTOMER = object_property("mentionsCustomer")
PLANNED_IN = object_property("plannedIn")
PREVIOUS_RELEASE = object_property("previousRelease")
RELEASE_DOCUMENT = object_property("releaseDocument")
RENAMED_TO = object_property("renamedTo")
REPORTED_BY = object_property("reportedBy")
RESPONSIBLE = object_property("responsible")
REVERTED_BY = object_property("revertedBy")
REVIEWED_BY = object_property("reviewedBy")
REVIEWED_DOCUMENT = object_property("reviewedDocument")
SHARED_BY = object_property("sharedBy")
SHARES_LINK = object_property("sharesLink")
STATE_AFTER = object_property("stateAfter")
STATE_EVENT_OF = object_property("stateEventOf")
STATUS_REASON = object_property("statusReason")
TRIAGED_BY = object_property("triagedBy")
SUGGESTED_BY = object_property("suggestedBy")
SUGGESTION_ON = object_property("suggestionOn")
VERSION_STATUS = object_property("versionStatus")

# Datatype properties.
AMBIGUOUS_NAME = datatype_property("ambiguousName")
CHANGE_SUMMARY = datatype_property("changeSummary")
CODE_NAME = datatype_property("codeName")
DECISION_KIND = datatype_property("decisionKind")
DESCRIPTION = datatype_property("description")
EKG_URL = datatype_property("url")
EVENT_KIND = datatype_property("eventKind")
FORMER_NAME = datatype_property("formerName")
KEYWORD = datatype_property("keyword")
MENTIONS_URL = datatype_property("mentionsURL")
SEQUENCE = datatype_property("sequence")
STRENGTH = datatype_property("strength")
TEXT = datatype_property("text")
WEAKNESS = datatype_property("weakness")

# Standard vocabularies (W3C, Dublin Core, SKOS, PROV): not declared in ekg.ttl.
DCT_CREATED = term("dct:created")
DCT_IDENTIFIER = term("dct:identifier")
DCT_TITLE = term("dct:title")
WAS_ATTRIBUTED_TO = term("prov:wasAttributedTo")
WAS_DERIVED_FROM = term("prov:wasDerivedFrom")
WAS_REVISION_OF = term("prov:wasRevisionOf")
RDF_TYPE = term("rdf:type")
RDFS_LABEL = term("rdfs:label")
RDFS_SUBCLASS_OF = term("rdfs:subClassOf")
ALT_LABEL = term("skos:altLabel")
HIDDEN_LABEL = term("skos:hiddenLabel")
IN_SCHEME = term("skos:inScheme")
PREF_LABEL = term("skos:prefLabel")
XSD_ANYURI = term("xsd:anyURI")
XSD_BOOLEAN = term("xsd:boolean")
XSD_DATETIME = term("xsd:dateTime")
XSD_INTEGER = term("xsd:integer")
