"""Tournament leases as the nodes use them (gammon.server.nodes), without processes: a
runner whose lease was taken over can never append a tournament action to the log again.
The leases themselves are tested in test_leases.py, for tables and tournaments."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from gammon.server.auth import Accounts
from gammon.server.db import now
from gammon.server.hub import Hub
from gammon.server.redis_nodes import RedisNodes
from gammon.server.store import Fenced, Store
from gammon.server.tournaments import Tournament, TournamentSettings
from gammon.server.tournaments.live import Tournaments
from gammon.server.tournaments.queries import (
    add_tournament_action,
    create_tournament,
    load_tournament,
)
from tests import waiting
from tests.server.nodes import cluster_or_skip, redis_server
from tests.server.test_leases import _take


@pytest.fixture(scope="module")
def store(postgres_store: Store) -> Store:
    return postgres_store


def _node(store: Store) -> RedisNodes:
    # No Redis is reached: only the leases (PostgreSQL) are used here.
    nodes = RedisNodes(store, "redis://127.0.0.1:1/0", ttl=30.0)
    Tournaments(Hub(store, Accounts(), nodes=nodes))  # the tournaments register with the nodes
    return nodes


def _register(store: Store, node: RedisNodes, tournament: Tournament, user: int) -> bool:
    """One registration appended by ``node`` as a runner does: True if it committed."""
    applied = tournament.apply(
        {"type": "register", "user": user, "name": f"user{user}"}, actor_id=user, at=now()
    )
    check = node.fence(("tournament", tournament.id))
    with store.db.session() as session:
        try:
            check(session)
        except Fenced:
            session.rollback()
            return False
        add_tournament_action(session, tournament, applied)
        session.commit()
        return True


def _expire(session: Session, node: RedisNodes) -> None:
    """The node's own lease runs out (it was paused past it): so do all its leases."""
    session.execute(
        text("UPDATE node_leases SET expires_at = 0 WHERE node = :node"), {"node": node.node}
    )
    session.commit()


def test_a_live_tournament_lease_is_not_taken_and_a_stale_runner_is_fenced(store: Store) -> None:
    nodes = _node(store), _node(store)
    a, b = (node.kind("tournament") for node in nodes)
    settings = TournamentSettings.from_json({"name": "Leased", "seats": 4, "lengths": [1, 1]})
    with store.db.session() as session:
        made = create_tournament(session, settings, creator_id=1, at=now())
        session.commit()
    number = made.id
    assert _take(store, a, number)
    assert not _take(store, b, number)  # a's lease is live
    assert _register(store, nodes[0], made, 1)
    with store.db.session() as session:
        _expire(session, nodes[0])
    assert _take(store, b, number)
    assert b.owned[number] == a.owned[number] + 1
    # a, paused past its lease, wakes up and appends: refused, the log does not move.
    assert not _register(store, nodes[0], made, 2)
    with store.db.session() as session:
        replayed = load_tournament(session, number)
    assert replayed is not None and replayed.seq == 1
    # b runs it from the log, as a takeover does, and appends.
    assert _register(store, nodes[1], replayed, 2)
    with store.db.session() as session:
        after = load_tournament(session, number)
    assert after is not None and after.seq == 2
    assert [after.entry(no).name for no in after.registered] == ["user1", "user2"]


def test_a_forwarded_action_sent_again_is_carried_out_once(store: Store) -> None:
    """A sender whose answer was lost sends the action again with the same request id: the
    runner answers it as the first time (its record, not "already registered") and the log
    holds it once; another action by the same player, with an id of its own, is refused."""
    cluster_or_skip()

    async def scenario(url: str) -> None:
        store.start()
        settings = TournamentSettings.from_json({"name": "Twice", "seats": 4, "lengths": [1, 1]})
        made = await store.write(lambda s: create_tournament(s, settings, creator_id=1, at=now()))
        nodes = RedisNodes(store, url, ttl=30.0)
        Tournaments(Hub(store, Accounts(), nodes=nodes))
        assert await nodes.take_over(("tournament", made.id))
        sender = f"sender-{made.id}"
        listener = nodes.redis.pubsub()
        await listener.subscribe(nodes.prefix + "node:" + sender)
        register = {"type": "register", "user": 2, "name": "bob"}

        async def forward(rid: str, key: str) -> dict[str, object]:
            message = {"rid": rid, "from": sender, "k": "tournament", "t": made.id,
                       "request_id": key, "action": register, "actor_id": 2}  # fmt: skip
            await nodes._serve(message)
            deadline = time.monotonic() + waiting.TIMEOUT  # a guard: each read awaits a message
            while time.monotonic() < deadline:
                # None also for the subscription's own confirmation: read on.
                heard = await listener.get_message(ignore_subscribe_messages=True, timeout=1)
                if heard is not None:
                    reply: dict[str, object] = json.loads(heard["data"])
                    if reply["rid"] == rid:
                        return reply
            raise AssertionError("the runner did not answer")

        assert await forward("r1", "k1") == {"rid": "r1", "record": {"seq": 1}}
        again = await forward("r2", "k1")  # the same action again
        assert again == {"rid": "r2", "record": {"seq": 1}}
        again = await forward("r3", "k2")  # a new action: registering twice is refused
        assert "refused" in again and again["refused"][0] == "already_registered"  # type: ignore[index]
        with store.db.session() as session:
            replayed = load_tournament(session, made.id)
        assert replayed is not None and replayed.seq == 1
        await listener.aclose()  # type: ignore[no-untyped-call]
        await nodes.redis.aclose()

    with redis_server() as url:
        asyncio.run(scenario(url))
