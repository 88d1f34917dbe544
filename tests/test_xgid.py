"""Tests of gammon.xgid: eXtreme Gammon's XGID strings.

The field meanings and orientation follow GNU Backgammon's XGID importer
(``SetXGID`` in set.c and ``PositionFromXG`` in positionid.c); the position
half is cross-checked against GNU Position IDs via gnubg_nn.
"""

from __future__ import annotations

import random
import re

import gnubg_nn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.errors import InvalidIdError, XgidError
from gammon.ids import encode_position_id
from gammon.xgid import BOTTOM, TOP, CubeAction, Xgid, format_xgid, parse_xgid

Board = tuple[tuple[int, ...], tuple[int, ...]]


def side(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    counts[24] = bar
    return tuple(counts)


START = side({6: 5, 8: 3, 13: 5, 24: 2})
EMPTY = side({})
# The starting position as published, e.g. the default position of the bglog
# board editor (Fortuitous/CubeViz, js/bgLog/bglogCore-2010C-JB-CC-svg.js: xgStartPos).
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_starting_position() -> None:
    x = parse_xgid(START_XGID)
    assert x.board == (START, START)
    assert x.player_on_roll == BOTTOM
    assert (x.cube_value, x.cube_owner, x.dice, x.cube_action) == (1, None, (0, 0), "")
    assert (x.score, x.match_length, x.crawford, x.jacoby, x.beaver) == (
        (0, 0),
        0,
        False,
        False,
        False,
    )
    assert x.max_cube == 1024
    assert format_xgid(x) == START_XGID


def test_starting_position_layout() -> None:
    # Each side has two checkers on its own 24-point: the top player's (lowercase)
    # at character 2, the bottom player's (uppercase) at character 25.
    pos = START_XGID[5:31]
    assert pos[1] == "b"  # top's 24-point = bottom's 1-point
    assert pos[24] == "B"  # bottom's 24-point
    assert pos[6] == "E"  # bottom's 6-point
    assert pos[19] == "e"  # top's 6-point = bottom's 19-point


@pytest.mark.parametrize(
    ("mine", "theirs", "on_roll", "position"),
    [
        # One checker on a bar: character 26 is the bottom player's bar,
        # character 1 the top player's.
        (side({}, bar=1), EMPTY, BOTTOM, "-" * 25 + "A"),
        (side({}, bar=1), EMPTY, TOP, "a" + "-" * 25),
        # The roller's ace point: character 2 for the bottom player, 25 for the top.
        (side({1: 2}), EMPTY, BOTTOM, "-B" + "-" * 24),
        (side({1: 2}), EMPTY, TOP, "-" * 24 + "b-"),
        (EMPTY, side({1: 3}), BOTTOM, "-" * 24 + "c-"),
        (side({24: 15}), side({24: 15}), BOTTOM, "-o" + "-" * 22 + "O-"),
    ],
)
def test_orientation(
    mine: tuple[int, ...], theirs: tuple[int, ...], on_roll: int, position: str
) -> None:
    x = Xgid(board=(mine, theirs), player_on_roll=on_roll)
    text = format_xgid(x)
    assert text.split(":")[0] == "XGID=" + position
    assert text.split(":")[3] == ("1" if on_roll == BOTTOM else "-1")
    assert parse_xgid(text) == x


def test_matches_gnu_position_id_after_opening() -> None:
    # The bottom player opens 31 with 8/5 6/5; the top player is then on roll.
    # GNU Backgammon's ID for that position is sGfwATDgc/ABMA (bgweb-api, a Go port
    # of GNU Backgammon, terminal test), so reading the XGID must give the board
    # GNU reads from it: the top player's start as "mine".
    x = parse_xgid("XGID=-b---BD-B---eE---c-e----B-:0:0:-1:00:0:0:0:0:10")
    assert x.player_on_roll == TOP
    mine, theirs = x.board
    assert mine == START
    assert theirs == side({5: 2, 6: 4, 8: 2, 13: 5, 24: 2})
    assert encode_position_id(mine, theirs) == "sGfwATDgc/ABMA"


def test_xg_exported_vector() -> None:
    # XG export (ayanovsk/test_ass22, ilia/IG_test_deck_1.js, "analyzeLevel:
    # XG Roller++"): a cube decision at 2-4 in a 7-point match, top player on roll.
    text = "XGID=-----bFCB---bB---c-ccA-bA-:0:0:-1:00:2:4:0:7:10"
    x = parse_xgid(text)
    assert x.player_on_roll == TOP
    assert x.score == (4, 2)  # (top = on roll, bottom)
    assert x.match_length == 7
    mine, theirs = x.board
    assert sum(mine) == sum(theirs) == 15
    assert mine == side({20: 2, 13: 2, 8: 3, 6: 3, 5: 3, 2: 2})
    assert theirs == side({6: 6, 7: 3, 8: 2, 13: 2, 21: 1, 24: 1})
    assert format_xgid(x) == text


def test_cross_check_with_gnubg_on_random_boards() -> None:
    # XGID -> board -> GNU Position ID must equal gnubg's ID of the board that
    # GNU's PositionFromXG builds (bottom = uppercase in anBoard[1], swapped
    # when the top player is on roll).
    rng = random.Random(7)
    for _ in range(500):
        chars = ["-"] * 26
        bottom_left = 15
        top_left = 15
        for i in rng.sample(range(26), 12):
            if i != 0 and bottom_left and (i == 25 or rng.random() < 0.5):
                n = rng.randint(1, bottom_left)
                bottom_left -= n
                chars[i] = chr(ord("A") + n - 1)
            elif i != 25 and top_left:
                n = rng.randint(1, top_left)
                top_left -= n
                chars[i] = chr(ord("a") + n - 1)
        turn = rng.choice(["1", "-1"])
        text = "".join(chars) + f":0:0:{turn}:00:0:0:0:0:10"
        x = parse_xgid(text)
        # Independent reading of the position, straight from the definition.
        bottom = [0] * 25
        top = [0] * 25
        for i, c in enumerate(chars):
            if c.isupper():
                bottom[i - 1 if i < 25 else 24] = ord(c) - 64
            elif c.islower():
                top[25 - i - 1 if i > 0 else 24] = ord(c) - 96
        gnu_board = [top, bottom] if turn == "1" else [bottom, top]
        mine, theirs = x.board
        assert encode_position_id(mine, theirs) == gnubg_nn.position_id(gnu_board)
        assert format_xgid(x) == "XGID=" + text


def test_prefix_and_whitespace() -> None:
    bare = START_XGID.removeprefix("XGID=")
    assert parse_xgid(bare) == parse_xgid(START_XGID)
    assert parse_xgid("  xgid=" + bare + "\n") == parse_xgid(START_XGID)


def test_dice_and_cube_actions() -> None:
    pos = "-b----E-C---eE---c-e----B-"
    x = parse_xgid(f"{pos}:0:0:1:63:0:0:0:0:10")
    assert (x.dice, x.cube_action) == ((6, 3), CubeAction.NONE)
    assert parse_xgid(f"{pos}:0:0:1:35:0:0:0:0:10").dice == (3, 5)  # order kept
    assert parse_xgid(f"{pos}:0:0:1:35:0:0:0:0:10") != parse_xgid(f"{pos}:0:0:1:53:0:0:0:0:10")
    for marker, action in (
        ("D", CubeAction.DOUBLE),
        ("B", CubeAction.BEAVER),
        ("R", CubeAction.RACCOON),
    ):
        text = f"XGID={pos}:1:1:1:{marker}:0:0:3:0:10"
        x = parse_xgid(text)
        assert x.cube_action is action
        assert x.dice == (0, 0)
        assert x.cube_value == 2
        assert x.cube_owner == 0
        assert format_xgid(x) == text


def test_relative_cube_owner_and_score() -> None:
    pos = "-b----E-C---eE---c-e----B-"
    # Top on roll, top owns a 4-cube, bottom 3 top 1 to 5.
    x = parse_xgid(f"{pos}:2:-1:-1:42:3:1:0:5:10")
    assert (x.player_on_roll, x.cube_value, x.cube_owner, x.score) == (TOP, 4, 0, (1, 3))
    # Bottom on roll, top owns it: the opponent.
    y = parse_xgid(f"{pos}:2:-1:1:42:3:1:0:5:10")
    assert (y.player_on_roll, y.cube_owner, y.score) == (BOTTOM, 1, (3, 1))


def test_rules_field() -> None:
    pos = "-b----E-C---eE---c-e----B-"
    assert parse_xgid(f"{pos}:0:0:1:00:4:2:1:5:10").crawford
    assert not parse_xgid(f"{pos}:0:0:1:00:4:2:0:5:10").crawford
    for rules, jacoby, beaver in (
        (0, False, False),
        (1, True, False),
        (2, False, True),
        (3, True, True),
    ):
        x = parse_xgid(f"{pos}:0:0:1:00:0:0:{rules}:0:10")
        assert (x.jacoby, x.beaver, x.crawford) == (jacoby, beaver, False)


@st.composite
def xgids(draw: st.DrawFn) -> Xgid:
    """Hypothesis strategy for valid Xgid values."""
    mine = [0] * 25
    theirs = [0] * 25
    for _ in range(draw(st.integers(0, 15))):
        mine[draw(st.integers(0, 24))] += 1
    free = [j for j in range(25) if j == 24 or not mine[23 - j]]
    for _ in range(draw(st.integers(0, 15))):
        theirs[draw(st.sampled_from(free))] += 1
    match_length = draw(st.sampled_from([0, 1, 3, 7, 11, 25]))
    if match_length:
        score = (draw(st.integers(0, match_length - 1)), draw(st.integers(0, match_length - 1)))
        crawford = match_length - 1 in score and draw(st.booleans())
        jacoby = beaver = False
    else:
        score = (draw(st.integers(0, 50)), draw(st.integers(0, 50)))
        crawford = False
        jacoby, beaver = draw(st.booleans()), draw(st.booleans())
    actions = [CubeAction.NONE]
    if not crawford:
        actions.append(CubeAction.DOUBLE)
        if not match_length:
            actions += [CubeAction.BEAVER, CubeAction.RACCOON]
    action = draw(st.sampled_from(actions))
    dice = (0, 0)
    if action is CubeAction.NONE and draw(st.booleans()):
        dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    owners: list[int | None] = [None, 0] if action is CubeAction.DOUBLE else [None, 0, 1]
    if crawford:
        owners = [None]  # the Crawford game is played without the cube
    max_exp = draw(st.integers(0, 15))
    return Xgid(
        board=(tuple(mine), tuple(theirs)),
        player_on_roll=draw(st.sampled_from([BOTTOM, TOP])),
        cube_value=1 << (0 if crawford else draw(st.integers(0, max_exp))),
        cube_owner=draw(st.sampled_from(owners)),
        dice=dice,
        cube_action=action,
        score=score,
        match_length=match_length,
        crawford=crawford,
        jacoby=jacoby,
        beaver=beaver,
        max_cube=1 << max_exp,
    )


@given(xgids())
@settings(max_examples=500)
def test_round_trip(x: Xgid) -> None:
    text = format_xgid(x)
    assert parse_xgid(text) == x
    assert format_xgid(parse_xgid(text)) == text
    # The position half agrees with GNU's reading of the same board.
    mine, theirs = x.board
    assert encode_position_id(mine, theirs) == gnubg_nn.position_id([list(theirs), list(mine)])


def test_error_types() -> None:
    assert issubclass(XgidError, InvalidIdError)
    assert issubclass(XgidError, ValueError)


P = "-b----E-C---eE---c-e----B-"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"XGID={P}:0:0:1:00:0:0:0:0", "XGID must have 10 fields separated by ':', got 9"),
        (f"{P}:0:0:1:00:0:0:0:0:10:1", "XGID must have 10 fields separated by ':', got 11"),
        ("", "XGID must have 10 fields separated by ':', got 1"),
        (
            "-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
            "XGID position must be 26 characters, got 25",
        ),
        (
            "-b----E-C---eE---c-e----Bz:0:0:1:00:0:0:0:0:10",
            "XGID position has an invalid character 'z' at position 26 (expected '-', A-P or a-p)",
        ),
        ("-b----E-C---eE---c-e--+-B-:0:0:1:00:0:0:0:0:10", "invalid character '+' at position 23"),
        ("Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "character 1 is the top player's bar"),
        (
            "-b----E-C---eE---c-e----Ba:0:0:1:00:0:0:0:0:10",
            "character 26 is the bottom player's bar",
        ),
        (
            "-b----E-C---eE---c-e----BA:0:0:1:00:0:0:0:0:10",
            "XGID has 16 checkers for the bottom player (at most 15)",
        ),
        ("Pb----------------------B-:0:0:1:00:0:0:0:0:10", "character 1 is the top player's bar"),
        (
            "ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
            "XGID has 16 checkers for the top player (at most 15)",
        ),
        (f"{P}:x:0:1:00:0:0:0:0:10", "XGID cube exponent must be an integer, got 'x'"),
        (f"{P}::0:1:00:0:0:0:0:10", "XGID cube exponent must be an integer, got ''"),
        (f"{P}:16:0:1:00:0:0:0:0:10", "XGID cube exponent must be 0 to 15, got 16"),
        (f"{P}:-1:0:1:00:0:0:0:0:10", "XGID cube exponent must be 0 to 15, got -1"),
        (
            f"{P}:0:2:1:00:0:0:0:0:10",
            "XGID cube owner must be 1 (bottom), 0 (centred) or -1 (top), got 2",
        ),
        (f"{P}:0:0:0:00:0:0:0:0:10", "XGID turn must be 1 (bottom) or -1 (top), got 0"),
        (f"{P}:0:0:+1:00:0:0:0:0:10", "XGID turn must be an integer, got '+1'"),
        (
            f"{P}:0:0:1:07:0:0:0:0:10",
            "XGID dice must be '00', two digits 1-6, 'D', 'B' or 'R', got '07'",
        ),
        (f"{P}:0:0:1:6:0:0:0:0:10", "got '6'"),
        (f"{P}:0:0:1:d:0:0:0:0:10", "got 'd'"),
        (f"{P}:0:0:1:DD:0:0:0:0:10", "got 'DD'"),
        (f"{P}:0:0:1:00:5:0:0:5:10", "XGID score 5 is not below the match length 5"),
        (f"{P}:0:0:1:00:0:-1:0:0:10", "XGID score must not be negative, got -1"),
        (f"{P}:0:0:1:00:0:0:2:5:10", "XGID Crawford field must be 0 or 1 in match play, got 2"),
        (f"{P}:0:0:1:00:0:0:4:0:10", "XGID Jacoby/beaver field must be 0-3 in money play"),
        (f"{P}:0:0:1:00:2:0:1:5:10", "Crawford flag but neither player is 1-away (score 2-0 to 5)"),
        (f"{P}:0:0:1:00:0:0:0:-3:10", "XGID match length must be 0 (money) or more, got -3"),
        (f"{P}:0:0:1:D:4:0:1:5:10", "XGID has a cube action in the Crawford game"),
        (
            f"{P}:1:1:1:00:4:0:1:5:10",
            "XGID has the cube at 2, owned by the player on roll, in the Crawford game; "
            "the Crawford game is played without the cube",
        ),
        (
            f"{P}:1:1:-1:00:4:0:1:5:10",
            "XGID has the cube at 2, owned by the opponent, in the Crawford game",
        ),
        (f"{P}:2:0:1:00:4:0:1:5:10", "XGID has the cube at 4, centred, in the Crawford game"),
        (f"{P}:0:1:1:00:4:0:1:5:10", "XGID has the cube at 1, owned by the player on roll, in"),
        (f"{P}:1:-1:1:D:0:0:0:0:10", "double by the player on roll but the opponent owns the cube"),
        (f"{P}:1:0:1:B:0:0:0:7:10", "XGID has a beaver in match play (money only)"),
        (f"{P}:1:0:1:R:0:0:0:7:10", "XGID has a raccoon in match play (money only)"),
        (f"{P}:4:0:1:00:0:0:0:0:3", "XGID cube value 16 is above the max cube 8"),
        (f"{P}:0:0:1:00:0:0:0:0:16", "XGID max cube exponent must be 0 to 15, got 16"),
        (f"XGID=={P}:0:0:1:00:0:0:0:0:10", "XGID position must be 26 characters, got 27"),
    ],
)
def test_malformed(text: str, message: str) -> None:
    with pytest.raises(XgidError, match=re.escape(message)):
        parse_xgid(text)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"board": ((0,) * 25,)}, "XGID board must be a pair (mine, theirs), got 1 sides"),
        (
            {"board": ((0,) * 24, EMPTY)},
            "XGID board for the player on roll must have 25 entries, got 24",
        ),
        ({"board": (EMPTY, (0,) * 26)}, "XGID board for the opponent must have 25 entries, got 26"),
        ({"board": (side({1: -1}), EMPTY)}, "has -1 checkers at index 0"),
        (
            {"board": (side({1: 16}), EMPTY)},
            "XGID board has 16 checkers for the player on roll (at most 15)",
        ),
        ({"board": ((1.5,) + (0,) * 24, EMPTY)}, "must hold integers, got 1.5 at index 0"),
        (
            {"board": (side({5: 1}), side({20: 1}))},
            "both players on one point (the player on roll's 5-point, the opponent's 20-point)",
        ),
        ({"player_on_roll": 2}, "XGID player on roll must be BOTTOM (0) or TOP (1), got 2"),
        ({"cube_value": 6}, "XGID cube value must be a power of two from 1 to 32768, got 6"),
        ({"max_cube": 0}, "XGID max cube must be a power of two"),
        ({"cube_owner": -1}, "XGID cube owner must be 0 (player on roll), 1 (opponent) or None"),
        ({"dice": (0, 4)}, "XGID dice must be (0, 0) or two numbers 1-6, got (0, 4)"),
        ({"dice": (7, 1)}, "got (7, 1)"),
        ({"dice": (1,)}, "XGID dice must be two numbers"),
        (
            {"dice": (3, 1), "cube_action": "D"},
            "cannot have both dice (31) and a pending cube action (D)",
        ),
        ({"cube_action": "X"}, "XGID cube action must be '', 'D', 'B' or 'R', got 'X'"),
        ({"score": (1, 2, 3)}, "XGID score must be two numbers"),
        ({"crawford": True}, "XGID has the Crawford flag in money play"),
        ({"match_length": 5, "jacoby": True}, "Jacoby and beaver rules apply only to money play"),
        ({"match_length": 5, "beaver": True}, "Jacoby and beaver rules apply only to money play"),
    ],
)
def test_invalid_values(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"board": (START, START)}
    args.update(kwargs)
    with pytest.raises(XgidError, match=re.escape(message)):
        Xgid(**args)  # type: ignore[arg-type]


def test_values_are_normalised() -> None:
    x = Xgid(board=([0] * 25, list(START)), dice=[0, 0], score=[0, 0], cube_action="D")  # type: ignore[arg-type]
    assert x.board == (EMPTY, START)
    assert x.dice == (0, 0)
    assert x.score == (0, 0)
    assert x.cube_action is CubeAction.DOUBLE
    assert hash(x) == hash(parse_xgid(format_xgid(x)))
