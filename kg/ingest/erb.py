"""ERB source records -> quads, driven by the steward-approved SSSOM rows (which field is which property) and
`mappings/erb.yaml` (how a value becomes a term: what SSSOM cannot say).

Each source's records go to their own named graph (`graph/erb-jira`, ...). A reference that names another
record of the sample (its key, path or file name) links to that record, whatever source it is in; the text of a
record links to every other record whose key it mentions (a Jira key in a Slack thread).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import getaddresses
from pathlib import Path
from urllib.parse import urlparse

import yaml
from pyoxigraph import Literal, NamedNode, RdfFormat, Store

from alignment.curation import approved_rows, read
from alignment.fields import SOURCES, Corpus, Record, load_corpus
from alignment.profile import EPOCH, normalise, unescape
from kg.errors import KGError
from kg.ingest import storepath
from kg.ingest.build import close_store, swap_in
from kg.ingest.mapping import Statement, as_list, nquads
from kg.namespaces import GRAPH, node, term
from kg.paths import resource
from kg.vocab import RDF_TYPE, RDFS_LABEL

log = logging.getLogger(__name__)

ERB_MAPPING_FILE = resource("mappings") / "erb.yaml"
XSD_DATE = term("xsd:date")
XSD_DATETIME = term("xsd:dateTime")
XSD_URI = term("xsd:anyURI")
ALT_LABEL = term("skos:altLabel")
DCT_SOURCE = term("dct:source")
DCT_IDENTIFIER = term("dct:identifier")
DCT_REFERENCES = term("dct:references")
SOURCE_SYSTEM = term("ekg:sourceSystem")
AGENT = term("prov:Agent")
ENTITY = term("prov:Entity")
DERIVED_FROM = term("prov:wasDerivedFrom")
ATTRIBUTED_TO = term("prov:wasAttributedTo")
REFERENCED = term("ekg:ReferencedItem")
RDF_STATEMENT = term("rdf:Statement")
RDF_SUBJECT = term("rdf:subject")
RDF_PREDICATE = term("rdf:predicate")
RDF_OBJECT = term("rdf:object")
#: Where the ERB nodes' IRIs start (`.../id/erb/`), left out of the names made from them.
ERB_ID = node("erb", "").value
#: A source's name as a reference may start with it ("Jira SUP-1842", "linear:ENG-4824-...")
SOURCE_WORD = re.compile(r"^(" + "|".join(s.replace("_", "[ _]?") for s in SOURCES) + r")\s*[: ]\s*", re.I)
#: A path into the export's tree ("sources/confluence/space/page.json"), as records cite each other.
EXPORT_PATH = r"(?<![\w/])(?:sources/)?(?:" + "|".join(SOURCES) + r")/[\w./-]+\.json"
TZ_WORD = re.compile(r"\s+(UTC|GMT|Z)$")


@dataclass(frozen=True)
class ValueRule:
    """How one ontology property's values are made: `literal`, `datetime`, `agent`, `reference` or `uri`."""

    kind: str
    join: bool = False


@dataclass(frozen=True)
class Kind:
    """A kind (class) some records and referenced items also have: the records of `sources`, the referenced
    items whose reference matches `references` (erb.yaml's `kinds`)."""

    cls: NamedNode
    sources: frozenset[str]
    references: re.Pattern[str]

    def of_reference(self, value: str) -> bool:
        return any(self.references.search(form) for form in reference_keys(value))


@dataclass(frozen=True)
class ErbMapping:
    """The approved field -> property rows per source, and the hand-declared value rules."""

    fields: dict[str, list[tuple[str, str]]]
    rules: dict[str, ValueRule]
    record_class: str
    subject: str
    graph: str
    links_in_text: tuple[str, ...]
    headers_of: tuple[str, ...] = ()
    headers: dict[str, str] = field(default_factory=dict)
    speaker: dict[str, object] = field(default_factory=dict)
    #: The approved mapping set every graph is derived from, and who reviewed its rows (IRIs).
    mapping_set: str = ""
    reviewers: tuple[str, ...] = ()
    kinds: tuple[Kind, ...] = ()


def graph_of(mapping: ErbMapping, source: str) -> NamedNode:
    return NamedNode(GRAPH + mapping.graph.replace("{source}", source))


def load_erb_mapping(approved: Path, rules_file: Path = ERB_MAPPING_FILE) -> ErbMapping:
    """The mapping generated from an approved SSSOM file; KGError when the file is not one or approves nothing
    this build can ingest (a property without a value rule is refused, naming it)."""
    try:
        msdf = read(approved)
    except ValueError as exc:
        raise KGError(str(exc)) from exc
    rows = approved_rows(msdf.df)
    reviewers = tuple(sorted({msdf.converter.expand(r) or r for r in rows.get("reviewer_id", []) if r}))
    spec = yaml.safe_load(rules_file.read_text(encoding="utf-8"))
    rules = {p: ValueRule(r["as"], r.get("join") == "text") for p, r in spec["properties"].items()}
    fields: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for subject, prop in zip(rows["subject_id"], rows["object_id"], strict=True):
        if prop not in rules:
            raise KGError(
                f"{approved}: approved row {subject} -> {prop}: {rules_file.name} has no value rule for {prop}"
            )
        source, _, name = subject.partition(":")
        fields[source].append((name, prop))
    if not fields:
        raise KGError(
            f"{approved}: no approved row to an ontology property (review the file with `kg align review` first)"
        )
    record = spec["record"]
    mail = dict(spec.get("mail_headers") or {})
    return ErbMapping(
        dict(fields),
        rules,
        record["class"],
        record["subject"],
        record["graph"],
        tuple(spec["links_in_text"]),
        tuple(mail.pop("of", ())),
        {name.lower(): prop for name, prop in mail.items()},
        dict(spec.get("first_speaker") or {}),
        str(msdf.metadata.get("mapping_set_id", "")),
        reviewers,
        tuple(
            Kind(term(cls), frozenset(k.get("sources", ())), re.compile(k.get("references", "(?!)")))
            for cls, k in (spec.get("kinds") or {}).items()
        ),
    )


def record_node(mapping: ErbMapping, source: str, rec: Record) -> NamedNode:
    return node(
        "erb", mapping.subject.removeprefix("erb/").replace("{source}", source).replace("{name}", rec.file.stem)
    )


def temporal(value: str) -> Literal | None:
    """A date or time in the export's forms as xsd:date / xsd:dateTime (UTC); None when it is neither."""
    text = TZ_WORD.sub("", value.strip())
    if EPOCH.match(text):
        return Literal(datetime.fromtimestamp(float(text), tz=UTC).isoformat(), datatype=XSD_DATETIME)
    try:
        parsed = datetime.fromisoformat(text.replace(" ", "T", 1))
    except ValueError:
        return None
    if len(text) <= 10:
        return Literal(parsed.date().isoformat(), datatype=XSD_DATE)
    stamp = parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return Literal(stamp.astimezone(UTC).isoformat(), datatype=XSD_DATETIME)


def export_id(file: Path) -> str | None:
    """The export's own record id (`dataset_doc_uuid`), which a record exported twice shares."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    uuid = data.get("dataset_doc_uuid") if isinstance(data, dict) else None
    return uuid if isinstance(uuid, str) else None


def reference_keys(text: str) -> list[str]:
    """The forms a reference may name a record by: as written, without a leading source name, as a path into
    the export's tree (no `sources/`, no `.json`), a URL's path; all lower case."""
    raw = unescape(text).strip().lower().rstrip("/")
    path = raw.removeprefix("sources/").removesuffix(".json")  # a path into the export's tree
    forms = [raw, SOURCE_WORD.sub("", raw), path]
    if raw.startswith(("http://", "https://")):
        forms.append(urlparse(raw).path.strip("/"))
    return [f for f in dict.fromkeys(forms) if f]


@dataclass
class RecordIndex:
    """Every record of the sample by the keys a reference may use: its identifier values, its original path
    (and the path's tails of two segments or more), its file name."""

    keys: dict[str, set[NamedNode]] = field(default_factory=lambda: defaultdict(set))
    ids: dict[str, NamedNode] = field(default_factory=dict)

    def add(self, target: NamedNode, source: str, rec: Record, identifiers: list[str]) -> None:
        path = rec.file.stem.replace("__", "/")
        parts = path.split("/")
        tails = ["/".join(parts[i:]) for i in range(len(parts) - 1)]
        for key in [*identifiers, rec.file.stem, parts[-1], f"{source}/{path}", *tails]:
            self.keys[key.lower()].add(target)
        for key in identifiers:
            self.ids[key] = target

    def find(self, text: str) -> NamedNode | None:
        """The one record a reference names (exactly, or as a key followed by a slug), else None."""
        for form in reference_keys(text):
            hits = self.keys.get(form, set())
            if not hits and (m := re.match(r"^([a-z]+-\d+)-", form)):
                hits = self.keys.get(m.group(1), set())
            if len(hits) == 1:
                return next(iter(hits))
        return None

    def mentions(self, shapes: set[str]) -> re.Pattern[str] | None:
        """What a text can name another record or resource by: URLs, the records' identifiers that hold a
        letter and a digit (issue keys, meeting ids), and any key of a shape the approved id and reference
        fields hold (`SUP-1842` -> upper-case letters, hyphen, digits), as whole words."""
        keys = [k for k in self.ids if re.search(r"\d", k) and re.search(r"[A-Za-z]", k) and len(k) >= 4]
        words = [re.escape(k) for k in sorted(keys, key=len, reverse=True)] + sorted(shapes)
        return re.compile(
            r"https?://[^\s<>()\"'\]]+|" + EXPORT_PATH + r"|(?<![\w/-])(?:" + "|".join(words) + r")(?![\w-])"
        )


#: Key shapes a text may name a record or resource by (two or more upper-case letters, a hyphen, digits: the
#: issue keys of every tracker in the sample); one is looked for only when approved id or reference fields hold it.
KEY_SHAPES = (r"[A-Z]{2,}-\d+",)


def key_shapes(corpus: Corpus, mapping: ErbMapping) -> set[str]:
    """The key shapes (KEY_SHAPES) the approved identifier and reference fields' values have: which keys a
    text is searched for is read from the data, not written per tracker."""
    props = {"dct:identifier", "dct:references"}
    values = [
        SOURCE_WORD.sub("", v.strip())
        for source, records in corpus.records.items()
        for rec in records
        for n, p in mapping.fields.get(source, [])
        if p in props
        for v in rec.values.get(n, [])
    ]
    return {shape for shape in KEY_SHAPES if any(re.fullmatch(shape, v) for v in values)}


def agent_statements(subject: NamedNode, prop: NamedNode, text: str) -> list[Statement]:
    """The agent a value names (one node per normalised name), typed, labelled as written, derived from the
    record that names it (its provenance, as a HERB rule's derived node has), and the edge to it."""
    written = Literal(unescape(text).strip())
    found = node("erb/agent", normalise(text).replace(" ", "_"))
    return [
        Statement(found, RDF_TYPE, AGENT),
        Statement(found, RDFS_LABEL, written),
        Statement(found, DERIVED_FROM, subject),
        Statement(subject, prop, found),
    ]


@dataclass
class ErbGraphs:
    """One build's statements by named graph, and the counts the command reports."""

    graphs: dict[NamedNode, list[Statement]] = field(default_factory=lambda: defaultdict(list))
    records: int = 0


def values_of(rec: Record, name: str, rule: ValueRule) -> list[str]:
    """A field's values: a list joined into one text where the rule says so, else one per item (a string
    holding a list literal read as that list)."""
    values = rec.values.get(name, [])
    if rule.join:
        return ["\n\n".join(unescape(v) for v in values)] if values else []
    return [str(item) for v in values for item in as_list(v) if str(item).strip()]


def map_erb(erb: Path, mapping: ErbMapping, sources: list[str] | None = None) -> tuple[ErbGraphs, list[str]]:
    """Every record of the approved sources as statements in its source's graph, and the loader's warnings."""
    corpus = load_corpus(erb, sources or sorted(mapping.fields))
    out = ErbGraphs()
    index = RecordIndex()
    nodes = {}
    for source, records in corpus.records.items():
        id_fields = [n for n, p in mapping.fields.get(source, []) if p == "dct:identifier"]
        for rec in records:
            target = record_node(mapping, source, rec)
            nodes[(source, rec.file)] = target
            index.add(target, source, rec, [v for n in id_fields for v in rec.values.get(n, [])])
    pattern = index.mentions(key_shapes(corpus, mapping))
    for source, records in corpus.records.items():
        graph = out.graphs[graph_of(mapping, source)]
        graph.extend(graph_provenance(mapping, graph_of(mapping, source)))
        for rec in records:
            out.records += 1
            graph.extend(record_statements(mapping, source, rec, nodes[(source, rec.file)], index, pattern, erb))
    return out, corpus.warnings


def graph_provenance(mapping: ErbMapping, graph: NamedNode) -> list[Statement]:
    """What every edge of a source's graph rests on, said in the graph itself: the approved mapping set its
    edges were mapped through and the stewards who reviewed its rows (each record keeps its export file)."""
    out = [Statement(graph, RDF_TYPE, ENTITY)]
    if mapping.mapping_set:
        out.append(Statement(graph, DERIVED_FROM, NamedNode(mapping.mapping_set)))
    for reviewer in mapping.reviewers:
        out += [Statement(graph, ATTRIBUTED_TO, NamedNode(reviewer)), Statement(NamedNode(reviewer), RDF_TYPE, AGENT)]
    return out


def record_statements(
    mapping: ErbMapping,
    source: str,
    rec: Record,
    subject: NamedNode,
    index: RecordIndex,
    pattern: re.Pattern[str] | None,
    erb: Path,
) -> list[Statement]:
    """One record: its class, source system and export file, every approved field's values, its links."""
    out = [
        Statement(subject, RDF_TYPE, term(mapping.record_class)),
        Statement(subject, SOURCE_SYSTEM, Literal(source)),
        Statement(subject, DCT_SOURCE, Literal(f"{source}/{rec.file.name}")),
    ]
    out += [Statement(subject, RDF_TYPE, k.cls) for k in mapping.kinds if source in k.sources]
    if uuid := export_id(rec.file):
        out.append(Statement(subject, DCT_IDENTIFIER, Literal(uuid)))
    texts: dict[str, list[str]] = defaultdict(list)
    for name, prop in mapping.fields.get(source, []):
        rule = mapping.rules[prop]
        for value in values_of(rec, name, rule):
            out.extend(value_statements(subject, term(prop), rule, value, index, mapping.kinds))
            texts[prop].append(value)
            if prop == "dct:title":
                out.append(Statement(subject, RDFS_LABEL, Literal(value)))
    out.extend(header_statements(mapping, source, rec, subject))
    out.extend(speaker_statements(mapping, subject, out, texts))
    own = rec.file.stem.lower()
    linking = [t for p in mapping.links_in_text for t in texts.get(p, [])]
    for mention in sorted({m.group(0) for t in linking for m in pattern.finditer(t)} if pattern else set()):
        if mention.lower() in own:  # the record's own key, as its title or file name writes it
            continue
        linked = index.find(mention)
        if linked is None:
            out.extend(reference_statements(subject, DCT_REFERENCES, mention.rstrip(".,;:)"), mapping.kinds))
        elif linked != subject:
            out.append(Statement(subject, DCT_REFERENCES, linked))
            kinds = [Statement(linked, RDF_TYPE, k.cls) for k in mapping.kinds if k.of_reference(mention)]
            out += [t for one in kinds for t in said_by(subject, one)]
    return list(dict.fromkeys(out))


def reference_statements(
    subject: NamedNode, prop: NamedNode, value: str, kinds: tuple[Kind, ...] = ()
) -> list[Statement]:
    """A referenced item that is not a record of the sample: labelled as written, with the key it names (the
    reference without a leading source name, "Jira SUP-1842" -> "SUP-1842") as an alternative label, and the
    kinds its form names (a pull request's link)."""
    written = unescape(value).strip()
    ref = node("erb/ref", " ".join(reference_keys(value)[0].split()))
    out = [
        Statement(ref, RDF_TYPE, REFERENCED),
        Statement(ref, RDFS_LABEL, Literal(written)),
        Statement(ref, DERIVED_FROM, subject),
        Statement(subject, prop, ref),
        *(Statement(ref, RDF_TYPE, k.cls) for k in kinds if k.of_reference(value)),
    ]
    if (key := SOURCE_WORD.sub("", written)) != written and key:
        out.append(Statement(ref, ALT_LABEL, Literal(key)))
    return out


def said_by(record: NamedNode, statement: Statement) -> list[Statement]:
    """A statement one record makes about another (its name as this record writes it, so a reference is found by
    it; the kind that name shows, a pull request's path), with its provenance: its subject is the other record,
    so the statement itself is reified (an rdf:Statement) and that is prov:wasDerivedFrom the record that made it."""
    target, predicate, value = statement
    key = "\n".join(t.value for t in (target, predicate, value))
    said = node("erb/said", f"{record.value.removeprefix(ERB_ID)}/{hashlib.sha1(key.encode()).hexdigest()[:16]}")
    return [
        statement,
        Statement(said, RDF_TYPE, RDF_STATEMENT),
        Statement(said, RDF_SUBJECT, target),
        Statement(said, RDF_PREDICATE, predicate),
        Statement(said, RDF_OBJECT, value),
        Statement(said, DERIVED_FROM, record),
    ]


def header_statements(mapping: ErbMapping, source: str, rec: Record, subject: NamedNode) -> list[Statement]:
    """Who wrote a thread's first message and to whom, from the header lines its text opens with (only where
    the text has them; a field the steward approved for the same property is read as well)."""
    first = next(
        (rec.values[n][0] for n, p in mapping.fields.get(source, []) if p in mapping.headers_of and rec.values.get(n)),
        None,
    )
    out: list[Statement] = []
    for line in unescape(first or "").lstrip().splitlines():
        if not line.strip():
            break
        name, sep, value = line.partition(":")
        prop = mapping.headers.get(name.strip().lower()) if sep else None
        if prop is None:
            continue
        for real, address in getaddresses([value]):
            written = f"{real} <{address}>" if real and address else (real or address)
            if written:
                out.extend(agent_statements(subject, term(prop), written))
    return out


def speaker_statements(
    mapping: ErbMapping, subject: NamedNode, stated: list[Statement], texts: dict[str, list[str]]
) -> list[Statement]:
    """The first speaker of a chat transcript as its author (`first_speaker` in erb.yaml), only where nothing
    else names one and the speaker is an agent the record lists."""
    rule = mapping.speaker
    first = next((texts[p][0] for p in rule.get("of", []) if texts.get(p)), None)  # type: ignore[attr-defined]
    if not rule or first is None:
        return []
    gives, among = term(str(rule["gives"])), term(str(rule["among"]))
    if any(s.subject == subject and s.predicate == gives for s in stated):
        return []
    listed = {s.object for s in stated if s.subject == subject and s.predicate == among}
    speaker, sep, _ = unescape(first).lstrip().partition(":")
    if not sep or "\n" in speaker or len(speaker) > 60:
        return []
    found = node("erb/agent", normalise(speaker).replace(" ", "_"))
    return agent_statements(subject, gives, speaker.strip()) if found in listed else []


def value_statements(
    subject: NamedNode, prop: NamedNode, rule: ValueRule, value: str, index: RecordIndex, kinds: tuple[Kind, ...] = ()
) -> list[Statement]:
    """The statements one value yields under its property's rule."""
    if rule.kind == "agent":
        return agent_statements(subject, prop, value)
    if rule.kind == "reference":
        linked = index.find(value)
        if linked is not None:
            said = [Statement(linked, ALT_LABEL, Literal(value.strip()))]
            said += [Statement(linked, RDF_TYPE, k.cls) for k in kinds if k.of_reference(value)]
            return [Statement(subject, prop, linked), *(t for one in said for t in said_by(subject, one))]
        return reference_statements(subject, prop, value, kinds)
    if rule.kind == "datetime":
        when = temporal(value)
        return [Statement(subject, prop, when if when is not None else Literal(value))]
    if rule.kind == "uri":
        return [Statement(subject, prop, Literal(value.strip(), datatype=XSD_URI))]
    return [Statement(subject, prop, Literal(unescape(value)))]


@dataclass
class ErbReport:
    graphs: list[str] = field(default_factory=list)
    records: int = 0
    quads: int = 0
    seconds: float = 0.0


def build_erb(erb: Path, approved: Path, store_path: Path) -> ErbReport:
    """Map the ERB records through the approved mapping and put their graphs into the store at `store_path`:
    beside what it holds (a HERB build), replacing only earlier ERB graphs. Built in a copy and swapped in, as
    `kg build` does, so a failed build leaves the store as it was."""
    started = time.perf_counter()
    mapping = load_erb_mapping(approved)
    mapped, warnings = map_erb(erb, mapping)
    for message in warnings:
        log.warning(message)
    storepath.check_target(store_path)
    storepath.prepare_parent(store_path)
    with storepath.build_lock(store_path):
        storepath.recover_and_clean(store_path)
        tmp = store_path.with_name(f".{store_path.name}.building-{os.getpid()}")
        try:
            store = open_copy(tmp, store_path if store_path.exists() else None)
            for graph, statements in mapped.graphs.items():
                store.bulk_load(nquads(statements, graph), RdfFormat.N_QUADS, lenient=True)
            quads = len(store)
            store.optimize()
            close_store(store)
            swap_in(tmp, store_path)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return ErbReport(
        sorted(g.value.removeprefix(GRAPH) for g in mapped.graphs), mapped.records, quads, time.perf_counter() - started
    )


def open_copy(tmp: Path, base: Path | None) -> Store:
    """A marked copy of the store without any ERB graph (or a fresh one), to load the new ERB graphs into."""
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        if base is not None and any(base.iterdir()):
            shutil.copytree(base, tmp)
        store = Store(str(tmp))
        for graph in list(store.named_graphs()):
            if isinstance(graph, NamedNode) and graph.value.startswith(GRAPH + "erb-"):
                store.remove_graph(graph)
        storepath.write_marker(tmp)
    except OSError as exc:
        raise KGError(f"cannot write the new store beside {base or tmp.parent} ({exc})") from exc
    return store
