"""The bot: players that choose plays, reference opponents and the self-play loop.

The engine builds on the rules library (:mod:`gammon.position`,
:mod:`gammon.play`) and nothing in the rules library imports it.

>>> from gammon import Position
>>> from gammon.engine import PubevalPlayer
>>> str(PubevalPlayer().choose_play(Position.initial(), (4, 2)))
'8/4 6/4'
"""

from __future__ import annotations

from gammon.engine.player import Player, RandomPlayer
from gammon.engine.pubeval import PubevalPlayer, pubeval
from gammon.engine.selfplay import GameResult, play_game

__all__ = [
    "GameResult",
    "Player",
    "PubevalPlayer",
    "RandomPlayer",
    "play_game",
    "pubeval",
]
