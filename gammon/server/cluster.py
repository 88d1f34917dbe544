"""Several nodes serving one lobby: table leases, forwarded actions, states relayed over Redis.

``gammon serve --database postgresql://... --redis redis://...`` started N times gives
N nodes of one server (docs/DEPLOY.md 9). The hub speaks to a :class:`Cluster`; the
default one is a single node that runs every table and does nothing else, so one
process on SQLite is exactly what it was. :class:`RedisCluster` is the shared one:

- **Ownership.** Each unfinished table is run by one node at a time, the holder of its
  lease in ``table_leases`` (PostgreSQL; :mod:`gammon.server.leases`), renewed for all
  of a node's tables every third of its time to live. Only the owner applies actions,
  runs the clocks and the bots.
- **Fencing.** The owner's append of an action checks the lease's node and fence in the
  transaction that writes it, so once another node has taken a table over, the old
  owner can never commit to it again: its action is refused and the table becomes a
  replica.
- **Forwarding.** A socket on another node acting at the table: its node sends the
  action to the owner over Redis (``node:{id}``, answered on the sender's own
  channel with the request's id), where it is applied exactly as a local one.
- **Relay.** After each commit the owner publishes the action record on
  ``table:{id}``; a node keeps a replica of a table only while one of its own sockets
  is at it (or it was read for a page within a lease time): it subscribes to
  ``table:{id}`` when the replica is loaded, brings it up from the log, applies each
  record to it (the same code as replaying the log, so dice and clock agree), sends
  the new state to its sockets, and unsubscribes and drops the replica when its last
  socket there leaves. So the work of an action does not grow with the number of nodes.
- **Lobby.** The owner of a table writes its lobby entry to the Redis hash ``lobby``
  (field: the table's id) on each change of status or spectators, removes it when the
  table ends, and publishes the entry on ``lobby``; every node keeps a copy of the hash
  (read whole at start and every minute) and builds its lobby from it. An owner writes
  its entries again when Redis answers after an outage (it may have restarted empty) and
  at each whole read of the hash where the hash lacks one of them. Chat lines go
  out on ``chat`` and operators' bans on ``moderation`` (each channel named after
  ``gammon:{database}:``).
- **Fail-over.** A node that dies stops renewing; once its leases expire, the others
  (each sweeping for tables without a live lease, and any node whose socket acts
  there) take its tables over by replaying their logs, and clients reconnect to any
  node.

Tournaments are run the same way, each by one node under a lease of its own
(:mod:`gammon.server.tournaments.nodes`); analysis jobs are claimed in the database by
one node each (:mod:`gammon.server.analysis`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import logging
import math
import os
import random
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import orjson
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from gammon.errors import GammonError
from gammon.messages import Message
from gammon.server.auth import TokenBuckets
from gammon.server.connections import LiveTable
from gammon.server.db import Action, GameRow
from gammon.server.leases import Leases
from gammon.server.logs import first_line, safe_url
from gammon.server.protocol import FORWARD_FAILED, FORWARD_UNANSWERED, Refused
from gammon.server.store import Store
from gammon.server.table import Applied, Changes, Table

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

    from gammon.server.hub import Hub

__all__ = [
    "LEASE_TTL_S",
    "Cluster",
    "ClusterError",
    "NotOwner",
    "Outbox",
    "RedisCluster",
    "Request",
]


def _json(message: object) -> bytes:
    """A message between nodes as compact JSON (integer keys written as strings)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


log = logging.getLogger("gammon.server")

#: How long a table's lease lasts without renewal: a dead node's tables wait this long.
LEASE_TTL_S: Final = 5.0
#: How long a node waits for the owner to answer a forwarded action.
FORWARD_TIMEOUT_S: Final = 5.0
#: Forwarded requests' actions a node keeps at hand, to answer a try that comes again.
ANSWERS_KEPT: Final = 4096
#: Times the hub routes one action again when its table changed hands meanwhile.
ROUTE_TRIES: Final = 8
#: Connections a node opens to Redis at most (its two subscriptions, tables' and
#: tournaments', hold one each).
REDIS_CONNECTIONS: Final = 64
#: How long a Redis command waits for a free connection before it fails.
REDIS_WAIT_S: Final = 10.0

# The channels, each after the prefix of one server (see RedisCluster.prefix).
_NODE: Final = "node:"
_TABLE: Final = "table:"
_CHAT: Final = "chat"
_MODERATION: Final = "moderation"
_SESSIONS: Final = "sessions"
_PRESENCE: Final = "presence"
_LOBBY: Final = "lobby"
#: How long a message loop waits before it asks a Redis that did not answer again.
REDIS_RETRY_S: Final = 0.5
#: How long a node waits for Redis's answer to a ping, after a connection failed.
REDIS_PING_S: Final = 2.0
#: How often a node reads the whole lobby hash again (entries it missed, a restarted Redis).
LOBBY_RELOAD_S: Final = 60.0


_NOBODY: Final[frozenset[int]] = frozenset()

#: A token bucket in Redis, by Redis's clock: ARGV capacity, tokens a second; returns the
#: seconds to wait as text (0: a token was taken).
_TAKE_TOKEN: Final = """
local capacity, rate = tonumber(ARGV[1]), tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) + tonumber(time[2]) / 1000000
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens') or ARGV[1])
local last = tonumber(redis.call('HGET', KEYS[1], 'at') or now)
tokens = math.min(capacity, tokens + math.max(0, now - last) * rate)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
elseif rate > 0 then
  wait = (1 - tokens) / rate
else
  wait = -1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
if rate > 0 then
  redis.call('EXPIRE', KEYS[1], math.ceil(capacity / rate) + 1)
end
return tostring(wait)
"""


class ClusterError(GammonError):
    """Several nodes cannot be set up as asked (Redis without PostgreSQL, Redis unreachable)."""


class NotOwner(Exception):
    """This node does not run the table (any more): the action must be routed again."""


@dataclass(frozen=True)
class Request:
    """One action to carry out at a table, as the owner's :meth:`Hub.act_here` takes it."""

    action: dict[str, Any]
    side: int | None
    actor_id: int | None
    entropy: bytes | None
    expect_seq: int | None
    #: Hold the bot after this play while its player may take it back (the tutor is on,
    #: at the player's node: gammon.server.practice), where the bot runs.
    hold_bot: bool = False
    #: The request's id, the same on every try of a forwarded action (kept in the log
    #: with the action it gave: ``actions.request_id``), and whether this is a later try,
    #: which may find its action committed already (the answer to a try was lost).
    request_id: str | None = None
    retry: bool = False

    def again(self, expect_seq: int | None) -> Request:
        """This request tried again: pinned to ``expect_seq`` unless it was already."""
        pinned = self.expect_seq if self.expect_seq is not None else expect_seq
        return dataclasses.replace(self, expect_seq=pinned, retry=True)

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "side": self.side,
            "actor_id": self.actor_id,
            "entropy": self.entropy.hex() if self.entropy is not None else None,
            "expect_seq": self.expect_seq,
            "hold_bot": self.hold_bot,
            "request_id": self.request_id,
            "retry": self.retry,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Request:
        entropy = data.get("entropy")
        request_id = data.get("request_id")
        return cls(
            dict(data["action"]),
            data.get("side"),
            data.get("actor_id"),
            bytes.fromhex(entropy) if entropy else None,
            data.get("expect_seq"),
            bool(data.get("hold_bot")),
            str(request_id)[:32] if request_id else None,
            bool(data.get("retry")),
        )


def _applied_json(applied: Applied) -> dict[str, Any]:
    return {
        "seq": applied.seq,
        "action": applied.action,
        "side": applied.side,
        "actor_id": applied.actor_id,
        "entropy": applied.entropy,
        "events": applied.events,
        "clock": applied.clock,
        "at": applied.at,
        "seeds": [[number, seed] for number, _, seed in applied.changes.new_games],
    }


def _applied_from_json(data: dict[str, Any]) -> Applied:
    return Applied(
        seq=data["seq"],
        action=data["action"],
        side=data["side"],
        actor_id=data["actor_id"],
        entropy=data["entropy"],
        events=data["events"],
        clock=data["clock"],
        at=data["at"],
        changes=Changes(),
    )


class Cluster:
    """One node alone (the default): it runs every table; there is nobody to tell anything."""

    #: Whether other nodes share the database (the hub then routes, relays and fences).
    shared = False
    node = "local"

    def owns(self, table_id: int) -> bool:
        return True

    def fence_check(self, table_id: int) -> Callable[[Session], None] | None:
        """What the append of an action to ``table_id`` must check in its transaction."""
        return None

    def created(self, session: Session, table: Table) -> Table:
        """A table being created in ``session`` (not committed): take it as ours."""
        return table

    async def start(self, hub: Hub) -> None:
        """Called once the hub has loaded the unfinished tables."""

    async def stop(self) -> None:
        pass

    async def route(self, live: LiveTable, request: Request) -> Applied | Request:
        """Carry ``request`` out on the table's owner, or return what to carry out here (this
        node runs the table now)."""
        return request

    async def committed(self, live: LiveTable, applied: Applied) -> None:
        """An action this node applied is committed: tell the other nodes."""

    async def table_created(self, table_id: int) -> None:
        """A table this node created is committed: tell the other nodes."""

    async def lost(self, table_id: int) -> None:
        """An append found the table's lease taken: another node runs it now."""

    async def take(self, buckets: TokenBuckets, key: str) -> float:
        """A token from ``buckets`` for ``key`` (0), or the seconds to wait for one."""
        return buckets.take(key)

    async def signed_out(self, user_id: int, session_hash: str) -> None:
        """A session ended here: the other nodes close its sockets and forget it."""

    def release_bot(self, table_id: int) -> None:
        """The player here has answered the tutor: the bot may act, on the node running it."""

    def elsewhere(self, table_id: int) -> frozenset[int]:
        """The users connected to the table through other nodes (presence)."""
        return self.watching(table_id)[0]

    def watching(self, table_id: int) -> tuple[frozenset[int], int]:
        """:meth:`elsewhere`, and how many watch the table through other nodes without
        signing in: both from one look at the other nodes' presence."""
        return _NOBODY, 0

    def present(self, live: LiveTable) -> None:
        """Who is connected to the table here changed: tell the other nodes."""

    async def loaded(self, live: LiveTable) -> None:
        """The hub read a table it does not run into memory: follow its owner's records."""

    def unwatched(self, live: LiveTable) -> None:
        """The last socket of this node at the table left."""

    def publish_entry(self, live: LiveTable) -> None:
        """The table's lobby entry changed here, where it runs: tell the other nodes."""

    def lobby_entries(self) -> dict[int, dict[str, Any]] | None:
        """Every node's lobby entries by table (None: this node's own tables are the lobby)."""
        return None

    async def unreachable(self, timeout: float) -> str | None:
        """Why this node cannot reach the other nodes now (``/readyz``), None if it can."""
        return None

    async def done_before(self, table_id: int, request: Request) -> Applied | None:
        """The action ``request`` already gave, if an earlier try of it was committed."""
        return None

    async def redis_error(self, exc: Exception) -> None:
        """A loop's Redis connection failed (several nodes only)."""


class Outbox:
    """Messages to publish, sent together: every message asked for while the previous
    batch is on its way (or in one turn of the event loop) goes in one pipeline, one
    write and one reply, in the order asked. redis-py spends about 0.1 ms of CPU on a
    command sent alone and a quarter of that in a pipeline of eight: at a few hundred
    actions a second (one record each) the difference is a large part of a node's time.
    """

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._waiting: list[tuple[str, bytes, asyncio.Future[int]]] = []
        self._sending: asyncio.Task[None] | None = None

    def publish(self, channel: str, data: bytes) -> asyncio.Future[int]:
        """Queue ``data`` for ``channel``; the future gives how many subscribers heard it."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting.append((channel, data, future))
        if self._sending is None:
            self._sending = asyncio.ensure_future(self._send())
        return future

    async def drain(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until every message asked for is sent."""
        if self._sending is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._sending), timeout)

    async def _send(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                pipe = self.redis.pipeline(transaction=False)
                for channel, data, _ in batch:
                    pipe.publish(channel, data)
                try:
                    heard = await pipe.execute(raise_on_error=False)
                except Exception as exc:  # the connection: every message of the batch
                    heard = [exc] * len(batch)
                for (_, _, future), answer in zip(batch, heard, strict=True):
                    if future.done():  # its sender stopped waiting
                        continue
                    if isinstance(answer, BaseException):
                        future.set_exception(answer)
                    else:
                        future.set_result(int(answer))
        finally:
            self._sending = None


class RedisCluster(Cluster):
    """This node among others on one PostgreSQL database and one Redis (see the module)."""

    shared = True

    def __init__(self, store: Store, redis_url: str, *, ttl: float = LEASE_TTL_S) -> None:
        if store.db.is_sqlite:
            raise ClusterError(
                "several nodes need PostgreSQL: a SQLite file is one process's; "
                "give --database postgresql+psycopg://... with --redis, or leave --redis out"
            )
        from redis.asyncio import BlockingConnectionPool, Redis

        self.store = store
        self.redis_url = redis_url
        self.ttl = ttl
        #: This process's name among the nodes (unique: a restarted node is a new one).
        self.node = f"{socket.gethostname()[:30]}-{os.getpid()}-{secrets.token_hex(4)}"
        # A burst of actions (each a shared rate limit and a record to publish) waits for
        # one of the node's connections: redis-py's plain pool refuses command 101.
        pool = BlockingConnectionPool.from_url(
            redis_url, max_connections=REDIS_CONNECTIONS, timeout=REDIS_WAIT_S
        )
        self.redis: Redis = Redis(connection_pool=pool)
        self.outbox = Outbox(self.redis)
        #: Every channel's name starts with the database's: the nodes of one server share
        #: them, and two servers on one Redis (Redis's channels ignore its database
        #: numbers) never hear each other.
        self.prefix = f"gammon:{store.db.engine.url.database}:"
        self._pubsub: PubSub | None = None
        #: This node's leases on tables (gammon.server.leases).
        self.leases = Leases("table_leases", "table_id", self.node, ttl)
        #: The tables this node runs, and the fence of each one's lease.
        self.owned: dict[int, int] = {}
        #: The last owner heard of for each table (from its records), to forward to.
        self._owners: dict[int, str] = {}
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[Any]] = []
        self._hub: Hub | None = None
        #: Who is connected to which table through each other node, and when each node
        #: was last heard of (a node not heard of for three lease times is taken as gone).
        self._presence: dict[str, dict[int, tuple[frozenset[int], int]]] = {}
        self._heard: dict[str, float] = {}
        self._take_token = self.redis.register_script(_TAKE_TOKEN)
        #: Tables created here whose commit (and so lease) is not yet known to be done.
        self._created: dict[int, int] = {}
        #: Replicas being brought up to date from the log (one catch-up at a time each).
        self._catching_up: set[int] = set()
        #: The tables whose records this node follows (``table:{id}``), and since when.
        self.watched: dict[int, float] = {}
        #: Every table's lobby entry, as the owners wrote them (a copy of the hash).
        self.entries: dict[int, dict[str, Any]] = {}
        #: Entries of this node's tables waiting to be written, and the last ones written.
        self._dirty: dict[int, LiveTable] = {}
        self._written: dict[int, dict[str, Any] | None] = {}
        self._flushing = False
        self._entries_read = 0.0
        #: Why Redis does not answer, while it does not (said once in the log, and by /readyz).
        self.redis_problem: str | None = None
        #: The tables' subscription lost its connection: once it hears Redis again, the
        #: lobby is written and read again.
        self._subscription_lost = False
        #: The actions lately committed here for forwarded requests, by request id: a try
        #: that comes again (its answer was lost) is answered with its action.
        self._answered: collections.OrderedDict[str, Applied] = collections.OrderedDict()

    @property
    def hub(self) -> Hub:
        assert self._hub is not None, "the cluster has not started"
        return self._hub

    # -- leases -------------------------------------------------------------------------

    def owns(self, table_id: int) -> bool:
        return table_id in self.owned

    async def take_over(self, table_id: int) -> bool:
        """Take the table's lease if it is free or expired, and run the table from its log.

        Under the table's lock: no action is carried out here on the replica while the
        table is rebuilt from what the last owner committed.
        """

        live = self.hub.tables.get(table_id)
        async with live.lock if live is not None else contextlib.nullcontext():
            if table_id in self.owned:
                return True
            fence = await self.store.run(lambda session: self.leases.take(session, table_id))
            if fence is None:
                return False
            self.owned[table_id] = fence
            await self._unfollow(table_id)  # this node makes the records now
            log.info(
                "table %s: taken over by node %s (fence %s)",
                table_id,
                self.node,
                fence,
                extra={"table_id": table_id},
            )
            await self.hub.adopt(table_id)
        return True

    def fence_check(self, table_id: int) -> Callable[[Session], None] | None:
        return self.leases.fence_check(table_id, self.owned.get(table_id), f"table {table_id}")

    def created(self, session: Session, table: Table) -> Table:
        fence = self.leases.acquire(session, table.id)
        assert fence is not None, "a new table has no lease yet"
        # Ours once committed (table_created): a renewal now would not see the row yet.
        self._created[table.id] = fence
        return table

    async def _renew(self) -> None:
        """Extend every lease of this node in one statement; drop the tables it lost."""

        before = dict(self.owned)
        held = await self.store.run(self.leases.renew)
        for table_id in self.leases.lost(before, held, self.owned):
            await self.lost(table_id)
        for table_id in held.keys() - self.owned.keys() - self._created.keys():
            await self.take_over(table_id)  # a lease of ours this node forgot: run it again

    async def _orphans(self) -> list[int]:
        """Unfinished tables whose lease is missing or expired."""

        return await self.store.run(
            lambda session: self.leases.orphans(session, "tables", ("open", "playing"))
        )

    async def _sweep(self) -> None:
        """Take over the tables nobody runs (their node died, or stopped)."""
        orphans = await self._orphans()
        random.shuffle(orphans)  # several survivors share a dead node's tables out
        for table_id in orphans:
            if table_id not in self.owned:
                await self.take_over(table_id)

    async def _renew_loop(self) -> None:
        """Renew this node's leases (and say it lives) every third of their time: on its own,
        so that taking over a dead node's many tables never delays it."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self._renew()
                await self._heartbeat()
            except Exception as exc:
                await self._failed("renewing the table leases", exc)

    async def _sweep_loop(self) -> None:
        """Take over the tables nobody runs, and bring the replicas up to the log."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self._sweep()
                await self._resync()
                if time.monotonic() - self._entries_read >= LOBBY_RELOAD_S:
                    await self._read_entries()
            except Exception as exc:
                await self._failed("taking over tables", exc)

    async def _failed(self, where: str, exc: Exception) -> None:
        """A loop's step failed: a Redis connection is :meth:`redis_error`'s, else a fault."""
        from redis.exceptions import ConnectionError, TimeoutError

        if isinstance(exc, ConnectionError | TimeoutError):
            await self.redis_error(exc)
        else:
            self.hub.faults.report(where, exc)

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

        for table_id, seq in (await self.store.run(heads)).items():
            live = hub.tables.get(table_id)
            if live is not None and table_id not in self.owned and live.table.seq < seq:
                await self.catch_up(live)

    # -- replicas where they are watched ---------------------------------------------------

    async def loaded(self, live: LiveTable) -> None:
        """Follow the records of a table read here that another node runs, from the log up."""
        table_id = live.table.id
        if table_id in self.owned or live.table.status not in ("open", "playing"):
            return
        await self._follow(table_id)
        await self.catch_up(live)  # what was committed between the reading and subscribing

    def unwatched(self, live: LiveTable) -> None:
        if live.table.id not in self.owned:
            self.hub.spawn(self._drop(live.table.id))

    async def _follow(self, table_id: int) -> None:
        if table_id in self.watched:
            self.watched[table_id] = time.monotonic()
            return
        self.watched[table_id] = time.monotonic()
        if self._pubsub is not None:
            await self._pubsub.subscribe(self.prefix + _TABLE + str(table_id))

    async def _unfollow(self, table_id: int) -> None:
        if self.watched.pop(table_id, None) is not None and self._pubsub is not None:
            await self._pubsub.unsubscribe(self.prefix + _TABLE + str(table_id))

    async def _drop(self, table_id: int) -> None:
        """Stop following a table no socket here is at, and forget the replica (unless it
        runs here, or a socket came back meanwhile)."""
        live = self.hub.tables.get(table_id)
        if live is not None and (live.conns or table_id in self.owned):
            return
        await self._unfollow(table_id)
        self._owners.pop(table_id, None)
        if live is not None and live.table.status in ("open", "playing"):
            self.hub.forget(live)

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
        try:
            while self._dirty:
                batch, self._dirty = self._dirty, {}
                pipe = self.redis.pipeline(transaction=False)
                key = self.prefix + _LOBBY
                count = 0
                for table_id, live in batch.items():
                    entry = self.hub.lobby_entry(live)
                    if table_id in self._written and self._written[table_id] == entry:
                        continue
                    message: dict[str, Any] = {"node": self.node, "t": table_id, "entry": entry}
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
            await self._failed("writing the lobby's entries", exc)
        finally:
            self._flushing = False
            if self._dirty and self.redis_problem is None:
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
        raw = await self.redis.hgetall(self.prefix + _LOBBY)
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

    async def lost(self, table_id: int) -> None:
        """Another node runs the table now: keep it as a replica."""
        if self.owned.pop(table_id, None) is None:
            return
        self._written.pop(table_id, None)  # the new owner writes its entry now
        log.warning(
            "table %s: node %s lost its lease", table_id, self.node, extra={"table_id": table_id}
        )
        live = self.hub.tables.get(table_id)
        if live is not None:
            await self.hub.demote(live)
            if live.conns:
                await self._follow(table_id)  # a replica now, for this node's sockets
            else:
                await self._drop(table_id)

    async def _release(self, table_id: int) -> None:
        """A finished table needs no owner: its lease row goes."""
        fence = self.owned.pop(table_id, None)
        if fence is None:
            return

        await self.store.run(lambda session: self.leases.release(session, table_id, fence))

    async def _owner(self, table_id: int) -> str | None:
        """The node holding a live lease on the table (the database's word), or None."""

        return await self.store.run(lambda session: self.leases.owner(session, table_id))

    # -- start and stop -------------------------------------------------------------------

    async def start(self, hub: Hub) -> None:
        self._hub = hub
        try:
            await self.redis.ping()
        except Exception as exc:
            raise ClusterError(
                f"cannot reach Redis at {safe_url(self.redis_url)}: {first_line(exc)}"
            ) from None
        self._pubsub = self.redis.pubsub()
        channels = (_NODE + self.node, _CHAT, _MODERATION, _SESSIONS, _PRESENCE, _LOBBY)
        await self._pubsub.subscribe(*(self.prefix + name for name in channels))
        self._tasks.append(asyncio.ensure_future(self._listen(self._pubsub)))
        await self._read_entries()
        await self._sweep()
        self._tasks.append(asyncio.ensure_future(self._renew_loop()))
        self._tasks.append(asyncio.ensure_future(self._sweep_loop()))
        hub.chat.relay = self._chat_out
        hub.chat.relay_moderation = self._moderation_out
        hub.chat.take_shared = self.take
        hub.chat.relay_mute = self._mute_out
        log.info("node %s joined the cluster at %s", self.node, safe_url(self.redis_url))

    async def unreachable(self, timeout: float) -> str | None:
        where = safe_url(self.redis_url)
        try:
            await asyncio.wait_for(self.redis.ping(), timeout)
        except TimeoutError:
            return f"cannot reach the other nodes: Redis at {where} gave no answer in {timeout:g} s"
        except Exception as exc:
            return f"cannot reach the other nodes: Redis at {where}: {first_line(exc)}"
        return None

    async def redis_error(self, exc: Exception) -> None:
        """A connection to Redis failed: if Redis does not answer now either, say once, in
        words, that it is gone and what that stops, until it is back. One that answers had
        only closed that connection (it restarted): the next command opens a new one."""
        if self.redis_problem is None and await self.unreachable(REDIS_PING_S) is None:
            log.info("a connection Redis had closed is replaced: %s", first_line(exc))
            return
        self._redis_gone(exc)

    def _redis_gone(self, exc: Exception) -> None:
        problem = first_line(exc)
        if self.redis_problem is None:
            log.error(
                "cannot reach Redis at %s (%s): this node cannot reach the other nodes "
                "(forwarded actions, tables' records, chat, the lobby) until it answers again; "
                "retrying",
                safe_url(self.redis_url),
                problem,
            )
        self.redis_problem = problem

    def _subscription_heard(self) -> None:
        """The tables' subscription heard Redis: if it was lost, the lobby is written and
        read again (Redis may have restarted empty, and messages were missed meanwhile;
        the subscription is up again, so no entry written from now on is missed)."""
        if self.redis_problem is not None:
            self.redis_problem = None
            log.warning("Redis at %s answers again", safe_url(self.redis_url))
        if self._subscription_lost:
            self._subscription_lost = False
            self.hub.spawn(self._after_outage())

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        # Hand the tables back at once rather than after the leases' time.
        owned = list(self.owned)
        self.owned.clear()
        if owned:
            with contextlib.suppress(Exception):
                await self.store.run(self.leases.hand_back)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.outbox.drain(5.0)  # the last records and answers go out before the close
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # -- publishing -------------------------------------------------------------------------

    async def publish(self, channel: str, message: dict[str, Any]) -> int:
        """Publish on one of the server's channels (the name after :attr:`prefix`), with
        the other messages of the moment in one pipeline (:class:`Outbox`); how many
        nodes heard it."""
        return await self.outbox.publish(self.prefix + channel, _json(message))

    async def done_before(self, table_id: int, request: Request) -> Applied | None:
        """Committed here lately, or, for a later try (this node may have taken the table
        over from the one that committed it), in the log: the owner asks this with the
        table's lock held, before the action's ``seq`` is checked."""
        if request.request_id is None:
            return None
        found = self._answered.get(request.request_id)
        if found is not None or not request.retry:
            return found
        wanted = request.request_id

        def logged(session: Session) -> Action | None:
            return session.scalars(
                select(Action).where(Action.table_id == table_id, Action.request_id == wanted)
            ).first()

        row = await self.store.run(logged)
        if row is None:
            return None
        return Applied(
            seq=row.seq,
            action=row.action,
            side=row.side,
            actor_id=row.actor_id,
            entropy=row.entropy,
            events=row.events,
            clock=row.clock,
            at=row.at,
            changes=Changes(),
            request=row.request_id,
        )

    async def committed(self, live: LiveTable, applied: Applied) -> None:
        if applied.request is not None:
            self._answered[applied.request] = applied
            while len(self._answered) > ANSWERS_KEPT:
                self._answered.popitem(last=False)
        table = live.table
        record = {"t": table.id, "node": self.node, **_applied_json(applied)}
        try:
            await self.publish(_TABLE + str(table.id), record)
        except Exception as exc:  # committed all the same: the replicas resync from the log
            self.hub.faults.report(f"table {table.id}: publishing an action", exc)
        if table.status in ("finished", "cancelled"):
            await self._release(table.id)

    async def table_created(self, table_id: int) -> None:
        fence = self._created.pop(table_id, None)
        if fence is not None:
            self.owned[table_id] = fence

    def _chat_out(
        self, table_id: int | None, tournament_id: int | None, author: str, entry: dict[str, Any]
    ) -> None:
        message = {"node": self.node, "table": table_id, "tournament": tournament_id,
                   "author": author, "entry": entry}  # fmt: skip
        self.hub.spawn(self.publish(_CHAT, message))

    def _moderation_out(
        self, kind: str, user_id: int, name: str, until: float | None, table: str | None
    ) -> None:
        """An operator kicked, banned or unbanned a user here: the other nodes follow."""
        message = {"node": self.node, "kind": kind, "user_id": user_id, "user": name,
                   "until": until, "table": table}  # fmt: skip
        self.hub.spawn(self.publish(_MODERATION, message))

    def _mute_out(self, user: str, target: str, muted: bool) -> None:
        """A user muted or unmuted someone here: their sockets on the other nodes follow."""
        message = {"node": self.node, "kind": "mute", "by": user, "user": target, "on": muted}
        self.hub.spawn(self.publish(_MODERATION, message))

    async def take(self, buckets: TokenBuckets, key: str) -> float:
        """The token bucket shared by every node (in Redis, by Redis's clock)."""
        name = f"{self.prefix}limit:{buckets.name}:{key}"
        args = [buckets.capacity, buckets.per_second]
        wait = float(await self._take_token(keys=[name], args=args))
        return math.inf if wait < 0 else wait

    def release_bot(self, table_id: int) -> None:
        owner = self._owners.get(table_id)
        if table_id not in self.owned and owner is not None and owner != self.node:
            # Not waited for: should it be lost, the bot's wait ends by itself (HOLD_S).
            self.hub.spawn(self.publish(_NODE + owner, {"release_bot": table_id}))

    async def signed_out(self, user_id: int, session_hash: str) -> None:
        message = {"node": self.node, "user_id": user_id, "hash": session_hash}
        await self.publish(_SESSIONS, message)

    def present(self, live: LiveTable) -> None:
        users = sorted({c.user.id for c in live.conns if c.user is not None})
        anonymous = sum(1 for c in live.conns if c.user is None)
        message = {"node": self.node, "t": live.table.id, "users": users, "anonymous": anonymous}
        self.hub.spawn(self.publish(_PRESENCE, message))

    async def _heartbeat(self) -> None:
        """Say this node lives, with everyone connected to a table through it (and how many
        watch without signing in)."""
        watched = [(table_id, live) for table_id, live in self.hub.tables.items() if live.conns]
        tables = {
            str(table_id): sorted({c.user.id for c in live.conns if c.user is not None})
            for table_id, live in watched
        }
        anonymous = {
            str(table_id): count
            for table_id, live in watched
            if (count := sum(1 for c in live.conns if c.user is None))
        }
        message = {"node": self.node, "tables": tables, "anonymous": anonymous}
        await self.publish(_PRESENCE, message)

    def watching(self, table_id: int) -> tuple[frozenset[int], int]:
        """The users at the table through the other living nodes, and the anonymous ones."""
        alive = time.monotonic() - 3 * self.ttl
        users: set[int] = set()
        anonymous = 0
        for node, tables in self._presence.items():
            if self._heard.get(node, 0.0) >= alive and table_id in tables:
                there, count = tables[table_id]
                users |= there
                anonymous += count
        return frozenset(users), anonymous

    def _on_presence(self, data: dict[str, Any]) -> None:
        node = data["node"]
        self._heard[node] = time.monotonic()
        tables = self._presence.setdefault(node, {})
        if "tables" in data:
            anonymous = data.get("anonymous", {})
            heard = {
                int(t): (frozenset(users), int(anonymous.get(t, 0)))
                for t, users in data["tables"].items()
            }
            changed = {t for t in set(tables) | set(heard) if tables.get(t) != heard.get(t)}
            tables.clear()
            tables.update(heard)
        else:
            table_id = int(data["t"])
            tables[table_id] = (frozenset(data["users"]), int(data.get("anonymous", 0)))
            changed = {table_id}
        for table_id in changed:
            live = self.hub.tables.get(table_id)
            if live is not None and live.conns:
                self.hub.broadcast_state(live)
            if live is not None and table_id in self.owned:
                self.publish_entry(live)  # its spectators elsewhere changed

    # -- listening ----------------------------------------------------------------------------

    async def _listen(self, pubsub: PubSub) -> None:
        from redis.exceptions import ConnectionError, TimeoutError

        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                self._subscription_heard()
                if message is None:
                    continue
                channel = message["channel"].decode().removeprefix(self.prefix)
                data = orjson.loads(message["data"])
                self._on_message(channel, data)
            except asyncio.CancelledError:
                raise
            except (ConnectionError, TimeoutError) as exc:
                self._subscription_lost = True
                await self.redis_error(exc)
                await asyncio.sleep(REDIS_RETRY_S)
            except Exception as exc:
                self.hub.faults.report("a message from another node", exc)
                await asyncio.sleep(0.1)

    def _on_message(self, channel: str, data: dict[str, Any]) -> None:
        if channel.startswith(_TABLE):
            self._on_record(data)
        elif channel == _CHAT:
            if data["node"] != self.node:
                self.hub.chat.deliver(data["table"], data["tournament"], data["author"],
                                      data["entry"], self.hub.tables)  # fmt: skip
        elif channel == _MODERATION:
            if data["node"] != self.node:
                self._on_moderation(data)
        elif channel == _LOBBY:
            if data["node"] != self.node:
                self._on_entry(data)
        elif channel == _PRESENCE:
            if data["node"] != self.node:
                self._on_presence(data)
        elif channel == _SESSIONS:
            if data["node"] != self.node:
                self.hub.accounts.forget_session(data["hash"])
                self.hub.sockets.close_user(
                    data["user_id"], 4401, Message("signed out"), session_hash=data["hash"]
                )
        elif "release_bot" in data:
            self.hub.practice.release(int(data["release_bot"]), here_only=True)
        elif "rid" in data and "from" in data:
            self.hub.spawn(self._serve(data))
        elif "rid" in data:
            future = self._pending.get(data["rid"])
            if future is not None and not future.done():
                future.set_result(data)

    def _on_moderation(self, data: dict[str, Any]) -> None:
        """A mute, kick, ban or unban decided on another node: held here too."""
        if data["kind"] == "mute":
            self.hub.chat.follow_mute(data["by"], data["user"], bool(data["on"]))
            return
        table = data.get("table")
        live = self.hub.tables.get(int(table)) if table is not None else None
        self.hub.chat.follow(data["kind"], data["user_id"], data["user"], data["until"], live)

    def _on_record(self, data: dict[str, Any]) -> None:
        """Another node's committed action (or new table): bring the replica up to date."""
        table_id = int(data["t"])
        if data["node"] == self.node or table_id in self.owned:
            return
        self._owners[table_id] = data["node"]
        hub = self.hub
        live = hub.tables.get(table_id)
        if live is None or "seq" not in data:
            return  # a replica just dropped
        seq = int(data["seq"])
        if seq > live.table.seq + 1:
            hub.spawn(self.catch_up(live))
            return
        self._apply(live, data)

    def _apply(self, live: LiveTable, record: dict[str, Any]) -> bool:
        """Apply one record of the owner's to the replica, as a replay of the log does, and
        send the new state to this node's sockets; False if it was not the next one."""
        table = live.table
        if record["seq"] != table.seq + 1:
            return False
        was_status = table.status
        try:
            for number, seed in record["seeds"]:
                table.learn_seed(int(number), bytes.fromhex(seed))
            entropy = record["entropy"]
            table.apply(
                record["action"],
                side=record["side"],
                actor_id=record["actor_id"],
                at=record["at"],
                entropy=bytes.fromhex(entropy) if entropy else None,
            )
            table.restore_clock(record["clock"])
        except GammonError as exc:
            log.warning("table %s: replica out of step (%s); reloading", table.id, exc)
            self.hub.spawn(self.hub.reload(live))
            return False
        self.hub.broadcast_state(live)
        if table.status != was_status or record["action"].get("type") == "start":
            self.hub.lobby_changed()
            if table.status in ("finished", "cancelled"):
                self.hub.ended_elsewhere(live)
        return True

    async def catch_up(self, live: LiveTable) -> None:
        """Apply the records a replica missed, read from the log one by one, so that its
        sockets see every move all the same (a gap in the records, a resync)."""
        table_id = live.table.id
        if table_id in self._catching_up:
            return
        self._catching_up.add(table_id)
        try:
            after = live.table.seq

            def missed(session: Session) -> list[dict[str, Any]]:
                seeds = [
                    [number, seed]
                    for number, seed in session.execute(
                        select(GameRow.number, GameRow.seed)
                        .where(GameRow.table_id == table_id)
                        .order_by(GameRow.number)
                    )
                ]
                rows = session.scalars(
                    select(Action)
                    .where(Action.table_id == table_id, Action.seq > after)
                    .order_by(Action.seq)
                ).all()
                fields = ("seq", "action", "side", "actor_id", "entropy", "clock", "at")
                return [
                    {**{name: getattr(row, name) for name in fields}, "seeds": seeds}
                    for row in rows
                ]

            for record in await self.store.run(missed):
                if table_id in self.owned or live.table.seq >= record["seq"]:
                    continue  # taken over meanwhile, or the record came after all
                if not self._apply(live, record):
                    break
        finally:
            self._catching_up.discard(table_id)

    # -- forwarding ------------------------------------------------------------------------------

    async def route(self, live: LiveTable, request: Request) -> Applied | Request:
        """Carry ``request`` out on the table's owner, taking the table over if it has none
        (then it is returned, to be carried out here).

        Every try carries the request's id. The first goes as asked; should the owner not
        answer (it may have died after committing, or the answer was lost), later tries
        are pinned to the seq the table was at before the first and marked as tries
        again: the node that runs the table then looks for the id in the log (with the
        action it gave: ``actions.request_id``) and answers with that action, so an
        action is carried out once and its sender told so, never a false ``stale``
        (docs/PROTOCOL.md 2.1: an error never changes anything). It keeps trying until
        a dead owner's lease has surely run out.
        """
        table_id = live.table.id
        seq_before = live.table.seq
        # One id for every try: a later one that finds its action committed already (the
        # owner died after the commit, or its answer was lost) is answered with it.
        pinned = (
            request
            if request.request_id is not None
            else dataclasses.replace(request, request_id=secrets.token_hex(16))
        )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2 * self.ttl + FORWARD_TIMEOUT_S
        attempt = 0
        while loop.time() < deadline:
            attempt += 1
            if table_id in self.owned:
                return pinned
            owner = self._owners.get(table_id) if attempt == 1 else None
            if owner is None:
                owner = await self._owner(table_id)
                if owner is not None:
                    self._owners[table_id] = owner
            if owner is None or owner == self.node:
                if await self.take_over(table_id):
                    return pinned
                await asyncio.sleep(0.05)
                continue
            reply = await self._request(owner, {"t": table_id, **pinned.to_json()})
            if reply is None:
                self._owners.pop(table_id, None)
                pinned = pinned.again(seq_before)
                await asyncio.sleep(self.ttl / 4)
                continue
            if "not_owner" in reply or "unheard" in reply:
                self._owners.pop(table_id, None)
                if "unheard" in reply:
                    await asyncio.sleep(self.ttl / 8)  # the dead owner's lease runs out
                continue
            if "refused" in reply:
                raise Refused.from_json(reply["refused"])
            applied = _applied_from_json(reply["applied"])
            if live.table.seq < applied.seq and table_id not in self.owned:
                await self.catch_up(live)  # the record is still on its way: read the log
            return applied
        raise Refused("server_error", FORWARD_UNANSWERED)

    async def _request(self, node: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Send one action to its owner and wait for the answer; None: no answer (it may
        have been carried out), ``unheard``: nobody received it (it was not)."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        try:
            heard = await self.publish(_NODE + node, {"rid": rid, "from": self.node, **payload})
            if heard == 0:
                return {"unheard": 1}  # nobody listens there: the node is gone
            return await asyncio.wait_for(future, FORWARD_TIMEOUT_S)
        except TimeoutError:
            return None
        finally:
            self._pending.pop(rid, None)

    async def _serve(self, data: dict[str, Any]) -> None:
        """Carry out an action another node forwarded, and answer it."""
        reply: dict[str, Any] = {"rid": data["rid"]}
        table_id = int(data["t"])
        try:
            live = self.hub.tables.get(table_id)
            if live is None or table_id not in self.owned:
                raise NotOwner
            applied = await self.hub.act_here(live, Request.from_json(data))
            reply["applied"] = _applied_json(applied)
        except NotOwner:
            reply["not_owner"] = 1
        except Refused as exc:
            reply["refused"] = exc.to_json()
        except Exception as exc:
            self.hub.faults.report(f"table {table_id}: a forwarded action", exc)
            reply["refused"] = Refused("server_error", FORWARD_FAILED).to_json()
        await self.publish(_NODE + data["from"], reply)
