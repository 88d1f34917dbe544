"""The evaluator: valid chances, exact finished games, search and play choice."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.engine.encoding import INPUT_SIZE, encode_boards, is_contact_boards
from gammon.engine.evaluator import Evaluation, best_play, default_evaluator, evaluate, rank_plays
from gammon.engine.network import equity, invert
from gammon.position import Position


def _random_position(seed: int) -> Position:
    rng = random.Random(seed)
    position = Position.initial()
    for _ in range(rng.randint(0, 60)):
        play = rng.choice(position.plays((rng.randint(1, 6), rng.randint(1, 6))))
        if play.position.winner() is not None:
            break
        position = play.position.swapped()
    return position


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_chances_are_valid_probabilities(seed: int) -> None:
    evaluation = evaluate(_random_position(seed))
    win, wg, wbg, lg, lbg = evaluation.probabilities
    assert 0.0 <= win <= 1.0
    # Cumulative: a backgammon is a gammon is a win (R9).
    assert 0.0 <= wbg <= wg <= win + 1e-6
    assert 0.0 <= lbg <= lg <= 1.0 - win + 1e-6
    assert -3.0 <= evaluation.equity <= 3.0


def test_equity_formula_and_inversion() -> None:
    probs = np.array([[0.6, 0.2, 0.05, 0.1, 0.01]], dtype=np.float32)
    assert equity(probs)[0] == pytest.approx(2 * 0.6 - 1 + 0.2 - 0.1 + 0.05 - 0.01)
    flipped = invert(probs)
    assert flipped[0].tolist() == pytest.approx([0.4, 0.1, 0.01, 0.2, 0.05])
    assert equity(flipped)[0] == pytest.approx(-equity(probs)[0])


def test_a_finished_game_is_scored_exactly() -> None:
    """R9: once the opponent has borne off all, the player on roll has lost for sure."""
    gammoned = Position.from_points({13: 15}, {}, checkers=15)  # opponent bore off all
    assert gammoned.winner() == 1
    evaluation = evaluate(gammoned)
    assert evaluation.probabilities == (0.0, 0.0, 0.0, 1.0, 0.0)
    backgammoned = Position.from_points({20: 1, 13: 14}, {}, checkers=15)
    assert evaluate(backgammoned).probabilities == (0.0, 0.0, 0.0, 1.0, 1.0)
    single = Position.from_points({1: 3}, {}, checkers=15)
    assert evaluate(single).equity == pytest.approx(-1.0)


def test_winning_play_is_found_and_valued_exactly() -> None:
    """R8, R9: with the last checkers able to come off, the bot bears them off."""
    position = Position.from_points({1: 1, 2: 1}, {19: 15}, checkers=15)
    play = best_play(position, (2, 1))
    assert play.position.winner() == 0
    top = rank_plays(position, (2, 1))[0][1]
    assert top.probabilities == (1.0, 1.0, 1.0, 0.0, 0.0)  # opponent on our home board


def test_encoding_shape_and_contact() -> None:
    boards = np.frombuffer(Position.initial().raw, dtype=np.int8).reshape(1, 54)
    x = encode_boards(boards)
    assert x.shape == (1, INPUT_SIZE)
    assert bool(is_contact_boards(boards)[0])
    race = Position.from_points({6: 15}, {6: 15})
    assert not bool(is_contact_boards(np.frombuffer(race.raw, dtype=np.int8).reshape(1, 54))[0])


@pytest.mark.parametrize(
    ("dice", "expected"),
    [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 1), "13/7 8/7"), ((5, 3), "8/3 6/3")],
)
def test_standard_opening_points(dice: tuple[int, int], expected: str) -> None:
    """The shipped net makes the point on the opening rolls every book agrees on."""
    assert str(best_play(Position.initial(), dice)) == expected


def test_search_depths_agree_on_format_and_legality() -> None:
    position = _random_position(7)
    dice = (5, 2)
    legal = position.plays(dice)
    for ply in (0, 1):
        ranked = rank_plays(position, dice, ply)
        assert {str(p) for p, _ in ranked} == {str(p) for p in legal}
        assert best_play(position, dice, ply) in legal
    searched = default_evaluator().rank_plays_searched(position, dice, 1)
    depths = [depth for _, _, depth in searched]
    # The pruned survivors come first, searched deeper; the rest keep 0-ply figures.
    assert depths == sorted(depths, reverse=True)
    assert 1 <= depths.count(1) <= 8  # the first move filter keeps at most 8


def test_one_ply_before_roll_is_a_weighted_average() -> None:
    evaluation = evaluate(Position.initial(), ply=1)
    assert isinstance(evaluation, Evaluation)
    assert 0.4 < evaluation.win < 0.65
