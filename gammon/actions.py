"""Actions as values: everything a side can do in a game, a session or a match.

A server, a bot or a terminal builds one of these and hands it to
:meth:`gammon.game.Game.apply` (or a series' ``apply``); the rules check it and
either carry it out or raise :class:`~gammon.errors.IllegalActionError`,
changing nothing. ``legal_actions(side)`` lists what a side may do now. Each
action's ``name`` is the word the server's protocol uses for it.

>>> from gammon.game import Game
>>> from gammon.dice import ScriptedDice
>>> game = Game(dice=ScriptedDice([(3, 1)]))
>>> game.apply(Roll(0))
(OpeningRolled(dice=(3, 1)),)
>>> PlayDice(0, "8/5 6/5") in game.legal_actions(0)
True
>>> game.apply(Double(0))
Traceback (most recent call last):
...
gammon.errors.IllegalActionError: side 0 cannot double: the dice are already rolled
>>> action_from_name("resign", 1, value=2)
Resign(side=1, value=2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, TypeAlias

from gammon.errors import IllegalActionError
from gammon.play import Play

__all__ = [
    "ACTION_NAMES",
    "AcceptResignation",
    "Action",
    "Beaver",
    "ChooseDouble",
    "Double",
    "Drop",
    "Forfeit",
    "OutOfTime",
    "PlayDice",
    "RejectResignation",
    "Resign",
    "Roll",
    "Take",
    "action_arguments",
    "action_from_name",
]


@dataclass(frozen=True)
class Roll:
    """Throw the dice: the opening roll (either side, R3) or the roll of one's turn."""

    name: ClassVar[str] = "roll"
    side: int


@dataclass(frozen=True)
class PlayDice:
    """Play the roll: a legal :class:`~gammon.play.Play`, or its notation (``"13/7* 7/5"``)."""

    name: ClassVar[str] = "play"
    side: int
    play: Play | str

    def __eq__(self, other: object) -> bool:
        """Equal when the same side plays the same play, however it was written."""
        if not isinstance(other, PlayDice) or other.side != self.side:
            return False
        if isinstance(self.play, Play) and isinstance(other.play, Play):
            return self.play == other.play
        return str(self.play) == str(other.play)

    def __hash__(self) -> int:
        return hash((self.side, str(self.play)))


@dataclass(frozen=True)
class ChooseDouble:
    """Acey-deucey: after a full 1-2, name the double to play (R14)."""

    name: ClassVar[str] = "choose_double"
    side: int
    number: int


@dataclass(frozen=True)
class Double:
    """Offer the cube at twice its value (R10)."""

    name: ClassVar[str] = "double"
    side: int


@dataclass(frozen=True)
class Take:
    """Take the double offered, or, as the doubler, accept a beaver (R10, R11)."""

    name: ClassVar[str] = "take"
    side: int


@dataclass(frozen=True)
class Drop:
    """Pass (refuse) the double offered, or, as the doubler, refuse a beaver (R9, R11)."""

    name: ClassVar[str] = "drop"
    side: int


@dataclass(frozen=True)
class Beaver:
    """Take the double and redouble at once, keeping the cube (R11)."""

    name: ClassVar[str] = "beaver"
    side: int


@dataclass(frozen=True)
class Resign:
    """Offer to resign a single game (1), a gammon (2) or a backgammon (3) (R9)."""

    name: ClassVar[str] = "resign"
    side: int
    value: int


@dataclass(frozen=True)
class AcceptResignation:
    name: ClassVar[str] = "accept_resignation"
    side: int


@dataclass(frozen=True)
class RejectResignation:
    name: ClassVar[str] = "reject_resignation"
    side: int


@dataclass(frozen=True)
class Forfeit:
    """Leave: lose the game at the cube's value, and in a match the match (R13)."""

    name: ClassVar[str] = "forfeit"
    side: int


@dataclass(frozen=True)
class OutOfTime:
    """The side that must act has used up its clock: it loses as for a forfeit (R13)."""

    name: ClassVar[str] = "timeout"
    side: int


Action: TypeAlias = (
    Roll
    | PlayDice
    | ChooseDouble
    | Double
    | Take
    | Drop
    | Beaver
    | Resign
    | AcceptResignation
    | RejectResignation
    | Forfeit
    | OutOfTime
)
"""Anything a side can do."""

ACTION_NAMES: Final[dict[str, type[Action]]] = {
    cls.name: cls
    for cls in (
        Roll,
        PlayDice,
        ChooseDouble,
        Double,
        Take,
        Drop,
        Beaver,
        Resign,
        AcceptResignation,
        RejectResignation,
        Forfeit,
        OutOfTime,
    )
}
"""Each action class by its ``name``."""

_ARGUMENTS: Final[dict[str, str]] = {"play": "play", "choose_double": "number", "resign": "value"}


def action_from_name(name: str, side: int, **arguments: Any) -> Action:
    """The action called ``name`` (``"roll"``, ``"play"``...) for ``side``.

    ``play`` takes ``play=``, ``choose_double`` ``number=`` and ``resign``
    ``value=``; the others take nothing. Raises :class:`IllegalActionError`
    naming what is unknown or missing.
    """
    cls = ACTION_NAMES.get(name)
    if cls is None:
        known = ", ".join(ACTION_NAMES)
        raise IllegalActionError(f"there is no action {name!r}; the actions are {known}")
    wanted = _ARGUMENTS.get(name)
    given = set(arguments)
    if wanted is None and given:
        raise IllegalActionError(f"{name!r} takes nothing more, got {', '.join(sorted(given))}")
    if wanted is not None and given != {wanted}:
        raise IllegalActionError(f"{name!r} needs {wanted!r} and nothing else")
    return cls(side, **arguments)


def action_arguments(action: Action) -> Mapping[str, Any]:
    """What an action carries besides its side and name (the inverse of :func:`action_from_name`).

    >>> action_arguments(Resign(0, 3))
    {'value': 3}
    """
    wanted = _ARGUMENTS.get(action.name)
    if wanted is None:
        return {}
    value = getattr(action, wanted)
    return {wanted: str(value) if isinstance(value, Play) else value}
