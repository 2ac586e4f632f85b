"""aiohttp routes for the answer page: `app.add_routes(ask_routes(answerer))` mounts it on the endpoint.

Tokens are the endpoint's: `request.app[GRANTS]` (kg.grants) maps the SHA-256 hex digest of a token to
a grant whose `graphs` is the set of graph IRIs it reads (None: all), and `None` instead of a table means no
access file, when only loopback clients are answered. A browser sends its token once with the form; it is kept in an
HttpOnly cookie so the citation links work; `Authorization: Bearer` works as for `/query`.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from typing import Any

from aiohttp import web

from kg.grants import GRANTS, LOCAL_NAME, PAGE_SHARE, TOKEN_NAME, token_key
from kg.page import html
from kg.page.examples import Examples
from kg.page.views import NO_SCOPE, Page, Scope, answer_page, artifact_page, person_page
from kg.qa.answer import Answerer

COOKIE = "kg_token"


def bearer(request: web.Request, form_token: str | None = None) -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return form_token or request.cookies.get(COOKIE)


def scope_of(request: web.Request, token: str | None) -> Scope | web.Response:
    """The graphs the token reads, or a refusal page: 401 for a missing or unknown token, 403 for a remote
    client of a server without an access file."""
    grants: Mapping[str, Any] | None = request.app[GRANTS]
    if grants is None:
        if ipaddress.ip_address(request.remote or "0.0.0.0").is_loopback:
            request[TOKEN_NAME] = LOCAL_NAME
            return None
        page = html.message_page(403, "Loopback only", "without an access file only loopback clients are answered")
        return web.Response(status=403, text=page, content_type="text/html")
    grant = grants.get(token_key(token)) if token else None
    if grant is None:
        page = html.message_page(401, "Token needed", "give a valid token to read this server's graphs", True)
        return web.Response(status=401, text=page, content_type="text/html")
    request[TOKEN_NAME] = grant.name
    return grant.graphs


def respond(page: Page, token: str | None = None) -> web.Response:
    response = web.Response(status=page.status, text=page.html, content_type="text/html")
    if token:
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict")
    return response


def ask_routes(answerer: Answerer) -> web.RouteTableDef:
    """GET/POST /ask (the form and an answer), GET /artifact/{id} (one cited artifact) and GET /person/{eid}."""
    routes = web.RouteTableDef()
    examples = Examples(answerer)

    def ask_token(request: web.Request) -> bool:
        return request.app[GRANTS] is not None

    async def render(request: web.Request, form_token: str | None, view: Callable[[Scope], Page]) -> web.Response:
        token = bearer(request, form_token)
        scope = scope_of(request, token)
        if isinstance(scope, web.Response):
            return scope
        share = request.app.get(PAGE_SHARE)
        async with share(request) if share is not None else nullcontext():
            page = await asyncio.to_thread(view, scope)
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
