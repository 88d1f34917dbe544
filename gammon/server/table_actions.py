"""What a table is and does besides the rules' game: its own actions, status and result.

The rules library's actions (:mod:`gammon.actions`: a roll, a play, a forfeit...) are
the series' vocabulary. A table adds its own few, as values of the same kind: being
started with its two seats (:class:`Start`), cancelled before that (:class:`Cancel`),
ended when neither player came (:class:`NoShow`), a practice take-back
(:class:`TakeBack`). :class:`~gammon.server.table.Table` takes these values only; the
one place where JSON becomes them and back is :mod:`gammon.server.table_codec`.

>>> Start((Seat(7, "alice"), Seat(None, "gammon-expert", "expert"))).seats[1].bot
'expert'
>>> TableStatus.PLAYING == "playing", TableStatus.FINISHED.ended
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Final, TypeAlias

from gammon.actions import Action

__all__ = [
    "ENDED",
    "Cancel",
    "LastAction",
    "NoShow",
    "Seat",
    "SeriesAction",
    "Start",
    "TableAction",
    "TableResult",
    "TableStatus",
    "TakeBack",
    "Unseated",
]


class TableStatus(StrEnum):
    """Where a table is in its life (the protocol's ``status`` values)."""

    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def ended(self) -> bool:
        """Whether the table is over: nothing is appended to its log any more."""
        return self in ENDED


#: The statuses of a table that is over.
ENDED: Final = frozenset({TableStatus.FINISHED, TableStatus.CANCELLED})


@dataclass(frozen=True)
class Seat:
    """Who sits on a side: a user, or the bot (``user_id`` None, ``bot`` its level)."""

    user_id: int | None
    name: str
    bot: str | None = None


@dataclass(frozen=True)
class TableResult:
    """How a table's series ended: the winning side (None: nobody, as when neither player
    came), why (``"match"``, ``"session"``, the reason of the game that ended it, or
    ``"no_show"``), and the score then."""

    winner: int | None
    reason: str
    score: tuple[int, int]


@dataclass(frozen=True)
class Start:
    """The table starts with these two seats (drawn by the server, R13)."""

    name: ClassVar[str] = "start"
    seats: tuple[Seat, ...]


@dataclass(frozen=True)
class Cancel:
    """The creator (or the server, when nobody came) cancels a table not started."""

    name: ClassVar[str] = "cancel"


@dataclass(frozen=True)
class NoShow:
    """A tournament's match that neither player came to ends without a winner: the
    server's action (no side), never a client's (docs/PROTOCOL.md 1.6)."""

    name: ClassVar[str] = "no_show"


@dataclass(frozen=True)
class TakeBack:
    """A player takes their last play back against the bot, where practice allows it (R15)."""

    name: ClassVar[str] = "take_back"


@dataclass(frozen=True)
class Unseated:
    """An action of the series sent by nobody's side (the creator of a table that has not
    started, or was cancelled): the table refuses it as its status and turn say."""

    name: str


#: What the table itself does, outside the series.
TableAction: TypeAlias = Start | Cancel | NoShow | TakeBack
#: Anything a table may be asked to do.
SeriesAction: TypeAlias = Action | Unseated


@dataclass(frozen=True)
class LastAction:
    """The table's last accepted action, as the clients see it (``last``, docs/PROTOCOL.md
    3): its seq, who sent it, the action (a play as the rules wrote it), the game its events
    belong to (the one it ended, when it ended one) and the log entries it added."""

    seq: int
    side: int | None
    action: TableAction | SeriesAction
    game: int | None
    events: tuple[dict[str, Any], ...]
