"""aiohttp routes for the answer page: `app.add_routes(ask_routes(answerer))` mounts it on the endpoint.

Tokens are the endpoint's: `request.app[GRANTS]` (kg.endpoint.appkeys) maps the SHA-256 hex digest of a token to
a grant whose `graphs` is the set of graph IRIs it reads (None: all), and `None` instead of a table means no
access file, when only loopback clients are answered. A browser sends its token once with the form; it is kept in an
HttpOnly cookie so the citation links work; `Authorization: Bearer` works as for `/query`.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable, Mapping
from typing import Any

from aiohttp import web

from kg.endpoint.access import LOCAL, token_key
from kg.endpoint.appkeys import GRANTS, TOKEN_NAME
from kg.page import html
from kg.page.views import Page, Scope, answer_page, artifact_page
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
            request[TOKEN_NAME] = LOCAL.name
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
    """GET/POST /ask (the form and an answer) and GET /artifact/{id} (one cited artifact)."""
    routes = web.RouteTableDef()

    def ask_token(request: web.Request) -> bool:
        return request.app[GRANTS] is not None

    async def render(
        request: web.Request, question: str, form_token: str | None, view: Callable[[Scope], Page]
    ) -> web.Response:
        token = bearer(request, form_token)
        scope = scope_of(request, token)
        if isinstance(scope, web.Response):
            return scope
        page = await asyncio.to_thread(view, scope)
        return respond(page, form_token if page.status != 401 else None)

    @routes.get("/ask")
    async def ask_get(request: web.Request) -> web.Response:
        question = request.query.get("q", "")
        if not question:
            return respond(answer_page("", None, answerer, ask_token(request)))
        return await render(request, question, None, lambda s: answer_page(question, s, answerer, ask_token(request)))

    @routes.post("/ask")
    async def ask_post(request: web.Request) -> web.Response:
        form = await request.post()
        question, token = str(form.get("q", "")), str(form.get("token", "")) or None
        return await render(request, question, token, lambda s: answer_page(question, s, answerer, ask_token(request)))

    @routes.get("/artifact/{id}")
    async def artifact(request: web.Request) -> web.Response:
        artifact_id = request.match_info["id"]
        return await render(request, "", None, lambda s: artifact_page(artifact_id, s, answerer))

    return routes


def ask_application(answerer: Answerer, grants: Mapping[str, Any] | None) -> web.Application:
    """A whole application serving only the answer page (for tests, or on its own)."""
    app = web.Application()
    app[GRANTS] = grants
    app.add_routes(ask_routes(answerer))
    return app
