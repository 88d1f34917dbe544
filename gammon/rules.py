"""The rules a game is played under, and the settings of a whole series of games.

:class:`GameRules` is what one game needs to know (variant, cube, gammons, the
Crawford game, money options); :class:`SeriesRules` is what players agree on
before they sit down (match length or money, and every option), and builds the
match or session (:meth:`SeriesRules.new_series`, in :mod:`gammon.match`).
Bad settings raise :class:`~gammon.errors.InvalidRulesError` naming the setting.

>>> GameRules("tavla").cube_in_play
False
>>> GameRules("nack", beavers=True, max_cube=16)
GameRules('nackgammon', max_cube=16, beavers=True)
>>> GameRules(beavers=True, match_length=7)
Traceback (most recent call last):
...
gammon.errors.InvalidRulesError: beavers are for money play only, not a 7-point match
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Final

from gammon.errors import InvalidRulesError
from gammon.i18n import N_
from gammon.messages import Message
from gammon.variants import Variant, find_variant

__all__ = [
    "MAX_CUBE_LIMIT",
    "MAX_MATCH_LENGTH",
    "GameRules",
    "check_money_options",
    "cube_refusal",
    "cube_refusal_message",
    "cube_unavailable",
    "cube_unavailable_message",
    "is_whole",
]

#: The largest cube a GNU Backgammon Match ID can hold.
MAX_CUBE_LIMIT: Final = 1 << 15
#: The longest match a GNU Backgammon Match ID can hold.
MAX_MATCH_LENGTH: Final = (1 << 15) - 1


def is_whole(value: object) -> bool:
    """An int that is not a bool (JSON's true is not a number of points)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_cube_limit(max_cube: object) -> int:
    if not is_whole(max_cube) or not (
        1 <= max_cube <= MAX_CUBE_LIMIT  # type: ignore[operator]
        and max_cube & (max_cube - 1) == 0  # type: ignore[operator]
    ):
        raise InvalidRulesError(
            "max_cube",
            Message(
                "the highest cube must be a power of two from 1 to {limit}, got {value}",
                limit=MAX_CUBE_LIMIT,
                value=repr(max_cube),
            ),
        )
    return max_cube  # type: ignore[return-value]


def check_money_options(length: int, jacoby: bool, beavers: bool, auto_doubles: int) -> None:
    """The Jacoby rule, beavers and automatic doubles belong to money play (R3, R11, R12)."""
    if not is_whole(auto_doubles) or auto_doubles < 0:
        raise InvalidRulesError(
            "auto_doubles",
            Message(
                "automatic doubles must be a count of 0 or more, got {value}",
                value=repr(auto_doubles),
            ),
        )
    if length:
        for setting, message, on in (
            (
                "jacoby",
                N_("the Jacoby rule is for money play only, not a {length}-point match"),
                jacoby,
            ),
            ("beavers", N_("beavers are for money play only, not a {length}-point match"), beavers),
            (
                "auto_doubles",
                N_("automatic doubles are for money play only, not a {length}-point match"),
                auto_doubles,
            ),
        ):
            if on:
                raise InvalidRulesError(setting, Message(message, length=length))


@dataclass(frozen=True, init=False, repr=False)
class GameRules:
    """The rules one game is played under.

    ``variant`` may be given by name. ``auto_doubles`` is how many times a tie
    on the opening roll may double the centred cube (R3; 0 = off). ``crawford``
    marks the Crawford game of a match (no cube, R12); ``match_length`` is 0 for
    money play and otherwise only feeds the Match ID. Jacoby, beavers and
    automatic doubles are money-play options (R3, R11, R12).
    """

    variant: Variant
    cube: bool
    max_cube: int
    jacoby: bool
    beavers: bool
    auto_doubles: int
    gammons: bool
    crawford: bool
    match_length: int

    def __init__(
        self,
        variant: str | Variant = "standard",
        *,
        cube: bool = True,
        max_cube: int = 64,
        jacoby: bool = False,
        beavers: bool = False,
        auto_doubles: int = 0,
        gammons: bool = True,
        crawford: bool = False,
        match_length: int = 0,
    ) -> None:
        check_cube_limit(max_cube)
        if not is_whole(match_length) or not 0 <= match_length <= MAX_MATCH_LENGTH:
            raise InvalidRulesError(
                "length",
                Message(
                    "the match length must be 0 (money) to {limit} points, got {value}",
                    limit=MAX_MATCH_LENGTH,
                    value=repr(match_length),
                ),
            )
        check_money_options(match_length, jacoby, beavers, auto_doubles)
        if crawford and not match_length:
            raise InvalidRulesError(
                "crawford", Message("a Crawford game exists only in match play")
            )
        for name, value in (
            ("variant", find_variant(variant)),
            ("cube", bool(cube)),
            ("max_cube", max_cube),
            ("jacoby", bool(jacoby)),
            ("beavers", bool(beavers)),
            ("auto_doubles", auto_doubles),
            ("gammons", bool(gammons)),
            ("crawford", bool(crawford)),
            ("match_length", match_length),
        ):
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        """Only what differs from the defaults: ``GameRules('tavla', gammons=False)``."""
        parts = [repr(self.variant.name)]
        for name in _RULE_OPTIONS:
            value = getattr(self, name)
            if value != getattr(_DEFAULT_RULES, name):
                parts.append(f"{name}={value!r}")
        return f"GameRules({', '.join(parts)})"

    @property
    def cube_in_play(self) -> bool:
        """Whether the doubling cube may be turned at all in this game (R10, R12, R14)."""
        return self.cube and self.variant.cube and not self.crawford and self.max_cube > 1


_DEFAULT_RULES: Final = GameRules()
_RULE_OPTIONS: Final = tuple(f.name for f in fields(GameRules) if f.name != "variant")


def cube_unavailable(*, available: bool, crawford: bool) -> str | None:
    """Why nobody may turn the cube in this game at all, or None (R10, R12, R14)."""
    why = cube_unavailable_message(available=available, crawford=crawford)
    return None if why is None else why.english


def cube_unavailable_message(*, available: bool, crawford: bool) -> Message | None:
    """:func:`cube_unavailable` as a message of the catalogs, to be written in any language."""
    if crawford:
        return Message("there is no doubling in the Crawford game")
    if not available:
        return Message("the doubling cube is not used in this game")
    return None


def cube_refusal(
    *, available: bool, crawford: bool, opponent_owns: bool, value: int, max_cube: int
) -> str | None:
    """Why the player on roll may not turn the cube, or None if they may (R10, R12, R14).

    The one statement of the cube's own rules, used by the game (which adds
    whose turn it is) and by the engine's cube decisions.

    >>> cube_refusal(available=True, crawford=False, opponent_owns=True, value=2, max_cube=64)
    'the opponent owns the cube'
    """
    why = cube_refusal_message(
        available=available,
        crawford=crawford,
        opponent_owns=opponent_owns,
        value=value,
        max_cube=max_cube,
    )
    return None if why is None else why.english


def cube_refusal_message(
    *, available: bool, crawford: bool, opponent_owns: bool, value: int, max_cube: int
) -> Message | None:
    """:func:`cube_refusal` as a message of the catalogs, to be written in any language.

    >>> cube_refusal_message(
    ...     available=True, crawford=False, opponent_owns=True, value=2, max_cube=64
    ... ).translated("fi")
    'vastustaja omistaa tuplauskuution'
    """
    unavailable = cube_unavailable_message(available=available, crawford=crawford)
    if unavailable is not None:
        return unavailable
    if opponent_owns:
        return Message("the opponent owns the cube")
    if 2 * value > max_cube:
        return Message("the cube is already at {value}, the highest it may go", value=value)
    return None
