"""Positions and dice as people write them: a GNU Position ID (``Position ID:`` prefix
allowed, and a Match ID after a colon), an XGID or ``start``; dice ``31``, ``3-1``,
``3,1`` or ``3 1``. The command line and the server's analysis board read them here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gammon.errors import InvalidDiceError, PositionIdError
from gammon.match_id import MatchIdFields, decode_match_id
from gammon.messages import Message
from gammon.position import Dice, Position, validate_dice
from gammon.variants import Variant, find_variant
from gammon.xgid import parse_xgid

__all__ = [
    "ID_PREFIX",
    "GivenPosition",
    "id_or_none",
    "parse_dice",
    "read_given",
    "read_position",
]

ID_PREFIX = re.compile(r"^\s*(?:GNU\s+Backgammon\s+)?Position\s+ID\s*:\s*", re.IGNORECASE)
_MATCH_PREFIX = re.compile(r"^\s*Match\s+ID\s*:\s*", re.IGNORECASE)
_DICE = re.compile(r"\s*(\d)\s*[-,/ ]?\s*(\d)\s*")
_START_WORDS = ("start", "initial")


def parse_dice(text: str) -> Dice:
    """Read a roll written ``31``, ``3-1``, ``3,1`` or ``3 1``.

    >>> parse_dice("3-1"), parse_dice(" 6 6 ")
    ((3, 1), (6, 6))
    >>> parse_dice("71")
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidDiceError: each die must be a number from 1 to 6, got 7
    """
    found = _DICE.fullmatch(text)
    if found is None:
        raise InvalidDiceError(
            Message(
                "dice must be two numbers from 1 to 6 written 31, 3-1, 3,1 or '3 1', got {text}",
                text=repr(text),
            )
        )
    return validate_dice((int(found.group(1)), int(found.group(2))))


@dataclass(frozen=True)
class GivenPosition:
    """A position as given on the command line, with whatever game state came with it."""

    position: Position
    match: MatchIdFields | None = None
    dice: Dice | None = None
    cube: int = 1
    cube_owner: int | None = None
    score: tuple[int, int] | None = None
    match_length: int | None = None


def read_position(text: str, variant: str | Variant = "standard") -> Position:
    """Read a Position ID (``Position ID:`` prefix allowed), an XGID, or ``start``.

    >>> read_position("Position ID: 4HPwATDgc/ABMA") == Position.initial()
    True
    >>> read_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10").pips()
    (167, 167)
    """
    return read_given(text, find_variant(variant)).position


def read_given(text: str, variant: Variant) -> GivenPosition:
    """A position with the dice, cube and score its Match ID or XGID carries."""
    text = ID_PREFIX.sub("", text).strip()
    if not text:
        raise PositionIdError(
            Message("no position given: expected a Position ID, an XGID or 'start'")
        )
    if text.lower() in _START_WORDS:
        return GivenPosition(Position.initial(variant))
    if text[:5].upper() == "XGID=" or text.count(":") >= 9:
        return _read_xgid(text, variant)
    match: MatchIdFields | None = None
    if ":" in text:
        text, match_text = text.split(":", 1)
        match = decode_match_id(_MATCH_PREFIX.sub("", match_text))
    position = Position.from_id(text, checkers=variant.checkers)
    if match is None:
        return GivenPosition(position)
    return GivenPosition(position, match=match, dice=match.dice if match.dice != (0, 0) else None)


def _read_xgid(text: str, variant: Variant) -> GivenPosition:
    xgid = parse_xgid(text)
    mine, theirs = xgid.board
    return GivenPosition(
        Position(mine, theirs, checkers=variant.checkers),
        dice=xgid.dice if xgid.dice != (0, 0) else None,
        cube=xgid.cube_value,
        cube_owner=xgid.cube_owner,
        score=xgid.score,
        match_length=xgid.match_length,
    )


def id_or_none(position: Position) -> str | None:
    """The Position ID, or None where it cannot say (acey-deucey checkers still to enter)."""
    return None if position.waiting != (0, 0) else position.id
