"""The tables on several nodes: replicas where they are watched, the lobby, presence, the chat.

``gammon serve --database postgresql://... --redis redis://...`` started N times gives N
nodes of one server (docs/DEPLOY.md 9). Which node runs each table, forwarding an action
to it and the records it publishes are :mod:`gammon.server.nodes`' (leases with fences,
the same for tables and tournaments); this module is what the tables need besides:

- **Replicas.** A node keeps a copy of a table another node runs only while one of its
  own sockets is at it (or it was read for a page within a lease time): it follows
  ``table:{id}`` when the replica is loaded, brings it up from the log, and its runner
  applies each record (the same code as replaying the log, so dice and clock agree);
  when its last socket there leaves it stops following and drops the replica. So the
  work of an action does not grow with the number of nodes. Every sweep brings the
  replicas up to the log (a record missed).
- **Lobby.** The owner of a table writes its lobby entry to the Redis hash ``lobby``
  (field: the table's id) on each change of status or spectators, removes it when the
  table ends, and publishes the entry on ``lobby``; every node keeps a copy of the hash
  (read whole at start and every minute) and builds its lobby from it. An owner writes
  its entries again when Redis answers after an outage (it may have restarted empty) and
  at each whole read of the hash where the hash lacks one of them.
- **Presence.** Who is connected to a table through each node goes on the table's own
  channel (``presence:{id}``), heard only by the nodes that run or watch the table; a
  node that begins to hear a table asks the others there to say who they have. Which
  nodes live comes from their leases (``node_leases``, read at each sweep), not from
  messages every node hears.
- **The chat's relays.** Chat lines go out on ``chat``, operators' and users' decisions
  on ``moderation``, ended sessions on ``sessions``.

The hub speaks to a :class:`Cluster`; the default one is a single node with nobody to
tell anything.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import orjson
from sqlalchemy import text
from sqlalchemy.orm import Session

from gammon.messages import Message
from gammon.server.connections import LiveTable
from gammon.server.nodes import NotOwner, Request, SharedLog
from gammon.server.redis_nodes import RedisNodes
from gammon.server.table_log import applied_json, table_key

if TYPE_CHECKING:
    from gammon.server.hub import Hub

__all__ = ["TABLE_LOGS", "Cluster", "RedisCluster"]

log = logging.getLogger("gammon.server")

#: What the nodes must know of a table's log.
TABLE_LOGS: Final = SharedLog(
    "table",
    leases=("table_leases", "table_id"),
    things="tables",
    unfinished=("open", "playing"),
)

# The channels, each after the prefix of one server (RedisNodes.prefix).
_CHAT: Final = "chat"
_MODERATION: Final = "moderation"
_SESSIONS: Final = "sessions"
#: Each table's presence channel (``presence:{id}``): heard by its owner and its watchers.
_PRESENCE: Final = "presence:"
_LOBBY: Final = "lobby"
#: How often a node reads the whole lobby hash again (entries it missed, a restarted Redis).
LOBBY_RELOAD_S: Final = 60.0

_NOBODY: Final[frozenset[int]] = frozenset()


def _json(message: object) -> bytes:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


class Cluster:
    """One node alone (the default): its own tables are the lobby; nobody to tell anything."""

    async def signed_out(self, user_id: int, session_hash: str) -> None:
        """A session ended here: the other nodes close its sockets and forget it."""

    def elsewhere(self, table_id: int) -> frozenset[int]:
        """The users connected to the table through other nodes (presence)."""
        return self.watching(table_id)[0]

    def watching(self, table_id: int) -> tuple[frozenset[int], int]:
        """:meth:`elsewhere`, and how many watch the table through other nodes without
        signing in: both from one look at the other nodes' presence."""
        return _NOBODY, 0

    def present(self, live: LiveTable) -> None:
        """Who is connected to the table here changed: tell the other nodes."""

    def opened(self, live: LiveTable) -> None:
        """A table made here, which this node runs: hear who is at it elsewhere."""

    async def loaded(self, live: LiveTable) -> None:
        """The hub read a table it does not run into memory: follow its owner's records."""

    def unwatched(self, live: LiveTable) -> None:
        """The last socket of this node at the table left."""

    def publish_entry(self, live: LiveTable) -> None:
        """The table's lobby entry changed here, where it runs: tell the other nodes."""

    def lobby_entries(self) -> dict[int, dict[str, Any]] | None:
        """Every node's lobby entries by table (None: this node's own tables are the lobby)."""
        return None


class RedisCluster(Cluster):
    """The tables of this node among others (see the module): the nodes' part for tables."""

    def __init__(self, nodes: RedisNodes, hub: Hub) -> None:
        self.nodes = nodes
        self.hub = hub
        self.ttl = nodes.ttl
        #: The tables whose records this node follows for a replica, and since when.
        self.watched: dict[int, float] = {}
        #: Who is connected to which table through each other node, for the tables this
        #: node hears (those it runs or watches: each table's own presence channel), and
        #: the nodes alive (their leases, read at each sweep).
        self._presence: dict[str, dict[int, tuple[frozenset[int], int]]] = {}
        self._alive: frozenset[str] = frozenset()
        #: Every table's lobby entry, as the owners wrote them (a copy of the hash).
        self.entries: dict[int, dict[str, Any]] = {}
        #: Entries of this node's tables waiting to be written, and the last ones written.
        self._dirty: dict[int, LiveTable] = {}
        self._written: dict[int, dict[str, Any] | None] = {}
        self._flushing = False
        self._entries_read = 0.0
        nodes.register(TABLE_LOGS, self)
        nodes.subscribe(_CHAT, self._on_chat)
        nodes.subscribe(_MODERATION, self._on_moderation)
        nodes.subscribe(_SESSIONS, self._on_session)
        nodes.subscribe_numbered(_PRESENCE, self._on_presence)
        nodes.subscribe(_LOBBY, self._on_entry)
        nodes.on_listening.append(self._read_entries)
        nodes.after_outage.append(self._after_outage)
        nodes.after_outage.append(self._present_again)
        hub.chat.relay = self._chat_out
        hub.chat.relay_moderation = self._moderation_out
        hub.chat.take_shared = nodes.take
        hub.chat.relay_mute = self._mute_out

    @property
    def owned(self) -> dict[int, int]:
        """The tables this node runs, with their fences."""
        return self.nodes.owned("table")

    # -- the nodes' part (gammon.server.nodes.LogPart) ------------------------------------

    async def adopt(self, thing: int, run_here: Callable[[], None]) -> None:
        self.watched.pop(thing, None)  # this node makes the records now
        await self.hub.adopt(thing, run_here)
        await self._hear(thing)

    async def demote(self, thing: int) -> None:
        self._written.pop(thing, None)  # the new owner writes its entry now
        live = self.hub.tables.get(thing)
        if live is None:
            return
        await self.hub.demote(live)
        if live.conns:
            await self._follow(thing)  # a replica now, for this node's sockets
        else:
            await self._drop(thing)

    async def serve(self, thing: int, request: Request) -> dict[str, Any]:
        live = self.hub.tables.get(thing)
        if live is None:
            raise NotOwner
        return applied_json(await live.runner.act_here(request))

    def on_record(self, thing: int, record: dict[str, Any]) -> None:
        live = self.hub.tables.get(thing)
        if live is not None:  # else a replica just dropped
            live.runner.on_record(record)

    def on_told(self, thing: int, message: dict[str, Any]) -> None:
        if "release_bot" in message:  # its player answered the tutor on another node
            self.hub.practice.release(thing, here_only=True)

    async def sweep(self) -> None:
        """Bring the replicas up to the log, see which nodes live, hear the presence of the
        tables this node runs or watches, and read the whole lobby now and then."""
        await self._resync()
        await self._live_nodes()
        await self._hear_the_right_tables()
        if time.monotonic() - self._entries_read >= LOBBY_RELOAD_S:
            await self._read_entries()

    # -- replicas where they are watched --------------------------------------------------

    async def loaded(self, live: LiveTable) -> None:
        """Follow the records of a table read here that another node runs, from the log up."""
        table_id = live.table.id
        if table_id in self.owned or live.table.status not in ("open", "playing"):
            return
        await self._follow(table_id)
        await live.runner.catch_up()  # what was committed between the reading and following

    def unwatched(self, live: LiveTable) -> None:
        if live.table.id not in self.owned:
            self.hub.spawn(self._drop(live.table.id))

    async def _follow(self, table_id: int) -> None:
        self.watched[table_id] = time.monotonic()
        await self.nodes.follow(table_key(table_id))
        await self._hear(table_id)

    async def _drop(self, table_id: int) -> None:
        """Stop following a table no socket here is at, and forget the replica (unless it
        runs here, or a socket came back meanwhile)."""
        live = self.hub.tables.get(table_id)
        if live is not None and (live.conns or table_id in self.owned):
            return
        self.watched.pop(table_id, None)
        await self.nodes.unfollow(table_key(table_id))
        if live is not None and live.table.status in ("open", "playing"):
            self.hub.forget(live)

    async def _resync(self) -> None:
        """Drop the replicas no socket here watches any more, and bring the others up to the
        log (a record missed while a table was being read, or before the subscription took):
        replicas are never more than a sweep behind."""
        hub = self.hub
        quiet = time.monotonic() - self.ttl
        for table_id, since in list(self.watched.items()):
            live = hub.tables.get(table_id)
            if table_id in self.owned or live is None or (not live.conns and since < quiet):
                await self._drop(table_id)
        replicas = [
            table_id
            for table_id, live in hub.tables.items()
            if table_id not in self.owned and live.table.status in ("open", "playing")
        ]
        if not replicas:
            return

        def heads(session: Session) -> dict[int, int]:
            rows = session.execute(
                text(
                    "SELECT table_id, MAX(seq) FROM actions "
                    "WHERE table_id = ANY(:tables) GROUP BY table_id"
                ),
                {"tables": replicas},
            ).all()
            return {int(table_id): int(seq) for table_id, seq in rows}

        for table_id, seq in (await self.nodes.store.run(heads)).items():
            live = hub.tables.get(table_id)
            if live is not None and table_id not in self.owned and live.table.seq < seq:
                await live.runner.catch_up()

    # -- the lobby -------------------------------------------------------------------------

    def lobby_entries(self) -> dict[int, dict[str, Any]]:
        return self.entries

    def publish_entry(self, live: LiveTable) -> None:
        """Write the table's entry (from its state when the write goes out) to the hash."""
        self._dirty[live.table.id] = live
        if not self._flushing:
            self._flushing = True
            self.hub.spawn(self._flush_entries())

    async def _flush_entries(self) -> None:
        """Write the changed entries in one round trip: a hash field and a message each."""
        nodes = self.nodes
        try:
            while self._dirty:
                batch, self._dirty = self._dirty, {}
                pipe = nodes.redis.pipeline(transaction=False)
                key = nodes.prefix + _LOBBY
                count = 0
                for table_id, live in batch.items():
                    entry = self.hub.lobby_sockets.entry(live)
                    if table_id in self._written and self._written[table_id] == entry:
                        continue
                    message: dict[str, Any] = {"node": nodes.node, "t": table_id, "entry": entry}
                    if entry is None:
                        self._written.pop(table_id, None)
                        self.entries.pop(table_id, None)
                        pipe.hdel(key, str(table_id))
                        table = live.table
                        if table.status == "finished" and table.seats is not None:
                            message["rated"] = [s.user_id for s in table.seats if s.user_id]
                    else:
                        self._written[table_id] = self.entries[table_id] = entry
                        pipe.hset(key, str(table_id), _json(entry))
                    pipe.publish(key, _json(message))
                    count += 1
                if count:
                    try:
                        await pipe.execute()
                    except Exception:
                        # Not written: not to be taken as written, and asked for again (they
                        # go out once Redis answers: at once if it only closed a connection).
                        for table_id in batch:
                            self._written.pop(table_id, None)
                        self._dirty = {**batch, **self._dirty}
                        raise
                    self.hub.lobby_changed()
        except Exception as exc:
            await nodes.failed("writing the lobby's entries", exc)
        finally:
            self._flushing = False
            if self._dirty and nodes.redis_problem is None:
                # Asked for while a write that failed was on its way (Redis came back
                # meanwhile): they go out now rather than at the next change.
                self._flushing = True
                self.hub.spawn(self._flush_entries())

    def _write_own_entries(self, *, every: bool) -> None:
        """Write the entries of the tables this node runs again (``every``: all of them,
        else those the hash lacks or holds otherwise): a Redis restarted empty has lost
        them, and an owner's entry is written by its owner alone (DEPLOY.md 9)."""
        for table_id in list(self.owned):
            live = self.hub.tables.get(table_id)
            if live is None:
                continue
            if every or self.entries.get(table_id) != self._written.get(table_id):
                self._written.pop(table_id, None)
                self.publish_entry(live)

    async def _read_entries(self) -> None:
        """The whole lobby hash (at start, and now and then: anything missed)."""
        raw = await self.nodes.redis.hgetall(self.nodes.prefix + _LOBBY)
        self.entries = {int(table_id): orjson.loads(entry) for table_id, entry in raw.items()}
        self._entries_read = time.monotonic()
        self._write_own_entries(every=False)  # what the hash lost of ours goes back in it
        self.hub.lobby_changed()

    async def _after_outage(self) -> None:
        """Redis answers again, maybe restarted empty: this node's entries go back into the
        hash (and out to the others), then the whole hash is read for the others' (those
        written before this node heard Redis again; the later ones come as messages)."""
        try:
            self._write_own_entries(every=True)
            await self._read_entries()
        except Exception as exc:  # the periodic read puts it right
            log.warning("the lobby could not be read again after Redis came back: %s", exc)

    def _on_entry(self, data: dict[str, Any]) -> None:
        table_id, entry = int(data["t"]), data["entry"]
        if entry is None:
            self.entries.pop(table_id, None)
        else:
            self.entries[table_id] = entry
        rated = data.get("rated")
        if rated:
            self.hub.spawn(self.hub.refresh_ratings(rated))
        self.hub.lobby_changed()

    # -- presence --------------------------------------------------------------------------

    def present(self, live: LiveTable) -> None:
        """Who is connected to the table here changed: the nodes hearing its presence
        channel (its owner, and the nodes watching it) are told."""
        users = sorted({c.user.id for c in live.conns if c.user is not None})
        anonymous = sum(1 for c in live.conns if c.user is None)
        message = {"node": self.nodes.node, "users": users, "anonymous": anonymous}
        self.nodes.publish_soon(_PRESENCE + str(live.table.id), message)

    def opened(self, live: LiveTable) -> None:
        self.hub.spawn(self._hear(live.table.id))

    async def _hear(self, table_id: int) -> None:
        """Hear the table's presence channel (this node runs it, or watches it), and ask the
        nodes with someone at it to say so (this node was not listening before)."""
        channel = _PRESENCE + str(table_id)
        if channel in self.nodes.listening:
            return
        await self.nodes.listen(channel)
        self.nodes.publish_soon(channel, {"node": self.nodes.node, "ask": 1})

    async def _hear_the_right_tables(self) -> None:
        """Hear the presence of the tables this node runs or watches, and of no other."""
        wanted = {
            _PRESENCE + str(table_id)
            for table_id, live in self.hub.tables.items()
            if live.table.status in ("open", "playing")
            and (table_id in self.owned or table_id in self.watched or live.conns)
        }
        for channel in [c for c in self.nodes.listening if c.startswith(_PRESENCE)]:
            if channel not in wanted:
                await self.nodes.unlisten(channel)
                table_id = int(channel.removeprefix(_PRESENCE))
                for tables in self._presence.values():
                    tables.pop(table_id, None)
        for channel in wanted - self.nodes.listening:
            await self._hear(int(channel.removeprefix(_PRESENCE)))

    async def _live_nodes(self) -> None:
        """Which nodes live, from their leases: the presence of a node gone is forgotten,
        and the tables it was at here see their watchers change."""
        alive = await self.nodes.live_nodes()
        gone = set(self._presence) - alive
        self._alive = alive
        for node in gone:
            for table_id in self._presence.pop(node, {}):
                self._presence_changed(table_id)

    def watching(self, table_id: int) -> tuple[frozenset[int], int]:
        """The users at the table through the other living nodes, and the anonymous ones."""
        users: set[int] = set()
        anonymous = 0
        for node, tables in self._presence.items():
            if node in self._alive and table_id in tables:
                there, count = tables[table_id]
                users |= there
                anonymous += count
        return frozenset(users), anonymous

    def _on_presence(self, table_id: int, data: dict[str, Any]) -> None:
        live = self.hub.tables.get(table_id)
        if "ask" in data:  # a node began to listen: say who is here
            if live is not None and live.conns:
                self.present(live)
            return
        node = str(data["node"])
        self._alive = self._alive | {node}  # it speaks: it lives (until a sweep says not)
        heard = (frozenset(data["users"]), int(data.get("anonymous", 0)))
        tables = self._presence.setdefault(node, {})
        if heard == (frozenset(), 0):
            tables.pop(table_id, None)
        else:
            tables[table_id] = heard
        self._presence_changed(table_id)

    def _presence_changed(self, table_id: int) -> None:
        live = self.hub.tables.get(table_id)
        if live is not None and live.conns:
            self.hub.table_sockets.broadcast_state(live)
        if live is not None and table_id in self.owned:
            self.publish_entry(live)  # its spectators elsewhere changed

    async def _present_again(self) -> None:
        """After an outage: what this node heard may be stale, and what it said may be lost."""
        for table_id, live in list(self.hub.tables.items()):
            if live.conns:
                self.present(live)
            if _PRESENCE + str(table_id) in self.nodes.listening:
                self.nodes.publish_soon(
                    _PRESENCE + str(table_id), {"node": self.nodes.node, "ask": 1}
                )

    # -- the chat's relays -----------------------------------------------------------------

    def _chat_out(
        self, table_id: int | None, tournament_id: int | None, author: str, entry: dict[str, Any]
    ) -> None:
        message = {"node": self.nodes.node, "table": table_id, "tournament": tournament_id,
                   "author": author, "entry": entry}  # fmt: skip
        self.nodes.publish_soon(_CHAT, message)

    def _on_chat(self, data: dict[str, Any]) -> None:
        self.hub.chat.deliver(
            data["table"], data["tournament"], data["author"], data["entry"], self.hub.tables
        )

    def _moderation_out(
        self, kind: str, user_id: int, name: str, until: float | None, table: str | None
    ) -> None:
        """An operator kicked, banned or unbanned a user here: the other nodes follow."""
        message = {"node": self.nodes.node, "kind": kind, "user_id": user_id, "user": name,
                   "until": until, "table": table}  # fmt: skip
        self.nodes.publish_soon(_MODERATION, message)

    def _mute_out(self, user: str, target: str, muted: bool) -> None:
        """A user muted or unmuted someone here: their sockets on the other nodes follow."""
        message = {"node": self.nodes.node, "kind": "mute", "by": user, "user": target,
                   "on": muted}  # fmt: skip
        self.nodes.publish_soon(_MODERATION, message)

    def _on_moderation(self, data: dict[str, Any]) -> None:
        """A mute, kick, ban or unban decided on another node: held here too."""
        if data["kind"] == "mute":
            self.hub.chat.follow_mute(data["by"], data["user"], bool(data["on"]))
            return
        table = data.get("table")
        live = self.hub.tables.get(int(table)) if table is not None else None
        self.hub.chat.follow(data["kind"], data["user_id"], data["user"], data["until"], live)

    async def signed_out(self, user_id: int, session_hash: str) -> None:
        message = {"node": self.nodes.node, "user_id": user_id, "hash": session_hash}
        await self.nodes.publish(_SESSIONS, message)

    def _on_session(self, data: dict[str, Any]) -> None:
        self.hub.accounts.forget_session(data["hash"])
        self.hub.sockets.close_user(
            data["user_id"], 4401, Message("signed out"), session_hash=data["hash"]
        )
