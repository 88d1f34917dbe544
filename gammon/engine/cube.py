"""Doubling-cube decisions from cubeless chances, for money and match play (R10-R12).

Why this module is long: the cube state, Janowski's money and match formulas and the
efficiency by class of position are one model whose parts share every helper; the
search over rolls is :mod:`gammon.engine.cubeful`, the match equity table
:mod:`gammon.engine.met`.

An evaluator gives cubeless chances (win, win gammon, win backgammon, lose gammon,
lose backgammon; cumulative as in GNU Backgammon). Turning them into cubeful
equities uses Rick Janowski's cube-life model ("Take-Points in Money Games",
1993): the cubeful equity is the cubeless (dead cube) equity and the equity of a
perfectly efficient (fully live) cube mixed by the cube efficiency ``x``::

    cubeful = (1 - x) * dead + x * live

The live cube equity is piecewise linear in the winning chance ``p`` between the
points where a double is cashed: a player's chances drift without jumps, so the
equity at ``p`` is the linear interpolation between the chances at which the game
is decided. For money, with ``W`` and ``L`` the average cubeless value of a win and
of a loss, the cash point is ``(L + 1) / (W + L + 1/2)`` and the taker's take point
(the taker's own chances, ``W`` and ``L`` being the doubler's) is
``(W - 1/2) / (W + L + x/2)``: 25% with a dead cube (``x = 0``), 20% fully live.

Match play (R12) uses the same idea on match winning chances (MWC) from a
:class:`~gammon.engine.met.MatchScore`: each cube level's cash points are worked
out from the top down, from the level where the cube is dead (it already covers
what its owner needs, or has reached the maximum) to the current one. So dead
cubes, post-Crawford doubles and automatic redoubles come out of the model.

Money equities are per unit of the current cube (a cash is +1), as GNU Backgammon
shows them; match equities are MWC.

>>> last_roll = (0.7, 0.0, 0.0, 0.0, 0.0)  # a dead cube: x = 0
>>> decision = cube_decision(last_roll, CubeState(), efficiency=0.0)
>>> str(decision), round(decision.no_double, 3), round(decision.double_take, 3)
('Double, take', 0.4, 0.8)
>>> round(cube_decision((0.5, 0, 0, 0, 0), CubeState()).take_point, 4)
0.2137
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

from gammon.engine.met import InvalidCubeStateError, MatchScore
from gammon.errors import IllegalActionError
from gammon.rules import cube_refusal

if TYPE_CHECKING:
    from gammon.game import Game
    from gammon.position import Position
    from gammon.rules import GameRules

__all__ = [
    "CONTACT_EFFICIENCY",
    "CRASHED_EFFICIENCY",
    "FLUID_EFFICIENCY",
    "PRIME_EFFICIENCY",
    "Chances",
    "CubeDecision",
    "CubeOwner",
    "CubeState",
    "DoublerVerdict",
    "InvalidCubeStateError",
    "TakerVerdict",
    "best_action_equity",
    "cube_action_equity",
    "cube_decision",
    "cube_efficiency",
    "cubeful_equity",
    "double_refusal",
    "may_double",
    "position_class",
    "with_equities",
]

#: GNU Backgammon's default cube efficiency for contact positions (ordinary contact here).
CONTACT_EFFICIENCY = 0.68

# GNU Backgammon's defaults for races: x = pips * 0.00125 + 0.55, kept within
# [0.6, 0.7]; 0.6 for bear-offs ("show evaluation" / set cube efficiency ...).
_RACE_FACTOR = 0.00125
_RACE_COEFFICIENT = 0.55
_RACE_MIN = 0.6
_RACE_MAX = 0.7
_BEAROFF_EFFICIENCY = 0.6

_TIE = 1e-9  # equities closer than this are equal: no double when nothing is gained
_SLACK = 1e-6  # how far the evaluator's chances may stray outside [0, 1]


class CubeOwner(Enum):
    """Who holds the cube, seen from the player on roll (the one who may double)."""

    CENTRED = "centred"
    ME = "me"
    OPPONENT = "opponent"

    def swapped(self) -> CubeOwner:
        """The same owner seen from the other player."""
        if self is CubeOwner.ME:
            return CubeOwner.OPPONENT
        if self is CubeOwner.OPPONENT:
            return CubeOwner.ME
        return self


class DoublerVerdict(Enum):
    """What the player on roll should do with the cube."""

    NO_DOUBLE = "no double"
    DOUBLE_TAKE = "double, take"
    DOUBLE_PASS = "double, pass"
    #: Playing on (for a gammon) is worth more than the point a double would cash.
    TOO_GOOD = "too good to double"


class TakerVerdict(Enum):
    """What the opponent should do if doubled (R10, R11)."""

    TAKE = "take"
    PASS = "pass"
    BEAVER = "beaver"


@runtime_checkable
class _HasProbabilities(Protocol):
    @property
    def probabilities(self) -> tuple[float, float, float, float, float]: ...


#: Cubeless chances: an :class:`~gammon.engine.evaluator.Evaluation` or its five numbers.
Chances = Iterable[float] | _HasProbabilities


@dataclass(frozen=True)
class CubeState:
    """The cube and the score, seen from the player on roll.

    ``score`` is None for money play. ``available`` is False when the game has no
    cube at all (an option of R10, or a variant such as tavla, R14); the Crawford
    game is marked on the score. ``gammons=False`` scores every win as single.

    >>> CubeState(2, CubeOwner.ME, jacoby=True).swapped()
    CubeState(value=2, owner=<CubeOwner.OPPONENT: 'opponent'>, score=None, jacoby=True, \
beavers=False, max_cube=64, available=True, gammons=True)
    """

    value: int = 1
    owner: CubeOwner = CubeOwner.CENTRED
    score: MatchScore | None = None
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = 64
    available: bool = True
    gammons: bool = True

    def __post_init__(self) -> None:
        for name, number in (("cube value", self.value), ("maximum cube", self.max_cube)):
            if (
                not isinstance(number, int)
                or isinstance(number, bool)
                or number < 1
                or number & (number - 1)
            ):
                raise InvalidCubeStateError(
                    f"the {name} must be a power of two (1, 2, 4...), got {number!r}"
                )
        if self.value > self.max_cube:
            raise InvalidCubeStateError(
                f"the cube shows {self.value}, above the maximum {self.max_cube}"
            )
        if not isinstance(self.owner, CubeOwner):
            raise InvalidCubeStateError(f"the cube owner must be a CubeOwner, not {self.owner!r}")
        if self.score is None:
            return
        if self.jacoby or self.beavers:
            raise InvalidCubeStateError("Jacoby and beavers are for money play only")
        if self.owner is CubeOwner.CENTRED and self.value != 1:
            raise InvalidCubeStateError(f"a centred cube in match play shows 1, not {self.value}")
        if self.score.crawford and (self.value != 1 or self.owner is not CubeOwner.CENTRED):
            raise InvalidCubeStateError("the cube is never turned in the Crawford game")

    @property
    def is_money(self) -> bool:
        return self.score is None

    def swapped(self) -> CubeState:
        """The same state from the opponent's side."""
        return CubeState(
            self.value,
            self.owner.swapped(),
            None if self.score is None else self.score.swapped(),
            self.jacoby,
            self.beavers,
            self.max_cube,
            self.available,
            self.gammons,
        )

    @classmethod
    def from_rules(
        cls,
        rules: GameRules,
        *,
        value: int = 1,
        owner: CubeOwner = CubeOwner.CENTRED,
        score: MatchScore | None = None,
    ) -> CubeState:
        """The state a game's rules imply; a match game needs its ``score``.

        >>> from gammon.rules import GameRules
        >>> CubeState.from_rules(GameRules("tavla")).available
        False
        """
        if rules.match_length and score is None:
            raise InvalidCubeStateError(
                f"a game of a {rules.match_length}-point match needs the match score"
            )
        if not rules.match_length and score is not None:
            raise InvalidCubeStateError("money play (match length 0) has no match score")
        if score is not None and score.crawford != rules.crawford:
            raise InvalidCubeStateError(
                f"the rules say crawford={rules.crawford}, the score crawford={score.crawford}"
            )
        return cls(
            value,
            owner,
            score,
            jacoby=rules.jacoby,
            beavers=rules.beavers,
            max_cube=rules.max_cube,
            available=rules.cube and rules.variant.cube,
            gammons=rules.gammons,
        )

    @classmethod
    def of_game(cls, game: Game, side: int, score: tuple[int, int] = (0, 0)) -> CubeState:
        """The cube and match score of ``game`` seen from ``side``; ``score`` is before the game.

        >>> from gammon.game import Game
        >>> CubeState.of_game(Game(), 0).owner
        <CubeOwner.CENTRED: 'centred'>
        """
        owner = game.cube_owner
        relative = (
            CubeOwner.CENTRED
            if owner is None
            else CubeOwner.ME
            if owner == side
            else CubeOwner.OPPONENT
        )
        rules = game.rules
        match_score = None
        if rules.match_length:
            away_me = rules.match_length - score[side]
            away_opponent = rules.match_length - score[1 - side]
            match_score = MatchScore(
                away_me,
                away_opponent,
                crawford=rules.crawford,
                post_crawford=not rules.crawford and 1 in (away_me, away_opponent),
            )
        return cls.from_rules(rules, value=game.cube_value, owner=relative, score=match_score)


def double_refusal(state: CubeState) -> str | None:
    """Why the player on roll may not double in ``state``, or None if they may.

    >>> double_refusal(CubeState(owner=CubeOwner.OPPONENT))
    'the opponent owns the cube'
    >>> double_refusal(CubeState(score=MatchScore(1, 4, crawford=True)))
    'there is no doubling in the Crawford game'
    """
    return cube_refusal(
        available=state.available,
        crawford=state.score is not None and state.score.crawford,
        opponent_owns=state.owner is CubeOwner.OPPONENT,
        value=state.value,
        max_cube=state.max_cube,
    )


def may_double(state: CubeState) -> bool:
    """Whether the player on roll may offer the cube (R10-R12, R14).

    >>> may_double(CubeState()), may_double(CubeState(available=False))
    (True, False)
    """
    return double_refusal(state) is None


#: Contact where the cube is most alive: both sides still far from home, neither
#: crashed nor trapped (an early or middle game).
FLUID_EFFICIENCY = 0.72
#: Contact with a checker trapped behind a prime of four points or more.
PRIME_EFFICIENCY = 0.62
#: Contact with a crashed side (most of its checkers buried or borne off).
CRASHED_EFFICIENCY = 0.58

_FLUID_PIPS = 120  # both sides at least this far from home: the game still fluid
_CRASHED_IN_PLAY = 7  # at most this many checkers in play above the deuce point
_PRIME_LENGTH = 4  # made points in a row that count as a prime
_PRIME_REACH = 6  # the prime starts at most this many pips in front of the trapped checker


def _longest_run(points: Sequence[int], low: int, high: int) -> tuple[int, int]:
    """The longest run of made points among ``points[low..high]`` (1-based): (length, start)."""
    best, best_start, run = 0, 0, 0
    for point in range(low, high + 1):
        run = run + 1 if points[point - 1] >= 2 else 0
        if run > best:
            best, best_start = run, point - run + 1
    return best, best_start


def _trapped(runner: Sequence[int], blocker: Sequence[int]) -> bool:
    """Whether a checker of ``runner`` sits behind a prime of ``blocker`` (4+ points, near).

    Both sides are given from their owners' side (points 1-24, then the bar). A
    checker of ``runner`` on its point ``a`` stands on the blocker's point
    ``25 - a`` and must pass the blocker's higher points.
    """
    for a in range(25, 6, -1):  # the bar and points 24..7: checkers not yet home
        if not runner[a - 1]:
            continue
        q = 25 - a  # the blocker's point the checker stands on (0: the bar)
        length, start = _longest_run(blocker, q + 1, min(24, q + _PRIME_REACH + _PRIME_LENGTH))
        if length >= _PRIME_LENGTH and start - q <= _PRIME_REACH:
            return True
    return False


def _crashed(side: Sequence[int]) -> bool:
    """At most seven checkers in play above the deuce point (the rest buried or off)."""
    return sum(side[2:25]) <= _CRASHED_IN_PLAY


def position_class(position: Position) -> str:
    """The class of a position for the cube and the benches.

    ``"bearoff"`` (both sides home), ``"race"`` (no contact), ``"crashed"`` (a
    side with at most seven checkers in play above its deuce point), ``"prime"``
    (a checker behind a prime of four or more points that starts within six
    pips of it) or ``"contact"``.

    >>> from gammon.position import Position
    >>> position_class(Position.initial())
    'contact'
    >>> position_class(Position.from_points({13: 15}, {6: 15}))
    'race'
    >>> position_class(Position.from_points({24: 1, 13: 14}, {8: 2, 7: 2, 6: 2, 5: 2, 13: 7}))
    'prime'
    """
    if not position.is_contact():
        if all(
            sum(side[6:]) == 0 and waiting == 0
            for side, waiting in zip(
                (position.mine, position.theirs), position.waiting, strict=True
            )
        ):
            return "bearoff"
        return "race"
    mine, theirs = position.mine, position.theirs
    if _crashed(mine) or _crashed(theirs):
        return "crashed"
    if _trapped(mine, theirs) or _trapped(theirs, mine):
        return "prime"
    return "contact"


def cube_efficiency(position: Position) -> float:
    """Janowski's cube efficiency ``x`` for a position: how live the cube is.

    ``x`` is the share of the perfectly live cube's value the owner really
    gets: a cube is worth most when the game drifts through the cash point in
    small steps (the owner cashes right at it) and least when it jumps over
    it (a hit, a closeout, an escape: the market is lost and the take was
    wrong). So it depends on the kind of game:

    - **race**: GNU Backgammon's ``0.55 + 0.00125 * pips`` of the player on
      roll, kept within [0.6, 0.7] (long races swing in small steps; near the
      end each roll is a big share of what is left); 0.6 once both bear off;
    - **fluid contact** (both sides 120 pips or more away, no one crashed or
      primed): 0.72, many small swings, the game can turn either way and the
      owner gets to use the cube;
    - **ordinary contact** (holding games, late middle games): 0.68, GNU
      Backgammon's default;
    - **a checker behind a prime**: 0.62, the game turns on one event (the
      escape or the closeout), big jumps the owner cannot cash in between;
    - **a crashed board**: 0.58, the crashed side's position changes in
      jumps (it is hit and closed out, or gets a late shot) and gammons
      decide much of the equity, so the cube is least alive.

    >>> from gammon.position import Position
    >>> cube_efficiency(Position.initial())
    0.72
    >>> cube_efficiency(Position.from_points({13: 15}, {6: 15}))  # a long race
    0.7
    >>> cube_efficiency(Position.from_points({6: 15}, {6: 15}))  # both bearing off
    0.6
    """
    kind = position_class(position)
    if kind == "bearoff":
        return _BEAROFF_EFFICIENCY
    if kind == "race":
        pips = position.pips()[0]
        return min(_RACE_MAX, max(_RACE_MIN, _RACE_COEFFICIENT + _RACE_FACTOR * pips))
    if kind == "crashed":
        return CRASHED_EFFICIENCY
    if kind == "prime":
        return PRIME_EFFICIENCY
    if min(position.pips()) >= _FLUID_PIPS:
        return FLUID_EFFICIENCY
    return CONTACT_EFFICIENCY


# -- chances ------------------------------------------------------------------


@dataclass(frozen=True)
class _Odds:
    """Cleaned chances, with gammon rates as shares of wins and of losses."""

    win: float
    win_gammon: float  # share of wins that are gammons (backgammons included)
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float


def _odds(chances: Chances, gammons: bool) -> _Odds:
    # getattr, not isinstance: a runtime Protocol check costs more than the rest here.
    found = getattr(chances, "probabilities", None)
    values: Iterable[float] = cast("Iterable[float]", chances) if found is None else found
    numbers = [float(v) for v in values]
    if len(numbers) != 5:
        raise InvalidCubeStateError(
            f"cubeless chances are five numbers (win, win gammon, win backgammon, "
            f"lose gammon, lose backgammon), got {len(numbers)}"
        )
    for name, v in zip(
        ("win", "win gammon", "win backgammon", "lose gammon", "lose backgammon"),
        numbers,
        strict=True,
    ):
        if not -_SLACK <= v <= 1.0 + _SLACK:  # also rejects NaN
            raise InvalidCubeStateError(f"the {name} chance must be from 0 to 1, got {v}")
    win, wg, wbg, lg, lbg = (min(1.0, max(0.0, v)) for v in numbers)
    if not gammons:
        wg = wbg = lg = lbg = 0.0
    lose = 1.0 - win
    # Cumulative chances: a backgammon is a gammon, a gammon a win; enforce it.
    wg = min(wg, win)
    wbg = min(wbg, wg)
    lg = min(lg, lose)
    lbg = min(lbg, lg)
    return _Odds(
        win,
        wg / win if win > 0 else 0.0,
        wbg / win if win > 0 else 0.0,
        lg / lose if lose > 0 else 0.0,
        lbg / lose if lose > 0 else 0.0,
    )


# -- piecewise-linear equity curves over the winning chance --------------------


@dataclass(frozen=True)
class _Curve:
    """A piecewise-linear function of the winning chance p on [0, 1]."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]

    def at(self, p: float) -> float:
        i = min(max(bisect.bisect_right(self.xs, p) - 1, 0), len(self.xs) - 2)
        x0, x1 = self.xs[i], self.xs[i + 1]
        y0, y1 = self.ys[i], self.ys[i + 1]
        return y0 + (y1 - y0) * (p - x0) / (x1 - x0)

    def solve(self, y: float) -> float:
        """The p where this non-decreasing curve reaches ``y`` (0 or 1 beyond its range)."""
        if y <= self.ys[0]:
            return 0.0
        for i in range(len(self.xs) - 1):
            y0, y1 = self.ys[i], self.ys[i + 1]
            if y0 <= y <= y1 and y1 > y0:
                return self.xs[i] + (self.xs[i + 1] - self.xs[i]) * (y - y0) / (y1 - y0)
        return 1.0


def _curve(start: float, inner: Sequence[tuple[float, float]], end: float) -> _Curve:
    """From (0, start) through the ``inner`` points to (1, end); points out of order drop."""
    xs, ys = [0.0], [start]
    for x, y in inner:
        if xs[-1] < x < 1.0:
            xs.append(x)
            ys.append(y)
    xs.append(1.0)
    ys.append(end)
    return _Curve(tuple(xs), tuple(ys))


def _line(start: float, end: float) -> _Curve:
    return _Curve((0.0, 1.0), (start, end))


def _mix(*parts: tuple[float, _Curve]) -> _Curve:
    """The weighted sum of curves (weights need not add up to 1)."""
    xs = tuple(sorted({x for _, part in parts for x in part.xs}))
    ys = tuple(sum(weight * part.at(x) for weight, part in parts) for x in xs)
    return _Curve(xs, ys)


def _blend(live: _Curve, dead: _Curve, x: float) -> _Curve:
    return _mix((x, live), (1.0 - x, dead))


@dataclass(frozen=True)
class _Curves:
    no_double: _Curve
    double_take: _Curve
    double_beaver: _Curve | None
    double_pass: float


# -- money: Janowski's formulas ----------------------------------------------


def _money_curves(odds: _Odds, state: CubeState, x: float) -> _Curves:
    """Equities per unit of the current cube (Janowski 1993)."""
    big_w = 1.0 + odds.win_gammon + odds.win_backgammon
    big_l = 1.0 + odds.lose_gammon + odds.lose_backgammon
    cash = (big_l + 1.0) / (big_w + big_l + 0.5)  # my cash point
    their_cash = (big_l - 0.5) / (big_w + big_l + 0.5)  # theirs, in my chances
    dead = _line(-big_l, big_w)

    def owned(owner: CubeOwner, value: int) -> _Curve:
        """Cubeful equity per unit with the cube turned to ``value`` (gammons count)."""
        if not state.available or 2 * value > state.max_cube:
            return dead
        if owner is CubeOwner.ME:
            live = _curve(-big_l, [(cash, 1.0)], big_w)
        else:
            live = _curve(-big_l, [(their_cash, -1.0)], big_w)
        return _blend(live, dead, x)

    value = state.value
    if state.owner is not CubeOwner.CENTRED:
        no_double = owned(state.owner, value)
    else:
        # Jacoby (R11): gammons count only once the cube has been turned.
        jacoby = state.jacoby
        centre_dead = _line(-1.0, 1.0) if jacoby else dead
        if not state.available or 2 * value > state.max_cube:
            no_double = centre_dead
        else:
            live = _curve(
                -1.0 if jacoby else -big_l,
                [(their_cash, -1.0), (cash, 1.0)],
                1.0 if jacoby else big_w,
            )
            no_double = _blend(live, centre_dead, x)
    take = owned(CubeOwner.OPPONENT, 2 * value)
    beaver = None
    if state.beavers and 4 * value <= state.max_cube:
        beaver = _mix((4.0, owned(CubeOwner.OPPONENT, 4 * value)))
    return _Curves(no_double, _mix((2.0, take)), beaver, 1.0)


# -- match play: the same model on match winning chances ---------------------


class _MatchModel:
    """The live-cube MWC curves of one match score and set of odds, each cube level's cash
    points found from the level where the cube is dead down to the current one (memoised:
    every level is asked for by the one below it, on both sides)."""

    def __init__(self, odds: _Odds, state: CubeState, score: MatchScore) -> None:
        self.odds, self.state, self.score = odds, state, score
        self.away = {CubeOwner.ME: score.away_me, CubeOwner.OPPONENT: score.away_opp}
        self.usable = state.available and not score.crawford
        self.memo: dict[tuple[CubeOwner, int], _Curve] = {}

    def win(self, points: int) -> float:
        return self.score.after(points, 0)

    def lose(self, points: int) -> float:
        return self.score.after(0, points)

    def value_of_win(self, cube: int) -> float:
        g, b = self.odds.win_gammon, self.odds.win_backgammon
        return (1.0 - g) * self.win(cube) + (g - b) * self.win(2 * cube) + b * self.win(3 * cube)

    def value_of_loss(self, cube: int) -> float:
        g, b = self.odds.lose_gammon, self.odds.lose_backgammon
        return (1.0 - g) * self.lose(cube) + (g - b) * self.lose(2 * cube) + b * self.lose(3 * cube)

    def dead(self, cube: int) -> _Curve:
        return _line(self.value_of_loss(cube), self.value_of_win(cube))

    def useful(self, side: CubeOwner, cube: int) -> bool:
        """Whether ``side`` could gain by doubling a cube of ``cube``: else it is dead."""
        return self.usable and 2 * cube <= self.state.max_cube and self.away[side] > cube

    def cash_point(self, side: CubeOwner, cube: int) -> float:
        """My chance at which a double by ``side`` from ``cube`` leaves the taker indifferent."""
        if side is CubeOwner.ME:
            return self.live(CubeOwner.OPPONENT, 2 * cube).solve(self.win(cube))
        return self.live(CubeOwner.ME, 2 * cube).solve(self.lose(cube))

    def live(self, owner: CubeOwner, cube: int) -> _Curve:
        """Fully live MWC with ``owner`` holding a cube of ``cube``."""
        key = (owner, cube)
        if key not in self.memo:
            if not self.useful(owner, cube):
                self.memo[key] = self.dead(cube)
            else:
                cashed = self.win(cube) if owner is CubeOwner.ME else self.lose(cube)
                point = self.cash_point(owner, cube)
                self.memo[key] = _curve(
                    self.value_of_loss(cube), [(point, cashed)], self.value_of_win(cube)
                )
        return self.memo[key]

    def centred(self, cube: int) -> _Curve:
        inner = []
        if self.useful(CubeOwner.OPPONENT, cube):
            inner.append((self.cash_point(CubeOwner.OPPONENT, cube), self.lose(cube)))
        if self.useful(CubeOwner.ME, cube):
            inner.append((self.cash_point(CubeOwner.ME, cube), self.win(cube)))
        if len(inner) == 2 and inner[0][0] >= inner[1][0]:
            return self.dead(cube)  # no window between the cash points: the model has nothing
        return _curve(self.value_of_loss(cube), inner, self.value_of_win(cube))


def _match_curves(odds: _Odds, state: CubeState, score: MatchScore, x: float) -> _Curves:
    """MWC curves: cash points found level by level down from where the cube is dead."""
    model = _MatchModel(odds, state, score)
    cube = state.value
    centre = state.owner is CubeOwner.CENTRED
    no_double_live = model.centred(cube) if centre else model.live(state.owner, cube)
    no_double = _blend(no_double_live, model.dead(cube), x)
    take = _blend(model.live(CubeOwner.OPPONENT, 2 * cube), model.dead(2 * cube), x)
    return _Curves(no_double, take, None, model.win(cube))


def _curves(odds: _Odds, state: CubeState, x: float) -> _Curves:
    if not 0.0 <= x <= 1.0:
        raise InvalidCubeStateError(f"the cube efficiency x must be from 0 to 1, got {x}")
    if state.score is None:
        return _money_curves(odds, state, x)
    return _match_curves(odds, state, state.score, x)


# -- results --------------------------------------------------------------------


@dataclass(frozen=True)
class CubeDecision:
    """The cube action of the player on roll, and the opponent's answer to a double.

    Equities are the doubler's: money per unit of the current cube (so
    ``double_pass`` is 1), match play as MWC (``match`` is True).
    ``double_beaver`` is the equity after a beaver (money with beavers only).
    ``take_point`` is the taker's lowest winning chance for a take; the doubler's
    window runs from ``doubling_point`` (None: doubling never gains) to
    ``cash_point``, and above ``too_good_point`` (None: never) playing on beats
    cashing. The points hold the gammon rates fixed while the winning chance moves.
    """

    no_double: float
    double_take: float
    double_pass: float
    double_beaver: float | None
    doubler: DoublerVerdict
    taker: TakerVerdict
    redouble: bool
    take_point: float
    doubling_point: float | None
    too_good_point: float | None
    match: bool

    @property
    def cash_point(self) -> float:
        """The doubler's winning chance above which the taker should pass."""
        return 1.0 - self.take_point

    @property
    def doubles(self) -> bool:
        return self.doubler in (DoublerVerdict.DOUBLE_TAKE, DoublerVerdict.DOUBLE_PASS)

    @property
    def answered(self) -> float:
        """The doubler's equity if they double and the taker answers best."""
        if self.taker is TakerVerdict.PASS:
            return self.double_pass
        if self.taker is TakerVerdict.BEAVER and self.double_beaver is not None:
            return self.double_beaver
        return self.double_take

    @property
    def equity(self) -> float:
        """The doubler's equity with the right cube action and the right answer."""
        return self.answered if self.doubles else self.no_double

    def __str__(self) -> str:
        """GNU Backgammon's wording: ``"No redouble, take"``, ``"Too good to double, pass"``."""
        verb = "redouble" if self.redouble else "double"
        if self.doubler is DoublerVerdict.TOO_GOOD:
            action = f"Too good to {verb}"
        elif self.doubles:
            action = verb.capitalize()
        else:
            action = f"No {verb}"
        return f"{action}, {self.taker.value}"


def _first_above(h: _Curve) -> float | None:
    """The least p with h(p) > 0 (beyond the tie margin); None if there is none."""
    for i in range(len(h.xs) - 1):
        x0, x1 = h.xs[i], h.xs[i + 1]
        y0, y1 = h.ys[i], h.ys[i + 1]
        if y0 > _TIE:
            return x0
        if y1 > _TIE:
            return max(x0, x0 + (x1 - x0) * (0.0 - y0) / (y1 - y0))
    return None


def _verdicts(
    no_double: float, double_take: float, double_pass: float, double_beaver: float | None
) -> tuple[DoublerVerdict, TakerVerdict]:
    """The doubler's action and the taker's answer from the three (or four) equities."""
    # The taker picks what is worst for the doubler; ties go to the plain take.
    taker, answered = TakerVerdict.TAKE, double_take
    if double_beaver is not None and double_take < -_TIE:
        # A take the taker is ahead in is worth more beavered (R11), even though the
        # doubler may refuse the beaver and lose the doubled cube.
        taker, answered = TakerVerdict.BEAVER, max(double_beaver, -2.0)
    if double_pass < answered - _TIE:
        taker, answered = TakerVerdict.PASS, double_pass

    passes = taker is TakerVerdict.PASS
    # Cashing a sure point ties no double at best; a take that gains nothing is no double.
    if answered > no_double + _TIE or (passes and answered >= no_double - _TIE):
        doubler = DoublerVerdict.DOUBLE_PASS if passes else DoublerVerdict.DOUBLE_TAKE
    elif no_double > double_pass + _TIE:
        doubler = DoublerVerdict.TOO_GOOD
    else:
        doubler = DoublerVerdict.NO_DOUBLE
    return doubler, taker


def cubeful_equity(
    chances: Chances, state: CubeState, efficiency: float = CONTACT_EFFICIENCY
) -> float:
    """Cubeful equity of the player on roll if no one doubles now (any owner).

    Money: per unit of the current cube; match: MWC. Without a cube (or in the
    Crawford game) this is the cubeless equity.

    >>> round(cubeful_equity((0.6, 0, 0, 0, 0), CubeState(available=False)), 6)  # 2p - 1
    0.2
    >>> round(cubeful_equity((0.6, 0, 0, 0, 0), CubeState(owner=CubeOwner.ME)), 6)
    0.404
    """
    odds = _odds(chances, state.gammons)
    return _curves(odds, state, efficiency).no_double.at(odds.win)


def cube_action_equity(
    chances: Chances, state: CubeState, efficiency: float = CONTACT_EFFICIENCY
) -> float:
    """``cube_decision(...).equity`` without the decision's points: the searches' leaves.

    >>> round(cube_action_equity((0.7, 0, 0, 0, 0), CubeState(), efficiency=0.0), 6)
    0.8
    """
    reason = double_refusal(state)
    if reason is not None:
        raise IllegalActionError(f"no cube decision: {reason}")
    odds = _odds(chances, state.gammons)
    curves = _curves(odds, state, efficiency)
    p = odds.win
    no_double = curves.no_double.at(p)
    double_take = curves.double_take.at(p)
    double_beaver = None if curves.double_beaver is None else curves.double_beaver.at(p)
    return best_action_equity(no_double, double_take, double_beaver, curves.double_pass)


def best_action_equity(
    no_double: float, double_take: float, double_beaver: float | None, double_pass: float
) -> float:
    """The doubler's equity with the right action and the right answer, from the equities.

    >>> best_action_equity(0.5, 0.8, None, 1.0), best_action_equity(0.5, 1.2, None, 1.0)
    (0.8, 1.0)
    """
    doubler, taker = _verdicts(no_double, double_take, double_pass, double_beaver)
    if doubler not in (DoublerVerdict.DOUBLE_TAKE, DoublerVerdict.DOUBLE_PASS):
        return no_double
    if taker is TakerVerdict.PASS:
        return double_pass
    if taker is TakerVerdict.BEAVER and double_beaver is not None:
        return max(double_beaver, -2.0)
    return double_take


def cube_decision(
    chances: Chances, state: CubeState, efficiency: float = CONTACT_EFFICIENCY
) -> CubeDecision:
    """The cube decision of the player on roll, who must be allowed to double.

    ``efficiency`` is Janowski's cube efficiency ``x``: 0 for a dead cube (a last
    roll), 1 for a perfectly efficient one; see :func:`cube_efficiency`.

    >>> from gammon.engine.met import MatchScore
    >>> state = CubeState(score=MatchScore(2, 2))
    >>> round(cube_decision((0.5, 0, 0, 0, 0), state).take_point, 5)  # 1 - MWC(1, 2)
    0.32264
    """
    reason = double_refusal(state)
    if reason is not None:
        raise IllegalActionError(f"no cube decision: {reason}")
    odds = _odds(chances, state.gammons)
    curves = _curves(odds, state, efficiency)
    p = odds.win
    no_double = curves.no_double.at(p)
    double_take = curves.double_take.at(p)
    double_pass = curves.double_pass
    double_beaver = None if curves.double_beaver is None else curves.double_beaver.at(p)

    doubler, taker = _verdicts(no_double, double_take, double_pass, double_beaver)

    cash = curves.double_take.solve(double_pass)
    knots = tuple(sorted({*curves.double_take.xs, cash}))
    answered_curve = _Curve(knots, tuple(min(curves.double_take.at(q), double_pass) for q in knots))
    gain = _mix((1.0, answered_curve), (-1.0, curves.no_double))
    too_good = _mix((1.0, curves.no_double), (-1.0, _line(double_pass, double_pass)))
    return CubeDecision(
        no_double=no_double,
        double_take=double_take,
        double_pass=double_pass,
        double_beaver=double_beaver,
        doubler=doubler,
        taker=taker,
        redouble=state.owner is CubeOwner.ME,
        take_point=1.0 - cash,
        doubling_point=_first_above(gain),
        too_good_point=_first_above(too_good),
        match=state.score is not None,
    )


def with_equities(
    model: CubeDecision,
    no_double: float,
    double_take: float,
    double_beaver: float | None = None,
) -> CubeDecision:
    """``model``'s decision with equities found by a search (:mod:`gammon.engine.cubeful`).

    The verdicts follow the searched equities (the double/pass figure is the
    model's: a cash is a cash at any depth); the take, doubling and too-good
    points stay the model's, worked out from the chances with the gammon
    rates held fixed.

    >>> model = cube_decision((0.7, 0, 0, 0, 0), CubeState(), efficiency=0.0)
    >>> str(with_equities(model, 0.4, 1.2))
    'Double, pass'
    """
    doubler, taker = _verdicts(no_double, double_take, model.double_pass, double_beaver)
    return replace(
        model,
        no_double=no_double,
        double_take=double_take,
        double_beaver=double_beaver,
        doubler=doubler,
        taker=taker,
    )
