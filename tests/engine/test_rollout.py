"""Rollouts: exact where the result is certain, reproducible, and consistent with the net."""

from __future__ import annotations

import numpy as np
import pytest

from gammon.engine.bearoff import bearoff_probabilities
from gammon.engine.evaluator import evaluate
from gammon.engine.rollout import (
    RolloutSettings,
    clip_chances,
    rollout,
    rollout_siblings,
    stratified_rolls,
)
from gammon.position import Position


def test_a_certain_gammon_rolls_out_exactly() -> None:
    """R9: two checkers on the 1-point come off on any roll; the opponent has none off."""
    result = rollout(Position.from_points({1: 2}, {13: 15}), trials=36)
    assert result.evaluation.probabilities == (1.0, 1.0, 0.0, 0.0, 0.0)
    assert result.equity_error == 0.0


def test_a_bearoff_is_scored_by_the_database() -> None:
    position = Position.from_points({6: 3, 5: 2}, {6: 3, 4: 3})
    result = rollout(position, trials=36)
    assert list(result.evaluation.probabilities) == pytest.approx(
        bearoff_probabilities(position).tolist(), abs=1e-6
    )


def test_rollouts_are_reproducible_and_agree_with_the_net() -> None:
    first = rollout(Position.initial(), trials=72, seed=5)
    again = rollout(Position.initial(), trials=72, seed=5)
    assert first == again
    # The net's 0-ply equity of the start lies within the rollout's margin (wide: 72 trials).
    margin = 4 * first.equity_error
    assert abs(first.evaluation.equity - evaluate(Position.initial()).equity) < margin


def test_a_rollout_needs_a_trial() -> None:
    with pytest.raises(ValueError, match="at least one trial"):
        rollout(Position.initial(), trials=0)


def test_batches_have_their_own_dice_and_one_batch_is_the_whole_rollout() -> None:
    start = Position.initial()
    whole = rollout(start, trials=40, seed=3)
    assert rollout(start, trials=40, seed=3, batch=40) == whole
    # A regression pin with the shipped nets (seed 5, 72 trials), taken when batches came in
    # and retaken when the nets changed: the one-batch path draws the seed's own dice.
    assert rollout(start, trials=72, seed=5).evaluation.win == pytest.approx(0.49491205272090405)
    done: list[int] = []
    split = rollout(start, trials=40, seed=3, batch=16, progress=lambda d, _t: done.append(d))
    assert done == [16, 32, 40]
    assert split == rollout(start, trials=40, seed=3, batch=16)
    assert split.trials == 40 and split != whole
    with pytest.raises(ValueError, match="batch needs at least one trial"):
        rollout(start, trials=4, batch=0)


# -- low-noise rollouts (issue 18) -----------------------------------------

#: A middle game with contact, and a race: fixed positions for the low-noise checks.
_CONTACT = Position.from_points(
    {24: 2, 13: 4, 8: 3, 6: 4, 5: 2}, {24: 1, 21: 2, 13: 3, 8: 2, 6: 5, 4: 2}
)
_RACE = Position.from_points({9: 3, 8: 3, 6: 4, 5: 3, 3: 2}, {10: 2, 8: 3, 6: 4, 4: 4, 2: 2})


def test_the_first_two_rolls_are_stratified_over_all_1296_pairs() -> None:
    pairs = [stratified_rolls(i) for i in range(1296)]
    assert len(set(pairs)) == 1296
    assert all(stratified_rolls(i + 1296) == pairs[i] for i in range(0, 1296, 37))
    # The first roll is the rotation plain rollouts always had, and every 36 trials throw
    # each second roll once too.
    ordered = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    assert [pairs[i][0] for i in range(36)] == ordered
    for block in range(0, 1296, 36):
        assert sorted(pairs[i][1] for i in range(block, block + 36)) == ordered


def test_truncation_at_no_plies_is_the_nets_evaluation() -> None:
    for position in (_CONTACT, _RACE, Position.initial()):
        for vr in (False, True):
            settings = RolloutSettings(variance_reduction=vr, stratify=vr, truncate=0)
            result = rollout(position, trials=5, seed=1, settings=settings)
            assert result.evaluation.probabilities == pytest.approx(
                evaluate(position).probabilities, abs=1e-6
            )
            assert result.equity_error == pytest.approx(0.0, abs=1e-6)


def test_variance_reduction_is_unbiased_and_much_less_noisy() -> None:
    """On the same truncated horizon (the same expectation: the net's chances there) and
    on a race played out, the luck-corrected mean agrees with the plain one within the
    intervals, with a standard error several times smaller on the same trials."""
    cases = ((_CONTACT, 6), (_RACE, None))
    for position, truncate in cases:
        plain = rollout(
            position, trials=648, seed=4, settings=RolloutSettings(False, True, truncate)
        )
        vr = rollout(position, trials=72, seed=4, settings=RolloutSettings(True, True, truncate))
        same_trials = rollout(
            position, trials=72, seed=4, settings=RolloutSettings(False, True, truncate)
        )
        margin = 3 * (plain.equity_error**2 + vr.equity_error**2) ** 0.5
        assert abs(vr.evaluation.equity - plain.evaluation.equity) < margin
        for ours, theirs in zip(
            vr.evaluation.probabilities, plain.evaluation.probabilities, strict=True
        ):
            assert abs(ours - theirs) < 0.05
        assert vr.equity_error < same_trials.equity_error / 3


def test_siblings_on_the_same_dice_have_low_noise_differences() -> None:
    """The same dice make two plays' difference less noisy than their values (measured
    here: by a sixth plain, by a third with variance reduction, at 4 plies)."""
    plays = [play.position.swapped() for play in _CONTACT.plays((6, 4))][:3]
    for vr in (False, True):
        settings = RolloutSettings(variance_reduction=vr, stratify=True, truncate=4)
        together = rollout_siblings(plays, trials=36, seed=2, settings=settings)
        assert together.difference_errors[0] == 0.0
        first = together.results[0].equity_error
        for result, error in zip(together.results[1:], together.difference_errors[1:], strict=True):
            assert error < (result.equity_error**2 + first**2) ** 0.5
    # Each is the rollout of its own position with the same seed.
    assert together.results[1] == rollout(plays[1], trials=36, seed=2, settings=settings)


def test_clipped_chances_are_consistent() -> None:
    clipped = clip_chances(np.array([1.02, 1.1, -0.01, 0.02, 0.03]))
    assert clipped.tolist() == [1.0, 1.0, 0.0, 0.0, 0.0]
