"""The database seen from the event loop: the action log, written before anything is broadcast.

Every accepted action goes through :meth:`Store.append`, which returns only
once the action is committed. Appends go to one writer thread that commits
whatever has queued up in a single transaction (group commit), so a durable
commit per action does not limit how many games run at once; the actions of
one commit are inserted with one statement (executemany), which costs the
writer thread, and so the event loop that shares the interpreter with it, far
less than an ORM object per action. Everything else
(logins, lobby queries, chat) runs in a small pool of threads, each call in its
own transaction.

:func:`rebuild` is the other half: it replays a table's log through
:meth:`Table.apply` and checks that each action gives the events it gave the
first time, dice included.

The chat room's queries are :mod:`gammon.server.chat_queries`, the tournaments'
:mod:`gammon.server.tournaments.queries`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import insert, update
from sqlalchemy.orm import Session

from gammon.actions import Forfeit, OutOfTime
from gammon.errors import GammonError
from gammon.server.db import (
    Action,
    Database,
    GameRow,
    Result,
    TableRow,
    User,
    select,
)
from gammon.server.players import rate_finished
from gammon.server.settings import TableSettings, settings_from_row
from gammon.server.table import Applied, Seat, Table
from gammon.server.table_actions import Start
from gammon.server.table_codec import action_from_json, action_json, result_json, table_result_json

__all__ = [
    "Fenced",
    "ReplayError",
    "Store",
    "create_table",
    "load_table",
    "load_unfinished",
    "rebuild",
    "write_applied",
]

log = logging.getLogger("gammon.server")
T = TypeVar("T")

_MAX_BATCH = 512
#: The insert of a batch's actions (Core, executemany).
_INSERT_ACTION = insert(Action)


class Fenced(GammonError):
    """An append's check refused it: another node runs the table now (gammon.server.cluster)."""


class ReplayError(GammonError):
    """A table's log does not replay to what it recorded: the database was changed by hand."""


def write_applied(session: Session, table_id: int, applied: Applied) -> None:
    """Add one accepted action, and what it changed, to the session (not committed)."""
    session.execute(insert(Action), [_action_row(table_id, applied)])
    _write_changes(session, table_id, applied)


def _action_row(table_id: int, applied: Applied) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seq": applied.seq,
        "actor_id": applied.actor_id,
        "side": applied.side,
        "action": action_json(applied.action),
        "entropy": applied.entropy,
        "events": applied.events,
        "clock": applied.clock,
        "at": applied.at,
        "request_id": applied.request,
    }


def _write_changes(session: Session, table_id: int, applied: Applied) -> None:
    """What an action changed besides the log: games started and ended, the table's status."""
    changes = applied.changes
    for number, result in changes.ended_games:
        session.execute(
            update(GameRow)
            .where(GameRow.table_id == table_id, GameRow.number == number)
            .values(result=result_json(result), ended=applied.at)
        )
    for number, commitment, seed in changes.new_games:
        session.add(
            GameRow(
                table_id=table_id,
                number=number,
                commitment=commitment,
                seed=seed,
                started=applied.at,
            )
        )
    values: dict[str, Any] = {}
    if changes.status is not None:
        values["status"] = changes.status.value
    if changes.seats is not None:
        values["seat0"], values["seat1"] = changes.seats
    if changes.result is not None:
        values["result"] = table_result_json(changes.result)
        values["finished"] = applied.at
    if values:
        session.execute(update(TableRow).where(TableRow.id == table_id).values(**values))
    if changes.result is not None:
        winner = changes.result.winner
        seats = session.get(TableRow, table_id)
        seat_ids = [seats.seat0, seats.seat1] if seats is not None else [None, None]
        session.add(
            Result(
                table_id=table_id,
                winner_side=winner,
                winner_id=seat_ids[winner] if winner is not None else None,
                loser_id=seat_ids[1 - winner] if winner is not None else None,
                reason=changes.result.reason,
                score=list(changes.result.score),
                at=applied.at,
            )
        )
        # In the same transaction: a match is rated exactly once, crash or not.
        rate_finished(session, table_id, winner, applied.at)


def create_table(
    session: Session,
    settings: TableSettings,
    creator: Seat,
    *,
    at: float,
    invite_id: int | None,
    seats: Sequence[Seat] | None = None,
    tournament: tuple[int, int] | None = None,
) -> Table:
    """Record a new table (not committed); with ``seats`` (a table against the bot, or a
    tournament's match: ``tournament`` is its tournament and match number) started."""
    bot_level = settings.bot
    if seats is not None:
        bot_level = next((seat.bot for seat in seats if seat.bot is not None), bot_level)
    row = TableRow(
        created_by=creator.user_id,
        created=at,
        settings=settings.to_json(),
        status="open",
        invite_id=invite_id,
        bot_level=bot_level,
        tournament_id=tournament[0] if tournament else None,
        tournament_match=tournament[1] if tournament else None,
    )
    session.add(row)
    session.flush()
    table = Table(row.id, settings, creator, created=at, invite_id=invite_id, tournament=tournament)
    if seats is not None:
        applied = table.apply(
            Start(tuple(seats)),
            side=None,
            actor_id=creator.user_id,
            at=at,
        )
        write_applied(session, row.id, applied)
    return table


def rebuild(
    row: TableRow, creator_name: str, actions: Sequence[Action], seeds: Sequence[bytes]
) -> Table:
    """Replay a table's log; raise :class:`ReplayError` where it does not give what it recorded."""
    table = Table(
        row.id,
        settings_from_row(row.settings),
        Seat(row.created_by, creator_name),
        created=row.created,
        invite_id=row.invite_id,
        seeds=seeds,
        tournament=(
            (row.tournament_id, row.tournament_match or 0)
            if row.tournament_id is not None
            else None
        ),
    )
    for record in actions:
        if record.seq != table.seq + 1:
            raise ReplayError(f"table {row.id}: action {record.seq} follows action {table.seq}")
        try:
            applied = table.apply(
                action_from_json(record.action, record.side),
                side=record.side,
                actor_id=record.actor_id,
                at=record.at,
                entropy=bytes.fromhex(record.entropy) if record.entropy else None,
            )
        except GammonError as exc:
            raise ReplayError(f"table {row.id}: action {record.seq} is refused: {exc}") from exc
        if applied.events != record.events and not _forfeit_without_events(record):
            raise ReplayError(
                f"table {row.id}: action {record.seq} ({record.action}) gives "
                f"{applied.events}, the log says {record.events}"
            )
        table.restore_clock(record.clock)
    return table


def _forfeit_without_events(record: Action) -> bool:
    """A forfeit or loss on time logged before the rules library ended the game for it.

    Servers before that recorded such an action with no events (the table simply
    finished); replayed now it ends the game as the rules say, which is not a
    change made by hand.
    """
    return record.action.get("type") in (Forfeit.name, OutOfTime.name) and not record.events


def load_table(session: Session, table_id: int) -> Table | None:
    """Rebuild one table from the database, or None if there is no such table."""
    row = session.get(TableRow, table_id)
    if row is None:
        return None
    creator = session.get(User, row.created_by)
    actions = session.scalars(
        select(Action).where(Action.table_id == table_id).order_by(Action.seq)
    ).all()
    seeds = [
        bytes.fromhex(seed)
        for seed in session.scalars(
            select(GameRow.seed).where(GameRow.table_id == table_id).order_by(GameRow.number)
        )
    ]
    return rebuild(row, creator.name if creator else "?", actions, seeds)


def load_unfinished(session: Session) -> list[Table]:
    """Every table that is open or being played, rebuilt from its log (server start)."""
    ids = session.scalars(
        select(TableRow.id).where(TableRow.status.in_(("open", "playing"))).order_by(TableRow.id)
    ).all()
    tables = []
    for table_id in ids:
        try:
            table = load_table(session, table_id)
        except ReplayError as exc:
            log.error(
                "table %s cannot be rebuilt and is left out: %s",
                table_id,
                exc,
                extra={"table_id": table_id},
            )
            continue
        if table is not None:
            tables.append(table)
    return tables


class _Job:
    __slots__ = ("append", "check", "fn", "future", "loop")

    def __init__(
        self,
        fn: Callable[[Session], Any] | None,
        future: asyncio.Future[Any],
        loop: asyncio.AbstractEventLoop,
        append: tuple[int, Applied] | None = None,
        check: Callable[[Session], None] | None = None,
    ) -> None:
        self.fn = fn
        self.future = future
        self.loop = loop
        #: (table id, action) for an append: its row is inserted with the batch's others.
        self.append = append
        #: Run first in the append's transaction; raising stops the commit (a fence).
        self.check = check


class Store:
    """The database from the event loop: durable appends in order, other work in threads."""

    def __init__(self, db: Database, *, threads: int = 4) -> None:
        self.db = db
        #: Jobs for the writer thread, handed over together (a list a loop iteration).
        self._queue: queue.SimpleQueue[list[_Job] | None] = queue.SimpleQueue()
        #: Jobs asked for in this iteration of the event loop, not handed over yet.
        self._pending: list[_Job] = []
        #: Jobs handed over (counted by the event loop) and taken (by the writer thread).
        self._asked = 0
        self._taken = 0
        #: The loop a hand-over is scheduled on, if one is.
        self._handing_over: asyncio.AbstractEventLoop | None = None
        self._writer = threading.Thread(
            target=self._write_loop, name="gammon-db-writer", daemon=True
        )
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="gammon-db")
        self._started = False
        self.batches = 0
        self.commits = 0

    @property
    def writing(self) -> bool:
        """Whether the writer thread is running (``/readyz``)."""
        return self._writer.is_alive()

    @property
    def write_queue(self) -> int:
        """Writes asked for and not yet taken by the writer thread (``/metrics``)."""
        return len(self._pending) + self._asked - self._taken

    def start(self) -> None:
        if not self._started:
            self._started = True
            self._writer.start()

    def stop(self) -> None:
        if self._started:
            self._hand_over()
            self._queue.put(None)
            self._writer.join(timeout=10)
            self._started = False
        self._pool.shutdown(wait=True)

    async def run(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn(session)`` in a thread; it commits (or not) itself."""

        def call() -> T:
            with self.db.session() as session:
                return fn(session)

        return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    async def write(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn(session)`` in the writer thread and commit; returns once committed.

        Writes are committed in the order they were asked for.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._ask(_Job(fn, future, loop))
        return await future

    def append(
        self,
        table_id: int,
        applied: Applied,
        check: Callable[[Session], None] | None = None,
    ) -> asyncio.Future[None]:
        """Commit one accepted action (and what it changed): await it before broadcasting.

        ``check`` runs in the same transaction before anything is written; if it raises,
        nothing is (several nodes: the fence of :mod:`gammon.server.cluster`).

        The write is asked for at once and returns a plain future, not a coroutine: the
        writer commits the action whether or not anybody still waits, so a waiter that is
        cancelled (its socket closed) needs no ``asyncio.shield``, and an action costs no
        task of its own.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._ask(_Job(None, future, loop, (table_id, applied), check))
        return future

    def _ask(self, job: _Job) -> None:
        """Queue ``job`` for the writer thread with the others of this loop iteration: one
        hand-over (and at most one wake-up of the writer) however many actions it has."""
        self._pending.append(job)
        if self._handing_over is not job.loop:  # none scheduled (or on a loop since closed)
            self._handing_over = job.loop
            job.loop.call_soon(self._hand_over)

    def _hand_over(self) -> None:
        self._handing_over = None
        jobs, self._pending = self._pending, []
        if jobs:
            self._asked += len(jobs)
            self._queue.put(jobs)

    # -- the writer thread ---------------------------------------------------------------

    def _write_loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            jobs = list(first)
            stop = False
            while len(jobs) < _MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                jobs.extend(more)
            self._taken += len(jobs)
            self._commit(jobs)
            if stop:
                return

    def _commit(self, jobs: list[_Job]) -> None:
        results: list[Any] = []
        try:
            with self.db.session() as session:
                # No job of a batch waits for another (each was asked for only after the
                # commits it depends on), so the appended actions may all go first.
                _run_checks(session, [job.check for job in jobs if job.check is not None])
                rows = [_action_row(*job.append) for job in jobs if job.append is not None]
                if rows:
                    # Core's executemany: the same rows as the ORM's bulk insert, without
                    # its per-row bookkeeping (a fifth of the writer thread's time).
                    session.connection().execute(_INSERT_ACTION, rows)
                for job in jobs:
                    if job.append is not None:
                        _write_changes(session, *job.append)
                        results.append(None)
                    else:
                        assert job.fn is not None
                        results.append(job.fn(session))
                session.commit()
            self.batches += 1
            self.commits += len(jobs)
        except Exception as exc:
            if len(jobs) == 1:
                if not isinstance(exc, Fenced):
                    log.exception("a database write failed")
                self._settle([(jobs[0], None, exc)])
                return
            # One bad write must not sink the others: write them one by one.
            for job in jobs:
                self._commit([job])
            return
        self._settle([(job, result, None) for job, result in zip(jobs, results, strict=True)])

    @staticmethod
    def _settle(outcomes: list[tuple[_Job, Any, BaseException | None]]) -> None:
        """Give each job its result, in its own loop: one wake-up of a loop for a whole
        batch (each wake-up is a write to the loop's self-pipe, and a read there)."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[_Job, Any, BaseException | None]]]
        by_loop = {}
        for outcome in outcomes:
            by_loop.setdefault(outcome[0].loop, []).append(outcome)
        for loop, settled in by_loop.items():
            with contextlib.suppress(RuntimeError):  # the loop is closed (shutdown)
                loop.call_soon_threadsafe(_set_outcomes, settled)


def _run_checks(session: Session, checks: list[Callable[[Session], None]]) -> None:
    """The appends' checks, in the batch's transaction: those that say they can run with
    others (a ``run_together`` attribute: the fences of one lease table) in one call."""
    together: dict[Callable[[Session, list[Any]], None], list[Any]] = {}
    for check in checks:
        run = getattr(check, "run_together", None)
        if run is None:
            check(session)
        else:
            together.setdefault(run, []).append(check)
    for run, group in together.items():
        run(session, group)


def _set_outcomes(outcomes: list[tuple[_Job, Any, BaseException | None]]) -> None:
    for job, result, error in outcomes:
        if job.future.done():
            continue
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(result)
