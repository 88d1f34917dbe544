"""Several nodes of one server: which node runs each log, forwarding to it, and Redis's channels.

A *log* is what one node runs at a time while the others follow it: a table's actions
or a tournament's, named by a :data:`LogKey` (``("table", 7)``, ``("tournament", 3)``).
This module knows nothing of tables, tournaments or the hub; each kind of log tells it,
once, what to do with one of its logs (a :class:`LogPart`: take it over, give it up,
carry out a forwarded request, follow the owner's record), and the runners
(:mod:`gammon.server.runner`) ask it only what a log needs: :meth:`Nodes.owns`,
:meth:`Nodes.fence`, :meth:`Nodes.route`, :meth:`Nodes.committed`.

:class:`Nodes` is one node alone (the default): it runs every log and has nobody to
tell anything, so one process on SQLite is exactly what it was. :class:`RedisNodes` is
the shared one (``gammon serve --database postgresql://... --redis redis://...``
started N times, docs/DEPLOY.md 9):

- **Ownership.** Each unfinished log is run by one node at a time, the holder of its
  lease (``table_leases``, ``tournament_leases``: :mod:`gammon.server.leases`), which is
  live while its node's own lease (``node_leases``) is: one row a node renews alone
  every third of its time to live, however many logs it runs. Only the owner applies
  actions, runs the clocks and the bots.
- **Fencing.** The owner's append checks the lease's node and fence in the transaction
  that writes it (:meth:`Nodes.fence`), so once another node has taken a log over, the
  old owner can never commit to it again.
- **Forwarding.** A request arriving at another node goes to the owner over Redis
  (``node:{id}``, answered on the sender's own channel); every try carries the same
  request id, and the owner answers a request it has carried out as it did the first
  time (and, for a later try, looks in the log: the owner may have changed after the
  commit), so an action is carried out once and its sender told so.
- **Records.** After each commit the owner publishes the log's record on
  ``{kind}:{id}``; the nodes that follow the log (every node for tournaments, the nodes
  with a socket at it for tables) hear it and bring their replica up to date.
- **Fail-over.** A node that dies stops renewing; once its leases expire, the others
  (each sweeping for logs without a live lease, and any node a request arrives at) take
  its logs over by replaying them.

Besides the logs, the nodes share channels (chat, moderation, sessions, presence, the
lobby: :meth:`Nodes.subscribe`, :meth:`Nodes.publish`, each named after
``gammon:{database}:``) and token buckets (:meth:`Nodes.take`, by Redis's clock).

(Past 600 lines: leases, forwarding, records and the channels share one connection, one
listening loop and one view of what this node runs, and each of them is the reason for
another; the single node's no-op interface is a third of it. The Redis plumbing (the
outbox, the listening loop) is what moves out first when it grows.)
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
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

import orjson
from sqlalchemy.orm import Session

from gammon.errors import GammonError
from gammon.messages import Message
from gammon.server.auth import TokenBuckets
from gammon.server.leases import FenceCheck, Leases, NodeLease
from gammon.server.logs import first_line, safe_url
from gammon.server.protocol import FORWARD_FAILED, FORWARD_UNANSWERED, Refused
from gammon.server.store import Store

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

__all__ = [
    "LEASE_TTL_S",
    "ROUTE_TRIES",
    "ClusterError",
    "LogKey",
    "LogPart",
    "Nodes",
    "NotOwner",
    "Outbox",
    "RedisNodes",
    "Request",
]

log = logging.getLogger("gammon.server")

#: A log's kind and number: ``("table", 7)``, ``("tournament", 3)``.
LogKey = tuple[str, int]

#: How long a lease lasts without renewal: a dead node's logs wait this long.
LEASE_TTL_S: Final = 5.0
#: How long a node waits for the owner to answer a forwarded request.
FORWARD_TIMEOUT_S: Final = 5.0
#: How long an owner remembers the answer to a forwarded request, so that a try that
#: comes again (its answer was lost, or late) gets the same answer: longer than a sender
#: goes on trying.
REMEMBER_S: Final = 120.0
#: Answers an owner remembers at most (the oldest go first).
ANSWERS_KEPT: Final = 4096
#: Times a runner routes one request again when its log changed hands meanwhile.
ROUTE_TRIES: Final = 8
#: Connections a node opens to Redis at most (its subscription holds one).
REDIS_CONNECTIONS: Final = 64
#: How long a Redis command waits for a free connection before it fails.
REDIS_WAIT_S: Final = 10.0
#: How long the listening loop waits before it asks a Redis that did not answer again.
REDIS_RETRY_S: Final = 0.5
#: How long a node waits for Redis's answer to a ping, after a connection failed.
REDIS_PING_S: Final = 2.0

#: The channel of each node's requests and answers (``node:{node}``).
_NODE: Final = "node:"

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


def _json(message: object) -> bytes:
    """A message between nodes as compact JSON (integer keys written as strings)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


class ClusterError(GammonError):
    """Several nodes cannot be set up as asked (Redis without PostgreSQL, Redis unreachable)."""


class NotOwner(Exception):
    """This node does not run the log (any more): the request must be routed again."""


@dataclass(frozen=True)
class Request:
    """One action to carry out on a log, as its owner's runner takes it.

    The fields a kind of log does not use stay at their defaults (a tournament's
    requests have no side, dice entropy or seq; a table's are never an operator's).
    """

    action: dict[str, Any]
    side: int | None = None
    actor_id: int | None = None
    entropy: bytes | None = None
    expect_seq: int | None = None
    #: Hold the bot after this play while its player may take it back (the tutor is on,
    #: at the player's node: gammon.server.practice), where the bot runs.
    hold_bot: bool = False
    #: An operator's action (tournaments).
    operator: bool = False
    #: The request's id, the same on every try of a forwarded request (a table's log keeps
    #: it with the action it gave: ``actions.request_id``), and whether this is a later
    #: try, which may find its action committed already (the answer to a try was lost).
    request_id: str | None = None
    retry: bool = False

    def again(self, expect_seq: int | None) -> Request:
        """This request tried again: pinned to ``expect_seq`` (None: not pinned) unless it
        was already."""
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
            "operator": self.operator,
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
            bool(data.get("operator")),
            str(request_id)[:32] if request_id else None,
            bool(data.get("retry")),
        )


class LogPart(Protocol):
    """What the nodes ask of one kind of log (the hub's tables, the tournaments)."""

    async def adopt(self, thing: int, run_here: Callable[[], None]) -> None:
        """This node took the log's lease: run it from its log. ``run_here`` makes it this
        node's (:meth:`Nodes.owns`), to be called once the log is read, with no await
        before its state is in place."""

    async def demote(self, thing: int) -> None:
        """Another node runs the log now: stop its timers here, keep it as a replica."""

    async def serve(self, thing: int, request: Request) -> dict[str, Any]:
        """Carry out a request another node forwarded (:class:`NotOwner` if this node does
        not run the log); the record of what it did, for the sender."""

    def on_record(self, thing: int, record: dict[str, Any]) -> None:
        """The owner's record of a commit (a replica here follows it)."""

    def on_told(self, thing: int, message: dict[str, Any]) -> None:
        """A message another node sent to this log's owner (:meth:`Nodes.tell`)."""

    async def sweep(self) -> None:
        """The kind's own look around, every third of a lease's time (replicas behind the
        log, a tournament's tables finished elsewhere)."""


@dataclass
class _Kind:
    """One kind of log on this node: its leases, what it runs, whom it last heard run what."""

    name: str
    leases: Leases
    #: The table of the logs themselves, and the statuses of those that need an owner.
    things: str
    unfinished: tuple[str, ...]
    part: LogPart
    #: Whether every node follows every log of the kind (else only those it asks for).
    follow_all: bool
    #: Whether a later try of a forwarded request is pinned to the seq the log was at
    #: before the first (a table's; a tournament's seq moves on by itself).
    pin_retries: bool
    #: What a sender is told when the owner never answered (in the kind's words).
    unanswered: Message
    #: The logs this node runs, and the fence of each one's lease.
    owned: dict[int, int] = field(default_factory=dict)
    #: Logs created here whose commit (and so lease) is not yet known to be done.
    created: dict[int, int] = field(default_factory=dict)
    #: The last owner heard of for each log (from its records), to forward to.
    owners: dict[int, str] = field(default_factory=dict)
    #: Logs being taken over here now.
    taking: set[int] = field(default_factory=set)


class Nodes:
    """One node alone (the default): it runs every log; there is nobody to tell anything."""

    #: Whether other nodes share the database (runners then route, publish and fence).
    shared = False
    node = "local"

    def register(
        self,
        kind: str,
        part: LogPart,
        *,
        leases: tuple[str, str],
        things: str,
        unfinished: tuple[str, ...],
        follow_all: bool = False,
        pin_retries: bool = True,
        unanswered: Message = FORWARD_UNANSWERED,
    ) -> None:
        """Say what a kind of log is (before :meth:`start`): its lease table and key column,
        the table of its logs and the statuses that need an owner, its part, and what a
        sender is told when the owner never answered."""

    def owns(self, key: LogKey) -> bool:
        return True

    def fence(self, key: LogKey) -> FenceCheck | None:
        """What an append to the log must check in its transaction (None: nothing)."""
        return None

    def acquire(self, session: Session, key: LogKey) -> None:
        """A log being created in ``session`` (not committed): take it as this node's."""

    def created(self, key: LogKey) -> None:
        """The log :meth:`acquire` took is committed: this node runs it."""

    async def route(self, key: LogKey, request: Request, seq: int) -> dict[str, Any] | Request:
        """Carry ``request`` out on the log's owner: the owner's record of it, or the request
        to carry out here (this node runs the log, maybe just taken over). ``seq``: the
        log's seq here now, which later tries are pinned to."""
        return request

    async def committed(self, key: LogKey, record: dict[str, Any], *, ended: bool) -> None:
        """An action this node applied is committed: the nodes following the log hear its
        record; an ``ended`` log needs no owner any more."""

    async def lost(self, key: LogKey) -> None:
        """An append found the log's lease taken: another node runs it now."""

    async def follow(self, key: LogKey) -> None:
        """Hear the records of a log another node runs (its replica here is watched)."""

    async def unfollow(self, key: LogKey) -> None:
        """Stop hearing the log's records."""

    def owner(self, key: LogKey) -> str | None:
        """The node last heard to run the log (from its records)."""
        return self.node

    def tell(self, key: LogKey, message: dict[str, Any]) -> None:
        """Send ``message`` to the log's owner if it is another node (not waited for)."""

    def subscribe(self, channel: str, handler: Callable[[dict[str, Any]], None]) -> None:
        """Hear the other nodes' messages on ``channel`` (before :meth:`start`)."""

    def subscribe_numbered(
        self, prefix: str, handler: Callable[[int, dict[str, Any]], None]
    ) -> None:
        """Hear the other nodes' messages on the channels ``{prefix}{number}`` this node
        listens to (:meth:`listen`), with the number (before :meth:`start`)."""

    async def listen(self, channel: str) -> None:
        """Start hearing ``channel`` (one of a :meth:`subscribe_numbered` prefix's)."""

    async def unlisten(self, channel: str) -> None:
        """Stop hearing ``channel``."""

    async def live_nodes(self) -> frozenset[str]:
        """The nodes whose own lease is live now (the database's word)."""
        return frozenset({self.node})

    async def publish(self, channel: str, message: dict[str, Any]) -> int:
        """Send ``message`` to the nodes listening on ``channel``; how many heard it."""
        return 0

    def publish_soon(self, channel: str, message: dict[str, Any]) -> None:
        """:meth:`publish`, not waited for (a failure goes to the fault log)."""

    async def take(self, buckets: TokenBuckets, key: str) -> float:
        """A token from ``buckets`` for ``key`` (0), or the seconds to wait for one."""
        return buckets.take(key)

    async def unreachable(self, timeout: float) -> str | None:
        """Why this node cannot reach the other nodes now (``/readyz``), None if it can."""
        return None

    async def start(
        self,
        faults: Callable[[str, Exception], None],
        spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]],
    ) -> None:
        """Start listening, sweeping and renewing; ``faults`` hears what fails in the
        background, ``spawn`` runs a task there."""

    async def stop(self) -> None:
        pass


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


class RedisNodes(Nodes):
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
        #: This node's own lease: every lease of it, of every kind, lives by it.
        self.lease = NodeLease(self.node, ttl)
        self._kinds: dict[str, _Kind] = {}
        self._handlers: dict[str, Callable[[dict[str, Any]], None]] = {}
        self._numbered: dict[str, Callable[[int, dict[str, Any]], None]] = {}
        #: The numbered channels this node listens to now (:meth:`listen`).
        self.listening: set[str] = set()
        self._pubsub: PubSub | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: The answers to forwarded requests carried out (or being carried out) here, by
        #: request id: when, and the answer (REMEMBER_S, ANSWERS_KEPT).
        self._answers: collections.OrderedDict[str, tuple[float, asyncio.Future[dict[str, Any]]]]
        self._answers = collections.OrderedDict()
        #: The logs whose records this node follows (``{kind}:{id}``).
        self.followed: set[LogKey] = set()
        self._take_token = self.redis.register_script(_TAKE_TOKEN)
        #: Why Redis does not answer, while it does not (said once in the log, and by /readyz).
        self.redis_problem: str | None = None
        #: The subscription lost its connection: once it hears Redis again, what was missed
        #: meanwhile is put right (:attr:`after_outage`).
        self._subscription_lost = False
        #: Called once the subscription hears Redis again after losing it (the lobby's
        #: entries are written and read again: Redis may have restarted empty).
        self.after_outage: list[Callable[[], Coroutine[Any, Any, None]]] = []
        #: Called once at start, when the node listens and before it first sweeps (the
        #: lobby's entries are read).
        self.on_listening: list[Callable[[], Awaitable[None]]] = []
        self._faults: Callable[[str, Exception], None] = _log_fault
        self._spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]] = asyncio.ensure_future

    # -- the kinds of log --------------------------------------------------------------------

    def register(
        self,
        kind: str,
        part: LogPart,
        *,
        leases: tuple[str, str],
        things: str,
        unfinished: tuple[str, ...],
        follow_all: bool = False,
        pin_retries: bool = True,
        unanswered: Message = FORWARD_UNANSWERED,
    ) -> None:
        table, column = leases
        self._kinds[kind] = _Kind(
            kind,
            Leases(table, column, self.node, self.ttl),
            things,
            unfinished,
            part,
            follow_all,
            pin_retries,
            unanswered,
        )

    def kind(self, name: str) -> _Kind:
        return self._kinds[name]

    def owned(self, kind: str) -> dict[int, int]:
        """The logs of ``kind`` this node runs, with their fences."""
        return self._kinds[kind].owned

    # -- leases ------------------------------------------------------------------------------

    def owns(self, key: LogKey) -> bool:
        return key[1] in self._kinds[key[0]].owned

    def fence(self, key: LogKey) -> FenceCheck:
        kind, thing = self._kinds[key[0]], key[1]
        return kind.leases.fence_check(thing, kind.owned.get(thing), f"{key[0]} {thing}")

    def acquire(self, session: Session, key: LogKey) -> None:
        kind, thing = self._kinds[key[0]], key[1]
        fence = kind.leases.acquire(session, thing)
        assert fence is not None, f"a new {key[0]} has no lease yet"
        # Ours once committed (created): a renewal now would not see the row yet.
        kind.created[thing] = fence

    def created(self, key: LogKey) -> None:
        kind, thing = self._kinds[key[0]], key[1]
        fence = kind.created.pop(thing, None)
        if fence is not None:
            kind.owned[thing] = fence

    async def take_over(self, key: LogKey) -> bool:
        """Take the log's lease if it is free or expired, and run the log from what the last
        owner committed (:meth:`LogPart.adopt`). False: another node holds it, or this node
        is taking it over already."""
        kind, thing = self._kinds[key[0]], key[1]
        if thing in kind.owned:
            return True
        if thing in kind.taking:
            return False
        kind.taking.add(thing)
        try:
            fence = await self.store.run(lambda session: kind.leases.take(session, thing))
            if fence is None:
                return False
            log.info(
                "%s %s: taken over by node %s (fence %s)",
                key[0],
                thing,
                self.node,
                fence,
                extra={f"{key[0]}_id": thing},
            )
            if not kind.follow_all:
                await self.unfollow(key)  # this node makes the records now

            def run_here() -> None:
                kind.owned[thing] = fence

            await kind.part.adopt(thing, run_here)
            run_here()  # should the log be gone, it is still this node's lease
            return True
        finally:
            kind.taking.discard(thing)

    async def lost(self, key: LogKey) -> None:
        kind, thing = self._kinds[key[0]], key[1]
        if kind.owned.pop(thing, None) is None:
            return
        log.warning(
            "%s %s: node %s lost its lease",
            key[0],
            thing,
            self.node,
            extra={f"{key[0]}_id": thing},
        )
        await kind.part.demote(thing)

    async def _release(self, key: LogKey) -> None:
        """An ended log needs no owner: its lease row goes."""
        kind, thing = self._kinds[key[0]], key[1]
        fence = kind.owned.pop(thing, None)
        if fence is not None:
            await self.store.run(lambda session: kind.leases.release(session, thing, fence))

    async def _renew(self, kind: _Kind) -> None:
        """Read which logs of one kind this node holds (its own lease was just renewed): the
        ones it lost are given up, and a lease of this node's that it forgot is run again."""
        before = dict(kind.owned)
        held = await self.store.run(kind.leases.held)
        for thing in kind.leases.lost(before, held, kind.owned):
            await self.lost((kind.name, thing))
        for thing in held.keys() - kind.owned.keys() - kind.created.keys():
            await self.take_over((kind.name, thing))

    async def _sweep(self, kind: _Kind) -> None:
        """Take over the logs of one kind nobody runs (their node died, or stopped)."""
        orphans = await self.store.run(
            lambda session: kind.leases.orphans(session, kind.things, kind.unfinished)
        )
        random.shuffle(orphans)  # several survivors share a dead node's logs out
        for thing in orphans:
            if thing not in kind.owned:
                await self.take_over((kind.name, thing))

    async def _renew_loop(self) -> None:
        """Renew this node's lease (which says it lives) every third of its time: on its own,
        so that taking over a dead node's many logs never delays it; then see what it holds."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.store.run(self.lease.renew)  # one row, however many logs
            except Exception as exc:
                await self.failed("renewing this node's lease", exc)
            for kind in list(self._kinds.values()):
                try:
                    await self._renew(kind)
                except Exception as exc:
                    await self.failed(f"renewing the {kind.name} leases", exc)

    async def _sweep_loop(self) -> None:
        """Take over the logs nobody runs, then each kind's own look around."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            await self._sweep_all()

    async def _sweep_all(self) -> None:
        for kind in list(self._kinds.values()):
            try:
                await self._sweep(kind)
                await kind.part.sweep()
            except Exception as exc:
                await self.failed(f"taking over {kind.things}", exc)

    def owner(self, key: LogKey) -> str | None:
        kind, thing = self._kinds[key[0]], key[1]
        return self.node if thing in kind.owned else kind.owners.get(thing)

    async def _owner(self, key: LogKey) -> str | None:
        """The node holding a live lease on the log (the database's word), or None."""
        kind, thing = self._kinds[key[0]], key[1]
        return await self.store.run(lambda session: kind.leases.owner(session, thing))

    # -- start and stop ------------------------------------------------------------------------

    async def start(
        self,
        faults: Callable[[str, Exception], None],
        spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]],
    ) -> None:
        self._faults, self._spawn = faults, spawn
        try:
            await self.redis.ping()
        except Exception as exc:
            raise ClusterError(
                f"cannot reach Redis at {safe_url(self.redis_url)}: {first_line(exc)}"
            ) from None
        self._pubsub = self.redis.pubsub()
        channels = [_NODE + self.node, *self._handlers, *self.listening]
        await self._pubsub.subscribe(*(self.prefix + name for name in channels))
        every = [self.prefix + kind.name + ":*" for kind in self._kinds.values() if kind.follow_all]
        if every:
            await self._pubsub.psubscribe(*every)
        self._tasks.append(asyncio.ensure_future(self._listen(self._pubsub)))
        await self.store.run(self.lease.renew)  # live before it takes anything
        for ready in self.on_listening:
            await ready()
        await self._sweep_all()
        self._tasks.append(asyncio.ensure_future(self._renew_loop()))
        self._tasks.append(asyncio.ensure_future(self._sweep_loop()))
        log.info("node %s joined the cluster at %s", self.node, safe_url(self.redis_url))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        # Hand the logs back at once rather than after the lease's time: one row.
        for kind in self._kinds.values():
            kind.owned.clear()
        with contextlib.suppress(Exception):
            await self.store.run(self.lease.hand_back)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.outbox.drain(5.0)  # the last records and answers go out before the close
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def unreachable(self, timeout: float) -> str | None:
        where = safe_url(self.redis_url)
        try:
            await asyncio.wait_for(self.redis.ping(), timeout)
        except TimeoutError:
            return f"cannot reach the other nodes: Redis at {where} gave no answer in {timeout:g} s"
        except Exception as exc:
            return f"cannot reach the other nodes: Redis at {where}: {first_line(exc)}"
        return None

    # -- Redis gone and back -------------------------------------------------------------------

    async def failed(self, where: str, exc: Exception) -> None:
        """A loop's step failed: a Redis connection is :meth:`redis_error`'s, else a fault."""
        from redis.exceptions import ConnectionError, TimeoutError

        if isinstance(exc, ConnectionError | TimeoutError):
            await self.redis_error(exc)
        else:
            self._faults(where, exc)

    async def redis_error(self, exc: Exception) -> None:
        """A connection to Redis failed: if Redis does not answer now either, say once, in
        words, that it is gone and what that stops, until it is back. One that answers had
        only closed that connection (it restarted): the next command opens a new one."""
        if self.redis_problem is None and await self.unreachable(REDIS_PING_S) is None:
            log.info("a connection Redis had closed is replaced: %s", first_line(exc))
            return
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
        """The subscription heard Redis: if it was lost, what was missed is put right (the
        subscription is up again, so nothing published from now on is missed)."""
        if self.redis_problem is not None:
            self.redis_problem = None
            log.warning("Redis at %s answers again", safe_url(self.redis_url))
        if self._subscription_lost:
            self._subscription_lost = False
            for after in self.after_outage:
                self._spawn(after())

    # -- channels ------------------------------------------------------------------------------

    def subscribe(self, channel: str, handler: Callable[[dict[str, Any]], None]) -> None:
        self._handlers[channel] = handler

    def subscribe_numbered(
        self, prefix: str, handler: Callable[[int, dict[str, Any]], None]
    ) -> None:
        self._numbered[prefix] = handler

    async def listen(self, channel: str) -> None:
        if channel not in self.listening:
            self.listening.add(channel)
            if self._pubsub is not None:
                await self._pubsub.subscribe(self.prefix + channel)

    async def unlisten(self, channel: str) -> None:
        if channel in self.listening:
            self.listening.discard(channel)
            if self._pubsub is not None:
                await self._pubsub.unsubscribe(self.prefix + channel)

    async def live_nodes(self) -> frozenset[str]:
        return frozenset(await self.store.run(self.lease.live_nodes))

    async def publish(self, channel: str, message: dict[str, Any]) -> int:
        """Publish on one of the server's channels (the name after :attr:`prefix`), with
        the other messages of the moment in one pipeline (:class:`Outbox`); how many
        nodes heard it."""
        return await self.outbox.publish(self.prefix + channel, _json(message))

    def publish_soon(self, channel: str, message: dict[str, Any]) -> None:
        self._spawn(self.publish(channel, message))

    async def take(self, buckets: TokenBuckets, key: str) -> float:
        """The token bucket shared by every node (in Redis, by Redis's clock)."""
        name = f"{self.prefix}limit:{buckets.name}:{key}"
        args = [buckets.capacity, buckets.per_second]
        wait = float(await self._take_token(keys=[name], args=args))
        return math.inf if wait < 0 else wait

    async def _listen(self, pubsub: PubSub) -> None:
        from redis.exceptions import ConnectionError, TimeoutError

        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                self._subscription_heard()
                if message is None:
                    continue
                channel = message["channel"].decode().removeprefix(self.prefix)
                self._on_message(channel, orjson.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except (ConnectionError, TimeoutError) as exc:
                self._subscription_lost = True
                await self.redis_error(exc)
                await asyncio.sleep(REDIS_RETRY_S)
            except Exception as exc:
                self._faults("a message from another node", exc)
                await asyncio.sleep(0.1)

    def _on_message(self, channel: str, data: dict[str, Any]) -> None:
        handler = self._handlers.get(channel)
        if handler is not None:
            if data.get("node") != self.node:
                handler(data)
            return
        if channel == _NODE + self.node:
            self._on_node_message(data)
            return
        name, _, number = channel.partition(":")
        if not number.isdigit():
            return
        kind = self._kinds.get(name)
        if kind is not None:
            self._on_record(kind, int(number), data)
            return
        numbered = self._numbered.get(name + ":")
        if numbered is not None and data.get("node") != self.node:
            numbered(int(number), data)

    def _on_node_message(self, data: dict[str, Any]) -> None:
        if "rid" in data and "from" in data:
            self._spawn(self._serve(data))
        elif "rid" in data:
            future = self._pending.get(data["rid"])
            if future is not None and not future.done():
                future.set_result(data)
        elif "told" in data:
            kind = self._kinds.get(str(data.get("k")))
            if kind is not None:
                kind.part.on_told(int(data["t"]), data["told"])

    # -- records -------------------------------------------------------------------------------

    async def committed(self, key: LogKey, record: dict[str, Any], *, ended: bool) -> None:
        message = {"node": self.node, **record}
        try:
            await self.publish(f"{key[0]}:{key[1]}", message)
        except Exception as exc:  # committed all the same: the replicas resync from the log
            self._faults(f"{key[0]} {key[1]}: publishing a record", exc)
        if ended:
            await self._release(key)

    def _on_record(self, kind: _Kind, thing: int, data: dict[str, Any]) -> None:
        if data.get("node") == self.node or thing in kind.owned:
            return
        kind.owners[thing] = str(data["node"])
        kind.part.on_record(thing, data)

    async def follow(self, key: LogKey) -> None:
        if key in self.followed or self._kinds[key[0]].follow_all:
            return
        self.followed.add(key)
        if self._pubsub is not None:
            await self._pubsub.subscribe(f"{self.prefix}{key[0]}:{key[1]}")

    async def unfollow(self, key: LogKey) -> None:
        self._kinds[key[0]].owners.pop(key[1], None)
        if key in self.followed:
            self.followed.discard(key)
            if self._pubsub is not None:
                await self._pubsub.unsubscribe(f"{self.prefix}{key[0]}:{key[1]}")

    def tell(self, key: LogKey, message: dict[str, Any]) -> None:
        kind, thing = self._kinds[key[0]], key[1]
        owner = kind.owners.get(thing)
        if thing not in kind.owned and owner is not None and owner != self.node:
            self.publish_soon(_NODE + owner, {"k": key[0], "t": thing, "told": message})

    # -- forwarding ----------------------------------------------------------------------------

    async def route(self, key: LogKey, request: Request, seq: int) -> dict[str, Any] | Request:
        """Carry ``request`` out on the log's owner, taking the log over if it has none
        (then it is returned, to be carried out here).

        Every try carries the request's id. The first goes as asked; should the owner not
        answer (it may have died after committing, or the answer was lost), later tries
        are marked as tries again (and, for a table, pinned to the seq it was at before
        the first): the node that runs the log then answers with what it did, from its
        memory or from the log, so an action is carried out once and its sender told so,
        never a false ``stale`` (docs/PROTOCOL.md 2.1: an error never changes anything).
        It keeps trying until a dead owner's lease has surely run out.
        """
        kind, thing = self._kinds[key[0]], key[1]
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
            if thing in kind.owned:
                return pinned
            owner = kind.owners.get(thing) if attempt == 1 else None
            if owner is None:
                owner = await self._owner(key)
                if owner is not None:
                    kind.owners[thing] = owner
            if owner is None or owner == self.node:
                if await self.take_over(key):
                    return pinned
                await asyncio.sleep(0.05)
                continue
            reply = await self._request(owner, {"k": key[0], "t": thing, **pinned.to_json()})
            if reply is None:
                kind.owners.pop(thing, None)
                pinned = pinned.again(seq if kind.pin_retries else None)
                await asyncio.sleep(self.ttl / 4)
                continue
            if "not_owner" in reply or "unheard" in reply:
                kind.owners.pop(thing, None)
                if "unheard" in reply:
                    await asyncio.sleep(self.ttl / 8)  # the dead owner's lease runs out
                continue
            if "refused" in reply:
                raise Refused.from_json(reply["refused"])
            record: dict[str, Any] = reply["record"]
            return record
        raise Refused("server_error", kind.unanswered)

    async def _request(self, node: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Send one request to its owner and wait for the answer; None: no answer (it may
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
        """Carry out a request another node forwarded, and answer it; the same request sent
        again (by its id) is answered as the first time, never carried out twice."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        while self._answers:
            oldest, (at, _) = next(iter(self._answers.items()))
            if now - at <= REMEMBER_S and len(self._answers) <= ANSWERS_KEPT:
                break
            del self._answers[oldest]
        request = Request.from_json(data)
        memo = request.request_id or str(data["rid"])
        known = self._answers.get(memo)
        if known is not None:
            answer = await asyncio.shield(known[1])
        else:
            future: asyncio.Future[dict[str, Any]] = loop.create_future()
            self._answers[memo] = (now, future)
            try:
                answer = await self._carry_out(str(data["k"]), int(data["t"]), request)
            except BaseException:  # this node is stopping: the sender asks the next owner
                self._answers.pop(memo, None)
                future.set_result({"not_owner": 1})
                raise
            future.set_result(answer)
            if "not_owner" in answer:  # nothing was done: another owner may do it
                self._answers.pop(memo, None)
        await self.publish(_NODE + str(data["from"]), {"rid": data["rid"], **answer})

    async def _carry_out(self, name: str, thing: int, request: Request) -> dict[str, Any]:
        """A forwarded request carried out here: its ``record``, ``refused`` or ``not_owner``."""
        kind = self._kinds.get(name)
        try:
            if kind is None or thing not in kind.owned:
                raise NotOwner
            return {"record": await kind.part.serve(thing, request)}
        except NotOwner:
            return {"not_owner": 1}
        except Refused as exc:
            return {"refused": exc.to_json()}
        except Exception as exc:
            self._faults(f"{name} {thing}: a forwarded action", exc)
            return {"refused": Refused("server_error", FORWARD_FAILED).to_json()}


def _log_fault(where: str, exc: Exception) -> None:
    """Before :meth:`Nodes.start` is given the server's fault log."""
    log.error("%s: %s", where, exc, exc_info=exc)
