"""A query over several shards, run by Comunica (npm `@comunica/query-sparql` 4.x, Node 20): the federator
computes joins, global counts, ORDER BY and LIMIT over all sources, so no rows are merged here.

Each source is one live replica of a shard, its URL carrying the SPARQL 1.1 Protocol dataset it contributes
(`default-graph-uri` and `named-graph-uri`): its own products' graphs, and the organisation graph from one shard
only. The union of the sources is then the company's dataset once, whatever the engine's own default graph is
(Virtuoso's is every graph; the Oxigraph server's is empty unless `--union-default-graph`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from urllib.parse import urlencode

from pyoxigraph import (
    NamedNode,
    QueryBoolean,
    QueryResultsFormat,
    QuerySolutions,
    RdfFormat,
    Triple,
    parse,
    parse_query_results,
)

from kg.errors import KGError
from kg.paths import PROJECT
from kg.query.remote import RemoteEndpoint, bind
from kg.query.sparql import RunBackend, Term, prefixed
from kg.query.tokens import query_form

#: Where `.ci/run` installs Comunica (`npm install --prefix .npm`); $KG_COMUNICA overrides it.
LOCAL_COMUNICA = PROJECT / ".npm" / "node_modules" / ".bin" / "comunica-sparql"
INSTALL_HINT = (
    "npm install --prefix .npm @comunica/query-sparql@4 in the project folder (Node 20), or set KG_COMUNICA to "
    "its comunica-sparql"
)
#: Comunica's forceGetIfUrlLengthBelow (engine-default.js of @comunica/query-sparql 4.x).
COMUNICA_GET_BELOW = 600
#: The longest source URL a fan-out sends. Measured with Comunica 4.5.0 over Virtuoso 7.2: a 14,143-character
#: URL (100 product graphs) answered; a 21,243-character one (150) came back as an empty result with exit status
#: 0 (Comunica pruned the source after its cardinality count). A silent empty result would pass for an answer,
#: so longer URLs are refused instead.
MAX_SOURCE_URL = 15_000
#: Seconds a fanned-out query may take.
TIMEOUT = 600


def comunica() -> str:
    """The comunica-sparql executable: $KG_COMUNICA, the project's own install, or one on PATH."""
    found = os.environ.get("KG_COMUNICA") or (str(LOCAL_COMUNICA) if LOCAL_COMUNICA.exists() else None)
    found = found or shutil.which("comunica-sparql")
    if not found:
        raise KGError(f"a query over several shards runs through Comunica, which is not installed: {INSTALL_HINT}")
    return found


def source_url(endpoint: RemoteEndpoint, graphs: list[NamedNode], named: bool) -> str:
    """The endpoint's URL with the dataset it contributes as Protocol parameters.

    Comunica sends a query by GET to `URL?query=…` while that is shorter than 600 characters (its
    `forceGetIfUrlLengthBelow`), which breaks a URL that already has parameters; a longer URL it POSTs to as it
    is, with the query in the body. So the URL is padded to that length with a parameter the engine ignores.
    """
    params = [("default-graph-uri", g.value) for g in graphs]
    params += [("named-graph-uri", g.value) for g in graphs] if named else []
    url = f"{endpoint.url}{'&' if '?' in endpoint.url else '?'}{urlencode(params)}"
    return url if len(url) >= COMUNICA_GET_BELOW else f"{url}&kg-pad={'0' * (COMUNICA_GET_BELOW - len(url))}"


class Federation(RunBackend):
    """Comunica over one source per shard."""

    def __init__(self, sources: list[tuple[RemoteEndpoint, list[NamedNode]]]) -> None:
        if any(e.token for e, _ in sources):
            raise KGError(
                "a query over several shards goes through Comunica's command line, which cannot send a bearer "
                "token: give the query a --product, or fan out over replicas that need none"
            )
        self.sources = sources
        self.location = ", ".join(e.url for e, _ in sources)

    def run(
        self, query: str, bindings: Mapping[str, Term] | None = None, graphs: list[NamedNode] | None = None
    ) -> QuerySolutions | QueryBoolean | list[Triple]:
        """Any query form over the sources; `graphs` narrows each source to the graphs of it asked for (an
        explicit dataset has no named graphs, as the Protocol defines it)."""
        form = query_form(query)
        if form not in ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE"):
            raise KGError("not a SPARQL query (SELECT, ASK, CONSTRUCT or DESCRIBE); updates are refused")
        wanted = None if graphs is None else {g.value for g in graphs}
        urls = [
            source_url(e, [g for g in held if wanted is None or g.value in wanted], named=wanted is None)
            for e, held in self.sources
        ]
        urls = [
            u
            for u, (_, held) in zip(urls, self.sources, strict=True)
            if wanted is None or any(g.value in wanted for g in held)
        ]
        if too_long := [u for u in urls if len(u) > MAX_SOURCE_URL]:
            raise KGError(
                f"a query over several shards names each shard's graphs in its source URL, and one would be "
                f"{len(too_long[0]):,} characters, past the {MAX_SOURCE_URL:,} Comunica is known to handle (about 100 "
                "products a shard): give the query a --product, or run it on one engine holding the whole export"
            )
        graph_form = form in ("CONSTRUCT", "DESCRIBE")
        body = self._comunica(bind(prefixed(query), bindings), urls, graph_form)
        try:
            if graph_form:
                return [q.triple for q in parse(body, format=RdfFormat.N_TRIPLES)]
            return parse_query_results(standard_json(body), format=QueryResultsFormat.JSON)
        except (SyntaxError, ValueError) as exc:
            raise KGError(f"Comunica did not answer with results: {exc}") from exc

    def _comunica(self, text: str, urls: list[str], graph_form: bool) -> bytes:
        accept = "application/n-triples" if graph_form else "application/sparql-results+json"
        with tempfile.NamedTemporaryFile("w", suffix=".rq", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            argv = [comunica(), *(f"sparql@{u}" for u in urls), "-f", fh.name, "-t", accept]
            try:
                done = subprocess.run(argv, capture_output=True, timeout=TIMEOUT, check=False)
            except subprocess.TimeoutExpired as exc:
                raise KGError(f"the query over {self.location} did not finish within {TIMEOUT} s") from exc
            except OSError as exc:
                raise KGError(f"cannot run Comunica ({argv[0]}): {exc}; {INSTALL_HINT}") from exc
        if done.returncode != 0:
            reason = next((ln for ln in done.stderr.decode(errors="replace").splitlines() if ln.strip()), "no message")
            raise KGError(f"Comunica failed on the query over {self.location}: {reason[:300]}")
        return done.stdout


def standard_json(body: bytes) -> bytes:
    """SPARQL JSON results without the `metadata` member Comunica adds after the bindings (a strict reader
    refuses anything there)."""
    results = json.loads(body)
    results.pop("metadata", None)
    return json.dumps(results).encode()
