"""A plain-text board diagram, laid out like GNU Backgammon's terminal board.

Text is what a terminal, a log or a bug report can always show, so the board
is drawn in fixed-width ASCII: points 13-24 along the top and 12-1 along the
bottom, numbered from the player on roll (``X``), whose home board is at the
bottom right; the opponent is ``O`` (R1).  Stacks taller than five show their
count in the fifth row.  The panel on the right gives each side's borne-off
checkers, the cube, the score and who is on roll.

>>> from gammon.position import Position
>>> print(draw(Position.initial()))
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
 Pip count  X: 167  O: 167
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gammon.dice import validate_dice
from gammon.i18n import N_, SOURCE_LANGUAGE, Translator, translator
from gammon.match_id import GameState, MatchIdFields, decode_match_id, encode_match_id

if TYPE_CHECKING:
    # Only for annotations: a position draws itself with this module.
    from gammon.position import Position

__all__ = ["draw"]

_ROWS = 5  # checkers drawn per stack; taller stacks show their count instead
_TOP_POINTS = (13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24)
_BOTTOM_POINTS = (12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
_TOP_EDGE = " +13-14-15-16-17-18------19-20-21-22-23-24-+"
_BOTTOM_EDGE = " +12-11-10--9--8--7-------6--5--4--3--2--1-+"
_BAR_ROW = " |                  |BAR|                  |"
_PANEL_GAP = "     "
#: The note of a resignation offered, by what is given up (a whole sentence each: Finnish
#: inflects what is given up).
_RESIGN_NOTES = {
    1: N_("Resignation offered: a single game"),
    2: N_("Resignation offered: a gammon"),
    3: N_("Resignation offered: a backgammon"),
}


def _cell(count: int, row: int, mark: str) -> str:
    """One point's three characters in one row, ``row`` 0 being the board's edge."""
    if count <= row:
        return "   "
    if row == _ROWS - 1 and count > _ROWS:
        return f"{count:>2} "
    return f" {mark} "


def _row(
    points: Sequence[int],
    position: Position,
    bar: tuple[int, int],
    row: int,
    marks: tuple[str, str],
) -> str:
    """One row of a half board; ``bar`` is (checkers, 0 bottom side or 1 top) on its bar."""
    cells = []
    for point in points:
        count = position.point(point)
        cells.append(_cell(abs(count), row, marks[0] if count > 0 else marks[1]))
    bar_count, bar_side = bar
    bar_cell = _cell(bar_count, row, marks[bar_side])
    return f" |{''.join(cells[:6])}|{bar_cell}|{''.join(cells[6:])}|"


def draw(
    position: Position,
    *,
    match: MatchIdFields | str | None = None,
    dice: Sequence[int] | None = None,
    cube: int | None = 1,
    cube_owner: int | None = None,
    score: tuple[int, int] | None = None,
    match_length: int | None = None,
    names: tuple[str, str] | None = None,
    marks: tuple[str, str] = ("X", "O"),
    on_roll: int = 0,
    lang: str = SOURCE_LANGUAGE,
) -> str:
    """Draw ``position`` as text, its player on roll at the bottom as ``X``.

    The bottom side is always the position's player on roll, whose numbering
    the points follow; ``on_roll=1`` says that the top side is the one on roll
    after all (to keep one player at the bottom all game), which moves the
    turn's note up and writes the Position ID from the top side's view.
    ``marks`` and ``names`` are given bottom side first.

    Without ``match`` the keywords give the game's state: ``dice`` already
    rolled, ``cube`` (``None`` where the game has no cube, as in tavla),
    ``cube_owner`` (0 the bottom side, 1 the top, ``None`` centred),
    ``score`` (bottom side first) and ``match_length`` (0 for money play).
    ``match`` (a GNU Match ID or its decoded fields) adds the Match ID line
    and replaces the cube (unless ``cube`` is ``None``), score and match length
    with its own, and its dice unless ``dice`` is given; its
    ``player_on_roll`` is the side named by ``on_roll``. The labels are in ``lang``
    (the Position and Match IDs keep GNU Backgammon's names, as every language's players
    know them).

    >>> from gammon.position import Position
    >>> board = draw(Position.initial(), match="QYkqASAAIAAA", names=("Ann", "Bob"))
    >>> print("\\n".join(board.splitlines()[:4]))
     Position ID: 4HPwATDgc/ABMA
     Match ID   : QYkqASAAIAAA
     +13-14-15-16-17-18------19-20-21-22-23-24-+     O: Bob
     | X           O    |   | O              X |     2 points
    >>> board.splitlines()[-1]
    ' 9-point match'
    """
    if on_roll not in (0, 1):
        raise ValueError(f"on_roll must be 0 (the bottom side) or 1 (the top), got {on_roll!r}")
    state = _game_state(_Facts(dice, cube, cube_owner, score, match_length), match, on_roll)
    t = translator(lang)
    lines = _id_lines(position, state.match_id, on_roll, t)
    panel = _panel(position, state, names, marks, on_roll, t)
    lines += [
        (f"{text}{_PANEL_GAP}{note}" if note else text).rstrip()
        for text, note in zip(_board(position, marks), panel, strict=True)
    ]
    lines += _footer(position, state, marks, t)
    return "\n".join(lines)


@dataclass
class _Facts:
    """What the diagram says of the game beside the board: the keywords given,
    replaced by a Match ID's fields where one is given."""

    dice: Sequence[int] | None
    cube: int | None
    cube_owner: int | None
    score: tuple[int, int] | None
    match_length: int | None
    match_id: str | None = None
    crawford: bool = False
    double_offered: bool = False
    resignation: int = 0
    over: bool = False


def _from_match(given: _Facts, match: MatchIdFields | str, on_roll: int) -> _Facts:
    """The game's state from a Match ID (or its fields), its player on roll being the
    side ``on_roll`` names; ``given`` keeps its dice if any, and no cube if it has none."""
    fields = decode_match_id(match) if isinstance(match, str) else match
    bottom = fields.player_on_roll if on_roll == 0 else 1 - fields.player_on_roll
    cube, cube_owner = given.cube, given.cube_owner
    if cube is not None:
        cube = fields.cube_value
        cube_owner = None if fields.cube_owner is None else int(fields.cube_owner != bottom)
    dice = given.dice
    if dice is None and fields.dice != (0, 0):
        dice = fields.dice
    return _Facts(
        dice=dice,
        cube=cube,
        cube_owner=cube_owner,
        score=(fields.score[bottom], fields.score[1 - bottom]),
        match_length=fields.match_length,
        match_id=encode_match_id(fields),
        crawford=fields.crawford,
        double_offered=fields.double_offered,
        resignation=fields.resignation,
        over=fields.game_state in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED),
    )


def _game_state(given: _Facts, match: MatchIdFields | str | None, on_roll: int) -> _Facts:
    """The keywords' state, or the Match ID's with them, checked."""
    state = given if match is None else _from_match(given, match, on_roll)
    if state.dice is not None:
        state.dice = validate_dice(state.dice)
    cube_owner = state.cube_owner
    if cube_owner not in (None, 0, 1):
        raise ValueError(f"cube_owner must be 0, 1 or None, got {cube_owner!r}")
    return state


def _id_lines(position: Position, match_id: str | None, on_roll: int, t: Translator) -> list[str]:
    """The Position ID (from the side on roll's view) and the Match ID if any, above the
    board; acey-deucey checkers still to enter have no Position ID."""
    if position.waiting == (0, 0):
        lines = [f" Position ID: {(position.swapped() if on_roll else position).id}"]
    else:
        none = t.gettext("none (acey-deucey checkers still to enter)")
        lines = [f" Position ID: {none}"]
    if match_id is not None:
        lines.append(f" Match ID   : {match_id}")
    return lines


def _panel(
    position: Position,
    state: _Facts,
    names: tuple[str, str] | None,
    marks: tuple[str, str],
    on_roll: int,
    t: Translator,
) -> list[str]:
    """The right-hand panel, one entry per board line from the top edge (0) to the
    bottom edge (12): the top side's facts above the bar, the bottom's below."""
    bottom_mark, top_mark = marks
    if names is None:
        bottom_name, top_name = bottom_mark, top_mark
    else:
        bottom_name, top_name = f"{bottom_mark}: {names[0]}", f"{top_mark}: {names[1]}"
    off = position.off
    waiting = position.waiting
    panel = [""] * 13
    panel[0], panel[12] = top_name, bottom_name
    if state.score is not None:
        score = state.score[::-1]
        panel[1], panel[11] = (t.ngettext("{n} point", "{n} points", s) for s in score)
    panel[2], panel[10] = t.gettext("Off: {n}", n=off[1]), t.gettext("Off: {n}", n=off[0])
    if waiting[1]:
        panel[3] = t.gettext("Waiting: {n}", n=waiting[1])
    if waiting[0]:
        panel[9] = t.gettext("Waiting: {n}", n=waiting[0])
    if state.cube is not None:
        panel[{None: 6, 0: 7, 1: 5}[state.cube_owner]] = t.gettext("Cube: {n}", n=state.cube)
    panel[4 if on_roll else 8] = _turn_note(state, marks[on_roll], t)
    return panel


def _turn_note(state: _Facts, mover: str, t: Translator) -> str:
    """What the side to act (``mover``) is doing, or that the game is over."""
    if state.over:
        return t.gettext("Game over")
    if state.double_offered:
        return t.gettext("{mark} doubles to {value}", mark=mover, value=2 * (state.cube or 1))
    if state.resignation:
        return t.gettext(_RESIGN_NOTES[state.resignation])
    if state.dice is not None:
        die1, die2 = state.dice
        return t.gettext("{mark} rolled {die1}-{die2}", mark=mover, die1=die1, die2=die2)
    return t.gettext("{mark} on roll", mark=mover)


def _board(position: Position, marks: tuple[str, str]) -> list[str]:
    """The board's 13 lines, edge to edge: the top side's half, the bar, the bottom's."""
    bar = position.bar
    board = [_TOP_EDGE]
    board += [_row(_TOP_POINTS, position, (bar[1], 1), row, marks) for row in range(_ROWS)]
    board.append(_BAR_ROW)
    board += [
        _row(_BOTTOM_POINTS, position, (bar[0], 0), row, marks) for row in reversed(range(_ROWS))
    ]
    board.append(_BOTTOM_EDGE)
    return board


def _footer(position: Position, state: _Facts, marks: tuple[str, str], t: Translator) -> list[str]:
    """The lines below the board: the pip counts, then the match's length (and the
    Crawford game) or money play, unless no match length was given."""
    pips = position.pips()
    count = t.gettext("Pip count")
    lines = [f" {count}  {marks[0]}: {pips[0]}  {marks[1]}: {pips[1]}"]
    match_length = state.match_length
    if match_length and state.crawford:
        length_line = t.ngettext(
            "{n}-point match (Crawford game)", "{n}-point match (Crawford game)", match_length
        )
        lines.append(" " + length_line)
    elif match_length:
        # At the start of a line: a context of its own, for the languages that capitalise it
        # there and not inside a sentence (the lobby's "Alice vs Bob, 5-point match").
        length_line = t.npgettext("diagram", "{n}-point match", "{n}-point match", match_length)
        lines.append(" " + length_line)
    elif match_length == 0:
        lines.append(" " + t.gettext("Money game"))
    return lines
