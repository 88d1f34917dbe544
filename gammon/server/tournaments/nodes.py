"""Tournaments on several nodes: one runner each under a lease with a fence, like a table.

With ``--redis`` (:mod:`gammon.server.cluster`) every node keeps a replica of every
tournament for its pages and its lobby, but only one runs each: the holder of its row in
``tournament_leases`` (migration 0006), taken and fenced like a table's lease
(:mod:`gammon.server.leases`) and renewed for all of a node's tournaments every third of
its time to live. Only the runner applies actions,
keeps the timers and opens the matches' tables; each append to the tournament's log
checks the lease's node and fence in its own transaction, so a runner that lost the
tournament never writes to it again.

- **Forwarding.** An action arriving at another node (a registration, an operator's
  action, a match's result reported where its table ran) goes to the runner over Redis
  (``tnode:{node}``). A tournament without a live runner is taken over by the node the
  action arrived at, and by the sweep of any node otherwise. Each action carries a key
  kept through the sender's retries, and the runner answers a key it has carried out as
  it did the first time: an answer lost on the way never makes a player's registration
  come back "already registered", nor an action happen twice.
- **Relay.** After each commit the runner publishes the tournament's new ``seq`` on
  ``tournament:{id}``; the other nodes read it again from the log (the state machine
  replays exactly), so every node's pages, sockets and lobby follow.
- **Fail-over.** A dead runner stops renewing; once its leases expire another node takes
  each tournament over by replaying its log and putting it in step with its tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import orjson
from sqlalchemy import text
from sqlalchemy.orm import Session

from gammon.messages import Message
from gammon.server.leases import Leases
from gammon.server.protocol import Refused

if TYPE_CHECKING:
    from redis.asyncio.client import PubSub

    from gammon.server.cluster import RedisCluster
    from gammon.server.tournaments.live import LiveTournament, Tournaments

__all__ = ["TournamentNodes"]

log = logging.getLogger("gammon.server")

#: How long a node waits for a tournament's runner to answer a forwarded action.
FORWARD_TIMEOUT_S: Final = 5.0
#: How long a runner remembers the outcome of a forwarded action, so that the same
#: action sent again (its answer was lost, or late) gets the same answer and is not
#: carried out twice: longer than a sender goes on retrying.
REMEMBER_S: Final = 120.0
_NODE: Final = "tnode:"
_TOURNAMENT: Final = "tournament:"


class TournamentNodes:
    """This node's share of the tournaments of a server of several nodes (see the module)."""

    def __init__(self, cluster: RedisCluster, tournaments: Tournaments) -> None:
        self.cluster = cluster
        self.tournaments = tournaments
        self.store = cluster.store
        self.node = cluster.node
        self.ttl = cluster.ttl
        self.prefix = cluster.prefix
        #: This node's leases on tournaments (gammon.server.leases).
        self.leases = Leases("tournament_leases", "tournament_id", self.node, self.ttl)
        #: The tournaments this node runs, and the fence of each one's lease.
        self.owned: dict[int, int] = {}
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: The forwarded actions this node carried out (or is carrying out), by their key:
        #: when, and their outcome (docs: REMEMBER_S).
        self._outcomes: dict[str, tuple[float, asyncio.Future[dict[str, Any]]]] = {}
        self._tasks: list[asyncio.Task[Any]] = []
        self._pubsub: PubSub | None = None
        self._taking: set[int] = set()
        #: Replicas being read from the log, and those changed again meanwhile.
        self._reading: set[int] = set()
        self._again: set[int] = set()

    # -- leases --------------------------------------------------------------------------------

    def owns(self, tournament_id: int) -> bool:
        return tournament_id in self.owned

    def acquire(self, session: Session, tournament_id: int) -> int | None:
        """Take the tournament's lease if nobody holds a live one; its new fence, or None."""
        return self.leases.acquire(session, tournament_id)

    def fence_check(self, tournament_id: int) -> Callable[[Session], None]:
        """What an append to the tournament's log checks in its transaction."""
        return self.leases.fence_check(
            tournament_id, self.owned.get(tournament_id), f"tournament {tournament_id}"
        )

    async def take_over(self, tournament_id: int) -> bool:
        """Take the tournament's lease if it is free or expired, and run it from its log."""
        if tournament_id in self.owned:
            return True
        if tournament_id in self._taking:
            return False
        self._taking.add(tournament_id)
        try:
            fence = await self.store.run(lambda session: self.leases.take(session, tournament_id))
            if fence is None:
                return False
            log.info(
                "tournament %s: taken over by node %s (fence %s)",
                tournament_id,
                self.node,
                fence,
                extra={"tournament_id": tournament_id},
            )

            def run_here() -> None:
                self.owned[tournament_id] = fence

            await self.tournaments.adopt(tournament_id, run_here)
            return True
        finally:
            self._taking.discard(tournament_id)

    async def lost(self, tournament_id: int) -> None:
        """An append found the lease taken: another node runs the tournament now."""
        if self.owned.pop(tournament_id, None) is None:
            return
        log.warning(
            "tournament %s: node %s lost its lease",
            tournament_id,
            self.node,
            extra={"tournament_id": tournament_id},
        )
        await self.tournaments.demote(tournament_id)

    async def release(self, tournament_id: int) -> None:
        """A finished tournament needs no runner: its lease row goes."""
        fence = self.owned.pop(tournament_id, None)
        if fence is None:
            return

        await self.store.run(lambda session: self.leases.release(session, tournament_id, fence))

    async def _renew(self) -> None:
        before = dict(self.owned)
        held = await self.store.run(self.leases.renew)
        for tournament_id in self.leases.lost(before, held, self.owned):
            await self.lost(tournament_id)

    async def _owner(self, tournament_id: int) -> str | None:
        return await self.store.run(lambda session: self.leases.owner(session, tournament_id))

    async def _sweep(self) -> None:
        """Take over the unfinished tournaments nobody runs; bring the replicas up to the log;
        put the ones run here in step with their tables."""

        known = max(self.tournaments.live, default=0)

        def heads(session: Session) -> tuple[list[int], dict[int, int]]:
            orphans = self.leases.orphans(session, "tournaments", ("registering", "running"))
            seqs = session.execute(
                text(
                    "SELECT t.id, COALESCE(MAX(a.seq), 0) FROM tournaments t "
                    "LEFT JOIN tournament_actions a ON a.tournament_id = t.id "
                    "WHERE t.status IN ('registering', 'running') OR t.id > :known "
                    "GROUP BY t.id"
                ),
                {"known": known},
            ).all()
            return orphans, {int(t): int(seq) for t, seq in seqs}

        orphans, seqs = await self.store.run(heads)
        live = self.tournaments.live
        for tournament_id, seq in seqs.items():
            replica = live.get(tournament_id)
            if tournament_id not in self.owned and (
                replica is None or replica.tournament.seq < seq
            ):
                await self.tournaments.reload(tournament_id)
        for tournament_id, replica in list(live.items()):
            unfinished = replica.tournament.status in ("registering", "running")
            if unfinished and tournament_id not in seqs and tournament_id not in self.owned:
                await self.tournaments.reload(tournament_id)  # it ended; the relay was missed
        random.shuffle(orphans)
        for tournament_id in orphans:
            await self.take_over(tournament_id)
        for tournament_id in list(self.owned):
            replica = live.get(tournament_id)
            if replica is not None and replica.tournament.status == "running":
                await self.tournaments.check_tables(replica)

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self._renew()
                await self._sweep()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.tournaments.hub.faults.report("running the tournaments", exc)

    # -- start and stop --------------------------------------------------------------------------

    async def start(self) -> None:
        redis = self.cluster.redis
        self._pubsub = redis.pubsub()
        await self._pubsub.subscribe(self.prefix + _NODE + self.node)
        await self._pubsub.psubscribe(self.prefix + _TOURNAMENT + "*")
        self._tasks.append(asyncio.ensure_future(self._listen(self._pubsub)))
        await self._sweep()
        self._tasks.append(asyncio.ensure_future(self._loop()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        if self.owned:
            self.owned.clear()
            with contextlib.suppress(Exception):
                await self.store.run(self.leases.hand_back)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]

    # -- relay ------------------------------------------------------------------------------------

    async def changed(self, tournament_id: int, seq: int, finished: bool) -> None:
        """The runner committed an action (or created the tournament): the others follow."""
        try:
            message = {"t": tournament_id, "node": self.node, "seq": seq}
            await self.cluster.publish(_TOURNAMENT + str(tournament_id), message)
        except Exception as exc:  # committed all the same: the others resync from the log
            self.tournaments.hub.faults.report(f"tournament {tournament_id}: publishing", exc)
        if finished:
            await self.release(tournament_id)

    async def _listen(self, pubsub: PubSub) -> None:
        from redis.exceptions import ConnectionError, TimeoutError

        from gammon.server.cluster import REDIS_RETRY_S

        while True:
            try:
                # Redis heard again is the tables' loop's to say: it carries the lobby, which
                # is written again then (gammon.server.cluster), once it listens again.
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if message is None:
                    continue
                channel = message["channel"].decode().removeprefix(self.prefix)
                data = orjson.loads(message["data"])
                if channel.startswith(_TOURNAMENT):
                    self._on_change(data)
                elif "from" in data:
                    self.tournaments.hub.spawn(self._serve(data))
                else:
                    future = self._pending.get(data.get("rid", ""))
                    if future is not None and not future.done():
                        future.set_result(data)
            except asyncio.CancelledError:
                raise
            except (ConnectionError, TimeoutError) as exc:
                await self.cluster.redis_error(exc)  # one line for the node, not one per loop
                await asyncio.sleep(REDIS_RETRY_S)
            except Exception as exc:
                self.tournaments.hub.faults.report("a tournament message from another node", exc)
                await asyncio.sleep(0.1)

    def _on_change(self, data: dict[str, Any]) -> None:
        tournament_id = int(data["t"])
        if data["node"] == self.node or tournament_id in self.owned:
            return
        replica = self.tournaments.live.get(tournament_id)
        if replica is not None and replica.tournament.seq >= int(data["seq"]):
            return
        if tournament_id in self._reading:
            self._again.add(tournament_id)  # read once more when this read is done
        else:
            self.tournaments.hub.spawn(self._read(tournament_id))

    async def _read(self, tournament_id: int) -> None:
        """Read a replica again from the log; changes heard meanwhile make one more read,
        not one each (a busy tournament's replicas never queue reads)."""
        self._reading.add(tournament_id)
        try:
            while True:
                self._again.discard(tournament_id)
                await self.tournaments.reload(tournament_id)
                if tournament_id not in self._again:
                    return
        finally:
            self._reading.discard(tournament_id)

    # -- forwarding --------------------------------------------------------------------------------

    async def route(
        self, live: LiveTournament, action: dict[str, Any], actor_id: int | None, operator: bool
    ) -> bool:
        """Carry the action out on the tournament's runner; False: this node runs it now (it
        was taken over here), so carry it out here."""
        tournament_id = live.tournament.id
        loop = asyncio.get_running_loop()
        key = secrets.token_hex(8)  # the same for each retry: the runner does it once
        deadline = loop.time() + 2 * self.ttl + FORWARD_TIMEOUT_S
        while loop.time() < deadline:
            if tournament_id in self.owned:
                return False
            owner = await self._owner(tournament_id)
            if owner is None or owner == self.node:
                if await self.take_over(tournament_id):
                    return False
                await asyncio.sleep(0.05)
                continue
            payload = {"t": tournament_id, "key": key, "action": action,
                       "actor_id": actor_id, "operator": operator}  # fmt: skip
            reply = await self._request(owner, payload)
            if reply is None or "unheard" in reply or "not_owner" in reply:
                await asyncio.sleep(self.ttl / 8)  # the runner is gone, or just changed
                continue
            if "refused" in reply:
                raise Refused.from_json(reply["refused"])
            await self.tournaments.reload(tournament_id)
            return True
        raise Refused(
            "server_error",
            Message("the tournament's server did not answer: look at it and act again"),
        )

    async def _request(self, node: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        try:
            request = {"rid": rid, "from": self.node, **payload}
            heard = await self.cluster.publish(_NODE + node, request)
            if heard == 0:
                return {"unheard": 1}
            return await asyncio.wait_for(future, FORWARD_TIMEOUT_S)
        except TimeoutError:
            return None
        finally:
            self._pending.pop(rid, None)

    async def _serve(self, data: dict[str, Any]) -> None:
        """Carry out an action another node forwarded, and answer it; the same action sent
        again (by its key) is answered as the first time, never carried out twice."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        for key, (at, _outcome) in list(self._outcomes.items()):
            if now - at > REMEMBER_S:
                del self._outcomes[key]
        key = str(data.get("key", data["rid"]))
        known = self._outcomes.get(key)
        if known is not None:
            outcome = await asyncio.shield(known[1])
        else:
            future: asyncio.Future[dict[str, Any]] = loop.create_future()
            self._outcomes[key] = (now, future)
            try:
                outcome = await self._carry_out(data)
            except BaseException:  # this node is stopping: the sender asks the next runner
                self._outcomes.pop(key, None)
                future.set_result({"not_owner": 1})
                raise
            future.set_result(outcome)
            if "not_owner" in outcome:  # nothing was done: another runner may do it
                self._outcomes.pop(key, None)
        await self.cluster.publish(_NODE + data["from"], {"rid": data["rid"], **outcome})

    async def _carry_out(self, data: dict[str, Any]) -> dict[str, Any]:
        """A forwarded action carried out here: ``ok``, ``refused`` or ``not_owner``."""
        tournament_id = int(data["t"])
        live = self.tournaments.live.get(tournament_id)
        try:
            if live is None or tournament_id not in self.owned:
                return {"not_owner": 1}
            await self.tournaments.act_here(
                live, data["action"], actor_id=data["actor_id"], operator=data["operator"]
            )
            return {"ok": 1}
        except Refused as exc:
            return {"refused": exc.to_json()}
        except Exception as exc:
            self.tournaments.hub.faults.report(
                f"tournament {tournament_id}: a forwarded action", exc
            )
            failed = Refused("server_error", Message("the action could not be carried out"))
            return {"refused": failed.to_json()}
