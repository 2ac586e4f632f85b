"""`kg serve`: the store as a read-only SPARQL 1.1 endpoint, with per-product bearer-token access.

The query engine is the real Oxigraph server (`oxigraph serve-read-only`, from the `oxigraph` PyPI package)
listening on a private loopback port. In front of it sits a small threaded proxy that owns everything Oxigraph
cannot do by itself:

- access: a bearer token maps to the product graphs it may read (plus the organisation graph), or to `*`;
- isolation: for a product token the proxy forces the query's dataset through the SPARQL Protocol's
  `default-graph-uri` / `named-graph-uri` parameters (which override FROM / FROM NAMED, so GRAPH can only
  reach the token's graphs), refuses any FROM / FROM NAMED / GRAPH / Graph Store request naming another graph,
  and refuses SERVICE for everyone (Oxigraph would otherwise call any URL, including its own private port);
- read-only: `/update` and update requests get 403;
- limits: 413 for oversized bodies, and a hard time limit per query. Oxigraph's own `--timeout-s` cannot stop
  every runaway (a sort over a huge join keeps growing) and misbehaves under load, so when a query outlives
  the limit the proxy answers 503 and replaces the Oxigraph process with a fresh one; queries caught in
  flight are retried on it.

The version of the `oxigraph` binary must equal pyoxigraph's: both open the same on-disk RocksDB store, and
its storage format is only guaranteed within one release.
"""

from __future__ import annotations

import hashlib
import http.client
import ipaddress
import logging
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import parse_qs, urlencode, urlsplit

import pyoxigraph
import yaml
from pyoxigraph import NamedNode, RdfFormat, Triple

from kg.errors import KGError
from kg.namespaces import ORG_GRAPH, RDF, product_graph
from kg.sparql_tokens import Shape, shape

log = logging.getLogger(__name__)

SD = "http://www.w3.org/ns/sparql-service-description#"
FORMATS = "http://www.w3.org/ns/formats/"
RESULT_FORMATS = ["SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV", "SPARQL_Results_TSV",
                  "Turtle", "N-Triples"]
SD_FORMATS = {"application/n-triples": RdfFormat.N_TRIPLES, "application/rdf+xml": RdfFormat.RDF_XML,
              "text/turtle": RdfFormat.TURTLE}
#: An IRI no graph has: the default graph of a query whose dataset is FROM NAMED only must be empty.
EMPTY_GRAPH = "urn:x-kg:empty-graph"
#: Responses are buffered so a query cut off mid-stream gets an error status, not a truncated 200.
MAX_RESPONSE = 64 * 1024 * 1024
START_SECONDS = 60.0
#: Reconnect to Oxigraph after this long idle: well under its 60 s idle timeout.
MAX_IDLE = 10.0


class HttpError(Exception):
    """A refusal: the status code and a one-line reason for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def cut_off(timeout: float) -> HttpError:
    return HttpError(503, f"query cut off: it exceeded the {timeout:g} s time limit")


# --- versions and the binary -------------------------------------------------------------------------------


def oxigraph_binary() -> str:
    """The `oxigraph` executable installed next to this Python (the PyPI package), else the one on PATH."""
    local = Path(sys.executable).parent / "oxigraph"
    found = str(local) if local.is_file() else shutil.which("oxigraph")
    if not found:
        raise KGError("the `oxigraph` server is not installed: pip install 'oxigraph>=0.5,<0.6'")
    return found


def check_versions(oxigraph_version_output: str, pyoxigraph_version: str) -> str:
    """The shared version, or a KGError: both must read the store's RocksDB format identically."""
    match = re.search(r"(\d+\.\d+\.\d+\S*)", oxigraph_version_output)
    server = match.group(1) if match else oxigraph_version_output.strip()
    if server != pyoxigraph_version:
        raise KGError(
            f"oxigraph server {server} does not match pyoxigraph {pyoxigraph_version}: the store was written "
            f"by pyoxigraph and both read the same RocksDB files, so install the same release of each "
            f"(pip install 'oxigraph=={pyoxigraph_version}')"
        )
    return server


def matching_oxigraph() -> tuple[str, str]:
    """The oxigraph binary and its version, checked against pyoxigraph."""
    binary = oxigraph_binary()
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=False).stdout
    return binary, check_versions(out, pyoxigraph.__version__)


# --- access ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grant:
    """What one client may read: every graph (`graphs is None`) or exactly these named graphs."""

    graphs: frozenset[str] | None

    def refused(self, iris: Iterable[str]) -> list[str]:
        return [] if self.graphs is None else sorted(set(iris) - self.graphs)


EVERYTHING = Grant(None)


def product_grant(products: list[str]) -> Grant:
    """A product token reads its products' graphs and the organisation graph (people, customers)."""
    return Grant(frozenset({product_graph(p).value for p in products} | {ORG_GRAPH}))


def token_key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def load_access(path: Path) -> dict[str, Grant]:
    """Parse an access file (YAML or JSON): `token: "*"` for admin, `token: [Product, ...]` for products.

    Returns grants keyed by the token's SHA-256, so the plain tokens do not stay in memory.
    """
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise KGError(f"cannot read access file {path}: {exc}") from exc
    if not isinstance(data, dict) or not data:
        raise KGError(f"access file {path} must map bearer tokens to '*' or a list of product names")
    grants = {}
    for token, allowed in data.items():
        if not isinstance(token, str) or not token.strip() or any(c.isspace() for c in token):
            raise KGError(f"access file {path}: a token must be a non-empty string without spaces: {token!r}")
        if allowed == "*":
            grants[token_key(token)] = EVERYTHING
        elif isinstance(allowed, list) and allowed and all(isinstance(p, str) and p for p in allowed):
            grants[token_key(token)] = product_grant(allowed)
        else:
            raise KGError(f"access file {path}: a token must map to '*' or a non-empty list of product names")
    return grants


# --- query checks ------------------------------------------------------------------------------------------


def service_reason(query: str) -> str | None:
    """Why the query is refused as a SERVICE call, or None.

    SERVICE is a keyword Oxigraph matches literally, so a query without the letters "service" cannot call out.
    Otherwise two independent readings must both clear it: the tokenizer and rdflib's full SPARQL parser.
    """
    if "service" not in query.casefold():
        return None
    if shape(query).service:
        return "SERVICE (federated query) is disabled on this endpoint"
    return _rdflib_service_reason(query)


@lru_cache(maxsize=64)  # small: its keys are whole query texts
def _rdflib_service_reason(query: str) -> str | None:
    from pyparsing import ParseException
    from rdflib.plugins.sparql.parser import parseQuery

    try:
        tree = parseQuery(query)
    except (ParseException, ValueError) as exc:
        return f"the query mentions SERVICE and could not be checked ({exc}); SERVICE is disabled"
    return "SERVICE (federated query) is disabled on this endpoint" if _has_service(tree) else None


def _has_service(node: Any) -> bool:
    if getattr(node, "name", None) == "ServiceGraphPattern":
        return True
    if isinstance(node, dict):
        return any(_has_service(v) for v in node.values())
    if isinstance(node, list | tuple) or type(node).__name__ == "ParseResults":
        return any(_has_service(v) for v in node)
    return False


def dataset_params(grant: Grant, query: Shape, params: dict[str, list[str]]) -> list[tuple[str, str]]:
    """The dataset parameters sent to Oxigraph: the client's own choice, checked, or the token's graphs.

    The default graph is the union of the graphs the client may read, unless the request or the query picks
    a dataset itself.
    """
    asked_default, asked_named = params.get("default-graph-uri", []), params.get("named-graph-uri", [])
    if forbidden := grant.refused([*query.named_graphs(), *asked_default, *asked_named]):
        raise HttpError(403, f"this token may not read graph <{forbidden[0]}>")
    if asked_default or asked_named:
        default, named = asked_default, asked_named
    elif query.from_default or query.from_named:
        if grant.graphs is None:
            return []
        default, named = query.from_default, query.from_named
    elif grant.graphs is None:
        return [("union-default-graph", "")]
    else:
        default = named = sorted(grant.graphs)
    pairs = [("default-graph-uri", g) for g in default or [EMPTY_GRAPH]]
    return pairs + [("named-graph-uri", g) for g in named]


# --- the Oxigraph process ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Upstream:
    generation: int
    port: int
    process: subprocess.Popen


@dataclass(frozen=True)
class Reply:
    status: int
    content_type: str
    body: bytes


class Oxigraph:
    """The `oxigraph serve-read-only` process behind the proxy, replaced wholesale when a query runs away."""

    def __init__(self, binary: str, store: Path, timeout: float) -> None:
        self.binary, self.store, self.timeout = binary, store, timeout
        self._lock = threading.Lock()
        self._local = threading.local()
        self.current = self._start(1)

    def _start(self, generation: int) -> Upstream:
        port = free_port()
        # No --timeout-s: under concurrent load Oxigraph 0.5.13 then fails requests with "Resource temporarily
        # unavailable" and can stop accepting connections (bench_endpoint.py showed it); the proxy owns the limit.
        args = [self.binary, "serve-read-only", "--location", str(self.store), "--bind", f"127.0.0.1:{port}"]
        with tempfile.TemporaryFile() as errors:
            process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=errors)
            deadline = time.monotonic() + START_SECONDS
            while not _accepts(port):
                if process.poll() is not None or time.monotonic() > deadline:
                    process.kill()
                    errors.seek(0)
                    detail = errors.read().decode(errors="replace").strip().splitlines()
                    raise KGError(f"oxigraph could not serve the store {self.store}: "
                                  f"{detail[-1] if detail else 'it did not start'}")
                time.sleep(0.05)
        # From here on Oxigraph's per-request error lines go nowhere: the proxy reports errors itself.
        return Upstream(generation, port, process)

    def replace(self, generation: int) -> None:
        """Swap in a fresh process (once per runaway, however many requests saw it) and kill the old one."""
        with self._lock:
            old = self.current
            if old.generation != generation:
                return
            self.current = self._start(generation + 1)
            old.process.kill()
            old.process.wait()
            log.warning("replaced the Oxigraph process after a query exceeded %s s", self.timeout)

    def close(self) -> None:
        self.current.process.kill()
        self.current.process.wait()

    def fetch(self, method: str, path: str, body: bytes | None, headers: dict[str, str],
              deadline: float) -> Reply:
        """Oxigraph's complete reply, or 503 once the deadline passes (and the process is then replaced)."""
        for attempt in range(3):
            upstream = self.current
            try:
                return self._exchange(upstream, method, path, body, headers, deadline)
            except TimeoutError:
                self._drop_connection()
                threading.Thread(target=self.replace, args=(upstream.generation,), daemon=True).start()
                raise cut_off(self.timeout) from None
            except (OSError, http.client.HTTPException) as exc:
                self._drop_connection()
                if time.monotonic() >= deadline:
                    raise cut_off(self.timeout) from None
                if upstream.process.poll() is not None:
                    self.replace(upstream.generation)
                elif self.current.generation == upstream.generation and attempt:
                    raise HttpError(502, f"the Oxigraph server failed: {exc}") from None
                else:
                    time.sleep(0.05)
        raise HttpError(502, "the Oxigraph server is restarting; try again")

    def _exchange(self, upstream: Upstream, method: str, path: str, body: bytes | None,
                  headers: dict[str, str], deadline: float) -> Reply:
        conn = self._connection(upstream)
        conn.timeout = _remaining(deadline)
        conn.request(method, path, body=body, headers=headers)
        conn.sock.settimeout(_remaining(deadline))
        response = conn.getresponse()
        chunks, size = [], 0
        while chunk := _read_before(response, conn, deadline):
            size += len(chunk)
            if size > MAX_RESPONSE:
                raise HttpError(507, f"the result exceeds {MAX_RESPONSE // 2**20} MiB: add a LIMIT, or use "
                                     "`kg export` for whole-graph dumps")
            chunks.append(chunk)
        content_type = response.getheader("Content-Type", "application/octet-stream")
        return Reply(response.status, content_type, b"".join(chunks))

    def _connection(self, upstream: Upstream) -> http.client.HTTPConnection:
        """This thread's keep-alive connection to the current process, unless it sat idle too long.

        Oxigraph times out keep-alive connections idle for 60 s by writing an unsolicited
        `500 Resource temporarily unavailable` on them: the next request would read that stale reply.
        """
        cached = getattr(self._local, "conn", None)
        now = time.monotonic()
        if cached is None or cached[0] != upstream.generation or now - cached[2] > MAX_IDLE:
            self._drop_connection()
            cached = (upstream.generation, NoDelayConnection("127.0.0.1", upstream.port), now)
        self._local.conn = (cached[0], cached[1], now)
        return cached[1]

    def _drop_connection(self) -> None:
        cached = getattr(self._local, "conn", None)
        if cached:
            cached[1].close()
            self._local.conn = None


class NoDelayConnection(http.client.HTTPConnection):
    """Upstream connection with Nagle off: headers and body go out as two small writes."""

    def connect(self) -> None:
        super().connect()
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _remaining(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError
    return left


def _read_before(response: http.client.HTTPResponse, conn: http.client.HTTPConnection,
                 deadline: float) -> bytes:
    if conn.sock is not None:
        conn.sock.settimeout(_remaining(deadline))
    return response.read(1 << 16)  # not read1: it leaves the response unfinished, breaking keep-alive


def _accepts(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- the proxy ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    store: Path
    host: str = "127.0.0.1"
    port: int = 7878
    access: Path | None = None
    timeout: float = 30.0
    max_body: int = 1 << 20


class Endpoint(ThreadingHTTPServer):
    """The public server: one thread per client connection, sharing the Oxigraph process and the grants."""

    daemon_threads = True
    request_queue_size = 128

    def __init__(self, settings: Settings, grants: dict[str, Grant] | None, oxigraph: Oxigraph) -> None:
        self.settings, self.grants, self.oxigraph = settings, grants, oxigraph
        super().__init__((settings.host, settings.port), Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "kg-serve"
    server: Endpoint

    def setup(self) -> None:
        super().setup()
        # Headers and body go out as two writes: without this, Nagle's algorithm holds the body back until
        # the client's delayed ACK (40 ms) for every response.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_GET(self) -> None:
        self._respond_to(self._route)

    def do_HEAD(self) -> None:
        self._respond_to(self._route, head=True)

    def do_POST(self) -> None:
        self._respond_to(self._route)

    def do_PUT(self) -> None:
        self._respond_to(self._read_only)

    do_DELETE = do_PATCH = do_PUT

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.address_string(), format % args)

    def _respond_to(self, route: Any, head: bool = False) -> None:
        self._body_read = False
        try:
            reply = route()
        except HttpError as exc:
            reply = Reply(exc.status, "text/plain; charset=utf-8", (exc.message + "\n").encode())
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        if reply.status == 401:
            self.send_header("WWW-Authenticate", 'Bearer realm="kg"')
        unread_body = self.headers.get("Content-Length", "0") != "0" and not self._body_read
        if unread_body or reply.status >= 500:
            self.close_connection = True
            self.send_header("Connection", "close")
        self.end_headers()
        if not head:
            self.wfile.write(reply.body)

    def _route(self) -> Reply:
        path = urlsplit(self.path).path
        if path == "/update":
            self._read_only()
        grant = self._grant()
        if path == "/query":
            return self._query(grant)
        if path == "/store":
            return self._graph_store(grant)
        raise HttpError(404, "not found: the endpoint serves /query and /store")

    def _read_only(self) -> NoReturn:
        raise HttpError(403, "this endpoint is read-only: updates are refused")

    def _grant(self) -> Grant:
        """The caller's grant: its bearer token's; without an access file, everything for loopback callers."""
        grants = self.server.grants
        if grants is None:
            if not ipaddress.ip_address(self.client_address[0]).is_loopback:
                raise HttpError(403, "without an access file the endpoint only answers loopback clients")
            return EVERYTHING
        scheme, _, token = (self.headers.get("Authorization") or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise HttpError(401, "a bearer token is required (Authorization: Bearer TOKEN)")
        grant = grants.get(token_key(token.strip()))
        if grant is None:
            raise HttpError(401, "unknown bearer token")
        return grant

    def _params(self) -> dict[str, list[str]]:
        """The request's parameters: the URL's, plus a form body; a direct POST's body becomes `query`."""
        params = parse_qs(urlsplit(self.path).query, keep_blank_values=True)
        if self.command != "POST":
            return params
        body = self._body()
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        text = _utf8(body)
        if kind == "application/sparql-query":
            params.setdefault("query", []).append(text)
        elif kind == "application/x-www-form-urlencoded":
            for key, values in parse_qs(text, keep_blank_values=True).items():
                params.setdefault(key, []).extend(values)
        elif kind == "application/sparql-update":
            self._read_only()
        else:
            raise HttpError(415, "POST the query as application/sparql-query or as an HTML form")
        return params

    def _body(self) -> bytes:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            raise HttpError(411, "send the request body with a Content-Length")
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise HttpError(400, "bad Content-Length") from None
        if length > self.server.settings.max_body:
            limit = self.server.settings.max_body
            raise HttpError(413, f"request body of {length} bytes exceeds the {limit}-byte limit")
        self._body_read = True
        return self.rfile.read(length)

    def _query(self, grant: Grant) -> Reply:
        params = self._params()
        if "update" in params:
            self._read_only()
        if "query" not in params:
            return self._service_description(grant)
        if len(params["query"]) != 1:
            raise HttpError(400, "send exactly one `query` parameter")
        query = params["query"][0]
        if reason := service_reason(query):
            raise HttpError(403, reason)
        dataset = dataset_params(grant, shape(query), params)
        body = urlencode([("query", query), *dataset]).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded",
                   "Accept": self.headers.get("Accept") or "application/sparql-results+json"}
        return self._fetch("POST", "/query", body, headers)

    def _graph_store(self, grant: Grant) -> Reply:
        """Graph Store Protocol, read side: GET (or HEAD) one named graph the caller may read."""
        if self.command not in ("GET", "HEAD"):
            self._read_only()
        params = parse_qs(urlsplit(self.path).query, keep_blank_values=True)
        graphs = params.get("graph", [])
        if len(graphs) != 1 or "default" in params:
            if grant.graphs is not None:
                raise HttpError(403, "a product token may only GET a named graph: /store?graph=IRI")
            return self._fetch("GET", self.path, None, self._accept("application/n-quads"))
        if forbidden := grant.refused(graphs):
            raise HttpError(403, f"this token may not read graph <{forbidden[0]}>")
        path = "/store?" + urlencode({"graph": graphs[0]})
        return self._fetch("GET", path, None, self._accept("text/turtle"))

    def _accept(self, default: str) -> dict[str, str]:
        return {"Accept": self.headers.get("Accept") or default}

    def _fetch(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> Reply:
        deadline = time.monotonic() + self.server.settings.timeout
        return self.server.oxigraph.fetch(method, path, body, headers, deadline)

    def _service_description(self, grant: Grant) -> Reply:
        accept = self.headers.get("Accept") or ""
        media = next((m for m in SD_FORMATS if m in accept), "text/turtle")
        triples = service_description(f"{self.server.url}/query", grant)
        return Reply(200, media, pyoxigraph.serialize(triples, format=SD_FORMATS[media]))


def service_description(endpoint: str, grant: Grant) -> list[Triple]:
    """SPARQL 1.1 Service Description: language, result formats, and the dataset the caller sees."""
    service = NamedNode(endpoint)
    sd = lambda local: NamedNode(SD + local)  # noqa: E731 - a local shorthand
    triples = [Triple(service, NamedNode(RDF + "type"), sd("Service")),
               Triple(service, sd("endpoint"), service),
               Triple(service, sd("supportedLanguage"), sd("SPARQL11Query")),
               Triple(service, sd("feature"), sd("UnionDefaultGraph"))]
    triples += [Triple(service, sd("resultFormat"), NamedNode(FORMATS + f)) for f in RESULT_FORMATS]
    if grant.graphs is not None:
        dataset = NamedNode(endpoint + "#dataset")
        triples += [Triple(service, sd("defaultDataset"), dataset),
                    Triple(dataset, NamedNode(RDF + "type"), sd("Dataset"))]
        for i, graph in enumerate(sorted(grant.graphs)):
            named = NamedNode(f"{endpoint}#graph{i}")
            triples += [Triple(dataset, sd("namedGraph"), named), Triple(named, sd("name"), NamedNode(graph))]
    return triples


def _utf8(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise HttpError(400, "the request body is not UTF-8") from None


# --- running -----------------------------------------------------------------------------------------------


def check_settings(settings: Settings) -> None:
    if not settings.store.is_dir():
        raise KGError(f"no store at {settings.store}: run `kg build` first (or pass --store PATH)")
    if settings.access is None and not _is_loopback(settings.host):
        raise KGError(f"refusing to serve {settings.host} without --access: an open endpoint is local only")
    if settings.timeout <= 0 or settings.max_body <= 0:
        raise KGError("--timeout and --max-body must be positive")


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def serve(settings: Settings) -> None:
    """Run the endpoint until SIGINT or SIGTERM, then stop Oxigraph."""
    check_settings(settings)
    grants = load_access(settings.access) if settings.access else None
    binary, version = matching_oxigraph()
    oxigraph = Oxigraph(binary, settings.store, settings.timeout)
    try:
        server = Endpoint(settings, grants, oxigraph)
    except OSError as exc:
        oxigraph.close()
        raise KGError(f"cannot listen on {settings.host}:{settings.port}: {exc}") from exc
    signal.signal(signal.SIGTERM, _stop)
    mode = f"access file {settings.access}" if grants is not None else "no access file: loopback clients only"
    print(f"kg serve: SPARQL endpoint at {server.url}/query (store {settings.store}, oxigraph {version}, "
          f"{mode})", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        oxigraph.close()


def _stop(signum: int, frame: Any) -> NoReturn:
    raise KeyboardInterrupt
