"""The match equity table (R12): cells of the published source, symmetry, EMG."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.engine.met import (
    KAZAROSS_XG2,
    InvalidCubeStateError,
    MatchEquityTable,
    MatchScore,
    emg_to_mwc,
    match_equity,
    mwc_to_emg,
)

AWAY = range(1, KAZAROSS_XG2.length + 1)

# Cells of GNU Backgammon's met/Kazaross-XG2.xml, read off the file by hand:
# (away_me, away_opp, post_crawford, MWC).
SOURCE_CELLS = [
    (1, 2, False, 0.67736),  # the Crawford game, first row
    (2, 1, False, 0.32264),
    (3, 2, False, 0.40053),
    (2, 3, False, 0.59947),
    (5, 7, False, 0.62638),
    (7, 5, False, 0.37362),
    (9, 11, False, 0.597926),
    (10, 9, False, 0.449804),
    (1, 15, False, 0.987893),
    (15, 1, False, 0.012107),
    (15, 14, False, 0.459250),
    (25, 24, False, 0.46914),
    (24, 25, False, 0.53086),
    (1, 25, False, 0.99905),
    (2, 1, True, 0.48803),  # the post-Crawford row
    (3, 1, True, 0.32264),
    (4, 1, True, 0.31002),
    (10, 1, True, 0.065161),
    (15, 1, True, 0.015304),
    (25, 1, True, 0.001230),
]


@pytest.mark.parametrize(("me", "opp", "post", "expected"), SOURCE_CELLS)
def test_cells_match_the_published_table(me: int, opp: int, post: bool, expected: float) -> None:
    assert match_equity(me, opp, post_crawford=post) == pytest.approx(expected, abs=1e-12)


def test_the_table_covers_at_least_fifteen_points() -> None:
    assert KAZAROSS_XG2.length >= 15
    assert match_equity(15, 15) == 0.5


@pytest.mark.parametrize("post", [False, True])
def test_the_two_players_chances_add_up_to_one_exactly(post: bool) -> None:
    # R12: one of the two players wins the match.
    for me in AWAY:
        for opp in AWAY:
            total = match_equity(me, opp, post_crawford=post) + match_equity(
                opp, me, post_crawford=post
            )
            assert total == 1.0, (me, opp, post)


def test_even_scores_are_even() -> None:
    for away in AWAY:
        assert match_equity(away, away) == 0.5
    assert match_equity(1, 1, post_crawford=True) == 0.5  # double match point


def test_needing_more_points_is_worse() -> None:
    for opp in AWAY:
        column = [match_equity(me, opp) for me in AWAY]
        assert column == sorted(column, reverse=True)
    trailer = [match_equity(me, 1, post_crawford=True) for me in AWAY]
    assert trailer == sorted(trailer, reverse=True)


def test_the_crawford_game_favours_the_leader() -> None:
    # R12: the leader is safe from the cube in the Crawford game only.
    for opp in range(2, KAZAROSS_XG2.length + 1):
        assert match_equity(1, opp) >= match_equity(1, opp, post_crawford=True)
    # Post-Crawford at 2-away the trailer doubles at once: about a coin flip, less
    # what the leader's free drop is worth.
    assert 0.47 < match_equity(2, 1, post_crawford=True) < 0.5


def test_post_crawford_flag_matters_only_with_one_side_one_away() -> None:
    assert match_equity(4, 6, post_crawford=True) == match_equity(4, 6)
    assert match_equity(1, 1, post_crawford=False) == 0.5


def test_a_won_or_lost_match() -> None:
    assert match_equity(0, 3) == 1.0
    assert match_equity(-2, 1) == 1.0  # winning by more does not matter (R12)
    assert match_equity(3, 0) == 0.0
    assert match_equity(3, -1, post_crawford=True) == 0.0


@pytest.mark.parametrize(
    ("me", "opp", "message"),
    [
        (0, 0, "both players"),
        (26, 3, "up to 25-away"),
        (3, 40, "up to 25-away"),
    ],
)
def test_impossible_scores_are_rejected(me: int, opp: int, message: str) -> None:
    with pytest.raises(InvalidCubeStateError, match=message):
        match_equity(me, opp)


def test_non_integer_scores_are_rejected() -> None:
    with pytest.raises(InvalidCubeStateError, match="whole number"):
        match_equity(2.5, 3)  # type: ignore[arg-type]


def test_a_table_must_be_consistent() -> None:
    with pytest.raises(InvalidCubeStateError, match="add up to 1"):
        MatchEquityTable("bad", ((0.5, 0.7), (0.4, 0.5)), (0.5, 0.45))
    with pytest.raises(InvalidCubeStateError, match="square"):
        MatchEquityTable("ragged", ((0.5, 0.6), (0.4,)), (0.5, 0.45))
    with pytest.raises(InvalidCubeStateError, match="post-Crawford"):
        MatchEquityTable("short", ((0.5, 0.6), (0.4, 0.5)), (0.5,))


def test_a_small_custom_table() -> None:
    table = MatchEquityTable("two", ((0.5, 0.7), (0.3, 0.5)), (0.5, 0.45))
    assert match_equity(1, 2, table=table) == 0.7
    assert match_equity(2, 1, post_crawford=True, table=table) == 0.45
    assert match_equity(1, 2, post_crawford=True, table=table) == 0.55


# -- MatchScore -------------------------------------------------------------


def test_score_after_a_game_knows_about_the_crawford_game() -> None:
    # R12: reaching 1-away first makes the next game the Crawford game.
    score = MatchScore(3, 4)
    assert score.after(2, 0) == match_equity(1, 4)  # Crawford game next
    assert score.after(0, 3) == match_equity(3, 1)
    crawford = MatchScore(1, 4, crawford=True)
    assert crawford.equity() == match_equity(1, 4)
    assert crawford.after(0, 2) == match_equity(1, 2, post_crawford=True)
    post = MatchScore(1, 4, post_crawford=True)
    assert post.equity() == match_equity(1, 4, post_crawford=True)
    assert post.after(0, 1) == match_equity(1, 3, post_crawford=True)
    assert post.after(1, 0) == 1.0
    assert post.after(0, 4) == 0.0


def test_score_swaps_sides() -> None:
    score = MatchScore(2, 5, post_crawford=True)
    assert score.swapped() == MatchScore(5, 2, post_crawford=True)
    assert score.equity() + score.swapped().equity() == 1.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"away_me": 0, "away_opp": 3}, "1 or more"),
        ({"away_me": 3, "away_opp": 30}, "up to 25-away"),
        ({"away_me": 3, "away_opp": 4, "crawford": True}, "exactly one side"),
        ({"away_me": 1, "away_opp": 1, "crawford": True}, "exactly one side"),
        ({"away_me": 1, "away_opp": 4, "crawford": True, "post_crawford": True}, "both"),
    ],
)
def test_impossible_match_scores(kwargs: dict[str, int | bool], message: str) -> None:
    with pytest.raises(InvalidCubeStateError, match=message):
        MatchScore(**kwargs)  # type: ignore[arg-type]


# -- EMG -----------------------------------------------------------------------


def test_emg_scale_points() -> None:
    score = MatchScore(4, 6)
    for cube in (1, 2):
        win, lose = score.after(cube, 0), score.after(0, cube)
        assert mwc_to_emg(win, score, cube) == pytest.approx(1.0)
        assert mwc_to_emg(lose, score, cube) == pytest.approx(-1.0)
        assert emg_to_mwc(0.0, score, cube) == pytest.approx((win + lose) / 2)


@given(
    st.integers(1, 25),
    st.integers(1, 25),
    st.sampled_from([1, 2, 4]),
    st.floats(-3.0, 3.0),
)
def test_emg_round_trip(me: int, opp: int, cube: int, emg: float) -> None:
    score = MatchScore(me, opp, post_crawford=(me == 1) != (opp == 1))
    assert mwc_to_emg(emg_to_mwc(emg, score, cube), score, cube) == pytest.approx(emg, abs=1e-9)


def test_emg_needs_a_real_cube() -> None:
    with pytest.raises(InvalidCubeStateError, match="cube value"):
        mwc_to_emg(0.5, MatchScore(3, 3), 0)
