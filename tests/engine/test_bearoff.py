"""Bear-off databases (R8 bearing off, R9 gammons): indexing, one-sided and exact tables.

The databases come from the cache (built once per machine, or once per session
on a cold cache); everything here compares them with independent computations:
direct recursions over the 36 rolls through :meth:`Position.plays`, hand-counted
cases, and GNU Backgammon's own bear-off databases through ``gnubg_nn``.
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Sequence
from pathlib import Path

import gnubg_nn
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.engine import _bearoff_kernels as kernels
from gammon.engine import bearoff
from gammon.engine.bearoff import (
    BEAROFF_POSITIONS,
    EXACT_CHECKERS,
    EXACT_POSITIONS,
    MAX_ROLLS,
    OneSidedTable,
    bearoff_index,
    bearoff_points,
    bearoff_probabilities,
    bearoff_probabilities_batch,
    best_bearoff_play,
    exact_bearoff_win,
    is_bearoff,
    is_bearoff_batch,
)
from gammon.errors import InvalidPositionError
from gammon.position import ALL_ROLLS, Position

# An opponent with one checker on its 1-point: no contact, never in the way.
LONE = (1, 0, 0, 0, 0, 0)
BOARDS = kernels.all_boards()
FloatArray = npt.NDArray[np.float32]


@pytest.fixture(scope="session")
def table() -> OneSidedTable:
    return bearoff.one_sided_table()


@pytest.fixture(scope="session")
def exact() -> FloatArray:
    return bearoff.exact_table()


def race(mine: Sequence[int], theirs: Sequence[int] = LONE, checkers: int = 15) -> Position:
    """A bear-off position from two home boards (1-point first)."""
    return Position(list(mine) + [0] * 19, list(theirs) + [0] * 19, checkers=checkers)


def home(position: Position) -> tuple[int, ...]:
    assert not any(position.mine[6:]), "a bear-off play never leaves the home board"
    return position.mine[:6]


def small_boards(checkers: int) -> list[tuple[int, ...]]:
    """Non-empty boards of at most ``checkers`` checkers."""
    size = int(kernels.BINOM[checkers + 6, 6])
    return [tuple(int(c) for c in BOARDS[i]) for i in range(1, size)]


# -- indexing -----------------------------------------------------------------


def test_index_is_a_bijection_onto_54264() -> None:
    assert BEAROFF_POSITIONS == 54264 == len(BOARDS)
    seen = set()
    for i, row in enumerate(BOARDS):
        points = tuple(int(c) for c in row)
        assert sum(points) <= 15
        assert bearoff_index(points) == i
        assert bearoff_points(i) == points
        seen.add(points)
    assert len(seen) == BEAROFF_POSITIONS  # every board of <= 15 checkers, each once


def test_index_orders_by_checkers_left() -> None:
    counts = BOARDS.astype(np.int64).sum(axis=1)
    for n in range(16):
        # The boards with at most n checkers are exactly the first C(n + 6, 6).
        assert np.all((counts <= n) == (np.arange(BEAROFF_POSITIONS) < kernels.BINOM[n + 6, 6]))
    assert bearoff_index([0] * 6) == 0
    assert kernels.BINOM[EXACT_CHECKERS + 6, 6] == EXACT_POSITIONS


def test_index_rejects_bad_boards() -> None:
    with pytest.raises(InvalidPositionError, match="6 counts"):
        bearoff_index([1, 2, 3])
    with pytest.raises(InvalidPositionError, match="0 to 15"):
        bearoff_index([16, 0, 0, 0, 0, 0])
    with pytest.raises(InvalidPositionError, match="0 to 15"):
        bearoff_index([-1, 0, 0, 0, 0, 1])
    with pytest.raises(ValueError, match="0 to 54263"):
        bearoff_points(54264)


def _kernel_successors(index: int, dice: tuple[int, int]) -> set[int]:
    out = np.empty(2048, dtype=np.int64)
    found = kernels.successors(BOARDS[index], dice[0], dice[1], out, True)
    assert len(set(out[:found].tolist())) == found, "dedupe keeps each board once"
    return set(out[:found].tolist())


def test_bearoff_moves_match_the_move_generator() -> None:
    """The kernels' own bear-off moves give the same boards as Position.plays (R5, R8)."""
    rng = random.Random(8)
    indices = list(range(1, 84)) + rng.sample(range(84, BEAROFF_POSITIONS), 150)
    for index in indices:
        position = race(bearoff_points(index))
        for dice, _ in ALL_ROLLS:
            expected = {bearoff_index(home(play.position)) for play in position.plays(dice)}
            got = _kernel_successors(index, dice)
            assert got == expected, (bearoff_points(index), dice)
            assert max(got) < index, "every play lowers the index"


# -- one-sided ----------------------------------------------------------------


@functools.cache
def brute_rolls(board: tuple[int, ...]) -> tuple[float, tuple[float, ...]]:
    """(expected rolls, P(exactly n rolls) for n < 10) by recursion over the 36 rolls."""
    if not any(board):
        return 0.0, (1.0,) + (0.0,) * 9
    position = race(board)
    mean = 1.0
    dist = [0.0] * 10
    for dice, weight in ALL_ROLLS:
        options = [brute_rolls(home(play.position)) for play in position.plays(dice)]
        best = min(options, key=lambda option: option[0])
        mean += weight / 36 * best[0]
        for n in range(9):
            dist[n + 1] += weight / 36 * best[1][n]
    return mean, tuple(dist)


@functools.cache
def brute_first_off(board: tuple[int, ...]) -> tuple[float, tuple[float, ...]]:
    """The same for the number of rolls until the first checker is off."""
    position = race(board)
    mean = 1.0
    dist = [0.0] * 10
    for dice, weight in ALL_ROLLS:
        after = [home(play.position) for play in position.plays(dice)]
        if any(sum(b) < sum(board) for b in after):
            dist[1] += weight / 36
            continue
        best = min((brute_first_off(b) for b in after), key=lambda option: option[0])
        mean += weight / 36 * best[0]
        for n in range(9):
            dist[n + 1] += weight / 36 * best[1][n]
    return mean, tuple(dist)


def test_one_sided_matches_brute_force_up_to_three_checkers(table: OneSidedTable) -> None:
    for board in small_boards(3):
        i = bearoff_index(board)
        mean, dist = brute_rolls(board)
        assert table.mean_rolls[i] == pytest.approx(mean, abs=1e-6)
        assert np.allclose(table.rolls[i, :10], dist, atol=1e-6), board
        assert not table.rolls[i, 10:].any()
        mean, dist = brute_first_off(board)
        assert table.mean_first_off[i] == pytest.approx(mean, abs=1e-6)
        assert np.allclose(table.first_off[i, :10], dist, atol=1e-6), board


def test_one_sided_hand_counted_cases(table: OneSidedTable) -> None:
    one_on_ace = table.rolls[bearoff_index([1, 0, 0, 0, 0, 0])]
    two_on_ace = table.rolls[bearoff_index([2, 0, 0, 0, 0, 0])]
    assert one_on_ace[1] == 1.0 and two_on_ace[1] == 1.0
    # A checker on the 6-point stays on after 1-1 and the 8 throws of 2-1, 3-1, 4-1, 3-2.
    six = table.rolls[bearoff_index([0, 0, 0, 0, 0, 1])]
    assert six[1] == pytest.approx(27 / 36) and six[2] == pytest.approx(9 / 36)
    # Two checkers on the 6-point come off at once only with 6-6, 5-5, 4-4, 3-3.
    two_sixes = bearoff_index([0, 0, 0, 0, 0, 2])
    assert table.rolls[two_sixes, 1] == pytest.approx(4 / 36)
    # One of them comes off with any 6 (11), 5-1, 4-2 (2 each), 5-5, 4-4, 3-3, 2-2; not
    # with 5-2 or 4-3: a die may not overshoot while the other checker is higher (R8).
    assert table.first_off[two_sixes, 1] == pytest.approx(19 / 36)
    # Fifteen on the 6-point: at least 4 rolls (four 6-6), at most 30 (2-1 takes 3 of 90 pips).
    full = table.rolls[bearoff_index([0, 0, 0, 0, 0, 15])]
    assert not full[:4].any() and full[4] == pytest.approx((1 / 36) ** 4, rel=1e-4)
    assert full[30] > 0 and not full[31:].any()
    # Any six, or 5-1, 4-2, 3-3, 2-2 in one checker: 17 of 36 take the first one off.
    assert table.first_off[bearoff_index([0, 0, 0, 0, 0, 15]), 1] == pytest.approx(17 / 36)


def test_one_sided_distributions_are_complete(table: OneSidedTable) -> None:
    assert table.rolls.shape == table.first_off.shape == (BEAROFF_POSITIONS, MAX_ROLLS)
    assert np.allclose(table.rolls.sum(axis=1), 1.0, atol=1e-5)
    assert np.allclose(table.first_off.sum(axis=1), 1.0, atol=1e-5)
    assert (table.rolls >= 0).all() and (table.first_off >= 0).all()
    assert not table.rolls[:, 31].any(), "nothing needs more than 30 rolls: no truncation"
    assert not table.rolls.flags.writeable


def test_one_sided_is_optimal_against_the_move_generator(table: OneSidedTable) -> None:
    """Bellman equation over Position.plays for random boards of up to 15 checkers."""
    rng = random.Random(15)
    means = table.mean_rolls
    for index in rng.sample(range(1, BEAROFF_POSITIONS), 150):
        position = race(bearoff_points(index))
        expected = 1.0
        for dice, weight in ALL_ROLLS:
            best = min(means[bearoff_index(home(p.position))] for p in position.plays(dice))
            expected += weight / 36 * best
        assert means[index] == pytest.approx(expected, abs=1e-5)


def test_one_sided_agrees_with_gnubg(table: OneSidedTable) -> None:
    """gnubg stores 16-bit bins, so its means carry about 1e-4 of rounding noise."""
    ours = table.mean_rolls
    for index in range(1, BEAROFF_POSITIONS):
        theirs = gnubg_nn.bearoff_probabilities(bearoff_points(index))
        # gnubg's list starts at one roll.
        mean = sum((n + 1) * p for n, p in enumerate(theirs))
        assert abs(mean - ours[index]) < 5e-4, bearoff_points(index)


# -- two-sided, one-sided approximation ---------------------------------------


def test_trivial_races_are_exact() -> None:
    # Whoever is on roll with a checker or two on the 1-point is off at once (R8).
    for theirs in [(0, 0, 0, 0, 0, 15), (1, 0, 0, 0, 0, 0), (2, 3, 0, 1, 0, 0)]:
        for mine in [(1, 0, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0)]:
            position = race(mine, theirs)
            assert bearoff_probabilities(position)[0] == 1.0
            assert bearoff_probabilities_batch([position])[0, 0] == 1.0
            if sum(theirs) <= EXACT_CHECKERS:
                assert exact_bearoff_win(position) == 1.0
    position = race((0, 0, 0, 0, 0, 1), LONE)
    assert bearoff_probabilities(position)[0] == pytest.approx(27 / 36)
    assert exact_bearoff_win(position) == pytest.approx(27 / 36)


def test_gammon_chances_hand_counted() -> None:
    # One checker a side and nothing off (R9): every win is a gammon.
    p = bearoff_probabilities(race((0, 0, 0, 1, 0, 0), (0, 0, 0, 0, 1, 0), checkers=1))
    assert p[1] == p[0] and p[3] == pytest.approx(1.0 - p[0])
    # Only 2-1 leaves my checker on; then theirs stays on with 1-1, 2-1, 3-1.
    assert p[0] == pytest.approx(34 / 36 + 2 / 36 * 5 / 36)
    # Two on my 6-point, none off; their last checker is on the 1-point and they have one off.
    p = bearoff_probabilities(race((0, 0, 0, 0, 0, 2), LONE, checkers=2))
    assert p[0] == pytest.approx(4 / 36)  # 6-6, 5-5, 4-4, 3-3
    assert p[1] == 0.0  # they have borne one off already
    assert p[3] == pytest.approx(17 / 36)  # my first checker stays on (see the 19 above)
    assert p[2] == p[4] == 0.0
    # I have a checker off: no gammon against me whatever the race.
    assert bearoff_probabilities(race((0, 0, 0, 0, 0, 14), LONE))[3] == 0.0


def random_bearoff(rng: random.Random, max_checkers: int = 15, checkers: int = 15) -> Position:
    def side() -> list[int]:
        counts = [0] * 25
        for _ in range(rng.randint(1, max_checkers)):
            counts[rng.randrange(6)] += 1
        return counts

    return Position(side(), side(), checkers=checkers)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([3, 15]))
def test_probabilities_are_valid(seed: int, checkers: int) -> None:
    rng = random.Random(seed)
    positions = [random_bearoff(rng, checkers, checkers) for _ in range(4)]
    batch = bearoff_probabilities_batch(positions)
    raw = np.frombuffer(b"".join(p._board for p in positions), dtype=np.int8).reshape(-1, 54)
    assert np.array_equal(bearoff_probabilities_batch(raw), batch)
    for position, row in zip(positions, batch, strict=True):
        p = bearoff_probabilities(position)
        assert np.allclose(p, row, atol=1e-12)
        win, win_gammon, win_bg, lose_gammon, lose_bg = p
        assert 0.0 <= win <= 1.0
        assert 0.0 <= win_gammon <= win and 0.0 <= lose_gammon <= 1.0 - win
        assert win_bg == lose_bg == 0.0  # R9: no loser's checker can be in the winner's home
        if position.off[1]:
            assert win_gammon == 0.0
        if position.off[0]:
            assert lose_gammon == 0.0
        equity = 2 * win - 1 + (win_gammon - lose_gammon) + (win_bg - lose_bg)
        assert bearoff.bearoff_equity(position) == pytest.approx(equity)


def test_two_sided_agrees_with_gnubg() -> None:
    """GNU Backgammon's one-sided evaluation of 15-checker bear-offs (16-bit tables)."""
    rng = random.Random(4)
    for _ in range(400):
        position = random_bearoff(rng)
        if max(sum(position.mine[:6]), sum(position.theirs[:6])) <= 6:
            continue  # gnubg uses its two-sided database there
        gnubg_board = [list(position.theirs), list(position.mine)]
        theirs = np.array(gnubg_nn.probabilities(gnubg_board, 0))
        ours = bearoff_probabilities(position)
        assert np.allclose(ours, theirs, atol=1e-3), position


# -- exact --------------------------------------------------------------------


@functools.cache
def brute_win(mine: tuple[int, ...], theirs: tuple[int, ...]) -> float:
    """Win chance of the side on roll, both playing to win, by recursion over the rolls."""
    position = race(mine, theirs)
    total = 0.0
    for dice, weight in ALL_ROLLS:
        best = 0.0
        for play in position.plays(dice):
            after = home(play.position)
            best = max(best, 1.0 if not any(after) else 1.0 - brute_win(theirs, after))
        total += weight * best
    return total / 36


def test_exact_matches_brute_force_up_to_two_checkers(exact: FloatArray) -> None:
    boards = small_boards(2)
    for mine in boards:
        for theirs in boards:
            value = exact[bearoff_index(mine), bearoff_index(theirs)]
            assert value == pytest.approx(brute_win(mine, theirs), abs=1e-6)
            assert exact_bearoff_win(race(mine, theirs)) == value


def test_exact_satisfies_the_optimality_equation(exact: FloatArray) -> None:
    """For random pairs up to 8 checkers: the value is the best play's, via Position.plays."""
    assert exact.shape == (EXACT_POSITIONS, EXACT_POSITIONS)
    rng = random.Random(88)
    for _ in range(120):
        i, j = rng.randrange(1, EXACT_POSITIONS), rng.randrange(1, EXACT_POSITIONS)
        position = race(bearoff_points(i), bearoff_points(j))
        total = 0.0
        for dice, weight in ALL_ROLLS:
            total += weight * max(
                1.0 - exact[j, bearoff_index(home(play.position))] for play in position.plays(dice)
            )
        assert exact[i, j] == pytest.approx(total / 36, abs=1e-6)
    assert (exact[1:, 1:] >= 0).all() and (exact[1:, 1:] <= 1).all()


def test_exact_agrees_with_gnubg_two_sided_database(exact: FloatArray) -> None:
    rng = random.Random(6)
    size = int(kernels.BINOM[12, 6])  # gnubg's database: up to 6 checkers a side
    for _ in range(500):
        i, j = rng.randrange(1, size), rng.randrange(1, size)
        board = [list(bearoff_points(j)) + [0] * 19, list(bearoff_points(i)) + [0] * 19]
        # Class 1 is gnubg's two-sided database (its one-sided class is c_bearoff = 2).
        assert gnubg_nn.classify(board) == 1
        assert exact[i, j] == pytest.approx(gnubg_nn.probabilities(board, 0)[0], abs=1e-4)


def test_one_sided_is_close_to_exact(table: OneSidedTable, exact: FloatArray) -> None:
    rolls = table.rolls[:EXACT_POSITIONS].astype(np.float64)
    survival = 1.0 - np.cumsum(rolls, axis=1) + rolls  # P(N >= n)
    one_sided = rolls @ survival.T
    difference = np.abs(one_sided - exact)[1:, 1:]
    # With at most two checkers a side the fastest finish is also the best play.
    small = int(kernels.BINOM[8, 6])
    assert difference[: small - 1, : small - 1].max() < 1e-6
    # Elsewhere the one-sided approximation is off by 0.09% on average, 1.4% at worst.
    assert difference.mean() < 0.002
    assert difference.max() < 0.02


def test_exact_out_of_range_is_none() -> None:
    assert exact_bearoff_win(Position.initial()) is None
    assert exact_bearoff_win(race((0, 0, 0, 0, 0, EXACT_CHECKERS + 1))) is None
    assert exact_bearoff_win(race(LONE, (0, 0, 0, 0, 0, EXACT_CHECKERS + 1))) is None
    assert exact_bearoff_win(race((0, 0, 0, 0, 0, EXACT_CHECKERS))) is not None


# -- best play ----------------------------------------------------------------


def test_best_play_is_optimal_in_small_endings(exact: FloatArray) -> None:
    rng = random.Random(21)
    for _ in range(150):
        position = random_bearoff(rng, 5)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = position.plays(dice)
        chosen = best_bearoff_play(position, dice)
        assert chosen in plays

        def value(after: Position) -> float:
            if after.winner() == 0:
                return 1.0
            result = exact_bearoff_win(after.swapped())
            assert result is not None
            return 1.0 - result

        assert value(chosen.position) == pytest.approx(max(value(p.position) for p in plays))


def test_best_play_bears_off_the_last_checkers() -> None:
    position = race((1, 0, 0, 0, 1, 0), (0, 0, 0, 0, 0, 15))
    assert best_bearoff_play(position, (5, 1)).position.winner() == 0
    # With 6-5 the rules allow 6/1 5/off or 6/off 5/off among others; only one finishes (R8).
    position = race((1, 0, 0, 0, 1, 1))
    assert str(best_bearoff_play(position, (6, 5))) == "6/off 5/off"


def test_best_play_rejects_other_positions() -> None:
    with pytest.raises(InvalidPositionError, match="not a bear-off position"):
        best_bearoff_play(Position.initial(), (3, 1))


# -- which positions ----------------------------------------------------------


def test_is_bearoff_on_game_positions() -> None:
    """Every position of random games, against the definition (R8: all home, game on)."""
    rng = random.Random(3)
    positions = []
    for _ in range(6):
        position = Position.initial()
        while position.winner() is None:
            positions.append(position)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            position = rng.choice(position.plays(dice)).position.swapped()
        positions.append(position)
    expected = [
        not any(p.mine[6:]) and not any(p.theirs[6:]) and p.winner() is None for p in positions
    ]
    assert [is_bearoff(p) for p in positions] == expected
    assert is_bearoff_batch(positions).tolist() == expected
    assert any(expected) and not all(expected)


def test_not_bearoff_positions_are_rejected() -> None:
    assert not is_bearoff(race((0, 0, 0, 0, 0, 0), LONE, checkers=15))  # game over
    on_bar = Position.from_points({25: 1, 6: 2}, {1: 1})
    assert not is_bearoff(on_bar)
    with pytest.raises(InvalidPositionError, match="not a bear-off position"):
        bearoff_probabilities(on_bar)
    with pytest.raises(InvalidPositionError, match="position 1 of the batch"):
        bearoff_probabilities_batch([race(LONE), Position.initial()])
    with pytest.raises(InvalidPositionError, match="shape"):
        bearoff_probabilities_batch(np.zeros((2, 53), dtype=np.int8))


# -- the cache ----------------------------------------------------------------


def test_cache_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GAMMON_CACHE_DIR", str(tmp_path / "here"))
    assert bearoff.cache_dir() == tmp_path / "here"
    monkeypatch.delenv("GAMMON_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert bearoff.cache_dir() == tmp_path / "xdg" / "gammon"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert bearoff.cache_dir() == Path.home() / ".cache" / "gammon"


def test_cache_builds_once_then_reads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GAMMON_CACHE_DIR", str(tmp_path / "cache"))
    builds = []
    # The builder goes on only once all three threads have looked for the file and missed
    # it (the builder twice: before the lock and under it; the others once, before it), so
    # the other two are certainly waiting on the lock while it builds: an event, not a sleep.
    misses = 0
    missed = threading.Condition()
    read = bearoff._read

    def counted_read(path: Path, shape: tuple[int, ...]) -> FloatArray | None:
        nonlocal misses
        array = read(path, shape)
        if array is None:
            with missed:
                misses += 1
                missed.notify_all()
        return array

    monkeypatch.setattr(bearoff, "_read", counted_read)

    def build() -> FloatArray:
        builds.append(1)
        with missed:
            assert missed.wait_for(lambda: misses >= 4, timeout=60), f"{misses} misses"
        return np.arange(6, dtype=np.float32).reshape(2, 3)

    results = []
    threads = [
        threading.Thread(
            target=lambda: results.append(bearoff._load_or_build("t.npy", (2, 3), build))
        )
        for _ in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1, "the file lock lets one builder run; the others read its file"
    assert all(np.array_equal(r, np.arange(6).reshape(2, 3)) for r in results)
    assert not results[0].flags.writeable
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == ["t.npy", "t.npy.lock"]

    # A damaged or stale file is rebuilt.
    (tmp_path / "cache" / "t.npy").write_bytes(b"not an array")
    bearoff._load_or_build("t.npy", (2, 3), build)
    assert len(builds) == 2
    bearoff._load_or_build("t.npy", (3, 2), lambda: np.zeros((3, 2), dtype=np.float32))
    assert bearoff._read(tmp_path / "cache" / "t.npy", (3, 2)) is not None


def test_cache_that_cannot_be_written(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory should be")
    monkeypatch.setenv("GAMMON_CACHE_DIR", str(blocker / "cache"))
    array = bearoff._load_or_build("t.npy", (2,), lambda: np.ones(2, dtype=np.float32))
    assert array.tolist() == [1.0, 1.0]
