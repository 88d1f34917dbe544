"""gammon: backgammon rules, engine and play server.

The rules library is flat: import what you need from here.

>>> from gammon import Position
>>> Position.initial().pips()
(167, 167)
"""

from __future__ import annotations

from gammon import actions, events
from gammon.clock import Clock
from gammon.dice import ALL_ROLLS, Dice, DiceSource, RandomDice, ScriptedDice, validate_dice
from gammon.errors import (
    GammonError,
    IllegalActionError,
    IllegalPlayError,
    InvalidClockError,
    InvalidCubeStateError,
    InvalidDiceError,
    InvalidIdError,
    InvalidPlayError,
    InvalidPositionError,
    InvalidRulesError,
    MatchIdError,
    PositionIdError,
    UnknownVariantError,
    XgidError,
)
from gammon.events import GameResult
from gammon.game import Game, Phase
from gammon.match import Match, SeriesRules, Session
from gammon.play import Move, Play
from gammon.position import Position
from gammon.rules import GameRules
from gammon.variants import VARIANTS, Variant, find_variant

__all__ = [
    "ALL_ROLLS",
    "VARIANTS",
    "Clock",
    "Dice",
    "DiceSource",
    "Game",
    "GameResult",
    "GameRules",
    "Match",
    "Phase",
    "RandomDice",
    "ScriptedDice",
    "SeriesRules",
    "Session",
    "GammonError",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidIdError",
    "InvalidPlayError",
    "InvalidPositionError",
    "InvalidClockError",
    "InvalidCubeStateError",
    "InvalidRulesError",
    "MatchIdError",
    "Move",
    "Play",
    "Position",
    "PositionIdError",
    "UnknownVariantError",
    "Variant",
    "XgidError",
    "actions",
    "events",
    "find_variant",
    "validate_dice",
]

__version__ = "0.1.0"
