"""The HTTP edge: what every route does the same way, so that each route module
(:mod:`gammon.server.routes`) is only its own requests.

An :class:`Edge` reads who is asking (the session cookie), reads bodies (JSON objects,
the fields a route takes: :mod:`gammon.server.bodies`), applies rate limits, and turns
what a route raises into the protocol's JSON error (docs/PROTOCOL.md 1) in the reader's
language. The middlewares here guard every request: the double-submit CSRF cookie and the
pages' Content-Security-Policy (docs/PROTOCOL.md 1.4).
"""

from __future__ import annotations

import math
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as ASGIMessage

from gammon.messages import Message
from gammon.server.analysis import STATUS as ANALYSIS_STATUS
from gammon.server.analysis_board import STATUS as BOARD_STATUS
from gammon.server.auth import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SESSION_COOKIE,
    TokenBuckets,
    UserInfo,
    csrf_ok,
)
from gammon.server.bodies import fields
from gammon.server.pages import spoken
from gammon.server.protocol import MAX_MESSAGE_BYTES, Refused, loads

if TYPE_CHECKING:
    from gammon.server.auth import Accounts
    from gammon.server.hub import Hub
    from gammon.server.store import Store

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "STATUS",
    "CsrfMiddleware",
    "Edge",
    "Endpoint",
    "SecurityHeaders",
    "content_security_policy",
    "error_response",
    "http_error",
    "origin_ok",
]

#: A route's function: a request in, a response out.
Endpoint = Callable[[Request], Awaitable[Response]]

#: The HTTP status of each error code (docs/PROTOCOL.md 1); any other code is a 400.
STATUS: Final = {
    "bad_request": 400,
    "bad_name": 400,
    "bad_password": 400,
    "bad_settings": 400,
    "not_signed_in": 401,
    "bad_credentials": 401,
    "banned": 403,
    "csrf": 403,
    "forbidden": 403,
    "not_a_player": 403,
    "no_such_table": 404,
    "no_such_game": 404,
    "no_such_user": 404,
    "no_such_tournament": 404,
    "no_such_player": 404,
    "no_such_page": 404,
    "name_taken": 409,
    "game_not_over": 409,
    "rate_limited": 429,
    "not_available": 501,
    "server_error": 500,
    **ANALYSIS_STATUS,
    **BOARD_STATUS,
}


def error_response(
    code: str,
    message: str,
    headers: dict[str, str] | None = None,
    *,
    field: str | None = None,
) -> JSONResponse:
    """The protocol's error, ``{"error": {"code", "message"[, "field"]}}``, with its status."""
    error: dict[str, str] = {"code": code, "message": message}
    if field is not None:
        error["field"] = field
    return JSONResponse(
        {"error": error},
        status_code=STATUS.get(code, 400),
        headers=headers or None,
    )


class _RateLimited(Exception):
    def __init__(self, seconds: int) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class Edge:
    """The shared steps of the routes, over the server's accounts, store and hub."""

    def __init__(self, store: Store, accounts: Accounts, hub: Hub) -> None:
        self.store = store
        self.accounts = accounts
        self.hub = hub

    async def current_user(self, conn: HTTPConnection) -> UserInfo | None:
        """Who is asking: the session cookie's account (a guest's too), unless banned."""
        token = conn.cookies.get(SESSION_COOKIE)
        if not token:
            return None
        cached = self.accounts.cached_user(token)
        user = (
            cached
            if cached is not False
            else await self.store.run(lambda s: self.accounts.session_user(s, token))
        )
        if isinstance(user, UserInfo) and not self.hub.is_banned(user):
            return user
        return None

    async def body(self, request: Request) -> dict[str, Any]:
        """The request's JSON object (an empty body is ``{}``)."""
        raw = await request.body()
        if len(raw) > MAX_MESSAGE_BYTES:
            raise Refused(
                "bad_request",
                Message("the body is over {limit} bytes", limit=MAX_MESSAGE_BYTES),
            )
        try:
            data = loads(raw or b"{}", code="bad_request")
        except Refused as exc:
            raise Refused("bad_request", exc.text) from None
        if not isinstance(data, dict):
            raise Refused("bad_request", Message("the body must be a JSON object"))
        return data

    async def body_fields(self, request: Request, takes: dict[str, type]) -> dict[str, Any]:
        """The body's fields, once each is one the route takes (:mod:`gammon.server.bodies`)."""
        return fields(await self.body(request), takes)

    async def limited(self, buckets: TokenBuckets, key: str) -> None:
        """Take a token of ``key`` from ``buckets`` (on every node), or refuse the request."""
        wait = await self.hub.nodes.take(buckets, key)
        if wait:
            raise _RateLimited(3600 if math.isinf(wait) else math.ceil(wait))

    def handler(self, fn: Endpoint) -> Endpoint:
        """``fn`` with its refusals, rate limits and faults answered as the protocol's errors."""

        async def wrapped(request: Request) -> Response:
            try:
                return await fn(request)
            except _RateLimited as exc:
                return error_response(
                    "rate_limited",
                    Message(
                        "too many attempts: try again in {seconds} s", seconds=exc.seconds
                    ).translated(spoken(request)),
                    {"Retry-After": str(exc.seconds)},
                )
            except Refused as exc:
                return error_response(exc.code, exc.translated(spoken(request)), field=exc.field)
            except Exception as exc:
                self.hub.faults.report(f"{request.method} {request.url.path}", exc)
                return error_response(
                    "server_error",
                    Message("the server failed on this request; try again").translated(
                        spoken(request)
                    ),
                )

        return wrapped


async def http_error(request: Request, exc: Exception) -> Response:
    """What the router and the static files refuse (a path or a method nothing answers):
    under ``/api/`` the protocol's JSON error (docs/PROTOCOL.md 1), elsewhere plain text."""
    assert isinstance(exc, HTTPException)
    headers = dict(exc.headers or {})
    if not request.url.path.startswith("/api/"):
        return PlainTextResponse(exc.detail, status_code=exc.status_code, headers=headers)
    where = f"{request.method} {request.url.path[:80]}"
    if exc.status_code == 405:
        allowed = headers.get("Allow", "")
        code = "method_not_allowed"
        message = Message(
            "{request} is not a request of the API; that path takes {allowed}",
            request=where,
            allowed=allowed,
        )
    elif exc.status_code == 404:
        code = "not_found"
        message = Message("{request} is not a request of the API (docs/PROTOCOL.md)", request=where)
    else:
        code, message = "bad_request", Message.plain(f"{where}: {exc.detail}")
    return JSONResponse(
        {"error": {"code": code, "message": message.translated(spoken(request))}},
        status_code=exc.status_code,
        headers=headers,
    )


def origin_ok(conn: HTTPConnection) -> bool:
    """An Origin header, when sent, must be this server's own (scheme, host and port)."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    scheme = conn.url.scheme.replace("ws", "http")
    host = conn.headers.get("host", "")
    return origin == f"{scheme}://{host}"


class _HttpMiddleware:
    """An ASGI middleware of HTTP requests; WebSockets and the lifespan pass through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


class CsrfMiddleware(_HttpMiddleware):
    """Double-submit CSRF cookie: set it on every answer; check it on every POST under /api/."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        cookie = request.cookies.get(CSRF_COOKIE)
        if request.method not in ("GET", "HEAD", "OPTIONS") and scope["path"].startswith("/api/"):
            if not origin_ok(request):
                refused = Message("cross-site request refused (Origin)")
                await error_response("csrf", refused.translated(spoken(request)))(
                    scope, receive, send
                )
                return
            if not csrf_ok(cookie, request.headers.get(CSRF_HEADER)):
                await error_response(
                    "csrf",
                    Message(
                        "the {header} header must repeat the {cookie} cookie",
                        header=CSRF_HEADER,
                        cookie=CSRF_COOKIE,
                    ).translated(spoken(request)),
                )(scope, receive, send)
                return
        token = cookie or secrets.token_urlsafe(24)
        scope.setdefault("state", {})["csrf"] = token
        secure = "; Secure" if request.url.scheme == "https" else ""

        async def send_with_cookie(message: ASGIMessage) -> None:
            if message["type"] == "http.response.start" and cookie is None:
                headers = list(message.get("headers", []))
                headers.append(
                    (
                        b"set-cookie",
                        f"{CSRF_COOKIE}={token}; Path=/; SameSite=Lax{secure}".encode("latin-1"),
                    )
                )
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


#: The Content-Security-Policy of the HTML pages (docs/PROTOCOL.md 1.4): the client is
#: plain JavaScript modules and one stylesheet from this origin; no inline script or style,
#: no plugins, no framing; it talks to the API and the WebSockets of this origin only.
CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' {sockets}; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
_HOST: Final = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


def content_security_policy(scope: Scope) -> str:
    """The policy for one page: ``connect-src`` names this host's WebSocket URLs too.

    ``'self'`` covers ``ws:``/``wss:`` to the same host in browsers that follow
    CSP level 3; the host is named as well for the others.

    >>> policy = content_security_policy({"headers": [(b"host", b"127.0.0.1:8000")],
    ...                                   "scheme": "http"})
    >>> "connect-src 'self' ws://127.0.0.1:8000;" in policy
    True
    """
    host = ""
    for key, value in scope.get("headers", ()):
        if key == b"host":
            host = value.decode("latin-1")
    scheme = "wss" if scope.get("scheme") == "https" else "ws"
    sockets = f"{scheme}://{host}" if _HOST.fullmatch(host) else ""
    return CONTENT_SECURITY_POLICY.format(sockets=sockets).replace("'self' ;", "'self';")


class SecurityHeaders(_HttpMiddleware):
    """Content-Security-Policy (and nosniff) on every HTML page the server sends."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: ASGIMessage) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                content_type = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                if content_type.startswith(b"text/html"):
                    headers.append(
                        (
                            b"content-security-policy",
                            content_security_policy(scope).encode("latin-1"),
                        )
                    )
                    headers.append((b"x-content-type-options", b"nosniff"))
                    message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
