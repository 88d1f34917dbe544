"""The nets' inputs: each hand-made input checked on positions worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.engine import _feature_kernels as kernels
from gammon.engine.bearoff import bearoff_index, one_sided_table
from gammon.engine.encoding import (
    CONTACT_INPUTS,
    CONTACT_NAMES,
    INPUT_SIZE,
    RACE_INPUTS,
    RACE_NAMES,
    encode_boards,
    encode_contact,
    encode_race,
    encoder_for,
)
from gammon.engine.evaluator import swap_boards
from gammon.position import Position

_PER_SIDE = kernels.CONTACT_FEATURES


def _board(position: Position) -> np.ndarray:
    return np.frombuffer(position.raw, dtype=np.int8).reshape(1, 54)


def contact(position: Position) -> tuple[dict[str, float], dict[str, float]]:
    """The contact inputs by name: (player on roll's, opponent's)."""
    x = encode_contact(_board(position))[0, INPUT_SIZE:]
    mine = {name: float(x[i]) for i, name in enumerate(CONTACT_NAMES)}
    theirs = {name: float(x[_PER_SIDE + i]) for i, name in enumerate(CONTACT_NAMES)}
    return mine, theirs


def race(position: Position) -> tuple[dict[str, float], dict[str, float]]:
    x = encode_race(_board(position))[0, INPUT_SIZE:]
    n = kernels.RACE_FEATURES
    return (
        {name: float(x[i]) for i, name in enumerate(RACE_NAMES)},
        {name: float(x[n + i]) for i, name in enumerate(RACE_NAMES)},
    )


def test_sizes_and_the_raw_part() -> None:
    board = _board(Position.initial())
    assert len(CONTACT_NAMES) == kernels.CONTACT_FEATURES
    assert len(RACE_NAMES) == kernels.RACE_FEATURES
    assert encode_contact(board).shape == (1, CONTACT_INPUTS)
    assert encode_race(board).shape == (1, RACE_INPUTS)
    # Both richer encodings begin with the raw one, so a trained raw net widens cleanly.
    assert np.array_equal(encode_contact(board)[:, :INPUT_SIZE], encode_boards(board))
    assert np.array_equal(encode_race(board)[:, :INPUT_SIZE], encode_boards(board))
    assert encoder_for(CONTACT_INPUTS) is encode_contact
    with pytest.raises(ValueError, match="no encoding"):
        encoder_for(7)


def test_escape_table_by_hand() -> None:
    assert kernels.ESCAPES[0] == 36  # nothing in the way: every roll
    assert kernels.ESCAPES[0b111111] == 0  # a six-prime right in front: none
    # One block six pips ahead stops 5-1, 4-2 (4 throws), 3-3 and 6-6: 30 left.
    assert kernels.ESCAPES[1 << 5] == 30
    # One block one pip ahead stops only 1-1 (a 1 and any other die goes round it).
    assert kernels.ESCAPES[1] == 35


def test_a_six_prime_traps_the_checker_behind_it() -> None:
    # Their prime on their 4- to 9-points, my last checker on their 3-point (my 22).
    prime = {4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 1: 3}
    position = Position.from_points({22: 1, 6: 5, 8: 3, 13: 6}, prime)
    mine, theirs = contact(position)
    assert mine["back_escapes"] == 0.0
    assert mine["back_checker"] == pytest.approx(22 / 25)
    assert theirs["prime_length"] == pytest.approx(1.0)
    assert theirs["prime_trap"] == pytest.approx(1.0)
    assert theirs["prime_gap"] == 0.0  # right behind it


def test_a_lone_checker_behind_nothing_escapes_with_every_roll() -> None:
    # Their checkers all on their 24-point (my 1-point side), 23 pips ahead of mine.
    position = Position.from_points({24: 1, 6: 14}, {24: 15})
    mine, theirs = contact(position)
    assert mine["back_escapes"] == 1.0
    # Their one point (my 1-point) is 22 open points ahead of my checker.
    assert theirs["prime_trap"] == pytest.approx(1 / 6)
    assert theirs["prime_gap"] == 1.0
    # My next checker is on my 6-point with their 15 on my 1-point five pips ahead:
    # 4-1, 3-2 (4 throws) and 5-5 are stopped, 31 rolls escape.
    assert mine["second_escapes"] == pytest.approx(31 / 36)


def test_my_prime_contains_their_checker() -> None:
    # My 6-prime on my 4- to 9-points, their checker on my 3-point (their 22).
    position = Position.from_points({4: 2, 5: 2, 6: 3, 7: 2, 8: 3, 9: 3}, {22: 1, 6: 14})
    mine, theirs = contact(position)
    assert mine["containment"] == 1.0
    assert mine["prime_length"] == 1.0
    assert mine["prime_trap"] == 1.0
    assert theirs["back_escapes"] == 0.0


@pytest.mark.parametrize(
    ("away", "expected"),
    [
        (1, 11),  # any 1
        (5, 15),  # any 5 (11), 4-1 and 3-2 (4)
        (6, 17),  # any 6 (11), 5-1, 4-2 (4), 3-3, 2-2
        (8, 6),  # 6-2, 5-3 (4), 4-4, 2-2
        (10, 3),  # 6-4 (2), 5-5
        (11, 2),  # 6-5
    ],
)
def test_shots_on_a_blot_by_hand(away: int, expected: int) -> None:
    """The textbook count of rolls that hit a blot so many pips away."""
    # My blot on my 12-point is their 13-point; their attacker ``away`` pips behind it;
    # my other checkers on my 13-point, out of the way.
    position = Position.from_points({12: 1, 13: 14}, {13 + away: 1, 1: 14})
    mine, _ = contact(position)
    assert mine["hit_chance"] == pytest.approx(expected / 36)
    # Each hit costs my blot 25 - 12 = 13 pips.
    assert mine["pip_loss"] == pytest.approx(expected * 13 / (36 * 12))
    assert mine["double_hit"] == 0.0


def test_blocks_on_the_way_stop_indirect_shots() -> None:
    # 8 away as above, but I hold my 9- and 7-points, where 5-3 would stop on the way
    # (their 16- and 18-points): 6-2 (2), 4-4 and 2-2 still hit: 4 rolls.
    position = Position.from_points({12: 1, 9: 2, 7: 2, 13: 10}, {21: 1, 1: 14})
    mine, _ = contact(position)
    assert mine["hit_chance"] == pytest.approx(4 / 36)


def test_two_blots_and_the_worse_hit() -> None:
    # Their checker on their 20-point; my blots 5 away (my 10) and 1 away (my 6).
    position = Position.from_points({10: 1, 6: 1, 1: 13}, {20: 1, 1: 14})
    mine, _ = contact(position)
    # Rolls with a 1 hit the 6-point blot; any 5, 4-1, 3-2 hit the other: 11 + 15 - 2 (5-1)
    # - 2 (4-1) = 22 rolls hit.  Both with 5-1 and 4-1: 4 rolls.  (1-1 walks 20, 19, 18,
    # 17: it hits my 6 only.)
    assert mine["hit_chance"] == pytest.approx(22 / 36)
    assert mine["double_hit"] == pytest.approx(4 / 36)
    # The worse hit is always the one on my 6-point (19 pips) when it is hit.
    hits_6 = 11
    hits_10_only = 22 - hits_6
    assert mine["pip_loss"] == pytest.approx((hits_6 * 19 + hits_10_only * 15) / (36 * 12))


def test_shots_from_the_bar_enter_first() -> None:
    # Their two checkers on the bar must both come in first.  My blot on my 3-point
    # (their 22) is hit by any 3 entering (11 rolls) and by 1-1 (both enter on their
    # 24-point, one walks on two pips): 12.
    position = Position.from_points({3: 1, 13: 14}, {25: 2, 6: 13})
    mine, _ = contact(position)
    assert mine["hit_chance"] == pytest.approx(12 / 36)


def test_dance_timing_crossovers_and_home() -> None:
    # I am on the bar against three closed home points.
    position = Position.from_points({25: 1, 13: 2, 6: 12}, {1: 2, 2: 2, 3: 2, 13: 9})
    mine, theirs = contact(position)
    assert mine["dance"] == pytest.approx(0.25)
    assert theirs["dance"] == 0.0
    assert theirs["home_points"] == pytest.approx(3 / 6)
    # Timing: the bar checker (19 pips to home) and no spares on my 13-point.
    assert mine["timing"] == pytest.approx(19 / 100)
    # Crossovers: the bar checker 4, two on the 13-point 2 each.
    assert mine["crossovers"] == pytest.approx(8 / 30)
    assert mine["home"] == pytest.approx(12 / 15)
    assert mine["back_count"] == pytest.approx(1 / 15)


def test_initial_position_is_symmetric() -> None:
    mine, theirs = contact(Position.initial())
    assert mine == theirs
    assert mine["crossovers"] == pytest.approx(19 / 30)
    assert mine["anchor"] == 1.0  # the two back checkers hold the opponent's ace point
    assert mine["forward_anchor"] == pytest.approx(1 / 12)
    assert mine["hit_chance"] == 0.0


def test_race_inputs_use_the_one_sided_database() -> None:
    position = Position.from_points({1: 2, 6: 1}, {20: 1, 6: 4})
    mine, theirs = race(position)
    means = one_sided_table().mean_rolls
    assert mine["all_home"] == 1.0
    assert mine["mean_rolls"] == pytest.approx(means[bearoff_index([2, 0, 0, 0, 0, 1])] / 10)
    assert theirs["all_home"] == 0.0 and theirs["mean_rolls"] == 0.0
    assert theirs["outside"] == pytest.approx(1 / 15)
    assert theirs["bear_in_pips"] == pytest.approx(14 / 100)
    assert theirs["crossovers"] == pytest.approx(3 / 30)  # from their 19-24 quarter
    assert mine["low"] == pytest.approx(2 / 15)
    assert mine["gaps"] == pytest.approx(2 / 3)  # the 4- and 5-points are empty


def _random_board(seed: int, bar: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    board = np.zeros(54, dtype=np.int8)
    for base in (0, 27):
        for _ in range(15):
            board[base + rng.integers(1, 26 if bar else 25)] += 1
    # Points are owned by one side: drop the second side's checkers where both are.
    for p in range(1, 25):
        if board[p] and board[27 + 25 - p]:
            board[27 + 25 - p] = 0
    return board


def _hits_of_roll(me: list[int], opp: list[int], a: int, b: int, on_bar: int) -> set[int]:
    """My points whose blot the opponent can hit with ``a-b``, read move by move.

    The opponent's checkers (its points, 25 the bar) move toward its point 1; its
    point ``t`` is my point ``25 - t``.  Checkers on the bar enter first: one on
    the bar frees the other die (or the rest of a double) once it is in, two or
    more leave only hits made by entering.
    """
    blot = [p for p in range(1, 25) if me[p] == 1]
    hit: set[int] = set()

    def walk(t: int, die: int, steps: int) -> None:  # one checker, every stop open
        for _ in range(steps):
            t -= die
            if t < 1 or me[25 - t] >= 2:
                return
            if 25 - t in blot:
                hit.add(25 - t)

    board = [q for q in range(1, 25) if opp[q] > 0]
    if a != b:
        enter = {die: me[die] < 2 for die in (a, b)}
        if on_bar >= 2:
            return {die for die in (a, b) if enter[die] and die in blot}
        if on_bar == 1:
            for die, other in ((a, b), (b, a)):
                if enter[die]:
                    if die in blot:
                        hit.add(die)
                    walk(25 - die, other, 1)  # the entering checker plays on
                    for q in board:
                        walk(q, other, 1)
            return hit
        for q in board:
            for die in (a, b):
                walk(q, die, 1)
            for first, second in ((a, b), (b, a)):
                if q - first >= 1 and me[25 - (q - first)] < 2:
                    walk(q - first, second, 1)
        return hit
    if on_bar > 0:
        if me[a] >= 2:
            return hit  # cannot enter: the whole roll is lost
        if a in blot:
            hit.add(a)
        steps = 4 - min(on_bar, 4)
        walk(25 - a, a, steps)  # one entered checker runs on
        if on_bar > 1:
            return hit
        for q in board:
            walk(q, a, steps)
        return hit
    for q in board:
        walk(q, a, 4)
    return hit


def _shots_reference(board: np.ndarray, mb: int, ob: int) -> tuple[float, float, float]:
    """Rolls of 36 that hit, that hit two, and the pips lost to the worst hit, roll by roll."""
    me = [int(c) for c in board[mb : mb + 27]]
    opp = [int(c) for c in board[ob : ob + 27]]
    on_bar = opp[25] + opp[26]
    shots = doubles = loss = 0.0
    for a in range(1, 7):
        for b in range(1, a + 1):
            hit = _hits_of_roll(me, opp, a, b, on_bar)
            weight = 1.0 if a == b else 2.0
            if hit:
                shots += weight
                doubles += weight if len(hit) >= 2 else 0.0
                loss += weight * (25 - min(hit))  # the worst: my lowest point
    return shots, doubles, loss


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 4))
def test_shots_agree_with_a_roll_by_roll_reading(seed: int, waiting: int) -> None:
    board = _random_board(seed, bar=seed % 3 != 0)
    board[27 + 26] = waiting  # acey-deucey: waiting checkers enter as from the bar
    for mb, ob in ((0, 27), (27, 0)):
        on_bar = int(board[ob + 25] + board[ob + 26])
        if not any(board[ob + 1 : ob + 25]) and on_bar == 0:
            continue  # the opponent has nothing that could hit (the kernel is not asked)
        assert kernels._shots(board, mb, board, ob, on_bar) == _shots_reference(board, mb, ob)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_sides_swap_with_the_board(seed: int) -> None:
    board = _random_board(seed, bar=True).reshape(1, 54)
    x = encode_contact(board)[0, INPUT_SIZE:]
    y = encode_contact(swap_boards(board))[0, INPUT_SIZE:]
    assert np.array_equal(x[:_PER_SIDE], y[_PER_SIDE:])
    assert np.array_equal(x[_PER_SIDE:], y[:_PER_SIDE])
    assert np.all(np.isfinite(x))


def _raw_reference(boards: np.ndarray) -> np.ndarray:
    """The raw encoding written plainly in NumPy (the compiled kernel must agree)."""
    n = boards.shape[0]
    weights = np.zeros(27, dtype=np.float32)
    weights[1:25] = np.arange(1, 25)
    weights[25:27] = 25
    counts = boards.astype(np.float32)
    pips = counts.reshape(n, 2, 27) @ weights
    out = np.empty((n, INPUT_SIZE), dtype=np.float32)
    for side in range(2):
        base = side * 27
        points = counts[:, base + 1 : base + 25]
        block = out[:, side * 100 : side * 100 + 96].reshape(n, 24, 4)
        block[:, :, 0] = points >= 1
        block[:, :, 1] = points >= 2
        block[:, :, 2] = points >= 3
        block[:, :, 3] = np.maximum(points - 3, 0) * 0.5
        tail = side * 100 + 96
        out[:, tail] = counts[:, base + 25] * 0.5
        out[:, tail + 1] = counts[:, base] / 15.0
        out[:, tail + 2] = counts[:, base + 26] / 15.0
        out[:, tail + 3] = pips[:, side] / 100.0
    index = np.arange(1, 27)
    backs = [
        np.where(boards[:, base + 1 : base + 27] > 0, np.minimum(index, 25), 0).max(axis=1)
        for base in (0, 27)
    ]
    out[:, -2] = backs[0] + backs[1] > 25
    out[:, -1] = (pips[:, 1] - pips[:, 0]) / 50.0
    return out


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6))
def test_raw_kernel_matches_the_numpy_reference(seed: int) -> None:
    boards = np.stack([_random_board(seed + k, bar=k % 2 == 0) for k in range(16)])
    boards[3, 26] = 2  # acey-deucey's waiting checkers count as on the bar
    np.testing.assert_allclose(encode_boards(boards), _raw_reference(boards), rtol=1e-6)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_escapes_read_from_the_block_bits_count_the_points_ahead(seed: int) -> None:
    """The bit masks give each point's 12 points ahead, as the escape table's definition reads."""
    board = _random_board(seed, bar=True)
    for blocker in (27, 0):
        blocked = kernels.blocks(board, blocker)
        for p in range(1, 26):
            mask = 0
            for k in range(1, 13):
                if p - k >= 1 and board[blocker + 25 - (p - k)] >= 2:
                    mask |= 1 << (k - 1)
            assert kernels.escapes(blocked, p, kernels.ESCAPES) == kernels.ESCAPES[mask]
