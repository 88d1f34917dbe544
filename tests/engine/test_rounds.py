"""A supervised round (gammon.engine.rounds) on the repository's own mined collection."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gammon.engine.encoding import encoder_for, is_contact_boards
from gammon.engine.evaluator import default_evaluator
from gammon.engine.judged import HOLDOUT, score
from gammon.engine.rounds import SELECTION, RoundData, anchor_set, fit_round, main

DATA = Path(__file__).resolve().parents[2] / "training" / "rollouts-r1.npz"


@pytest.fixture(scope="module")
def data() -> RoundData:
    return RoundData.load(DATA)


def test_a_round_fits_neither_the_benchmark_nor_the_selection_games(data: RoundData) -> None:
    with np.load(DATA) as mined:
        games, boards = mined["game"], mined["boards"]
    fitted = (games % HOLDOUT != 0) & (games % SELECTION != 1)
    contact = is_contact_boards(boards)
    assert data.boards.shape[0] == int((fitted & contact).sum()) > 1000
    assert np.array_equal(data.boards, boards[fitted & contact])
    assert data.selection.decisions > 50
    assert (data.selection.game % SELECTION == 1).all()
    assert not (data.selection.game % HOLDOUT == 0).any()


def test_anchors_are_contact_positions_with_the_start_nets_own_chances() -> None:
    start = default_evaluator()
    boards, targets = anchor_set(start.network, 60, 3, start)
    assert boards.shape[0] > 30 and is_contact_boards(boards).all()
    own = start.network.forward(encoder_for(start.network.inputs)(boards))
    assert np.allclose(targets, own)


def test_epoch_zero_is_the_start_and_no_gain_keeps_no_net(data: RoundData) -> None:
    start = default_evaluator()
    anchors = anchor_set(start.network, 40, 5, start)
    result = fit_round(start, data, anchors, epochs=1, lr=0.0, anchor_share=0.1, report=False)
    assert result.errors[0] == pytest.approx(score(start, data.selection, 0).overall.mean)
    assert result.errors[1] == pytest.approx(result.errors[0])  # nothing learnt at lr 0
    assert result.net is None and result.best_epoch == 0


def test_a_kept_net_is_the_best_epoch_and_beats_the_start(data: RoundData) -> None:
    start = default_evaluator()
    anchors = anchor_set(start.network, 40, 5, start)
    result = fit_round(
        start, data, anchors, epochs=2, lr=3e-4, anchor_share=0.5, seed=2, report=False
    )
    assert len(result.errors) == 3
    if result.net is None:
        assert min(result.errors[1:]) >= result.errors[0]
    else:
        assert result.errors[result.best_epoch] < result.errors[0]
        assert not np.array_equal(result.net.w1, start.network.w1)
        assert start.network is default_evaluator().network  # the start is left alone


def test_the_command_writes_nothing_when_no_epoch_gains(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "round"
    main(["--data", str(DATA), "--out", str(out), "--epochs", "1", "--lr", "0",
          "--anchors", "40"])  # fmt: skip
    printed = capsys.readouterr().out
    assert "contact rows to fit" in printed and "best epoch 0" in printed
    assert not out.exists()
