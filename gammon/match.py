"""Series of games: a :class:`Match` to N points (R12) and a money :class:`Session` (R11).

Both hold every game played so far. The current game is :attr:`~Match.game`;
the sides act on it directly, and once it is over :meth:`~Match.new_game`
starts the next one (never automatically, so the finished game stays on show
until then). Scores are worked out from the games' results, so they can never
disagree with them. Who starts each game is decided by its opening roll (R3).

>>> from gammon.dice import ScriptedDice
>>> match = Match(3, dice=ScriptedDice([(5, 2)]))
>>> match.game.roll(0)[0]
OpeningRolled(dice=(5, 2))
>>> match.game.resign(1, 1)[0], match.game.accept_resignation(0)[0]
(Resigned(side=1, value=1), ResignationAccepted(side=0))
>>> match.score, match.is_over
((1, 0), False)
>>> match.id
'MKNqABAAAAAE'
>>> match.new_game().rules.crawford
False
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from gammon.dice import DiceSource
from gammon.errors import InvalidRulesError
from gammon.events import EndReason, Event, GameResult
from gammon.messages import Message
from gammon.rules import (
    MAX_MATCH_LENGTH,
    GameRules,
    check_cube_limit,
    check_money_options,
    is_whole,
)
from gammon.series import Series
from gammon.variants import Variant, find_variant

__all__ = ["Match", "SeriesRules", "Session"]


@dataclass(frozen=True, init=False, repr=False)
class SeriesRules:
    """What the players agree on before they sit down: a match to ``length`` or money.

    ``length`` 0 is a money session (R11), with the Jacoby rule, beavers,
    automatic doubles, table ``stakes`` (each side's bankroll) and a fixed
    number of games (``max_games``) as options; otherwise a match to that many
    points (R12) with the Crawford rule on unless ``crawford=False``. ``cube``
    off (or a variant without one, R14) plays without the doubling cube.
    :meth:`new_series` builds the :class:`Match` or :class:`Session`.

    >>> SeriesRules(length=5)
    SeriesRules(length=5)
    >>> SeriesRules(beavers=True, stakes=10).new_series().bankrolls
    (10, 10)
    >>> SeriesRules(length=3, jacoby=True)
    Traceback (most recent call last):
    ...
    gammon.errors.InvalidRulesError: the Jacoby rule is for money play only, not a 3-point match
    """

    length: int
    variant: Variant
    cube: bool
    max_cube: int
    crawford: bool
    gammons: bool
    jacoby: bool
    beavers: bool
    auto_doubles: int
    stakes: tuple[int, int] | None
    max_games: int | None

    def __init__(
        self,
        *,
        length: int = 0,
        variant: str | Variant = "standard",
        cube: bool = True,
        max_cube: int = 64,
        crawford: bool = True,
        gammons: bool = True,
        jacoby: bool = False,
        beavers: bool = False,
        auto_doubles: int = 0,
        stakes: int | tuple[int, int] | None = None,
        max_games: int | None = None,
    ) -> None:
        if not is_whole(length) or not 0 <= length <= MAX_MATCH_LENGTH:
            raise InvalidRulesError(
                "length",
                f"a match is played to 1 to {MAX_MATCH_LENGTH} points (0 for money play), "
                f"got {length!r}",
            )
        check_cube_limit(max_cube)
        check_money_options(length, jacoby, beavers, auto_doubles)
        if length and stakes is not None:
            raise InvalidRulesError(
                "stakes", f"table stakes are for money play only, not a {length}-point match"
            )
        if length and max_games is not None:
            raise InvalidRulesError(
                "max_games",
                f"a fixed number of games is for money play only, not a {length}-point match",
            )
        if max_games is not None and (not is_whole(max_games) or max_games < 1):
            raise InvalidRulesError(
                "max_games",
                f"a session of a fixed number of games needs at least 1, got {max_games!r}",
            )
        for name, value in (
            ("length", length),
            ("variant", find_variant(variant)),
            ("cube", bool(cube)),
            ("max_cube", max_cube),
            ("crawford", bool(crawford) and length > 0),
            ("gammons", bool(gammons)),
            ("jacoby", bool(jacoby)),
            ("beavers", bool(beavers)),
            ("auto_doubles", auto_doubles),
            ("stakes", _check_stakes(stakes)),
            ("max_games", max_games),
        ):
            object.__setattr__(self, name, value)

    @property
    def is_match(self) -> bool:
        return self.length > 0

    def game_rules(self, *, crawford_game: bool = False) -> GameRules:
        """The rules of one game of the series (``crawford_game``: the Crawford game, R12)."""
        return GameRules(
            self.variant,
            cube=self.cube,
            max_cube=self.max_cube,
            jacoby=self.jacoby,
            beavers=self.beavers,
            auto_doubles=self.auto_doubles,
            gammons=self.gammons,
            crawford=crawford_game,
            match_length=self.length,
        )

    def new_series(
        self, dice: DiceSource | None = None, histories: Iterable[Sequence[Event]] = ()
    ) -> Match | Session:
        """The match or money session these rules describe; ``histories`` replays games played."""
        kind: type[Match] | type[Session] = Match if self.is_match else Session
        return kind.from_rules(self, dice, histories)

    def __repr__(self) -> str:
        """Only what differs from the defaults: ``SeriesRules(length=7, variant='nackgammon')``."""
        parts = []
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            default = getattr(_MONEY if not self.length else _MATCH, field.name)
            if field.name == "variant":
                value, default = value.name, default.name
            if field.name == "length" or value != default:
                parts.append(f"{field.name}={value!r}")
        return f"SeriesRules({', '.join(parts)})"


class Match(Series):
    """A match to ``length`` points (R12): Crawford rule on by default, no Jacoby, no beavers.

    ``histories`` replays games already played (as from :attr:`histories`) and
    the match goes on from there. A side that forfeits or runs out of time loses
    the match: the winner is given the points it still needed (R13). ``score``
    takes a match up at a score (:attr:`start_score`); a side that starts at
    N-1 plays the Crawford game first (R12).

    >>> Match(3, score=(0, 2)).game.rules.crawford
    True
    """

    plays_to_points = True

    def __init__(
        self,
        length: int,
        *,
        variant: str | Variant = "standard",
        crawford: bool = True,
        cube: bool = True,
        max_cube: int = 64,
        gammons: bool = True,
        dice: DiceSource | None = None,
        histories: Iterable[Sequence[Event]] = (),
        score: tuple[int, int] = (0, 0),
    ) -> None:
        if not is_whole(length) or not 1 <= length <= MAX_MATCH_LENGTH:
            raise InvalidRulesError(
                "length", f"a match is played to 1 to {MAX_MATCH_LENGTH} points, got {length!r}"
            )
        rules = SeriesRules(
            length=length,
            variant=variant,
            crawford=crawford,
            cube=cube,
            max_cube=max_cube,
            gammons=gammons,
        )
        super().__init__(rules, dice, histories, score)

    @property
    def length(self) -> int:
        return self._rules.length

    @property
    def crawford(self) -> bool:
        """Whether the Crawford rule is in force for this match (R12)."""
        return self._rules.crawford

    @property
    def is_over(self) -> bool:
        score, length = self.score, self._rules.length  # asked several times an action
        return score[0] >= length or score[1] >= length

    @property
    def winner(self) -> int | None:
        score = self.score
        for side in (0, 1):
            if score[side] >= self.length:
                return side
        return None

    def _next_is_crawford(self) -> bool:
        """R12: the game after a side first reaches N-1 points, and only that one."""
        if not self.crawford or self.length < 2:
            return False
        if any(game.rules.crawford for game in self._games):
            return False
        return self.length - 1 in self.score

    def _forfeit_points(self, winner: int) -> int:
        return self.length - self._score_before_game()[winner]

    def _paid(self, score: tuple[int, int], result: GameResult) -> int:
        return result.points

    def _over_message(self) -> Message:
        score = self.score
        return Message(
            "the {length}-point match is over: side {side} won {won}-{lost}",
            length=self.length,
            side=self.winner,
            won=max(score),
            lost=min(score),
        )

    def __repr__(self) -> str:
        return (
            f"<Match to {self.length} score={self.score} games={len(self._games)} "
            f"over={self.is_over}>"
        )


class Session(Series):
    """A money session (R11): each game's points change hands.

    Options: the Jacoby rule, beavers, automatic doubles on opening ties up
    to ``auto_doubles`` times (R3), table ``stakes`` (each side's bankroll, one
    number for both or a pair: no game costs the loser more than they have left,
    and the session ends when a side is broke), and ``max_games`` (the session
    ends after that many games; the side with more points wins). A side that
    forfeits or runs out of time loses the game at the cube's value, and the
    session ends (R13).

    >>> session = Session(stakes=10, max_games=3)
    >>> session.bankrolls, session.net, session.is_over
    ((10, 10), 0, False)
    """

    plays_to_points = False

    def __init__(
        self,
        *,
        variant: str | Variant = "standard",
        cube: bool = True,
        max_cube: int = 64,
        jacoby: bool = False,
        beavers: bool = False,
        auto_doubles: int = 0,
        gammons: bool = True,
        stakes: int | tuple[int, int] | None = None,
        max_games: int | None = None,
        dice: DiceSource | None = None,
        histories: Iterable[Sequence[Event]] = (),
    ) -> None:
        rules = SeriesRules(
            variant=variant,
            cube=cube,
            max_cube=max_cube,
            jacoby=jacoby,
            beavers=beavers,
            auto_doubles=auto_doubles,
            gammons=gammons,
            stakes=stakes,
            max_games=max_games,
        )
        super().__init__(rules, dice, histories)

    @property
    def stakes(self) -> tuple[int, int] | None:
        """What each side brought to the table (R11); None without table stakes."""
        return self._rules.stakes

    @property
    def max_games(self) -> int | None:
        return self._rules.max_games

    @property
    def payouts(self) -> tuple[int, ...]:
        """Points each finished game paid its winner, after the table-stakes cap (R11)."""
        paid = []
        score = (0, 0)
        for game in self._games:
            if game.result is not None:
                paid.append(self._paid(score, game.result))
            score = self._with_result(score, game)
        return tuple(paid)

    @property
    def net(self) -> int:
        """Side 0's running result: points won minus points lost."""
        score = self.score
        return score[0] - score[1]

    @property
    def bankrolls(self) -> tuple[int, int] | None:
        """What each side has left under table stakes; None without them."""
        stakes = self.stakes
        if stakes is None:
            return None
        score = self.score
        return stakes[0] + score[0] - score[1], stakes[1] + score[1] - score[0]

    @property
    def is_over(self) -> bool:
        if self.forfeited:
            return True
        games = self._games  # every game before the last is over
        finished = len(games) - (1 if games and not games[-1].is_over else 0)
        if self.max_games is not None and finished >= self.max_games:
            return True
        bankrolls = self.bankrolls
        return bankrolls is not None and min(bankrolls) == 0

    @property
    def winner(self) -> int | None:
        if not self.is_over or self.net == 0:
            return None
        return 0 if self.net > 0 else 1

    def _forfeit_points(self, winner: int) -> int:
        return self.game.cube_value

    def _paid(self, score: tuple[int, int], result: GameResult) -> int:
        stakes = self.stakes
        if stakes is None:
            return result.points
        loser = result.loser  # no more than the loser has left
        return min(result.points, stakes[loser] + score[loser] - score[1 - loser])

    def _over_message(self) -> Message:
        bankrolls = self.bankrolls
        if self.forfeited:
            result = self.game.result
            assert result is not None
            why = (
                Message("side {side} ran out of time", side=result.loser)
                if result.reason is EndReason.TIME
                else Message("side {side} left", side=result.loser)
            )
        elif bankrolls is not None and min(bankrolls) == 0:
            why = Message("side {side} has lost their stake", side=bankrolls.index(0))
        else:
            why = Message("all {n} games have been played", n=self.max_games)
        net = f"{self.net:+d}"
        return Message("the session is over: {why} (net {net} for side 0)", why=why, net=net)

    def __repr__(self) -> str:
        return (
            f"<Session net={self.net:+d} games={len(self._games)} "
            f"bankrolls={self.bankrolls} over={self.is_over}>"
        )


def _check_stakes(stakes: int | tuple[int, int] | None) -> tuple[int, int] | None:
    if stakes is None:
        return None
    pair = (stakes, stakes) if isinstance(stakes, int) else tuple(stakes)
    if len(pair) != 2 or not all(is_whole(s) and s > 0 for s in pair):
        raise InvalidRulesError(
            "stakes",
            f"table stakes are a positive whole number, or one for each side, got {stakes!r}",
        )
    return pair[0], pair[1]


_MONEY: Final = SeriesRules()
_MATCH: Final = SeriesRules(length=1)
