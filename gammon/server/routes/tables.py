"""Tables (docs/PROTOCOL.md 1.3-1.5): the server's offer (variants, bot levels, limits),
the lobby's tables and a new one, a table's state, its record and its .mat file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from gammon.matfile import write_mat
from gammon.messages import Message
from gammon.position import Position
from gammon.server import views
from gammon.server.game_json import board_json
from gammon.server.ids import path_id
from gammon.server.lobby import LobbyView
from gammon.server.pages import spoken
from gammon.server.protocol import MAX_MESSAGE_BYTES, Refused
from gammon.server.ratings import BOT_RATINGS
from gammon.server.settings import TableSettings, variant_names
from gammon.server.table import NO_SHOW

if TYPE_CHECKING:
    from gammon.server.connections import LiveTable
    from gammon.server.edge import Edge

__all__ = ["TableRoutes"]


class TableRoutes:
    """The tables' HTTP routes, over the edge's hub."""

    def __init__(self, edge: Edge) -> None:
        self.edge = edge
        self.hub = edge.hub

    def routes(self) -> list[Route]:
        handler = self.edge.handler
        return [
            Route("/api/info", handler(self.info), methods=["GET"]),
            Route("/api/tables", handler(self.tables), methods=["GET", "POST"]),
            Route("/api/tables/{table_id}", handler(self.table_state), methods=["GET"]),
            Route("/api/tables/{table_id}/record", handler(self.table_record), methods=["GET"]),
            Route("/api/tables/{table_id}/mat", handler(self.table_mat), methods=["GET"]),
        ]

    async def info(self, request: Request) -> Response:
        """What the server offers: the variants with their boards, the bot levels, limits."""
        from gammon.variants import VARIANTS

        hub = self.hub
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
                "bot_levels": self._bot_levels(),
                "bots": hub.bots_enabled,
                "limits": {"message_bytes": MAX_MESSAGE_BYTES, "messages_per_second": 20},
                "house_rules": hub.moderator.house_rules_in(spoken(request)),
                "chat_language": hub.moderator.config.language,
            }
        )

    def _bot_levels(self) -> list[dict[str, Any]]:
        """The bot's levels with their ratings (none when this server has no bots)."""
        if not self.hub.bots_enabled:
            return []
        from gammon.engine.bot import SKILL_LEVELS

        return [
            {
                "name": level.name,
                "description": level.description,
                "rating": BOT_RATINGS.get(level.name),
            }
            for level in SKILL_LEVELS.values()
        ]

    async def tables(self, request: Request) -> Response:
        """GET: the lobby's tables; POST: a new table with the body's settings."""
        edge, hub = self.edge, self.hub
        user = await edge.current_user(request)
        if request.method == "GET":
            page = hub.lobby_sockets.page_json(user, LobbyView.from_query(request.query_params))
            listed = ("tables", "total", "page", "pages", "view")
            return JSONResponse({key: page[key] for key in listed})
        if user is None:
            raise Refused(
                "not_signed_in", Message("sign in (or play as a guest) to create a table")
            )
        settings = TableSettings.from_json(await edge.body(request), bot_levels=hub.bot_levels)
        table = await hub.create_table(user, settings)
        return JSONResponse({"table": views.summary_json(table)}, status_code=201)

    async def _live_table(self, request: Request) -> LiveTable:
        table_id = path_id(request.path_params["table_id"], "table")
        live = await self.hub.live_table(table_id)
        if live is None:
            raise Refused("no_such_table", Message("there is no table {table}", table=table_id))
        return live

    async def table_state(self, request: Request) -> Response:
        live = await self._live_table(request)
        user = await self.edge.current_user(request)
        viewer = live.table.viewer_side(user.id) if user else None
        async with live.lock:  # an action being committed is not shown before it is (4.3)
            state = self.hub.table_sockets.state_for(live, viewer, spoken(request))
        return JSONResponse(state)

    async def table_record(self, request: Request) -> Response:
        live = await self._live_table(request)
        game = request.query_params.get("game")
        if game is not None:
            if not game.isdigit():
                raise Refused("bad_request", Message("'game' must be a game number"))
            return JSONResponse(views.game_record(live.table, int(game)))
        return JSONResponse(views.table_record(live.table))

    async def table_mat(self, request: Request) -> Response:
        table = (await self._live_table(request)).table
        if table.series is None:
            raise Refused("no_such_game", Message("the match has not started"))
        if table.result is not None and table.result.reason == NO_SHOW:
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
