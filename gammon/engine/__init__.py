"""The bot: evaluation, search, cube decisions, hints and players.

The engine builds on the rules library (:mod:`gammon.position`,
:mod:`gammon.game`) and nothing in the rules library imports it.

>>> from gammon import Position
>>> from gammon.engine import best_play, evaluate
>>> str(best_play(Position.initial(), (3, 1)))
'8/5 6/5'
>>> 0.4 < evaluate(Position.initial()).win < 0.6
True
>>> from gammon.engine import PubevalPlayer
>>> str(PubevalPlayer().choose_play(Position.initial(), (4, 2)))
'8/4 6/4'
"""

from __future__ import annotations

from gammon.engine.bot import SKILL_LEVELS, Bot, SkillLevel
from gammon.engine.cube import (
    CubeDecision,
    CubeOwner,
    CubeState,
    DoublerVerdict,
    TakerVerdict,
    cube_decision,
    cubeful_equity,
)
from gammon.engine.evaluator import Evaluation, Evaluator, best_play, evaluate, rank_plays
from gammon.engine.hint import CubeHint, PlayHint, cube_hint, play_hints
from gammon.engine.met import MatchScore, match_equity
from gammon.engine.player import Player, RandomPlayer
from gammon.engine.pubeval import PubevalPlayer, pubeval
from gammon.engine.rollout import RolloutResult, rollout
from gammon.engine.selfplay import GameResult, play_game

__all__ = [
    "SKILL_LEVELS",
    "Bot",
    "CubeDecision",
    "CubeHint",
    "CubeOwner",
    "CubeState",
    "DoublerVerdict",
    "Evaluation",
    "Evaluator",
    "GameResult",
    "MatchScore",
    "Player",
    "PlayHint",
    "PubevalPlayer",
    "RandomPlayer",
    "RolloutResult",
    "SkillLevel",
    "TakerVerdict",
    "best_play",
    "cube_decision",
    "cube_hint",
    "cubeful_equity",
    "evaluate",
    "match_equity",
    "play_game",
    "play_hints",
    "pubeval",
    "rank_plays",
    "rollout",
]
