"""What each MCP tool returns, as plain functions of the caller's `Reader`: no MCP types here (kg/mcp/server.py
registers them). Every function is read-only and runs in the caller's products; a bad argument, a product the
caller does not read or a failing backend raises KGError (the server turns it into a tool error, never into an
abstention). Only `ask` and `run_intent` abstain, and only on an ASK proof of absence or a question no intent covers.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import anyio
from pyoxigraph import NamedNode, QueryBoolean, QueryResultsFormat, QuerySolutions, RdfFormat, serialize

from kg.endpoint.engine import Job, Reply
from kg.endpoint.policy import HttpError, check_query, dataset_for, mentions_service
from kg.errors import KGError
from kg.mcp.service import Reader, Service
from kg.mcp.slots import EID, bindings_of, intent_slots
from kg.namespaces import ORG_GRAPH, node, product_graph
from kg.page.views import artifact_view
from kg.qa.intents import Intent, table
from kg.qa.question import Question
from kg.query.sparql import named_query, prefixed, product_dataset

#: How many employee ids one `people` call takes.
MAX_EIDS = 100
#: The most hits one `search` call returns.
MAX_HITS = 50
#: What client SPARQL is asked for: SPARQL JSON results, or N-Triples for CONSTRUCT / DESCRIBE.
ACCEPT = "application/sparql-results+json, application/n-triples"


def ask(reader: Reader, question: str) -> dict[str, Any]:
    """`kg ask --json`'s object for the question; a question about a product or source record (ERB) the caller
    does not read, or, with a grant, naming neither, is refused before anything runs (as the answer page
    refuses it). "Every product" of a question across products is the caller's."""
    parsed = reader.answerer.scoped(reader.answerer.read(question), reader.graphs)
    if parsed.product is not None:
        reader.check_product(parsed.product)
    elif parsed.across is not None:  # each product it names must be the caller's; "every product" is theirs
        for product in parsed.across.products if parsed.across.named else ():
            reader.check_product(product)
        parsed = replace(parsed, across=parsed.across.within(reader.products))
    elif reader.graphs is not None:
        raise KGError("the question names no product or record this token reads")
    return reader.answerer.answer_parsed(parsed).to_json()


def intents(reader: Reader) -> dict[str, list[dict[str, Any]]]:
    """Every intent `run_intent` runs: its canonical wording, answer type and slots with their allowed values."""
    vocabulary = reader.answerer.vocabulary
    return {
        "intents": [
            {
                "intent": i.name,
                "answers": i.answer_type,
                "question": i.says,
                "slots": [
                    {"name": "product", "required": True, "says": "the product", "values": reader.products},
                    *(s.to_json(vocabulary) for s in intent_slots(i)),
                ],
            }
            for i in table()[1]
        ]
    }


def run_intent(reader: Reader, intent: str, slots: dict[str, str]) -> dict[str, Any]:
    """The intent's answer with citations, or its abstention with the ASK proof, as `ask` gives them."""
    row = intent_named(intent)
    given = dict(slots)
    product = given.pop("product", None)
    if not isinstance(product, str):
        raise KGError(f"intent {row.name} needs the slot product (one of the products this token reads)")
    reader.check_product(product)
    answerer = reader.answerer
    bindings = bindings_of(row, given, answerer.vocabulary, answerer.labels(product))
    if "eid" in given and people(reader, [given["eid"]])["unknown"]:  # the one slot no vocabulary lists
        raise KGError(f"slot eid: no employee {given['eid']!r} in the organisation graph")
    text = f"{row.name} {json.dumps(slots, ensure_ascii=False, sort_keys=True)}"
    question = Question(text=text, norm=text, sing=text, product=product)
    return answerer.answer_intent(question, row, bindings).to_json()


def intent_named(name: str) -> Intent:
    rows = {i.name: i for i in table()[1]}
    if name not in rows:
        raise KGError(f"no intent named {name!r}; `intents` lists them ({len(rows)})")
    return rows[name]


async def query(service: Service, reader: Reader, sparql: str, product: str | None) -> dict[str, Any]:
    """A client query's results (SPARQL JSON, or N-Triples text for a graph), read-only, in the caller's products
    (one of them with `product`), under `kg serve`'s checks, dataset rule and limits, in the caller's turn at the
    workers and within the tool's budget of result bytes (kg/mcp/service.py)."""
    if not isinstance(sparql, str) or not sparql.strip():
        raise KGError("the query is empty")
    if product is not None:
        reader.check_product(product)
    if reader.remote:
        return await anyio.to_thread.run_sync(remote_query, reader, sparql, product)
    shares = service.shares
    assert shares is not None
    text = prefixed(sparql)  # what is checked is what runs: the text with the project's prefixes
    graphs = [product_graph(product).value, ORG_GRAPH] if product else []
    party = reader.name if service.grants is not None else None
    try:
        check_query(text, service.settings.limits, service_by_text=shares.pool.isolation_problem is not None)
        job = Job(ACCEPT, query=text, dataset=dataset_for(reader.grant, graphs, graphs))
        async with shares.run(job, party) as reply:
            return query_result(reply, text)
    except HttpError as exc:
        raise KGError(exc.message) from exc


def query_result(reply: Reply, text: str) -> dict[str, Any]:
    """The tool's result from the worker's reply, or a KGError saying why there is none."""
    if reply.status == 500 and mentions_service(text):
        raise KGError("SERVICE (federated query) is disabled: the engine has no network")
    body = reply.body.decode("utf-8", "replace")
    if reply.status != 200:
        raise KGError(f"query refused ({reply.status}): {body.strip()}")
    if reply.content_type.startswith("application/n-triples"):
        return {"graph": body}
    return json.loads(body)


def remote_query(reader: Reader, sparql: str, product: str | None) -> dict[str, Any]:
    """The same on an endpoint: it applies its own checks and limits to the caller's token."""
    result = reader.answerer.backend.run(sparql, None, product_dataset(product))
    if isinstance(result, QueryBoolean | QuerySolutions):
        return json.loads(result.serialize(format=QueryResultsFormat.JSON) or b"{}")
    return {"graph": (serialize(result, format=RdfFormat.N_TRIPLES) or b"").decode()}


def search(
    reader: Reader,
    store: Path,
    text: str,
    product: str | None,
    kind: str | None,
    since: str | None,
    until: str | None,
    k: int,
) -> dict[str, Any]:
    """Ranked evidence (HERB ids with snippets) in the caller's products, as `kg search --json` ranks it."""
    from kg.search.searcher import Facets, Searcher

    if not 1 <= k <= MAX_HITS:
        raise KGError(f"k must be between 1 and {MAX_HITS}")
    if product is not None:
        reader.check_product(product)
    if reader.searcher is None:
        backend = reader.answerer.backend if reader.remote else None
        reader.searcher = Searcher(store, backend=backend)
    facets = Facets(kind=kind, since=since, until=until)
    result = reader.searcher.search(text, product=product, facets=facets, k=k, within=reader.products)
    return {
        "products": result.products,
        "facets": result.facets,
        "notes": result.notes,
        "hits": [
            {"id": h.id, "product": h.product, "kind": h.kind, "score": h.score, "text": h.snippet} for h in result.hits
        ],
    }


def artifact(reader: Reader, artifact_id: str) -> dict[str, str]:
    """One artifact's text, kind, author, time, channel, product and URL, looked up only in the caller's graphs."""
    if not artifact_id.strip():
        raise KGError("the artifact id is empty")
    found = artifact_view(artifact_id, reader.graphs, reader.answerer)
    if found is None:
        raise KGError(f"no artifact {artifact_id!r} in the products this token reads")
    return {k: v for k, v in found.items() if k not in ("artifact", "authorName", "channelName")}


def timeline(reader: Reader, item: str, product: str) -> dict[str, list[dict[str, Any]]]:
    """The dated events of the bug (by title), PR (by link) or feature (by name) in the product, in order."""
    from kg.analysis.timeline import timelines

    if not item.strip():
        raise KGError("the item is empty: give a bug title, a PR link or a feature name")
    return {"items": [asdict(t) for t in timelines(reader.answerer.backend, item, reader.check_product(product))]}


def people(reader: Reader, eids: list[str]) -> dict[str, Any]:
    """Names, roles, locations and organisation units of employees (the organisation graph), and the ids not
    found."""
    if not eids or len(eids) > MAX_EIDS:
        raise KGError(f"give between 1 and {MAX_EIDS} employee ids")
    if bad := [e for e in eids if not isinstance(e, str) or not EID.fullmatch(e)]:
        raise KGError(f"not an employee id (eid_ and 8 hex digits): {', '.join(map(repr, bad[:5]))}")
    text = named_query("person").text
    found, missing = [], []
    for eid in dict.fromkeys(eids):
        rows = reader.answerer.backend.select(text, {"person": node("person", eid)}, [NamedNode(ORG_GRAPH)])
        if not rows:
            missing.append(eid)
            continue
        first = {k: v.value for k, v in rows[0].items() if k not in ("person", "role")}
        found.append({"eid": eid, **first, "roles": sorted({r["role"].value for r in rows if "role" in r})})
    return {"people": found, "unknown": missing}
