"""The Player protocol and RandomPlayer."""

from __future__ import annotations

from collections import Counter

from gammon.engine.player import Player, RandomPlayer
from gammon.engine.pubeval import PubevalPlayer
from gammon.position import Position


def test_players_satisfy_the_protocol() -> None:
    assert isinstance(RandomPlayer(), Player)
    assert isinstance(PubevalPlayer(), Player)
    assert RandomPlayer().name == "random"
    assert RandomPlayer(name="bozo").name == "bozo"


def test_random_player_returns_a_legal_play() -> None:
    start = Position.initial()
    player = RandomPlayer(seed=3)
    for dice in [(3, 1), (6, 6), (5, 2)]:
        assert player.choose_play(start, dice) in start.plays(dice)


def test_random_player_is_uniform_over_distinct_plays() -> None:
    # 3-1 from the start has 16 distinct plays (R4, R5); each should get ~1/16.
    start = Position.initial()
    plays = start.plays((3, 1))
    player = RandomPlayer(seed=11)
    counts = Counter(str(player.choose_play(start, (3, 1))) for _ in range(3200))
    assert set(counts) == {str(p) for p in plays}
    assert all(120 <= n <= 280 for n in counts.values()), counts


def test_random_player_seed_repeats_choices() -> None:
    start = Position.initial()
    first = [str(RandomPlayer(seed=5).choose_play(start, (4, 2))) for _ in range(1)]
    one, two = RandomPlayer(seed=5), RandomPlayer(seed=5)
    a = [str(one.choose_play(start, (6, 4))) for _ in range(20)]
    b = [str(two.choose_play(start, (6, 4))) for _ in range(20)]
    assert a == b
    assert len(set(a)) > 1
    assert first == [str(RandomPlayer(seed=5).choose_play(start, (4, 2)))]


def test_random_player_passes_when_nothing_can_be_played() -> None:
    # On the bar against a closed board the turn is lost (R7).
    closed = Position.from_points({25: 1, 6: 14}, {p: 2 for p in range(1, 7)})
    play = RandomPlayer(seed=1).choose_play(closed, (6, 6))
    assert play.is_pass
    assert play.position == closed
