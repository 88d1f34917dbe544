"""Tests of gammon.position: building, reading and judging a board (R1, R2, R6, R9, R15)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from reference import plain_pips
from strategies import pos, positions

import gammon.dice as dice_module
import gammon.position as position_module
from gammon.dice import ALL_ROLLS
from gammon.errors import InvalidDiceError, InvalidPositionError
from gammon.position import Position

EMPTY = [0] * 25
START = [0] * 25
for _point, _count in ((24, 2), (13, 5), (8, 3), (6, 5)):
    START[_point - 1] = _count

# ---------------------------------------------------------------------------
# Construction and validation
# ---------------------------------------------------------------------------


def test_constructor_and_from_points_agree() -> None:
    """R1, R2: 25 counts a side, each from its owner's side; index 24 is the bar."""
    mine = list(START)
    mine[24] = 1  # one on the bar instead of the 24-point
    mine[23] = 1
    built = Position(mine, START)
    assert built == Position.from_points({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, dict(
        ((24, 2), (13, 5), (8, 3), (6, 5))
    ))
    assert built.mine == tuple(mine)
    assert built.theirs == tuple(START)
    assert built.bar == (1, 0)
    assert built.off == (0, 0)
    assert built.waiting == (0, 0)
    assert built.checkers == 15
    assert Position(START, START) == Position.initial()
    assert hash(Position(START, START)) == hash(Position.initial())


def test_unlisted_checkers_are_borne_off() -> None:
    """R1: checkers not on the board are off for good."""
    position = Position.from_points({6: 2, 25: 1}, {1: 4}, checkers=15)
    assert position.off == (12, 11)
    assert Position.from_points({6: 2}, {}, checkers=3).off == (1, 3)


def test_waiting_checkers() -> None:
    """R14: acey-deucey checkers waiting to enter are neither on the board nor off."""
    position = Position([0] * 25, [0] * 25, waiting=(15, 15))
    assert position == Position.initial("acey-deucey")
    assert position.waiting == (15, 15)
    assert position.off == (0, 0)
    assert position.pips() == (375, 375)
    partly = Position.from_points({13: 2}, {13: 1}, waiting=(10, 14))
    assert partly.off == (3, 0)


@pytest.mark.parametrize(
    ("mine", "theirs", "message"),
    [
        ([0] * 24, EMPTY, "25 counts"),
        (EMPTY, [0] * 26, "25 counts"),
        ([], EMPTY, "got 0"),
        ([-1] + [0] * 24, EMPTY, ">= 0, got -1"),
        (EMPTY, [0] * 24 + [-3], ">= 0, got -3"),
        ([1.5] + [0] * 24, EMPTY, "got 1.5"),
        (["2"] + [0] * 24, EMPTY, "got '2'"),
        ([16] + [0] * 24, EMPTY, "player on roll has 16 checkers"),
        ([8] + [0] * 23 + [8], EMPTY, "player on roll has 16 checkers"),
        (EMPTY, [5] * 4 + [0] * 21, "opponent has 20 checkers"),
        (EMPTY, [0] * 24 + [200], "opponent has 200 checkers"),
    ],
)
def test_constructor_rejects_impossible_sides(
    mine: list[int], theirs: list[int], message: str
) -> None:
    """R1: 25 whole, non-negative counts a side and at most 15 checkers."""
    with pytest.raises(InvalidPositionError, match=message):
        Position(mine, theirs)


def test_too_many_checkers_counts_waiting_and_variant_size() -> None:
    """R1, R14: waiting checkers count, and hypergammon has 3 a side."""
    with pytest.raises(InvalidPositionError, match="16 checkers, more than the 15"):
        Position.from_points({6: 2}, {}, waiting=(14, 0))
    with pytest.raises(InvalidPositionError, match="4 checkers, more than the 3"):
        Position.from_points({}, {6: 4}, checkers=3)
    assert Position.from_points({6: 3}, {6: 3}, checkers=3).off == (0, 0)


@pytest.mark.parametrize("point", [1, 6, 12, 19, 24])
def test_both_sides_on_one_point_is_rejected(point: int) -> None:
    """R1: my point p is the opponent's 25 - p; no point holds both colours."""
    with pytest.raises(InvalidPositionError, match=f"same point \\(point {point} "):
        Position.from_points({point: 1}, {25 - point: 1})
    # Each side's bar is its own: both may have checkers there.
    assert Position.from_points({25: 1}, {25: 1}).bar == (1, 1)


@pytest.mark.parametrize("point", [0, 26, -1, "6", 6.0])
def test_from_points_rejects_unknown_points(point: object) -> None:
    with pytest.raises(InvalidPositionError, match="numbered 1-24 and 25 for the bar"):
        Position.from_points({point: 1}, {})  # type: ignore[dict-item]


@pytest.mark.parametrize("waiting", [(-1, 0), (0, -2), (1,), (1, 2, 3), (True, 0)])
def test_constructor_rejects_bad_waiting(waiting: tuple[int, int]) -> None:
    """R14: waiting counts are two whole numbers >= 0; the error should say so."""
    with pytest.raises(InvalidPositionError, match="waiting"):
        Position(EMPTY, EMPTY, waiting=waiting)


@pytest.mark.parametrize("checkers", [0, 16, 300, True])
def test_constructor_rejects_impossible_checker_totals(checkers: int) -> None:
    """R1: a side has 15 checkers (3 in hypergammon, R14); never 0 or more than 15."""
    with pytest.raises(InvalidPositionError, match="1 to 15 checkers"):
        Position(EMPTY, EMPTY, checkers=checkers)


def test_constructor_rejects_boolean_counts() -> None:
    counts = [0] * 25
    counts[5] = True
    with pytest.raises(InvalidPositionError, match="whole numbers"):
        Position(counts, EMPTY)


def test_both_sides_cannot_have_borne_off_everything() -> None:
    """R9: the game ends when the first side bears off its last checker."""
    with pytest.raises(InvalidPositionError, match="both sides have borne off"):
        Position.from_points({}, {})


# ---------------------------------------------------------------------------
# Reading the board
# ---------------------------------------------------------------------------


def test_point_signs() -> None:
    """R1: point() is numbered by the player on roll; the opponent's count is negative."""
    start = Position.initial()
    expected = {24: 2, 13: 5, 8: 3, 6: 5, 1: -2, 12: -5, 17: -3, 19: -5}
    for point in range(1, 25):
        assert start.point(point) == expected.get(point, 0)
    for bad in (0, 25, -1):
        with pytest.raises(ValueError, match="1-24"):
            start.point(bad)


def test_pips() -> None:
    """R2: sum of point numbers; the bar counts 25, borne-off checkers 0."""
    assert Position.initial().pips() == (167, 167)
    assert pos({6: 2, 1: 1}, {7: 1}).pips() == (13, 18)
    assert pos({25: 1, 24: 1}, {}).pips() == (49, 0)
    assert Position.from_points({}, {25: 2, 1: 1}).pips() == (0, 51)


def test_swapped() -> None:
    """R1: the opponent's view: sides exchanged, each still from its owner's side."""
    position = Position.from_points({25: 1, 13: 2, 3: 1}, {24: 1, 6: 3}, waiting=(0, 0))
    swapped = position.swapped()
    assert swapped.mine == position.theirs
    assert swapped.theirs == position.mine
    assert swapped.bar == (0, 1)
    assert swapped.off == (11, 11)
    assert swapped.pips() == (42, 54)
    assert swapped.point(6) == 3
    assert swapped.point(22) == -1  # my 3-point seen from the other side
    assert swapped.swapped() == position
    assert Position.initial().swapped() == Position.initial()
    acey = Position.from_points({13: 1}, {}, waiting=(2, 5))
    assert acey.swapped().waiting == (5, 2)


@pytest.mark.parametrize(
    ("mine", "theirs", "contact"),
    [
        ({6: 5, 13: 5}, {6: 5, 13: 5}, True),  # the 13s must pass each other
        ({6: 5}, {6: 5}, False),  # a pure race
        ({12: 1}, {12: 1}, False),  # my 12 is past their 12 (my 13): no contact
        ({13: 1}, {13: 1}, True),  # my 13 still has to pass their 13 (my 12)
        ({25: 1}, {1: 1}, True),  # a bar checker enters behind everything
        ({1: 1}, {25: 1}, True),
        ({1: 1}, {1: 1}, False),  # their 1 is my 24: nothing left to pass
    ],
)
def test_is_contact(mine: dict[int, int], theirs: dict[int, int], contact: bool) -> None:
    """R15: whether a checker of one side still has to pass one of the other's."""
    position = Position.from_points(mine, theirs)
    assert position.is_contact() is contact
    assert position.swapped().is_contact() is contact


def test_acey_deucey_start_is_contact() -> None:
    """R14: checkers waiting to enter are behind everything."""
    assert Position.initial("acey-deucey").is_contact()


# ---------------------------------------------------------------------------
# End of the game (R9)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("theirs", "value"),
    [
        ({6: 14}, 1),  # the loser has borne one off: single
        ({19: 1, 6: 13}, 1),  # single even with a checker left in the winner's home
        ({6: 15}, 2),  # none off: gammon
        ({18: 1, 6: 14}, 2),  # their 18 is my 7: outside my home, still a gammon
        ({19: 1, 6: 14}, 3),  # their 19 is my 6: in the winner's home, backgammon
        ({24: 1, 6: 14}, 3),
        ({25: 1, 6: 14}, 3),  # on the bar: backgammon
    ],
)
def test_win_value_when_the_player_on_roll_has_won(theirs: dict[int, int], value: int) -> None:
    """R9: single, gammon or backgammon, by where the loser's checkers stand."""
    position = Position.from_points({}, theirs)
    assert position.winner() == 0
    assert position.win_value() == value
    # The same game seen from the loser.
    assert position.swapped().winner() == 1
    assert position.swapped().win_value() == value


def test_win_value_other_variants() -> None:
    """R9, R14: hypergammon has 3 checkers; waiting acey-deucey checkers count as the bar."""
    assert Position.from_points({}, {6: 3}, checkers=3).win_value() == 2
    assert Position.from_points({}, {6: 2}, checkers=3).win_value() == 1
    assert Position.from_points({}, {1: 3}, checkers=3).win_value() == 2
    assert Position.from_points({}, {21: 1, 6: 2}, checkers=3).win_value() == 3
    assert Position.from_points({}, {6: 14}, waiting=(0, 1)).win_value() == 3


def test_no_winner_while_playing() -> None:
    for position in (Position.initial(), Position.from_points({1: 1}, {1: 1}),
                     Position.initial("acey-deucey")):  # fmt: skip
        assert position.winner() is None
        assert position.win_value() == 0


# ---------------------------------------------------------------------------
# Shots (R6, R15)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mine", "opp", "point", "shots"),
    [
        # A direct 6: eleven 6s, 5-1 and 4-2 (2 each), 3-3 and 2-2 = 17.
        ({13: 1}, {7: 1}, 7, 17),
        ({13: 1}, {7: 1}, None, 17),
        # 7 away: only 6-1, 5-2, 4-3 = 6 (no double makes 7).
        ({13: 1}, {6: 1}, 6, 6),
        # ... and with my 7 and 12 held, 6-1 is gone (13/7 and 13/12 blocked): 4.
        ({13: 1}, {6: 1, 7: 2, 12: 2}, 6, 4),
        # ... with only my 7 held, 6-1 still hits via 12: 6.
        ({13: 1}, {6: 1, 7: 2}, 6, 6),
        # A direct 6 with my 10 and 11 held: 3-3 and 2-2 cannot get there: 15.
        ({13: 1}, {7: 1, 10: 2, 11: 2}, 7, 15),
        # 4 away: eleven 4s, 3-1 (2), 2-2, 1-1 = 15.
        ({13: 1}, {9: 1}, 9, 15),
        # Two blots, 4 and 6 away: any 4 or 6 (20), 5-1, 3-1 (2 each), 3-3,
        # 2-2, 1-1 = 27 rolls hit something.
        ({13: 1}, {9: 1, 7: 1}, None, 27),
        ({13: 1}, {9: 1, 7: 1}, 7, 17),
        ({13: 1}, {9: 1, 7: 1}, 9, 15),
        # From the bar onto my 20 (5 to enter): eleven 5s, 4-1, 3-2 = 15.
        ({25: 1}, {20: 1}, 20, 15),
        # Nothing to hit.
        ({13: 1}, {7: 2}, None, 0),
        # A blot behind me cannot be hit (moves go forward only, R4).
        ({13: 1}, {14: 1}, 14, 0),
    ],
)
def test_shots(mine: dict[int, int], opp: dict[int, int], point: int | None, shots: int) -> None:
    """R6, R15: how many of the 36 rolls let the player on roll hit."""
    position = pos(mine, opp)
    assert position.shots(point) == shots
    assert sum(weight for _, weight in ALL_ROLLS) == 36


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_shots_are_the_plain_definition(position: Position) -> None:
    """Counted from the generator's raw moves, shots are what the plays say: the rolls
    with a play that hits (anywhere, or on each point)."""

    def plain(point: int | None) -> int:
        return sum(
            weight
            for dice, weight in ALL_ROLLS
            if any(
                m.hit and (point is None or m.target == point)
                for play in position.plays(dice)
                for m in play.moves
            )
        )

    assert position.shots() == plain(None)
    for point in range(1, 25):
        if position.theirs[24 - point] == 1:
            assert position.shots(point) == plain(point)


def test_shots_rejects_bad_points() -> None:
    with pytest.raises(ValueError, match="1-24"):
        Position.initial().shots(25)


# ---------------------------------------------------------------------------
# Dice (checked in gammon.dice; a position refuses bad dice the same way)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("roll", [(0, 3), (1, 2, 3), "34", None])
def test_plays_refuses_bad_dice(roll: object) -> None:
    with pytest.raises(InvalidDiceError):
        Position.initial().plays(roll)  # type: ignore[arg-type]
    with pytest.raises(InvalidDiceError):
        Position.initial().parse_play("8/5 6/5", roll)  # type: ignore[arg-type]


def test_dice_names_still_importable_from_position() -> None:
    # They moved to gammon.dice; code that imports them from here keeps working.
    assert position_module.Dice is dice_module.Dice
    assert position_module.validate_dice is dice_module.validate_dice
    assert position_module.ALL_ROLLS is dice_module.ALL_ROLLS


# ---------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_repr_round_trips(position: Position) -> None:
    """repr() is Python that rebuilds the position, in every variant."""
    assert eval(repr(position)) == position


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_value_semantics(position: Position) -> None:
    """Positions are immutable values: equal boards are equal and hash alike."""
    rebuilt = Position(
        position.mine, position.theirs, waiting=position.waiting, checkers=position.checkers
    )
    assert rebuilt == position
    assert hash(rebuilt) == hash(position)
    assert position != position.swapped() or position.mine == position.theirs


# ---------------------------------------------------------------------------
# Closed out on the bar (R7): one test, used by the game and the .mat replay
# ---------------------------------------------------------------------------


def test_closed_out_needs_the_bar_and_all_six_home_points() -> None:
    """R7: a checker on the bar and each of the opponent's six home points held by two or
    more; five points, a blot among them, or nobody on the bar is not closed out."""
    closed = {point: 2 for point in range(1, 7)}
    assert Position.from_points({25: 1}, closed, checkers=12).is_closed_out()
    assert not Position.from_points({13: 1}, closed, checkers=12).is_closed_out()
    assert not Position.from_points({25: 1}, {**closed, 3: 1}, checkers=12).is_closed_out()
    five = {point: 2 for point in range(2, 7)}
    assert not Position.from_points({25: 1}, five, checkers=10).is_closed_out()
    # The opponent's side: the player on roll holding all six points is not closed out.
    assert not Position.from_points({**closed, 25: 1}, {25: 1}, checkers=13).is_closed_out()
    assert Position.from_points({**closed, 25: 1}, {25: 1}, checkers=13).swapped().is_closed_out()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_closed_out_is_what_the_move_generator_finds(position: Position) -> None:
    """Closed out exactly when a checker is on the bar and no roll enters it (R7)."""
    if not position.bar[0]:
        assert not position.is_closed_out()
        return
    enters = any(not position.plays(roll)[0].is_pass for roll, _ in ALL_ROLLS)
    assert position.is_closed_out() == (not enters)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_the_compiled_pip_count_is_the_plain_definition(position: Position) -> None:
    """R2: side_pips (Position.pips, and the server's compiled writers) against the count
    written plainly (tests/reference.py), waiting acey-deucey checkers included."""
    assert position.pips() == plain_pips(position)
    assert position.swapped().pips() == plain_pips(position)[::-1]
