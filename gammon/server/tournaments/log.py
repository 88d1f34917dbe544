"""A tournament's log as its runner runs it (:class:`gammon.server.runner.LogKind`).

The tournament (:class:`gammon.server.tournaments.state.Tournament`) decides; this says
how a request is applied and appended, and how the log is read back. The nodes following
a tournament (every node: each keeps a replica for its pages and its lobby) hear only
its new ``seq`` and read the log again, which replays exactly; so do a sender's node
after its forwarded action was carried out.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from sqlalchemy.orm import Session

from gammon.messages import Message
from gammon.server.leases import FenceCheck
from gammon.server.nodes import Request
from gammon.server.store import Store
from gammon.server.tournaments.queries import add_tournament_action, load_tournament
from gammon.server.tournaments.state import Applied, Record, Tournament

__all__ = ["ENDED", "TournamentLog"]

#: The statuses of a tournament that is over: it needs no runner any more.
ENDED: Final = frozenset({"finished", "cancelled"})


class TournamentLog:
    """How a runner applies, appends and reads back a tournament's actions."""

    name = "tournament"

    def __init__(self, store: Store) -> None:
        self.store = store

    def ended(self, state: Tournament) -> bool:
        return state.status in ENDED

    def apply(self, state: Tournament, request: Request, at: float) -> Applied:
        return state.apply(
            request.action, actor_id=request.actor_id, operator=request.operator, at=at
        )

    async def append(self, state: Tournament, applied: Applied, fence: FenceCheck | None) -> None:
        def append(session: Session) -> None:
            if fence is not None:
                fence(session)
            add_tournament_action(session, state, applied)

        # Committed even if the action's sender stops waiting.
        await asyncio.shield(self.store.write(append))

    async def load(self, number: int, at: float | None) -> Tournament | None:
        # Its deadlines are times of day: nothing runs again from ``at``.
        return await self.store.run(lambda session: load_tournament(session, number))

    def record(self, applied: Applied) -> dict[str, Any]:
        return {"seq": applied.seq}

    def from_record(self, record: dict[str, Any]) -> Applied:
        # The sender reads the log again (follow): the seq is all it needs of the answer.
        return Applied(int(record["seq"]), Record({}, None, False, 0.0), [])

    def follow(self, state: Tournament, record: dict[str, Any]) -> None:
        return None  # replicas read the log again

    async def missed(self, state: Tournament) -> None:
        return None

    async def logged(self, number: int, request_id: str) -> None:
        # A tournament's log keeps no request ids: the runner remembers its answers
        # (gammon.server.nodes.REMEMBER_S), and a new runner's state machine refuses what
        # was done already.
        return None

    def moved(self, number: int) -> Message:
        return Message(
            "tournament {tournament} moved to another server: act again", tournament=number
        )
