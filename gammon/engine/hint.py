"""Hints: the legal plays ranked with their equities, and the cube action (R15).

>>> from gammon.position import Position
>>> hints = play_hints(Position.initial(), (3, 1))
>>> str(hints[0].play), hints[0].loss
('8/5 6/5', 0.0)
>>> all(h.loss >= 0 for h in hints)
True

For money, plays are ranked by cubeless equity (as GNU Backgammon's play hints
are before its cubeful refinements); at a match score, by match winning chance
with the cube and score of the moment (:func:`match_ranking`). The cube hint is
:func:`gammon.engine.cubeful.analyse_cube`'s decision, for money or the match score.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gammon.engine.cube import CubeDecision, CubeState, double_refusal
from gammon.engine.cubeful import analyse_cube
from gammon.engine.evaluator import MOVE_FILTERS, Evaluation, Search, default_evaluator
from gammon.errors import IllegalActionError
from gammon.play import Play, packed_boards
from gammon.position import Dice, Position, validate_dice

__all__ = ["CubeHint", "PlayHint", "cube_hint", "match_ranking", "play_hints"]


@dataclass(frozen=True)
class PlayHint:
    """One candidate play with its evaluation and its cost against the best."""

    play: Play
    evaluation: Evaluation
    #: Cubeless money equity of the play for the mover; at a match score, the
    #: cubeful normalised equity (EMG) of the match winning chance ``mwc``.
    equity: float
    #: How much equity the play gives up against the best one (0 for the best).
    loss: float
    #: The search depth behind the figures (candidates pruned early keep 0-ply figures).
    ply: int
    #: Match winning chance after the play (match play only; None for money).
    mwc: float | None = None

    def __str__(self) -> str:
        e = self.evaluation
        mwc = "" if self.mwc is None else f"MWC {self.mwc:.1%}  "
        return (
            f"{self.play!s:<28} {self.equity:+.3f} ({-self.loss:+.3f})  {mwc}"
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
    evaluator: Search | None = None,
    state: CubeState | None = None,
) -> list[PlayHint]:
    """Every legal play, best first, each with its equity and loss.

    Money play (``state`` None or without a score) ranks by cubeless equity.
    At a match score plays rank by match winning chance: :func:`match_ranking`.
    """
    evaluator = evaluator or default_evaluator()
    if state is not None and state.score is not None:
        return match_ranking(position, dice, state, ply=ply, evaluator=evaluator)
    ranked = evaluator.rank_plays_searched(position, dice, ply)
    best = ranked[0][1].equity
    return [
        PlayHint(play, evaluation, evaluation.equity, best - evaluation.equity, searched)
        for play, evaluation, searched in ranked
    ]


def match_ranking(
    position: Position,
    dice: Dice,
    state: CubeState,
    *,
    ply: int = 0,
    evaluator: Search | None = None,
) -> list[PlayHint]:
    """The legal plays ranked by match winning chance at ``state``'s score and cube.

    Each play is worth what the analysis says the position after it is worth to
    the mover (:func:`~gammon.engine.analysis.judge.value_after`: the
    opponent on roll with the cube as it stands, free to double, the mover
    answering best), on the match equity table, so gammons count as much as
    the score makes them worth (nothing in the Crawford game for the trailer's
    opponent... and nothing at all at 1-away/1-away). The search follows the
    evaluator's move filters (the best 8 within 0.16 searched 1-ply, the best 2
    within 0.04 2-ply), with the figures in normalised equity (EMG) so the
    margins mean what they mean for money. ``equity`` and ``loss`` are EMG;
    ``mwc`` the match winning chance.
    """
    from gammon.engine.analysis.judge import Frame, value_after

    if state.score is None:
        raise ValueError("match_ranking needs a match score; money plays use play_hints")
    evaluator = evaluator or default_evaluator()
    frame = Frame(state, state.value)
    plays = position.plays(validate_dice(dice))
    boards = np.frombuffer(packed_boards(plays), dtype=np.int8).reshape(-1, len(position.raw))
    values = evaluator.after_play(boards, 0)
    depth = np.zeros(len(plays), dtype=np.int64)

    def mwc(i: int) -> float:
        return value_after(Evaluation.from_array(values[i]), plays[i].position, frame)

    native = np.array([mwc(i) for i in range(len(plays))])
    alive = np.arange(len(plays))
    for stage in range(1, ply + 1):
        if alive.size <= 1:
            break
        keep, margin = MOVE_FILTERS[min(stage, len(MOVE_FILTERS)) - 1]
        normalised = np.array([frame.equity(v) for v in native[alive]])
        kept = np.argsort(-normalised, kind="stable")[:keep]
        alive = alive[kept[normalised[kept] >= normalised[kept[0]] - margin]]
        values[alive] = evaluator.after_play(boards[alive], stage)
        depth[alive] = stage
        for i in alive:
            native[i] = mwc(int(i))
    order = np.lexsort((-native, -depth))
    best = frame.equity(float(native[order[0]]))
    hints = []
    for i in order:
        emg = frame.equity(float(native[i]))
        evaluation = Evaluation.from_array(values[i])
        hints.append(
            PlayHint(plays[i], evaluation, emg, best - emg, int(depth[i]), float(native[i]))
        )
    return hints


def cube_hint(
    position: Position,
    state: CubeState,
    *,
    ply: int = 0,
    evaluator: Search | None = None,
) -> CubeHint:
    """Whether the player on roll should double, and whether the opponent should take.

    The decision is :func:`~gammon.engine.cubeful.analyse_cube`'s at ``ply``
    (0-2): the same function the bot and the analysis use.
    """
    reason = double_refusal(state)
    if reason is not None:
        raise IllegalActionError(f"no cube decision: {reason}")
    found = analyse_cube(position, state, ply=ply, evaluator=evaluator or default_evaluator())
    assert found.decision is not None
    return CubeHint(found.chances, found.decision, found.efficiency, ply)
