"""The ASGI application: HTTP routes, the two WebSockets, the static client, CSRF and cookies.

``create_app(ServerConfig(...))`` builds it; ``gammon serve`` runs it under
uvicorn. docs/PROTOCOL.md is the contract it keeps.

(Past 600 lines, for now, because it holds every route of the protocol: accounts,
tables, records, analyses, players, tournaments and the operations endpoints, each a
short handler over the hub, the store and the other modules. Splitting the routes by
subject into modules of their own is the next step when it grows again.)
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import math
import os
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sqlalchemy import text
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as ASGIMessage
from starlette.websockets import WebSocket, WebSocketDisconnect

from gammon.engine.evaluator import one_blas_thread
from gammon.matfile import write_mat
from gammon.messages import Message
from gammon.position import Position
from gammon.server import metrics, migrate, views
from gammon.server.analysis import STATUS as ANALYSIS_STATUS
from gammon.server.analysis import Analyses, analysis_routes
from gammon.server.analysis_board import STATUS as BOARD_STATUS
from gammon.server.analysis_board import board_routes
from gammon.server.auth import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SESSION_COOKIE,
    SESSION_SECONDS,
    Accounts,
    TokenBuckets,
    UserInfo,
    csrf_ok,
    hash_token,
)
from gammon.server.bodies import ANY, fields
from gammon.server.bots import EngineChoice
from gammon.server.chance import SeededChance, SystemChance
from gammon.server.chat import ChatConfig, ChatModerator
from gammon.server.connections import Connection
from gammon.server.db import Database
from gammon.server.hub import Hub
from gammon.server.ids import path_id
from gammon.server.pages import index_route, page_routes, spoken
from gammon.server.pairing import Pairing, pairing_routes
from gammon.server.players import LEADERBOARD_PAGE, bot_profile, leaderboard, profile
from gammon.server.protocol import MAX_MESSAGE_BYTES, Refused, board_json, loads
from gammon.server.ratings import BOT_RATINGS
from gammon.server.rematch import Rematches, rematch_routes
from gammon.server.settings import TableSettings, variant_names
from gammon.server.store import Store
from gammon.server.table import NO_SHOW, Seat
from gammon.server.timesource import ManualTime, SystemTime
from gammon.server.tournaments.live import LiveTournament, Tournaments
from gammon.server.user_settings import settings_routes
from gammon.server.wsprotocol import DIRECT

__all__ = ["RateLimits", "ServerConfig", "create_app"]

log = logging.getLogger("gammon.server")

STATIC_DIR: Final = Path(__file__).parent / "static"
_STATUS: Final = {
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


#: The fields of the sign-up's and the login's bodies (the accounts check their values).
_CREDENTIALS: Final[dict[str, type]] = {"name": ANY, "password": ANY}
#: The fields each tournament action's body takes (docs/PROTOCOL.md 1.6).
_TOURNAMENT_ACTION_FIELDS: Final[dict[str, dict[str, type]]] = {
    "register": {},
    "unregister": {},
    "withdraw": {},
    "start": {},
    "remove": {"name": str},
    "cancel": {"reason": str},
}


@dataclass(frozen=True)
class RateLimits:
    """Token buckets (docs/PROTOCOL.md 1.2): (burst, tokens per second)."""

    login: tuple[float, float] = (10, 1 / 6)
    signup: tuple[float, float] = (20, 1 / 30)


@dataclass(frozen=True)
class ServerConfig:
    database: str = "sqlite:///gammon.db"
    bots: bool = True
    limits: RateLimits = RateLimits()
    static: Path | None = STATIC_DIR
    #: Messages a second each WebSocket may send on average (bursts of twice as many).
    message_rate: float = 20.0
    #: An open table nobody joins is cancelled after this many seconds.
    open_table_expiry_s: float = 30 * 60.0
    #: A table against the bot left by its human (not connected, no action) is forfeited
    #: after this many seconds.
    bot_table_idle_s: float = 30 * 60.0
    #: Analyses run at once (None: gammon.server.analysis.default_workers; 0: none run).
    analysis_workers: int | None = None
    #: The search depth of the post-game analyses (None: 2-ply).
    analysis_ply: int | None = None
    #: Whose nets judge the analyses and the hints (gammon.engine.engines: gammon, gnubg
    #: or sage), and the bot levels that play with them too (the others play with ours).
    engine: str = "gammon"
    engine_levels: frozenset[str] = frozenset()
    #: The Ray cluster the analyses run on (local, auto or an address; None: worker processes).
    analysis_ray: str | None = None
    #: Run the pending schema migrations at start (False: refuse to start unless there
    #: are none; see gammon.server.migrate).
    migrate: bool = True
    #: Several nodes: the Redis that carries their messages (None: this process alone).
    redis: str | None = None
    #: Several nodes: how long a table's lease lasts without renewal (gammon.server.cluster).
    lease_ttl_s: float = 5.0
    #: For tests: the game's time stands still until ``POST /api/test/time`` moves it
    #: (gammon.server.timesource.ManualTime); never for a site people play on.
    manual_time: bool = False
    #: For tests: the server's draws (dice seeds, seats, lots) from a generator seeded by
    #: this (gammon.server.chance): predictable, so never for a site people play on.
    dice_seed: int | None = None
    #: The chat's language, a house rule of the site (gammon.server.chat.ChatConfig.language):
    #: "en", the guides' "tables speak English", or "any".
    chat_language: str = "en"


def _error(
    code: str,
    message: str,
    headers: dict[str, str] | None = None,
    *,
    field: str | None = None,
) -> JSONResponse:
    error: dict[str, str] = {"code": code, "message": message}
    if field is not None:
        error["field"] = field
    return JSONResponse(
        {"error": error},
        status_code=_STATUS.get(code, 400),
        headers=headers or None,
    )


def _origin_ok(conn: HTTPConnection) -> bool:
    """An Origin header, when sent, must be this server's own (scheme, host and port)."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    scheme = conn.url.scheme.replace("ws", "http")
    host = conn.headers.get("host", "")
    return origin == f"{scheme}://{host}"


class _CsrfMiddleware:
    """Double-submit CSRF cookie: set it on every answer; check it on every POST under /api/."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        cookie = request.cookies.get(CSRF_COOKIE)
        if request.method not in ("GET", "HEAD", "OPTIONS") and scope["path"].startswith("/api/"):
            if not _origin_ok(request):
                refused = Message("cross-site request refused (Origin)")
                await _error("csrf", refused.translated(spoken(request)))(scope, receive, send)
                return
            if not csrf_ok(cookie, request.headers.get(CSRF_HEADER)):
                await _error(
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


class _SecurityHeaders:
    """Content-Security-Policy (and nosniff) on every HTML page the server sends."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

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


def _time_mover(
    clock: ManualTime, body: Callable[[Request], Awaitable[dict[str, Any]]]
) -> Callable[[Request], Awaitable[Response]]:
    """``POST /api/test/time {"advance_s": S}`` on a ``--manual-time`` server: the clock moves
    S seconds on and what fell due (game clocks, expiries, tournaments' timers) is started;
    answers the new time. A test's way to let time pass without waiting for it."""

    async def move(request: Request) -> Response:
        data = await body(request)
        seconds = data.get("advance_s")
        if (
            set(data) != {"advance_s"}
            or isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not 0 <= seconds < 1e9
        ):
            raise Refused(
                "bad_request", Message('send {{"advance_s": SECONDS}}, a number of 0 or more')
            )
        clock.advance(float(seconds))
        await asyncio.sleep(0)  # let the tasks the timers started take their first step
        return JSONResponse({"now": clock.now()})

    return move


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The server application for ``config`` (the database is opened at start-up)."""
    config = config or ServerConfig()
    one_blas_thread()  # before any thread starts (its docstring says why)
    db = Database(config.database)
    store = Store(db)
    clock: ManualTime | SystemTime = ManualTime() if config.manual_time else SystemTime()
    accounts = Accounts(clock)
    cluster = None
    if config.redis is not None:
        from gammon.server.cluster import RedisCluster

        cluster = RedisCluster(store, config.redis, ttl=config.lease_ttl_s)
    hub = Hub(
        store,
        accounts,
        bots=config.bots,
        engine=EngineChoice(config.engine, config.engine_levels),
        message_rate=config.message_rate,
        open_table_expiry_s=config.open_table_expiry_s,
        bot_table_idle_s=config.bot_table_idle_s,
        cluster=cluster,
        time=clock,
        chance=SystemChance() if config.dice_seed is None else SeededChance(config.dice_seed),
        moderator=ChatModerator(
            ChatConfig(language="any" if config.chat_language == "any" else "en"), clock=clock.now
        ),
    )
    tournaments = Tournaments(hub)
    hub.lobby_extras = lambda: {"tournaments": tournaments.lobby_json()}
    tournaments.listeners.append(lambda _t: hub.lobby_changed())
    analyses = Analyses(
        store,
        hub.live_table,
        workers=config.analysis_workers,
        ply=config.analysis_ply,
        engine=config.engine,
        ray=config.analysis_ray,
        node=cluster.node if cluster is not None else None,
        claim_ttl=config.lease_ttl_s,
        take=hub.cluster.take,
        time=clock,
    )
    hub.listen("finished", lambda event: analyses.table_finished(event.live))
    login_ip = TokenBuckets(*config.limits.login, name="login_ip", time=clock)
    login_name = TokenBuckets(*config.limits.login, name="login_name", time=clock)
    signup_ip = TokenBuckets(*config.limits.signup, name="signup_ip", time=clock)

    async def current_user(conn: HTTPConnection) -> UserInfo | None:
        token = conn.cookies.get(SESSION_COOKIE)
        if not token:
            return None
        cached = accounts.cached_user(token)
        user = (
            cached
            if cached is not False
            else await store.run(lambda s: accounts.session_user(s, token))
        )
        if isinstance(user, UserInfo) and not hub.is_banned(user):
            return user
        return None

    async def body(request: Request) -> dict[str, Any]:
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

    async def body_fields(request: Request, takes: dict[str, type]) -> dict[str, Any]:
        """The body's fields, once each is one the route takes (:mod:`gammon.server.bodies`)."""
        return fields(await body(request), takes)

    async def limited(buckets: TokenBuckets, key: str) -> None:
        wait = await hub.cluster.take(buckets, key)
        if wait:
            seconds = 3600 if math.isinf(wait) else math.ceil(wait)
            raise _RateLimited(seconds)

    async def signed_in(request: Request, user: UserInfo, status: int = 200) -> Response:
        token = await store.run(lambda s: accounts.new_session(s, user))
        response = JSONResponse({"user": user.to_json()}, status_code=status)
        response.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=SESSION_SECONDS,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
        return response

    def handler(
        fn: Callable[[Request], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            try:
                return await fn(request)
            except _RateLimited as exc:
                return _error(
                    "rate_limited",
                    Message(
                        "too many attempts: try again in {seconds} s", seconds=exc.seconds
                    ).translated(spoken(request)),
                    {"Retry-After": str(exc.seconds)},
                )
            except Refused as exc:
                return _error(exc.code, exc.translated(spoken(request)), field=exc.field)
            except Exception as exc:
                hub.faults.report(f"{request.method} {request.url.path}", exc)
                return _error(
                    "server_error",
                    Message("the server failed on this request; try again").translated(
                        spoken(request)
                    ),
                )

        return wrapped

    # -- accounts --------------------------------------------------------------------------

    @handler
    async def me(request: Request) -> Response:
        user = await current_user(request)
        return JSONResponse(
            {"user": user.to_json() if user else None, "csrf": request.scope["state"]["csrf"]}
        )

    @handler
    async def signup(request: Request) -> Response:
        data = await body_fields(request, _CREDENTIALS)
        ip = request.client.host if request.client else "?"
        await limited(signup_ip, ip)
        # A guest who signs up keeps what they played: the guest becomes the account.
        before = await current_user(request)
        guest_id = before.id if before is not None and before.guest else None
        user = await store.run(
            lambda s: accounts.signup(s, data.get("name"), data.get("password"), guest_id=guest_id)
        )
        if user.operator:
            hub.moderator.add_operator(user.name)
        return await signed_in(request, user, 201)

    @handler
    async def login(request: Request) -> Response:
        data = await body_fields(request, _CREDENTIALS)
        name = data.get("name")
        ip = request.client.host if request.client else "?"
        await limited(login_ip, ip)
        if isinstance(name, str):
            await limited(login_name, name.lower()[:40])
        user = await store.run(lambda s: accounts.login(s, name, data.get("password")))
        if hub.is_banned(user):
            raise Refused("banned", Message("this account is banned"))
        return await signed_in(request, user)

    @handler
    async def guest(request: Request) -> Response:
        await body_fields(request, {})
        ip = request.client.host if request.client else "?"
        await limited(signup_ip, ip)
        user = await store.run(accounts.guest)
        return await signed_in(request, user, 201)

    @handler
    async def logout(request: Request) -> Response:
        await body_fields(request, {})
        token = request.cookies.get(SESSION_COOKIE)
        user = await current_user(request)
        await store.run(lambda s: accounts.end_session(s, token))
        if user is not None and token:
            hub.sockets.close_user(user.id, 4401, "signed out", session_hash=hash_token(token))
            await hub.cluster.signed_out(user.id, hash_token(token))
            hub.moderator.forget(user.name)
        response = JSONResponse({"user": None})
        response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
        return response

    # -- tables ------------------------------------------------------------------------------

    @handler
    async def info(request: Request) -> Response:
        from gammon.variants import VARIANTS

        levels: list[dict[str, Any]] = []
        if hub.bots_enabled:
            from gammon.engine.bot import SKILL_LEVELS

            levels = [
                {
                    "name": level.name,
                    "description": level.description,
                    "rating": BOT_RATINGS.get(level.name),
                }
                for level in SKILL_LEVELS.values()
            ]
        return JSONResponse(
            {
                # Each variant's cube rule and starting board (side 0's view): a client
                # draws a table before its first game, and replays a log, from these.
                "variants": [
                    {
                        "name": v.name,
                        "description": v.description,
                        "cube": v.cube,
                        "board": board_json(Position.initial(v), 0),
                    }
                    for v in VARIANTS
                ],
                "variant_names": variant_names(),
                "bot_levels": levels,
                "bots": hub.bots_enabled,
                "limits": {"message_bytes": MAX_MESSAGE_BYTES, "messages_per_second": 20},
                "house_rules": hub.moderator.house_rules_in(spoken(request)),
                "chat_language": hub.moderator.config.language,
            }
        )

    @handler
    async def tables(request: Request) -> Response:
        user = await current_user(request)
        if request.method == "GET":
            return JSONResponse({"tables": hub.lobby_json(user)["tables"]})
        if user is None:
            raise Refused(
                "not_signed_in", Message("sign in (or play as a guest) to create a table")
            )
        settings = TableSettings.from_json(await body(request), bot_levels=hub.bot_levels)
        table = await hub.create_table(user, settings)
        return JSONResponse({"table": views.summary_json(table)}, status_code=201)

    async def _table(request: Request) -> Any:
        table_id = path_id(request.path_params["table_id"], "table")
        live = await hub.live_table(table_id)
        if live is None:
            raise Refused("no_such_table", Message("there is no table {table}", table=table_id))
        return live

    @handler
    async def table_state(request: Request) -> Response:
        live = await _table(request)
        user = await current_user(request)
        viewer = live.table.viewer_side(user.id) if user else None
        async with live.lock:  # an action being committed is not shown before it is (4.3)
            state = hub.state_for(live, viewer, spoken(request))
        return JSONResponse(state)

    @handler
    async def table_record(request: Request) -> Response:
        live = await _table(request)
        game = request.query_params.get("game")
        if game is not None:
            if not game.isdigit():
                raise Refused("bad_request", Message("'game' must be a game number"))
            return JSONResponse(views.game_record(live.table, int(game)))
        return JSONResponse(views.table_record(live.table))

    @handler
    async def table_mat(request: Request) -> Response:
        live = await _table(request)
        table = live.table
        if table.series is None:
            raise Refused("no_such_game", Message("the match has not started"))
        if table.result is not None and table.result["reason"] == NO_SHOW:
            raise Refused(
                "no_such_game", Message("the match was never played: neither player came")
            )
        names = table.names
        text = write_mat(
            table.series,
            names=(names[0], names[1]),
            metadata={"Site": "gammon", "Event": f"table {table.id}"},
        )
        return PlainTextResponse(
            text,
            headers={"Content-Disposition": f'attachment; filename="table-{table.id}.mat"'},
        )

    # -- tournaments and players (docs/PROTOCOL.md 1.6, 1.7) ----------------------------------

    def _tournament(request: Request) -> LiveTournament:
        return tournaments.get(path_id(request.path_params["tournament_id"], "tournament"))

    async def _account(request: Request, what: Message) -> UserInfo:
        user = await current_user(request)
        if user is None:
            raise Refused("not_signed_in", Message("sign in to {what}", what=what))
        if user.guest:
            raise Refused(
                "forbidden",
                Message(
                    "tournaments are for accounts: sign up to {what} (what you played as a "
                    "guest comes with you)",
                    what=what,
                ),
            )
        return user

    @handler
    async def tournament_list(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse({"tournaments": tournaments.lobby_json()})
        user = await _account(request, Message("create a tournament"))
        created = await tournaments.create(user, await body(request))
        return JSONResponse({"tournament": created.to_json()}, status_code=201)

    @handler
    async def tournament_state(request: Request) -> Response:
        return JSONResponse({"tournament": _tournament(request).tournament.to_json()})

    @handler
    async def tournament_action(request: Request) -> Response:
        """register, unregister, withdraw (the player), remove, cancel, start (operators)."""
        live = _tournament(request)
        kind = request.path_params["action"]
        takes = _TOURNAMENT_ACTION_FIELDS.get(kind)
        if takes is None:
            raise Refused(
                "unknown_type",
                Message("there is no tournament action {action}", action=repr(kind[:40])),
            )
        data = await body_fields(request, takes)
        user = await _account(request, Message("{action} in a tournament", action=kind))
        action: dict[str, Any] = {"type": kind}
        if kind == "register":
            action.update(user=user.id, name=user.name)
        elif kind in ("unregister", "withdraw"):
            action["user"] = user.id
        elif kind == "remove":
            if "name" not in data:
                raise Refused(
                    "bad_request", Message('send the player\'s name: {{"name": ...}}'), field="name"
                )
            name = data["name"]
            found = await store.run(lambda s: accounts.find(s, name))
            if found is None:
                raise Refused(
                    "no_such_user",
                    Message("there is no user called {name}", name=repr(name)),
                    field="name",
                )
            action["user"] = found.id
        elif kind == "cancel":
            if "reason" in data:
                action["reason"] = data["reason"]
        else:
            action["seed"] = secrets.token_hex(16)  # start
        await tournaments.request(live, action, actor_id=user.id, operator=user.operator)
        return JSONResponse({"tournament": live.tournament.to_json()})

    @handler
    async def players(request: Request) -> Response:
        search = request.query_params.get("search", "")[:40]
        try:
            offset = max(0, int(request.query_params.get("offset", "0")))
        except ValueError:
            raise Refused("bad_request", Message("offset must be a whole number")) from None
        board = await store.run(
            lambda s: leaderboard(s, search=search, offset=offset, limit=LEADERBOARD_PAGE)
        )
        return JSONResponse(board)

    @handler
    async def player(request: Request) -> Response:
        name = request.path_params["name"][:40]
        found = await store.run(lambda s: profile(s, name) or bot_profile(s, name))
        if found is None:
            raise Refused(
                "no_such_player", Message("there is no player called {name}", name=repr(name))
            )
        return JSONResponse({"player": found})

    # -- WebSockets ----------------------------------------------------------------------------

    async def open_socket(websocket: WebSocket) -> Connection | None:
        if not _origin_ok(websocket):
            await websocket.close(code=1008)
            return None
        token = websocket.cookies.get(SESSION_COOKIE)
        user = await current_user(websocket)
        if user is not None and hub.is_banned(user):
            await websocket.close(code=4403)
            return None
        await websocket.accept()
        return Connection(
            websocket,
            user,
            hash_token(token) if token and user else None,
            direct=(websocket.scope.get("extensions") or {}).get(DIRECT),
            time=clock,
            lang=spoken(websocket),
        )

    async def pump(
        websocket: WebSocket,
        conn: Connection,
        join: Callable[[], Awaitable[None]],
        handle: Callable[[str | None], Awaitable[None]],
        where: str,
    ) -> None:
        """Join, then read messages until the socket closes (text frames; bytes: None).

        The hub answers every message, refusals and its own faults included; an
        exception that still gets here (a fault outside any one message) is
        logged as one line and closes the socket with 1011 (docs/PROTOCOL.md 2).
        """
        writer = conn.writer = hub._spawn(conn.write_loop())
        try:
            await join()
            while not conn.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await handle(message.get("text"))
        except WebSocketDisconnect:
            pass
        except Exception as exc:
            hub.faults.report(where, exc)
            conn.close(1011, "server fault: reconnect")
        finally:
            conn.close(conn.close_code if conn.closed else 1000)
            with contextlib.suppress(Exception):
                await writer

    async def lobby_socket(websocket: WebSocket) -> None:
        conn = await open_socket(websocket)
        if conn is None:
            return
        try:
            await pump(
                websocket,
                conn,
                lambda: hub.join_lobby(conn),
                lambda raw: hub.on_lobby_message(conn, raw),
                "the lobby socket",
            )
        finally:
            hub.leave_lobby(conn)

    async def table_socket(websocket: WebSocket) -> None:
        conn = await open_socket(websocket)
        if conn is None:
            return
        try:
            table_id = path_id(websocket.path_params["table_id"], "table")
        except Refused as exc:
            await websocket.close(code=4404, reason=exc.message[:120])
            return
        live = await hub.live_table(table_id)
        if live is None:
            await websocket.close(code=4404, reason=f"there is no table {table_id}")
            return
        if conn.user is not None and hub.moderator.is_kicked(conn.user.name, str(table_id)):
            await websocket.close(code=4403, reason="removed from the table by an operator")
            return
        try:
            await pump(
                websocket,
                conn,
                lambda: hub.join_table(live, conn),
                lambda raw: hub.on_table_message(live, conn, raw),
                f"table {table_id}: the socket",
            )
        finally:
            hub.leave_table(live, conn)

    async def tournament_socket(websocket: WebSocket) -> None:
        conn = await open_socket(websocket)
        if conn is None:
            return
        try:
            number = path_id(websocket.path_params["tournament_id"], "tournament")
        except Refused as exc:
            await websocket.close(code=4404, reason=exc.message[:120])
            return
        live = tournaments.live.get(number)
        if live is None:
            await websocket.close(code=4404, reason=f"there is no tournament {number}")
            return
        try:
            await pump(
                websocket,
                conn,
                lambda: tournaments.join_socket(live, conn),
                lambda raw: tournaments.on_socket_message(live, conn, raw),
                f"tournament {number}: the socket",
            )
        finally:
            tournaments.leave_socket(live, conn)

    # -- operations: health, readiness, metrics (docs/DEPLOY.md) ---------------------------------

    database_file: list[tuple[int, int] | None] = [None]

    async def healthz(request: Request) -> Response:
        """The process answers (its event loop runs): nothing else is checked."""
        return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})

    async def readyz(request: Request) -> Response:
        """Ready for players: the database answers, the writer runs, the hub has started, and
        (several nodes) the other nodes can be reached."""
        checks: dict[str, str] = {}
        try:
            await asyncio.wait_for(
                store.run(lambda s: s.execute(text("SELECT 1")).scalar_one()), READY_TIMEOUT_S
            )
            checks["database"] = "ok"
        except TimeoutError:
            checks["database"] = f"no answer within {READY_TIMEOUT_S:g} s"
        except Exception as exc:
            message = str(exc).split("\n")[0][:200]
            checks["database"] = f"failed: {type(exc).__name__}: {message}"
        path = db.file()
        if path is not None and checks["database"] == "ok":
            try:
                found = os.stat(path)
                if database_file[0] not in (None, (found.st_dev, found.st_ino)):
                    checks["database"] = f"the file {path} was replaced since the server started"
            except OSError:
                checks["database"] = f"the file {path} is gone (deleted or moved)"
        checks["writer"] = "ok" if store.writing else "stopped"
        checks["hub"] = "ok" if hub.started else "not started"
        if hub.cluster.shared:  # several nodes: the others are reached through Redis
            checks["peers"] = await hub.cluster.unreachable(READY_TIMEOUT_S) or "ok"
        ready = all(value == "ok" for value in checks.values())
        return JSONResponse(
            {"status": "ready" if ready else "not_ready", "checks": checks},
            status_code=200 if ready else 503,
            headers={"Cache-Control": "no-store"},
        )

    async def metrics_page(request: Request) -> Response:
        return PlainTextResponse(
            "\n".join(_metric_lines()) + "\n",
            media_type=metrics.CONTENT_TYPE,
            headers={"Cache-Control": "no-store"},
        )

    def _metric_lines() -> list[str]:
        lobby = len(hub.lobby)
        at_tables = sum(len(live.conns) for live in hub.tables.values())
        by_status = dict.fromkeys(("open", "playing", "finished", "cancelled"), 0.0)
        for live in hub.tables.values():
            by_status[live.table.status] = by_status.get(live.table.status, 0.0) + 1
        lines = [
            *metrics.gauge(
                "gammon_connections",
                "Open WebSockets, by socket (lobby or table).",
                {"lobby": lobby, "table": at_tables},
                "socket",
            ),
            *metrics.gauge(
                "gammon_tables",
                "Tables in this server's memory, by status (open and playing are all of them; "
                "finished and cancelled only the recent ones).",
                by_status,
                "status",
            ),
            *metrics.counter(
                "gammon_actions_total",
                "Actions accepted and committed, by type.",
                dict(hub.action_counts),
                "type",
            ),
            *hub.action_seconds.lines(),
            *metrics.counter(
                "gammon_db_commits_total", "Writes committed by the writer thread.", store.commits
            ),
            *metrics.counter(
                "gammon_db_batches_total",
                "Transactions of the writer thread (each holds one or more writes).",
                store.batches,
            ),
            *metrics.gauge(
                "gammon_db_write_queue", "Writes waiting for the writer thread.", store.write_queue
            ),
            *metrics.gauge(
                "gammon_analysis_queue_depth", "Post-game analyses queued.", len(analyses.queue)
            ),
            *metrics.gauge(
                "gammon_analysis_running", "Post-game analyses running.", len(analyses.running)
            ),
            *metrics.counter(
                "gammon_analyses_completed_total", "Post-game analyses done.", analyses.completed
            ),
            *metrics.gauge(
                "gammon_bot_queue",
                "Bot moves and hints waiting for or running on the engine's thread.",
                hub.bots.pending if hub.bots is not None else 0,
            ),
            *metrics.counter(
                "gammon_faults_total", "Unexpected server faults (logged).", hub.faults.count
            ),
            *metrics.gauge("gammon_ready", "1 once the hub has started.", int(hub.started)),
            *metrics.process_lines(),
        ]
        return lines

    # -- assembly -------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if config.migrate:
            migrate.upgrade(db)
        else:
            migrate.require_head(db)
        path = db.file()
        if path is not None:
            found = os.stat(path)
            database_file[0] = (found.st_dev, found.st_ino)
        store.start()
        await hub.start()
        await tournaments.start()
        await analyses.start()
        _tune_gc()
        try:
            yield
        finally:
            if board_rollouts is not None:
                board_rollouts.stop()
            tournaments.stop()
            await tournaments.close()
            analyses.stop()
            await analyses.release()
            await hub.stop()
            store.stop()
            db.dispose()

    async def create_pair(data: dict[str, Any], pair: list[Any]) -> Any:
        settings = TableSettings.from_json(data, bot_levels=hub.bot_levels)
        seats = [Seat(seeker.user_id, seeker.name) for seeker in pair]
        return await hub.create_seated_table(settings, seats, creator=seats[0])

    # hub.ratings is replaced when the hub starts: read it at each use.
    pairing = Pairing(create_pair, lambda user: hub.ratings.get(user), hub.chance.randbelow, clock)
    board, board_rollouts = board_routes(
        handler=handler,
        body=body,
        current_user=current_user,
        run=hub.bots.run if hub.bots is not None else None,
        engine=hub.bots.engine.name if hub.bots is not None else "gammon",
        time=clock,
    )
    routes: list[Any] = [
        Route("/healthz", healthz, methods=["GET", "HEAD"]),
        Route("/readyz", readyz, methods=["GET", "HEAD"]),
        Route("/metrics", metrics_page, methods=["GET"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/signup", signup, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/guest", guest, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/info", info, methods=["GET"]),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/tables/{table_id}", table_state, methods=["GET"]),
        Route("/api/tables/{table_id}/record", table_record, methods=["GET"]),
        Route("/api/tables/{table_id}/mat", table_mat, methods=["GET"]),
        Route("/api/tournaments", tournament_list, methods=["GET", "POST"]),
        Route("/api/tournaments/{tournament_id}", tournament_state, methods=["GET"]),
        Route("/api/tournaments/{tournament_id}/{action}", tournament_action, methods=["POST"]),
        Route("/api/players", players, methods=["GET"]),
        Route("/api/players/{name}", player, methods=["GET"]),
        # Post-game analysis (gammon.server.analysis, docs/PROTOCOL.md 9).
        *analysis_routes(
            analyses,
            handler=handler,
            current_user=current_user,
            live_table=hub.live_table,
            body_fields=body_fields,
        ),
        # The analysis board (gammon.server.analysis_board, docs/PROTOCOL.md 9.1).
        *board,
        # The rule book and the dice as pages (gammon.server.pages, docs/PROTOCOL.md 1.7).
        *page_routes(handler),
        # Each account's settings for the browser (gammon.server.user_settings, PROTOCOL 1.2).
        *settings_routes(
            store, handler=handler, body=body, current_user=current_user, now=clock.now
        ),
        # Rematches (gammon.server.rematch, docs/PROTOCOL.md 4.6).
        *rematch_routes(Rematches(hub), handler=handler, body=body, current_user=current_user),
        # Quick pairing (gammon.server.pairing, docs/PROTOCOL.md 7.1).
        *pairing_routes(pairing, handler=handler, body=body, current_user=current_user),
        WebSocketRoute("/ws/lobby", lobby_socket),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        WebSocketRoute("/ws/tournaments/{tournament_id}", tournament_socket),
    ]
    if config.static is not None and config.static.is_dir():
        routes.append(index_route(config.static))
        routes.append(Mount("/", StaticFiles(directory=config.static, html=True), name="static"))
    else:
        routes.append(Route("/", _no_client, methods=["GET"]))
    if isinstance(clock, ManualTime):
        mover = handler(_time_mover(clock, body))
        routes.insert(0, Route("/api/test/time", mover, methods=["POST"]))
    app = Starlette(
        routes=routes, lifespan=lifespan, exception_handlers={HTTPException: _http_error}
    )
    app.state.hub = hub
    app.state.store = store
    app.state.analyses = analyses
    app.add_middleware(_CsrfMiddleware)
    app.add_middleware(_SecurityHeaders)
    return app


def _tune_gc() -> None:
    """Keep the cyclic garbage collector from pausing every table for a long time.

    Everything alive once the server has started (modules, recovered tables) is
    moved out of the collector's sight, and young objects are collected less
    often: nearly everything a request makes is freed by reference counting, and
    each full collection costs time in proportion to every object it looks at.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


#: How long ``/readyz`` waits for the database to answer.
READY_TIMEOUT_S: Final = 2.0

#: ``gc.set_threshold`` for the server (Python's defaults: 700, 10, 10; 2000, 10, 0 in 3.14).
GC_THRESHOLDS: Final = (20_000, 20, 20)


async def _http_error(request: Request, exc: Exception) -> Response:
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


async def _no_client(request: Request) -> Response:
    return PlainTextResponse(
        "gammon server: the browser client is not installed; see docs/PROTOCOL.md for the API\n"
    )


class _RateLimited(Exception):
    def __init__(self, seconds: int) -> None:
        super().__init__(seconds)
        self.seconds = seconds
