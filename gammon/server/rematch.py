"""Rematches: at the end of a match, either player asks for another with the same settings;
against the bot it starts at once, between people when the other asks too (docs/PROTOCOL.md
4.6). The new table has the seats swapped, so the other player opens the first game's
numbering.

Why apart from the table: a finished table's log is closed (nothing more may be applied to
it), and a rematch is a new table, not an action of the old one. The offers are kept in
memory on the node that runs the finished table, where its players' sockets are: they
hear of an offer and of the new table as a ``rematch`` message on that table's socket. An
offer is forgotten when its server restarts (the players ask again).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.messages import Message
from gammon.server.bodies import fields
from gammon.server.ids import path_id
from gammon.server.protocol import Refused
from gammon.server.tournaments.queries import table_tournament

if TYPE_CHECKING:
    from gammon.server.auth import UserInfo
    from gammon.server.connections import LiveTable
    from gammon.server.edge import Edge
    from gammon.server.hub import Hub
    from gammon.server.table import Table

__all__ = ["Rematches", "rematch_routes"]


class Rematches:
    """The offers of rematch on this node's finished tables, and the tables they made."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        #: Finished table -> the sides that asked for a rematch.
        self.offers: dict[int, set[int]] = {}
        #: Finished table -> its rematch's table, once made.
        self.made: dict[int, int] = {}

    def message(self, table_id: int) -> dict[str, Any]:
        return {
            "type": "rematch",
            "table": table_id,
            "offered_by": sorted(self.offers.get(table_id, ())),
            "rematch": self.made.get(table_id),
        }

    def _tell(self, live: LiveTable) -> None:
        message = self.message(live.table.id)
        for conn in list(live.conns):
            conn.send(message)

    async def ask(self, live: LiveTable, user: UserInfo) -> dict[str, Any]:
        """``user`` asks for a rematch of ``live``'s finished match."""
        table = live.table
        side = table.viewer_side(user.id) if table.seats else None
        if side is None or table.seats is None or table.seats[side].user_id != user.id:
            raise Refused("not_a_player", Message("a rematch is for the two players of the match"))
        if table.status != "finished":
            raise Refused("game_not_over", Message("the match is not over: finish it first"))
        if await self.hub.store.run(lambda s: table_tournament(s, table.id)) is not None:
            raise Refused(
                "not_available",
                Message("a tournament's match has no rematch: the bracket goes on"),
            )
        if table.id in self.made:
            return self.message(table.id)  # both asked already: here is the table
        asked = self.offers.setdefault(table.id, set())
        asked.add(side)
        other = table.seats[1 - side]
        if other.bot is not None or asked == {0, 1}:
            made = await self._start(table, user)
            self.made[table.id] = made.id
            self.offers.pop(table.id, None)
        self._tell(live)
        return self.message(table.id)

    async def _start(self, table: Table, asker: UserInfo) -> Table:
        assert table.seats is not None
        settings = replace(table.settings, invite=None)
        if settings.bot is not None:
            # Against the bot: a new table as the player would create it (seats drawn again).
            return await self.hub.create_table(asker, settings)
        seats = [table.seats[1], table.seats[0]]
        return await self.hub.create_seated_table(settings, seats, creator=seats[0])


def rematch_routes(edge: Edge, rematches: Rematches) -> list[Route]:
    """``POST /api/tables/{id}/rematch``, wrapped in the edge's ``handler``."""
    handler, body, current_user = edge.handler, edge.body, edge.current_user

    async def ask(request: Request) -> Response:
        user = await current_user(request)
        if user is None:
            raise Refused("not_signed_in", Message("sign in to ask for a rematch"))
        table_id = path_id(request.path_params["table_id"], "table")
        fields(await body(request), {})  # the request takes no fields
        live = await rematches.hub.live_table(table_id)
        if live is None:
            raise Refused("no_such_table", Message("there is no table {table}", table=table_id))
        return JSONResponse({"rematch": await rematches.ask(live, user)})

    return [Route("/api/tables/{table_id}/rematch", handler(ask), methods=["POST"])]
