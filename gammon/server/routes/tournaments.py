"""Tournaments (docs/PROTOCOL.md 1.6): the list and a new one, a tournament's state, and
the actions of players (register, unregister, withdraw) and operators (remove, cancel,
start)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.messages import Message
from gammon.server.ids import path_id
from gammon.server.protocol import Refused

if TYPE_CHECKING:
    from gammon.server.auth import UserInfo
    from gammon.server.edge import Edge
    from gammon.server.tournaments.live import LiveTournament, Tournaments

__all__ = ["TournamentRoutes"]

#: The fields each tournament action's body takes (docs/PROTOCOL.md 1.6).
_ACTION_FIELDS: Final[dict[str, dict[str, type]]] = {
    "register": {},
    "unregister": {},
    "withdraw": {},
    "start": {},
    "remove": {"name": str},
    "cancel": {"reason": str},
}


class TournamentRoutes:
    """The tournaments' HTTP routes."""

    def __init__(self, edge: Edge, tournaments: Tournaments) -> None:
        self.edge = edge
        self.tournaments = tournaments

    def routes(self) -> list[Route]:
        handler = self.edge.handler
        return [
            Route("/api/tournaments", handler(self.tournament_list), methods=["GET", "POST"]),
            Route(
                "/api/tournaments/{tournament_id}", handler(self.tournament_state), methods=["GET"]
            ),
            Route(
                "/api/tournaments/{tournament_id}/{action}",
                handler(self.tournament_action),
                methods=["POST"],
            ),
        ]

    def _tournament(self, request: Request) -> LiveTournament:
        return self.tournaments.get(path_id(request.path_params["tournament_id"], "tournament"))

    async def _account(self, request: Request, what: Message) -> UserInfo:
        """The signed-in account asking (tournaments are not for guests)."""
        user = await self.edge.current_user(request)
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

    async def tournament_list(self, request: Request) -> Response:
        tournaments = self.tournaments
        if request.method == "GET":
            return JSONResponse({"tournaments": tournaments.lobby_json()})
        user = await self._account(request, Message("create a tournament"))
        created = await tournaments.create(user, await self.edge.body(request))
        return JSONResponse({"tournament": created.to_json()}, status_code=201)

    async def tournament_state(self, request: Request) -> Response:
        return JSONResponse({"tournament": self._tournament(request).tournament.to_json()})

    async def tournament_action(self, request: Request) -> Response:
        """register, unregister, withdraw (the player), remove, cancel, start (operators)."""
        live = self._tournament(request)
        kind = request.path_params["action"]
        takes = _ACTION_FIELDS.get(kind)
        if takes is None:
            raise Refused(
                "unknown_type",
                Message("there is no tournament action {action}", action=repr(kind[:40])),
            )
        data = await self.edge.body_fields(request, takes)
        user = await self._account(request, Message("{action} in a tournament", action=kind))
        action = await self._action(kind, data, user)
        await self.tournaments.request(live, action, actor_id=user.id, operator=user.operator)
        return JSONResponse({"tournament": live.tournament.to_json()})

    async def _action(self, kind: str, data: dict[str, Any], user: UserInfo) -> dict[str, Any]:
        """The tournament's action ``kind`` that ``user`` asks for with the body ``data``."""
        action: dict[str, Any] = {"type": kind}
        if kind == "register":
            action.update(user=user.id, name=user.name)
        elif kind in ("unregister", "withdraw"):
            action["user"] = user.id
        elif kind == "remove":
            action["user"] = await self._removed_id(data)
        elif kind == "cancel":
            if "reason" in data:
                action["reason"] = data["reason"]
        else:
            action["seed"] = secrets.token_hex(16)  # start
        return action

    async def _removed_id(self, data: dict[str, Any]) -> int:
        """The id of the player an operator removes, named in the body."""
        if "name" not in data:
            raise Refused(
                "bad_request", Message('send the player\'s name: {{"name": ...}}'), field="name"
            )
        name = data["name"]
        accounts = self.edge.accounts
        found = await self.edge.store.run(lambda s: accounts.find(s, name))
        if found is None:
            raise Refused(
                "no_such_user",
                Message("there is no user called {name}", name=repr(name)),
                field="name",
            )
        return found.id
