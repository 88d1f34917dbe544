"""Ratings: the FIBS formula, the provisional period, the bot's ratings, which matches count.

The formula is the one the First Internet Backgammon Server publishes in its
``help formula`` page (quoted in the Backgammon FAQ, "FIBS ratings", and on
rec.games.backgammon, bkgm.com/rgb/rgb.cgi?view+1093). For an ``n``-point match
between players rated ``r1`` and ``r2``:

- ``D = |r1 - r2|``, and the underdog wins with probability
  ``P_upset = 1 / (10 ** (D * sqrt(n) / 2000) + 1)``;
- ``P = 1 - P_upset`` when the underdog wins, ``P = P_upset`` when the favourite wins;
- each player's factor is ``K = max(1, 5 - experience / 100)``, with
  ``experience`` the sum of the lengths of the matches that player finished
  before this one;
- the winner gains ``4 * K * sqrt(n) * P`` and the loser loses ``4 * K * sqrt(n) * P``,
  each with their own ``K``.

Everyone starts at 1500 with experience 0. (MacFIBS's glossary writes the factor as
``max(1, 5 - (experience + n) / 100)``, counting the match being rated; we follow the
server's own help page.)

>>> new, old = Rating(), Rating(1500.0, 1000)
>>> winner, loser = rate_match(new, old, 1)
>>> round(winner.rating, 3), winner.experience, round(loser.rating, 3), loser.experience
(1510.0, 1, 1498.0, 1001)
>>> round(win_probability(1850, 1750, 7), 4)  # the favourite of a 7-point match, 100 ahead
0.5756
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

__all__ = [
    "BOT_RATINGS",
    "INITIAL_RATING",
    "PROVISIONAL_EXPERIENCE",
    "Rating",
    "counts_for_rating",
    "experience_factor",
    "rate_match",
    "rating_changes",
    "upset_probability",
    "win_probability",
]

#: Every account starts here (FIBS).
INITIAL_RATING: Final = 1500.0

#: Below this experience (match points played) a rating is provisional: the formula's
#: factor K is still above 1 there, so the rating moves up to five times faster while it
#: finds its level, and the leaderboard marks it (FIBS lists a player only after 50).
PROVISIONAL_EXPERIENCE: Final = 400

#: The bot's fixed rating per level (it never changes: the bot does not learn, and a rating
#: the bot could lose would only measure who had played it lately). How they were chosen:
#: each level played pubeval (Tesauro's public evaluation function, a stable yardstick)
#: 600 cubeless money games with duplicate dice (``python -m bench.strength --a
#: gammon-LEVEL --b pubeval --games 600 --seed 3``: beginner won 11.0% of the games,
#: casual 35.7%, intermediate 53.0%, advanced 64.5%; expert 65.5% over 5,000 games and
#: world-class and grandmaster 54.4% and 58.3% against expert, from
#: gammon/engine/TRAINING.md). Each game win rate ``p`` becomes a rating difference through
#: the formula's own model of a one-point match, ``p = 1 / (10 ** (-D / 2000) + 1)``, that
#: is ``D = 2000 * log10(p / (1 - p))``, with pubeval anchored at 1500, the rating of a
#: newcomer who plays sensible, legal backgammon with no deep plan; rounded to tens. The
#: beginner measures -316: the model says nothing useful when one side wins nine games in
#: ten, so it is placed at 800, below casual, where beating it is still worth almost nothing.
BOT_RATINGS: Final[Mapping[str, float]] = {
    "beginner": 800.0,
    "casual": 990.0,
    "intermediate": 1600.0,
    "advanced": 2020.0,
    "expert": 2060.0,
    "world-class": 2210.0,
    "grandmaster": 2350.0,
}


@dataclass(frozen=True)
class Rating:
    """A player's rating and experience (the sum of the lengths of the matches finished)."""

    rating: float = INITIAL_RATING
    experience: int = 0

    @property
    def provisional(self) -> bool:
        """Whether the rating is still finding its level (experience under 400)."""
        return self.experience < PROVISIONAL_EXPERIENCE

    def changed(self, change: float, length: int) -> Rating:
        """The rating after a match of ``length`` points that changed it by ``change``."""
        return Rating(self.rating + change, self.experience + length)


def _check_length(length: int) -> None:
    if not (isinstance(length, int) and not isinstance(length, bool) and length >= 1):
        raise ValueError(f"a rated match has a length of at least 1 point, not {length!r}")


def upset_probability(difference: float, length: int) -> float:
    """The chance that the lower-rated player wins an ``length``-point match.

    >>> upset_probability(0, 5)
    0.5
    >>> round(upset_probability(200, 5), 4)  # FIBS: the favourite must win 62.6%
    0.3741
    """
    _check_length(length)
    exponent = abs(difference) * math.sqrt(length) / 2000.0
    return 1.0 / (math.pow(10.0, exponent) + 1.0)


def win_probability(rating: float, opponent: float, length: int) -> float:
    """The chance that a player rated ``rating`` beats one rated ``opponent`` (FIBS's model)."""
    upset = upset_probability(rating - opponent, length)
    return upset if rating < opponent else 1.0 - upset


def experience_factor(experience: int) -> float:
    """FIBS's K: 5 for a newcomer, one less every 100 points of experience, never below 1.

    >>> [experience_factor(e) for e in (0, 150, 400, 9000)]
    [5.0, 3.5, 1.0, 1.0]
    """
    return max(1.0, 5.0 - experience / 100.0)


def rating_changes(winner: Rating, loser: Rating, length: int) -> tuple[float, float]:
    """What the winner gains and the loser loses (both as positive numbers).

    >>> gain, loss = rating_changes(Rating(1750, 500), Rating(1850, 500), 7)
    >>> round(gain, 4), round(loss, 4)  # the underdog won: P = 1 - P_upset
    (6.0912, 6.0912)
    """
    upset = upset_probability(winner.rating - loser.rating, length)
    p = 1.0 - upset if winner.rating < loser.rating else upset
    base = 4.0 * math.sqrt(length) * p
    return (
        base * experience_factor(winner.experience),
        base * experience_factor(loser.experience),
    )


def rate_match(winner: Rating, loser: Rating, length: int) -> tuple[Rating, Rating]:
    """Both players' ratings after ``winner`` beat ``loser`` in a ``length``-point match."""
    gain, loss = rating_changes(winner, loser, length)
    return winner.changed(gain, length), loser.changed(-loss, length)


def counts_for_rating(
    *,
    mode: str,
    accounts: int,
    bots: int,
    rated: bool = True,
    took_part: bool = True,
) -> bool:
    """Whether a finished series changes ratings.

    - Only matches: a money session has no length for the formula and no end that
      both players agreed to (FIBS does not rate its "unlimited" matches either).
    - Both seats are accounts, or one account plays the bot (whose rating is fixed); a
      guest at the table makes it unrated, as does a table created unrated.
    - Every player at the table took part (acted at least once: a roll, a play, a cube
      action). A match won because the opponent never came is recorded but not rated; a
      match resigned, forfeited or lost on time once both had played counts like any
      other.

    >>> counts_for_rating(mode="match", accounts=2, bots=0)
    True
    >>> counts_for_rating(mode="match", accounts=1, bots=1)  # the bot's rating is fixed
    True
    >>> counts_for_rating(mode="money", accounts=2, bots=0)
    False
    >>> counts_for_rating(mode="match", accounts=1, bots=0)  # a guest on the other side
    False
    """
    return rated and mode == "match" and accounts + bots == 2 and accounts >= 1 and took_part
