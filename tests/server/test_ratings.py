"""The FIBS rating formula on worked examples (gammon.server.ratings)."""

from __future__ import annotations

import math

import pytest

from gammon.engine.bot import SKILL_LEVELS
from gammon.server.ratings import (
    BOT_RATINGS,
    INITIAL_RATING,
    Rating,
    counts_for_rating,
    experience_factor,
    rate_match,
    rating_changes,
    upset_probability,
    win_probability,
)

# The favourite's share of wins that keeps its rating where it is, by rating difference and
# match length: the table Kit Woolsey-era FIBS players posted on rec.games.backgammon
# ("batting average for favorite to maintain his rating", bkgm.com/rgb/rgb.cgi?view+45),
# computed there from the same formula. Each is 1 - P_upset.
BATTING_AVERAGE = {
    (100, 1): 0.529,
    (100, 3): 0.550,
    (100, 5): 0.564,
    (100, 7): 0.576,
    (100, 11): 0.594,
    (200, 5): 0.626,
    (300, 7): 0.714,
    (400, 9): 0.799,
    (500, 11): 0.871,
    (700, 3): 0.802,
}


@pytest.mark.parametrize(("difference", "length"), sorted(BATTING_AVERAGE))
def test_the_favourites_share_matches_the_published_table(difference: int, length: int) -> None:
    favourite = 1.0 - upset_probability(difference, length)
    assert round(favourite, 3) == BATTING_AVERAGE[difference, length]
    assert win_probability(1500 + difference, 1500, length) == pytest.approx(favourite)
    assert win_probability(1500, 1500 + difference, length) == pytest.approx(1 - favourite)


def test_equal_newcomers_in_a_one_point_match() -> None:
    # D = 0: P_upset = 1/2; K = 5 for both; 4 * 5 * sqrt(1) * 1/2 = 10.
    winner, loser = rate_match(Rating(), Rating(), 1)
    assert (winner.rating, loser.rating) == (1510.0, 1490.0)
    assert (winner.experience, loser.experience) == (1, 1)
    assert winner.provisional and loser.provisional


def test_experienced_favourite_and_underdog_in_a_seven_point_match() -> None:
    # 1850 against 1750, both with 400+ experience: D = 100, sqrt(7) = 2.6458,
    # P_upset = 1/(10^(100*2.6458/2000)+1) = 0.42443.
    favourite, underdog = Rating(1850, 1200), Rating(1750, 400)
    p_upset = 1 / (10 ** (100 * math.sqrt(7) / 2000) + 1)
    assert p_upset == pytest.approx(0.42443, abs=1e-5)
    assert upset_probability(100, 7) == pytest.approx(p_upset)
    # The favourite wins: both move by 4 * 1 * sqrt(7) * P_upset = 4.4918.
    gain, loss = rating_changes(favourite, underdog, 7)
    assert gain == pytest.approx(4.4918, abs=1e-4) and loss == pytest.approx(gain)
    # The underdog wins: both move by 4 * sqrt(7) * (1 - P_upset) = 6.0912.
    gain, loss = rating_changes(underdog, favourite, 7)
    assert gain == pytest.approx(6.0912, abs=1e-4) and loss == pytest.approx(gain)
    won, lost = rate_match(underdog, favourite, 7)
    assert won == Rating(pytest.approx(1756.0912, abs=1e-4), 407)  # type: ignore[arg-type]
    assert lost == Rating(pytest.approx(1843.9088, abs=1e-4), 1207)  # type: ignore[arg-type]


def test_each_side_uses_its_own_experience() -> None:
    # A newcomer (K = 5) beats a player with 250 experience (K = 2.5) in a 3-point match,
    # both rated 1500: P = 1/2, base 4 * sqrt(3) * 1/2 = 3.4641.
    gain, loss = rating_changes(Rating(1500, 0), Rating(1500, 250), 3)
    assert gain == pytest.approx(5 * 3.4641, abs=1e-3)
    assert loss == pytest.approx(2.5 * 3.4641, abs=1e-3)


def test_the_factor_falls_by_one_every_hundred_points_of_experience() -> None:
    factors = [experience_factor(e) for e in (0, 50, 100, 299, 399, 400, 401, 10_000)]
    assert factors == pytest.approx([5.0, 4.5, 4.0, 2.01, 1.01, 1.0, 1.0, 1.0])
    assert not Rating(1500, 400).provisional and Rating(1500, 399).provisional
    assert Rating().rating == INITIAL_RATING == 1500


def test_an_upset_is_worth_more_than_an_expected_win() -> None:
    strong, weak = Rating(1900, 1000), Rating(1500, 1000)
    # D = 400 over 5 points: the underdog wins with P_upset = 0.2627 (6.591 against 2.354).
    assert rating_changes(weak, strong, 5)[0] > 2.5 * rating_changes(strong, weak, 5)[0]
    # The sum of what both could win is always 4 * sqrt(n) * K (P + (1 - P) = 1).
    total = rating_changes(weak, strong, 5)[0] + rating_changes(strong, weak, 5)[0]
    assert total == pytest.approx(4 * math.sqrt(5))


def test_a_match_needs_a_length() -> None:
    with pytest.raises(ValueError, match="at least 1 point"):
        rating_changes(Rating(), Rating(), 0)


def test_every_bot_level_has_a_rating_in_order_of_strength() -> None:
    assert list(BOT_RATINGS) == list(SKILL_LEVELS)
    ratings = list(BOT_RATINGS.values())
    assert ratings == sorted(ratings)


def test_which_matches_count() -> None:
    assert counts_for_rating(mode="match", accounts=2, bots=0)
    assert counts_for_rating(mode="match", accounts=1, bots=1)
    assert not counts_for_rating(mode="match", accounts=1, bots=0)  # a guest
    assert not counts_for_rating(mode="match", accounts=0, bots=0)
    assert not counts_for_rating(mode="money", accounts=2, bots=0)
    assert not counts_for_rating(mode="match", accounts=2, bots=0, rated=False)
    assert not counts_for_rating(mode="match", accounts=2, bots=0, took_part=False)
