"""Leases and their fences on PostgreSQL (gammon.server.leases), without processes, for
both kinds of lease (tables and tournaments): whatever the order of takeovers, expiries
of nodes and writes, only the newest holder of a lease can commit; a node's one row that
keeps all its leases live, renewals, the sweep's orphans, releases and a stopping node's
hand-back."""

from __future__ import annotations

import itertools
import os
import threading
from dataclasses import dataclass, field
from typing import Protocol

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from gammon.match import SeriesRules
from gammon.server.db import now
from gammon.server.leases import Leases
from gammon.server.settings import TableSettings
from gammon.server.store import Fenced, Store, create_table
from gammon.server.table import Seat
from gammon.server.tournaments import TournamentSettings
from gammon.server.tournaments.queries import create_tournament

#: The two kinds of lease: (lease table, key column, the leased things' table).
KINDS = {
    "table": ("table_leases", "table_id", "tables"),
    "tournament": ("tournament_leases", "tournament_id", "tournaments"),
}


@pytest.fixture(scope="module")
def store(postgres_store: Store) -> Store:
    return postgres_store


@dataclass
class Node:
    """One node's leases of one kind, and the fences it holds (as its runner keeps them)."""

    leases: Leases
    owned: dict[int, int] = field(default_factory=dict)


def _thing(store: Store, kind: str) -> int:
    """A new unfinished table or tournament."""
    with store.db.session() as session:
        if kind == "table":
            made = create_table(
                session,
                TableSettings(SeriesRules(length=1)),
                Seat(1, "ann"),
                at=now(),
                invite_id=None,
            ).id
        else:
            settings = TournamentSettings.from_json({"name": "Leased", "seats": 4})
            made = create_tournament(session, settings, creator_id=1, at=now()).id
        session.commit()
        return made


_NODES = itertools.count(1)


def _nodes(kind: str, count: int) -> list[Node]:
    """``count`` nodes, each named as no other of this run (the process and a count)."""
    leases, key, _things = KINDS[kind]
    return [
        Node(Leases(leases, key, f"node-{os.getpid()}-{next(_NODES)}", 30.0)) for _ in range(count)
    ]


class Holder(Protocol):
    """A node's leases and the fences it holds: :class:`Node`, or a runner that keeps them
    (gammon.server.redis_nodes.RedisNodes.kind)."""

    leases: Leases
    owned: dict[int, int]


def _take(store: Store, node: Holder, thing: int) -> bool:
    """Take the lease as a takeover does; keep its fence as the node's own."""
    with store.db.session() as session:
        fence = node.leases.take(session, thing)
    if fence is not None:
        node.owned[thing] = fence
    return fence is not None


def _write(store: Store, node: Node, thing: int) -> bool:
    """The fenced part of a write to the thing's log: True if it would commit."""
    check = node.leases.fence_check(thing, node.owned.get(thing), f"thing {thing}")
    with store.db.session() as session:
        try:
            check(session)
        except Fenced:
            session.rollback()
            return False
        session.commit()
        return True


def _expire(store: Store, node: Holder) -> None:
    """The node's own lease runs out (it was paused, or died): so does every lease of it."""
    with store.db.session() as session:
        session.execute(
            text("UPDATE node_leases SET expires_at = 0 WHERE node = :node"),
            {"node": node.leases.node},
        )
        session.commit()


@pytest.mark.parametrize("kind", KINDS)
def test_a_live_lease_is_not_taken_and_a_stale_holder_is_fenced(store: Store, kind: str) -> None:
    a, b = _nodes(kind, 2)
    thing = _thing(store, kind)
    assert _take(store, a, thing)
    assert not _take(store, b, thing)  # a's lease is live
    assert _write(store, a, thing)
    _expire(store, a)
    assert _write(store, a, thing)  # expired but nobody took it: a may still commit
    _expire(store, a)
    assert _take(store, b, thing)
    assert not _write(store, a, thing)  # a's fence is stale: never again
    assert _write(store, b, thing)
    assert b.owned[thing] == a.owned[thing] + 1


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kind=st.sampled_from(sorted(KINDS)),
    steps=st.lists(st.tuples(st.sampled_from(["take", "write", "expire"]), st.integers(0, 2))),
)
def test_only_the_newest_holder_ever_commits(
    store: Store, kind: str, steps: list[tuple[str, int]]
) -> None:
    nodes = _nodes(kind, 3)
    thing = _thing(store, kind)
    holder: int | None = None
    alive: set[int] = set()  # the nodes whose own lease is live
    for step, index in steps:
        node = nodes[index]
        if step == "expire":
            _expire(store, node)
            alive.discard(index)
        elif step == "take":
            taken = _take(store, node, thing)
            assert taken == (holder is None or holder not in alive or holder == index)
            alive.add(index)  # taking, or trying to, makes the node live first
            if taken:
                holder = index
        elif thing in node.owned:
            committed = _write(store, node, thing)
            assert committed == (holder == index)
            if committed:
                alive.add(index)  # a write extends its node's lease


def _expires_at(store: Store, node: Holder) -> float:
    with store.db.session() as session:
        return float(
            session.execute(
                text("SELECT expires_at FROM node_leases WHERE node = :node"),
                {"node": node.leases.node},
            ).scalar_one()
        )


@pytest.mark.parametrize("kind", KINDS)
def test_the_fences_of_a_batch_are_checked_in_one_statement(store: Store, kind: str) -> None:
    """The writer's batch checks its appends' fences together: all held, the node's lease
    is extended; one lost, Fenced names it (and the batch is written one by one)."""
    a, b = _nodes(kind, 2)
    things = [_thing(store, kind) for _ in range(3)]
    assert all(_take(store, a, thing) for thing in things)
    checks = [a.leases.fence_check(t, a.owned[t], f"thing {t}") for t in things]
    assert len({check.run_together for check in checks}) == 1  # one group: one statement
    _expire(store, a)
    with store.db.session() as session:
        a.leases.check_fences(session, [*checks, checks[0]])  # a thing twice: one row
        session.commit()
    assert _expires_at(store, a) > now()  # extended: every lease of a is live again
    assert not any(_take(store, b, thing) for thing in things)
    _expire(store, a)
    assert _take(store, b, things[1])
    with store.db.session() as session, pytest.raises(Fenced, match=f"thing {things[1]}"):
        a.leases.check_fences(session, checks)
    with store.db.session() as session:
        a.leases.check_fences(session, [checks[0], checks[2]])  # the others still held
        with pytest.raises(Fenced):
            checks[1](session)  # alone, as the one-by-one fallback runs it


def test_the_leases_lost_are_those_a_renewal_did_not_find_still_owned() -> None:
    before = {1: 4, 2: 7, 3: 2, 4: 5}
    held = {1: 4, 2: 8, 4: 5}  # 2 taken by another node (a newer fence), 3 gone
    owned = {1: 4, 2: 7, 3: 2, 4: 5}
    assert list(Leases.lost(before, held, owned)) == [2, 3]
    owned[3] = 3  # taken again meanwhile: not lost
    del owned[2]  # already dropped
    assert list(Leases.lost(before, held, owned)) == []


@pytest.mark.parametrize("kind", KINDS)
def test_renewal_keeps_a_node_s_leases_and_shows_the_ones_it_lost(store: Store, kind: str) -> None:
    a, b = _nodes(kind, 2)
    kept, lost = _thing(store, kind), _thing(store, kind)
    assert _take(store, a, kept) and _take(store, a, lost)
    _expire(store, a)
    assert _take(store, b, lost)
    with store.db.session() as session:
        a.leases.own.renew(session)
        held = a.leases.held(session)
    assert held == {kept: a.owned[kept]}  # lost is b's now
    assert not _take(store, b, kept)  # the renewal made a's lease on kept live again


@pytest.mark.parametrize("kind", KINDS)
def test_orphans_are_the_unfinished_things_without_a_live_lease(store: Store, kind: str) -> None:
    a, dead = _nodes(kind, 2)
    _leases, _key, things = KINDS[kind]
    statuses = ("open", "playing") if kind == "table" else ("registering", "running")
    never, expired, held = _thing(store, kind), _thing(store, kind), _thing(store, kind)
    assert _take(store, dead, expired) and _take(store, a, held)
    _expire(store, dead)
    with store.db.session() as session:
        orphans = set(a.leases.orphans(session, things, statuses))
    assert {never, expired} <= orphans
    assert held not in orphans


@pytest.mark.parametrize("kind", KINDS)
def test_release_and_hand_back(store: Store, kind: str) -> None:
    """A finished thing's lease row goes, but only with its holder's fence; a stopping
    node's leases are free for the others at once."""
    a, b = _nodes(kind, 2)
    finished, running = _thing(store, kind), _thing(store, kind)
    assert _take(store, a, finished) and _take(store, a, running)
    with store.db.session() as session:
        a.leases.release(session, finished, a.owned[finished] + 1)  # not its fence: kept
    assert not _take(store, b, finished)
    with store.db.session() as session:
        a.leases.release(session, finished, a.owned[finished])
    assert _take(store, b, finished)
    assert b.owned[finished] == 1  # a new row: the fences start again
    with store.db.session() as session:
        a.leases.own.hand_back(session)
        assert a.leases.owner(session, running) is None
    assert _take(store, b, running)
    with store.db.session() as session:
        assert b.leases.owner(session, running) == b.leases.node


def test_a_takeover_racing_an_owner_s_appends_leaves_it_nothing_after(store: Store) -> None:
    """Node A appends as fast as it can from a thread while its lease is expired and node B
    takes the table over: B's takeover waits for A's transaction in flight, so once B
    holds the lease the log never grows by A again."""
    a, b = _nodes("table", 2)
    table_id = _thing(store, "table")
    assert _take(store, a, table_id)
    check = a.leases.fence_check(table_id, a.owned[table_id], f"table {table_id}")
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
            _expire(store, a)
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
