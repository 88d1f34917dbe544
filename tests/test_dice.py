"""Tests of gammon.dice: what a roll is, and the random and scripted dice sources."""

from __future__ import annotations

import pytest

from gammon.dice import ALL_ROLLS, DiceSource, RandomDice, ScriptedDice, validate_dice
from gammon.errors import IllegalActionError, InvalidDiceError

# ---------------------------------------------------------------------------
# What a roll is
# ---------------------------------------------------------------------------


def test_all_rolls() -> None:
    """R4: 21 distinct rolls, doubles once and the others twice among 36 throws."""
    assert len(ALL_ROLLS) == 21
    assert sum(weight for _, weight in ALL_ROLLS) == 36
    for (high, low), weight in ALL_ROLLS:
        assert 1 <= low <= high <= 6
        assert weight == (1 if high == low else 2)


@pytest.mark.parametrize("roll", [(1, 1), (6, 5), [3, 4], (2, 6)])
def test_validate_dice_accepts(roll: tuple[int, int]) -> None:
    assert validate_dice(roll) == tuple(roll)


@pytest.mark.parametrize(
    ("roll", "message"),
    [
        ((0, 3), "from 1 to 6, got 0"),
        ((3, 7), "from 1 to 6, got 7"),
        ((-1, 2), "got -1"),
        ((1, 2, 3), "two dice, got 3"),
        ((4,), "two dice, got 1"),
        ((), "two dice, got 0"),
        ("34", "got '3'"),
        (("3", "4"), "got '3'"),
        ((3.0, 4), "got 3.0"),
        ((True, 2), "got True"),
        (5, "pair of numbers"),
        (None, "pair of numbers"),
    ],
)
def test_validate_dice_rejects(roll: object, message: str) -> None:
    with pytest.raises(InvalidDiceError, match=message):
        validate_dice(roll)  # type: ignore[arg-type]


def test_random_dice_are_reproducible_from_a_seed() -> None:
    first = RandomDice(seed=42)
    second = RandomDice(seed=42)
    assert [first.roll() for _ in range(50)] == [second.roll() for _ in range(50)]
    assert [RandomDice(1).roll() for _ in range(3)] != [RandomDice(2).roll() for _ in range(3)]


def test_random_dice_throw_every_number_from_one_to_six() -> None:
    dice = RandomDice(seed=0)
    rolls = [dice.roll() for _ in range(600)]
    assert {die for roll in rolls for die in roll} == {1, 2, 3, 4, 5, 6}
    assert all(len(roll) == 2 and all(isinstance(d, int) for d in roll) for roll in rolls)
    # Doubles come about one throw in six.
    doubles = sum(1 for a, b in rolls if a == b)
    assert 60 <= doubles <= 140


def test_scripted_dice_play_back_in_order() -> None:
    dice = ScriptedDice([(3, 1), [6, 6], (2, 5)])
    assert dice.rolls == ((3, 1), (6, 6), (2, 5))
    assert dice.remaining == 3
    assert [dice.roll() for _ in range(3)] == [(3, 1), (6, 6), (2, 5)]
    assert dice.remaining == 0


def test_scripted_dice_say_when_exhausted() -> None:
    dice = ScriptedDice([(4, 2)])
    dice.roll()
    with pytest.raises(IllegalActionError, match="no rolls left"):
        dice.roll()
    assert dice.remaining == 0


@pytest.mark.parametrize("bad", [(0, 3), (7, 1), (1, 2, 3), (1,), ("3", 1), (True, 2)])
def test_scripted_dice_reject_impossible_rolls(bad: tuple[object, ...]) -> None:
    with pytest.raises(InvalidDiceError):
        ScriptedDice([(1, 1), bad])  # type: ignore[list-item]


def test_both_sources_satisfy_the_protocol() -> None:
    assert isinstance(RandomDice(), DiceSource)
    assert isinstance(ScriptedDice([]), DiceSource)
    assert "seed=9" in repr(RandomDice(9))
    assert "remaining=1" in repr(ScriptedDice([(1, 2)]))
