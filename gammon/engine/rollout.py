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

Low-noise options (:class:`RolloutSettings`), for training targets:

- ``variance_reduction``: each turn, every one of the 21 rolls is valued by its
  best play's 0-ply figures (one network pass a turn for all trials); the roll's
  *luck* is its value minus the mean over the 36 throws (the 1-ply value before
  the roll), and a trial scores its outcome minus its luck, summed over the turns
  and turned to the rolled-out side. The luck has mean zero whatever the net's
  errors, so the estimate is unbiased; what the net foresees is taken out of the
  noise.
- ``stratify``: trial ``i`` throws ``i mod 36`` first and ``(i + i // 36) mod 36``
  second (:func:`stratified_rolls`), so 1296 trials play every pair of first two
  rolls once and every 36 trials each first and each second roll once; later rolls
  come from the trial's own row of its batch's dice, drawn for every trial each
  turn, so the same trial sees the same dice on any position (siblings:
  :func:`rollout_siblings`).
- ``truncate``: stop after that many plies and score the net's 0-ply chances
  there (with variance reduction the bias is only the net's error at the horizon).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from gammon import movegen
from gammon.dice import ALL_ROLLS
from gammon.engine.bearoff import bearoff_probabilities_batch, is_bearoff_batch
from gammon.engine.evaluator import (
    Evaluation,
    Search,
    default_evaluator,
    swap_boards,
    won_outcome,
)
from gammon.engine.network import equity, invert
from gammon.position import Position

if TYPE_CHECKING:
    from gammon.engine.cluster import RayCluster

__all__ = [
    "RolloutResult",
    "RolloutSettings",
    "SiblingRollout",
    "batch_rng",
    "clip_chances",
    "rollout",
    "rollout_batch",
    "rollout_siblings",
]

_BOARD = 54
_SIDE = 27
# The 36 ordered rolls, for rotating the first roll.
_FIRST_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
# The 21 distinct rolls, their weights over 36, and where each ordered roll falls among them.
_ROLLS = [dice for dice, _ in ALL_ROLLS]
_WEIGHTS = np.array([weight for _, weight in ALL_ROLLS], dtype=np.float64) / 36.0
_ROLL_INDEX = {
    (a, b): _ROLLS.index((max(a, b), min(a, b))) for a in range(1, 7) for b in range(1, 7)
}
# The outputs seen from the other side: win -> loss, wg <-> lg, wbg <-> lbg.
_OTHER_SIDE = [0, 3, 4, 1, 2]
_OTHER_SIGN = np.array([-1.0, 1.0, 1.0, 1.0, 1.0])


@dataclass(frozen=True)
class RolloutSettings:
    """How each trial is played and scored (see the module's text); the defaults are the
    plain rollout as it always was."""

    variance_reduction: bool = False
    stratify: bool = False
    #: Plies (half-moves) after which a trial is scored by the net at 0-ply, or None.
    truncate: int | None = None

    def __post_init__(self) -> None:
        if self.truncate is not None and self.truncate < 0:
            raise ValueError(f"truncation needs 0 plies or more, got {self.truncate}")


_PLAIN = RolloutSettings()


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
    evaluator: Search | None = None,
    batch: int | None = None,
    cluster: RayCluster | None = None,
    progress: Callable[[int, int], None] | None = None,
    settings: RolloutSettings | None = None,
) -> RolloutResult:
    """Play ``trials`` cubeless games from ``position`` (its player on roll to roll).

    The trials are played in batches of ``batch`` (all in one batch by default),
    each in lockstep with its own dice: batch 0 draws them from ``seed`` itself
    (so a one-batch rollout is what it always was), batch ``j`` from the ``j``-th
    child of ``seed`` (``SeedSequence(seed, spawn_key=(j,))``). The figures depend
    only on the position, ``trials``, ``seed``, ``batch`` and ``settings``: the
    batches run here one after another, or as Ray tasks on ``cluster``
    (:mod:`gammon.engine.cluster`), and are combined in trial order either way.
    ``progress(done, trials)`` is called as each batch finishes.
    """
    values = _trial_values(position, trials, seed, evaluator, batch, cluster, progress, settings)
    return summarise(values)


def summarise(values: npt.NDArray[np.float64]) -> RolloutResult:
    """The result of trials' scores (one row of 5 chances each): the mean, made a valid
    set of chances (:func:`clip_chances`), and the standard error of its equity."""
    trials = values.shape[0]
    mean = clip_chances(values.mean(axis=0))
    equities = equity(values.astype(np.float32))
    error = float(np.std(equities, ddof=1) / math.sqrt(trials)) if trials > 1 else math.inf
    return RolloutResult(Evaluation.from_array(mean), error, trials)


def clip_chances(chances: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Chances made consistent: each within [0, 1], gammons within wins, backgammons within
    gammons (a variance-reduced mean can stray a little past the bounds)."""
    out = np.array(chances, dtype=np.float64)
    out[0] = min(max(out[0], 0.0), 1.0)
    out[1] = min(max(out[1], 0.0), out[0])
    out[2] = min(max(out[2], 0.0), out[1])
    out[3] = min(max(out[3], 0.0), 1.0 - out[0])
    out[4] = min(max(out[4], 0.0), out[3])
    return out


def _trial_values(
    position: Position,
    trials: int,
    seed: int,
    evaluator: Search | None,
    batch: int | None,
    cluster: RayCluster | None,
    progress: Callable[[int, int], None] | None,
    settings: RolloutSettings | None,
) -> npt.NDArray[np.float64]:
    """Every trial's score, in trial order (the rows :func:`summarise` reads)."""
    if trials < 1:
        raise ValueError(f"a rollout needs at least one trial, got {trials}")
    size = trials if batch is None else batch
    if size < 1:
        raise ValueError(f"a rollout batch needs at least one trial, got {batch}")
    settings = settings or _PLAIN
    batches = [(first, min(size, trials - first)) for first in range(0, trials, size)]
    outcomes = np.zeros((trials, 5))
    done = 0
    if cluster is None:
        evaluator = evaluator or default_evaluator()
        for number, (first, count) in enumerate(batches):
            outcomes[first : first + count] = _play_out(
                position.raw, first, count, batch_rng(seed, number), evaluator, settings
            )
            done += count
            if progress is not None:
                progress(done, trials)
    else:
        shared = None if evaluator is None else cluster.put(evaluator)
        jobs = [
            (position.raw, first, count, seed, number, shared, settings)
            for number, (first, count) in enumerate(batches)
        ]
        for number, values in cluster.map(rollout_batch, jobs):
            first, count = batches[number]
            outcomes[first : first + count] = values
            done += count
            if progress is not None:
                progress(done, trials)
    return outcomes


@dataclass(frozen=True)
class SiblingRollout:
    """Rollouts of the positions one decision can lead to, on the same dice."""

    results: tuple[RolloutResult, ...]
    #: Standard error of each position's equity minus the first's (0 for the first).
    difference_errors: tuple[float, ...]


def rollout_siblings(
    positions: Sequence[Position],
    *,
    trials: int = 144,
    seed: int = 0,
    evaluator: Search | None = None,
    batch: int | None = None,
    settings: RolloutSettings | None = None,
) -> SiblingRollout:
    """Roll out several positions (the plays of one decision, each with the opponent on
    roll) with the same seed, so trial ``i`` throws the same dice in each: common random
    numbers, which make their differences much less noisy than their values. Stratified
    dice are always used (the legacy dice depend on which trials are still playing)."""
    base = settings or RolloutSettings(variance_reduction=True)
    if not base.stratify:
        base = RolloutSettings(base.variance_reduction, True, base.truncate)
    values = [
        _trial_values(p, trials, seed, evaluator, batch, None, None, base) for p in positions
    ]
    results = tuple(summarise(v) for v in values)
    errors = []
    for v in values:
        diff = equity(v.astype(np.float32)) - equity(values[0].astype(np.float32))
        errors.append(float(np.std(diff, ddof=1) / math.sqrt(trials)) if trials > 1 else 0.0)
    return SiblingRollout(results, tuple(errors))


def batch_rng(seed: int, number: int) -> np.random.Generator:
    """The dice of batch ``number`` of a rollout seeded ``seed`` (see :func:`rollout`)."""
    if number == 0:
        return np.random.default_rng(seed)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(number,))))


def rollout_batch(
    raw: bytes,
    first: int,
    count: int,
    seed: int,
    number: int,
    evaluator: Search | None,
    settings: RolloutSettings | None = None,
) -> npt.NDArray[np.float64]:
    """One batch of a rollout, as a task: the scores of trials ``first`` to
    ``first + count - 1`` (the shipped net when ``evaluator`` is ``None``)."""
    return _play_out(
        raw,
        first,
        count,
        batch_rng(seed, number),
        evaluator or default_evaluator(),
        settings or _PLAIN,
    )


def stratified_rolls(trial: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The first two rolls of trial ``i`` when stratified, of the 36 ordered rolls:
    ``i mod 36``, then ``(i + i // 36) mod 36``.

    Each 1296 trials play every pair once, as ``(i // 36) mod 36`` for the second would;
    the shift also gives every block of 36 trials each second roll once, where
    ``(i // 36) mod 36`` would give a rollout of 72 trials only 1-1 and 1-2 for its
    second roll (measured: a plain rollout of 648 trials 0.07 off on a race)."""
    return _FIRST_ROLLS[trial % 36], _FIRST_ROLLS[(trial + trial // 36) % 36]


def _play_out(
    raw: bytes,
    first: int,
    count: int,
    rng: np.random.Generator,
    evaluator: Search,
    settings: RolloutSettings = _PLAIN,
) -> npt.NDArray[np.float64]:
    """Play trials ``first`` to ``first + count - 1`` out in lockstep; their scores for
    the player on roll of ``raw``, one row each (outcome minus luck with variance
    reduction)."""
    outcomes = np.zeros((count, 5))
    luck = np.zeros((count, 5))
    boards = [raw] * count
    # Whether each trial's player on roll is the rolled-out position's player on roll.
    same_side = np.ones(count, dtype=np.bool_)
    active = list(range(count))
    turn = 0

    def score(trial: int, value: npt.NDArray[np.floating]) -> None:
        outcomes[trial] = value if same_side[trial] else invert(value)

    while active:
        # Stop trials where both sides bear off: the database scores them.
        current = np.frombuffer(b"".join(boards[i] for i in active), dtype=np.int8)
        current = current.reshape(-1, _BOARD)
        done = is_bearoff_batch(current)
        if settings.truncate is not None and turn >= settings.truncate:
            horizon = evaluator.on_roll(current)  # bear-offs from the database here too
            for row, trial in enumerate(active):
                score(trial, horizon[row].astype(np.float64))
            break
        if done.any():
            chances = bearoff_probabilities_batch(current[done])
            for row, index in enumerate(np.flatnonzero(done)):
                score(active[index], chances[row])
            active = [trial for trial, finished in zip(active, done, strict=True) if not finished]
            if not active:
                break
        dice = _trial_dice(active, first, turn, count, rng, stratify=settings.stratify)
        if settings.variance_reduction:
            chosen_boards = _choose_with_luck(active, dice, boards, evaluator, luck, same_side)
        else:
            chosen_boards = _choose(active, dice, boards, evaluator)
        still = []
        for trial, chosen in zip(active, chosen_boards, strict=True):
            if chosen[0, 0] == chosen[0, :_SIDE].sum():  # the mover bore off all
                score(trial, won_outcome(chosen)[0].astype(np.float64))
            else:
                boards[trial] = swap_boards(chosen)[0].tobytes()
                same_side[trial] = not same_side[trial]
                still.append(trial)
        active = still
        turn += 1
    return outcomes - luck


def _trial_dice(
    active: list[int],
    first: int,
    turn: int,
    count: int,
    rng: np.random.Generator,
    *,
    stratify: bool,
) -> list[tuple[int, int]]:
    """Each active trial's roll at ``turn``: with ``stratify`` the first two turns'
    rolls stratified over the trials, and without it the first turn's the 36 rolls in
    turn; the rest drawn from ``rng`` (in the same order as ever, so seeds still agree)."""
    dice: list[tuple[int, int]] = []
    if stratify:
        drawn = rng.integers(1, 7, size=(count, 2)) if turn >= 2 else None
        for trial in active:
            if drawn is None:
                dice.append(stratified_rolls(first + trial)[turn])
            else:
                dice.append((int(drawn[trial, 0]), int(drawn[trial, 1])))
    else:
        for trial in active:
            if turn == 0:
                dice.append(_FIRST_ROLLS[(first + trial) % 36])
            else:
                die1, die2 = (int(v) for v in rng.integers(1, 7, size=2))
                dice.append((die1, die2))
    return dice


def _choose(
    active: list[int], dice: list[tuple[int, int]], boards: list[bytes], evaluator: Search
) -> list[npt.NDArray[np.int8]]:
    """Each active trial's 0-ply play of its roll (one network pass for all)."""
    parts, counts = [], []
    for trial, (die1, die2) in zip(active, dice, strict=True):
        generated, _moves, moves, _used = movegen.generate(boards[trial], die1, die2)
        parts.append(generated)
        counts.append(moves)
    after = np.frombuffer(b"".join(parts), dtype=np.int8).reshape(-1, _BOARD)
    scores = equity(evaluator.after_play(after, 0))
    start = 0
    chosen = []
    for moves in counts:
        best = start + int(np.argmax(scores[start : start + moves]))
        start += moves
        chosen.append(after[best : best + 1])
    return chosen


def _choose_with_luck(
    active: list[int],
    dice: list[tuple[int, int]],
    boards: list[bytes],
    evaluator: Search,
    luck: npt.NDArray[np.float64],
    same_side: npt.NDArray[np.bool_],
) -> list[npt.NDArray[np.int8]]:
    """:func:`_choose`, valuing all 21 rolls of each trial in the same network pass and
    adding the thrown roll's luck (its best play's value minus the mean over the 36
    throws, for the rolled-out side) to ``luck``."""
    parts, counts = [], []
    for trial in active:
        for die1, die2 in _ROLLS:
            generated, _moves, moves, _used = movegen.generate(boards[trial], die1, die2)
            parts.append(generated)
            counts.append(moves)
    after = np.frombuffer(b"".join(parts), dtype=np.int8).reshape(-1, _BOARD)
    values = evaluator.after_play(after, 0)
    sizes = np.array(counts, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    segment = np.repeat(np.arange(sizes.size), sizes)
    # Within each (trial, roll) the best play: sorted by segment, then by equity, highest
    # first (a stable sort, so ties go to the first play, as argmax's do).
    order = np.lexsort((-equity(values), segment))
    best = order[starts]
    per_roll = values[best].astype(np.float64).reshape(len(active), len(_ROLLS), 5)
    mean = np.einsum("r,trk->tk", _WEIGHTS, per_roll)
    chosen = []
    for row, (trial, roll) in enumerate(zip(active, dice, strict=True)):
        k = _ROLL_INDEX[roll]
        thrown = per_roll[row, k] - mean[row]
        luck[trial] += thrown if same_side[trial] else thrown[_OTHER_SIDE] * _OTHER_SIGN
        index = best[row * len(_ROLLS) + k]
        chosen.append(after[index : index + 1])
    return chosen
