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

import copy
import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Self

from gammon.actions import Action, Forfeit, OutOfTime
from gammon.dice import DiceSource, RandomDice
from gammon.errors import IllegalActionError, InvalidRulesError
from gammon.events import EndReason, Event, GameResult, Moved
from gammon.game import Game
from gammon.match_id import MatchIdFields, MatchIdValues, match_id_of_valid
from gammon.messages import Message
from gammon.position import Position
from gammon.rules import (
    MAX_MATCH_LENGTH,
    GameRules,
    check_cube_limit,
    check_money_options,
    is_whole,
)
from gammon.variants import Variant, find_variant

__all__ = ["Match", "SeriesRules", "Session"]

_FORFEITS: Final = frozenset({EndReason.FORFEIT, EndReason.TIME})


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


class _Series(ABC):
    """What a match and a session share: the games, the dice, the actions, the next game, the ID."""

    def __init__(
        self,
        rules: SeriesRules,
        dice: DiceSource | None,
        histories: Iterable[Sequence[Event]],
        score: tuple[int, int] = (0, 0),
    ) -> None:
        self._rules = rules
        self._dice: DiceSource = dice if dice is not None else RandomDice()
        self._games: list[Game] = []
        self._start_score = _check_start_score(rules, score)
        #: (games counted, their score): the finished games before the current one, which
        #: never change, so a score is not summed over the whole series on every action.
        self._earlier: tuple[int, tuple[int, int]] = (0, self._start_score)
        for index, history in enumerate(histories):
            if self._games and not self._games[-1].is_over:
                raise IllegalActionError(
                    f"game {index + 1} cannot follow game {index}, which did not end"
                )
            if self.is_over:
                raise IllegalActionError(
                    f"game {index + 1} cannot be played: {self._over_message()}"
                )
            self._games.append(Game.replay(self._next_rules(), history, dice=self._dice))
        if not self._games:
            self._games.append(Game(self._next_rules(), dice=self._dice))

    @classmethod
    def from_rules(
        cls,
        rules: SeriesRules,
        dice: DiceSource | None = None,
        histories: Iterable[Sequence[Event]] = (),
        *,
        score: tuple[int, int] = (0, 0),
    ) -> Self:
        """The series these rules describe (:meth:`SeriesRules.new_series` picks the class);
        ``score`` is where a match was taken up (:attr:`start_score`)."""
        if rules.is_match != issubclass(cls, Match):
            raise InvalidRulesError("length", f"{cls.__name__} cannot be played under {rules!r}")
        series = cls.__new__(cls)
        _Series.__init__(series, rules, dice, histories, score)
        return series

    @property
    def start_score(self) -> tuple[int, int]:
        """The score the series began at: (0, 0) unless a match was taken up at a score,
        as the files of resumed matches on online servers show (R12)."""
        return self._start_score

    @property
    def rules(self) -> SeriesRules:
        """The settings the series is played under."""
        return self._rules

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game so far, the current one last."""
        return tuple(self._games)

    @property
    def game(self) -> Game:
        """The game being played (or the last one, once it is over)."""
        return self._games[-1]

    @property
    def game_number(self) -> int:
        """The number of :attr:`game`, counting from 1."""
        return len(self._games)

    @property
    def histories(self) -> tuple[tuple[Event, ...], ...]:
        """Each game's history, enough to rebuild the series (``histories=``)."""
        return tuple(game.history for game in self._games)

    @property
    def score(self) -> tuple[int, int]:
        """Points won by side 0 and side 1 in the games finished so far."""
        if not self._games:  # the constructor is about to replay or start the first game
            return self._start_score
        return self._with_result(self._score_before_game(), self._games[-1])

    def _score_before_game(self) -> tuple[int, int]:
        """The score of every game before the current one (kept from one game to the next)."""
        count = len(self._games) - 1
        counted, score = self._earlier
        if counted != count:
            for game in self._games[counted:count]:
                score = self._with_result(score, game)
            self._earlier = (count, score)
        return score

    def _with_result(self, score: tuple[int, int], game: Game) -> tuple[int, int]:
        """``score`` with what ``game`` paid added, if it is over."""
        result = game.result
        if result is None:
            return score
        points = self._paid(score, result)
        if result.winner == 0:
            return score[0] + points, score[1]
        return score[0], score[1] + points

    @abstractmethod
    def _paid(self, score: tuple[int, int], result: GameResult) -> int:
        """What a game that ended with ``result`` pays its winner, at ``score`` before it."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def winner(self) -> int | None:
        """The side that won, once it is over; None before then or on a tie."""

    @property
    def forfeited(self) -> bool:
        """Whether the series ended because a side left or ran out of time (R13)."""
        result = self._games[-1].result if self._games else None
        return result is not None and result.reason in _FORFEITS

    def legal_actions(self, side: int) -> list[Action]:
        """What ``side`` may do now in the current game; nothing once the series is over.

        Between games (the last one over, :meth:`new_game` not called yet) a side
        may only forfeit, which starts the next game and loses it.
        """
        if self.is_over:
            return []
        if self.game.is_over:
            return [Forfeit(side)]
        return self.game.legal_actions(side)

    def legal_action_names(self, side: int) -> list[str]:
        """The names of :meth:`legal_actions`, each once, in the same order."""
        if self.is_over:
            return []
        if self.game.is_over:
            return [Forfeit.name]
        return self.game.legal_action_names(side)

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Carry out ``action`` in the current game (:meth:`Game.apply`).

        A forfeit or a loss on time costs what the series says (:meth:`_forfeit_points`)
        and ends the series. Once a game is over, :meth:`new_game` starts the next.
        """
        if self.is_over:
            raise IllegalActionError(
                Message("side {side} cannot act: {why}", side=action.side, why=self._over_message())
            )
        if isinstance(action, Forfeit | OutOfTime):
            if self.game.is_over and isinstance(action, Forfeit):
                self.new_game()
            game = self.game
            if game.is_over:  # OutOfTime between games: nobody's clock runs
                raise IllegalActionError(
                    Message(
                        "side {side} cannot run out of time: no game is being played",
                        side=action.side,
                    )
                )
            return game.forfeit(
                action.side,
                on_time=isinstance(action, OutOfTime),
                points=self._forfeit_points(1 - action.side),
            )
        return self.game.apply(action)

    def can_take_back(self, side: int) -> bool:
        """Whether ``side`` may take its last play back now (:meth:`take_back`)."""
        return self._take_back_refusal(side) is None

    def take_back(self, side: int) -> Self:
        """The series as it was before ``side``'s last play; this series is left as it is.

        Only the last thing that happened in the game being played can be taken back, and
        only if it was a play of ``side``'s (not a game-ending one): the game goes back to
        that play's dice, which are not thrown again, so the next roll the dice source
        gives is the one it would have given anyway. The earlier games are kept as they are.

        >>> from gammon.dice import ScriptedDice
        >>> match = Match(1, dice=ScriptedDice([(3, 1)]))
        >>> _ = match.game.roll(0)
        >>> _ = match.game.play(0, "8/5 6/5")
        >>> before = match.take_back(0)
        >>> before.game.turn, before.game.dice, len(before.game.legal_plays())
        (0, (3, 1), 16)
        >>> len(match.game.history) - len(before.game.history)
        1
        >>> before.take_back(0)
        Traceback (most recent call last):
        ...
        gammon.errors.IllegalActionError: side 0 cannot take a play back: side 0 has made no \
play in this game yet
        """
        refusal = self._take_back_refusal(side)
        if refusal is not None:
            raise IllegalActionError(
                Message("side {side} cannot take a play back: {why}", side=side, why=refusal)
            )
        game = self.game
        earlier = game.history[:-1]
        series = copy.copy(self)
        # The finished games never change, so both series may hold them; the current one is
        # replayed to just before the play, on the same dice source (nothing is thrown).
        series._games = [
            *self._games[:-1],
            Game.replay(game.rules, earlier, start=game.start, dice=self._dice),
        ]
        return series

    def _take_back_refusal(self, side: int) -> Message | None:
        """Why ``side`` may not take its last play back now, in words; None if it may."""
        if side not in (0, 1) or isinstance(side, bool):
            raise IllegalActionError(f"a side is 0 or 1, got {side!r}")
        if self.is_over:
            return self._over_message()
        game = self.game
        if game.is_over:
            return Message("game {number} is over", number=self.game_number)
        history = game.history
        last = history[-1] if history else None
        if isinstance(last, Moved) and last.side == side:
            return None
        if not any(isinstance(event, Moved) and event.side == side for event in history):
            return Message("side {side} has made no play in this game yet", side=side)
        return Message("the game has gone on since side {side}'s last play", side=side)

    def new_game(self) -> Game:
        """Start the next game once the current one is over; returns it."""
        if self.is_over:
            raise IllegalActionError(f"no new game: {self._over_message()}")
        if not self.game.is_over:
            raise IllegalActionError(f"no new game: game {len(self._games)} is still being played")
        game = Game(self._next_rules(), dice=self._dice)
        self._games.append(game)
        return game

    def set_up(self, start: Position) -> Game:
        """Set the current game, not begun yet, up from ``start`` (seen from side 0) instead of
        the variant's own start: a position edited in, as other programs' files hold one."""
        if self.is_over:
            raise IllegalActionError(f"no game to set up: {self._over_message()}")
        if self.game.history:
            raise IllegalActionError(
                f"game {len(self._games)} has begun: only a game not begun yet is set up"
            )
        game = Game(self.game.rules, dice=self._dice, start=start)
        self._games[-1] = game
        return game

    def match_id_fields(self) -> MatchIdFields:
        """GNU Backgammon's Match ID fields for the current state."""
        return MatchIdFields(**self._match_id_values())

    @property
    def id(self) -> str:
        """GNU Backgammon's Match ID of the current state, byte for byte."""
        return match_id_of_valid(**self._match_id_values())

    def _match_id_values(self) -> MatchIdValues:
        """:meth:`match_id_fields` by name, unchecked (``Game.match_id_values``)."""
        game = self.game
        values = game.match_id_values(self._score_before_game())
        if game.is_over:
            # The score after the game as this series counts it (table stakes may cap it),
            # and, as GNU Backgammon writes it, the Crawford flag of the game to come.
            values["score"] = self.score
            if not self.is_over:
                values["crawford"] = self._next_rules().crawford
        return values

    def _next_rules(self) -> GameRules:
        """The rules of the game to start next, given the games so far."""
        return self._rules.game_rules(crawford_game=self._next_is_crawford())

    def _next_is_crawford(self) -> bool:
        return False

    @abstractmethod
    def _forfeit_points(self, winner: int) -> int:
        """What the current game is worth to ``winner`` when the other side forfeits."""

    @abstractmethod
    def _over_message(self) -> Message: ...


class Match(_Series):
    """A match to ``length`` points (R12): Crawford rule on by default, no Jacoby, no beavers.

    ``histories`` replays games already played (as from :attr:`histories`) and
    the match goes on from there. A side that forfeits or runs out of time loses
    the match: the winner is given the points it still needed (R13). ``score``
    takes a match up at a score (:attr:`start_score`); a side that starts at
    N-1 plays the Crawford game first (R12).

    >>> Match(3, score=(0, 2)).game.rules.crawford
    True
    """

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
        return max(self.score) >= self.length

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


class Session(_Series):
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


def _check_start_score(rules: SeriesRules, score: object) -> tuple[int, int]:
    """A match's score when taken up: two whole numbers, each short of the length."""
    if score == (0, 0):
        return 0, 0
    if not rules.is_match:
        raise InvalidRulesError("score", "a money session starts at 0-0; only a match has a score")
    if (
        not isinstance(score, tuple)
        or len(score) != 2
        or not all(is_whole(points) and 0 <= points < rules.length for points in score)
    ):
        raise InvalidRulesError(
            "score",
            f"a {rules.length}-point match is taken up at a score of two whole numbers from 0 "
            f"to {rules.length - 1}, got {score!r}",
        )
    return int(score[0]), int(score[1])


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
