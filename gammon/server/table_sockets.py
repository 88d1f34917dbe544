"""A table's sockets: who comes and goes, what they send, and the state each is sent.

The edge of one table (docs/PROTOCOL.md 2, 4): a socket opens at a table and gets hello,
the chat's history and the state; each message it sends is checked (flood, frame,
fields), answered where it needs no one signed in (ping, hello, chat), and otherwise
turned into an action at the table through the hub's one way to act (:meth:`Hub.act
<gammon.server.hub.Hub.act>`) or into practice's hint and tutor. After every change of
the table each socket there is sent its state (:meth:`TableSockets.broadcast_state`).
The sockets themselves, their rate limit and their answers are
:mod:`gammon.server.connections`.
"""

from __future__ import annotations

import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Final

from gammon.actions import Forfeit, PlayDice
from gammon.messages import Message
from gammon.server.chatroom import CHAT_MESSAGES
from gammon.server.client_vocabulary import FEATURES, GAME_ACTIONS, TABLE_MESSAGES
from gammon.server.connections import (
    Connection,
    LiveTable,
)
from gammon.server.practice import TAKE_BACK
from gammon.server.protocol import ClientMessage, Refused
from gammon.server.socket_answers import answer_message
from gammon.server.table import Seat
from gammon.server.table_actions import Cancel, Start, TableAction
from gammon.server.table_codec import action_from_json
from gammon.server.table_log import table_key

if TYPE_CHECKING:
    from gammon.server.auth import UserInfo
    from gammon.server.hub import Hub

__all__ = ["TableSockets"]

#: What a player sends to act at the table: the game's actions, leaving, and taking a play
#: back in practice against the bot (gammon.server.practice).
_ACTING: Final = frozenset(GAME_ACTIONS) | {Forfeit.name, TAKE_BACK}


class TableSockets:
    """The sockets at the hub's tables (see the module)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    # -- coming and going ----------------------------------------------------------------

    async def join(self, live: LiveTable, conn: Connection) -> None:
        """Send what a new table connection needs: hello, chat history, the state."""
        hub = self.hub
        table_id = live.table.id
        if hub.nodes.shared and table_id not in hub.tables:
            # Its replica was dropped after the last socket left (a page reloaded): again.
            hub.tables[table_id] = live
            await hub.cluster.loaded(live)
        live.conns.add(conn)
        conn.table = live
        hub.sockets.register(conn)
        conn.send(hub.chat.hello(conn, table=live.table.id, side=live.side(conn)))
        conn.send({"type": "chat_history", "messages": list(await hub.chat.history(live))})
        self.broadcast_state(live)
        hub.cluster.present(live)
        self._spectators_changed(live)
        if conn.user is not None:
            hub.tell("joined", live, conn.user.id)

    def leave(self, live: LiveTable, conn: Connection) -> None:
        hub = self.hub
        if live.side(conn) is not None:
            live.seen = hub.time.now()
        live.conns.discard(conn)
        hub.sockets.unregister(conn)
        if not conn.closed:
            conn.close(1000)
        self.broadcast_state(live)
        hub.cluster.present(live)
        self._spectators_changed(live)
        if not live.conns:
            hub.cluster.unwatched(live)

    def _spectators_changed(self, live: LiveTable) -> None:
        """Someone came or went: the lobby entry's spectators follow (where the table runs)."""
        nodes = self.hub.nodes
        if nodes.shared and nodes.owns(table_key(live.table.id)):
            self.hub.cluster.publish_entry(live)

    # -- what they are sent --------------------------------------------------------------

    def state_for(self, live: LiveTable, viewer: int | None, lang: str = "en") -> dict[str, Any]:
        connected, spectators = self.watchers(live, {c: live.side(c) for c in live.conns})
        return live.view.state_json(
            viewer, at=self.hub.time.now(), connected=connected, spectators=spectators, lang=lang
        )

    def watchers(
        self, live: LiveTable, sides: dict[Connection, int | None]
    ) -> tuple[set[int], int]:
        """The users at the table on any node, and its spectators: the sockets here without
        a seat (``sides``: each socket's side), and (several nodes) the users at it through
        other nodes who neither play nor are here, and those there who have not signed in."""
        here = {c.user.id for c in sides if c.user is not None}
        elsewhere, anonymous = self.hub.cluster.watching(live.table.id)
        spectators = sum(1 for side in sides.values() if side is None) + anonymous
        if elsewhere:
            seated = {seat.user_id for seat in live.table.seats or []}
            spectators += len(elsewhere - seated - here)
        return here | elsewhere, spectators

    def broadcast_state(self, live: LiveTable) -> None:
        """Send the state to everybody at the table: one text for each side, and spectators.

        A ``log_delta`` connection gets the events it has not had yet, a ``games_delta``
        one the finished games it has not had yet; connections that have had the same
        share one text too.
        """
        view = live.view
        at = self.hub.time.now()
        sides = {conn: live.side(conn) for conn in live.conns}
        connected, spectators = self.watchers(live, sides)
        length = view.log_length()
        games = view.previous_games_count()
        cache: dict[tuple[int | None, int | None, int | None, str], str] = {}
        for conn, viewer in sides.items():
            log_from: int | None = None
            if "log_delta" in conn.features:
                sent = conn.log_sent
                log_from = sent[1] if sent is not None and sent[0] == length[0] else 0
                if log_from > length[1]:
                    log_from = 0  # the table was rebuilt after a failed commit
            games_from: int | None = None
            if "games_delta" in conn.features:
                had = conn.games_sent
                games_from = had if had is not None and had <= games else 0
            key = (viewer, log_from, games_from, conn.lang)
            text = cache.get(key)
            if text is None:
                text = cache[key] = view.state_text(
                    viewer,
                    at=at,
                    connected=connected,
                    spectators=spectators,
                    log_from=log_from,
                    games_from=games_from,
                    lang=conn.lang,
                )
            conn.send(text)
            conn.log_sent = length
            conn.games_sent = games

    # -- what they send ------------------------------------------------------------------

    async def on_message(self, live: LiveTable, conn: Connection, raw: str | None) -> None:
        """One message from a table socket (``raw`` None: a binary frame, which is refused)."""
        received = time.monotonic()

        def handle(message: ClientMessage) -> Coroutine[Any, Any, None]:
            return self._table_message(live, conn, message, received)

        table_id = live.table.id
        await answer_message(
            conn, raw, TABLE_MESSAGES, handle, self.hub.faults, f"table {table_id}: a message",
            table_id=table_id,
        )  # fmt: skip

    async def _table_message(
        self, live: LiveTable, conn: Connection, message: ClientMessage, received: float
    ) -> None:
        """One checked message from a table socket: what needs no one signed in (ping, chat,
        hello), then who sends it, then what it asks (docs/PROTOCOL.md 2.1, 4)."""
        kind = message.type
        if kind == "ping":
            conn.send(
                {"type": "pong", "id": message.id} if message.id is not None else {"type": "pong"}
            )
            return
        if kind in CHAT_MESSAGES:
            await self.hub.chat.handle(conn, live, message)
            return
        if kind == "hello":
            conn.features = FEATURES.intersection(message.fields["features"])
            reply: dict[str, Any] = {"type": "ack", "features": sorted(conn.features)}
            if message.id is not None:
                reply["id"] = message.id
            conn.send(reply)
            return
        user = conn.user
        if user is None:
            raise Refused(
                "not_signed_in", Message("sign in (or play as a guest) to act at a table")
            )
        table = live.table
        side = table.side_of(user.id)
        # Who sends it comes before the seq and the table's state (docs/PROTOCOL.md 2.1).
        if message.side is not None and side is not None and message.side != side:
            raise Refused(
                "forbidden",
                Message(
                    "you play side {side} and cannot act for side {other}",
                    side=side,
                    other=message.side,
                ),
            )
        if kind in _ACTING:
            await self._player_action(live, conn, user, side, message, received)
        elif kind == "join":
            await self._join(live, conn, user, message)
        elif kind == "cancel":
            await self._cancel(live, conn, user, message)
        elif kind == "hint":
            await self._hint(live, conn, side, message)
        elif kind == "tutor":
            on = bool(message.fields["on"])
            self.hub.practice.set_tutor(table, user.id, on)
            reply = {"type": "ack", "tutor": on}
            if message.id is not None:
                reply["id"] = message.id
            conn.send(reply)
        elif kind == "keep":
            self.hub.practice.release(table.id)
            conn.send({"type": "ack", **({"id": message.id} if message.id is not None else {})})

    async def _player_action(
        self,
        live: LiveTable,
        conn: Connection,
        user: UserInfo,
        side: int | None,
        message: ClientMessage,
        received: float,
    ) -> None:
        """A player's action at the table (the edge: the message becomes the action's
        value here), with practice's tutor around a play and its take-back."""
        table = live.table
        kind = message.type
        practice = self.hub.practice
        if table.viewer_side(user.id) is None:
            raise Refused(
                "not_a_player",
                Message("you are watching this table: only its players act here"),
            )
        sent = {"type": kind, **message.fields}
        action = action_from_json(sent, side)
        tutor = practice.before_play(live, side, user.id) if kind == "play" else None
        applied = await self.hub.act(
            live,
            action,
            side=side,
            actor_id=user.id,
            entropy=message.entropy,
            conn=conn,
            message_id=message.id,
            expect_seq=message.seq,
            received=received,
            hold_bot=tutor is not None,
            sent=sent,
        )
        if kind == TAKE_BACK:
            practice.release(table.id)
        elif (
            tutor is not None
            and side is not None
            and isinstance(played := applied.action, PlayDice)
        ):
            # Nothing has been awaited since the play: the bot has not started yet.
            await practice.after_play(live, conn, side, tutor, applied.seq, str(played.play))

    async def _cancel(
        self, live: LiveTable, conn: Connection, user: UserInfo, message: ClientMessage
    ) -> None:
        if user.id != live.table.creator.user_id:
            raise Refused("forbidden", Message("only the table's creator can cancel it"))
        await self._act_seatless(live, Cancel(), conn, user, message)

    async def _act_seatless(
        self,
        live: LiveTable,
        action: TableAction,
        conn: Connection,
        user: UserInfo,
        message: ClientMessage,
    ) -> None:
        """A table action a user takes from no seat (a cancel, the start a join makes),
        acknowledged on the socket that sent it."""
        await self.hub.act(
            live,
            action,
            side=None,
            actor_id=user.id,
            conn=conn,
            message_id=message.id,
            expect_seq=message.seq,
        )

    async def _join(
        self, live: LiveTable, conn: Connection, user: UserInfo, message: ClientMessage
    ) -> None:
        table = live.table
        table.check_seq(message.seq)
        table.check_join(user.id)
        if self.hub.moderator.is_kicked(user.name, str(table.id)):
            raise Refused("forbidden", Message("an operator removed you from this table"))
        players = [table.creator, Seat(user.id, user.name)]
        if self.hub.chance.randbelow(2):
            players.reverse()  # R13: seats are drawn at random
        await self._act_seatless(live, Start(tuple(players)), conn, user, message)

    async def _hint(
        self, live: LiveTable, conn: Connection, side: int | None, message: ClientMessage
    ) -> None:
        reply = await self.hub.practice.hint(live.table, side, message.fields, conn.lang)
        if message.id is not None:
            reply["id"] = message.id
        conn.send(reply)
