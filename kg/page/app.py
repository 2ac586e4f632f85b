"""aiohttp routes for the answer page: `app.add_routes(ask_routes(answerer))` mounts it on the endpoint.

Tokens are the endpoint's: `request.app[GRANTS]` (kg.grants) maps the SHA-256 hex digest of a token to
a grant whose `graphs` is the set of graph IRIs it reads (None: all), and `None` instead of a table means no
access file, when only loopback clients are answered. A browser sends its token once with the form; it is kept in an
HttpOnly cookie so the citation links work; `Authorization: Bearer` works as for `/query`.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from typing import Any, TypeVar

from aiohttp import web

from kg.grants import GRANTS, LOCAL_NAME, PAGE_SHARE, TOKEN_NAME, token_key
from kg.page import html
from kg.page.examples import Examples
from kg.page.views import NO_SCOPE, Page, Refusal, Scope, answer_json, answer_page, artifact_page, person_page
from kg.qa.answer import Answerer

COOKIE = "kg_token"
T = TypeVar("T")


def bearer(request: web.Request, form_token: str | None = None) -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return form_token or request.cookies.get(COOKIE)


def scope_of(request: web.Request, token: str | None) -> Scope | Refusal:
    """The graphs the token reads, or a refusal: 401 for a missing or unknown token, 403 for a remote client of a
    server without an access file."""
    grants: Mapping[str, Any] | None = request.app[GRANTS]
    if grants is None:
        if ipaddress.ip_address(request.remote or "0.0.0.0").is_loopback:
            request[TOKEN_NAME] = LOCAL_NAME
            return None
        return Refusal(403, "Loopback only", "without an access file only loopback clients are answered")
    grant = grants.get(token_key(token)) if token else None
    if grant is None:
        return Refusal(401, "Token needed", "give a valid token to read this server's graphs")
    request[TOKEN_NAME] = grant.name
    return grant.graphs


async def in_scope(request: web.Request, token: str | None, work: Callable[[Scope], T]) -> T | Refusal:
    """The work's result in the token's scope, in a worker thread; or the refusal of a missing or unknown token.
    Every /ask-family route (the page, its artifact and person pages, /api/ask) comes through here, so a rule or
    a limit on /ask holds for all of them."""
    scope = scope_of(request, token)
    if isinstance(scope, Refusal):
        return scope
    share = request.app.get(PAGE_SHARE)  # the token's share of the page's workers (kg serve)
    async with share(request) if share is not None else nullcontext():
        return await asyncio.to_thread(work, scope)


def json_text(obj: Any) -> str:
    """JSON as `kg ask --json` prints it (indented, UTF-8 kept)."""
    return json.dumps(obj, indent=2, ensure_ascii=False)


def respond(page: Page, token: str | None = None) -> web.Response:
    response = web.Response(status=page.status, text=page.html, content_type="text/html")
    if token:
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict")
    return response


def ask_routes(answerer: Answerer) -> web.RouteTableDef:
    """GET/POST /ask (the form and an answer), GET /api/ask (the answer as `kg ask --json`'s object), GET
    /artifact/{id} (one cited artifact) and GET /person/{eid}."""
    routes = web.RouteTableDef()
    examples = Examples(answerer)

    def ask_token(request: web.Request) -> bool:
        return request.app[GRANTS] is not None

    async def render(request: web.Request, form_token: str | None, view: Callable[[Scope], Page]) -> web.Response:
        page = await in_scope(request, bearer(request, form_token), view)
        if isinstance(page, Refusal):
            page = Page(page.status, html.message_page(page.status, page.title, page.message, page.status == 401))
        return respond(page, form_token if page.status != 401 else None)

    def ask_view(request: web.Request, question: str) -> Callable[[Scope], Page]:
        product = request.query.get("product")
        return lambda s: answer_page(question, s, answerer, ask_token(request), examples, product)

    @routes.get("/ask")
    async def ask_get(request: web.Request) -> web.Response:
        question = request.query.get("q", "")
        if not question and ask_token(request) and bearer(request) is None:
            # the form alone reads nothing: with no token yet, no products or examples to offer
            return respond(answer_page("", NO_SCOPE, answerer, True, examples))
        return await render(request, None, ask_view(request, question))

    @routes.post("/ask")
    async def ask_post(request: web.Request) -> web.Response:
        form = await request.post()
        question, token = str(form.get("q", "")), str(form.get("token", "")) or None
        return await render(request, token, ask_view(request, question))

    @routes.get("/api/ask")
    async def api_ask(request: web.Request) -> web.Response:
        """`kg ask --json`'s object for ?q=…, under /ask's token rules (a token as a Bearer header)."""
        question = request.query.get("q", "")
        replied = await in_scope(request, bearer(request), lambda s: answer_json(question, s, answerer))
        status, body = (replied.status, {"error": replied.message}) if isinstance(replied, Refusal) else replied
        return web.json_response(body, status=status, dumps=json_text)

    @routes.get("/artifact/{id}")
    async def artifact(request: web.Request) -> web.Response:
        artifact_id, question = request.match_info["id"], request.query.get("q", "")
        return await render(request, None, lambda s: artifact_page(artifact_id, s, answerer, question))

    @routes.get("/person/{eid}")
    async def person(request: web.Request) -> web.Response:
        eid, question = request.match_info["eid"], request.query.get("q", "")
        return await render(request, None, lambda s: person_page(eid, s, answerer, question))

    return routes


def ask_application(answerer: Answerer, grants: Mapping[str, Any] | None) -> web.Application:
    """A whole application serving only the answer page (for tests, or on its own)."""
    app = web.Application()
    app[GRANTS] = grants
    app.add_routes(ask_routes(answerer))
    return app
