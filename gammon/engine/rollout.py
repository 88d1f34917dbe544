"""Rollouts: a position's cubeless chances measured by playing it out many times.

>>> from gammon.position import Position
>>> result = rollout(Position.initial(), trials=72, seed=1)
>>> 0.35 < result.evaluation.win < 0.65, result.trials
(True, 72)

All trials are played in lockstep, so each turn of every trial is one batch
through the network (as in training), and a rollout of hundreds of games takes
seconds.  Two standard ways to make a rollout worth more than its trials:
the first roll is rotated (trial ``i`` starts with roll ``i mod 36``, so each
opening roll is played equally often), and a trial stops once both sides bear
off, scoring the bear-off database's exact-enough chances instead of one game.
Plays are chosen at 0-ply.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from gammon import movegen
from gammon.engine.bearoff import bearoff_probabilities_batch, is_bearoff_batch
from gammon.engine.evaluator import (
    Evaluation,
    Evaluator,
    default_evaluator,
    swap_boards,
    won_outcome,
)
from gammon.engine.network import equity, invert
from gammon.position import Position

__all__ = ["RolloutResult", "rollout"]

_BOARD = 54
_SIDE = 27
# The 36 ordered rolls, for rotating the first roll.
_FIRST_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


@dataclass(frozen=True)
class RolloutResult:
    """The mean outcome of the trials, for the player on roll of the rolled-out position."""

    evaluation: Evaluation
    #: Standard error of the mean cubeless equity.
    equity_error: float
    trials: int

    def __str__(self) -> str:
        e = self.evaluation
        return (
            f"equity {e.equity:+.3f} ± {1.96 * self.equity_error:.3f} (95%), "
            f"win {e.win:.1%}, gammons {e.win_gammon:.1%} / {e.lose_gammon:.1%} "
            f"over {self.trials} trials"
        )


def rollout(
    position: Position,
    *,
    trials: int = 144,
    seed: int = 0,
    evaluator: Evaluator | None = None,
) -> RolloutResult:
    """Play ``trials`` cubeless games from ``position`` (its player on roll to roll)."""
    if trials < 1:
        raise ValueError(f"a rollout needs at least one trial, got {trials}")
    evaluator = evaluator or default_evaluator()
    rng = np.random.default_rng(seed)
    outcomes = np.zeros((trials, 5))
    boards = [position.raw] * trials
    # Whether each trial's player on roll is the rolled-out position's player on roll.
    same_side = np.ones(trials, dtype=np.bool_)
    active = list(range(trials))
    turn = 0
    while active:
        # Stop trials where both sides bear off: the database scores them.
        current = np.frombuffer(b"".join(boards[i] for i in active), dtype=np.int8)
        current = current.reshape(-1, _BOARD)
        done = is_bearoff_batch(current)
        if done.any():
            chances = bearoff_probabilities_batch(current[done])
            for row, index in enumerate(np.flatnonzero(done)):
                trial = active[index]
                value = chances[row]
                outcomes[trial] = value if same_side[trial] else invert(value)
            active = [trial for trial, finished in zip(active, done, strict=True) if not finished]
            if not active:
                break
        parts, counts = [], []
        for trial in active:
            if turn == 0:
                die1, die2 = _FIRST_ROLLS[trial % 36]
            else:
                die1, die2 = (int(v) for v in rng.integers(1, 7, size=2))
            generated, _moves, count, _used = movegen.generate(boards[trial], die1, die2)
            parts.append(generated)
            counts.append(count)
        after = np.frombuffer(b"".join(parts), dtype=np.int8).reshape(-1, _BOARD)
        scores = equity(evaluator.after_play(after, 0))
        start = 0
        still = []
        for trial, count in zip(active, counts, strict=True):
            best = start + int(np.argmax(scores[start : start + count]))
            start += count
            chosen = after[best : best + 1]
            if chosen[0, 0] == chosen[0, :_SIDE].sum():  # the mover bore off all
                value = won_outcome(chosen)[0].astype(np.float64)
                outcomes[trial] = value if same_side[trial] else invert(value)
            else:
                boards[trial] = swap_boards(chosen)[0].tobytes()
                same_side[trial] = not same_side[trial]
                still.append(trial)
        active = still
        turn += 1
    mean = outcomes.mean(axis=0)
    equities = equity(outcomes.astype(np.float32))
    error = float(np.std(equities, ddof=1) / math.sqrt(trials)) if trials > 1 else math.inf
    return RolloutResult(Evaluation.from_array(mean), error, trials)
