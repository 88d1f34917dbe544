"""Supervised training on rollouts: resumable collection, fitting that fits."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from gammon.engine.evaluator import WEIGHTS, default_evaluator
from gammon.engine.mined_collection import MINED_FIELDS, collect_mined
from gammon.engine.network import Network
from gammon.engine.rollout import RolloutSettings
from gammon.engine.supervise import collect, fit, sample_positions


def test_collection_resumes_where_it_stopped(tmp_path: Path) -> None:
    data = tmp_path / "rollouts.npz"
    collect(data, positions=3, trials=6, seed=2)
    with np.load(data) as first:
        boards3 = first["boards"].copy()
    collect(data, positions=5, trials=6, seed=2)
    with np.load(data) as second:
        assert second["boards"].shape == (5, 54)
        assert (second["boards"][:3] == boards3).all()
        targets = second["targets"]
    # Each target is a rollout mean: chances, wins at least as likely as gammons.
    assert ((targets >= 0) & (targets <= 1)).all()
    assert (targets[:, 1] <= targets[:, 0] + 1e-9).all()


def test_sampled_positions_are_not_bearoffs() -> None:
    positions = sample_positions(12, seed=4, evaluator=default_evaluator())
    assert len(positions) == 12
    assert all(p.is_contact() or any(p.mine[6:]) or any(p.theirs[6:]) for p in positions)


def test_fitting_moves_the_net_toward_the_targets() -> None:
    net = Network.load(WEIGHTS / "contact.npz")
    positions = sample_positions(60, seed=6, evaluator=default_evaluator())
    boards = np.stack([np.frombuffer(p.raw, dtype=np.int8) for p in positions])
    targets = np.tile([0.8, 0.3, 0.02, 0.05, 0.0], (len(positions), 1))
    before, after = fit(net, boards, targets, epochs=30, lr=3e-3)
    assert after < before


def test_searched_targets_are_the_nets_own_search_and_resume(tmp_path: Path) -> None:
    data = tmp_path / "ply1.npz"
    evaluator = default_evaluator()
    collect(data, positions=4, trials=0, seed=3, ply=1, evaluator=evaluator)
    collect(data, positions=7, trials=0, seed=3, ply=1, evaluator=evaluator)
    wanted = sample_positions(7, seed=3, evaluator=evaluator)
    with np.load(data) as saved:
        boards, targets = saved["boards"], saved["targets"]
    assert [bytes(board) for board in boards] == [p.raw for p in wanted]
    for position, target in zip(wanted, targets, strict=True):
        searched = evaluator.evaluate(position, ply=1).probabilities
        assert np.allclose(target, searched, atol=1e-6)


def test_a_net_is_fitted_only_to_the_positions_of_its_class() -> None:
    """A contact net never learns from races (the race net judges those), nor the reverse:
    targets that are nonsense for the other class leave the fit unchanged."""
    positions = sample_positions(80, seed=8, evaluator=default_evaluator())
    boards = np.stack([np.frombuffer(p.raw, dtype=np.int8) for p in positions])
    contact = np.array([p.is_contact() for p in positions])
    assert contact.any() and not contact.all()
    targets = np.tile([0.8, 0.3, 0.02, 0.05, 0.0], (len(positions), 1))
    spoiled = targets.copy()
    spoiled[~contact] = [0.0, 0.0, 0.0, 1.0, 1.0]
    fitted = []
    for these in (targets, spoiled):
        net = Network.load(WEIGHTS / "contact.npz")
        fit(net, boards, these, epochs=5, lr=3e-3, seed=1)
        fitted.append(net.w1.copy())
    assert np.array_equal(fitted[0], fitted[1])


_QUICK = RolloutSettings(variance_reduction=True, stratify=True, truncate=2)


class _Stop(Exception):
    pass


def _mined(path: Path, positions: int, on_save: Callable[[int], None] | None = None) -> None:
    collect_mined(
        path, positions, seed=5, trials=4, settings=_QUICK, save_every=3, ply=1, on_save=on_save
    )


def test_mined_collection_resumed_after_an_interruption_is_one_uninterrupted_run(
    tmp_path: Path,
) -> None:
    whole, resumed = tmp_path / "whole.npz", tmp_path / "resumed.npz"
    _mined(whole, 14)

    def stop(rows: int) -> None:
        raise _Stop(rows)

    with pytest.raises(_Stop):
        _mined(resumed, 14, on_save=stop)  # stopped after its first save
    with np.load(resumed) as first:
        assert 3 <= first["boards"].shape[0] < 14
    _mined(resumed, 14)
    with np.load(whole) as a, np.load(resumed) as b:
        assert sorted(a.files) == sorted(b.files) == sorted(MINED_FIELDS)
        assert a["boards"].shape[0] >= 14 and a["boards"].dtype == np.int8
        for name in MINED_FIELDS:
            assert np.array_equal(a[name], b[name]), name
        targets, errors = a["targets"], a["errors"]
        assert targets.shape == (a["boards"].shape[0], 5)
        assert (a["trials"] == 4).all() and (errors >= 0).all()
        assert ((targets >= 0) & (targets <= 1)).all()
        assert (targets[:, 1] <= targets[:, 0]).all() and (targets[:, 3] <= 1 - targets[:, 0]).all()
