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
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Final

from gammon.dice import DiceSource, RandomDice
from gammon.errors import IllegalActionError
from gammon.game import Event, Game, GameRules
from gammon.ids import MatchIdFields, encode_match_id
from gammon.variants import Variant, find_variant

__all__ = ["Match", "Session"]

_MAX_MATCH_LENGTH: Final = (1 << 15) - 1


class _Series(ABC):
    """What a match and a session share: the games, the dice, starting the next game, the ID."""

    def __init__(self, dice: DiceSource | None, histories: Iterable[Sequence[Event]]) -> None:
        self._dice: DiceSource = dice if dice is not None else RandomDice()
        self._games: list[Game] = []
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

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game so far, the current one last."""
        return tuple(self._games)

    @property
    def game(self) -> Game:
        """The game being played (or the last one, once it is over)."""
        return self._games[-1]

    @property
    def histories(self) -> tuple[tuple[Event, ...], ...]:
        """Each game's history, enough to rebuild the series (``histories=``)."""
        return tuple(game.history for game in self._games)

    @property
    def score(self) -> tuple[int, int]:
        """Points won by side 0 and side 1 in the games finished so far."""
        return self._tally(self._games)

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def winner(self) -> int | None:
        """The side that won, once it is over; None before then or on a tie."""

    def new_game(self) -> Game:
        """Start the next game once the current one is over; returns it."""
        if self.is_over:
            raise IllegalActionError(f"no new game: {self._over_message()}")
        if not self.game.is_over:
            raise IllegalActionError(
                f"no new game: game {len(self._games)} is still being played"
            )
        game = Game(self._next_rules(), dice=self._dice)
        self._games.append(game)
        return game

    def match_id_fields(self) -> MatchIdFields:
        """GNU Backgammon's Match ID fields for the current state."""
        fields = self.game.match_id_fields(self._tally(self._games[:-1]))
        if self.game.is_over:
            # The score after the game as this series counts it (table stakes may cap it).
            fields = dataclasses.replace(fields, score=self.score)
        return fields

    @property
    def id(self) -> str:
        """GNU Backgammon's Match ID of the current state, byte for byte."""
        return encode_match_id(self.match_id_fields())

    @abstractmethod
    def _next_rules(self) -> GameRules:
        """The rules of the game to start next, given the games so far."""

    @abstractmethod
    def _tally(self, games: Sequence[Game]) -> tuple[int, int]:
        """Points won by each side in the finished games among ``games``."""

    @abstractmethod
    def _over_message(self) -> str: ...


class Match(_Series):
    """A match to ``length`` points (R12): Crawford rule on by default, no Jacoby, no beavers.

    ``histories`` replays games already played (as from :attr:`histories`) and
    the match goes on from there.
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
    ) -> None:
        if (
            not isinstance(length, int)
            or isinstance(length, bool)
            or not 1 <= length <= _MAX_MATCH_LENGTH
        ):
            raise IllegalActionError(
                f"a match is played to 1-{_MAX_MATCH_LENGTH} points, got {length!r} (R12)"
            )
        self._length = length
        self._crawford = bool(crawford)
        self._variant = find_variant(variant)
        self._cube = cube
        self._max_cube = max_cube
        self._gammons = gammons
        super().__init__(dice, histories)

    @property
    def length(self) -> int:
        return self._length

    @property
    def crawford(self) -> bool:
        """Whether the Crawford rule is in force for this match (R12)."""
        return self._crawford

    @property
    def is_over(self) -> bool:
        return max(self.score) >= self._length

    @property
    def winner(self) -> int | None:
        score = self.score
        for side in (0, 1):
            if score[side] >= self._length:
                return side
        return None

    def _next_rules(self) -> GameRules:
        return GameRules(
            self._variant,
            cube=self._cube,
            max_cube=self._max_cube,
            gammons=self._gammons,
            crawford=self._next_is_crawford(),
            match_length=self._length,
        )

    def _next_is_crawford(self) -> bool:
        """R12: the game after a side first reaches N-1 points, and only that one."""
        if not self._crawford or self._length < 2:
            return False
        if any(game.rules.crawford for game in self._games):
            return False
        return self._length - 1 in self.score

    def _tally(self, games: Sequence[Game]) -> tuple[int, int]:
        score = [0, 0]
        for game in games:
            if game.result is not None:
                score[game.result.winner] += game.result.points
        return score[0], score[1]

    def _over_message(self) -> str:
        score = self.score
        return (
            f"the {self._length}-point match is over: side {self.winner} won "
            f"{max(score)}-{min(score)}"
        )

    def __repr__(self) -> str:
        return (
            f"<Match to {self._length} score={self.score} games={len(self._games)} "
            f"over={self.is_over}>"
        )


class Session(_Series):
    """A money session (R11): each game's points change hands.

    Options: the Jacoby rule, beavers, automatic doubles on opening ties up
    to ``auto_doubles`` times (R3), table ``stakes`` (each side's bankroll, one
    number for both or a pair: no game costs the loser more than they have left,
    and the session ends when a side is broke), and ``max_games`` (the session
    ends after that many games; the side with more points wins).

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
        self._rules = GameRules(
            variant,
            cube=cube,
            max_cube=max_cube,
            jacoby=jacoby,
            beavers=beavers,
            auto_doubles=auto_doubles,
            gammons=gammons,
        )
        self._stakes = _check_stakes(stakes)
        if max_games is not None and (
            not isinstance(max_games, int) or isinstance(max_games, bool) or max_games < 1
        ):
            raise IllegalActionError(
                f"a session of a fixed number of games needs at least 1, got {max_games!r} (R11)"
            )
        self._max_games = max_games
        super().__init__(dice, histories)

    @property
    def rules(self) -> GameRules:
        """The rules every game of the session is played under."""
        return self._rules

    @property
    def stakes(self) -> tuple[int, int] | None:
        """What each side brought to the table (R11); None without table stakes."""
        return self._stakes

    @property
    def max_games(self) -> int | None:
        return self._max_games

    @property
    def payouts(self) -> tuple[int, ...]:
        """Points each finished game paid its winner, after the table-stakes cap (R11)."""
        return tuple(points for _, points in self._settle(self._games))

    @property
    def net(self) -> int:
        """Side 0's running result: points won minus points lost."""
        score = self.score
        return score[0] - score[1]

    @property
    def bankrolls(self) -> tuple[int, int] | None:
        """What each side has left under table stakes; None without them."""
        if self._stakes is None:
            return None
        score = self.score
        return self._stakes[0] + score[0] - score[1], self._stakes[1] + score[1] - score[0]

    @property
    def is_over(self) -> bool:
        finished = sum(1 for game in self._games if game.is_over)
        if self._max_games is not None and finished >= self._max_games:
            return True
        bankrolls = self.bankrolls
        return bankrolls is not None and min(bankrolls) == 0

    @property
    def winner(self) -> int | None:
        if not self.is_over or self.net == 0:
            return None
        return 0 if self.net > 0 else 1

    def _next_rules(self) -> GameRules:
        return self._rules

    def _settle(self, games: Sequence[Game]) -> list[tuple[int, int]]:
        """(winner, points paid) of each finished game, capped by what the loser has left."""
        left = list(self._stakes) if self._stakes is not None else None
        paid: list[tuple[int, int]] = []
        for game in games:
            result = game.result
            if result is None:
                continue
            points = result.points
            if left is not None:
                points = min(points, left[result.loser])
                left[result.loser] -= points
                left[result.winner] += points
            paid.append((result.winner, points))
        return paid

    def _tally(self, games: Sequence[Game]) -> tuple[int, int]:
        score = [0, 0]
        for winner, points in self._settle(games):
            score[winner] += points
        return score[0], score[1]

    def _over_message(self) -> str:
        bankrolls = self.bankrolls
        if bankrolls is not None and min(bankrolls) == 0:
            why = f"side {bankrolls.index(0)} has lost their stake"
        else:
            why = f"all {self._max_games} games have been played"
        return f"the session is over: {why} (net {self.net:+d} for side 0)"

    def __repr__(self) -> str:
        return (
            f"<Session net={self.net:+d} games={len(self._games)} "
            f"bankrolls={self.bankrolls} over={self.is_over}>"
        )


def _check_stakes(stakes: int | tuple[int, int] | None) -> tuple[int, int] | None:
    if stakes is None:
        return None
    pair = (stakes, stakes) if isinstance(stakes, int) else tuple(stakes)
    if len(pair) != 2 or not all(
        isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in pair
    ):
        raise IllegalActionError(
            f"table stakes are a positive whole number, or one for each side, got {stakes!r} (R11)"
        )
    return pair[0], pair[1]
