"""One runner per log: the one way an action becomes a commit, and everyone hears of it once.

A table's series and a tournament are state machines that know nothing of the server
(:class:`gammon.server.table.Table`, :class:`gammon.server.tournaments.state.Tournament`:
``apply`` either refuses, leaving the state as it was, or changes it and says what it
did). A :class:`Runner` is the live side of one of them, the same for both kinds:

- **acting**: one request at a time under its lock: the sequence check, ``apply``, the
  append to the log (fenced by the lease where several nodes share the database,
  :mod:`gammon.server.nodes`), the record published to the nodes that follow the log,
  the sender's acknowledgement, then one :class:`Committed` to the runner's listener
  (broadcast, the lobby, timers, bots, ratings, tournaments, analysis, moderation: the
  hub's or the tournaments' one place for what follows a commit);
- **routing**: a request at a log another node runs goes there (:meth:`Nodes.route`),
  and is acknowledged here;
- **following**: as a replica, the owner's records are applied as a replay of the log
  applies them (or the log is read again), and each is reported as a
  :class:`Committed` too, with ``here`` False;
- **taking over and standing down**: the log read again from the database, reported
  with ``applied`` None.

What differs between a table and a tournament is a :class:`LogKind`: how to apply a
request, append, load, and write and read a record; taking a log over is
:func:`adopt_log` for both, given how each puts a log it did not have in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from contextlib import AbstractContextManager
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from gammon.errors import GammonError
from gammon.messages import Message
from gammon.server.leases import FenceCheck
from gammon.server.nodes import ROUTE_TRIES, LogKey, Nodes, NotOwner, Request
from gammon.server.protocol import Refused
from gammon.server.store import Fenced
from gammon.server.timesource import TimeSource

__all__ = ["Answer", "Committed", "Live", "LogKind", "LogState", "Runner", "adopt_log"]

log = logging.getLogger("gammon.server")


class Applied(Protocol):
    """What an accepted action gives, whatever the log: its place in the log."""

    @property
    def seq(self) -> int: ...


class LogState(Protocol):
    """What a runner reads of any log's state: its number, its place in the log and where
    it is in its life (a table's and a tournament's state have all three)."""

    @property
    def id(self) -> int: ...

    @property
    def seq(self) -> int: ...

    @property
    def status(self) -> str: ...


S = TypeVar("S", bound=LogState)
A = TypeVar("A", bound=Applied)


class LogKind(Protocol[S, A]):
    """What a runner needs of one kind of log (a table's, a tournament's)."""

    #: The kind's name in a :data:`~gammon.server.nodes.LogKey`: ``"table"``, ``"tournament"``.
    name: str

    def ended(self, state: S) -> bool:
        """Whether the log is over (nothing more is appended; it needs no owner)."""
        ...

    def apply(self, state: S, request: Request, at: float) -> A:
        """Carry ``request`` out on ``state`` (the seq check included); on
        :class:`~gammon.server.protocol.Refused` the state is exactly as before."""
        ...

    def append(self, state: S, applied: A, fence: FenceCheck | None) -> Awaitable[None]:
        """Commit ``applied`` to the log (``fence`` checked in the same transaction)."""
        ...

    async def load(self, number: int, at: float | None) -> S | None:
        """The log as the database has it, running again from ``at`` where this node runs
        it (None: a replica's copy, as it stands); None: there is no such log."""
        ...

    def record(self, applied: A) -> dict[str, Any]:
        """What the nodes following the log hear of ``applied``, and a forwarding sender."""
        ...

    def from_record(self, record: dict[str, Any]) -> A:
        """The sender's copy of what the owner did (:meth:`record`'s inverse)."""
        ...

    def follow(self, state: S, record: dict[str, Any]) -> A | None:
        """Apply the owner's next record to a replica as a replay of the log does (a
        :class:`~gammon.errors.GammonError` if it does not fit); None: this kind's
        replicas read the log again instead."""
        ...

    async def missed(self, state: S) -> list[dict[str, Any]] | None:
        """The records after ``state``'s seq, from the log (None: read it all again)."""
        ...

    async def logged(self, number: int, request_id: str) -> A | None:
        """What a request with this id already gave, if the log has it."""
        ...

    def moved(self, number: int) -> Message:
        """Why a request gave up after the log changed hands again and again."""
        ...


class Answer(Protocol):
    """Who waits for the request's acknowledgement (a socket, with the message's id)."""

    def acknowledge(self, seq: int) -> None:
        """The request is committed as ``seq``."""

    def together(self) -> AbstractContextManager[None]:
        """The acknowledgement and what the listener sends the same socket, in one write."""


class Committed(NamedTuple, Generic[S, A]):
    """One change of a log's state, as the runner's listener hears of it (once each); a
    named tuple because one is made for every action (see :class:`~gammon.server.nodes.Request`)."""

    state: S
    #: The status before the change.
    before: str
    #: What was applied; None: the state was read again from the log (this node took the
    #: log over, stood down, or a commit failed; a replica that fell behind).
    applied: A | None
    #: The request carried out, where this node carried it out.
    request: Request | None
    #: Whether this node runs the log (it committed the change, or took the log over);
    #: False: a replica following the owner.
    here: bool


class Runner(Generic[S, A]):
    """The live side of one log (see the module)."""

    def __init__(
        self,
        kind: LogKind[S, A],
        state: S,
        *,
        nodes: Nodes,
        time: TimeSource,
        spawn: Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]],
        on_change: Callable[[Committed[S, A]], None],
        after: Callable[[Committed[S, A]], Awaitable[None]] | None = None,
    ) -> None:
        self.kind = kind
        self.state = state
        self.nodes = nodes
        self.time = time
        self.spawn = spawn
        #: Hears every change, on the event loop, right after it (it must not block).
        self.on_change = on_change
        #: Awaited after each commit made here, once the lock is free: what follows from it
        #: and may act again (a tournament's match tables, a full Sit & Go's start).
        self.after = after
        #: One action at a time; the bot holds it while it reads the game.
        self.lock = asyncio.Lock()
        self._catching_up = False
        #: A read of the log on its way (done when it and any read asked for meanwhile are).
        self._reading: asyncio.Future[None] | None = None
        self._read_again = False

    @property
    def key(self) -> LogKey:
        return (self.kind.name, self.state.id)

    def runs_here(self) -> bool:
        """Whether this node runs the log (one node alone runs every log)."""
        return self.nodes.owns(self.key)

    # -- acting -------------------------------------------------------------------------

    def act(self, request: Request, answer: Answer | None = None) -> Coroutine[Any, Any, A]:
        """Carry ``request`` out where the log runs, and acknowledge it to ``answer``.

        On one node it is :meth:`act_here` itself (not a coroutine around it: one frame
        less on every await of every action); with several, a log another node runs gets
        the request there (:meth:`Nodes.route`), and a replica behind the owner's answer
        catches up from the log.
        """
        if not self.nodes.shared:
            return self.act_here(request, answer)
        return self._act_routed(request, answer)

    async def _act_routed(self, request: Request, answer: Answer | None) -> A:
        """:meth:`act` where the nodes are shared."""
        for _ in range(ROUTE_TRIES):
            if not self.runs_here():
                routed = await self.nodes.route(self.key, request, self.state.seq)
                if not isinstance(routed, Request):
                    applied = self.kind.from_record(routed)
                    if self.state.seq < applied.seq and not self.runs_here():
                        await self.catch_up()  # the record is still on its way: read the log
                    if answer is not None:
                        answer.acknowledge(applied.seq)
                    return applied
                request = routed
            with contextlib.suppress(NotOwner):
                return await self.act_here(request, answer)
        raise Refused("server_error", self.kind.moved(self.key[1]))

    async def act_here(self, request: Request, answer: Answer | None = None) -> A:
        """:meth:`act` on this node, which runs the log (else :class:`NotOwner`)."""
        async with self.lock:
            state, key = self.state, self.key
            if self.nodes.shared and not self.nodes.owns(key):
                raise NotOwner
            if request.retry and request.request_id is not None:
                done = await self.kind.logged(key[1], request.request_id)
                if done is not None:  # an earlier try was committed; its answer was lost
                    if answer is not None:
                        answer.acknowledge(done.seq)
                    return done
            before = state.status
            applied = self.kind.apply(state, request, self.time.now())
            try:
                # A table's append is committed even if this wait is cancelled
                # (Store.append): no shield needed.
                await self.kind.append(state, applied, self.nodes.fence(key))
            except Fenced:
                await self.nodes.lost(key)  # standing down reads the log again...
                if self.state is state:
                    await self.restore()  # ...or it had, before this append was refused
                raise NotOwner from None
            except Exception:
                log.exception(
                    "%s %s: action %s not recorded; rebuilding",
                    key[0],
                    key[1],
                    applied.seq,
                    extra={f"{key[0]}_id": key[1], "seq": applied.seq},
                )
                await self.restore()
                raise Refused(
                    "server_error", Message("the action could not be recorded; nothing changed")
                ) from None
            if self.nodes.shared:  # one node alone: nobody follows, and no lease to let go
                ended = self.kind.ended(state)
                await self.nodes.committed(key, self.kind.record(applied), ended=ended)
            committed = Committed(state, before, applied, request, here=True)
            with answer.together() if answer is not None else contextlib.nullcontext():
                if answer is not None:
                    answer.acknowledge(applied.seq)
                self.on_change(committed)
        if self.after is not None:
            await self.after(committed)
        return applied

    # -- reading the log again ----------------------------------------------------------

    def replace(self, state: S, *, here: bool) -> None:
        """Put ``state``, read from the log, in place of the one here, and say so."""
        before = self.state.status
        self.state = state
        self.on_change(Committed(state, before, None, None, here=here))

    async def restore(self) -> None:
        """The log as the database has it, after a commit that failed (the state here has an
        action the log has not)."""
        state = await self.kind.load(self.key[1], self.time.now())
        if state is not None:
            self.replace(state, here=self.runs_here())

    async def adopt(self, run_here: Callable[[], None]) -> None:
        """This node runs the log now (it took the lease): read it from the database, which
        has everything the last owner committed, under the lock, so that no request is
        carried out here on the replica meanwhile. ``run_here`` makes it this node's."""
        async with self.lock:
            state = await self.kind.load(self.key[1], self.time.now())
            run_here()
            if state is not None:
                self.replace(state, here=True)

    async def reload(self) -> None:
        """A replica as the log has it now (it missed records, or follows by reading).

        Changes heard while a read is on its way make one more read, not one each (a busy
        log's replicas never queue reads), which a caller waits for; a read older than the
        state here is dropped.
        """
        if self._reading is not None:
            self._read_again = True
            await asyncio.shield(self._reading)
            return
        self._reading = asyncio.get_running_loop().create_future()
        try:
            while True:
                self._read_again = False
                state = await self.kind.load(self.key[1], None)
                if state is not None and not self.runs_here() and state.seq >= self.state.seq:
                    self.replace(state, here=False)
                if not self._read_again:
                    return
        finally:
            reading, self._reading = self._reading, None
            reading.set_result(None)

    # -- following the owner ------------------------------------------------------------

    def on_record(self, record: dict[str, Any]) -> None:
        """The owner's record of a commit: the replica applies it, catches up to it from the
        log (some were missed), or reads the log again."""
        if self.runs_here() or "seq" not in record:
            return  # a record of a log just created
        seq, have = int(record["seq"]), self.state.seq
        if seq <= have:
            return
        if seq > have + 1:
            self.spawn(self.catch_up())
            return
        self._follow(record)

    def _follow(self, record: dict[str, Any]) -> bool:
        """Apply one record of the owner's to the replica; False if it was not the next one
        or could not be applied (a read of the log is on its way then)."""
        state = self.state
        if record["seq"] != state.seq + 1:
            return False
        before = state.status
        try:
            applied = self.kind.follow(state, record)
        except GammonError as exc:
            log.warning("%s %s: replica out of step (%s); reading it again", *self.key, exc)
            self.spawn(self.reload())  # the log is ahead of it: the read replaces it
            return False
        if applied is None:
            self.spawn(self.reload())
            return False
        self.on_change(Committed(state, before, applied, None, here=False))
        return True

    async def catch_up(self) -> None:
        """Apply the records a replica missed, read from the log one by one, so that its
        sockets see every move all the same (a gap in the records, a resync)."""
        if self._catching_up:
            return
        self._catching_up = True
        try:
            records = await self.kind.missed(self.state)
            if records is None:
                await self.reload()
                return
            for record in records:
                if self.runs_here() or self.state.seq >= record["seq"]:
                    continue  # taken over meanwhile, or the record came after all
                if not self._follow(record):
                    break
        finally:
            self._catching_up = False


class Live(Protocol[S, A]):
    """A log in memory (a table's :class:`~gammon.server.connections.LiveTable`, a
    tournament's): its runner, and whatever the kind keeps beside it."""

    runner: Runner[S, A]


L = TypeVar("L", bound=Live[Any, Any])


async def adopt_log(
    kind: LogKind[S, A],
    number: int,
    run_here: Callable[[], None],
    *,
    time: TimeSource,
    live: Callable[[], L | None],
    install: Callable[[S], L],
) -> L | None:
    """This node runs log ``number`` now (it took the lease), whatever its kind.

    A copy in memory here (a replica; ``live`` finds it): its runner reads the log again
    under its lock (:meth:`Runner.adopt`). None: the log is read, made this node's
    (``run_here``), put in memory by ``install`` unless a socket read it meanwhile, and
    put in place as this node's. Returns what is in memory (None: there is no such log).
    """
    found = live()
    if found is not None:
        await found.runner.adopt(run_here)
        return found
    state = await kind.load(number, time.now())
    run_here()
    if state is None:
        return None
    found = live()  # a socket may have read it meanwhile
    if found is None:
        found = install(state)
    found.runner.replace(state, here=True)
    return found
