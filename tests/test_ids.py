"""Tests of gammon.ids: GNU Backgammon Position IDs and Match IDs.

gnubg_nn (built from GNU Backgammon's C sources) is the oracle for Position IDs;
Match IDs are checked against the examples in the GNU Backgammon manual and
against IDs GNU Backgammon itself printed.
"""

from __future__ import annotations

import base64
import random
import re
from collections.abc import Sequence

import gnubg_nn
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import plain_position_id
from strategies import positions

from gammon.errors import InvalidIdError, MatchIdError, PositionIdError
from gammon.ids import (
    GameState,
    MatchIdFields,
    decode_match_id,
    decode_position_id,
    encode_match_id,
    encode_position_id,
    position_id_of_board,
    position_id_of_valid,
)
from gammon.position import Position

Board = tuple[tuple[int, ...], tuple[int, ...]]


def side(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    """A 25-entry side from {point number: checkers}."""
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    counts[24] = bar
    return tuple(counts)


START = side({6: 5, 8: 3, 13: 5, 24: 2})


def random_board(rng: random.Random) -> Board:
    """A random legal board: up to 15 checkers a side, no point shared."""
    mine = [0] * 25
    theirs = [0] * 25
    for _ in range(rng.randint(0, 15)):
        # Favour a few stacked points, as real positions have.
        mine[rng.choice((rng.randrange(25), rng.randrange(6), 24))] += 1
    free = [j for j in range(25) if j == 24 or not mine[23 - j]]
    for _ in range(rng.randint(0, 15)):
        theirs[rng.choice(free)] += 1
    return tuple(mine), tuple(theirs)


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Hypothesis strategy for legal boards (mine, theirs)."""
    mine = [0] * 25
    theirs = [0] * 25
    for _ in range(draw(st.integers(0, 15))):
        mine[draw(st.integers(0, 24))] += 1
    free = [j for j in range(25) if j == 24 or not mine[23 - j]]
    for _ in range(draw(st.integers(0, 15))):
        theirs[draw(st.sampled_from(free))] += 1
    return tuple(mine), tuple(theirs)


def id_from_bits(bits: Sequence[int], nbytes: int = 10) -> str:
    """Packs a bit string, first bit in the least significant bit, into base64."""
    key = sum(b << i for i, b in enumerate(bits))
    return base64.b64encode(key.to_bytes(nbytes, "little")).decode().rstrip("=")


def gnubg_position_id(mine: Sequence[int], theirs: Sequence[int]) -> str:
    # gnubg_nn's board is [opponent, player on roll].
    return str(gnubg_nn.position_id([list(theirs), list(mine)]))


# ---------------------------------------------------------------------------
# Position ID: known vectors
# ---------------------------------------------------------------------------


def test_starting_position() -> None:
    # GNU Backgammon manual, "A technical description of the Position ID".
    assert encode_position_id(START, START) == "4HPwATDgc/ABMA"
    assert decode_position_id("4HPwATDgc/ABMA") == (START, START)


def test_starting_position_key_bytes() -> None:
    # Same manual section: the 10-byte key is E0 73 F0 01 30 E0 73 F0 01 30.
    key = base64.b64decode(encode_position_id(START, START) + "==")
    assert key == bytes.fromhex("E073F00130E073F00130")


def test_after_opening_31() -> None:
    # bgweb-api (foochu/bgweb-api, a Go port of GNU Backgammon), terminal test:
    # O plays 31 as 8/5 6/5 from the start, then X is on roll with
    # Position ID sGfwATDgc/ABMA. O is the opponent, so it comes first in the key.
    moved = side({5: 2, 6: 4, 8: 2, 13: 5, 24: 2})
    assert encode_position_id(START, moved) == "sGfwATDgc/ABMA"
    assert decode_position_id("sGfwATDgc/ABMA") == (START, moved)
    assert gnubg_position_id(START, moved) == "sGfwATDgc/ABMA"


def test_openai_evals_vector() -> None:
    # openai/evals PR #573 (backgammon evals): "position id is yOeDATDsnIMBMA ...
    # backgammonGPT [on roll] has 2 checkers on the 24 point, 2 on the 13, 3 on the
    # 8, 3 on the 6, 3 on the 4, 2 on the 3. The opponent has 1 checker on the 21
    # point, 5 on the 19, 5 on the 17, 2 on the 12, 2 on the 1" (numbered for the
    # player on roll, so the opponent's own points are 25 minus those).
    mine = side({24: 2, 13: 2, 8: 3, 6: 3, 4: 3, 3: 2})
    theirs = side({25 - 21: 1, 25 - 19: 5, 25 - 17: 5, 25 - 12: 2, 25 - 1: 2})
    assert decode_position_id("yOeDATDsnIMBMA") == (mine, theirs)
    assert encode_position_id(mine, theirs) == "yOeDATDsnIMBMA"


def test_player_on_roll_is_second_in_key() -> None:
    # One checker on the roller's ace point: the opponent's 25 zero bits come first.
    ace = side({1: 1})
    empty = side({})
    assert encode_position_id(ace, empty) == "AAAAAgAAAAAAAA"
    assert encode_position_id(empty, ace) == "AQAAAAAAAAAAAA"
    assert gnubg_position_id(ace, empty) == "AAAAAgAAAAAAAA"


def test_bar_and_borne_off() -> None:
    mine = side({1: 2}, bar=3)
    theirs = side({}, bar=15)
    pid = encode_position_id(mine, theirs)
    assert pid == gnubg_position_id(mine, theirs)
    assert decode_position_id(pid) == (mine, theirs)
    # Everything borne off: 50 zero bits.
    assert encode_position_id([0] * 25, [0] * 25) == "AAAAAAAAAAAAAA"


def test_whitespace_is_ignored() -> None:
    assert decode_position_id("  4HPwATDgc/ABMA\n") == (START, START)


def test_accepts_any_integer_sequence() -> None:
    assert encode_position_id(list(START), list(np.array(START))) == "4HPwATDgc/ABMA"


# ---------------------------------------------------------------------------
# Position ID: differential test and round trips
# ---------------------------------------------------------------------------


def test_matches_gnubg_on_random_boards() -> None:
    rng = random.Random(20240601)
    for _ in range(5000):
        mine, theirs = random_board(rng)
        pid = encode_position_id(mine, theirs)
        assert pid == gnubg_position_id(mine, theirs), (mine, theirs)
        oracle_theirs, oracle_mine = gnubg_nn.board_from_position_id(pid)
        assert decode_position_id(pid) == (tuple(oracle_mine), tuple(oracle_theirs))


@given(boards())
@settings(max_examples=300)
def test_round_trip(board: Board) -> None:
    mine, theirs = board
    pid = encode_position_id(mine, theirs)
    assert len(pid) == 14
    assert decode_position_id(pid) == board
    assert pid == gnubg_position_id(mine, theirs)


@given(st.binary(min_size=10, max_size=10))
def test_any_key_decodes_or_raises(raw: bytes) -> None:
    text = base64.b64encode(raw).decode().rstrip("=")
    try:
        mine, theirs = decode_position_id(text)
    except PositionIdError:
        return
    assert encode_position_id(mine, theirs) == text


# ---------------------------------------------------------------------------
# Position ID: malformed input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4HPwATDgc", "Position ID must be 14 characters, got 9"),
        ("", "Position ID must be 14 characters, got 0"),
        ("4HPwATDgc/ABMAA", "Position ID must be 14 characters, got 15"),
        (
            "Position ID: 4HPwATDgc/ABMA",
            "Position ID must be 14 characters, got 27",
        ),
        (
            "4HPwATDgc/AB!A",
            "Position ID has an invalid character '!' at position 13 "
            "(expected A-Z, a-z, 0-9, + or /)",
        ),
        ("4HPw ATDgc/ABM", "invalid character ' ' at position 5"),
        ("4HPwATDgc-ABMA", "invalid character '-' at position 10"),
        ("4HPwATDgc/ABMB", "cannot end in 'B'"),
        ("4HPwATDgc/ABM/", "must be one of A, Q, g or w"),
        ("/////////////w", "Position ID has too many checkers"),
    ],
)
def test_malformed_text(text: str, message: str) -> None:
    with pytest.raises(PositionIdError, match=re.escape(message)):
        decode_position_id(text)


def test_error_types() -> None:
    assert issubclass(PositionIdError, InvalidIdError)
    assert issubclass(PositionIdError, ValueError)


def test_sixteen_checkers_for_player_on_roll() -> None:
    # Opponent: 25 empty points; player on roll: 16 on the ace point.
    bits = [0] * 25 + [1] * 16 + [0] * 25
    with pytest.raises(
        PositionIdError,
        match=r"^Position ID has 16 checkers for the player on roll \(at most 15\)$",
    ):
        decode_position_id(id_from_bits(bits))


def test_sixteen_checkers_for_opponent() -> None:
    bits = [1] * 16 + [0] * 50
    with pytest.raises(
        PositionIdError, match=r"^Position ID has 16 checkers for the opponent \(at most 15\)$"
    ):
        decode_position_id(id_from_bits(bits))


def test_point_held_by_both() -> None:
    # Opponent on its 20-point, player on roll on its 5-point: the same point.
    theirs = [0] * 19 + [1] + [0] * 5
    mine = [0] * 4 + [1] + [0] * 20
    bits: list[int] = []
    for counts in (theirs, mine):
        for n in counts:
            bits += [1] * n + [0]
    with pytest.raises(
        PositionIdError,
        match=r"both players on one point \(the player on roll's 5-point, "
        r"the opponent's 20-point\)",
    ):
        decode_position_id(id_from_bits(bits))


def test_stray_bits_after_last_point() -> None:
    bits = [0] * 50 + [0, 0, 1]
    with pytest.raises(PositionIdError, match="stray 1 bits after the last point"):
        decode_position_id(id_from_bits(bits))


@pytest.mark.parametrize(
    ("mine", "theirs", "message"),
    [
        ([0] * 24, [0] * 25, "the board for the player on roll must have 25 entries, got 24"),
        ([0] * 25, [0] * 26, "the board for the opponent must have 25 entries, got 26"),
        ([-1] + [0] * 24, [0] * 25, "has -1 checkers at index 0"),
        ([16] + [0] * 24, [0] * 25, r"16 checkers for the player on roll \(at most 15\)"),
        ([0] * 25, [8] * 2 + [0] * 23, r"16 checkers for the opponent \(at most 15\)"),
        ([1] + [0] * 24, [0] * 23 + [1, 0], "both players on one point"),
        ([0.5] + [0] * 24, [0] * 25, "must hold integers, got 0.5 at index 0"),
    ],
)
def test_encode_rejects_bad_boards(
    mine: Sequence[int], theirs: Sequence[int], message: str
) -> None:
    with pytest.raises(PositionIdError, match=message):
        encode_position_id(mine, theirs)


def test_bars_are_not_a_shared_point() -> None:
    both_on_bar = side({}, bar=1)
    pid = encode_position_id(both_on_bar, both_on_bar)
    assert decode_position_id(pid) == (both_on_bar, both_on_bar)


# ---------------------------------------------------------------------------
# Match ID
# ---------------------------------------------------------------------------

# GNU Backgammon manual, "A technical description of the Match ID": "assume the
# score is 2-4 in a 9 point match with player 0 holding a 2-cube, and player 1
# has just rolled 52", key bytes 41 89 2A 01 20 00 20 00 00, Match ID QYkqASAAIAAA.
# The manual predates the Jacoby bit (bit 67, stored inverted), which is 0 there,
# so GNU Backgammon reads that ID as Jacoby on.
MANUAL_FIELDS = MatchIdFields(
    cube_value=2,
    cube_owner=0,
    player_on_roll=1,
    crawford=False,
    game_state=GameState.PLAYING,
    turn=1,
    double_offered=False,
    resignation=0,
    dice=(5, 2),
    match_length=9,
    score=(2, 4),
    jacoby=True,
)


def test_manual_example() -> None:
    assert encode_match_id(MANUAL_FIELDS) == "QYkqASAAIAAA"
    assert decode_match_id("QYkqASAAIAAA") == MANUAL_FIELDS
    assert base64.b64decode("QYkqASAAIAAA") == bytes.fromhex("41892A012000200000")


def test_gnubg_printed_9_point_match() -> None:
    # From a bug-gnubg mailing-list post (2009-07, "Using GNUBg ID"), pasted from
    # GNU Backgammon: "g9vBASSYZ8wBBg:cIkmAQAAAAAA". Decoded by hand from the
    # manual's bit table: 9-point match at 0-0, player 1 to play 51.
    fields = decode_match_id("cIkmAQAAAAAA")
    assert fields == MatchIdFields(
        player_on_roll=1, turn=1, dice=(5, 1), match_length=9, jacoby=True
    )
    assert encode_match_id(fields) == "cIkmAQAAAAAA"


def test_gnubg_text_export_first_move() -> None:
    # GNU Backgammon text export quoted in a third-party test (a "5 point match",
    # "Move number 1: Magic to play 32", Match ID MICpAAAAAAAE): GNU writes game
    # state 0 (no game) in the first move's Match ID, and Jacoby off.
    fields = decode_match_id("MICpAAAAAAAE")
    assert fields == MatchIdFields(
        game_state=GameState.NO_GAME, dice=(3, 2), match_length=5, jacoby=False
    )
    assert encode_match_id(fields) == "MICpAAAAAAAE"


def test_gnubg_set_gnubg_id_turn_left_with_the_other_player() -> None:
    # GNU Backgammon, given "0GfwASHgc/ABMA:MEkAAGAAAAAE" (money play, 6-0, player 1
    # to answer player 0's gammon resignation) by `set gnubgid`, writes back Match ID
    # MAkAAGAAAAAE: the resignation is gone but the turn stays with player 1 while
    # player 0 holds the dice. Decoded by hand from the manual's bit table.
    fields = decode_match_id("MAkAAGAAAAAE")
    assert fields == MatchIdFields(
        player_on_roll=0, turn=1, match_length=0, score=(6, 0), jacoby=False
    )
    assert encode_match_id(fields) == "MAkAAGAAAAAE"
    offered = decode_match_id("MEkAAGAAAAAE")
    assert offered == MatchIdFields(
        player_on_roll=0, turn=1, resignation=2, score=(6, 0), jacoby=False
    )
    assert encode_match_id(offered) == "MEkAAGAAAAAE"


def test_money_game_not_started() -> None:
    # cAgAAAAAAAAA, decoded by hand from the manual's bit table: centred 1-cube,
    # player 1 on roll and to act, no game started, money play, Jacoby bit clear.
    fields = decode_match_id("cAgAAAAAAAAA")
    assert fields == MatchIdFields(
        player_on_roll=1, turn=1, game_state=GameState.NO_GAME, jacoby=True
    )


def test_dice_written_larger_first() -> None:
    low_first = MatchIdFields(dice=(2, 5), match_length=9, score=(2, 4))
    high_first = MatchIdFields(dice=(5, 2), match_length=9, score=(2, 4))
    assert encode_match_id(low_first) == encode_match_id(high_first)
    assert decode_match_id(encode_match_id(low_first)).dice == (5, 2)


def test_decode_accepts_smaller_die_first() -> None:
    # Older GNU versions wrote dice unsorted; GNU still reads them.
    key = int.from_bytes(base64.b64decode("QYkqASAAIAAA"), "little")
    key &= ~((0x3F) << 15)
    key |= 2 << 15 | 5 << 18
    text = base64.b64encode(key.to_bytes(9, "little")).decode()
    assert decode_match_id(text).dice == (2, 5)


def test_jacoby_bit() -> None:
    on = encode_match_id(MatchIdFields(jacoby=True))
    off = encode_match_id(MatchIdFields(jacoby=False))
    assert on != off
    assert int.from_bytes(base64.b64decode(off), "little") >> 66 == 1
    assert int.from_bytes(base64.b64decode(on), "little") >> 66 == 0


def test_cube_fields() -> None:
    for exponent in range(16):
        for owner in (0, 1, None):
            fields = MatchIdFields(cube_value=1 << exponent, cube_owner=owner)
            assert decode_match_id(encode_match_id(fields)) == fields


@st.composite
def match_fields(draw: st.DrawFn) -> MatchIdFields:
    """Hypothesis strategy for consistent Match ID fields (dice larger first)."""
    match_length = draw(st.sampled_from([0, 1, 3, 5, 7, 25, 32767]))
    state = draw(st.sampled_from(GameState))
    finished = state in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)
    if match_length:
        top = 32767 if finished else match_length - 1
        score = (draw(st.integers(0, top)), draw(st.integers(0, match_length - 1)))
        if draw(st.booleans()):
            score = score[::-1]
        crawford = (finished or match_length - 1 in score) and draw(st.booleans())
    else:
        score = (draw(st.integers(0, 32767)), draw(st.integers(0, 32767)))
        crawford = False
    started = state != GameState.NO_GAME
    double = started and not crawford and draw(st.booleans())
    resignation = draw(st.integers(0, 3)) if started else 0
    if double:
        dice = (0, 0)
    else:
        d = sorted((draw(st.integers(1, 6)), draw(st.integers(1, 6))), reverse=True)
        dice = (d[0], d[1]) if draw(st.booleans()) else (0, 0)
    on_roll = draw(st.integers(0, 1))
    return MatchIdFields(
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([0, 1, None])),
        player_on_roll=on_roll,
        crawford=crawford,
        game_state=state,
        # GNU Backgammon may leave the turn with either player, even with nothing pending.
        turn=draw(st.integers(0, 1)),
        double_offered=double,
        resignation=resignation,
        dice=dice,
        match_length=match_length,
        score=score,
        jacoby=draw(st.booleans()),
    )


@given(match_fields())
@settings(max_examples=500)
def test_match_id_round_trip(fields: MatchIdFields) -> None:
    text = encode_match_id(fields)
    assert len(text) == 12
    assert decode_match_id(text) == fields


@given(st.binary(min_size=9, max_size=9))
@settings(max_examples=500)
def test_any_match_key_decodes_or_raises(raw: bytes) -> None:
    text = base64.b64encode(raw).decode()
    try:
        fields = decode_match_id(text)
    except MatchIdError:
        return
    if fields.dice[0] >= fields.dice[1]:
        assert encode_match_id(fields) == text


def _with_bits(base: str, start: int, width: int, value: int) -> str:
    """Base Match ID with one field replaced."""
    key = int.from_bytes(base64.b64decode(base), "little")
    key &= ~(((1 << width) - 1) << start)
    key |= value << start
    return base64.b64encode(key.to_bytes(9, "little")).decode()


def test_turn_bit_read_and_written_back_as_given() -> None:
    # Be liberal in reading, exact in writing: the turn bit flipped on the
    # manual's example reads, and writes back the same Match ID.
    text = _with_bits("QYkqASAAIAAA", 11, 1, 0)
    fields = decode_match_id(text)
    assert (fields.player_on_roll, fields.turn) == (1, 0)
    assert encode_match_id(fields) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("QYkqASAAIAA", "Match ID must be 12 characters, got 11"),
        ("QYkqASAAIAAAA", "Match ID must be 12 characters, got 13"),
        ("QYkqASAAIAA=", r"invalid character '=' at position 12"),
        ("QYkqAS_AIAAA", r"invalid character '_' at position 7"),
        (_with_bits("QYkqASAAIAAA", 67, 5, 1), "1 bits after bit 67"),
        (_with_bits("QYkqASAAIAAA", 4, 2, 2), "cube owner bits are 10"),
        (_with_bits("QYkqASAAIAAA", 8, 3, 5), "game state must be 0-4"),
        (_with_bits("QYkqASAAIAAA", 15, 3, 7), "die must be 0 .* or 1-6, got 7"),
        (_with_bits("QYkqASAAIAAA", 18, 3, 0), "both 0 .* or both rolled, got 5 and 0"),
        (_with_bits("QYkqASAAIAAA", 36, 15, 9), "score 9-4 must stay below the match length 9"),
        (_with_bits("QYkqASAAIAAA", 7, 1, 1), "Crawford flag but neither player is 1-away"),
        (_with_bits("QYkqASAAIAAA", 12, 1, 1), "double offered after the dice were rolled"),
    ],
)
def test_malformed_match_id(text: str, message: str) -> None:
    with pytest.raises(MatchIdError, match=message):
        decode_match_id(text)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cube_value": 3}, "power of two from 1 to 32768, got 3"),
        ({"cube_value": 1 << 16}, "power of two from 1 to 32768, got 65536"),
        ({"cube_value": 0}, "power of two"),
        ({"cube_owner": 2}, "cube owner must be 0, 1 or None"),
        ({"player_on_roll": 2}, "player on roll must be 0 or 1, got 2"),
        ({"turn": -1}, "turn must be 0 or 1, got -1"),
        ({"game_state": 7}, "game state must be 0-4"),
        ({"resignation": 4}, "resignation must be 0"),
        ({"dice": (0, 3)}, "both 0 .* or both rolled, got 0 and 3"),
        ({"dice": (7, 1)}, "got 7"),
        ({"dice": (1, 2, 3)}, "dice must be two numbers"),
        ({"match_length": -1}, "match length must be 0 .* to 32767, got -1"),
        ({"match_length": 1 << 15}, "got 32768"),
        ({"score": (-1, 0)}, "score must be 0 to 32767, got -1"),
        ({"crawford": True}, "Crawford flag in a money game"),
        ({"match_length": 5, "score": (3, 2), "crawford": True}, "neither player is 1-away"),
        ({"match_length": 5, "score": (5, 2)}, "must stay below the match length 5"),
        (
            {"match_length": 5, "score": (5, 6), "game_state": GameState.OVER},
            "both players at or past the match length 5",
        ),
        (
            {"game_state": GameState.NO_GAME, "double_offered": True},
            "double offered but no game started",
        ),
        ({"game_state": GameState.NO_GAME, "resignation": 1}, "resignation offered but no game"),
        ({"double_offered": True, "dice": (3, 1), "turn": 1}, "after the dice were rolled"),
        (
            {"match_length": 5, "score": (4, 2), "crawford": True, "double_offered": True},
            "double offered in the Crawford game",
        ),
    ],
)
def test_invalid_fields(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(MatchIdError, match=message):
        MatchIdFields(**kwargs)  # type: ignore[arg-type]


def test_fields_accept_reasonable_states() -> None:
    # A finished match may overshoot the length (a gammon at 4-4 to 5).
    MatchIdFields(match_length=5, score=(7, 4), game_state=GameState.OVER)
    # A double pending: the opponent is to act.
    MatchIdFields(player_on_roll=0, turn=1, double_offered=True)
    # A resignation pending: the other player is to act.
    MatchIdFields(player_on_roll=0, turn=1, resignation=2, dice=(6, 6))
    # Nothing pending, the turn with the other player: GNU Backgammon writes it too.
    MatchIdFields(player_on_roll=1, turn=0)
    # The only game of a 1-point match is a Crawford game.
    MatchIdFields(match_length=1, crawford=True)
    # Lists are accepted and stored as tuples.
    fields = MatchIdFields(dice=[3, 1], score=[0, 0])  # type: ignore[arg-type]
    assert fields.dice == (3, 1)
    assert fields.score == (0, 0)
    assert isinstance(MatchIdFields(game_state=2).game_state, GameState)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Position ID: the one compiled writer, against the straightforward definition
# ---------------------------------------------------------------------------


@given(boards())
@settings(max_examples=300)
def test_the_compiled_writer_is_the_plain_definition(board: Board) -> None:
    """gammon.ids.put_position_id serves Position.id, encode_position_id and the server's
    compiled ``legal_plays`` writer; here it is the key written bit by bit in Python."""
    mine, theirs = board
    expected = plain_position_id(mine, theirs)
    assert position_id_of_valid(mine, theirs) == expected
    assert encode_position_id(mine, theirs) == expected
    assert position_id_of_board(bytes((0, *mine, 0, 0, *theirs, 0))) == expected


@given(positions(variants=("standard", "nackgammon", "hypergammon")))
@settings(max_examples=200)
def test_a_positions_id_is_the_plain_definition_of_its_board(position: Position) -> None:
    assert position.id == plain_position_id(position.mine, position.theirs)
    assert position.swapped().id == plain_position_id(position.theirs, position.mine)
