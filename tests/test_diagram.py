"""The text board: exact rows for known positions, and every board drawn reads back."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.diagram import draw
from gammon.errors import InvalidDiceError
from gammon.ids import GameState, MatchIdFields
from gammon.position import Position

TOP_EDGE = " +13-14-15-16-17-18------19-20-21-22-23-24-+"
BOTTOM_EDGE = " +12-11-10--9--8--7-------6--5--4--3--2--1-+"

START = """\
 Position ID: 4HPwATDgc/ABMA
 +13-14-15-16-17-18------19-20-21-22-23-24-+     O
 | X           O    |   | O              X |
 | X           O    |   | O              X |     Off: 0
 | X           O    |   | O                |
 | X                |   | O                |
 | X                |   | O                |
 |                  |BAR|                  |     Cube: 1
 | O                |   | X                |
 | O                |   | X                |     X on roll
 | O           X    |   | X                |
 | O           X    |   | X              O |     Off: 0
 | O           X    |   | X              O |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+     X
 Pip count  X: 167  O: 167"""


def test_starting_position_exact() -> None:
    # R1: X's 24-point is top right, its home board bottom right; R2: 167 pips each.
    assert draw(Position.initial()) == START


def test_str_of_a_position_is_its_diagram() -> None:
    assert str(Position.initial()) == START


def test_starting_position_rows() -> None:
    lines = draw(Position.initial()).splitlines()
    assert lines[1] == TOP_EDGE + "     O"
    assert lines[13] == BOTTOM_EDGE + "     X"
    # R2: the 13-point holds 5 X, the 24-point 2 X; the opponent's 19 (our 6) 5 O.
    assert lines[2] == " | X           O    |   | O              X |"
    assert lines[6] == " | X                |   | O                |"
    assert lines[11] == " | O           X    |   | X              O |     Off: 0"


def bar_and_off_position() -> Position:
    # X: 2 on the bar, 4 on the 6, 3 on the 5, 1 on the 1, 5 borne off.
    # O: 1 on the bar, 2 on its 1 (our 24), 3 on its 22 (our 3), 8 on its 3 (our 22), 1 off.
    return Position.from_points({25: 2, 6: 4, 5: 3, 1: 1}, {25: 1, 1: 2, 22: 3, 3: 8})


def test_bar_and_borne_off_rows() -> None:
    # R7: checkers on the bar sit in the middle column (O above, X below);
    # R8: borne-off checkers are counted in the panel.
    text = draw(
        bar_and_off_position(), dice=(6, 6), cube=4, cube_owner=1, score=(1, 3), match_length=5
    )
    assert text.splitlines() == [
        " Position ID: 8w8AgKNwDwCAAQ",
        TOP_EDGE + "     O",
        " |                  | O |          O     O |     3 points",
        " |                  |   |          O     O |     Off: 1",
        " |                  |   |          O       |",
        " |                  |   |          O       |",
        " |                  |   |          8       |     Cube: 4",
        " |                  |BAR|                  |",
        " |                  |   |                  |",
        " |                  |   | X                |     X rolled 6-6",
        " |                  |   | X  X     O       |",
        " |                  | X | X  X     O       |     Off: 5",
        " |                  | X | X  X     O     X |     1 point",
        BOTTOM_EDGE + "     X",
        " Pip count  X: 90  O: 117",
        " 5-point match",
    ]


def test_tall_stacks_show_their_count() -> None:
    # Twelve X on the bar and seven O on the bar: the fifth row shows the count.
    position = Position.from_points({25: 12, 6: 1}, {25: 7})
    lines = draw(position).splitlines()
    assert lines[6] == " |                  | 7 |                  |"
    assert lines[8] == " |                  |12 |                  |"
    assert lines[12] == " |                  | X | X                |"
    assert lines[3] == " |                  | O |                  |     Off: 8"
    assert lines[11] == " |                  | X |                  |     Off: 2"


def test_cube_sits_with_its_owner() -> None:
    start = Position.initial()
    # R10: centred cube by the bar row; owned cubes on the owner's side.
    assert draw(start).splitlines()[7].endswith("|     Cube: 1")
    assert draw(start, cube=2, cube_owner=0).splitlines()[8].endswith("|     Cube: 2")
    assert draw(start, cube=2, cube_owner=1).splitlines()[6].endswith("|     Cube: 2")
    # R14: tavla has no cube at all.
    assert "Cube" not in draw(start, cube=None)


def test_match_id_line_and_relative_score() -> None:
    # Player 1 is on roll at 2-4 (player 0 has 2), cube 2 owned by player 0.
    fields = MatchIdFields(
        cube_value=2, cube_owner=0, player_on_roll=1, turn=1, dice=(5, 2),
        match_length=9, score=(2, 4), jacoby=True,
    )
    lines = draw(Position.initial(), match=fields, names=("Ann", "Bob")).splitlines()
    assert lines[0] == " Position ID: 4HPwATDgc/ABMA"
    assert lines[1] == " Match ID   : QYkqASAAIAAA"
    assert lines[2] == TOP_EDGE + "     O: Bob"
    assert lines[3].endswith("|     2 points")  # the opponent, player 0
    assert lines[7].endswith("|     Cube: 2")  # owned by the opponent: top side
    assert lines[10].endswith("|     X rolled 5-2")
    assert lines[13].endswith("|     4 points")  # the player on roll
    assert lines[14] == BOTTOM_EDGE + "     X: Ann"
    assert lines[-1] == " 9-point match"
    assert draw(Position.initial(), match="QYkqASAAIAAA", names=("Ann", "Bob")) == "\n".join(
        lines
    )


def test_crawford_money_and_double_notes() -> None:
    crawford = MatchIdFields(match_length=5, score=(4, 2), crawford=True)
    assert draw(Position.initial(), match=crawford).splitlines()[-1] == (
        " 5-point match (Crawford game)"
    )
    money = MatchIdFields(double_offered=True, turn=1)
    lines = draw(Position.initial(), match=money).splitlines()
    assert lines[-1] == " Money game"
    assert lines[10].endswith("|     X doubles to 2")


def test_acey_deucey_waiting_checkers() -> None:
    # R14: acey-deucey checkers start off the board, waiting to enter.
    lines = draw(Position.initial("acey-deucey")).splitlines()
    assert lines[0] == " Position ID: none (acey-deucey checkers still to enter)"
    assert lines[4].endswith("|     Waiting: 15")
    assert lines[10].endswith("|     Waiting: 15")
    assert lines[-1] == " Pip count  X: 375  O: 375"


def _read_back(text: str) -> tuple[dict[int, int], tuple[int, int]]:
    """Point counts (X > 0, O < 0) and bar counts (X, O) as the diagram shows them."""
    lines = text.splitlines()
    top = lines[2:7]
    bottom = lines[8:13][::-1]  # edge first, like the top half
    counts: dict[int, int] = {}
    bars: list[int] = []
    for rows, points in ((top, range(13, 25)), (bottom, range(12, 0, -1))):
        columns = [3 + 3 * i for i in range(6)] + [26 + 3 * i for i in range(6)]
        for point, column in zip(points, columns, strict=True):
            counts[point] = _stack(rows, column)
        bars.append(_stack(rows, 22))
    return counts, (bars[1], bars[0])


def _stack(rows: list[str], column: int) -> int:
    cells = [row[column - 1 : column + 1] for row in rows]
    marks = [c[1] for c in cells if c[1] in "XO"]
    sign = 1 if marks and marks[0] == "X" else -1
    last = cells[-1].strip()
    if last.isdigit():
        return sign * int(last)
    return sign * len(marks)


@st.composite
def positions(draw_: st.DrawFn) -> Position:
    mine = [0] * 25
    theirs = [0] * 25
    # At least one checker of mine stays on: both sides cannot have borne off all (R9).
    for _ in range(draw_(st.integers(1, 15))):
        mine[draw_(st.integers(0, 24))] += 1
    free = [i for i in range(24) if not mine[23 - i]] + [24]
    for _ in range(draw_(st.integers(0, 15))):
        theirs[draw_(st.sampled_from(free))] += 1
    return Position(mine, theirs)


@settings(max_examples=200, deadline=None)
@given(positions())
def test_every_diagram_reads_back(position: Position) -> None:
    # R1: every point shows the checkers on it, numbered from the player on roll.
    text = draw(position)
    lines = text.splitlines()
    assert lines[1].startswith(TOP_EDGE) and lines[13].startswith(BOTTOM_EDGE)
    assert all(len(line) <= 44 or line[44:49] == "     " for line in lines[1:14])
    counts, bars = _read_back(text)
    assert counts == {p: position.point(p) for p in range(1, 25)}
    assert bars == (position.bar[0], -position.bar[1])
    assert f"Off: {position.off[0]}" in lines[11]
    assert f"Off: {position.off[1]}" in lines[3]
    assert lines[-1] == f" Pip count  X: {position.pips()[0]}  O: {position.pips()[1]}"


def test_top_side_on_roll_keeps_the_bottom_view() -> None:
    # The board stays drawn for the bottom side while the top side is on roll:
    # the note moves up, and the Position ID is the top side's (GNU's player on roll).
    start = Position.initial()
    after = next(p for p in start.plays((3, 1)) if str(p) == "8/5 6/5").position
    lines = draw(after, on_roll=1, dice=(6, 4)).splitlines()
    assert lines[0] == f" Position ID: {after.swapped().id}"
    assert lines[5].endswith("|     O rolled 6-4")
    assert lines[9] == " | O                |   | X                |"
    assert lines[11] == " | O           X    |   | X  X           O |     Off: 0"


def test_marks_and_names_follow_the_sides() -> None:
    # Seen from side 1, who plays with O: O at the bottom, X on top.
    lines = draw(Position.initial(), marks=("O", "X"), names=("Bea", "Al")).splitlines()
    assert lines[1] == TOP_EDGE + "     X: Al"
    assert lines[2] == " | O           X    |   | X              O |"
    assert lines[9].endswith("|     O on roll")
    assert lines[13] == BOTTOM_EDGE + "     O: Bea"
    assert lines[-1] == " Pip count  O: 167  X: 167"


def test_game_over_note() -> None:
    over = MatchIdFields(game_state=GameState.OVER, match_length=3, score=(3, 1))
    assert draw(Position.initial(), match=over).splitlines()[10].endswith("|     Game over")


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="on_roll must be 0"):
        draw(Position.initial(), on_roll=2)
    with pytest.raises(ValueError, match="cube_owner must be 0, 1 or None"):
        draw(Position.initial(), cube_owner=3)
    with pytest.raises(InvalidDiceError):
        draw(Position.initial(), dice=(7, 1))
