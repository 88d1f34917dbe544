"""A tournament's socket: its pages kept live, and its chat (docs/PROTOCOL.md 6.1).

Each tournament watched has a room (:class:`~gammon.server.chatroom.TournamentRoom`):
the sockets of the pages open on it, which hear the tournament after each change
(changes close together: once), and its chat, which the hub's chat room runs as the
lobby's. The JSON a page and the lobby are sent are here too. What changes a
tournament is :mod:`gammon.server.tournaments.live`; this module only shows it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from gammon.server.chatroom import TournamentRoom
from gammon.server.protocol import dumps
from gammon.server.tournaments.state import Tournament

if TYPE_CHECKING:
    from gammon.server.connections import Connection
    from gammon.server.hub import Hub

__all__ = ["PUSH_DEBOUNCE_S", "TournamentPages", "summary_json", "tournament_message"]

#: A tournament's page hears of its changes at most this often (docs/PROTOCOL.md 6.1).
PUSH_DEBOUNCE_S: Final = 0.1


class TournamentPages:
    """Every tournament's socket room on this node: who watches, and what they are sent.

    ``tournament`` finds a tournament in memory by its number (None once it is gone).
    """

    def __init__(self, hub: Hub, tournament: Callable[[int], Tournament | None]) -> None:
        self.hub = hub
        self._tournament = tournament
        #: Each watched tournament's room: its pages' sockets and its chat.
        self.rooms: dict[int, TournamentRoom] = {}
        self._pushes: set[int] = set()

    def push(self, tournament_id: int) -> None:
        """Send the tournament to everybody on its socket, soon (changes close together: once)."""
        room = self.rooms.get(tournament_id)
        if room is None or not room.conns or tournament_id in self._pushes:
            return
        self._pushes.add(tournament_id)

        def push() -> None:
            self._pushes.discard(tournament_id)
            tournament = self._tournament(tournament_id)
            if tournament is None:
                return
            text = dumps(tournament_message(tournament))
            for conn in list(room.conns):
                conn.send(text)

        asyncio.get_running_loop().call_later(PUSH_DEBOUNCE_S, push)

    async def join(self, tournament: Tournament, conn: Connection) -> None:
        """A page opens the tournament's socket: hello, the chat's recent lines, the tournament."""
        number = tournament.id
        room = self.rooms.get(number)
        if room is None:
            room = self.rooms[number] = TournamentRoom(number)
        room.conns.add(conn)
        self.hub.sockets.register(conn)
        chat = self.hub.chat
        conn.send(chat.hello(conn, tournament=number))
        conn.send({"type": "chat_history", "messages": list(await chat.history(room))})
        conn.send(tournament_message(tournament))

    def leave(self, tournament_id: int, conn: Connection) -> None:
        """A page closes the tournament's socket (or is closed)."""
        room = self.rooms.get(tournament_id)
        if room is not None:
            room.conns.discard(conn)
            if not room.conns:
                del self.rooms[tournament_id]  # its chat is read again from the database
        self.hub.sockets.unregister(conn)
        if not conn.closed:
            conn.close(1000)

    async def on_message(self, tournament_id: int, conn: Connection, raw: str | None) -> None:
        """One message on a tournament's socket: the lobby's messages (chat, moderation, ping)."""
        room = self.rooms.get(tournament_id)
        if room is None:  # no room: nothing to say there (a ping is still answered)
            room = TournamentRoom(tournament_id)
        where = f"tournament {tournament_id}: a message"
        await self.hub.lobby_sockets.on_chat_message(conn, raw, room, where)


def tournament_message(tournament: Tournament) -> dict[str, Any]:
    """What a tournament's socket sends on connect and after each change."""
    return {"type": "tournament", "tournament": tournament.to_json()}


def summary_json(tournament: Tournament) -> dict[str, Any]:
    """A tournament as the lobby lists it."""
    settings = tournament.settings
    return {
        "id": tournament.id,
        "name": settings.name,
        "kind": settings.kind,
        "status": tournament.status,
        "seats": settings.seats,
        "registered": len(tournament.registered),
        "start_at": settings.start_at,
        "lengths": list(settings.lengths),
        "variant": settings.table.get("variant", "standard"),
        "rated": settings.rated,
        "satellite": settings.satellite.to_json() if settings.satellite else None,
        "winner": tournament.entry(tournament.winner).name
        if tournament.winner is not None
        else None,
    }
