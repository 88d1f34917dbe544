"""The cubeless self-play loop (R3, R9, R14) and the duplicate strength bench."""

from __future__ import annotations

import random

import pytest

from bench.strength import run_match
from gammon.engine.player import RandomPlayer
from gammon.engine.pubeval import PubevalPlayer
from gammon.engine.selfplay import GameResult, opening_roll, play_game
from gammon.errors import IllegalActionError, IllegalPlayError
from gammon.play import Play
from gammon.position import Dice, Position


def play_pair(
    a: PubevalPlayer | RandomPlayer, b: PubevalPlayer | RandomPlayer, seed: int
) -> tuple[int, int]:
    """A's points in two games on the same dice, A first-seated then B."""
    first = play_game(a, b, random.Random(seed))
    second = play_game(b, a, random.Random(seed))
    return first.points, -second.points


def test_opening_roll_is_never_a_double_and_higher_die_moves() -> None:
    # R3: equal dice are rolled again; the higher die plays both numbers.
    rng = random.Random(0)
    for _ in range(500):
        first, (high, low) = opening_roll(rng)
        assert first in (0, 1)
        assert high > low


def test_opening_roll_seats() -> None:
    # Seat A rolls first: the same dice give the first move to the other seat
    # when A's die is the lower one.
    rng = random.Random(0)
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            break
    dice = (max(a, b), min(a, b))
    assert opening_roll(random.Random(0)) == (0 if a > b else 1, dice)


def test_recorded_game_is_a_chain_of_legal_plays() -> None:
    a, b = RandomPlayer(seed=1), RandomPlayer(seed=2)
    result = play_game(a, b, random.Random(3), record=True)
    assert result.turns == len(result.plays) > 0
    assert result.plays[0].start == Position.initial()
    for before, after in zip(result.plays, result.plays[1:], strict=False):
        assert after.start == before.position.swapped()
        assert before.position.winner() is None
    last = result.plays[-1].position
    assert last.winner() == 0
    assert result.value == last.win_value() in (1, 2, 3)  # R9
    # The last play is the winner's: turn i belongs to `first` when i is even.
    assert result.winner == (result.first if (result.turns - 1) % 2 == 0 else 1 - result.first)
    assert result.points == (result.value if result.winner == 0 else -result.value)


def test_same_dice_same_game() -> None:
    one = play_game(PubevalPlayer(), PubevalPlayer(), random.Random(9))
    two = play_game(PubevalPlayer(), PubevalPlayer(), random.Random(9))
    assert one == two


def test_duplicate_pair_cancels_between_equal_players() -> None:
    # The same deterministic player in both seats: the swapped game is the
    # mirror image, so A's two results cancel exactly.
    for seed in range(5):
        first, second = play_pair(PubevalPlayer(), PubevalPlayer(), seed)
        assert first == -second != 0


def test_not_recording_keeps_no_plays() -> None:
    result = play_game(RandomPlayer(seed=1), RandomPlayer(seed=2), random.Random(1))
    assert result.plays == ()
    assert isinstance(result, GameResult)


class _Cheater:
    name = "cheater"

    def choose_play(self, position: Position, dice: Dice) -> Play:
        return Position.initial().plays((6, 5))[0]


def test_a_play_from_elsewhere_is_refused() -> None:
    with pytest.raises(IllegalPlayError, match="cheater"):
        for seed in range(10):
            play_game(_Cheater(), _Cheater(), random.Random(seed))


def test_tavla_caps_wins_at_two() -> None:
    # R14: no backgammon in tavla; a mars (gammon) counts 2.
    values = {
        play_game(
            RandomPlayer(seed=s), RandomPlayer(seed=s + 1), random.Random(s), variant="tavla"
        ).value
        for s in range(30)
    }
    assert max(values) == 2


def test_hypergammon_games_finish() -> None:
    for seed in range(5):
        result = play_game(
            PubevalPlayer(), RandomPlayer(seed=seed), random.Random(seed), variant="hyper"
        )
        assert result.value in (1, 2, 3)


def test_acey_deucey_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="acey-deucey"):
        play_game(
            RandomPlayer(seed=1), RandomPlayer(seed=2), random.Random(1), variant="acey-deucey"
        )


def test_strength_bench_duplicate_statistics() -> None:
    stats = run_match("pubeval", "pubeval", games=20, seed=4)
    assert stats.games == 20
    assert len(stats.pair_points) == 10
    assert stats.ppg == 0 and stats.ci95 == 0
    assert stats.wins == 10
    stats = run_match("pubeval", "random", games=40, seed=4)
    assert stats.games == 40
    assert stats.ppg > 0.8
    assert stats.ppg - stats.ci95 > 0
    assert 0.9 <= stats.wins / stats.games <= 1.0


def test_strength_bench_result_does_not_depend_on_workers() -> None:
    one = run_match("random", "pubeval", games=36, seed=7, workers=1)
    two = run_match("random", "pubeval", games=36, seed=7, workers=2)
    assert one.pair_points == two.pair_points
    assert (one.wins, one.gammons, one.backgammons) == (two.wins, two.gammons, two.backgammons)
