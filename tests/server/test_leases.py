"""Table leases and their fences on PostgreSQL (gammon.server.cluster), without processes:
whatever the order of takeovers, expiries and appends, only the newest holder of a
table's lease can commit to it."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from gammon.match import SeriesRules
from gammon.server import migrate
from gammon.server.cluster import RedisCluster
from gammon.server.db import Database, User, now
from gammon.server.settings import TableSettings
from gammon.server.store import Fenced, Store, create_table
from gammon.server.table import Seat
from tests.server.client import database_url


@pytest.fixture(scope="module")
def store() -> Iterator[Store]:
    if not os.environ.get("GAMMON_TEST_DATABASE_URL"):
        pytest.skip("leases live in PostgreSQL: set GAMMON_TEST_DATABASE_URL (test.sh does)")
    db = Database(database_url("leases"))
    migrate.upgrade(db)
    with db.session() as session:
        session.add(User(name="ann", name_key="ann", created=0.0))
        session.commit()
    store = Store(db)
    try:
        yield store
    finally:
        store.stop()
        db.dispose()


def _table(store: Store) -> int:
    with store.db.session() as session:
        creator = Seat(1, "ann")
        table = create_table(
            session, TableSettings(SeriesRules(length=1)), creator, at=now(), invite_id=None
        )
        session.commit()
        return table.id


def _nodes(store: Store, count: int) -> list[RedisCluster]:
    # No Redis is reached: only the leases (PostgreSQL) are used here.
    return [RedisCluster(store, "redis://127.0.0.1:1/0", ttl=30.0) for _ in range(count)]


def _take(store: Store, node: RedisCluster, table_id: int) -> bool:
    with store.db.session() as session:
        fence = node._acquire(session, table_id)
        session.commit()
    if fence is not None:
        node.owned[table_id] = fence
    return fence is not None


def _append(store: Store, node: RedisCluster, table_id: int) -> bool:
    """The fenced part of an append: True if it would commit."""
    check = node.fence_check(table_id)
    assert check is not None
    with store.db.session() as session:
        try:
            check(session)
        except Fenced:
            session.rollback()
            return False
        session.commit()
        return True


def _expire(store: Store, table_id: int) -> None:
    with store.db.session() as session:
        session.execute(
            text("UPDATE table_leases SET expires_at = 0 WHERE table_id = :t"), {"t": table_id}
        )
        session.commit()


def test_a_live_lease_is_not_taken_and_a_stale_owner_is_fenced(store: Store) -> None:
    a, b = _nodes(store, 2)
    table_id = _table(store)
    assert _take(store, a, table_id)
    assert not _take(store, b, table_id)  # a's lease is live
    assert _append(store, a, table_id)
    _expire(store, table_id)
    assert _append(store, a, table_id)  # expired but nobody took it: a may still commit
    _expire(store, table_id)
    assert _take(store, b, table_id)
    assert not _append(store, a, table_id)  # a's fence is stale: never again
    assert _append(store, b, table_id)
    assert b.owned[table_id] == a.owned[table_id] + 1


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(st.tuples(st.sampled_from(["take", "append", "expire"]), st.integers(0, 2))))
def test_only_the_newest_holder_ever_commits(store: Store, steps: list[tuple[str, int]]) -> None:
    nodes = _nodes(store, 3)
    table_id = _table(store)
    holder: int | None = None
    live = False
    for kind, index in steps:
        node = nodes[index]
        if kind == "expire":
            _expire(store, table_id)
            live = False
        elif kind == "take":
            taken = _take(store, node, table_id)
            assert taken == (holder is None or not live or holder == index)
            if taken:
                holder, live = index, True
        elif table_id in node.owned:
            committed = _append(store, node, table_id)
            assert committed == (holder == index)
            if committed:
                live = True  # an append extends the lease


def test_a_takeover_racing_an_owner_s_appends_leaves_it_nothing_after(store: Store) -> None:
    """Node A appends as fast as it can from a thread while its lease is expired and node B
    takes the table over: B's takeover waits for A's transaction in flight, so once B
    holds the lease the log never grows by A again."""
    import threading

    a, b = _nodes(store, 2)
    table_id = _table(store)
    assert _take(store, a, table_id)
    check = a.fence_check(table_id)
    assert check is not None
    stop = threading.Event()
    refused = threading.Event()

    def appends() -> None:
        seq = 0
        while not stop.is_set():
            with store.db.session() as session:
                try:
                    check(session)
                except Fenced:
                    refused.set()
                    continue
                seq += 1
                session.execute(
                    text(
                        "INSERT INTO actions (table_id, seq, action, events, at) "
                        "VALUES (:t, :s, '{}', '[]', 0)"
                    ),
                    {"t": table_id, "s": seq},
                )
                session.commit()

    thread = threading.Thread(target=appends)
    thread.start()
    try:
        while _count(store, table_id) < 20:
            pass
        # A alive renews its lease with each append: B gets it only when its takeover
        # lands just after an expiry, between (or waiting on) A's transactions.
        for _ in range(10_000):
            _expire(store, table_id)
            if _take(store, b, table_id):
                break
        else:
            pytest.fail("the lease was never taken over")
        taken_at = _count(store, table_id)
        assert refused.wait(10)
    finally:
        stop.set()
        thread.join(10)
    assert _count(store, table_id) == taken_at


def _count(store: Store, table_id: int) -> int:
    with store.db.session() as session:
        return int(
            session.execute(
                text("SELECT COUNT(*) FROM actions WHERE table_id = :t"), {"t": table_id}
            ).scalar_one()
        )
