"""aiohttp routes for the answer page: `app.add_routes(ask_routes(answerer, grants))` mounts it.

Tokens are the endpoint's (`kg.serve.load_access`: SHA-256 of the token -> `Grant`); `grants=None` means an
open server. A browser sends its token once with the form; it is kept in an HttpOnly cookie so the citation
links work, and `Authorization: Bearer` works as for `/query`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from aiohttp import web

from kg.page import html
from kg.page.views import Page, Scope, answer_page, artifact_page
from kg.qa.answer import Answerer
from kg.serve import Grant, token_key

COOKIE = "kg_token"


def bearer(request: web.Request, form_token: str | None = None) -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return form_token or request.cookies.get(COOKIE)


def scope_of(grants: dict[str, Grant] | None, token: str | None) -> Scope | web.Response:
    """The graphs the token reads, or a 401 page when the server has tokens and this one is missing or unknown."""
    if grants is None:
        return None
    grant = grants.get(token_key(token)) if token else None
    if grant is None:
        page = html.message_page(401, "Token needed", "give a valid token to read this server's graphs", True)
        return web.Response(status=401, text=page, content_type="text/html")
    return grant.graphs


def respond(page: Page, token: str | None = None) -> web.Response:
    response = web.Response(status=page.status, text=page.html, content_type="text/html")
    if token:
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict")
    return response


def ask_routes(answerer: Answerer, grants: dict[str, Grant] | None) -> web.RouteTableDef:
    """GET/POST /ask (the form and an answer) and GET /artifact/{id} (one cited artifact)."""
    routes = web.RouteTableDef()
    ask_token = grants is not None

    async def render(
        request: web.Request, question: str, form_token: str | None, view: Callable[[Scope], Page]
    ) -> web.Response:
        token = bearer(request, form_token)
        scope = scope_of(grants, token)
        if isinstance(scope, web.Response):
            return scope
        page = await asyncio.to_thread(view, scope)
        return respond(page, form_token if page.status != 401 else None)

    @routes.get("/ask")
    async def ask_get(request: web.Request) -> web.Response:
        question = request.query.get("q", "")
        if not question:
            return respond(answer_page("", None, answerer, ask_token))
        return await render(request, question, None, lambda s: answer_page(question, s, answerer, ask_token))

    @routes.post("/ask")
    async def ask_post(request: web.Request) -> web.Response:
        form = await request.post()
        question, token = str(form.get("q", "")), str(form.get("token", "")) or None
        return await render(request, question, token, lambda s: answer_page(question, s, answerer, ask_token))

    @routes.get("/artifact/{id}")
    async def artifact(request: web.Request) -> web.Response:
        artifact_id = request.match_info["id"]
        return await render(request, "", None, lambda s: artifact_page(artifact_id, s, answerer))

    return routes


def ask_application(answerer: Answerer, grants: dict[str, Grant] | None) -> web.Application:
    """A whole application serving only the answer page (tests, or `kg serve` before it mounts the routes)."""
    app = web.Application()
    app.add_routes(ask_routes(answerer, grants))
    return app
