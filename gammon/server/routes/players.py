"""Players (docs/PROTOCOL.md 1.7): the leaderboard with its search, and a player's page
(people and the bots)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.messages import Message
from gammon.server.players import LEADERBOARD_PAGE, bot_profile, leaderboard, profile
from gammon.server.protocol import Refused

if TYPE_CHECKING:
    from gammon.server.edge import Edge

__all__ = ["player_routes"]


def player_routes(edge: Edge) -> list[Route]:
    """The players' HTTP routes, read from the edge's store."""
    store = edge.store

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

    async def player(request: Request) -> Response:
        name = request.path_params["name"][:40]
        found = await store.run(lambda s: profile(s, name) or bot_profile(s, name))
        if found is None:
            raise Refused(
                "no_such_player", Message("there is no player called {name}", name=repr(name))
            )
        return JSONResponse({"player": found})

    return [
        Route("/api/players", edge.handler(players), methods=["GET"]),
        Route("/api/players/{name}", edge.handler(player), methods=["GET"]),
    ]
