"""Tesauro's pubeval: weights, encoding, hand-computed scores, choices, strength.

GNU Backgammon's own pubeval (through gnubg_nn, as an oracle only) must give
the same scores and the same best plays.
"""

from __future__ import annotations

import random

import gnubg_nn
import numpy as np
import pytest

from bench.strength import play_pair
from gammon.engine.player import RandomPlayer
from gammon.engine.pubeval import (
    CONTACT_WEIGHTS,
    INPUTS,
    RACE_WEIGHTS,
    WIN_SCORE,
    PubevalPlayer,
    _race_and_checkers,
    pubeval,
    pubeval_inputs,
    score_boards,
)
from gammon.position import Position
from gammon.variants import find_variant


def _board(position: Position) -> np.ndarray:
    return np.frombuffer(position.raw, dtype=np.int8)[None, :]


def _sample(count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """(position, roll) pairs from random games, finished games restarted."""
    rng = random.Random(seed)
    position = Position.initial()
    pairs: list[tuple[Position, tuple[int, int]]] = []
    while len(pairs) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        pairs.append((position, dice))
        position = rng.choice(position.plays(dice)).position.swapped()
        if position.winner() is not None:
            position = Position.initial()
    return pairs


def test_published_weights() -> None:
    # Spot checks against pubeval.c as published (wr = race, wc = contact).
    assert RACE_WEIGHTS.shape == CONTACT_WEIGHTS.shape == (INPUTS,) == (122,)
    assert RACE_WEIGHTS[1] == -0.17160
    assert RACE_WEIGHTS[94] == 5.35000
    assert RACE_WEIGHTS[119] == -12.32252
    assert RACE_WEIGHTS[121] == 3.42040
    assert CONTACT_WEIGHTS[0] == 0.25696
    assert CONTACT_WEIGHTS[97] == 4.37655
    assert CONTACT_WEIGHTS[120] == 5.62596
    assert CONTACT_WEIGHTS[121] == -2.75800
    # In a race an opposing blot cannot be hit, and the opponent cannot be on the bar.
    assert not RACE_WEIGHTS[0:120:5].any()
    assert RACE_WEIGHTS[120] == 0
    # Checksums computed from an independent copy of the tables (OpenBSD's pubeval.c).
    assert RACE_WEIGHTS.sum() == pytest.approx(-31.29905)
    assert abs(RACE_WEIGHTS).sum() == pytest.approx(122.18361)
    assert CONTACT_WEIGHTS.sum() == pytest.approx(-6.72565)
    assert abs(CONTACT_WEIGHTS).sum() == pytest.approx(118.13987)
    with pytest.raises(ValueError):
        RACE_WEIGHTS[0] = 1.0


def test_hand_computed_race_score() -> None:
    # Mover: 3 on the 6-point, 1 on the 1-point, 11 off; opponent: 2 on the
    # mover's 24-point (an opposing point of 2+ is not an input).
    position = Position.from_points({6: 3, 1: 1}, {1: 2})
    assert not position.is_contact()
    x = pubeval_inputs(_board(position))[0]
    # The 6-point is block 24 - 6 = 18 (inputs 90-94), the 1-point block 23.
    assert {int(i): float(x[i]) for i in np.flatnonzero(x)} == {
        92: 1.0,
        93: 1.0,
        116: 1.0,
        121: 11 / 15,
    }
    expected = 5.16874 + 1.50680 - 2.77982 + 11 / 15 * 3.42040
    assert pubeval(position) == pytest.approx(expected)
    assert pubeval(position, race=True) == pytest.approx(expected)


def test_hand_computed_contact_score() -> None:
    # Mover: a blot on the 24-point, 5 on the 8-point, 9 off; opponent: a blot
    # on the mover's 5-point (its own 20-point) and 2 on the bar.
    position = Position.from_points({24: 1, 8: 5}, {20: 1, 25: 2})
    assert position.is_contact()
    x = pubeval_inputs(_board(position))[0]
    assert {int(i): float(x[i]) for i in np.flatnonzero(x)} == {
        1: 1.0,  # own blot on the 24-point (block 0)
        82: 1.0,  # 8-point (block 16): two or more
        84: 1.0,  # ... and (5 - 3) / 2 spares
        95: 1.0,  # opposing blot on the 5-point (block 19)
        120: 1.0,  # 2 opposing checkers on the bar, halved
        121: 9 / 15,
    }
    expected = -0.66937 + 1.83120 + 1.28777 - 0.07276 + 5.62596 + 9 / 15 * -2.75800
    assert pubeval(position) == pytest.approx(expected)


def test_three_and_more_checkers_encoding() -> None:
    position = Position.from_points({6: 3, 5: 4, 4: 7, 3: 1}, {})
    x = pubeval_inputs(_board(position))[0]
    assert list(x[90:95]) == [0, 0, 1, 1, 0]  # 6-point, 3 checkers
    assert list(x[95:100]) == [0, 0, 1, 0, 0.5]  # 5-point, 4
    assert list(x[100:105]) == [0, 0, 1, 0, 2.0]  # 4-point, 7
    assert list(x[105:110]) == [0, 1, 0, 0, 0]  # 3-point, a blot


def test_own_bar_is_not_an_input() -> None:
    on_bar = Position.from_points({25: 1, 13: 2}, {19: 2})
    entered = Position.from_points({13: 2}, {19: 2}, checkers=14)
    assert np.array_equal(
        pubeval_inputs(_board(on_bar))[:, :121], pubeval_inputs(_board(entered))[:, :121]
    )


def test_fast_race_test_agrees_with_position() -> None:
    for position, _ in _sample(500, seed=4):
        race, checkers = _race_and_checkers(_board(position)[0])
        assert race == (not position.is_contact())
        assert checkers == position.checkers


def test_table_lookup_matches_the_inputs() -> None:
    boards = np.stack([_board(p)[0] for p, _ in _sample(400, seed=1)])
    x = pubeval_inputs(boards)
    for race, weights in ((False, CONTACT_WEIGHTS), (True, RACE_WEIGHTS)):
        finished = boards[:, 0] == 15
        expected = np.where(finished, WIN_SCORE, x @ weights)
        np.testing.assert_allclose(score_boards(boards, race), expected, rtol=1e-12, atol=1e-9)


def test_scores_match_gnu_backgammon_pubeval() -> None:
    # gnubg_nn.pub_eval_score takes [mover, opponent] and picks race/contact itself.
    checked = 0
    for position, dice in _sample(600, seed=2):
        for play in position.plays(dice)[:5]:
            after = play.position
            theirs = gnubg_nn.pub_eval_score([list(after.mine), list(after.theirs)])
            if after.winner() is not None:
                assert pubeval(after) == WIN_SCORE
                continue
            assert pubeval(after) == pytest.approx(theirs, abs=1e-4)
            checked += 1
    assert checked > 1500


def test_choices_match_gnu_backgammon_pubeval() -> None:
    # gnubg_nn.pub_best_move takes [opponent, player on roll] and returns
    # 0-based (from, to) pairs, 24 = bar, -1 = off.
    player = PubevalPlayer()
    for position, dice in _sample(500, seed=3):
        mine, theirs = list(position.mine), list(position.theirs)
        moves = gnubg_nn.pub_best_move([theirs, mine], *dice)
        for source, target in zip(moves[::2], moves[1::2], strict=True):
            mine[source] -= 1
            if target >= 0:
                mine[target] += 1
                if theirs[23 - target] == 1:  # a hit (R6)
                    theirs[23 - target] = 0
                    theirs[24] += 1
        chosen = player.choose_play(position, dice).position
        assert (list(chosen.mine), list(chosen.theirs)) == (mine, theirs), (position, dice)


@pytest.mark.parametrize(
    ("dice", "expected"),
    [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 1), "13/7 8/7"), ((5, 3), "8/3 6/3")],
)
def test_opening_plays_make_points(dice: tuple[int, int], expected: str) -> None:
    assert str(PubevalPlayer().choose_play(Position.initial(), dice)) == expected


def test_bears_off_the_last_checkers_when_it_can() -> None:
    # Two checkers left, a roll that bears both off wins (R8, R9).
    position = Position.from_points({2: 1, 1: 1}, {19: 15})
    play = PubevalPlayer().choose_play(position, (2, 1))
    assert play.position.winner() == 0
    hyper = Position.from_points({3: 1, 2: 2}, {19: 1, 20: 1, 21: 1}, checkers=3)
    assert PubevalPlayer().choose_play(hyper, (3, 3)).position.winner() == 0
    assert (
        score_boards(_board(Position.from_points({}, {24: 3}, checkers=3)), True, 3)[0] == WIN_SCORE
    )


def test_hits_a_blot_in_its_home_board() -> None:
    # Contact: hitting the opposing blot on the 5-point (R6) with 8/5* is pubeval's choice
    # over the quiet plays.
    position = Position.from_points({13: 5, 8: 3, 6: 5, 24: 2}, {20: 1, 24: 2, 13: 5, 8: 3, 6: 4})
    play = PubevalPlayer().choose_play(position, (3, 2))
    assert play.hits >= 1, str(play)


def test_race_weights_used_when_no_contact_before_the_move() -> None:
    position = Position.from_points({8: 2, 6: 3}, {1: 5}, checkers=5)
    assert not position.is_contact()
    play = PubevalPlayer().choose_play(position, (2, 1))
    scores = score_boards(
        np.stack([_board(p.position)[0] for p in position.plays((2, 1))]), True, 5
    )
    assert pubeval(play.position, race=True) == scores.max()


def test_beats_random_overwhelmingly() -> None:
    pubeval_player, random_player = PubevalPlayer(), RandomPlayer(seed=1)
    points = []
    for pair in range(50):
        first, second = play_pair(pubeval_player, random_player, seed=1, pair=pair)
        points += [first.points, second.points]
    assert len(points) == 100
    assert sum(points) / len(points) > 0.8


def test_variant_positions_score() -> None:
    for name in ("nackgammon", "hypergammon"):
        start = Position.initial(find_variant(name))
        play = PubevalPlayer().choose_play(start, (3, 1))
        assert play in start.plays((3, 1))
