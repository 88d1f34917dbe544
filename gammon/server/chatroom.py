"""The chat room: table and lobby chat, mutes, reports, and the operators' kicks and bans (R13).

:class:`ChatRoom` carries out the chat messages of docs/PROTOCOL.md 6 on the
house rules of :mod:`gammon.server.chat` (the :class:`~gammon.server.chat.ChatModerator`),
records them through the named queries of :mod:`gammon.server.store`, and
sends each accepted line to everybody at the table (or in the lobby) who has
not muted its author. What it needs of the hub (closing a user's sockets, a
kicked player's forfeit) it is given when it is made.
"""

from __future__ import annotations

import collections
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

from gammon.messages import Message
from gammon.server import chat
from gammon.server.auth import Accounts, TokenBuckets, UserInfo
from gammon.server.chat_queries import (
    add_chat_message,
    add_report,
    add_sanction,
    chat_history,
    moderation_state,
    set_banned,
)
from gammon.server.connections import Connection, LiveTable
from gammon.server.protocol import ClientMessage, Refused, dumps
from gammon.server.store import Store
from gammon.server.timesource import SystemTime, TimeSource

__all__ = ["CHAT_HISTORY", "CHAT_MESSAGES", "ChatRoom", "TournamentRoom"]

#: The recent messages sent to a socket when it connects.
CHAT_HISTORY: Final = 50
#: The messages the chat room answers (on a table's socket and the lobby's).
CHAT_MESSAGES: Final = frozenset({"chat", "report", "kick", "ban", "unban", "mute", "unmute"})


def chat_notice(language: str) -> Message:
    """The house rule on the chat's language (``--chat-language``), for a player joining a
    chat: "en" keeps the guides' rule that tables speak English; "any" lets players write
    in the language they share."""
    if language == "en":
        return Message("The chat here is in English: please write in English.")
    return Message("The chat here is in any language: write in one your opponent reads.")


@dataclass(eq=False)
class TournamentRoom:
    """A tournament's chat room (docs/PROTOCOL.md 6.1): who is on its socket, its recent lines."""

    tournament_id: int
    conns: set[Connection] = field(default_factory=set)
    chat: collections.deque[dict[str, Any]] | None = None

    @property
    def key(self) -> str:
        """The room's name for the moderator (mutes and kicks are per table; reports name it)."""
        return f"tournament-{self.tournament_id}"


#: Where a chat message is said: a table, a tournament's room, or the lobby (None).
Place = LiveTable | TournamentRoom | None


def _key(place: Place) -> str | None:
    if isinstance(place, TournamentRoom):
        return place.key
    return str(place.table.id) if place is not None else None


class ChatRoom:
    """Every chat of one server: the lobby's, each table's and each tournament's, with their
    moderation."""

    def __init__(
        self,
        store: Store,
        accounts: Accounts,
        moderator: chat.ChatModerator,
        *,
        lobby: set[Connection],
        close_user: Callable[[int, int, str | Message], None],
        forfeit: Callable[[LiveTable, int, int], Awaitable[None]],
        time: TimeSource | None = None,
    ) -> None:
        #: The clock of the lines' times and the chat rate (gammon.server.timesource).
        self.time: TimeSource = time if time is not None else SystemTime()
        self.store = store
        self.accounts = accounts
        self.moderator = moderator
        #: The lobby's sockets (the hub's set): the lobby chat's audience.
        self.lobby = lobby
        self._close_user = close_user
        self._forfeit = forfeit
        self._lobby_chat: collections.deque[dict[str, Any]] | None = None
        #: Where each accepted line goes besides this node's sockets: (table id, tournament
        #: id, author, the line); set by gammon.server.cluster when there are other nodes.
        self.relay: Callable[[int | None, int | None, str, dict[str, Any]], None] | None = None
        #: Where kicks, bans and their lifting go besides this node: (kind, user id, name,
        #: until, the table of a kick).
        self.relay_moderation: Callable[[str, int, str, float | None, str | None], None] | None = (
            None
        )
        #: Where a user's mutes go besides this node: (the user, whom, muted or not), so
        #: that their sockets on every node leave the muted author out.
        self.relay_mute: Callable[[str, str, bool], None] | None = None
        #: Several nodes: a token from a limit every node shares (the cluster's ``take``),
        #: which holds each user's chat rate across nodes; None: the moderator's alone.
        self.take_shared: Callable[[TokenBuckets, str], Awaitable[float]] | None = None
        config = moderator.config
        self._rate = TokenBuckets(
            config.rate_messages,
            config.rate_messages / config.rate_seconds,
            name="chat",
            time=self.time,
        )

    async def load(self) -> None:
        """The operators and the bans in force, from the database (server start)."""
        operators, bans = await self.store.run(moderation_state)
        self.moderator = chat.ChatModerator(
            self.moderator.config, clock=self.time.now, operators=operators, bans=bans
        )

    def is_banned(self, user: UserInfo) -> bool:
        return user.banned or self.moderator.is_banned(user.name)

    async def history(self, live: Place) -> collections.deque[dict[str, Any]]:
        """The recent messages of a table, a tournament (or of the lobby: None), read once from
        the database."""
        if live is not None and live.chat is not None:
            return live.chat
        if live is None and self._lobby_chat is not None:
            return self._lobby_chat
        table_id = live.table.id if isinstance(live, LiveTable) else None
        tournament_id = live.tournament_id if isinstance(live, TournamentRoom) else None
        rows = await self.store.run(
            lambda s: chat_history(s, table_id, CHAT_HISTORY, tournament_id=tournament_id)
        )
        history = collections.deque(rows, maxlen=CHAT_HISTORY)
        if live is not None:
            if live.chat is None:
                live.chat = history
            return live.chat
        if self._lobby_chat is None:
            self._lobby_chat = history
        return self._lobby_chat

    def hello(self, conn: Connection, **more: Any) -> dict[str, Any]:
        """The ``hello`` a socket gets first: who it is, and the house rules."""
        return {
            "type": "hello",
            "user": conn.user.to_json() if conn.user else None,
            **more,
            "house_rules": self.moderator.house_rules_in(conn.lang),
            # The site's house rule on the chat's language, as a setting and as a notice in
            # the player's language (shown where the chat opens).
            "chat_language": self.moderator.config.language,
            "chat_notice": chat_notice(self.moderator.config.language).translated(conn.lang),
        }

    async def handle(self, conn: Connection, live: Place, message: ClientMessage) -> None:
        """Carry out one of :data:`CHAT_MESSAGES` from a table's socket, a tournament's, or
        the lobby's."""
        user = conn.user
        if user is None:
            raise Refused("not_signed_in", Message("sign in (or play as a guest) to chat"))
        kind, fields = message.type, message.fields
        table_key = _key(live)
        try:
            if kind == "chat":
                await self._post(user, live, table_key, fields["text"])
            elif kind in ("mute", "unmute"):
                muted = kind == "mute"
                self.follow_mute(user.name, fields["user"], muted)
                if self.relay_mute is not None:
                    self.relay_mute(user.name, fields["user"], muted)
                conn.send({"type": "muted", "user": fields["user"], "muted": muted})
            elif kind == "report":
                await self._report(conn, user, table_key, fields)
            elif kind in ("kick", "ban", "unban"):
                await self._operator(conn, user, live, kind, fields)
        except chat.ChatError as exc:
            raise Refused.of("forbidden", exc) from None
        if message.id is not None:
            conn.send({"type": "ack", "id": message.id})

    async def _post(self, user: UserInfo, live: Place, table_key: str | None, text: str) -> None:
        decision = self.moderator.moderate(user.name, text, table=table_key)
        if isinstance(decision, chat.Accepted) and self.take_shared is not None:
            # The moderator counts this node's lines; the user may be on others too.
            wait = await self.take_shared(self._rate, str(user.id))
            if wait:
                decision = chat.too_fast(self.moderator.config, wait)
        if isinstance(decision, chat.Rejected):
            code = "banned" if decision.rule is chat.Rule.BANNED else "chat_refused"
            raise Refused(code, decision.notice or decision.reason)
        at = self.time.now()
        table_id = live.table.id if isinstance(live, LiveTable) else None
        tournament_id = live.tournament_id if isinstance(live, TournamentRoom) else None
        message_id = await self.store.run(
            lambda s: add_chat_message(
                s, table_id, user.id, decision.text, at, tournament_id=tournament_id
            )
        )
        entry = {"id": message_id, "user": user.name, "text": decision.text, "ms": int(at * 1000)}
        (await self.history(live)).append(entry)
        self._send(live, user.name, entry)
        if self.relay is not None:
            self.relay(table_id, tournament_id, user.name, entry)

    def _send(self, live: Place, author: str, entry: dict[str, Any]) -> None:
        audience = live.conns if live is not None else self.lobby
        names = [c.user.name for c in audience if c.user is not None]
        allowed = set(self.moderator.audience(author, names))
        out = dumps({"type": "chat", "message": entry})
        for other in list(audience):
            if other.user is None or other.user.name in allowed:
                other.send(out)

    def deliver(
        self,
        table_id: int | None,
        tournament_id: int | None,
        author: str,
        entry: dict[str, Any],
        tables: dict[int, LiveTable],
    ) -> None:
        """A line accepted on another node: to this node's sockets there, and its history.

        (A tournament room's lines stay on the node of their socket for now.)
        """
        if tournament_id is not None:
            return
        live = tables.get(table_id) if table_id is not None else None
        if table_id is not None and live is None:
            return  # nobody here watches that table; its history is read when they do
        history = live.chat if live is not None else self._lobby_chat
        if history is not None:
            history.append(entry)
        self._send(live, author, entry)

    def follow_mute(self, user: str, target: str, muted: bool) -> None:
        """``user`` muted (or unmuted) ``target``: here, or on another node."""
        if muted:
            self.moderator.mute(user, target)
        else:
            self.moderator.unmute(user, target)

    def follow(
        self,
        kind: str,
        user_id: int,
        name: str,
        until: float | None,
        live: LiveTable | None,
    ) -> None:
        """A kick, ban or unban decided on another node: hold it here too (a kick from
        ``live``, this node's copy of the table, or None when nobody here watches it)."""
        if kind == "kick":
            if live is not None:
                self.moderator.follow_kick(name, str(live.table.id))
                for other in list(live.conns):
                    if other.user is not None and other.user.id == user_id:
                        other.close(4403, Message("removed from the table by an operator"))
            return
        self.moderator.follow(name, until, banned=kind == "ban")
        self.accounts.forget_user(user_id)
        if kind == "ban":
            self._close_user(user_id, 4403, Message("banned by an operator"))

    async def _report(
        self, conn: Connection, user: UserInfo, table_key: str | None, fields: dict[str, Any]
    ) -> None:
        target_name = fields.get("user")
        if not isinstance(target_name, str):
            raise Refused("bad_message", Message("a 'report' message needs 'user'"))
        target = await self.store.run(lambda s: self.accounts.find(s, target_name))
        if target is None:
            raise Refused(
                "no_such_user", Message("there is no user called {name}", name=repr(target_name))
            )
        report = self.moderator.report(
            user.name, target.name, fields.get("reason", ""), table=table_key
        )
        await self.store.run(
            lambda s: add_report(
                s,
                user.id,
                target.id,
                reason=report.reason,
                table=table_key,
                evidence=report.evidence,
                at=report.at,
            )
        )
        conn.send({"type": "reported", "user": target.name, "number": report.number})

    async def _operator(
        self,
        conn: Connection,
        user: UserInfo,
        live: Place,
        kind: str,
        fields: dict[str, Any],
    ) -> None:
        target_name = fields["user"]
        target = await self.store.run(lambda s: self.accounts.find(s, target_name))
        if target is None:
            raise Refused(
                "no_such_user", Message("there is no user called {name}", name=repr(target_name))
            )
        reason = fields.get("reason", "")
        at = self.time.now()

        async def sanction(until: float | None = None) -> None:
            await self.store.run(
                lambda s: add_sanction(
                    s, target.id, kind, until=until, by=user.id, reason=reason, at=at
                )
            )

        if kind == "kick":
            if not isinstance(live, LiveTable):
                raise Refused(
                    "bad_message",
                    Message("kick from a table's socket: it removes the user from that table"),
                )
            self.moderator.kick(user.name, target.name, str(live.table.id), reason)
            await sanction()
            if self.relay_moderation is not None:
                self.relay_moderation("kick", target.id, target.name, None, str(live.table.id))
            for other in list(live.conns):
                if other.user is not None and other.user.id == target.id:
                    other.close(4403, Message("removed from the table by an operator"))
            side = live.table.side_of(target.id)
            if side is not None and live.table.status == "playing":
                await self._forfeit(live, side, user.id)
        elif kind == "ban":
            minutes = fields.get("minutes")
            seconds = minutes * 60.0 if isinstance(minutes, int) else None
            banned = self.moderator.ban(user.name, target.name, reason, seconds=seconds)
            await sanction(banned.until)
            if banned.until is None:
                await self.store.run(lambda s: set_banned(s, target.id, True))
            self.accounts.forget_user(target.id)
            self._close_user(target.id, 4403, Message("banned by an operator"))
            if self.relay_moderation is not None:
                self.relay_moderation("ban", target.id, target.name, banned.until, None)
        elif kind == "unban":
            self.moderator.unban(user.name, target.name)
            await sanction()
            await self.store.run(lambda s: set_banned(s, target.id, False))
            self.accounts.forget_user(target.id)
            if self.relay_moderation is not None:
                self.relay_moderation("unban", target.id, target.name, None, None)
        conn.send({"type": "moderated", "action": kind, "user": target.name})
