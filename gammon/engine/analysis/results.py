"""What an analysis finds, as plain values: decisions reviewed, luck, and per-player figures.

Every equity here is *normalised*: money equity per unit of the cube the
decision was taken under, and in match play the match winning chance (MWC)
turned into equivalent-to-money equity (EMG) at the score and cube of the
decision, as GNU Backgammon and eXtreme Gammon show it. A loss of 0.1 is the
same size of mistake at any cube and any score. Costs in the game's own
currency (points for money, MWC for a match) sit next to them where a sum of
them means something (``cost``, ``luck_cost``).

:meth:`Analysis.to_json` gives the whole analysis as JSON for exports and the server.

>>> mark_for(0.05), mark_for(0.2), mark_for(0.0)
(<Mark.DOUBTFUL: 'doubtful'>, <Mark.VERY_BAD: 'very bad'>, <Mark.NONE: ''>)
>>> luck_mark_for(-0.7)
<LuckMark.VERY_UNLUCKY: 'very unlucky'>
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, Final

__all__ = [
    "EngineLabel",
    "BAD",
    "CLOSE_CUBE",
    "DOUBTFUL",
    "LUCKY",
    "PR_SCALE",
    "VERY_BAD",
    "VERY_LUCKY",
    "Analysis",
    "Candidate",
    "CheckerReview",
    "CubeReview",
    "GameAnalysis",
    "LuckMark",
    "Mark",
    "Unit",
    "PlayerSummary",
    "RollLuck",
    "luck_mark_for",
    "mark_for",
    "rating_words",
    "summarise",
]

#: A decision that loses this much normalised equity or more is doubtful (GNU Backgammon's default).
DOUBTFUL: Final = 0.04
#: ... bad (GNU Backgammon's default).
BAD: Final = 0.08
#: ... very bad, a blunder (GNU Backgammon's default).
VERY_BAD: Final = 0.16
#: A roll that gains this much normalised equity against the average roll is lucky
#: (minus it: unlucky), as GNU Backgammon marks luck.
LUCKY: Final = 0.3
#: ... very lucky (minus it: very unlucky).
VERY_LUCKY: Final = 0.6
#: A no-double counts as a cube decision when doubling would cost less than this
#: (GNU Backgammon's ``isCloseCubedecision``); doubles, takes and passes always count.
CLOSE_CUBE: Final = 0.16
#: The performance rating is this times the mean normalised error per decision (XG's PR).
PR_SCALE: Final = 500.0


class Mark(StrEnum):
    """How bad a decision was, by its loss (GNU Backgammon's marks)."""

    NONE = ""
    DOUBTFUL = "doubtful"
    BAD = "bad"
    VERY_BAD = "very bad"


class Unit(StrEnum):
    """The unit a review shows its figures in: equity in money play (points a game, per
    unit of the cube), the match winning chance in match play. Marks and the rating stay
    on normalised equity, so that a mistake is the same size at any score."""

    EQUITY = "equity"
    MWC = "mwc"

    @property
    def words(self) -> str:
        """The unit named for a player."""
        if self is Unit.MWC:
            return "match winning chance"
        return "equity (points a game, per unit of the cube)"

    @classmethod
    def of_match(cls, match_length: int) -> Unit:
        return cls.MWC if match_length else cls.EQUITY


class LuckMark(StrEnum):
    NONE = ""
    VERY_LUCKY = "very lucky"
    LUCKY = "lucky"
    UNLUCKY = "unlucky"
    VERY_UNLUCKY = "very unlucky"


def mark_for(loss: float) -> Mark:
    """The mark of a decision that lost ``loss`` (normalised equity)."""
    if loss >= VERY_BAD:
        return Mark.VERY_BAD
    if loss >= BAD:
        return Mark.BAD
    if loss >= DOUBTFUL:
        return Mark.DOUBTFUL
    return Mark.NONE


def luck_mark_for(luck: float) -> LuckMark:
    if luck >= VERY_LUCKY:
        return LuckMark.VERY_LUCKY
    if luck >= LUCKY:
        return LuckMark.LUCKY
    if luck <= -VERY_LUCKY:
        return LuckMark.VERY_UNLUCKY
    if luck <= -LUCKY:
        return LuckMark.UNLUCKY
    return LuckMark.NONE


# Bands of the performance rating, best first: (highest PR in the band, words). They
# are GNU Backgammon's rating bands on the error rate per decision (0.002, 0.005, ...),
# times PR_SCALE; eXtreme Gammon's published bands are close to them.
_RATINGS: Final = (
    (1.0, "supernatural"),
    (2.5, "world class"),
    (4.0, "expert"),
    (6.0, "advanced"),
    (9.0, "intermediate"),
    (13.0, "casual player"),
    (17.5, "beginner"),
)


def rating_words(rating: float) -> str:
    """A performance rating in words.

    >>> rating_words(3.2), rating_words(25.0)
    ('expert', 'awful')
    """
    for top, words in _RATINGS:
        if rating < top:
            return words
    return "awful"


@dataclass(frozen=True)
class Candidate:
    """One play considered at a checker decision, with its figures for the mover."""

    play: str
    #: Cubeful normalised equity after the play, for the mover.
    equity: float
    #: How much it gives up against the best candidate (0 for the best).
    loss: float
    #: Cubeless chances after the play, for the mover: win, win gammon, win
    #: backgammon, lose gammon, lose backgammon (cumulative, as GNU Backgammon).
    chances: tuple[float, float, float, float, float]
    #: The depth the chances were searched to.
    ply: int
    #: The mover's match winning chance after the play (match play; None for money).
    mwc: float | None = None


@dataclass(frozen=True)
class CheckerReview:
    """A checker play that was a decision (more than one legal play)."""

    game: int
    #: Where the play stands in the game's history.
    index: int
    side: int
    dice: tuple[int, int]
    #: The position before the play, the mover on roll (GNU Position ID; None if it
    #: cannot be written, as with acey-deucey checkers still waiting).
    position_id: str | None
    match_id: str
    played: str
    #: The best candidates, best first; the played one is among them.
    candidates: tuple[Candidate, ...]
    #: The played play's place among all legal plays (0: the best).
    rank: int
    legal_plays: int
    loss: float
    #: The loss in the game's currency: points (money) or MWC (match).
    cost: float
    mark: Mark

    @property
    def best(self) -> Candidate:
        return self.candidates[0]


@dataclass(frozen=True)
class CubeReview:
    """A cube decision: whether ``side`` should double, and the opponent's answer if it did.

    Equities are the doubler's, normalised. ``doubler_loss`` is what ``side``
    lost by its cube action (against the opponent's best answer);
    ``taker_loss`` what the opponent lost by its answer (0 when no double).
    """

    game: int
    index: int
    side: int
    position_id: str | None
    match_id: str
    cube_value: int
    #: Cubeless chances of the side on roll, before rolling.
    chances: tuple[float, float, float, float, float]
    no_double: float
    double_take: float
    double_pass: float
    double_beaver: float | None
    #: The right action in GNU Backgammon's words ("Double, take", "No redouble, pass"...).
    verdict: str
    #: The best the doubler can get: the better of no double and the double answered best.
    optimal: float
    doubled: bool
    #: "take", "pass", "beaver" or None when there was no double (or no answer yet).
    response: str | None
    doubler_loss: float
    doubler_cost: float
    doubler_mark: Mark
    taker_loss: float
    taker_cost: float
    taker_mark: Mark
    #: Whether it counts as a cube decision of the doubler (a double, or a close no-double).
    close: bool
    ply: int
    #: The doubler's match winning chance after no double, a double taken and a double
    #: passed (match play; None for money): the figures a match review shows.
    no_double_mwc: float | None = None
    double_take_mwc: float | None = None
    double_pass_mwc: float | None = None

    @property
    def missed_double(self) -> bool:
        return not self.doubled and self.doubler_loss > 0.0

    @property
    def wrong_double(self) -> bool:
        return self.doubled and self.doubler_loss > 0.0

    @property
    def wrong_take(self) -> bool:
        return self.response in ("take", "beaver") and self.taker_loss > 0.0

    @property
    def wrong_pass(self) -> bool:
        return self.response == "pass" and self.taker_loss > 0.0


@dataclass(frozen=True)
class RollLuck:
    """How much a roll gained its roller against the average of all 36 rolls.

    ``chances`` and ``equity`` are where the roller stood just before the roll
    (cubeless chances, and cubeful normalised equity with the cube action still
    to take), searched as deep as the decisions: one point of a game's equity
    graph each. The opening roll has none, nobody being on roll before it.
    """

    game: int
    index: int
    side: int
    dice: tuple[int, int]
    #: Normalised equity after the best play of this roll, minus the average over the rolls.
    luck: float
    #: The same in the game's currency: points (money) or MWC (match).
    cost: float
    mark: LuckMark
    chances: tuple[float, float, float, float, float] | None = None
    equity: float | None = None
    opening: bool = False


@dataclass(frozen=True)
class PlayerSummary:
    """One player's figures over a game or a whole match or session.

    ``error_rate`` is the mean normalised error per decision counted:
    unforced checker plays, plus cube decisions that were doubles, takes,
    passes or close no-doubles (forced plays and obvious no-doubles are left
    out, as GNU Backgammon and eXtreme Gammon count them). ``rating`` is
    eXtreme Gammon's performance rating (PR): ``500 * error_rate``, so a PR of
    5 is 0.01 equity lost per decision; lower is better (``rating_words``).
    ``luck`` sums the normalised luck of the player's rolls; ``luck_cost`` the
    same in points (money) or MWC (match). ``result`` is what the player won:
    points (money) or MWC gained (match; a match won from the start is
    ``1 - MWC at the start``). ``luck_adjusted`` takes the dice out of it:
    ``result - (luck_cost - opponent's luck_cost)``, GNU Backgammon's
    luck-adjusted result. ``missed_doubles``, ``wrong_doubles``, ``wrong_takes`` and
    ``wrong_passes`` count the cube mistakes, those that lost :data:`DOUBTFUL` or more
    (the ones the teacher explains and its patterns count).
    """

    side: int
    name: str
    checker_decisions: int
    forced_plays: int
    checker_error: float
    checker_cost: float
    checker_error_rate: float
    doubtful: int
    bad: int
    very_bad: int
    cube_decisions: int
    cube_error: float
    cube_cost: float
    cube_error_rate: float
    missed_doubles: int
    wrong_doubles: int
    wrong_takes: int
    wrong_passes: int
    decisions: int
    error: float
    cost: float
    error_rate: float
    rating: float
    rating_words: str
    luck: float
    luck_cost: float
    lucky_rolls: int
    unlucky_rolls: int
    result: float
    luck_adjusted: float


def _rate(total: float, count: int) -> float:
    return total / count if count else 0.0


def summarise(
    side: int,
    name: str,
    checker: Iterable[CheckerReview],
    cube: Iterable[CubeReview],
    luck: Iterable[RollLuck],
    forced_plays: int,
    results: tuple[float, float],
) -> PlayerSummary:
    """One player's figures from the decisions and rolls of both players.

    Why this function is long: it is one constructor of :class:`PlayerSummary`'s 27
    fields, each figure computed in a line or two beside its name; cut in parts, the
    parts would hand back loose dictionaries of fields that mypy can no longer check
    against the class.
    """
    plays = [review for review in checker if review.side == side]
    cubes = list(cube)
    rolls = list(luck)
    doubler = [review for review in cubes if review.side == side and review.close]
    taker = [review for review in cubes if review.side != side and review.response is not None]
    checker_error = sum((review.loss for review in plays), 0.0)
    cube_error = sum((review.doubler_loss for review in doubler), 0.0) + sum(
        (review.taker_loss for review in taker), 0.0
    )
    cube_count = len(doubler) + len(taker)
    checker_cost = sum((review.cost for review in plays), 0.0)
    cube_cost = sum((review.doubler_cost for review in doubler), 0.0) + sum(
        (review.taker_cost for review in taker), 0.0
    )
    decisions = len(plays) + cube_count
    error = checker_error + cube_error
    rate = _rate(error, decisions)
    mine = [roll for roll in rolls if roll.side == side]
    luck_cost = sum((roll.cost for roll in mine), 0.0)
    their_luck_cost = sum((roll.cost for roll in rolls if roll.side != side), 0.0)
    marks = [review.mark for review in plays]
    return PlayerSummary(
        side=side,
        name=name,
        checker_decisions=len(plays),
        forced_plays=forced_plays,
        checker_error=checker_error,
        checker_cost=checker_cost,
        checker_error_rate=_rate(checker_error, len(plays)),
        doubtful=marks.count(Mark.DOUBTFUL),
        bad=marks.count(Mark.BAD),
        very_bad=marks.count(Mark.VERY_BAD),
        cube_decisions=cube_count,
        cube_error=cube_error,
        cube_cost=cube_cost,
        cube_error_rate=_rate(cube_error, cube_count),
        # Counted as mistakes are (doubtful or worse), so that the summary's counts and the
        # teacher's patterns, which explain those, agree.
        missed_doubles=sum(1 for r in doubler if r.missed_double and r.doubler_loss >= DOUBTFUL),
        wrong_doubles=sum(1 for r in doubler if r.wrong_double and r.doubler_loss >= DOUBTFUL),
        wrong_takes=sum(1 for r in taker if r.wrong_take and r.taker_loss >= DOUBTFUL),
        wrong_passes=sum(1 for r in taker if r.wrong_pass and r.taker_loss >= DOUBTFUL),
        decisions=decisions,
        error=error,
        cost=checker_cost + cube_cost,
        error_rate=rate,
        rating=PR_SCALE * rate,
        rating_words=rating_words(PR_SCALE * rate),
        luck=sum((roll.luck for roll in mine), 0.0),
        luck_cost=luck_cost,
        lucky_rolls=sum(1 for roll in mine if roll.luck >= LUCKY),
        unlucky_rolls=sum(1 for roll in mine if roll.luck <= -LUCKY),
        result=results[side],
        luck_adjusted=results[side] - (luck_cost - their_luck_cost),
    )


@dataclass(frozen=True)
class GameAnalysis:
    """Every decision and roll of one game, and each player's figures in it."""

    #: The game's number in its match or session, from 1.
    number: int
    #: The score before the game (side 0 first); the match length, 0 for money.
    score: tuple[int, int]
    match_length: int
    #: The winner, the points and how, once the game is over.
    winner: int | None
    points: int
    end: str | None
    checker: tuple[CheckerReview, ...]
    cube: tuple[CubeReview, ...]
    luck: tuple[RollLuck, ...]
    forced_plays: tuple[int, int]
    #: What each side won: points (money) or MWC (match).
    results: tuple[float, float]
    players: tuple[PlayerSummary, PlayerSummary]

    def mistakes(self, threshold: float = DOUBTFUL) -> list[CheckerReview | CubeReview]:
        """Decisions that lost at least ``threshold``, worst first."""
        return _mistakes(self.checker, self.cube, threshold)


@dataclass(frozen=True)
class EngineLabel:
    """Which engine judged a review and how deep: other programs' nets can stand in for
    ours (:mod:`gammon.engine.engines`), so every review says whose figures it shows."""

    name: str
    ply: int

    def __str__(self) -> str:
        return f"{self.name} at {self.ply}-ply"


@dataclass(frozen=True)
class Analysis:
    """A game, match or session analysed: each game, and each player's figures over all."""

    #: "game", "match" or "session".
    kind: str
    match_length: int
    names: tuple[str, str]
    #: The search depth of the decisions, and of the luck.
    ply: int
    luck_ply: int
    games: tuple[GameAnalysis, ...]
    players: tuple[PlayerSummary, PlayerSummary]
    #: The engine whose figures these are, and the depth (``"engine": {"name", "ply"}``).
    engine: EngineLabel

    @property
    def checker(self) -> tuple[CheckerReview, ...]:
        return tuple(review for game in self.games for review in game.checker)

    @property
    def cube(self) -> tuple[CubeReview, ...]:
        return tuple(review for game in self.games for review in game.cube)

    @property
    def luck(self) -> tuple[RollLuck, ...]:
        return tuple(roll for game in self.games for roll in game.luck)

    def mistakes(self, threshold: float = DOUBTFUL) -> list[CheckerReview | CubeReview]:
        """Decisions of either player that lost at least ``threshold``, worst first."""
        return _mistakes(self.checker, self.cube, threshold)

    @property
    def unit(self) -> Unit:
        """The unit its figures are shown in (the review's ``mwc`` fields in a match)."""
        return Unit.of_match(self.match_length)

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready dicts, lists, numbers and strings, with the unit its
        figures are shown in (``"unit"``: "equity" or "mwc", and ``"unit_words"``)."""
        document: dict[str, Any] = _plain(self)
        document["unit"] = self.unit.value
        document["unit_words"] = self.unit.words
        return document

    def to_json(self, indent: int | None = None) -> str:
        """The analysis as a JSON document (see :meth:`to_dict`)."""
        return json.dumps(self.to_dict(), indent=indent)


def _mistakes(
    checker: Sequence[CheckerReview], cube: Sequence[CubeReview], threshold: float
) -> list[CheckerReview | CubeReview]:
    found: list[tuple[float, CheckerReview | CubeReview]] = [
        (review.loss, review) for review in checker if review.loss >= threshold
    ]
    found += [
        (max(review.doubler_loss, review.taker_loss), review)
        for review in cube
        if max(review.doubler_loss, review.taker_loss) >= threshold
    ]
    found.sort(key=lambda pair: -pair[0])
    return [review for _, review in found]


def _plain(value: Any) -> Any:
    """Dataclasses, enums and tuples as JSON's dicts, strings and lists; floats rounded."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: _plain(getattr(value, field.name)) for field in dataclasses.fields(value)
        }
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, float):
        return round(value, 6)
    return value
