"""The race net: where it answers, and how close it comes to the bear-off database."""

from __future__ import annotations

import numpy as np
import pytest

from gammon.engine.bearoff import bearoff_probabilities, bearoff_probabilities_batch
from gammon.engine.encoding import RACE_INPUTS, encode_contact, encode_race, encoder_for
from gammon.engine.evaluator import default_evaluator
from gammon.engine.network import Network
from gammon.engine.train import random_bearoffs
from gammon.position import Position


@pytest.fixture(scope="module")
def race_net() -> Network:
    race = default_evaluator().race
    assert race is not None, "the shipped evaluator has a race net (weights/race.npz)"
    assert race.inputs == RACE_INPUTS
    return race


def _board(position: Position) -> np.ndarray:
    return np.frombuffer(position.raw, dtype=np.int8).reshape(1, 54)


def test_race_net_agrees_with_the_bear_off_database(race_net: Network) -> None:
    """Where both apply (both sides bearing off), the net is within a point or two."""
    boards = random_bearoffs(np.random.default_rng(2024), 500)
    exact = bearoff_probabilities_batch(boards)
    guess = race_net.forward(encode_race(boards))
    error = np.abs(guess - exact)
    assert error[:, 0].mean() < 0.02  # win chance, on average
    assert np.quantile(error[:, 0], 0.95) < 0.06
    assert error[:, 1].mean() < 0.01  # gammons
    assert error[:, 3].mean() < 0.01


def test_races_go_to_the_race_net_and_bear_offs_to_the_database(race_net: Network) -> None:
    evaluator = default_evaluator()
    race = Position.from_points({8: 5, 6: 10}, {9: 4, 5: 11})
    expected = race_net.forward(encode_race(_board(race)))[0]
    # The compiled pass adds up in another order than BLAS: equal to float32 rounding.
    assert evaluator.evaluate(race).probabilities == pytest.approx(expected.tolist(), abs=1e-6)
    bearoff = Position.from_points({6: 3, 2: 4}, {5: 5, 1: 3})
    exact = bearoff_probabilities(bearoff)
    assert evaluator.evaluate(bearoff).probabilities == pytest.approx(exact.tolist(), abs=1e-6)
    contact = Position.initial()
    net = evaluator.network
    x = encoder_for(net.inputs)(_board(contact))
    chances = net.forward(x)[0].tolist()
    assert evaluator.evaluate(contact).probabilities == pytest.approx(chances, abs=1e-6)
    assert encode_contact(_board(contact)).shape[1] >= x.shape[1]


def test_race_net_reads_the_race() -> None:
    evaluate = default_evaluator().evaluate
    # 40 pips ahead with the roll: nearly sure; 40 behind: nearly lost.
    ahead = Position.from_points({6: 5, 5: 5, 4: 5}, {10: 5, 9: 5, 8: 5})
    assert evaluate(ahead).win > 0.95
    assert evaluate(ahead.swapped()).win < 0.05
    # An even race (same boards), the player on roll is the favourite.
    even = Position.from_points({8: 5, 7: 5, 6: 5}, {8: 5, 7: 5, 6: 5})
    assert 0.5 < evaluate(even).win < 0.8
