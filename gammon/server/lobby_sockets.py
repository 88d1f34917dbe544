"""The lobby's live side: the entries it lists of the tables, and its sockets.

:mod:`gammon.server.lobby` is pure of the network: given entries, ratings and sockets
it builds and sends their pages. This is what feeds it on one node: each listed table's
entry (this node's, and with several nodes the others', which
:class:`gammon.server.cluster.RedisCluster` keeps), the lobby's sockets coming and
going, and their messages: chat, moderation, ping and the choice of a view. A
tournament's chat socket (:mod:`gammon.server.tournaments.pages`) speaks the same way,
in its own room.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gammon.server.client_vocabulary import LOBBY_MESSAGES, TOURNAMENT_MESSAGES
from gammon.server.connections import (
    Connection,
    LiveTable,
)
from gammon.server.lobby import LobbyView
from gammon.server.protocol import ClientMessage
from gammon.server.socket_answers import answer_message
from gammon.server.table_log import table_key
from gammon.server.views import summary_json

if TYPE_CHECKING:
    from gammon.server.auth import UserInfo
    from gammon.server.chatroom import TournamentRoom
    from gammon.server.hub import Hub

__all__ = ["LobbySockets"]


class LobbySockets:
    """The hub's lobby: its entries and its sockets (see the module)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    # -- what it lists -------------------------------------------------------------------

    def entry(self, live: LiveTable) -> dict[str, Any] | None:
        """What the lobby needs of the table, viewer aside (None: it is not listed).

        With several nodes the node running the table writes this for every node
        (:meth:`Cluster.publish_entry`): ``summary`` is its entry in docs/PROTOCOL.md 1.3
        less ``ratings`` (each node has its own), which come from ``seats``.
        """
        table = live.table
        if table.status not in ("open", "playing"):
            return None
        sides = {c: live.side(c) for c in live.conns}
        _, spectators = self.hub.table_sockets.watchers(live, sides)
        seats = table.seats if table.seats is not None else [table.creator, None]
        return {
            "summary": summary_json(table, spectators),
            "seats": [[seat.user_id, seat.bot] if seat is not None else None for seat in seats],
            "invite_id": table.invite_id,
            "creator_id": table.creator.user_id,
        }

    def entries(self) -> list[dict[str, Any]]:
        """Every listed table's entry: this node's, and with several nodes the others'."""
        hub = self.hub
        shared = hub.cluster.lobby_entries()
        if shared is None:
            return [entry for live in hub.tables.values() if (entry := self.entry(live))]
        mine = {table_id: self.entry(live) for table_id, live in hub.tables.items()
                if hub.nodes.owns(table_key(table_id))}  # fmt: skip
        entries = [entry for table_id, entry in shared.items() if table_id not in mine]
        return entries + [entry for entry in mine.values() if entry is not None]

    def page_json(self, viewer: UserInfo | None, view: LobbyView | None = None) -> dict[str, Any]:
        """One page of the lobby as ``viewer`` sees it (docs/PROTOCOL.md 7)."""
        return self.hub.lobby_pages.page_json(viewer, view if view is not None else LobbyView())

    # -- its sockets ---------------------------------------------------------------------

    async def join(self, conn: Connection) -> None:
        hub = self.hub
        hub.lobby_pages.join(conn)
        hub.sockets.register(conn)
        conn.send(hub.chat.hello(conn))
        conn.send({"type": "chat_history", "messages": list(await hub.chat.history(None))})
        hub.lobby_pages.show(conn)

    def leave(self, conn: Connection) -> None:
        self.hub.lobby_pages.leave(conn)
        self.hub.sockets.unregister(conn)
        if not conn.closed:
            conn.close(1000)

    async def on_message(self, conn: Connection, raw: str | None) -> None:
        await self.on_chat_message(conn, raw, None, "a lobby message")

    async def on_chat_message(
        self,
        conn: Connection,
        raw: str | None,
        room: TournamentRoom | None,
        where: str,
    ) -> None:
        """One message on a chat socket, the lobby's (``room`` None) or a tournament's:
        chat, moderation and ping, with the flood, refusal and fault answers of every socket.
        A tournament's message from a socket not in its room is dropped."""
        allowed = LOBBY_MESSAGES if room is None else TOURNAMENT_MESSAGES

        async def handle(message: ClientMessage) -> None:
            if message.type == "ping":
                conn.send({"type": "pong"})
            elif message.type == "lobby_view":
                self.hub.lobby_pages.choose(conn, message.fields, message.id)
            elif room is None or conn in room.conns:
                await self.hub.chat.handle(conn, room, message)

        await answer_message(conn, raw, allowed, handle, self.hub.faults, where)
