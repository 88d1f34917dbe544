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
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

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

if TYPE_CHECKING:
    from gammon.engine.cluster import RayCluster

__all__ = ["RolloutResult", "batch_rng", "rollout", "rollout_batch"]

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
    batch: int | None = None,
    cluster: RayCluster | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RolloutResult:
    """Play ``trials`` cubeless games from ``position`` (its player on roll to roll).

    The trials are played in batches of ``batch`` (all in one batch by default),
    each in lockstep with its own dice: batch 0 draws them from ``seed`` itself
    (so a one-batch rollout is what it always was), batch ``j`` from the ``j``-th
    child of ``seed`` (``SeedSequence(seed, spawn_key=(j,))``). The figures depend
    only on the position, ``trials``, ``seed`` and ``batch``: the batches run here
    one after another, or as Ray tasks on ``cluster``
    (:mod:`gammon.engine.cluster`), and are combined in trial order either way.
    ``progress(done, trials)`` is called as each batch finishes.
    """
    if trials < 1:
        raise ValueError(f"a rollout needs at least one trial, got {trials}")
    size = trials if batch is None else batch
    if size < 1:
        raise ValueError(f"a rollout batch needs at least one trial, got {batch}")
    batches = [(first, min(size, trials - first)) for first in range(0, trials, size)]
    outcomes = np.zeros((trials, 5))
    done = 0
    if cluster is None:
        evaluator = evaluator or default_evaluator()
        for number, (first, count) in enumerate(batches):
            outcomes[first : first + count] = _play_out(
                position.raw, first, count, batch_rng(seed, number), evaluator
            )
            done += count
            if progress is not None:
                progress(done, trials)
    else:
        shared = None if evaluator is None else cluster.put(evaluator)
        jobs = [
            (position.raw, first, count, seed, number, shared)
            for number, (first, count) in enumerate(batches)
        ]
        for number, values in cluster.map(rollout_batch, jobs):
            first, count = batches[number]
            outcomes[first : first + count] = values
            done += count
            if progress is not None:
                progress(done, trials)
    mean = outcomes.mean(axis=0)
    equities = equity(outcomes.astype(np.float32))
    error = float(np.std(equities, ddof=1) / math.sqrt(trials)) if trials > 1 else math.inf
    return RolloutResult(Evaluation.from_array(mean), error, trials)


def batch_rng(seed: int, number: int) -> np.random.Generator:
    """The dice of batch ``number`` of a rollout seeded ``seed`` (see :func:`rollout`)."""
    if number == 0:
        return np.random.default_rng(seed)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(number,))))


def rollout_batch(
    raw: bytes, first: int, count: int, seed: int, number: int, evaluator: Evaluator | None
) -> npt.NDArray[np.float64]:
    """One batch of a rollout, as a task: the outcomes of trials ``first`` to
    ``first + count - 1`` (the shipped net when ``evaluator`` is ``None``)."""
    return _play_out(
        raw, first, count, batch_rng(seed, number), evaluator or default_evaluator()
    )


def _play_out(
    raw: bytes, first: int, count: int, rng: np.random.Generator, evaluator: Evaluator
) -> npt.NDArray[np.float64]:
    """Play trials ``first`` to ``first + count - 1`` out in lockstep; their outcomes for
    the player on roll of ``raw``, one row each."""
    outcomes = np.zeros((count, 5))
    boards = [raw] * count
    # Whether each trial's player on roll is the rolled-out position's player on roll.
    same_side = np.ones(count, dtype=np.bool_)
    active = list(range(count))
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
                die1, die2 = _FIRST_ROLLS[(first + trial) % 36]
            else:
                die1, die2 = (int(v) for v in rng.integers(1, 7, size=2))
            generated, _moves, moves, _used = movegen.generate(boards[trial], die1, die2)
            parts.append(generated)
            counts.append(moves)
        after = np.frombuffer(b"".join(parts), dtype=np.int8).reshape(-1, _BOARD)
        scores = equity(evaluator.after_play(after, 0))
        start = 0
        still = []
        for trial, moves in zip(active, counts, strict=True):
            best = start + int(np.argmax(scores[start : start + moves]))
            start += moves
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
    return outcomes
