"""The bot player at its skill levels."""

from __future__ import annotations

import random

import pytest

from gammon.engine.bot import SKILL_LEVELS, Bot
from gammon.engine.selfplay import play_game
from gammon.position import Position


@pytest.mark.parametrize("level", list(SKILL_LEVELS))
def test_every_level_plays_legally(level: str) -> None:
    if SKILL_LEVELS[level].ply > 1:
        pytest.skip("2-ply is exercised by the benchmark, not the unit tests")
    bot = Bot(level, seed=3)
    position = Position.initial()
    play = bot.choose_play(position, (6, 2))
    assert play in position.plays((6, 2))


def test_levels_are_reproducible_with_a_seed() -> None:
    first = play_game(Bot("beginner", seed=5), Bot("casual", seed=6), random.Random(1), record=True)
    again = play_game(Bot("beginner", seed=5), Bot("casual", seed=6), random.Random(1), record=True)
    assert [str(p) for p in first.plays] == [str(p) for p in again.plays]


def test_beginner_errs_more_than_expert() -> None:
    """Noise on equities makes the beginner choose other plays than the expert."""
    expert, beginner = Bot("expert"), Bot("beginner", seed=11)
    rng = random.Random(2)
    differ = 0
    position = Position.initial()
    for _ in range(40):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if str(expert.choose_play(position, dice)) != str(beginner.choose_play(position, dice)):
            differ += 1
        position = expert.choose_play(position, dice).position.swapped()
        if position.winner() is not None:
            break
    assert differ >= 3


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown skill level 'godlike'"):
        Bot("godlike")
