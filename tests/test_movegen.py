"""The legal-play generator (R4-R8, R14), proved four ways.

1. Perft-style counts: the number of distinct plays of every roll from each
   variant's start, and a file of fixed vectors (``vectors/plays.json``).
2. Hand-made positions for the tricky rules, each with its exact set of plays
   written out by hand in notation.
3. Differential tests against GNU Backgammon (gnubg_nn) on thousands of
   (position, roll) pairs, and against a small brute-force generator written
   here from the rule book (the only oracle for acey-deucey's waiting checkers).
4. Property tests over positions reached by random play in every variant.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

import gnubg_nn
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import (
    bearoff_positions,
    dice,
    pos,
    positions,
    random_bearoff_position,
    random_game,
)

from gammon.play import Move, Play
from gammon.position import ALL_ROLLS, Dice, Position

VECTORS = Path(__file__).parent / "vectors" / "plays.json"

# A board as the reference generator sees it: the player on roll's 25 counts,
# the opponent's 25 counts (each from its owner's side, index 24 = bar), and
# the player on roll's checkers still waiting to enter (acey-deucey).
State = tuple[tuple[int, ...], tuple[int, ...], int]

WAITING_SOURCE = 26  # the reference generator's name for "not yet entered"


def notations(plays: Iterable[Play]) -> list[str]:
    return sorted(str(play) for play in plays)


def gnubg_results(position: Position, roll: Dice) -> set[tuple[tuple[int, ...], ...]]:
    """The boards GNU Backgammon reaches, as (opponent, player who moved) pairs."""
    board = [list(position.theirs), list(position.mine)]
    keys = gnubg_nn.moves(board, roll[0], roll[1])
    if not keys:  # no legal move: the turn is lost and the board stays (R5, R7)
        return {(position.theirs, position.mine)}
    return {tuple(tuple(side) for side in gnubg_nn.boardfromkey(key)) for key in keys}


def gammon_results(plays: Iterable[Play]) -> set[tuple[tuple[int, ...], ...]]:
    return {(play.position.theirs, play.position.mine) for play in plays}


# ---------------------------------------------------------------------------
# 1. Perft: every roll from each start
# ---------------------------------------------------------------------------

# Distinct legal plays of each roll from the starting position. Computed once
# with gnubg_nn and written here as literals; a few checked by hand:
# - 6-5: 24/13, 24/18 13/8, 24/18 8/3, 13/8 13/7, 13/7 8/3, 13/2, 8/3 8/2 = 7
#   (6/1 and 24/19 land on the opponent's 24- and 6-point).
# - 5-5: only 13/8 and 8/3 are open and 3/off is not allowed; k moves 13/8 and
#   4-k moves 8/3 with 4-k <= 3 + k: k = 1..4, so 4.
# - 6-6: 24/18, 13/7 and 8/2 are open but no checker can move twice (18/12 and
#   7/1 are blocked): a + b + c = 4 with a <= 2, b <= 5, c <= 3 gives 4 + 4 + 3 = 11.
# The opening roll itself is never a double (R3), but the start is still a
# perft position for every roll.
OPENING_PLAYS: dict[str, dict[str, int]] = {
    "standard": {
        "11": 42, "21": 15, "22": 75, "31": 16, "32": 17, "33": 73, "41": 14,
        "42": 18, "43": 17, "44": 52, "51": 8, "52": 8, "53": 9, "54": 9,
        "55": 4, "61": 10, "62": 14, "63": 14, "64": 14, "65": 7, "66": 11,
    },
    # R14: 2 on the 24, 2 on the 23, 4 on the 13, 3 on the 8, 4 on the 6.
    "nackgammon": {
        "11": 70, "21": 23, "22": 103, "31": 22, "32": 27, "33": 101, "41": 15,
        "42": 17, "43": 17, "44": 25, "51": 12, "52": 16, "53": 17, "54": 11,
        "55": 17, "61": 10, "62": 13, "63": 13, "64": 8, "65": 7, "66": 3,
    },
    # R14: one checker each on the 24, 23 and 22.
    "hypergammon": {
        "11": 7, "21": 6, "22": 11, "31": 7, "32": 8, "33": 15, "41": 7,
        "42": 8, "43": 9, "44": 15, "51": 7, "52": 8, "53": 9, "54": 9,
        "55": 15, "61": 7, "62": 8, "63": 9, "64": 9, "65": 9, "66": 12,
    },
}  # fmt: skip

# Tavla starts and moves exactly as standard backgammon (R14 changes only scoring).
OPENING_PLAYS["tavla"] = OPENING_PLAYS["standard"]


@pytest.mark.parametrize("variant", sorted(OPENING_PLAYS))
def test_opening_play_counts(variant: str) -> None:
    """R4-R5, R14: the number of distinct plays of all 21 rolls from the start."""
    start = Position.initial(variant)
    counts = {f"{high}{low}": len(start.plays((high, low))) for (high, low), _ in ALL_ROLLS}
    assert counts == OPENING_PLAYS[variant]


def test_opening_plays_of_six_five_written_out() -> None:
    """R4, R6: the seven plays of 6-5 from the start, as counted by hand above."""
    assert notations(Position.initial().plays((6, 5))) == sorted(
        ["24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/7 8/3", "13/2", "8/3 8/2"]
    )


def test_dice_order_does_not_matter() -> None:
    """R4: 6-5 and 5-6 are the same roll."""
    start = Position.initial()
    for (high, low), _ in ALL_ROLLS:
        assert set(start.plays((high, low))) == set(start.plays((low, high)))


def _vectors() -> list[dict[str, object]]:
    data = json.loads(VECTORS.read_text())
    vectors: list[dict[str, object]] = data["vectors"]
    return vectors


def _vector_position(vector: Mapping[str, object]) -> Position:
    checkers = vector["checkers"]
    assert isinstance(checkers, int)
    if "id" in vector:
        position_id = vector["id"]
        assert isinstance(position_id, str)
        return Position.from_id(position_id, checkers=checkers)
    mine, theirs, waiting = vector["mine"], vector["theirs"], vector["waiting"]
    assert isinstance(mine, list) and isinstance(theirs, list) and isinstance(waiting, list)
    return Position(mine, theirs, waiting=(waiting[0], waiting[1]), checkers=checkers)


def test_fixed_vectors() -> None:
    """R4-R8, R14: perft vectors, each with its count and its plays in notation."""
    vectors = _vectors()
    assert len(vectors) >= 300
    for vector in vectors:
        position = _vector_position(vector)
        roll = vector["dice"]
        assert isinstance(roll, list)
        plays = position.plays((roll[0], roll[1]))
        assert (len(plays), notations(plays)) == (vector["count"], vector["plays"]), vector


def test_fixed_vectors_cover_the_hard_parts() -> None:
    """The vector file holds bar, bear-off, pass, double and acey-deucey cases."""
    vectors = _vectors()
    positions_ = [_vector_position(v) for v in vectors]
    assert sum(p.bar[0] > 0 for p in positions_) >= 20
    assert sum(p.waiting[0] > 0 for p in positions_) >= 20
    assert sum(_all_home(p) for p in positions_) >= 20
    assert sum(v["plays"] == ["(no play)"] for v in vectors) >= 10
    assert sum(v["dice"][0] == v["dice"][1] for v in vectors) >= 20  # type: ignore[index]
    variants = {"standard", "nackgammon", "hypergammon", "tavla", "acey-deucey", "bearoff"}
    assert {v["variant"] for v in vectors} == variants


def _all_home(position: Position) -> bool:
    mine = position.mine
    return not any(mine[6:]) and not position.waiting[0]


# ---------------------------------------------------------------------------
# 2. Hand-made positions for the tricky rules
# ---------------------------------------------------------------------------

# Each case: (position, roll, the exact plays as str(play) writes them). The
# opponent's checkers are given in the numbering of the player on roll (see
# pos()); "(no play)" is the single empty play of a lost turn.
HAND_CASES = [
    # --- R4: a combined move must be legal at every landing -----------------
    # 13/9/7 needs 9 open, 13/11/7 needs 11 open; an open 7 is not enough.
    pytest.param(pos({13: 1}, {9: 2, 11: 2}), (4, 2), ["(no play)"], id="R4-both-stops-blocked"),
    # 9 blocked: the 4-2 can still be played as 13/11/7.
    pytest.param(pos({13: 1}, {9: 2}), (4, 2), ["13/7"], id="R4-via-11"),
    # 11 blocked: the 4-2 can still be played as 13/9/7.
    pytest.param(pos({13: 1}, {11: 2}), (4, 2), ["13/7"], id="R4-via-9"),
    # Both stops blocked, so the 13 cannot move; the 2 is played 3/1 and the 4
    # is lost (3/off is no bear-off: the 13 is not home, R8).
    pytest.param(pos({13: 1, 3: 1}, {9: 2, 11: 2}), (4, 2), ["3/1"], id="R4-R5-only-the-2"),
    # --- R5: forced play ----------------------------------------------------
    # Must use both dice: 3/2 alone would lose the 6, but 20/19/13 uses both.
    pytest.param(pos({20: 1, 3: 1}, {14: 2}), (6, 1), ["20/13"], id="R5-must-use-both"),
    # The 6 cannot be played at all (20/14 blocked, 3/off not allowed) and no 1
    # opens a 6, so the lower die is played, either way.
    pytest.param(
        pos({20: 1, 3: 1}, {14: 2, 13: 2}), (6, 1), ["20/19", "3/2"], id="R5-only-lower-die"
    ),
    # Either die alone (12/6 or 12/7) but not both (the 1-point is held): the
    # higher die must be played.
    pytest.param(pos({12: 1}, {1: 2}), (6, 5), ["12/6"], id="R5-higher-die-rule"),
    # The higher die is blocked (12/6), so the lower one is played (12/7), and
    # then the 6 is blocked again (7/1).
    pytest.param(pos({12: 1}, {6: 2, 1: 2}), (6, 5), ["12/7"], id="R5-higher-die-unplayable"),
    # Entering with the 6 leaves no 1 (19/18 and 8/7 blocked); entering with
    # the 1 lets the 6 play 8/2: both dice must be used, so bar/24 is forced.
    pytest.param(
        pos({25: 1, 8: 1}, {18: 2, 7: 2}), (6, 1), ["bar/24 8/2"], id="R5-R7-enter-with-lower"
    ),
    # Doubles: as many as possible. One of four 3s (10/7 is blocked).
    pytest.param(pos({13: 1}, {7: 2}), (3, 3), ["13/10"], id="R5-double-one-of-four"),
    # Two of four: 7/4 is blocked.
    pytest.param(pos({13: 1}, {4: 2}), (3, 3), ["13/7"], id="R5-double-two-of-four"),
    # Three of four: 4/1 is blocked.
    pytest.param(pos({13: 1}, {1: 2}), (3, 3), ["13/4"], id="R5-double-three-of-four"),
    # Three of four, with a bear-off made legal in the middle of the double
    # (R8: checked before each die): 9/5 and 8/4 bring both home, 4/off
    # follows, and 5/1 is blocked.
    pytest.param(pos({9: 1, 8: 1}, {1: 2}), (4, 4), ["9/5 8/off"], id="R5-R8-double-bears-off"),
    # --- R6: hitting ----------------------------------------------------------
    # The 4-2 can stop on the blot on 9 (hitting it) or pass it by via 11.
    pytest.param(pos({13: 1}, {9: 1}), (4, 2), ["13/7", "13/9* 9/7"], id="R6-hit-on-the-way"),
    # With 11 blocked the only way is through 9, so the blot is hit on the way.
    pytest.param(pos({13: 1}, {9: 1, 11: 2}), (4, 2), ["13/9* 9/7"], id="R6-forced-hit-on-the-way"),
    # Several blots hit in one turn by one checker.
    pytest.param(
        pos({13: 1}, {10: 1, 7: 1, 4: 1}),
        (3, 3),
        ["13/10* 10/7* 7/4* 4/1"],
        id="R6-three-hits",
    ),
    # Two checkers, two blots: both hit (8/5*/3*), one hit either way, or none.
    pytest.param(
        pos({8: 1, 6: 1}, {5: 1, 3: 1}),
        (3, 2),
        ["8/5* 5/3*", "8/5* 6/4", "8/6 6/3*", "6/3* 3/1", "6/1"],
        id="R6-two-blots",
    ),
    # Passing over a blot does not hit it: 13/2 passes the blot on 10.
    pytest.param(pos({13: 1}, {10: 1}), (6, 5), ["13/2"], id="R6-pass-over-blot"),
    # --- R7: entering from the bar -------------------------------------------
    # The bar checker enters first: the 6 cannot enter (19 is held), so it
    # enters with the 5 and the 6 is played by either checker; 13/7 13/8 is not
    # offered.
    pytest.param(
        pos({25: 1, 13: 1}, {19: 2}), (6, 5), ["bar/14", "bar/20 13/7"], id="R7-enter-first"
    ),
    # Two on the bar, only the 5 enters (all but the 20-point held): the second
    # checker cannot enter with the 3, so the 3 is lost and 13/10 is illegal.
    pytest.param(
        pos({25: 2, 13: 3}, {19: 2, 21: 2, 22: 2, 23: 2, 24: 2}),
        (5, 3),
        ["bar/20"],
        id="R7-one-enters-rest-lost",
    ),
    # Closed board: the player dances, whatever the roll.
    pytest.param(
        pos({25: 1, 13: 2}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}),
        (6, 6),
        ["(no play)"],
        id="R7-closed-board-66",
    ),
    pytest.param(
        pos({25: 1, 13: 2}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}),
        (2, 1),
        ["(no play)"],
        id="R7-closed-board-21",
    ),
    # Neither number enters (19 and 20 held): the turn is lost, although 13
    # could move.
    pytest.param(pos({25: 1, 13: 1}, {19: 2, 20: 2}), (6, 5), ["(no play)"], id="R7-dance"),
    # Enter with the 2 (the 4 is held), then the entered checker moves on and
    # hits with the 4, or another checker plays the 4.
    pytest.param(
        pos({25: 1, 6: 2}, {21: 2, 19: 1}),
        (4, 2),
        ["bar/19*", "bar/23 6/2"],
        id="R7-enter-then-hit",
    ),
    # Hit while entering with the 3 and go on with the 1, or enter with the 1
    # and pass the blot with the 3 (no hit), or use the other checker.
    pytest.param(
        pos({25: 1, 6: 1}, {22: 1}),
        (3, 1),
        ["bar/21", "bar/22* 22/21", "bar/24 6/3", "bar/22* 6/5"],
        id="R7-hit-on-entry",
    ),
    # Both enter with a double; the other two 4s are lost (21/17 is blocked).
    pytest.param(pos({25: 2}, {17: 2}), (4, 4), ["bar/21(2)"], id="R7-R5-double-two-enter"),
    # --- R8: bearing off --------------------------------------------------------
    # Exact numbers bear off; or the 3 plays 5/2 and the 5 then bears off the 3
    # (the highest point).
    pytest.param(pos({5: 1, 3: 1}), (5, 3), ["5/off 3/off", "5/2 3/off"], id="R8-exact"),
    # Dice higher than the highest point bear off from the highest point.
    pytest.param(pos({4: 1, 2: 1}), (6, 5), ["4/off 2/off"], id="R8-higher-dice"),
    # The 6 bears off the 4 (highest) and never the 2; the 1 moves inside, and
    # after 4/3 the 6 bears that checker off (written 4/off).
    pytest.param(pos({4: 1, 2: 1}), (6, 1), ["4/off 2/1", "4/off"], id="R8-highest-point-only"),
    # A die larger than the highest point, twice.
    pytest.param(pos({3: 2}), (6, 4), ["3/off(2)"], id="R8-die-larger-than-highest"),
    # The 4-point is empty and the 5 is occupied: the 4 must move 5/1; it may
    # not bear off the 2 (so "5/4 2/off" is not a play).
    pytest.param(pos({5: 1, 2: 1}), (4, 1), ["5/1 2/1", "5/off"], id="R8-move-inside-first"),
    # Bearing off is not forced: the 3 may play 6/3 (then 3/2) instead of 3/off.
    pytest.param(pos({6: 1, 3: 1}), (3, 1), ["6/2", "6/5 3/off"], id="R8-not-forced"),
    # The 2 brings the last checker home, then the 4 bears off; or 8/4/2.
    pytest.param(pos({8: 1, 4: 1}), (4, 2), ["8/6 4/off", "8/2"], id="R8-home-then-off"),
    # A checker hit during the bear-off must enter and come home first: no
    # bear-off this turn (5/2 is a move, 3/off is not allowed).
    pytest.param(
        pos({25: 1, 5: 2, 3: 2}, {10: 2}),
        (6, 3),
        ["bar/16", "bar/19 5/2"],
        id="R8-hit-during-bearoff",
    ),
    # Only three of the four 4s can be played: the last checker is off after
    # 5/1, 2/off (the 4 is above the highest point) and 1/off.
    pytest.param(pos({5: 1, 2: 1}), (4, 4), ["5/off 2/off"], id="R8-game-over-mid-double"),
    # --- R14: acey-deucey waiting checkers (no gnubg oracle) -------------------
    # A waiting checker may enter, or wait while other checkers move.
    pytest.param(
        pos({13: 1}, checkers=2, waiting=(1, 2)),
        (6, 5),
        ["bar/14", "bar/19 13/8", "bar/20 13/7", "13/2"],
        id="R14-acey-enter-or-wait",
    ),
    # A hit checker on the bar enters before anything else: 13/2 (both dice
    # on the 13) is not a play, but entering the waiting checker next is.
    pytest.param(
        pos({25: 1, 13: 1}, checkers=3, waiting=(1, 3)),
        (6, 5),
        ["bar/14", "bar/19 13/8", "bar/20 13/7", "bar/20 bar/19"],
        id="R14-acey-bar-before-waiting",
    ),
    # No bear-off while a checker is still waiting: 3/off is not a play.
    pytest.param(
        pos({3: 1, 2: 1}, checkers=3, waiting=(1, 3)),
        (3, 2),
        ["bar/20", "bar/22 3/1"],
        id="R14-acey-no-bearoff-while-waiting",
    ),
    # The acey-deucey start: every checker waits to enter.
    pytest.param(
        Position.initial("acey-deucey"), (6, 5), ["bar/14", "bar/20 bar/19"], id="R14-acey-start"
    ),
    # --- R14: hypergammon -------------------------------------------------------
    # The start, 6-5: one checker twice (3 ways) or two checkers (6 ways).
    pytest.param(
        Position.initial("hypergammon"),
        (6, 5),
        [
            "24/13", "23/12", "22/11",
            "24/18 23/18", "24/18 22/17", "24/19 23/17",
            "23/17 22/17", "24/19 22/16", "23/18 22/16",
        ],
        id="R14-hyper-start",
    ),
    # Enter with the 4 (the 1 is blocked by the opponent's 1-point), then hit
    # with the 1 or play 2/1; no bear-off with a checker not home.
    pytest.param(
        pos({25: 1, 2: 1, 1: 1}, {24: 2, 20: 1}, checkers=3),
        (4, 1),
        ["bar/20*", "bar/21 2/1"],
        id="R14-hyper-enter-and-hit",
    ),
]


@pytest.mark.parametrize(("position", "roll", "expected"), HAND_CASES)
def test_hand_made_plays(position: Position, roll: Dice, expected: list[str]) -> None:
    """R4-R8, R14: the exact set of plays, written out by hand."""
    plays = position.plays(roll)
    assert notations(plays) == sorted(expected)
    assert all(play.is_pass for play in plays) == (expected == ["(no play)"])
    assert notations(position.plays((roll[1], roll[0]))) == sorted(expected)


# GNU Backgammon has no acey-deucey waiting checkers; every other case is checked.
GNUBG_CASES = [
    case
    for case in HAND_CASES
    if isinstance(start := case.values[0], Position) and start.waiting == (0, 0)
]


@pytest.mark.parametrize(("position", "roll", "expected"), GNUBG_CASES)
def test_hand_made_plays_agree_with_gnubg(
    position: Position, roll: Dice, expected: list[str]
) -> None:
    """The hand-written sets lead to exactly the positions GNU Backgammon finds."""
    plays = position.plays(roll)
    assert len(plays) == len(expected)
    assert gammon_results(plays) == gnubg_results(position, roll)


def test_hand_made_cases_are_enough() -> None:
    assert len(HAND_CASES) >= 30


def test_pass_play() -> None:
    """R5, R7: a lost turn is one empty play that leaves the board as it was."""
    position = pos({25: 1, 13: 2}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2})
    (play,) = position.plays((3, 3))
    assert play.is_pass
    assert play.moves == ()
    assert play.hits == 0
    assert play.position == position
    assert play.start == position
    assert play.dice == (3, 3)


def test_hits_are_counted_and_sent_to_the_bar() -> None:
    """R6: each blot landed on goes to the opponent's bar."""
    position = pos({13: 1}, {10: 1, 7: 1, 4: 1})
    (play,) = position.plays((3, 3))
    assert play.hits == 3
    assert play.position.bar == (0, 3)
    assert play.moves == (Move(13, 10, True), Move(10, 7, True), Move(7, 4, True), Move(4, 1))
    # Passing over does not hit.
    (passing,) = pos({13: 1}, {10: 1}).plays((6, 5))
    assert passing.hits == 0
    assert passing.position.bar == (0, 0)
    assert passing.position.point(10) == -1


# ---------------------------------------------------------------------------
# 3. Differential tests
# ---------------------------------------------------------------------------

# Seeded random games: ~10,000 (position, roll) pairs from the four starts gnubg
# can play, plus 3,000 bear-off positions (some with a checker on the bar or
# the opponent still back).
GNUBG_GAMES = {"standard": 40, "nackgammon": 20, "hypergammon": 100, "tavla": 10}


def _differential_pairs() -> list[tuple[Position, Dice]]:
    rng = random.Random(20240611)
    pairs: list[tuple[Position, Dice]] = []
    for variant, games in GNUBG_GAMES.items():
        for _ in range(games):
            pairs.extend(random_game(variant, rng))
    for _ in range(3000):
        checkers = 15 if rng.random() < 0.8 else 3
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        pairs.append((random_bearoff_position(rng, checkers), roll))
    # Acey-deucey once every checker has entered plays by the standard rules.
    rng_acey = random.Random(7)
    for _ in range(6):
        pairs.extend((p, r) for p, r in random_game("acey-deucey", rng_acey) if p.waiting == (0, 0))
    return pairs


def test_differential_against_gnubg() -> None:
    """R4-R8: the same set of resulting positions as GNU Backgammon, pair by pair."""
    pairs = _differential_pairs()
    assert len(pairs) >= 12000
    kinds: Counter[str] = Counter()
    for position, roll in pairs:
        plays = position.plays(roll)
        ours = gammon_results(plays)
        assert len(ours) == len(plays), (position, roll)
        assert ours == gnubg_results(position, roll), (repr(position), roll)
        if position.bar[0]:
            kinds["bar"] += 1
        if _all_home(position):
            kinds["bearoff"] += 1
        if plays[0].is_pass:
            kinds["pass"] += 1
        if roll[0] == roll[1]:
            kinds["double"] += 1
        if position.checkers == 3:
            kinds["hypergammon"] += 1
    # The sample really covers the hard parts.
    assert min(kinds.values()) >= 100, kinds
    assert len(kinds) == 5


def test_position_ids_agree_with_gnubg() -> None:
    """Position IDs as GNU Backgammon writes them, and back (R1, gammon.ids)."""
    rng = random.Random(99)
    count = 0
    for variant in ("standard", "nackgammon", "hypergammon"):
        for _ in range(3):
            for position, _roll in random_game(variant, rng):
                board = [list(position.theirs), list(position.mine)]
                assert position.id == gnubg_nn.position_id(board)
                assert Position.from_id(position.id, checkers=position.checkers) == position
                decoded = gnubg_nn.board_from_position_id(position.id)
                assert [list(side) for side in decoded] == board
                count += 1
    assert count >= 500


# The reference generator: the rules as plainly as they can be written, one die
# at a time, breadth first. It shares no code with gammon.movegen.


def _step(state: State, source: int, die: int) -> State | None:
    """Move one checker of the player on roll from ``source`` by ``die``, or None if illegal.

    ``source`` is 1-24, 25 for the bar, or WAITING_SOURCE for a checker not yet entered.
    """
    mine, theirs, waiting = list(state[0]), list(state[1]), state[2]
    if source == WAITING_SOURCE:
        if not waiting or mine[24]:  # R14: a hit checker enters before waiting ones
            return None
        waiting -= 1
    else:
        if not mine[source - 1]:
            return None
        if mine[24] and source != 25:  # R7: the bar first
            return None
        mine[source - 1] -= 1
    target = 25 - die if source >= 25 else source - die
    if target >= 1:
        opponent = 24 - target  # my point t is the opponent's point 25 - t
        if theirs[opponent] >= 2:  # R4: a held point
            return None
        if theirs[opponent] == 1:  # R6: a blot is hit
            theirs[opponent] = 0
            theirs[24] += 1
        mine[target - 1] += 1
    else:
        # R8: only with every checker home; a die larger than needed only from
        # the highest point.
        if waiting or mine[24] or any(mine[6:24]):
            return None
        if target < 0 and any(mine[source:6]):
            return None
    return tuple(mine), tuple(theirs), waiting


def _successors(states: set[State], die: int) -> set[State]:
    return {
        after
        for state in states
        for source in range(1, WAITING_SOURCE + 1)
        if (after := _step(state, source, die)) is not None
    }


def reference_plays(position: Position, roll: Dice) -> tuple[set[State], int]:
    """Every resulting board of a legal play and the number of dice each uses (R5)."""
    start: State = (position.mine, position.theirs, position.waiting[0])
    high, low = max(roll), min(roll)
    if high == low:
        levels = [{start}]
        while len(levels) <= 4 and (following := _successors(levels[-1], high)):
            levels.append(following)
        return levels[-1], len(levels) - 1
    high_first = _successors({start}, high)
    low_first = _successors({start}, low)
    both = _successors(high_first, low) | _successors(low_first, high)
    if both:
        return both, 2
    if high_first:  # R5: the higher die when only one can be played
        return high_first, 1
    if low_first:
        return low_first, 1
    return {start}, 0


def _state(position: Position) -> State:
    return position.mine, position.theirs, position.waiting[0]


def _replay(position: Position, moves: Iterable[Move], roll: Dice) -> State:
    """Apply moves one by one with the reference step, checking each is legal."""
    state = _state(position)
    dice_left = list(roll) * (2 if roll[0] == roll[1] else 1)
    for move in moves:
        die = move.source - move.target
        if move.target == 0 and die not in dice_left:
            die = min(d for d in dice_left if d > die)  # a larger die bears off (R8)
        dice_left.remove(die)
        source = move.source
        if source == 25 and not state[0][24]:
            source = WAITING_SOURCE
        after = _step(state, source, die)
        assert after is not None, f"illegal step {move} in {position!r}"
        assert move.hit == (after[1][24] > state[1][24])
        state = after
    return state


def test_reference_generator_matches_hand_cases() -> None:
    """The reference agrees with the hand-made cases, so it can judge the rest."""
    for case in HAND_CASES:
        position, roll, expected = case.values
        assert isinstance(position, Position) and isinstance(expected, list)
        assert isinstance(roll, tuple)
        states, _used = reference_plays(position, roll)
        assert len(states) == len(expected)


def test_differential_against_reference_in_every_variant() -> None:
    """R4-R8, R14: the same positions as the reference, acey-deucey included."""
    rng = random.Random(5)
    checked = Counter[str]()
    for variant in ("acey-deucey", "standard", "hypergammon"):
        for _ in range(4 if variant == "acey-deucey" else 1):
            for position, roll in random_game(variant, rng):
                expected, used = reference_plays(position, roll)
                plays = position.plays(roll)
                assert {_state(p.position) for p in plays} == expected, (repr(position), roll)
                assert all(len(p.moves) == used for p in plays)
                checked[variant] += 1
                if position.waiting[0]:
                    checked["waiting"] += 1
    assert checked["waiting"] >= 300, checked


# ---------------------------------------------------------------------------
# 4. Properties over positions reached by random play
# ---------------------------------------------------------------------------


def _totals(position: Position) -> tuple[int, int]:
    return (
        sum(position.mine) + position.off[0] + position.waiting[0],
        sum(position.theirs) + position.off[1] + position.waiting[1],
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(positions(), bearoff_positions()), dice())
def test_plays_are_exactly_the_legal_ones(position: Position, roll: Dice) -> None:
    """R4-R8, R14: every property a list of plays must have, checked play by play."""
    before = (position.mine, position.theirs, position.waiting, position.off)
    plays = position.plays(roll)
    # plays() never mutates the position.
    assert (position.mine, position.theirs, position.waiting, position.off) == before
    assert plays, "there is always at least the empty play"
    expected, used = reference_plays(position, roll)
    # Brute force: no sequence of legal single moves uses more dice (R5), and
    # the resulting positions are exactly the reference's.
    assert {_state(play.position) for play in plays} == expected
    # One play per distinct resulting position.
    assert len({play.position for play in plays}) == len(plays)
    for play in plays:
        assert play.start == position
        assert play.dice == roll
        assert len(play.moves) == used
        assert play.is_pass == (used == 0)
        # Every checker is still somewhere (R1), on both sides.
        checkers = position.checkers
        assert _totals(play.position) == _totals(position) == (checkers, checkers)
        # The moves, replayed with the reference step (which refuses any landing
        # on two or more opposing checkers, R4), give the play's position.
        assert _replay(position, play.moves, roll) == _state(play.position)
        assert play.hits == sum(move.hit for move in play.moves)
        assert play.position.bar[1] == position.bar[1] + play.hits
        if not play.is_pass:
            assert position.pips()[0] - play.position.pips()[0] <= sum(roll) * (
                2 if roll[0] == roll[1] else 1
            )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_swapped_twice_is_the_same(position: Position) -> None:
    """Seeing the board from the other side and back changes nothing (R1)."""
    swapped = position.swapped()
    assert swapped.swapped() == position
    assert swapped.pips() == position.pips()[::-1]
    assert swapped.bar == position.bar[::-1]
    assert swapped.off == position.off[::-1]
    assert swapped.waiting == position.waiting[::-1]
    assert swapped.checkers == position.checkers
    for point in range(1, 25):
        assert swapped.point(25 - point) == -position.point(point)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(variants=("standard", "nackgammon", "hypergammon", "tavla")))
def test_position_id_round_trip(position: Position) -> None:
    """``Position.from_id(p.id) == p`` wherever a Position ID can say it (R1)."""
    assert Position.from_id(position.id, checkers=position.checkers) == position
    board = [list(position.theirs), list(position.mine)]
    assert position.id == gnubg_nn.position_id(board)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(variants=("acey-deucey",), max_turns=40))
def test_acey_deucey_waiting_checkers(position: Position) -> None:
    """R14: waiting checkers count 25 pips, like the bar, and block every bear-off."""
    assert _totals(position) == (15, 15)
    mine = position.mine
    assert position.pips()[0] == 25 * (mine[24] + position.waiting[0]) + sum(
        point * mine[point - 1] for point in range(1, 25)
    )
    for roll, _ in ALL_ROLLS:
        for play in position.plays(roll):
            if position.waiting[0] or position.bar[0]:
                assert not any(move.is_bear_off for move in play.moves)


@pytest.mark.parametrize(
    ("variant", "pips"),
    [("standard", 167), ("nackgammon", 194), ("hypergammon", 69), ("tavla", 167),
     ("acey-deucey", 375)],
)  # fmt: skip
def test_start_pips(variant: str, pips: int) -> None:
    """R2, R14: 167 for standard and tavla, 2*24 + 2*23 + 4*13 + 3*8 + 4*6 = 194 for
    nackgammon, 24 + 23 + 22 for hypergammon, 15 waiting checkers at 25 for acey-deucey."""
    assert Position.initial(variant).pips() == (pips, pips)
