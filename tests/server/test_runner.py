"""A log's runner (gammon.server.runner) over a real table and a real database: each
commit is reported once, after it is in the log; a refusal changes nothing and is not
reported; what follows a commit may act again; a table read again is reported as such."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from gammon.match import SeriesRules
from gammon.server.db import Database, User
from gammon.server.nodes import Nodes, Request
from gammon.server.protocol import Refused
from gammon.server.runner import Committed, Runner
from gammon.server.settings import TableSettings
from gammon.server.store import Store, create_table, load_table
from gammon.server.table import Applied, Seat, Table
from gammon.server.table_log import TableLog
from gammon.server.timesource import ManualTime

#: A guard against a hang (a lock never released), not a measure of speed.
GUARD_S = 60.0
SEATS = [{"user": 1, "name": "ann"}, {"user": 2, "name": "bob"}]


@pytest.fixture
def store() -> Iterator[Store]:
    db = Database("sqlite://")
    db.create_all()
    with db.session() as session:
        session.add_all(
            [User(id=1, name="ann", name_key="ann", created=0.0),
             User(id=2, name="bob", name_key="bob", created=0.0)]
        )  # fmt: skip
        session.commit()
    store = Store(db)
    store.start()
    try:
        yield store
    finally:
        store.stop()
        db.dispose()


def _seeds() -> bytes:
    return bytes(32)  # every game's seed: the test's dice are the same every run


async def _runner(
    store: Store, heard: list[Committed[Table, Applied]], **kwargs: Any
) -> Runner[Table, Applied]:
    settings = TableSettings(SeriesRules(length=1))
    table = await store.write(
        lambda s: create_table(s, settings, Seat(1, "ann"), at=0.0, invite_id=None)
    )
    table.new_seed = _seeds
    return Runner(
        TableLog(store, _seeds),
        table,
        nodes=Nodes(),
        time=ManualTime(),
        spawn=asyncio.ensure_future,
        on_change=heard.append,
        **kwargs,
    )


def test_each_commit_is_reported_once_after_it_is_in_the_log(store: Store) -> None:
    async def scenario() -> None:
        heard: list[Committed[Table, Applied]] = []
        runner = await _runner(store, heard)
        in_log: list[int] = []

        def listener(change: Committed[Table, Applied]) -> None:
            replayed = _in_log(store, change.state.id)
            in_log.append(replayed.seq)
            heard.append(change)

        runner.on_change = listener
        await runner.act(Request({"type": "start", "seats": SEATS}, actor_id=2))
        await runner.act(Request({"type": "roll"}, side=0, actor_id=1, entropy=b"e" * 32))
        seen = [(c.before, c.state.status, c.applied.seq if c.applied else None, c.here)
                for c in heard]  # fmt: skip
        assert seen == [("open", "playing", 1, True), ("playing", "playing", 2, True)]
        assert in_log == [1, 2]  # the listener hears of each action once it is committed
        assert all(c.request is not None for c in heard)

    asyncio.run(asyncio.wait_for(scenario(), GUARD_S))


def _in_log(store: Store, table_id: int) -> Table:
    with store.db.session() as session:
        table = load_table(session, table_id)
    assert table is not None
    return table


def test_a_refused_request_changes_nothing_and_nobody_hears_of_it(store: Store) -> None:
    async def scenario() -> None:
        heard: list[Committed[Table, Applied]] = []
        runner = await _runner(store, heard)
        await runner.act(Request({"type": "start", "seats": SEATS}, actor_id=2))
        with pytest.raises(Refused) as stale:
            await runner.act(Request({"type": "roll"}, side=0, actor_id=1, expect_seq=0))
        assert stale.value.code == "stale"
        with pytest.raises(Refused):
            await runner.act(Request({"type": "double"}, side=0, actor_id=1))  # no cube yet
        assert len(heard) == 1 and runner.state.seq == 1
        assert _in_log(store, runner.state.id).seq == 1

    asyncio.run(asyncio.wait_for(scenario(), GUARD_S))


def test_what_follows_a_commit_may_act_again_once_the_lock_is_free(store: Store) -> None:
    """``after`` runs outside the lock: acting from it does not wait on itself."""

    async def scenario() -> None:
        heard: list[Committed[Table, Applied]] = []
        acks: list[int] = []

        async def after(change: Committed[Table, Applied]) -> None:
            if change.applied is not None and change.applied.action.name == "start":
                await runner.act(Request({"type": "roll"}, side=0, actor_id=1, entropy=b"e" * 32))

        runner = await _runner(store, heard, after=after)
        applied = await runner.act(
            Request({"type": "start", "seats": SEATS}, actor_id=2), _Acks(acks)
        )
        assert applied.seq == 1 and acks == [1]
        assert runner.state.seq == 2 and [c.applied.seq for c in heard if c.applied] == [1, 2]

    asyncio.run(asyncio.wait_for(scenario(), GUARD_S))


class _Acks:
    """Who waits for the acknowledgements: a list of the seqs acknowledged."""

    def __init__(self, acks: list[int]) -> None:
        self.acks = acks

    def acknowledge(self, seq: int) -> None:
        self.acks.append(seq)

    def together(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


def test_a_log_read_again_is_reported_without_an_action(store: Store) -> None:
    """Taking a log over reads it from the database under the lock, makes it this node's
    before anything else can act, and tells the listener (applied None, here)."""

    async def scenario() -> None:
        heard: list[Committed[Table, Applied]] = []
        runner = await _runner(store, heard)
        await runner.act(Request({"type": "start", "seats": SEATS}, actor_id=2))
        ours: list[bool] = []
        await runner.adopt(lambda: ours.append(runner.lock.locked()))
        assert ours == [True]  # made this node's while the lock was held
        change = heard[-1]
        assert change.applied is None and change.here and change.state.seq == 1
        assert change.state is runner.state

    asyncio.run(asyncio.wait_for(scenario(), GUARD_S))
