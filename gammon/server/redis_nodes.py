"""Several nodes on one PostgreSQL database and one Redis: leases, records, forwarding, fail-over.

:class:`RedisNodes` is :class:`~gammon.server.nodes.Nodes` shared by several processes
(``gammon serve --database postgresql://... --redis redis://...`` started N times,
docs/DEPLOY.md 9); what each part does is in :mod:`gammon.server.nodes`' docstring. The
Redis connection, its channels and what happens while Redis is gone are
:class:`~gammon.server.redis_channels.RedisChannels`'.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import random
import secrets
import socket
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy.orm import Session

from gammon.server.auth import TokenBuckets
from gammon.server.leases import FenceCheck, Leases, NodeLease
from gammon.server.logs import safe_url
from gammon.server.nodes import (
    LEASE_TTL_S,
    ClusterError,
    LogKey,
    LogPart,
    Nodes,
    NotOwner,
    Request,
    SharedLog,
)
from gammon.server.protocol import FORWARD_FAILED, Refused
from gammon.server.redis_channels import Outbox, RedisChannels
from gammon.server.store import Store

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = ["RedisNodes"]

log = logging.getLogger("gammon.server")

#: How long a node waits for the owner to answer a forwarded request.
FORWARD_TIMEOUT_S: Final = 5.0
#: How long an owner remembers the answer to a forwarded request, so that a try that
#: comes again (its answer was lost, or late) gets the same answer: longer than a sender
#: goes on trying.
REMEMBER_S: Final = 120.0
#: Answers an owner remembers at most (the oldest go first).
ANSWERS_KEPT: Final = 4096
#: The channel of each node's requests and answers (``node:{node}``).
_NODE: Final = "node:"


@dataclass
class _Kind:
    """One kind of log on this node: its leases, what it runs, whom it last heard run what."""

    of: SharedLog
    leases: Leases
    part: LogPart
    #: The logs this node runs, and the fence of each one's lease.
    owned: dict[int, int] = field(default_factory=dict)
    #: Logs created here whose commit (and so lease) is not yet known to be done.
    created: dict[int, int] = field(default_factory=dict)
    #: The last owner heard of for each log (from its records), to forward to.
    owners: dict[int, str] = field(default_factory=dict)
    #: Logs being taken over here now.
    taking: set[int] = field(default_factory=set)


class RedisNodes(Nodes):
    """This node among others on one PostgreSQL database and one Redis (see the module)."""

    shared = True

    def __init__(self, store: Store, redis_url: str, *, ttl: float = LEASE_TTL_S) -> None:
        if store.db.is_sqlite:
            raise ClusterError(
                "several nodes need PostgreSQL: a SQLite file is one process's; "
                "give --database postgresql+psycopg://... with --redis, or leave --redis out"
            )
        self.store = store
        self.redis_url = redis_url
        self.ttl = ttl
        #: This process's name among the nodes (unique: a restarted node is a new one).
        self.node = f"{socket.gethostname()[:30]}-{os.getpid()}-{secrets.token_hex(4)}"
        #: The channels, each named after the database: :class:`RedisChannels`.
        self.channels = RedisChannels(
            redis_url, f"gammon:{store.db.engine.url.database}:", self.node
        )
        #: This node's own lease: every lease of it, of every kind, lives by it.
        self.lease = NodeLease(self.node, ttl)
        self._kinds: dict[str, _Kind] = {}
        self._tasks: list[asyncio.Task[Any]] = []
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: The answers to forwarded requests carried out (or being carried out) here, by
        #: request id: when, and the answer (REMEMBER_S, ANSWERS_KEPT).
        self._answers: collections.OrderedDict[str, tuple[float, asyncio.Future[dict[str, Any]]]]
        self._answers = collections.OrderedDict()
        #: The logs whose records this node follows (``{kind}:{id}``).
        self.followed: set[LogKey] = set()
        #: Called once at start, when the node listens and before it first sweeps (the
        #: lobby's entries are read).
        self.on_listening: list[Callable[[], Awaitable[None]]] = []
        self._faults: Callable[[str, Exception], None] = _log_fault
        self._spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]] = asyncio.ensure_future

    # What the hub's cluster uses of the channels, by the names it knew.
    @property
    def redis(self) -> Redis:
        return self.channels.redis

    @property
    def outbox(self) -> Outbox:
        return self.channels.outbox

    @property
    def prefix(self) -> str:
        return self.channels.prefix

    @property
    def listening(self) -> set[str]:
        return self.channels.listening

    @property
    def redis_problem(self) -> str | None:
        return self.channels.redis_problem

    @property
    def after_outage(self) -> list[Callable[[], Coroutine[Any, Any, None]]]:
        return self.channels.after_outage

    async def failed(self, where: str, exc: Exception) -> None:
        await self.channels.failed(where, exc)

    # -- the kinds of log --------------------------------------------------------------------

    def register(self, kind: SharedLog, part: LogPart) -> None:
        table, column = kind.leases
        self._kinds[kind.name] = _Kind(kind, Leases(table, column, self.node, self.ttl), part)

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
            if not kind.of.follow_all:
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
            await self.lost((kind.of.name, thing))
        for thing in held.keys() - kind.owned.keys() - kind.created.keys():
            await self.take_over((kind.of.name, thing))

    async def _sweep(self, kind: _Kind) -> None:
        """Take over the logs of one kind nobody runs (their node died, or stopped)."""
        orphans = await self.store.run(
            lambda session: kind.leases.orphans(session, kind.of.things, kind.of.unfinished)
        )
        random.shuffle(orphans)  # several survivors share a dead node's logs out
        for thing in orphans:
            if thing not in kind.owned:
                await self.take_over((kind.of.name, thing))

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
                    await self.failed(f"renewing the {kind.of.name} leases", exc)

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
                await self.failed(f"taking over {kind.of.things}", exc)

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
        every = [kind.of.name + ":*" for kind in self._kinds.values() if kind.of.follow_all]
        await self.channels.open([_NODE + self.node], every, self._on_other, faults, spawn)
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
        await self.channels.close()  # the last records and answers go out before the close

    async def unreachable(self, timeout: float) -> str | None:
        return await self.channels.unreachable(timeout)

    # -- channels ------------------------------------------------------------------------------

    def subscribe(self, channel: str, handler: Callable[[dict[str, Any]], None]) -> None:
        self.channels.subscribe(channel, handler)

    def subscribe_numbered(
        self, prefix: str, handler: Callable[[int, dict[str, Any]], None]
    ) -> None:
        self.channels.subscribe_numbered(prefix, handler)

    async def listen(self, channel: str) -> None:
        await self.channels.listen(channel)

    async def unlisten(self, channel: str) -> None:
        await self.channels.unlisten(channel)

    async def live_nodes(self) -> frozenset[str]:
        return frozenset(await self.store.run(self.lease.live_nodes))

    async def publish(self, channel: str, message: dict[str, Any]) -> int:
        return await self.channels.publish(channel, message)

    def publish_soon(self, channel: str, message: dict[str, Any]) -> None:
        self.channels.publish_soon(channel, message)

    async def take(self, buckets: TokenBuckets, key: str) -> float:
        return await self.channels.take(buckets, key)

    def _on_other(self, channel: str, data: dict[str, Any]) -> bool:
        """A message on this node's own channel or a log's records (True: it was one)."""
        if channel == _NODE + self.node:
            self._on_node_message(data)
            return True
        name, _, number = channel.partition(":")
        kind = self._kinds.get(name)
        if kind is None or not number.isdigit():
            return False
        self._on_record(kind, int(number), data)
        return True

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
        if key in self.followed or self._kinds[key[0]].of.follow_all:
            return
        self.followed.add(key)
        await self.channels.hear(f"{key[0]}:{key[1]}")

    async def unfollow(self, key: LogKey) -> None:
        self._kinds[key[0]].owners.pop(key[1], None)
        if key in self.followed:
            self.followed.discard(key)
            await self.channels.stop_hearing(f"{key[0]}:{key[1]}")

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
            else request._replace(request_id=secrets.token_hex(16))
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
                pinned = pinned.again(seq if kind.of.pin_retries else None)
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
        raise Refused("server_error", kind.of.unanswered)

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
    """Before :meth:`RedisNodes.start` is given the server's fault log."""
    log.error("%s: %s", where, exc, exc_info=exc)
