"""gammon: backgammon rules, engine and play server.

The rules library is flat: import what you need from here.

>>> from gammon import Position
>>> Position.initial().pips()
(167, 167)
"""

from __future__ import annotations

from gammon.errors import (
    GammonError,
    IllegalActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidIdError,
    InvalidPlayError,
    InvalidPositionError,
    MatchIdError,
    PositionIdError,
    UnknownVariantError,
    XgidError,
)
from gammon.play import Move, Play
from gammon.position import ALL_ROLLS, Dice, Position, validate_dice
from gammon.variants import VARIANTS, Variant, find_variant

__all__ = [
    "ALL_ROLLS",
    "VARIANTS",
    "Dice",
    "GammonError",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidIdError",
    "InvalidPlayError",
    "InvalidPositionError",
    "MatchIdError",
    "Move",
    "Play",
    "Position",
    "PositionIdError",
    "UnknownVariantError",
    "Variant",
    "XgidError",
    "find_variant",
    "validate_dice",
]

__version__ = "0.1.0"
