"""What a match and a session share: a series of games on one dice source (:class:`Series`).

:class:`~gammon.match.Match` and :class:`~gammon.match.Session` (in :mod:`gammon.match`,
with the :class:`~gammon.match.SeriesRules` both are played under) differ only in how a
game is paid, when the series is over and what a forfeit costs; everything else lives
here: the games played and replayed, the actions on the current game, taking a play
back, the next game and the Match ID.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar, Final, Self

from gammon.actions import Action, Forfeit, OutOfTime
from gammon.dice import DiceSource, RandomDice
from gammon.errors import IllegalActionError, InvalidRulesError
from gammon.events import EndReason, Event, GameResult, Moved
from gammon.game import Game
from gammon.match_id import MatchIdFields, MatchIdValues, match_id_of_valid
from gammon.messages import Message
from gammon.position import Position
from gammon.rules import GameRules, is_whole

if TYPE_CHECKING:
    # Only for annotations: the rules build a series (gammon.match), never the reverse.
    from gammon.match import SeriesRules

__all__ = ["Series"]

_FORFEITS: Final = frozenset({EndReason.FORFEIT, EndReason.TIME})


class Series(ABC):
    """What a match and a session share: the games, the dice, the actions, the next game, the ID."""

    #: Whether the series is a match to a number of points (True) or money play.
    plays_to_points: ClassVar[bool]

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
        #: (current game, its result, the score): the score asked for again and again
        #: (every state a server sends reads it several times) while neither changes.
        self._score_kept: tuple[Game, GameResult | None, tuple[int, int]] | None = None
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
        if rules.is_match != cls.plays_to_points:
            raise InvalidRulesError("length", f"{cls.__name__} cannot be played under {rules!r}")
        series = cls.__new__(cls)
        Series.__init__(series, rules, dice, histories, score)
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
        game = self._games[-1]
        result = game.result
        kept = self._score_kept
        if kept is not None and kept[0] is game and kept[1] is result:
            return kept[2]
        score = self._with_result(self._score_before_game(), game)
        self._score_kept = (game, result, score)
        return score

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
        game = self._games[-1]
        if game.is_over:
            return [Forfeit.name]
        return game.legal_action_names(side)

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
        >>> from gammon.match import Match
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
