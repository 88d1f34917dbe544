"""Quick pairing ("Play a person", as lichess's quick pairing): players ask for a match of
a length, and two who fit are seated at a new table together (docs/PROTOCOL.md 7.1).

Who fits: the same match length, and ratings within a window that widens the longer
either has waited (:func:`window`), so a quiet server still pairs its few players while
a busy one pairs close ratings. A seeker who stops asking for news (a closed tab) is
dropped after :data:`STALE_S`. Time comes from the server's TimeSource, so the tests
drive the widening and the dropping with the test clock.

The queue is one node's: on a server of several nodes, seekers meet only those who
asked the same node (docs/DEPLOY.md 9.2 names it).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.messages import Message
from gammon.server.bodies import ANY, fields
from gammon.server.protocol import Refused
from gammon.server.timesource import TimeSource

if TYPE_CHECKING:
    from gammon.server.auth import UserInfo
    from gammon.server.edge import Edge
    from gammon.server.table import Table

__all__ = ["LENGTHS", "STALE_S", "Pairing", "clock_for", "pairing_routes", "window"]


#: The match lengths a player may ask for.
LENGTHS: Final = (1, 3, 5, 7)
#: The rating window at first, how fast it widens, and its widest.
WINDOW_START: Final = 150.0
WINDOW_PER_S: Final = 10.0
WINDOW_MAX: Final = 1000.0
#: A seeker who has not asked for news this long is gone.
STALE_S: Final = 30.0
#: The rating of a player with none yet (FIBS's start, as gammon.server.ratings).
UNRATED: Final = 1500.0


def window(waited_s: float) -> float:
    """How far apart two ratings may be after the longer waiter has waited ``waited_s``.

    >>> window(0), window(30), window(600)
    (150.0, 450.0, 1000.0)
    """
    return min(WINDOW_MAX, WINDOW_START + WINDOW_PER_S * max(0.0, waited_s))


def clock_for(length: int) -> dict[str, int]:
    """A paired match's clock: a minute a point and one more, with a 12 s delay a move
    (Backgammon Galaxy's and GammonSite's common "delay" clocks)."""
    return {"base_s": 60 * (length + 1), "delay_s": 12, "increment_s": 0}


@dataclass
class _Seek:
    user_id: int
    name: str
    length: int
    rating: float
    since: float
    last_seen: float
    #: Being seated (a table is being made for the pair): no longer anybody's to pair.
    taken: bool = False
    table: int | None = None


#: Makes the table of a pair: (settings JSON, the two seekers in seat order) -> the table.
CreatePair = Callable[[dict[str, Any], "list[_Seek]"], Awaitable["Table"]]


class Pairing:
    """The seekers of one node and the tables they were given."""

    def __init__(
        self,
        create: CreatePair,
        rating_of: Callable[[int], float | None],
        draw: Callable[[int], int],
        time: TimeSource,
    ) -> None:
        self.create = create
        self.rating_of = rating_of
        #: A fair coin for the seats (the server's chance source, seeded in tests).
        self.draw = draw
        self.time = time
        self.seeks: dict[int, _Seek] = {}

    async def seek(self, user: UserInfo, length: object) -> dict[str, Any]:
        """Ask for a match of ``length`` points (again: the same seek, refreshed)."""
        if not isinstance(length, int) or isinstance(length, bool) or length not in LENGTHS:
            raise Refused(
                "bad_request",
                Message(
                    "a quick match is {lengths} points long",
                    lengths=", ".join(map(str, LENGTHS)),
                ),
                field="length",
            )
        now = self.time.monotonic()
        mine = self.seeks.get(user.id)
        if mine is not None and mine.taken and mine.table is None:
            return self._status(mine)  # being seated this moment
        if mine is None or mine.table is not None or mine.length != length:
            rating = self.rating_of(user.id)
            mine = _Seek(user.id, user.name, length, rating or UNRATED, now, now)
            self.seeks[user.id] = mine
        mine.last_seen = now
        await self._match(mine)
        return self._status(mine)

    async def poll(self, user_id: int) -> dict[str, Any] | None:
        """A seeker's news (asking keeps the seek alive), or None when they seek nothing."""
        mine = self.seeks.get(user_id)
        if mine is None:
            return None
        mine.last_seen = self.time.monotonic()
        if not mine.taken:
            await self._match(mine)
        return self._status(mine) if user_id in self.seeks else None

    def cancel(self, user_id: int) -> None:
        mine = self.seeks.get(user_id)
        if mine is not None and not mine.taken:
            del self.seeks[user_id]

    def _status(self, mine: _Seek) -> dict[str, Any]:
        now = self.time.monotonic()
        others = sum(1 for s in self.seeks.values() if not s.taken and s is not mine)
        return {
            "state": "paired" if mine.table is not None else "waiting",
            "length": mine.length,
            "waited_s": round(now - mine.since, 1),
            "window": window(now - mine.since),
            "rating": round(mine.rating),
            "seeking": others,
            "table": mine.table,
        }

    def _drop_stale(self, now: float) -> None:
        for user_id, s in list(self.seeks.items()):
            if now - s.last_seen > STALE_S and (s.table is not None or not s.taken):
                del self.seeks[user_id]

    async def _match(self, mine: _Seek) -> None:
        """Seat ``mine`` with the closest fitting seeker, if there is one."""
        now = self.time.monotonic()
        self._drop_stale(now)
        if mine.user_id not in self.seeks:
            return
        fits = [
            other
            for other in self.seeks.values()
            if other is not mine
            and not other.taken
            and other.length == mine.length
            and abs(other.rating - mine.rating) <= window(now - min(other.since, mine.since))
        ]
        if not fits:
            return
        other = min(fits, key=lambda s: (abs(s.rating - mine.rating), s.since))
        pair = [mine, other] if self.draw(2) == 0 else [other, mine]
        settings = {
            "mode": "match",
            "length": mine.length,
            "clock": clock_for(mine.length),
            "rated": True,
        }
        mine.taken = other.taken = True
        try:
            table = await self.create(settings, pair)
        except BaseException:
            mine.taken = other.taken = False
            raise
        mine.table = other.table = table.id


def pairing_routes(edge: Edge, pairing: Pairing) -> list[Route]:
    """``POST /api/pairing`` (seek), ``GET /api/pairing`` (news), ``POST
    /api/pairing/cancel``, each wrapped in the edge's ``handler``."""
    handler, body, current_user = edge.handler, edge.body, edge.current_user

    async def who(request: Request) -> UserInfo:
        user = await current_user(request)
        if user is None:
            raise Refused("not_signed_in", Message("sign in (or play as a guest) to play a person"))
        return user

    async def seek_or_news(request: Request) -> Response:
        user = await who(request)
        if request.method == "GET":
            return JSONResponse({"pairing": await pairing.poll(user.id)})
        data = fields(await body(request), {"length": ANY})  # the length: its own words
        return JSONResponse({"pairing": await pairing.seek(user, data.get("length"))})

    async def cancel(request: Request) -> Response:
        user = await who(request)
        fields(await body(request), {})  # the request takes no fields
        pairing.cancel(user.id)
        return JSONResponse({"pairing": None})

    return [
        Route("/api/pairing", handler(seek_or_news), methods=["GET", "POST"]),
        Route("/api/pairing/cancel", handler(cancel), methods=["POST"]),
    ]
