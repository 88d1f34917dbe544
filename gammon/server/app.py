"""The ASGI application: the server's services built and wired, and the routes put together.

``create_app(ServerConfig(...))`` builds it; ``gammon serve`` runs it under uvicorn.
docs/PROTOCOL.md is the contract it keeps. The routes are in :mod:`gammon.server.routes`
(one module a concern) and beside their own logic; what every route does alike (who is
asking, bodies, errors, CSRF, the pages' security headers) is :mod:`gammon.server.edge`.
"""

from __future__ import annotations

import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from gammon.engine.evaluator import one_blas_thread
from gammon.server import migrate
from gammon.server.analysis import Analyses
from gammon.server.analysis_board import BoardRoutes
from gammon.server.auth import Accounts
from gammon.server.bots import EngineChoice
from gammon.server.chance import SeededChance, SystemChance
from gammon.server.chat import ChatConfig, ChatModerator
from gammon.server.db import Database
from gammon.server.edge import CsrfMiddleware, Edge, SecurityHeaders, http_error
from gammon.server.hub import Hub
from gammon.server.pages import index_route, page_routes
from gammon.server.pairing import Pairing, pairing_routes
from gammon.server.rematch import Rematches, rematch_routes
from gammon.server.routes.accounts import AccountRoutes
from gammon.server.routes.analyses import AnalysisRoutes
from gammon.server.routes.operations import Operations, time_mover_route
from gammon.server.routes.players import player_routes
from gammon.server.routes.sockets import SocketRoutes
from gammon.server.routes.tables import TableRoutes
from gammon.server.routes.tournaments import TournamentRoutes
from gammon.server.settings import TableSettings
from gammon.server.store import Store
from gammon.server.table import Seat
from gammon.server.timesource import ManualTime, SystemTime
from gammon.server.tournaments.live import Tournaments
from gammon.server.user_settings import settings_routes

if TYPE_CHECKING:
    from gammon.server.redis_nodes import RedisNodes

__all__ = ["RateLimits", "ServerConfig", "create_app"]

log = logging.getLogger("gammon.server")

STATIC_DIR: Final = Path(__file__).parent / "static"


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
    #: Several nodes: how long a lease lasts without renewal (gammon.server.nodes).
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


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The server application for ``config`` (the database is opened at start-up)."""
    config = config or ServerConfig()
    one_blas_thread()  # before any thread starts (its docstring says why)
    parts = _Parts.build(config)
    app = Starlette(
        routes=parts.routes(config),
        lifespan=parts.lifespan(config),
        exception_handlers={HTTPException: http_error},
    )
    app.state.hub = parts.hub
    app.state.store = parts.store
    app.state.analyses = parts.analyses
    app.add_middleware(CsrfMiddleware)
    app.add_middleware(SecurityHeaders)
    return app


@dataclass(frozen=True)
class _Parts:
    """The server's services, built and wired together: what the routes serve and what
    starts and stops with the app."""

    db: Database
    store: Store
    clock: ManualTime | SystemTime
    hub: Hub
    tournaments: Tournaments
    analyses: Analyses
    pairing: Pairing
    edge: Edge
    operations: Operations
    board: BoardRoutes

    @classmethod
    def build(cls, config: ServerConfig) -> _Parts:
        db = Database(config.database)
        store = Store(db)
        clock: ManualTime | SystemTime = ManualTime() if config.manual_time else SystemTime()
        accounts = Accounts(clock)
        nodes = None
        if config.redis is not None:
            from gammon.server.redis_nodes import RedisNodes

            nodes = RedisNodes(store, config.redis, ttl=config.lease_ttl_s)
        hub = _hub(config, store, accounts, nodes, clock)
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
            node=nodes.node if nodes is not None else None,
            claim_ttl=config.lease_ttl_s,
            take=hub.nodes.take,
            time=clock,
        )
        hub.listen("finished", lambda event: analyses.table_finished(event.live))
        pairing = _pairing(hub, clock)
        edge = Edge(store, accounts, hub)
        operations = Operations(edge, db, analyses)
        board = BoardRoutes(
            edge,
            run=hub.bots.run if hub.bots is not None else None,
            engine=hub.bots.engine.name if hub.bots is not None else "gammon",
            time=clock,
        )
        return cls(db, store, clock, hub, tournaments, analyses, pairing, edge, operations, board)

    def routes(self, config: ServerConfig) -> list[BaseRoute]:
        """Every route, by concern, then the browser client (or a line saying it is absent)."""
        edge, hub, clock = self.edge, self.hub, self.clock
        routes: list[BaseRoute] = [
            *self.operations.routes(),
            *AccountRoutes(
                edge, login_limit=config.limits.login, signup_limit=config.limits.signup, time=clock
            ).routes(),
            *TableRoutes(edge).routes(),
            *TournamentRoutes(edge, self.tournaments).routes(),
            *player_routes(edge),
            # Post-game analysis (gammon.server.analysis, docs/PROTOCOL.md 9).
            *AnalysisRoutes(edge, self.analyses).routes(),
            # The analysis board (gammon.server.analysis_board, docs/PROTOCOL.md 9.1).
            *self.board.routes(),
            # The rule book and the dice as pages (gammon.server.pages, docs/PROTOCOL.md 1.7).
            *page_routes(edge.handler),
            # Each account's settings for the browser (gammon.server.user_settings, PROTOCOL 1.2).
            *settings_routes(edge, clock.now),
            # Rematches (gammon.server.rematch, docs/PROTOCOL.md 4.6).
            *rematch_routes(edge, Rematches(hub)),
            # Quick pairing (gammon.server.pairing, docs/PROTOCOL.md 7.1).
            *pairing_routes(edge, self.pairing),
            *SocketRoutes(edge, self.tournaments, clock).routes(),
        ]
        if config.static is not None and config.static.is_dir():
            routes.append(index_route(config.static))
            routes.append(
                Mount("/", StaticFiles(directory=config.static, html=True), name="static")
            )
        else:
            routes.append(Route("/", _no_client, methods=["GET"]))
        if isinstance(clock, ManualTime):
            routes.insert(0, time_mover_route(edge, clock))
        return routes

    def lifespan(
        self, config: ServerConfig
    ) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
        """Start (the schema migrated or checked first) and stop, in that order and back."""

        @contextlib.asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            if config.migrate:
                migrate.upgrade(self.db)
            else:
                migrate.require_head(self.db)
            self.operations.started()
            self.store.start()
            await self.hub.start()
            await self.tournaments.start()
            await self.hub.join_nodes()  # several nodes: tables and tournaments are taken over now
            await self.analyses.start()
            _tune_gc()
            try:
                yield
            finally:
                if self.board.rollouts is not None:
                    self.board.rollouts.stop()
                self.tournaments.stop()
                self.analyses.stop()
                await self.analyses.release()
                await self.hub.stop()
                self.store.stop()
                self.db.dispose()

        return lifespan


def _hub(
    config: ServerConfig,
    store: Store,
    accounts: Accounts,
    nodes: RedisNodes | None,
    clock: ManualTime | SystemTime,
) -> Hub:
    """The hub as ``config`` has it: bots, engine, limits, the nodes, time, chance, the chat."""
    return Hub(
        store,
        accounts,
        bots=config.bots,
        engine=EngineChoice(config.engine, config.engine_levels),
        message_rate=config.message_rate,
        open_table_expiry_s=config.open_table_expiry_s,
        bot_table_idle_s=config.bot_table_idle_s,
        nodes=nodes,
        time=clock,
        chance=SystemChance() if config.dice_seed is None else SeededChance(config.dice_seed),
        moderator=ChatModerator(
            ChatConfig(language="any" if config.chat_language == "any" else "en"), clock=clock.now
        ),
    )


def _pairing(hub: Hub, clock: ManualTime | SystemTime) -> Pairing:
    """Quick pairing, seating each pair it makes at a new table of the hub's."""

    async def create_pair(data: dict[str, Any], pair: list[Any]) -> Any:
        settings = TableSettings.from_json(data, bot_levels=hub.bot_levels)
        seats = [Seat(seeker.user_id, seeker.name) for seeker in pair]
        return await hub.create_seated_table(settings, seats, creator=seats[0])

    # hub.ratings is replaced when the hub starts: read it at each use.
    return Pairing(create_pair, lambda user: hub.ratings.get(user), hub.chance.randbelow, clock)


#: ``gc.set_threshold`` for the server (Python's defaults: 700, 10, 10; 2000, 10, 0 in 3.14).
GC_THRESHOLDS: Final = (20_000, 20, 20)


async def _no_client(request: Request) -> Response:
    return PlainTextResponse(
        "gammon server: the browser client is not installed; see docs/PROTOCOL.md for the API\n"
    )


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
