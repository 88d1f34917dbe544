"""Move notation both ways: every legal play reads back from what it writes, players'
alternative spellings name the same play, and every illegal play says which rule it
breaks (R4-R8, R14)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import plain_notation
from strategies import VARIANT_NAMES, bearoff_positions, dice, positions

from gammon.errors import GammonError, IllegalPlayError, InvalidPlayError
from gammon.notation import format_moves, format_rows, parse_play
from gammon.play import Move, Play
from gammon.position import ALL_ROLLS, Dice, Position

P = Position.from_points
START = Position.initial()


def named(position: Position, roll: Dice, canonical: str) -> Play:
    """The legal play that writes itself as ``canonical``."""
    matches = [play for play in position.plays(roll) if str(play) == canonical]
    assert len(matches) == 1, (canonical, [str(p) for p in position.plays(roll)])
    return matches[0]


def illegal(position: Position, text: str, roll: Dice) -> str:
    with pytest.raises(IllegalPlayError) as error:
        parse_play(position, text, roll)
    return str(error.value)


def unreadable(text: str, position: Position = START, roll: Dice = (6, 2)) -> str:
    with pytest.raises(InvalidPlayError) as error:
        parse_play(position, text, roll)
    return str(error.value)


# -- writing ------------------------------------------------------------------


def test_format_joins_a_checkers_moves_until_it_hits() -> None:
    # R6: a hit ends the written segment, so the reader knows where it happened.
    assert format_moves((Move(24, 18), Move(18, 13))) == "24/13"
    assert format_moves((Move(13, 7, True), Move(7, 5))) == "13/7* 7/5"
    assert format_moves((Move(25, 22), Move(6, 0))) == "bar/22 6/off"
    assert format_moves(()) == "(no play)"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), dice())
def test_the_compiled_writer_is_the_plain_definition_on_every_play(
    position: Position, roll: Dice
) -> None:
    """The one notation writer (compiled: str(play), format_moves, the server's legal_plays)
    writes what the rules of the notation say, written plainly in tests/reference.py."""
    plays = position.plays(roll)
    for play in plays:
        assert str(play) == plain_notation(play.moves), (repr(position), roll)
        assert format_moves(play.moves) == str(play)


_points = st.integers(0, 25)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.builds(Move, _points, _points, st.booleans()), max_size=4))
def test_any_four_moves_are_written_as_the_plain_definition_says(moves: list[Move]) -> None:
    """Moves no roll gives too (joins, hits, repeats and sorting in every combination)."""
    assert format_moves(moves) == plain_notation(moves)


def test_a_rolls_plays_are_written_in_one_call() -> None:
    plays = START.plays((4, 4))
    rows = b"".join(play.raw_moves for play in plays)
    assert format_rows(rows, len(plays), 4) == [plain_notation(play.moves) for play in plays]
    assert format_rows(b"", 0, 0) == []


# -- round trips --------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_play_of_every_opening_roll_reads_back(variant: str) -> None:
    # R2, R14: every legal play of the 21 rolls from each variant's start.
    start = Position.initial(variant)
    for roll, _ in ALL_ROLLS:
        plays = start.plays(roll)
        for play in plays:
            parsed = parse_play(start, str(play), roll)
            assert parsed == play, (roll, str(play), str(parsed))
            assert parsed in plays


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), dice())
def test_every_play_reads_back_in_positions_from_random_play(
    position: Position, roll: Dice
) -> None:
    # R4-R8 and R14 (acey-deucey entering): whatever the generator finds,
    # its written form names exactly that play.
    for play in position.plays(roll):
        assert parse_play(position, str(play), roll) == play, (repr(position), roll, str(play))


@settings(max_examples=100, deadline=None)
@given(bearoff_positions(), dice())
def test_every_bear_off_play_reads_back(position: Position, roll: Dice) -> None:
    # R8: bear-offs with higher dice, and checkers hit during the bear-off.
    for play in position.plays(roll):
        assert parse_play(position, str(play), roll) == play, (repr(position), roll, str(play))


def _spell_out(play: Play, rng: random.Random) -> str:
    """The play as one segment per die, shuffled, hit marks and separators varied."""
    parts = []
    for move in play.moves:
        source = rng.choice(("bar", "25", "b", "BAR")) if move.source == 25 else str(move.source)
        target = rng.choice(("off", "0", "o", "Off")) if move.target == 0 else str(move.target)
        star = "*" if move.hit and rng.random() < 0.5 else ""
        parts.append(f"{source}{rng.choice('/-')}{target}{star}")
    rng.shuffle(parts)
    return rng.choice((" ", ", ", ",", "  ")).join(parts)


@settings(max_examples=100, deadline=None)
@given(positions(), dice(), st.randoms(use_true_random=False))
def test_plays_spelled_die_by_die_in_any_order_read_back(
    position: Position, roll: Dice, rng: random.Random
) -> None:
    # R4: each die is its own move; the order written does not matter, and a
    # landing on a blot hits whether or not it is marked (R6).
    for play in position.plays(roll):
        if play.is_pass:
            continue
        text = _spell_out(play, rng)
        assert parse_play(position, text, roll) == play, (repr(position), roll, text)


# -- accepted spellings --------------------------------------------------------

BLOT_ON_7 = P({13: 2, 6: 3}, {18: 1, 1: 2})  # the opponent's 18 is our 7
ON_THE_BAR = P({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
BEAR_OFF = P({6: 2, 5: 2, 4: 1}, {24: 2})
CLOSED_BOARD = P({25: 1, 13: 2}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
ACEY = Position.initial("acey-deucey")

SPELLINGS: list[tuple[Position, Dice, str, str]] = [
    # Order, separators, spacing and case (R4: each die is a move of its own).
    (START, (6, 2), "13/11 13/7", "13/11 13/7"),
    (START, (6, 2), "13/7 13/11", "13/11 13/7"),
    (START, (6, 2), "13/7,13/11", "13/11 13/7"),
    (START, (6, 2), "13/7, 13/11", "13/11 13/7"),
    (START, (6, 2), "13-7 13-11", "13/11 13/7"),
    (START, (6, 2), " 13 / 7   13 / 11 ", "13/11 13/7"),
    (START, (6, 2), "13/7(1) 13/11", "13/11 13/7"),
    (START, (3, 1), "8/5 6/5", "8/5 6/5"),
    (START, (3, 1), "6/5, 8/5", "8/5 6/5"),
    # One checker with both dice: the landing named or not (R4).
    (START, (6, 2), "13/5", "13/5"),
    (START, (6, 2), "13/7/5", "13/5"),
    (START, (6, 2), "13/11/5", "13/5"),
    (START, (6, 2), "13/7 7/5", "13/5"),
    (START, (6, 5), "24/13", "24/13"),
    (START, (6, 5), "24/18/13", "24/13"),
    (START, (6, 5), "24/18 18/13", "24/13"),
    # Doubles and repeat counts (R4: doubles are played four times).
    (START, (4, 4), "13/9(2) 6/2(2)", "13/9(2) 6/2(2)"),
    (START, (4, 4), "6/2(2), 13/9(2)", "13/9(2) 6/2(2)"),
    (START, (4, 4), "13/9 13/9 6/2 6/2", "13/9(2) 6/2(2)"),
    (START, (4, 4), "13/9 (2) 6/2 (2)", "13/9(2) 6/2(2)"),
    (START, (4, 4), "24/16(2)", "24/16(2)"),
    (START, (4, 4), "24/20/16(2)", "24/16(2)"),
    # Hits: the mark is optional, and a stated landing on a blot hits (R6).
    (BLOT_ON_7, (6, 2), "13/7* 7/5", "13/7* 7/5"),
    (BLOT_ON_7, (6, 2), "13/7*/5", "13/7* 7/5"),
    (BLOT_ON_7, (6, 2), "13/7/5", "13/7* 7/5"),
    (BLOT_ON_7, (6, 2), "13/11 13/7", "13/11 13/7*"),
    # An unstated route that hits nothing is preferred to one that hits (R6).
    (BLOT_ON_7, (6, 2), "13/5", "13/5"),
    # The bar: bar, b, 25; case does not matter (R7).
    (ON_THE_BAR, (3, 1), "bar/22 6/5", "bar/22 6/5"),
    (ON_THE_BAR, (3, 1), "25/22 6/5", "bar/22 6/5"),
    (ON_THE_BAR, (3, 1), "b/22, 6/5", "bar/22 6/5"),
    (ON_THE_BAR, (3, 1), "6/5 BAR/22", "bar/22 6/5"),
    (ON_THE_BAR, (3, 1), "bar/21", "bar/21"),
    # Bearing off: off, o, 0 (R8), including a higher die from the highest point.
    (BEAR_OFF, (6, 5), "6/off 5/off", "6/off 5/off"),
    (BEAR_OFF, (6, 5), "6/0 5/0", "6/off 5/off"),
    (BEAR_OFF, (6, 5), "5/o 6/o", "6/off 5/off"),
    (BEAR_OFF, (6, 5), "6-OFF, 5-Off", "6/off 5/off"),
    (P({4: 1, 2: 1}, {}), (6, 5), "4/off 2/off", "4/off 2/off"),
    # No move at all, when none is possible (R5, R7).
    (CLOSED_BOARD, (6, 2), "", "(no play)"),
    (CLOSED_BOARD, (6, 2), "pass", "(no play)"),
    (CLOSED_BOARD, (6, 2), " PASS ", "(no play)"),
    (CLOSED_BOARD, (6, 2), "(no play)", "(no play)"),
    # Acey-deucey: bar/22 enters a checker waiting off the board (R14).
    (ACEY, (3, 1), "bar/22 bar/24", "bar/24 bar/22"),
    (ACEY, (3, 1), "25/22, 25/24", "bar/24 bar/22"),
    (ACEY, (3, 1), "bar/21", "bar/21"),
    (ACEY, (3, 1), "b/24/21", "bar/21"),
]


@pytest.mark.parametrize(("position", "roll", "text", "canonical"), SPELLINGS)
def test_accepted_spellings(position: Position, roll: Dice, text: str, canonical: str) -> None:
    assert parse_play(position, text, roll) == named(position, roll, canonical)


def test_parse_returns_the_play_object_from_plays() -> None:
    plays = START.plays((6, 2))
    parsed = START.parse_play("24/18, 13/11", (6, 2))
    assert parsed in plays
    assert parsed.start == START
    assert parsed.dice == (6, 2)


# -- unreadable text -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("13/x", "'x' is not a point"),
        ("13/26", "26 is not a point"),
        ("30/24", "30 is not a point"),
        ("7/13", "7 to 13 moves backwards"),
        ("off/5", "off to 5 moves backwards"),
        ("13/bar", "13 to bar moves backwards"),
        ("13/13", "13 to itself is no move"),
        ("13/7(0)", "the count (0) must be a number from 1 to 4"),
        ("13/7(5)", "the count (5) must be a number from 1 to 4"),
        ("13/7(x)", "the count (x) must be a number"),
        ("13", "a move is written from/to"),
        ("13//7", "a point is missing"),
        ("bar/-1", "-1 is not a point (points are 1-24, 25 the bar and 0 off)"),
        ("13/-7*", "-7 is not a point"),
        ("-3/1", "-3 is not a point"),
        ("24/-18/-12", "-18 is not a point"),
        ("13*/7", "a hit mark * goes after the point landed on"),
        ("*13/7", "'*13' is not a point"),
        ("6/off*", "nothing can be hit off the board"),
        ("13/7)", "brackets only hold a count"),
        ("hello", "a move is written from/to"),
        ("13/hello", "'hello' is not a point"),
    ],
)
def test_unreadable_text_names_the_bad_token(text: str, fragment: str) -> None:
    message = unreadable(text)
    assert fragment in message
    assert repr(text.strip()) in message or repr(text.strip().lower()) in message


def test_negative_point_is_named_not_missing() -> None:
    with pytest.raises(InvalidPlayError) as caught:
        Position.initial().parse_play("bar/-1", (3, 1))
    assert str(caught.value) == (
        "cannot read 'bar/-1': -1 is not a point (points are 1-24, 25 the bar and 0 off)"
    )


def test_unreadable_segment_is_named_among_good_ones() -> None:
    assert "cannot read '24/1x'" in unreadable("13/7 24/1x")


def test_text_must_be_a_string() -> None:
    with pytest.raises(InvalidPlayError):
        parse_play(START, 137, (6, 2))  # type: ignore[arg-type]


# -- illegal plays: each rule -------------------------------------------------------


def test_no_checker_on_the_source() -> None:
    # R4: a player moves their own checkers.
    assert illegal(START, "12/6 13/11", (6, 2)) == "no checker of yours on 12"
    assert illegal(START, "bar/22 13/7", (6, 3)) == "no checker of yours on the bar"
    # The opponent's checkers are not yours either (our 1-point is their 24).
    assert illegal(START, "1/off 13/7", (6, 1)) == "no checker of yours on 1"
    message = illegal(P({8: 1, 13: 2}, {}), "8/5 8/7", (3, 1))
    assert message == "2 checkers move from 8 but you have only 1 there"


def test_a_checker_may_move_on_from_where_another_landed() -> None:
    # R4: 13/7 7/5 is one checker, or two: either way 7 holds a checker of ours.
    assert str(parse_play(START, "13/7 7/5", (6, 2))) == "13/5"


def test_dice_that_cannot_make_the_distance() -> None:
    # R4: each die is a move of that many pips.
    assert illegal(START, "13/9", (6, 2)) == "13/9 needs a 4; the dice are 6-2"
    assert illegal(START, "13/9 24/18", (2, 6)) == "13/9 needs a 4; the dice are 6-2"
    assert illegal(START, "13/3", (6, 2)) == "13/3 needs 10 pips; the dice are 6-2"
    assert illegal(START, "13/7/3", (6, 2)) == "7/3 needs a 4; the dice are 6-2"
    assert illegal(START, "13/7(2)", (6, 2)) == "13/7(2) needs 6+6; the dice are 6-2"
    assert "needs 8 moves of 2; the dice 2-2 give 4" in illegal(START, "8/4(2) 6/2(2)", (2, 2))
    assert "needs at least 3 dice" in illegal(START, "13/11 8/2 6/4", (6, 2))


def test_blocked_landing() -> None:
    # R4: never on a point held by two or more opposing checkers.
    position = P({13: 2, 6: 2}, {18: 3})  # their 18 is our 7
    expected = "point 7 is blocked (3 opposing checkers)"
    assert illegal(position, "13/7 6/4", (6, 2)) == expected
    assert illegal(position, "6/4 13/7", (6, 2)) == expected


def test_blocked_stop_on_the_way() -> None:
    # R4: a combined move must be legal at every landing, even an unwritten one.
    position = P({13: 2, 6: 2}, {18: 3})
    assert illegal(position, "13/7/5", (6, 2)) == "point 7 is blocked (3 opposing checkers)"
    # With both stops blocked, both are named.
    both = P({13: 2, 6: 2}, {18: 3, 14: 2})
    message = illegal(both, "13/5", (6, 2))
    assert "point 7 is blocked (3 opposing checkers)" in message
    assert "point 11 is blocked (2 opposing checkers)" in message
    # With one route open, 13/5 goes that way (R4: 13/11/5 needs only 11 and 5 open).
    assert str(parse_play(position, "13/5", (6, 2))) == "13/5"


def test_blocked_entry() -> None:
    # R7: a checker enters only on a point not held by the opponent.
    message = illegal(CLOSED_BOARD, "bar/22 13/7", (6, 3))
    assert message == "point 22 is blocked (2 opposing checkers)"


def test_must_enter_from_the_bar_first() -> None:
    # R7: everything on the bar enters before any other checker moves.
    two_on_bar = P({25: 2, 13: 3}, {1: 2})
    expected = "must enter from the bar first (2 checkers on the bar)"
    assert illegal(two_on_bar, "13/7 13/11", (6, 2)) == expected
    assert illegal(two_on_bar, "bar/19 13/11", (6, 2)) == expected
    assert "must enter from the bar first (1 checker on the bar)" in illegal(
        CLOSED_BOARD, "13/7 13/11", (6, 2)
    )


def test_acey_deucey_waiting_checkers_need_not_enter_first() -> None:
    # R14: unlike a hit checker (R7), a waiting one may stay off while others move.
    position = P({13: 2}, {}, waiting=(3, 0))
    assert str(parse_play(position, "13/10 bar/24", (3, 1))) == "bar/24 13/10"
    hit = P({25: 1, 13: 2}, {}, waiting=(3, 0))
    assert str(parse_play(hit, "bar/22 bar/24", (3, 1))) == "bar/24 bar/22"


def test_cannot_bear_off_with_checkers_outside() -> None:
    # R8: bear off only with every checker home.
    position = P({13: 1, 6: 2, 5: 2}, {})
    expected = "cannot bear off: checkers still outside the home board (on 13)"
    assert illegal(position, "6/off 5/off", (6, 5)) == expected
    assert illegal(position, "6/off", (6, 5)) == expected
    # The check is made before each die: 13/8 first still leaves one out (on 8).
    assert illegal(position, "13/8 6/off", (6, 5)) == (
        "cannot bear off: checkers still outside the home board (on 8)"
    )
    # Acey-deucey checkers still to enter are not home either (R14).
    waiting = P({6: 2}, {}, waiting=(3, 0))
    assert "3 still to enter" in illegal(waiting, "6/off 6/5", (6, 1))


def test_higher_die_bears_off_only_from_the_highest_point() -> None:
    # R8: a 6 bears off from the 4-point only with the 5 and 6 empty.
    position = P({5: 2, 4: 1}, {})
    expected = "a 6 bears off from 4 only when no checker is on a higher point (5 is occupied)"
    assert illegal(position, "4/off 5/2", (6, 3)) == expected
    assert illegal(position, "4/off", (6, 3)) == expected
    # Dice that fail the same way are named together.
    message = illegal(P({3: 1, 2: 2}, {}), "2/off 2/off", (5, 4))
    assert message == (
        "a 5 or a 4 bears off from 2 only when no checker is on a higher point (3 is occupied)"
    )


def test_bear_off_after_the_last_checker_comes_home() -> None:
    # R8: the check is made before each die, so 8/2 lets the 5 bear off.
    position = P({8: 1, 5: 1}, {})
    assert str(parse_play(position, "8/2 5/off", (6, 5))) == "8/2 5/off"


def test_must_use_both_dice() -> None:
    # R5: 24/18 leaves the 2 unplayable (18/16 and 13/11 are blocked),
    # while 24/22 13/7 uses both.
    position = P({24: 1, 13: 1}, {9: 2, 14: 2})
    assert illegal(position, "24/18", (6, 2)) == "must use both dice: e.g. 24/22 13/7 uses both"


def test_not_the_whole_turn_says_what_is_missing() -> None:
    # R5: both dice must be played when they can be.
    message = illegal(START, "13/7", (6, 2))
    assert message.startswith("13/7 is not the whole turn: must use both dice")
    assert "the 2 is still to play" in message
    # The example completes the text's own move.
    assert "13/7" in message.split("e.g.")[1]


def test_doubles_must_use_as_many_dice_as_possible() -> None:
    # R5: doubles are played four times whenever possible.
    message = illegal(START, "13/9(2)", (4, 4))
    assert "13/9(2) is not the whole turn: must use as many dice as possible (4)" in message
    assert "2 more 4s to play, e.g. 24/20(2) 13/9(2)" in message
    message = illegal(START, "24/20(2) 13/9", (4, 4))
    assert "1 more 4 to play" in message
    # Only three 6s can be played here (R5: as many as legally possible).
    three = P({24: 1, 20: 1}, {7: 2})  # their 7 is our 18: 24/18 is blocked
    message = illegal(three, "20/14", (6, 6))
    assert "must use as many dice as possible (3); 2 more 6s to play" in message


def test_must_play_the_higher_die() -> None:
    # R5: either die alone but not both: the higher one (13/11/5 and 13/7/5 are blocked).
    position = P({13: 1}, {20: 2})
    message = illegal(position, "13/11", (6, 2))
    assert message.startswith("must play the higher die (6)")
    assert "e.g. 13/7" in message
    assert str(parse_play(position, "13/7", (6, 2))) == "13/7"


def test_cannot_pass_when_a_move_exists() -> None:
    # R5: a player may never pass voluntarily.
    for text in ("", "pass", "(no play)"):
        assert illegal(START, text, (6, 2)).startswith("cannot pass while a legal play exists")


def test_passing_text_with_moves_when_none_is_legal() -> None:
    # R7: against a closed board a checker on the bar cannot enter.
    assert illegal(CLOSED_BOARD, "bar/19", (6, 2)) == "point 19 is blocked (2 opposing checkers)"


def test_ambiguous_route() -> None:
    # R6: 13/5 with blots on 7 and 11 hits one of them, the text does not say which.
    position = P({13: 2, 6: 3}, {18: 1, 14: 1, 1: 2})
    message = illegal(position, "13/5", (6, 2))
    assert message.startswith("13/5 is ambiguous: 13/7*/5 and 13/11*/5 hit different blots")
    assert str(parse_play(position, "13/7*/5", (6, 2))) == "13/7* 7/5"
    assert str(parse_play(position, "13/11/5", (6, 2))) == "13/11* 11/5"


def test_hit_mark_without_a_blot() -> None:
    # R6: only a single opposing checker can be hit.
    assert illegal(START, "13/7* 13/11", (6, 2)) == "there is no blot to hit on 7"
    assert illegal(BLOT_ON_7, "13/5*", (6, 2)) == "there is no blot to hit on 5"
    # A blot is hit once: the second checker lands on our own checker.
    message = illegal(BLOT_ON_7, "13/7* 13/7*", (6, 6))
    assert "there is no blot to hit on 7" in message


def test_passing_over_a_blot_does_not_hit() -> None:
    # R6: only landing hits; 13/5 with 6-2 jumps the blot on 9.
    position = P({13: 2, 6: 3}, {16: 1, 1: 2})  # their 16 is our 9
    play = parse_play(position, "13/5", (6, 2))
    assert play.hits == 0


def test_errors_are_value_errors() -> None:
    assert issubclass(InvalidPlayError, ValueError)
    assert issubclass(IllegalPlayError, ValueError)
    with pytest.raises(ValueError):
        parse_play(START, "13/9", (6, 2))
    with pytest.raises(ValueError):
        parse_play(START, "13/x", (6, 2))


# -- robustness and speed ------------------------------------------------------------

NOTATION_ALPHABET = "0123456789/-*(),. bBaArRoOfFpPsS\t"


def _never_crashes(position: Position, text: str, roll: Dice) -> None:
    try:
        play = parse_play(position, text, roll)
    except (InvalidPlayError, IllegalPlayError):
        return
    assert play in position.plays(roll)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), dice())
def test_random_text_raises_only_play_errors(text: str, roll: Dice) -> None:
    _never_crashes(START, text, roll)


@settings(max_examples=400, deadline=None)
@given(positions(max_turns=60), st.text(NOTATION_ALPHABET, max_size=30), dice())
def test_random_notation_like_text_raises_only_play_errors(
    position: Position, text: str, roll: Dice
) -> None:
    _never_crashes(position, text, roll)


@settings(max_examples=200, deadline=None)
@given(
    positions(max_turns=80),
    dice(),
    st.lists(
        st.tuples(st.integers(0, 25), st.integers(0, 25), st.booleans()), min_size=1, max_size=4
    ),
)
def test_random_moves_are_either_a_legal_play_or_illegal(
    position: Position, roll: Dice, segments: list[tuple[int, int, bool]]
) -> None:
    # Any readable text is a legal play or breaks a rule the error names.
    text = " ".join(f"{max(a, b)}/{min(a, b)}{'*' if star else ''}" for a, b, star in segments)
    try:
        play = parse_play(position, text, roll)
    except IllegalPlayError as error:
        assert str(error)
        return
    except InvalidPlayError:
        # Only zero-length moves (13/13), a bar landing or a hit mark off the board.
        assert any(a == b or min(a, b) == 25 or (min(a, b) == 0 and s) for a, b, s in segments)
        return
    assert play in position.plays(roll)


def test_all_play_errors_are_gammon_errors() -> None:
    assert issubclass(InvalidPlayError, GammonError)
    assert issubclass(IllegalPlayError, GammonError)


def test_huge_and_foreign_numbers_are_unreadable() -> None:
    # int() refuses numbers of thousands of digits; the reader must say "not a point".
    assert "is not a point" in unreadable("9" * 5000 + "/1")
    assert "is not a point" in unreadable("13/\u0663")  # an Arabic-Indic 3
    assert str(parse_play(START, "013/007 013/011", (6, 2))) == "13/11 13/7"
