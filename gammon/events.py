"""What happened in a game: the events of its history, its result, and their words.

A game's history is a tuple of these values; it rebuilds the game exactly
(:meth:`gammon.game.Game.replay`). :func:`describe` is the one place that puts an
event into words, for the terminal, the server's game log and analysis reports.

>>> describe(Rolled(1, (6, 4)), ("alice", "bob"))
'bob rolls 6-4'
>>> describe(OpeningRolled((3, 3)))
'opening roll: side 0 3, side 1 3 (a tie: both roll again)'
>>> Moved.kind, Ended.kind
('moved', 'ended')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import ClassVar, Final, TypeAlias

from gammon.i18n import N_, Translator, translator
from gammon.play import Move
from gammon.position import Dice

__all__ = [
    "EVENT_KINDS",
    "Beavered",
    "DoubleChosen",
    "Doubled",
    "Dropped",
    "EndReason",
    "Ended",
    "Event",
    "Forfeited",
    "GameResult",
    "Moved",
    "OpeningRolled",
    "PassReason",
    "Passed",
    "ResignationAccepted",
    "ResignationRejected",
    "Resigned",
    "Rolled",
    "Took",
    "WinKind",
    "describe",
]


class WinKind(IntEnum):
    """How big a win is before the cube (R9); its value is the multiplier."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3

    @property
    def words(self) -> str:
        """'a single game', 'a gammon', 'a backgammon'."""
        return _KIND_WORDS[self.value]


_KIND_WORDS: Final = ("", N_("a single game"), N_("a gammon"), N_("a backgammon"))


class EndReason(StrEnum):
    """How a game ended (R9, R11, R13)."""

    BEAR_OFF = "bear-off"
    DROP = "drop"
    RESIGNATION = "resignation"
    BEAVER_REFUSED = "beaver refused"
    FORFEIT = "forfeit"
    """A side left the game (or was removed): it loses as its series' rules say."""
    TIME = "time"
    """A side's clock ran out (R13): it loses as for a forfeit."""


class PassReason(StrEnum):
    """Why a turn was lost without a move (R5, R7)."""

    CLOSED_BOARD = "closed board"
    """On the bar against a closed board: the turn passes without rolling (seeds, R7)."""
    NO_PLAY = "no legal play"
    """The roll cannot be played at all (R5)."""


@dataclass(frozen=True)
class GameResult:
    """Who won a finished game, how many points, and why."""

    winner: int
    points: int
    kind: WinKind
    reason: EndReason

    @property
    def loser(self) -> int:
        return 1 - self.winner

    def __str__(self) -> str:
        plural = "" if self.points == 1 else "s"
        return (
            f"side {self.winner} won {self.points} point{plural} "
            f"({self.kind.name.lower()}, {self.reason})"
        )


@dataclass(frozen=True)
class OpeningRolled:
    """One throw of the opening roll: (die of side 0, die of side 1); ties are thrown again (R3)."""

    kind: ClassVar[str] = "opening"
    dice: Dice

    @property
    def is_tie(self) -> bool:
        return self.dice[0] == self.dice[1]


@dataclass(frozen=True)
class Rolled:
    kind: ClassVar[str] = "rolled"
    side: int
    dice: Dice


@dataclass(frozen=True)
class Moved:
    """A play: ``play`` in standard notation, ``moves`` one per die used."""

    kind: ClassVar[str] = "moved"
    side: int
    dice: Dice
    play: str
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class Passed:
    """A turn lost without a move (R5, R7)."""

    kind: ClassVar[str] = "passed"
    side: int
    reason: PassReason


@dataclass(frozen=True)
class Doubled:
    """``side`` offers the cube at ``value``, twice its value before (R10)."""

    kind: ClassVar[str] = "doubled"
    side: int
    value: int


@dataclass(frozen=True)
class Beavered:
    """``side`` takes and redoubles at once to ``value``, keeping the cube (R11)."""

    kind: ClassVar[str] = "beavered"
    side: int
    value: int


@dataclass(frozen=True)
class Took:
    """``side`` takes a double, or (the original doubler) accepts a beaver."""

    kind: ClassVar[str] = "took"
    side: int


@dataclass(frozen=True)
class Dropped:
    """``side`` drops a double, or (the original doubler) refuses a beaver."""

    kind: ClassVar[str] = "dropped"
    side: int


@dataclass(frozen=True)
class Resigned:
    """``side`` offers to resign a single (1), gammon (2) or backgammon (3)."""

    kind: ClassVar[str] = "resigned"
    side: int
    value: int


@dataclass(frozen=True)
class ResignationAccepted:
    kind: ClassVar[str] = "resignation_accepted"
    side: int


@dataclass(frozen=True)
class ResignationRejected:
    kind: ClassVar[str] = "resignation_rejected"
    side: int


@dataclass(frozen=True)
class DoubleChosen:
    """Acey-deucey: ``side`` names the double it plays after a 1-2 (R14)."""

    kind: ClassVar[str] = "double_chosen"
    side: int
    number: int


@dataclass(frozen=True)
class Forfeited:
    """``side`` left (or its clock ran out, ``on_time``) and gives up ``points`` (R13)."""

    kind: ClassVar[str] = "forfeited"
    side: int
    on_time: bool
    points: int


@dataclass(frozen=True)
class Ended:
    """The last event of a finished game."""

    kind: ClassVar[str] = "ended"
    result: GameResult


Event: TypeAlias = (
    OpeningRolled
    | Rolled
    | Moved
    | Passed
    | Doubled
    | Beavered
    | Took
    | Dropped
    | Resigned
    | ResignationAccepted
    | ResignationRejected
    | DoubleChosen
    | Forfeited
    | Ended
)
"""One entry of a game's history."""

EVENT_KINDS: Final[dict[str, type[Event]]] = {
    cls.kind: cls
    for cls in (
        OpeningRolled,
        Rolled,
        Moved,
        Passed,
        Doubled,
        Beavered,
        Took,
        Dropped,
        Resigned,
        ResignationAccepted,
        ResignationRejected,
        DoubleChosen,
        Forfeited,
        Ended,
    )
}
"""Each event class by its ``kind``, the name the server's protocol and records use."""

_REASON_WORDS: Final = {
    EndReason.BEAR_OFF: N_("by bearing off"),
    EndReason.DROP: N_("by a dropped double"),
    EndReason.RESIGNATION: N_("by resignation"),
    EndReason.BEAVER_REFUSED: N_("by a refused beaver"),
}


def describe(event: Event, names: Sequence[str] | None = None, lang: str = "en") -> str:
    """One event in plain words in the language ``lang`` (:mod:`gammon.i18n`); ``names``
    are the players by side (``side 0``, ``side 1`` when not given).

    >>> describe(Resigned(0, 2), ("alice", "bob"))
    'alice offers to resign a gammon'
    >>> describe(Ended(GameResult(1, 4, WinKind.GAMMON, EndReason.BEAR_OFF)), ("alice", "bob"))
    'bob wins 4 points (a gammon, by bearing off)'
    >>> describe(Rolled(1, (6, 4)), ("alice", "bob"), lang="sv")
    'bob kastar 6-4'
    """
    t = translator(lang)
    if names is None:
        names = tuple(t.gettext("side {side}", side=side) for side in (0, 1))
    for words in (_play_words, _cube_words, _ending_words):
        text = words(event, names, t)
        if text is not None:
            return text
    raise TypeError(f"not a game event: {event!r}")  # pragma: no cover


def _play_words(event: Event, names: Sequence[str], t: Translator) -> str | None:
    """The opening roll, a roll, a play, a lost turn or a chosen double (acey-deucey) in
    words; None for other events."""
    match event:
        case OpeningRolled(dice=(die0, die1)) if die0 == die1:
            return t.gettext(
                "opening roll: {player0} {die0}, {player1} {die1} (a tie: both roll again)",
                player0=names[0], die0=die0, player1=names[1], die1=die1,
            )  # fmt: skip
        case OpeningRolled(dice=(die0, die1)):
            return t.gettext(
                "opening roll: {player0} {die0}, {player1} {die1}",
                player0=names[0], die0=die0, player1=names[1], die1=die1,
            )  # fmt: skip
        case Rolled(side=side, dice=(die1, die2)):
            return t.gettext(
                "{player} rolls {die1}-{die2}", player=names[side], die1=die1, die2=die2
            )
        case Moved(side=side, play=play):
            return t.gettext("{player} plays {play}", player=names[side], play=play)
        case Passed(side=side, reason=PassReason.CLOSED_BOARD):
            return t.gettext(
                "{player} cannot enter against a closed board and loses the turn",
                player=names[side],
            )
        case Passed(side=side):
            return t.gettext("{player} has no legal play and loses the turn", player=names[side])
        case DoubleChosen(side=side, number=number):
            return t.gettext(
                "{player} chooses {number}-{number}", player=names[side], number=number
            )
        case _:
            return None


def _cube_words(event: Event, names: Sequence[str], t: Translator) -> str | None:
    """The cube's actions and the resignations in words; None for other events."""
    match event:
        case Doubled(side=side, value=value):
            return t.gettext("{player} doubles to {value}", player=names[side], value=value)
        case Beavered(side=side, value=value):
            return t.gettext("{player} beavers to {value}", player=names[side], value=value)
        case Took(side=side):
            return t.gettext("{player} takes", player=names[side])
        case Dropped(side=side):
            return t.gettext("{player} drops", player=names[side])
        case Resigned(side=side, value=value):
            return t.gettext(_RESIGN_OFFERS[value], player=names[side])
        case ResignationAccepted(side=side):
            return t.gettext("{player} accepts the resignation", player=names[side])
        case ResignationRejected(side=side):
            return t.gettext("{player} rejects the resignation", player=names[side])
        case _:
            return None


def _ending_words(event: Event, names: Sequence[str], t: Translator) -> str | None:
    """A forfeit or the end of the game in words; None for other events."""
    match event:
        case Forfeited(side=side, on_time=True):
            return t.gettext("{player} runs out of time", player=names[side])
        case Forfeited(side=side):
            return t.gettext("{player} forfeits", player=names[side])
        case Ended(result=result) if result.reason is EndReason.TIME:
            return t.ngettext(
                "{player} wins {n} point on time", "{player} wins {n} points on time",
                result.points, player=names[result.winner],
            )  # fmt: skip
        case Ended(result=result) if result.reason is EndReason.FORFEIT:
            return t.ngettext(
                "{player} wins {n} point by forfeit", "{player} wins {n} points by forfeit",
                result.points, player=names[result.winner],
            )  # fmt: skip
        case Ended(result=result):
            return t.ngettext(
                "{player} wins {n} point ({kind}, {reason})",
                "{player} wins {n} points ({kind}, {reason})",
                result.points,
                player=names[result.winner],
                kind=t.gettext(_KIND_WORDS[result.kind.value]),
                reason=t.gettext(_REASON_WORDS[result.reason]),
            )
        case _:
            return None


#: The offers to resign by value: each a whole sentence, as languages inflect what is given up.
_RESIGN_OFFERS: Final = (
    "",
    N_("{player} offers to resign a single game"),
    N_("{player} offers to resign a gammon"),
    N_("{player} offers to resign a backgammon"),
)
