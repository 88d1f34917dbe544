"""The bot: the engine's evaluation turned into a player, at a chosen strength.

>>> from gammon.position import Position
>>> str(Bot().choose_play(Position.initial(), (3, 1)))
'8/5 6/5'

Weaker levels make mistakes the way people do: each candidate's equity gets
random noise before the choice, so close plays are confused often and bad
blunders rarely, rather than playing a random move now and then.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from gammon.engine.evaluator import Evaluator, default_evaluator
from gammon.play import Play
from gammon.position import Dice, Position

__all__ = ["SKILL_LEVELS", "Bot", "SkillLevel"]


@dataclass(frozen=True)
class SkillLevel:
    """How a level plays: its search depth and the noise on each play's equity."""

    name: str
    ply: int
    noise: float
    description: str


SKILL_LEVELS: dict[str, SkillLevel] = {
    level.name: level
    for level in (
        SkillLevel("beginner", 0, 0.30, "often misjudges, like someone learning the game"),
        SkillLevel("casual", 0, 0.12, "plays sensibly with regular slips"),
        SkillLevel("intermediate", 0, 0.05, "a solid club player"),
        SkillLevel("advanced", 0, 0.015, "rarely errs"),
        SkillLevel("expert", 0, 0.0, "the network's own choice"),
        SkillLevel("world-class", 1, 0.0, "looks one roll ahead"),
        SkillLevel("grandmaster", 2, 0.0, "looks two rolls ahead (slow)"),
    )
}


class Bot:
    """A player backed by the engine; ``level`` names a :data:`SKILL_LEVELS` entry."""

    def __init__(
        self,
        level: str = "expert",
        *,
        ply: int | None = None,
        seed: int | None = None,
        evaluator: Evaluator | None = None,
    ) -> None:
        if level not in SKILL_LEVELS:
            known = ", ".join(SKILL_LEVELS)
            raise ValueError(f"unknown skill level {level!r}; known levels: {known}")
        self.level = SKILL_LEVELS[level]
        self.ply = self.level.ply if ply is None else ply
        self.evaluator = evaluator or default_evaluator()
        self.rng = random.Random(seed)
        self.name = f"gammon-{level}" if ply is None else f"gammon-{ply}ply"

    def choose_play(self, position: Position, dice: Dice) -> Play:
        """The bot's play: the best by its search, blurred by its level's noise."""
        if self.level.noise == 0.0:
            return self.evaluator.best_play(position, dice, self.ply)
        ranked = self.evaluator.rank_plays(position, dice, self.ply)
        scores = np.array([evaluation.equity for _, evaluation in ranked])
        noise = np.array([self.rng.gauss(0.0, self.level.noise) for _ in ranked])
        return ranked[int(np.argmax(scores + noise))][0]
