"""Hints: the legal plays ranked with their equities, and the cube action (R15).

>>> from gammon.position import Position
>>> hints = play_hints(Position.initial(), (3, 1))
>>> str(hints[0].play), hints[0].loss
('8/5 6/5', 0.0)
>>> all(h.loss >= 0 for h in hints)
True

Plays are ranked by cubeless equity (as GNU Backgammon's play hints are before
its cubeful refinements); the cube hint turns the evaluation into cubeful
equities with :mod:`gammon.engine.cube`, for money or for the match score.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.engine.cube import CubeDecision, CubeState, cube_decision, cube_efficiency
from gammon.engine.evaluator import Evaluation, Evaluator, default_evaluator
from gammon.play import Play
from gammon.position import Dice, Position

__all__ = ["CubeHint", "PlayHint", "cube_hint", "play_hints"]


@dataclass(frozen=True)
class PlayHint:
    """One candidate play with its evaluation and its cost against the best."""

    play: Play
    evaluation: Evaluation
    #: Cubeless money equity of the play for the mover.
    equity: float
    #: How much equity the play gives up against the best one (0 for the best).
    loss: float
    #: The search depth behind the figures (candidates pruned early keep 0-ply figures).
    ply: int

    def __str__(self) -> str:
        e = self.evaluation
        return (
            f"{self.play!s:<28} {self.equity:+.3f} ({-self.loss:+.3f})  "
            f"win {e.win:.1%} g {e.win_gammon:.1%} bg {e.win_backgammon:.1%}  "
            f"lose g {e.lose_gammon:.1%} bg {e.lose_backgammon:.1%}"
        )


@dataclass(frozen=True)
class CubeHint:
    """The cube action for the player on roll, with the evaluation it rests on."""

    evaluation: Evaluation
    decision: CubeDecision
    efficiency: float
    ply: int


def play_hints(
    position: Position,
    dice: Dice,
    *,
    ply: int = 0,
    evaluator: Evaluator | None = None,
) -> list[PlayHint]:
    """Every legal play, best first, each with its equity and loss."""
    evaluator = evaluator or default_evaluator()
    ranked = evaluator.rank_plays_searched(position, dice, ply)
    best = ranked[0][1].equity
    return [
        PlayHint(play, evaluation, evaluation.equity, best - evaluation.equity, searched)
        for play, evaluation, searched in ranked
    ]


def cube_hint(
    position: Position,
    state: CubeState,
    *,
    ply: int = 0,
    evaluator: Evaluator | None = None,
) -> CubeHint:
    """Whether the player on roll should double, and whether the opponent should take."""
    evaluator = evaluator or default_evaluator()
    evaluation = evaluator.evaluate(position, ply)
    efficiency = cube_efficiency(position)
    return CubeHint(evaluation, cube_decision(evaluation, state, efficiency), efficiency, ply)
