"""`kg mcp`: the graph's questions, intents, queries and evidence as MCP tools, on the official SDK's MCPServer.

Each tool is a thin wrapper: it finds the caller's reader (kg/mcp/service.py) from the request's headers, runs a
function of kg/mcp/tools.py in a worker thread (one at a time: the answerer's caches are not shared across
threads; a token waits for its turn there behind at most one call of each other token's) and turns a KGError
into a tool error with its one-line message. Anything else is a bug: the model gets
"internal error" with the exception's type and message, the server's log the traceback. Tools are read-only and
idempotent, and say so in their annotations; descriptions are written for a model choosing among them.
"""

from __future__ import annotations

import json
import logging
import socket
import sys
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from importlib.metadata import version
from typing import Annotated, Any, Literal, TypeVar

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from kg import hosts
from kg.endpoint.policy import HttpError
from kg.endpoint.shares import TokenSlots
from kg.errors import KGError
from kg.mcp import tools
from kg.mcp.guard import Guard
from kg.mcp.service import Service
from kg.paths import PROJECT

log = logging.getLogger("kg.mcp")
T = TypeVar("T")

#: The HTTP request headers of the message being handled (None over stdio), set by `remember_headers`.
HEADERS: ContextVar[Mapping[str, str] | None] = ContextVar("kg_mcp_headers", default=None)
#: Where the HTTP transport listens: loopback only, never any other address.
HOST = "127.0.0.1"
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
ONTOLOGY = PROJECT / "ontology" / "ekg.ttl"
INSTRUCTIONS = (
    "An enterprise knowledge graph of products: their documents, Slack messages, meetings, pull requests, bugs, "
    "features, releases, competitors, employees and customers. Start with `ask` for a question in words; it "
    "answers with citations (HERB artifact ids) or abstains with a proof (an ASK query that found no evidence). "
    "When `ask` cannot read a question, `intents` lists the questions the graph answers and their slots, and "
    "`run_intent` runs one with the slots named. `search` finds evidence by text, `artifact` reads one cited "
    "artifact, `timeline` gives a bug's, PR's or feature's dated events, `people` names employee ids, and "
    "`query` runs read-only SPARQL (prefixes ekg:, dct:, prov:, foaf:, rdfs:, skos: are declared) on one "
    "product's graph plus the organisation graph. The resources hold the ontology and the products you read."
)


def remember_headers() -> Callable[..., Any]:
    """Middleware: each message's HTTP headers (None over stdio), for the tool or resource that handles it."""

    async def middleware(ctx: Any, call_next: Callable[[Any], Any]) -> Any:
        token = HEADERS.set(getattr(ctx.request, "headers", None))
        try:
            return await call_next(ctx)
        finally:
            HEADERS.reset(token)

    return middleware


async def guarded(name: str, work: Awaitable[T]) -> T:
    """The work's result; its KGError a tool error with the message, any other failure an internal error (the
    log has the traceback, the model the exception's type and message)."""
    try:
        return await work
    except KGError as exc:
        raise ToolError(str(exc)) from None
    except HttpError as exc:  # a refusal of the shared pool (no turn within the time limit)
        raise ToolError(exc.message) from None
    except Exception as exc:
        log.exception("kg mcp: %s failed", name)
        raise ToolError(f"internal error: {type(exc).__name__}: {exc}") from None


def build_server(service: Service) -> MCPServer:
    """The MCP server over `service`: eight tools and two resources."""
    server = MCPServer("ekg", version=version("ekg-toolkit"), instructions=INSTRUCTIONS, log_level="WARNING")
    server.middleware.append(remember_headers())
    one_at_a_time = anyio.CapacityLimiter(1)
    turns = TokenSlots(1)  # one call of each token in the line for the thread, so no token queues ahead of others

    async def call(fn: Callable[..., T], *args: Any) -> T:
        """fn(the caller's reader, *args) in a worker thread (the reader too may read an endpoint), in the
        caller's turn."""
        headers = HEADERS.get()

        def work() -> T:
            return fn(service.reader(headers), *args)

        async def in_turn() -> T:
            async with turns.slot(service.party(headers), service.settings.limits.timeout):
                return await anyio.to_thread.run_sync(work, limiter=one_at_a_time)

        return await guarded(fn.__name__, in_turn())

    @server.tool(annotations=READ_ONLY)
    async def ask(
        question: Annotated[str, Field(description="the question in words, naming its product", max_length=2000)],
    ) -> dict[str, Any]:
        """Answer a question about one product from the graph. The result has `abstain` false with `answer`
        and `citations` (artifact ids; read one with `artifact`), or `abstain` true with the `reason` and, when an
        intent was found, the `proof`: the ASK query that found no typed evidence for the bound slots. An
        abstention is a finding, not a failure: do not guess past it. The result is `kg ask --json`'s object; its
        `outcome` is `answer`, `absent` (the proof), `uncertain` (candidate `readings` to choose from) or
        `unsupported` (no intent covers the wording: see `intents`)."""
        return await call(tools.ask, question)

    @server.tool(annotations=READ_ONLY)
    async def intents() -> dict[str, list[dict[str, Any]]]:
        """List the questions the graph answers: each intent's name, answer type, canonical question wording and
        slots with their allowed values (the products you read, roles, companies, states, …). Use it before
        `run_intent`, or to reword a question `ask` abstained on as unsupported."""
        return await call(tools.intents)

    @server.tool(annotations=READ_ONLY)
    async def run_intent(
        intent: Annotated[str, Field(description="an intent name from `intents`")],
        slots: Annotated[
            dict[str, str],
            Field(description="the intent's slots by name, always with `product`; values as `intents` lists them"),
        ],
    ) -> dict[str, Any]:
        """Run one intent with its slots named instead of worded: the same answer (with citations) or
        abstention (with the ASK proof) as `ask`. A slot value the graph does not know is an error listing the
        allowed values."""
        return await call(tools.run_intent, intent, slots)

    @server.tool(annotations=READ_ONLY)
    async def query(
        sparql: Annotated[str, Field(description="a SPARQL 1.1 SELECT, ASK, CONSTRUCT or DESCRIBE query")],
        product: Annotated[
            str | None, Field(description="run on this product's graph plus the organisation graph")
        ] = None,
    ) -> dict[str, Any]:
        """Run read-only SPARQL on the graph (the ontology resource lists its classes and properties). The
        dataset is the product's graph plus the organisation graph (people, roles, customers); without `product`,
        every graph you may read. SELECT and ASK give SPARQL JSON results; CONSTRUCT and DESCRIBE give
        N-Triples in `graph`. Updates, SERVICE and oversized or over-nested queries are refused; a query that
        runs too long or grows too large is stopped. Add LIMIT to large SELECTs."""
        headers = HEADERS.get()
        reader = await guarded("query", anyio.to_thread.run_sync(service.reader, headers))
        return await guarded("query", tools.query(service, reader, sparql, product))

    @server.tool(annotations=READ_ONLY)
    async def search(
        text: Annotated[str, Field(description="what to look for: keywords or a question")],
        product: Annotated[str | None, Field(description="only this product (default: those the text names)")] = None,
        kind: Annotated[
            Literal["slack", "document", "meeting", "meeting_chat", "pr", "url"] | None,
            Field(description="only artifacts of this kind"),
        ] = None,
        since: Annotated[str | None, Field(description="only artifacts created on or after YYYY-MM-DD")] = None,
        until: Annotated[str | None, Field(description="only artifacts created on or before YYYY-MM-DD")] = None,
        k: Annotated[int, Field(description="how many hits", ge=1, le=tools.MAX_HITS)] = 10,
    ) -> dict[str, Any]:
        """Find evidence artifacts by text (BM25 reranked by the graph's PageRank): ids, kinds, scores and a
        snippet each. Use it for questions no intent covers; read a hit whole with `artifact`."""
        return await call(tools.search, service.settings.store, text, product, kind, since, until, k)

    @server.tool(annotations=READ_ONLY)
    async def artifact(
        id: Annotated[str, Field(description="the artifact's id, as `ask`, `search` and `timeline` cite it")],
    ) -> dict[str, str]:
        """Read one artifact: its kind, text, author (name and employee id), creation time, channel, product and
        URL."""
        return await call(tools.artifact, id)

    @server.tool(annotations=READ_ONLY)
    async def timeline(
        item: Annotated[str, Field(description="a bug's title, a pull request's link or a feature's name")],
        product: Annotated[str, Field(description="the product whose graph holds the item")],
    ) -> dict[str, list[dict[str, Any]]]:
        """The items the name denotes (`items`), each with its dated events in order (reported, assigned,
        resolved, reopened, opened, merged, …): the state after each, who acted and the artifacts it was read
        from."""
        return await call(tools.timeline, item, product)

    @server.tool(annotations=READ_ONLY)
    async def people(
        eids: Annotated[
            list[str], Field(description="employee ids like eid_1a2b3c4d", min_length=1, max_length=tools.MAX_EIDS)
        ],
    ) -> dict[str, Any]:
        """Names, roles, locations and organisation units of employees by id; ids not found are listed."""
        return await call(tools.people, eids)

    @server.resource("ekg://ontology", mime_type="text/turtle", description="the ekg OWL 2 ontology (Turtle)")
    def ontology() -> str:
        return ONTOLOGY.read_text(encoding="utf-8")

    @server.resource("ekg://products", mime_type="application/json", description="the products you may read")
    def products() -> str:
        try:
            return json.dumps(service.reader(HEADERS.get()).products)
        except KGError as exc:
            raise ResourceError(str(exc)) from None

    return server


def serve(service: Service, transport: str, port: int) -> None:
    """Serve until the client closes stdin (stdio) or SIGINT / SIGTERM (HTTP, on 127.0.0.1 only); the service
    (its workers, its lock on the store) is closed however serving ends."""
    try:
        server = build_server(service)
        listener = loopback_socket(port) if transport == "http" else None
        service.start_pool()
        if listener is None:
            anyio.run(server.run_stdio_async)
        else:
            import uvicorn

            app = Guard(server.streamable_http_app(host=HOST), service, hosts.allowed_names(HOST))
            url = f"http://{HOST}:{listener.getsockname()[1]}/mcp"
            print(f"kg mcp: streamable HTTP at {url}", file=sys.stderr, flush=True)
            anyio.run(uvicorn.Server(uvicorn.Config(app, log_level="warning")).serve, [listener])
    finally:
        service.close()


def loopback_socket(port: int) -> socket.socket:
    """A socket bound to 127.0.0.1:port (0: any free port), so a port in use is a one-line error."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((HOST, port))
    except OSError as exc:
        listener.close()
        raise KGError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from exc
    return listener
