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

__all__ = ["tournament_routes"]

#: The fields each tournament action's body takes (docs/PROTOCOL.md 1.6).
_ACTION_FIELDS: Final[dict[str, dict[str, type]]] = {
    "register": {},
    "unregister": {},
    "withdraw": {},
    "start": {},
    "remove": {"name": str},
    "cancel": {"reason": str},
}


def tournament_routes(edge: Edge, tournaments: Tournaments) -> list[Route]:
    """The tournaments' HTTP routes."""
    store, accounts = edge.store, edge.accounts

    def tournament(request: Request) -> LiveTournament:
        return tournaments.get(path_id(request.path_params["tournament_id"], "tournament"))

    async def account(request: Request, what: Message) -> UserInfo:
        """The signed-in account asking (tournaments are not for guests)."""
        user = await edge.current_user(request)
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

    async def tournament_list(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse({"tournaments": tournaments.lobby_json()})
        user = await account(request, Message("create a tournament"))
        created = await tournaments.create(user, await edge.body(request))
        return JSONResponse({"tournament": created.to_json()}, status_code=201)

    async def tournament_state(request: Request) -> Response:
        return JSONResponse({"tournament": tournament(request).tournament.to_json()})

    async def tournament_action(request: Request) -> Response:
        """register, unregister, withdraw (the player), remove, cancel, start (operators)."""
        live = tournament(request)
        kind = request.path_params["action"]
        takes = _ACTION_FIELDS.get(kind)
        if takes is None:
            raise Refused(
                "unknown_type",
                Message("there is no tournament action {action}", action=repr(kind[:40])),
            )
        data = await edge.body_fields(request, takes)
        user = await account(request, Message("{action} in a tournament", action=kind))
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

    return [
        Route("/api/tournaments", edge.handler(tournament_list), methods=["GET", "POST"]),
        Route(
            "/api/tournaments/{tournament_id}", edge.handler(tournament_state), methods=["GET"]
        ),
        Route(
            "/api/tournaments/{tournament_id}/{action}",
            edge.handler(tournament_action),
            methods=["POST"],
        ),
    ]
