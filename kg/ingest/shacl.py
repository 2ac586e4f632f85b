"""The SHACL shapes of `ontology/shapes.ttl` compiled to SPARQL, so Oxigraph validates the store in place.

pyshacl needs every graph copied into rdflib first, and decoding the store's 0.6 M terms (long message texts
among them) is most of its run. The shapes use a small core of SHACL: class targets, predicate paths,
`sh:minCount`, `sh:maxCount`, `sh:class`, `sh:datatype`, `sh:in` and a node-level `sh:or` of property shapes.
Each constraint becomes one SELECT whose solutions are its violations, so only the few offending terms are
ever decoded. Anything else in a shape is refused with a `KGError`: shapes.ttl stays the contract, and a shape
the compiler cannot translate fails loudly instead of passing silently.

The ontology plays the part of pyshacl's `ont_graph` (which pyshacl mixes into the data graph): its subclass
closure, the types it gives its individuals and the statements it makes are inlined as VALUES.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pyoxigraph import BlankNode, Literal, NamedNode, RdfFormat, Store, Triple

from kg.errors import KGError
from kg.namespaces import RDF, XSD
from kg.query.sparql import Backend, named_query
from kg.vocab import RDF_TYPE, RDFS_SUBCLASS_OF

SH = "http://www.w3.org/ns/shacl#"
FIRST, REST, NIL = NamedNode(RDF + "first"), NamedNode(RDF + "rest"), NamedNode(RDF + "nil")
#: What a statement of the shapes file can point at, and what the compiler reads statements of.
Value = NamedNode | BlankNode | Literal | Triple
Subject = NamedNode | BlankNode

#: What a node shape and a property shape may say; any other sh: term is refused.
NODE_KEYS = {"targetClass", "property", "or", "message"}
PROPERTY_KEYS = {"path", "minCount", "maxCount", "class", "datatype", "in", "message"}
#: Datatypes whose lexical space SPARQL can check by casting: a literal that does not cast is ill-typed, which
#: SHACL (and pyshacl, through rdflib) counts as a sh:datatype violation. Strings and IRIs have no such check.
CASTABLE = {XSD + t for t in ("boolean", "integer", "decimal", "double", "float", "date", "dateTime")}


@dataclass(frozen=True)
class Constraint:
    """One constraint of one shape: what it tests (`component`, `argument`) and how a violation is reported."""

    shape: str
    component: str
    path: str
    message: str
    argument: tuple[str, ...] = ()


@dataclass(frozen=True)
class NodeShape:
    iri: str
    targets: tuple[str, ...]
    constraints: tuple[Constraint, ...]
    #: A node-level sh:or: the focus fails when every member (a tuple of constraints) fails.
    alternatives: tuple[tuple[Constraint, ...], ...] = ()
    message: str = ""


@dataclass
class Ontology:
    """What the ontology adds to every data graph: subclass statements, typed individuals, other statements."""

    subclass: set[tuple[str, str]] = field(default_factory=set)
    types: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    statements: dict[str, set[tuple[str, str]]] = field(default_factory=lambda: defaultdict(set))


@dataclass(frozen=True)
class Violation:
    focus: str
    path: str
    value: str
    message: str
    shape: str
    component: str


def load_turtle(path: Path) -> Store:
    store = Store()
    try:
        store.load(path=str(path), format=RdfFormat.TURTLE)
    except (OSError, SyntaxError, ValueError) as exc:
        raise KGError(f"{path}: cannot read ({exc})") from exc
    return store


def rdf_list(store: Store, head: Value) -> list[Value]:
    items = []
    while head != NIL:
        node = subject_of(head)
        items.append(single(store, node, FIRST))
        head = single(store, node, REST)
    return items


def subject_of(term: Value) -> Subject:
    """A term the compiler reads the statements of (a shape, a list cell): an IRI or a blank node."""
    if not isinstance(term, NamedNode | BlankNode):
        raise KGError(f"shapes: {term} stands where a shape or a list is expected")
    return term


def text_of(term: Value) -> str:
    """An IRI's or a literal's text (a quoted triple has none)."""
    if isinstance(term, Triple):
        raise KGError(f"shapes: {term} stands where an IRI or a literal is expected")
    return term.value


def single(store: Store, subject: Subject, predicate: NamedNode) -> Value:
    values = [q.object for q in store.quads_for_pattern(subject, predicate, None)]
    if len(values) != 1:
        raise KGError(f"shapes: {subject} has {len(values)} values for {predicate.value}, expected one")
    return values[0]


def shacl_keys(store: Store, subject: Subject, allowed: set[str]) -> dict[str, list[Value]]:
    """The sh: statements of a shape by local name; an sh: term outside `allowed` is an unsupported feature."""
    keys: dict[str, list[Value]] = defaultdict(list)
    for quad in store.quads_for_pattern(subject, None, None):
        name = quad.predicate.value
        if name.startswith(SH):
            keys[name[len(SH) :]].append(quad.object)
    unsupported = sorted(set(keys) - allowed)
    if unsupported:
        raise KGError(
            f"shapes: {subject} uses sh:{', sh:'.join(unsupported)}, which `kg validate` cannot compile "
            "to SPARQL (run it with --engine pyshacl)"
        )
    return keys


def one_text(keys: dict[str, list[Value]], key: str, subject: Subject) -> str:
    values = keys.get(key, [])
    if len(values) > 1:
        raise KGError(f"shapes: {subject} has {len(values)} sh:{key}, expected at most one")
    return text_of(values[0]) if values else ""


def property_constraints(store: Store, shape: str, prop: Value, reported: bool = True) -> tuple[Constraint, ...]:
    """The constraints of one property shape; a `reported` one needs its sh:message (no default texts here)."""
    prop = subject_of(prop)
    keys = shacl_keys(store, prop, PROPERTY_KEYS)
    path = keys.get("path", [None])[0]
    if not isinstance(path, NamedNode) or len(keys["path"]) != 1:
        raise KGError(f"shapes: {prop} needs exactly one sh:path, an IRI (other paths are not compiled)")
    message = one_text(keys, "message", prop)
    if reported and not message:
        raise KGError(f"shapes: {prop} (sh:path {path.value}) needs a sh:message")
    out = []
    for key, component in (
        ("minCount", "MinCount"),
        ("maxCount", "MaxCount"),
        ("class", "Class"),
        ("datatype", "Datatype"),
    ):
        out += [Constraint(shape, component, path.value, message, (text_of(v),)) for v in keys.get(key, [])]
    for head in keys.get("in", []):
        out.append(Constraint(shape, "In", path.value, message, tuple(str(v) for v in rdf_list(store, head))))
    return tuple(out)


def node_shapes(path: Path) -> list[NodeShape]:
    """Every sh:NodeShape of the shapes file, compiled to constraints (refusing what SPARQL here cannot check)."""
    store = load_turtle(path)
    shapes = []
    for quad in store.quads_for_pattern(None, RDF_TYPE, NamedNode(SH + "NodeShape")):
        node = subject_of(quad.subject)
        keys = shacl_keys(store, node, NODE_KEYS)
        constraints = tuple(
            c for prop in keys.get("property", []) for c in property_constraints(store, node.value, prop)
        )
        alternatives = tuple(
            property_constraints(store, node.value, member, reported=False)
            for head in keys.get("or", [])
            for member in rdf_list(store, head)
        )
        if len(keys.get("or", [])) > 1:
            raise KGError(f"shapes: {node} has more than one sh:or")
        shapes.append(
            NodeShape(
                node.value,
                tuple(text_of(t) for t in keys.get("targetClass", [])),
                constraints,
                alternatives,
                one_text(keys, "message", node),
            )
        )
    return sorted(shapes, key=lambda s: s.iri)


def ontology_facts(path: Path) -> Ontology:
    """The ontology's statements, indexed the way the compiled queries need them."""
    onto = Ontology()
    for quad in load_turtle(path):
        s, p, o = quad.subject, quad.predicate, quad.object
        if p == RDFS_SUBCLASS_OF and isinstance(s, NamedNode) and isinstance(o, NamedNode):
            onto.subclass.add((s.value, o.value))
        elif p == RDF_TYPE and isinstance(o, NamedNode):
            onto.types[o.value].add(str(s))
        else:
            onto.statements[p.value].add((str(s), str(o)))
    return onto


def subclasses(pairs: set[tuple[str, str]]) -> dict[str, set[str]]:
    """Class -> itself and every class below it (reflexive, transitive closure of rdfs:subClassOf)."""
    below: dict[str, set[str]] = defaultdict(set)
    for sub, sup in pairs:
        below[sup].add(sub)

    def closure(cls: str) -> set[str]:
        seen, todo = {cls}, [cls]
        while todo:
            for sub in below[todo.pop()] - seen:
                seen.add(sub)
                todo.append(sub)
        return seen

    return defaultdict(set, {c: closure(c) for c in {c for pair in pairs for c in pair}})


class Compiler:
    """Writes the SPARQL of each constraint over every graph at once, for the closure and ontology given.

    A graph's data is what pyshacl is given for it: the graph itself, the organisation graph and the
    ontology; a product graph answers only for the nodes it types itself. So a pattern binds ?g to its own
    graph (`GRAPH ?g`), and a statement of the organisation graph or the ontology to the graphs that answer for
    its subject; anti-joins (`MINUS`) on organisation or ontology facts need no ?g at all. Nothing is joined
    with every graph, which would grow with products times employees.
    """

    def __init__(
        self, onto: Ontology, closure: dict[str, set[str]], graphs: list[str], org: str, every_graph: bool
    ) -> None:
        self.onto = onto
        self.closure = closure
        #: With every named graph validated, `GRAPH ?g` needs no VALUES (a join that costs a third of a query).
        self.own = "" if every_graph else f"VALUES ?g {{ {' '.join(f'<{g}>' for g in graphs)} }}"
        self.org = org
        self.org_validated = org in graphs

    def classes(self, classes: tuple[str, ...]) -> set[str]:
        return set().union(*({c} | self.closure.get(c, set()) for c in classes))

    def individuals(self, classes: tuple[str, ...]) -> str:
        """The ontology's own instances of the classes (or subclasses), as SPARQL terms."""
        found = sorted(set().union(*(self.onto.types.get(c, set()) for c in self.classes(classes))))
        if any(i.startswith("_:") for i in found):
            raise KGError("ontology: a blank node is an instance of a class the shapes use; it cannot be compiled")
        return " ".join(found)

    def statements(self, path: str) -> str:
        """The ontology's (subject object) pairs for the path, as SPARQL VALUES rows."""
        pairs = sorted(self.onto.statements.get(path, set()))
        if any(s.startswith("_:") or o.startswith("_:") for s, o in pairs):
            raise KGError(f"ontology: a blank node has <{path}>, a path the shapes use; it cannot be compiled")
        return " ".join(f"({s} {o})" for s, o in pairs)

    def in_data(self, pattern: str, ontology_values: str, subject: str) -> str:
        """`pattern` in ?g's data: its own graph; or the organisation graph or ontology, for each graph that types
        `subject` (a look-up per solution) and for the organisation graph, which answers for all its data."""
        out = f"{{ {self.own} GRAPH ?g {{ {pattern} }} }}"
        for source in [f"GRAPH <{self.org}> {{ {pattern} }}"] + ([ontology_values] if ontology_values else []):
            out += f" UNION {{ {source} GRAPH ?g {{ {subject} a ?_own }} {self.own} }}"
            if self.org_validated:
                out += f" UNION {{ {source} BIND(<{self.org}> AS ?g) }}"
        return out

    def focus_nodes(self, targets: tuple[str, ...]) -> str:
        """(?g ?focus) for each focus node of a shape with these target classes, in each graph answering for it."""
        values = " ".join(f"<{c}>" for c in sorted(self.classes(targets)))
        individuals = self.individuals(targets)
        return self.in_data(
            f"?focus a ?_t VALUES ?_t {{ {values} }}",
            f"VALUES ?focus {{ {individuals} }}" if individuals else "",
            "?focus",
        )

    def values(self, path: str) -> str:
        """(?g ?focus ?value): ?focus path ?value in ?g's data."""
        inline = self.statements(path)
        return self.in_data(
            f"?focus <{path}> ?value", f"VALUES (?focus ?value) {{ {inline} }}" if inline else "", "?focus"
        )

    def without(self, pattern: str, ontology_values: str) -> str:
        """Anti-joins removing solutions whose `pattern` holds in ?g's data: in its own graph (sharing ?g), in the
        organisation graph or in the ontology (either holds for every graph)."""
        out = f"MINUS {{ GRAPH ?g {{ {pattern} }} }} MINUS {{ GRAPH <{self.org}> {{ {pattern} }} }}"
        return out + (f" MINUS {{ {ontology_values} }}" if ontology_values else "")

    def candidates(self, c: Constraint, targets: tuple[str, ...]) -> str:
        """SPARQL whose solutions (?g ?focus, and ?value where SHACL reports one) violate `c`, before the focus
        test: value constraints look only at the values (a hash anti-join or a group count, no per-row
        subquery), so the focus nodes are enumerated only where an absence is tested."""
        n = int(c.argument[0]) if c.component in ("MinCount", "MaxCount") else 0
        focus = self.focus_nodes(targets)
        if c.component == "MinCount" and n == 1:
            inline = self.statements(c.path)
            absent = self.without(
                f"?focus <{c.path}> ?value", f"VALUES (?focus ?value) {{ {inline} }}" if inline else ""
            )
            return f"SELECT DISTINCT ?g ?focus WHERE {{ {focus} {absent} }}"
        values = self.values(c.path)
        if c.component == "MinCount":
            return (
                f"SELECT ?g ?focus WHERE {{ {focus} OPTIONAL {{ {values} }} }} "
                f"GROUP BY ?g ?focus HAVING (COUNT(DISTINCT ?value) < {n})"
            )
        if c.component == "MaxCount":
            return f"SELECT ?g ?focus WHERE {{ {values} }} GROUP BY ?g ?focus HAVING (COUNT(DISTINCT ?value) > {n})"
        if c.component == "Class":
            wanted = " ".join(f"<{k}>" for k in sorted(self.classes(c.argument)))
            individuals = self.individuals(c.argument)
            test = self.without(
                f"?value a ?_v VALUES ?_v {{ {wanted} }}", f"VALUES ?value {{ {individuals} }}" if individuals else ""
            )
        elif c.component == "Datatype":
            test = datatype_test(c.argument[0])
        else:
            test = f"FILTER(!({' || '.join(f'sameTerm(?value, {v})' for v in c.argument) or 'false'}))"
        return f"SELECT DISTINCT ?g ?focus ?value WHERE {{ {values} {test} }}"

    def focus_test(self, shape: NodeShape, pairs: set[tuple[str, str]]) -> str:
        """Which of the (graph, node) pairs are focus nodes of the shape in that graph."""
        values = " ".join(f"(<{g}> <{f}>)" for g, f in sorted(pairs))
        return (
            f"SELECT DISTINCT ?g ?focus WHERE {{ VALUES (?g ?focus) {{ {values} }} {self.focus_nodes(shape.targets)} }}"
        )


def datatype_test(datatype: str) -> str:
    """Keeps a value unless it is a literal of the datatype whose lexical form is valid for it."""
    wrong = f"!isLiteral(?value) || datatype(?value) != <{datatype}>"
    if datatype not in CASTABLE:
        return f"FILTER({wrong})"
    return f"BIND(<{datatype}>(?value) AS ?_cast) FILTER({wrong} || !BOUND(?_cast))"


#: (graph, node) pairs per focus-test query: about 110 bytes each, so a query stays near 40 KiB.
FOCUS_BATCH = 300


@dataclass
class ShapesProgram:
    """The compiled shapes plus the ontology, run against the graphs of a store."""

    shapes: list[NodeShape]
    onto: Ontology

    @classmethod
    def from_files(cls, shapes: Path, ontology: Path) -> ShapesProgram:
        return cls(node_shapes(shapes), ontology_facts(ontology))

    def compiler(self, backend: Backend, graphs: list[str], org: str) -> Compiler:
        """The data's own subclass statements join the ontology's, as in pyshacl's mixed data graph."""
        rows = backend.select(f"SELECT ?a ?b WHERE {{ GRAPH ?g {{ ?a <{RDFS_SUBCLASS_OF.value}> ?b }} }}")
        data = {
            (r["a"].value, r["b"].value)
            for r in rows
            if isinstance(r["a"], NamedNode) and isinstance(r["b"], NamedNode)
        }
        every = set(graphs) >= {r["graph"].value for r in backend.select(named_query("named_graphs").text)}
        return Compiler(self.onto, subclasses(self.onto.subclass | data), graphs, org, every)

    def violations(
        self, backend: Backend, graphs: list[str], org: str, progress: Callable[[str], None] = lambda _: None
    ) -> dict[str, list[Violation]]:
        """Violations per graph; each graph's data is itself, the organisation graph `org` and the ontology,
        and a product graph answers only for the nodes it types itself."""
        compiler = self.compiler(backend, graphs, org)
        out: dict[str, list[Violation]] = {g: [] for g in graphs}
        for shape in self.shapes:
            progress(shape.iri)
            found = [
                (c, g, f, v)
                for c in shape.constraints
                for g, f, v in solutions(backend, compiler.candidates(c, shape.targets))
            ]
            members = [
                {(g, f) for c in member for g, f, _ in solutions(backend, compiler.candidates(c, shape.targets))}
                for member in shape.alternatives
            ]
            failing = set.intersection(*members) if members else set()
            pairs = {(g, f) for _, g, f, _ in found} | failing
            focus = focus_pairs(backend, compiler, shape, pairs)
            for c, g, f, v in found:
                if (g, f) in focus:
                    out[g].append(Violation(f, c.path, v, c.message, c.shape, c.component + "ConstraintComponent"))
            for g, f in sorted(failing & focus):
                out[g].append(Violation(f, "", f, shape.message, shape.iri, "OrConstraintComponent"))
        return out


def solutions(backend: Backend, query: str) -> Iterator[tuple[str, str, str]]:
    """(graph, focus, value) of each solution; value is "" when the query has none (a count) or it is unbound."""
    for row in backend.select(query):
        yield row["g"].value, row["focus"].value, term_text(row.get("value"))


def focus_pairs(
    backend: Backend, compiler: Compiler, shape: NodeShape, pairs: set[tuple[str, str]]
) -> set[tuple[str, str]]:
    """The pairs that are focus nodes of the shape, tested `FOCUS_BATCH` at a time so each query stays under an
    endpoint's query-size limit (`kg serve` takes 64 KiB by default)."""
    ordered = sorted(pairs)
    return {
        (row["g"].value, row["focus"].value)
        for start in range(0, len(ordered), FOCUS_BATCH)
        for row in backend.select(compiler.focus_test(shape, set(ordered[start : start + FOCUS_BATCH])))
    }


def term_text(term: object) -> str:
    """How pyshacl's rows print a term: an IRI or a literal's lexical form; blank nodes by their id."""
    if isinstance(term, (NamedNode, Literal, BlankNode)):
        return term.value
    return "" if term is None else str(term)
