"""Several nodes of one server: which node runs each log, forwarding to it, and Redis's channels.

A *log* is what one node runs at a time while the others follow it: a table's actions
or a tournament's, named by a :data:`LogKey` (``("table", 7)``, ``("tournament", 3)``).
This module knows nothing of tables, tournaments or the hub; each kind of log tells it,
once, what to do with one of its logs (a :class:`LogPart`: take it over, give it up,
carry out a forwarded request, follow the owner's record), and the runners
(:mod:`gammon.server.runner`) ask it only what a log needs: :meth:`Nodes.owns`,
:meth:`Nodes.fence`, :meth:`Nodes.route`, :meth:`Nodes.committed`.

:class:`Nodes` is one node alone (the default): it runs every log and has nobody to
tell anything, so one process on SQLite is exactly what it was.
:class:`~gammon.server.redis_nodes.RedisNodes` is the shared one (``gammon serve
--database postgresql://... --redis redis://...`` started N times, docs/DEPLOY.md 9),
talking through :class:`~gammon.server.redis_channels.RedisChannels`:

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
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, Protocol

from sqlalchemy.orm import Session

from gammon.errors import GammonError
from gammon.messages import Message
from gammon.server.auth import TokenBuckets
from gammon.server.leases import FenceCheck
from gammon.server.protocol import FORWARD_UNANSWERED

__all__ = [
    "LEASE_TTL_S",
    "ROUTE_TRIES",
    "ClusterError",
    "LogKey",
    "SharedLog",
    "LogPart",
    "Nodes",
    "NotOwner",
    "Request",
]

#: A log's kind and number: ``("table", 7)``, ``("tournament", 3)``.
LogKey = tuple[str, int]

#: How long a lease lasts without renewal: a dead node's logs wait this long.
LEASE_TTL_S: Final = 5.0
#: Times a runner routes one request again when its log changed hands meanwhile.
ROUTE_TRIES: Final = 8


class ClusterError(GammonError):
    """Several nodes cannot be set up as asked (Redis without PostgreSQL, Redis unreachable)."""


class NotOwner(Exception):
    """This node does not run the log (any more): the request must be routed again."""


class Request(NamedTuple):
    """One action to carry out on a log, as its owner's runner takes it.

    The fields a kind of log does not use stay at their defaults (a tournament's
    requests have no side, dice entropy or seq; a table's are never an operator's).
    A named tuple, not a frozen dataclass: one is made for every action, and a frozen
    dataclass's constructor (a ``__setattr__`` call a field) cost more than twice as much.
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
    #: The action as the log's kind applies it, where the edge has made it already (a
    #: table's action value): the owner here need not read ``action`` again. It is not
    #: part of the request's JSON; another node reads ``action``.
    value: Any = None

    def again(self, expect_seq: int | None) -> Request:
        """This request tried again: pinned to ``expect_seq`` (None: not pinned) unless it
        was already."""
        pinned = self.expect_seq if self.expect_seq is not None else expect_seq
        return self._replace(expect_seq=pinned, retry=True)

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


@dataclass(frozen=True)
class SharedLog:
    """How a kind of log (a table, a tournament) is shared among nodes: what they must
    know of it to run it anywhere. (What it is to its runner is a
    :class:`~gammon.server.runner.LogKind`.)"""

    #: The kind's name, the first half of each of its logs' :data:`LogKey`.
    name: str
    #: The lease table and its key column.
    leases: tuple[str, str]
    #: The table of the logs themselves, and the statuses of those that need an owner.
    things: str
    unfinished: tuple[str, ...]
    #: Whether every node follows every log of the kind (else only those it asks for).
    follow_all: bool = False
    #: Whether a later try of a forwarded request is pinned to the seq the log was at
    #: before the first (a table's; a tournament's seq moves on by itself).
    pin_retries: bool = True
    #: What a sender is told when the owner never answered (in the kind's words).
    unanswered: Message = FORWARD_UNANSWERED


class Nodes:
    """One node alone (the default): it runs every log; there is nobody to tell anything."""

    #: Whether other nodes share the database (runners then route, publish and fence).
    shared = False
    node = "local"

    def register(self, kind: SharedLog, part: LogPart) -> None:
        """Say what a kind of log is and which part runs its logs (before :meth:`start`)."""

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
