"""The WebSockets (docs/PROTOCOL.md 2): the lobby's, a table's and a tournament's.

Each opens the same way (the Origin, who is asking, bans), then reads messages until the
socket closes; the hub (or the tournaments) answers every message.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Literal

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from gammon.messages import Message
from gammon.server.auth import SESSION_COOKIE, hash_token
from gammon.server.connections import Connection, close_reason
from gammon.server.edge import origin_ok
from gammon.server.ids import path_id
from gammon.server.pages import spoken
from gammon.server.protocol import Refused
from gammon.server.wsprotocol import DIRECT

if TYPE_CHECKING:
    from gammon.server.edge import Edge
    from gammon.server.timesource import TimeSource
    from gammon.server.tournaments.live import Tournaments

__all__ = ["SocketRoutes"]


class SocketRoutes:
    """The three WebSocket routes, over the edge's hub and the tournaments."""

    def __init__(self, edge: Edge, tournaments: Tournaments, time: TimeSource) -> None:
        self.edge = edge
        self.hub = edge.hub
        self.tournaments = tournaments
        self.time = time

    def routes(self) -> list[WebSocketRoute]:
        return [
            WebSocketRoute("/ws/lobby", self.lobby_socket),
            WebSocketRoute("/ws/tables/{table_id}", self.table_socket),
            WebSocketRoute("/ws/tournaments/{tournament_id}", self.tournament_socket),
        ]

    async def _open(self, websocket: WebSocket) -> Connection | None:
        """The accepted socket's connection, or None once it is closed (a foreign Origin,
        a banned account)."""
        if not origin_ok(websocket):
            await websocket.close(code=1008)
            return None
        token = websocket.cookies.get(SESSION_COOKIE)
        user = await self.edge.current_user(websocket)
        if user is not None and self.hub.is_banned(user):
            await websocket.close(code=4403)
            return None
        await websocket.accept()
        return Connection(
            websocket,
            user,
            hash_token(token) if token and user else None,
            direct=(websocket.scope.get("extensions") or {}).get(DIRECT),
            time=self.time,
            lang=spoken(websocket),
        )

    async def _serve(
        self,
        websocket: WebSocket,
        conn: Connection,
        join: Callable[[], Awaitable[None]],
        handle: Callable[[str | None], Awaitable[None]],
        leave: Callable[[], None],
        where: str,
    ) -> None:
        """Join, read messages until the socket closes (text frames; bytes: None), leave.

        The hub answers every message, refusals and its own faults included; an
        exception that still gets here (a fault outside any one message) is
        logged as one line and closes the socket with 1011 (docs/PROTOCOL.md 2).
        """
        hub = self.hub
        writer = conn.writer = hub.spawn(conn.write_loop())
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
            try:
                conn.close(conn.close_code if conn.closed else 1000)
                with contextlib.suppress(Exception):
                    await writer
            finally:
                leave()

    async def lobby_socket(self, websocket: WebSocket) -> None:
        conn = await self._open(websocket)
        if conn is None:
            return
        hub = self.hub
        await self._serve(
            websocket,
            conn,
            lambda: hub.lobby_sockets.join(conn),
            lambda raw: hub.lobby_sockets.on_message(conn, raw),
            lambda: hub.lobby_sockets.leave(conn),
            "the lobby socket",
        )

    async def table_socket(self, websocket: WebSocket) -> None:
        conn = await self._open(websocket)
        if conn is None:
            return
        table_id = await _socket_id(websocket, conn, "table_id", "table")
        if table_id is None:
            return
        hub = self.hub
        live = await hub.live_table(table_id)
        if live is None:
            why = Message("there is no table {table}", table=table_id)
            await _refuse(websocket, conn, 4404, why)
            return
        if conn.user is not None and hub.moderator.is_kicked(conn.user.name, str(table_id)):
            await _refuse(websocket, conn, 4403, Message("removed from the table by an operator"))
            return
        await self._serve(
            websocket,
            conn,
            lambda: hub.table_sockets.join(live, conn),
            lambda raw: hub.table_sockets.on_message(live, conn, raw),
            lambda: hub.table_sockets.leave(live, conn),
            f"table {table_id}: the socket",
        )

    async def tournament_socket(self, websocket: WebSocket) -> None:
        conn = await self._open(websocket)
        if conn is None:
            return
        number = await _socket_id(websocket, conn, "tournament_id", "tournament")
        if number is None:
            return
        tournaments = self.tournaments
        live = tournaments.live.get(number)
        if live is None:
            why = Message("there is no tournament {tournament}", tournament=number)
            await _refuse(websocket, conn, 4404, why)
            return
        await self._serve(
            websocket,
            conn,
            lambda: tournaments.join_socket(live, conn),
            lambda raw: tournaments.on_socket_message(live, conn, raw),
            lambda: tournaments.leave_socket(live, conn),
            f"tournament {number}: the socket",
        )


async def _refuse(websocket: WebSocket, conn: Connection, code: int, why: Message) -> None:
    """Close for good, saying why in the socket's language (the browser shows it)."""
    await websocket.close(code=code, reason=close_reason(why, conn.lang))


async def _socket_id(
    websocket: WebSocket, conn: Connection, key: str, what: Literal["table", "tournament"]
) -> int | None:
    """The path's id, or None once the socket is closed for a malformed one."""
    try:
        return path_id(websocket.path_params[key], what)
    except Refused as exc:
        await _refuse(websocket, conn, 4404, exc.text)
        return None
