"""One game as a state machine: whose turn it is, what they may do, and everything that happened.

Every action names the side that takes it (sides are 0 and 1), so a server can
apply what a browser sends without trusting it: an action the rules do not allow
raises :class:`~gammon.errors.IllegalActionError` and leaves the game exactly as
it was. Each accepted action returns the events it added to :attr:`Game.history`;
the history alone rebuilds the game (:meth:`Game.replay`). Actions may also be
given as values (:mod:`gammon.actions`) to :meth:`Game.apply`, and
:meth:`Game.legal_actions` lists them.

Why this module is long: it is one state machine, :class:`Game`, whose twelve
actions, their refusals (``_expect``, ``_double_refusal``, ``_waiting_for``), the
turn's bookkeeping (``_start_move``, ``_end_turn``, ``_finish``), the replay and the
Match ID all read and write the same private state (phase, side on roll, dice, cube,
resignation, history); split apart, each piece would reach into the others' state.
What stands on its own already lives elsewhere: the events (:mod:`gammon.events`),
the rules and cube refusals (:mod:`gammon.rules`), the action values
(:mod:`gammon.actions`) and the series of games (:mod:`gammon.series`).

>>> from gammon.dice import ScriptedDice
>>> game = Game(dice=ScriptedDice([(3, 1), (6, 4)]))
>>> game.roll(0)  # either side may throw the opening roll (R3)
(OpeningRolled(dice=(3, 1)),)
>>> game.turn, game.dice
(0, (3, 1))
>>> len(game.legal_plays())
16
>>> game.play(0, "8/5 6/5")[0].play
'8/5 6/5'
>>> game.roll(1)
(Rolled(side=1, dice=(6, 4)),)
>>> game.play(0, "24/18 13/9")
Traceback (most recent call last):
...
gammon.errors.IllegalActionError: side 0 cannot play: the game waits for side 1 to play 6-4
>>> game.double(1)
Traceback (most recent call last):
...
gammon.errors.IllegalActionError: side 1 cannot double: the dice are already rolled
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Final

from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Forfeit,
    OutOfTime,
    PlayDice,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from gammon.dice import DiceSource, RandomDice, ScriptedDice
from gammon.errors import (
    IllegalActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
)
from gammon.events import (
    Beavered,
    DoubleChosen,
    Doubled,
    Dropped,
    Ended,
    EndReason,
    Event,
    Forfeited,
    GameResult,
    Moved,
    OpeningRolled,
    Passed,
    PassReason,
    ResignationAccepted,
    ResignationRejected,
    Resigned,
    Rolled,
    Took,
    WinKind,
)
from gammon.i18n import N_
from gammon.match_id import GameState, MatchIdFields, MatchIdValues, match_id_of_valid
from gammon.messages import Message
from gammon.play import Play, notations
from gammon.position import Dice, Position, validate_dice
from gammon.rules import GameRules, cube_refusal_message, cube_unavailable_message, is_whole

__all__ = ["Game", "Phase", "thrown_dice"]


class Phase(StrEnum):
    """What the game waits for."""

    OPENING = "opening"
    """The opening roll (R3): either side may throw it."""
    ROLL = "roll"
    """The side on roll rolls, or doubles first (R10)."""
    DOUBLE_OFFERED = "double offered"
    """The opponent takes, drops or beavers (R10, R11)."""
    BEAVER_OFFERED = "beaver offered"
    """The original doubler takes (accepts) or drops (refuses) the beaver (R11)."""
    MOVE = "move"
    """The side on roll plays the dice."""
    CHOOSE_DOUBLE = "choose double"
    """Acey-deucey: after a full 1-2 the side on roll names a double (R14)."""
    RESIGNATION_OFFERED = "resignation offered"
    """The resigner's opponent accepts or rejects (R9)."""
    OVER = "over"


_MATCH_ID_STATES: Final = {
    EndReason.BEAR_OFF: GameState.OVER,
    EndReason.DROP: GameState.DROPPED,
    EndReason.BEAVER_REFUSED: GameState.DROPPED,
    EndReason.RESIGNATION: GameState.RESIGNED,
    EndReason.FORFEIT: GameState.OVER,
    EndReason.TIME: GameState.OVER,
}


_RESIGNABLE: Final = frozenset({Phase.ROLL, Phase.MOVE, Phase.CHOOSE_DOUBLE})
#: The actions that take nothing but the side, by name: each is one legal action.
_SIDE_ONLY: Final[dict[str, Callable[[int], Action]]] = {
    kind.name: kind
    for kind in (
        Roll,
        Double,
        Take,
        Drop,
        Beaver,
        AcceptResignation,
        RejectResignation,
        Forfeit,
        OutOfTime,
    )
}


class Game:
    """One game of backgammon under :class:`GameRules`, driven by the sides' actions.

    The board is kept from side 0's point of view; :attr:`position` shows it to
    the side on roll, :meth:`position_for` to either side. After the final play
    the opponent is "on roll", as in GNU Backgammon, so ``position.winner()`` is 1.
    """

    def __init__(
        self,
        rules: GameRules | None = None,
        *,
        dice: DiceSource | None = None,
        start: Position | None = None,
    ) -> None:
        self._rules = rules if rules is not None else GameRules()
        variant = self._rules.variant
        if start is None:
            start = Position.initial(variant)
        elif start.checkers != variant.checkers:
            raise IllegalActionError(
                f"the start position has {start.checkers} checkers a side, "
                f"but {variant.name} is played with {variant.checkers}"
            )
        elif start.winner() is not None:
            raise IllegalActionError("the start position is already won")
        self._start = start
        self._dice_source: DiceSource = dice if dice is not None else RandomDice()
        self._board = start  # always side 0's view
        self._phase = Phase.OPENING
        self._on_roll: int | None = None
        self._dice: Dice | None = None
        self._plays: list[Play] = []
        self._bonus_double = False  # the dice are an acey-deucey double of choice
        self._cube_value = 1
        self._cube_owner: int | None = None
        self._resignation: tuple[int, int] | None = None  # (resigner, value)
        self._resumed_phase = Phase.ROLL  # where a rejected resignation returns to
        self._result: GameResult | None = None
        self._final_turn = 0  # the side that acted last, for the Match ID of a finished game
        self._history: list[Event] = []

    # -- what a UI or an engine reads ------------------------------------

    @property
    def rules(self) -> GameRules:
        return self._rules

    @property
    def start(self) -> Position:
        """Where the game began, seen from side 0 (the variant's start unless set up)."""
        return self._start

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def on_roll(self) -> int | None:
        """The side whose turn it is (the doubler while a double is answered).

        None before the opening roll.
        """
        return self._on_roll

    @property
    def turn(self) -> int | None:
        """The side that must act now.

        None before the opening roll (either side may throw it) and when the game is over.
        """
        phase = self._phase
        if phase in (Phase.OPENING, Phase.OVER):
            return None
        if phase is Phase.DOUBLE_OFFERED:
            return 1 - self._side_on_roll()
        if phase is Phase.RESIGNATION_OFFERED:
            assert self._resignation is not None
            return 1 - self._resignation[0]
        return self._on_roll

    @property
    def dice(self) -> Dice | None:
        """The roll to play (the opening roll with the mover's die first); None when not moving.

        A resignation offered in the middle of a move hides the dice until it is rejected.
        """
        return self._dice if self._phase is Phase.MOVE else None

    @property
    def cube_value(self) -> int:
        return self._cube_value

    @property
    def cube_owner(self) -> int | None:
        """The side that owns the cube; None while it is centred."""
        return self._cube_owner

    @property
    def resignation(self) -> tuple[int, int] | None:
        """(side, value) of a resignation awaiting an answer."""
        return self._resignation if self._phase is Phase.RESIGNATION_OFFERED else None

    @property
    def position(self) -> Position:
        """The board seen from the side on roll (side 0 before the opening roll)."""
        return self.position_for(self._on_roll or 0)

    def position_for(self, side: int) -> Position:
        """The board seen from ``side``, whoever is on roll."""
        _check_side(side)
        return self._board if side == 0 else self._board.swapped()

    @property
    def history(self) -> tuple[Event, ...]:
        return tuple(self._history)

    @property
    def result(self) -> GameResult | None:
        return self._result

    @property
    def is_over(self) -> bool:
        return self._result is not None

    def legal_plays(self) -> list[Play]:
        """Every legal play of the dice (R4-R8); empty unless the game waits for a play."""
        return list(self._plays) if self._phase is Phase.MOVE else []

    def can_double(self, side: int) -> bool:
        """Whether ``side`` may offer the cube now (R10-R12, R14)."""
        return self._double_refusal(side) is None

    def can_beaver(self, side: int) -> bool:
        """Whether ``side`` may beaver the double offered now (R11)."""
        return self._beaver_refusal(side) is None

    def legal_actions(self, side: int) -> list[Action]:
        """Everything ``side`` may do now, each one an action :meth:`apply` accepts.

        A play is listed once per distinct result (:meth:`legal_plays`); a
        resignation once per value; :class:`~gammon.actions.OutOfTime` only for
        the side whose turn it is, since only that side's clock runs.
        """
        actions: list[Action] = []
        for name in self.legal_action_names(side):
            if name == PlayDice.name:
                actions.extend(PlayDice(side, play) for play in self._plays)
            elif name == ChooseDouble.name:
                actions.extend(ChooseDouble(side, number) for number in range(1, 7))
            elif name == Resign.name:
                actions.extend(Resign(side, value) for value in (1, 2, 3))
            else:
                actions.append(_SIDE_ONLY[name](side))
        return actions

    def legal_action_names(self, side: int) -> list[str]:
        """The names of :meth:`legal_actions`, each once, in the same order.

        The one decision of what is legal now: :meth:`legal_actions` fills each name in
        (every play, every resignation value). What a server shows a player it may do,
        without making an action of every legal play.
        """
        _check_side(side)
        phase = self._phase
        if phase is Phase.OVER:
            return []
        names: list[str] = []
        on_turn = self.turn == side
        if phase is Phase.OPENING:
            names.append(Roll.name)
        elif on_turn:
            if phase is Phase.ROLL:
                names.append(Roll.name)
                if self.can_double(side):
                    names.append(Double.name)
            elif phase is Phase.MOVE:
                if self._plays:
                    names.append(PlayDice.name)
            elif phase is Phase.CHOOSE_DOUBLE:
                names.append(ChooseDouble.name)
            elif phase in (Phase.DOUBLE_OFFERED, Phase.BEAVER_OFFERED):
                names += [Take.name, Drop.name]
                if self.can_beaver(side):
                    names.append(Beaver.name)
            elif phase is Phase.RESIGNATION_OFFERED:
                names += [AcceptResignation.name, RejectResignation.name]
        if phase in _RESIGNABLE:
            names.append(Resign.name)
        names.append(Forfeit.name)
        if on_turn:
            names.append(OutOfTime.name)
        return names

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Carry out ``action``, returning the events it added to :attr:`history`.

        An action the rules do not allow now raises :class:`IllegalActionError`
        and leaves the game exactly as it was.
        """
        match action:
            case Roll(side=side):
                return self.roll(side)
            case PlayDice(side=side, play=play):
                return self.play(side, play)
            case ChooseDouble(side=side, number=number):
                return self.choose_double(side, number)
            case Double(side=side):
                return self.double(side)
            case Take(side=side):
                return self.take(side)
            case Drop(side=side):
                return self.drop(side)
            case Beaver(side=side):
                return self.beaver(side)
            case Resign(side=side, value=value):
                return self.resign(side, value)
            case AcceptResignation(side=side):
                return self.accept_resignation(side)
            case RejectResignation(side=side):
                return self.reject_resignation(side)
            case Forfeit(side=side):
                return self.forfeit(side)
            case OutOfTime(side=side):
                return self.forfeit(side, on_time=True)
        raise IllegalActionError(f"not an action: {action!r}")

    # -- actions ------------------------------------------------------------

    def roll(self, side: int) -> tuple[Event, ...]:
        """Throw the opening roll (either side, R3) or the dice of one's turn.

        On the bar against a closed board the turn passes without rolling (R7).
        A roll that cannot be played passes the turn at once (R5).
        """
        before = len(self._history)
        if self._phase is Phase.OPENING:
            _check_side(side)
            self._opening_roll()
            return self._added_since(before)
        mover = self._expect(side, "roll", Phase.ROLL)
        if self._on_bar_against_closed_board(mover):
            self._history.append(Passed(mover, PassReason.CLOSED_BOARD))
            self._end_turn()
            return self._added_since(before)
        dice = validate_dice(self._dice_source.roll())
        self._history.append(Rolled(mover, dice))
        self._start_move(dice)
        return self._added_since(before)

    def dance(self, side: int, dice: Dice) -> tuple[Event, ...]:
        """Lose a turn on the bar against a closed board with the roll a record shows.

        Our games pass that turn without a roll (R7), but GNU Backgammon, eXtreme
        Gammon and the online sites throw the dice there and their files keep them:
        a record read from such a file keeps them too (``Rolled`` then ``Passed``),
        so that it replays and is written back as it was. Only for records: the
        dice are given, not thrown, so no player is offered this as an action.
        """
        mover = self._expect(side, "dance", Phase.ROLL)
        if not self._on_bar_against_closed_board(mover):
            raise IllegalActionError(
                Message(
                    "side {side} cannot dance: it is not on the bar against a closed board",
                    side=side,
                )
            )
        try:
            thrown = validate_dice(dice)
        except InvalidDiceError as exc:
            raise IllegalActionError(f"side {side} cannot dance with {dice!r}: {exc}") from None
        before = len(self._history)
        self._history.append(Rolled(mover, thrown))
        self._history.append(Passed(mover, PassReason.CLOSED_BOARD))
        self._end_turn()
        return self._added_since(before)

    def play(self, side: int, play: Play | str) -> tuple[Event, ...]:
        """Play the dice: one of :meth:`legal_plays`, or its notation (``"13/7* 7/5"``)."""
        mover = self._expect(side, "play", Phase.MOVE)
        chosen = self._find_play(play)
        before = len(self._history)
        assert self._dice is not None
        dice = self._dice
        self._history.append(Moved(mover, dice, str(chosen), chosen.moves))
        after = chosen.position
        self._board = after if mover == 0 else after.swapped()
        if after.winner() == 0:
            kind, points = self._score(after.win_value())
            self._on_roll = 1 - mover  # as in GNU Backgammon, the loser is on roll after the end
            self._dice = None
            self._plays = []
            self._finish(GameResult(mover, points, kind, EndReason.BEAR_OFF), 1 - mover)
        elif self._earns_acey_deucey_bonus(dice, chosen):
            # R14: a full 1-2 earns a double of choice, and that double in full another roll.
            self._phase = Phase.ROLL if self._bonus_double else Phase.CHOOSE_DOUBLE
            self._bonus_double = False
            self._dice = None
            self._plays = []
        else:
            self._end_turn()
        return self._added_since(before)

    def choose_double(self, side: int, number: int) -> tuple[Event, ...]:
        """Acey-deucey: after a 1-2 played in full, name the double to play (R14)."""
        mover = self._expect(side, "choose a double", Phase.CHOOSE_DOUBLE)
        if not is_whole(number) or not 1 <= number <= 6:
            raise IllegalActionError(
                Message(
                    "side {side} cannot choose a double of {number}: pick a number from 1 to 6",
                    side=side,
                    number=repr(number),
                )
            )
        before = len(self._history)
        self._history.append(DoubleChosen(mover, number))
        self._bonus_double = True
        self._start_move((number, number))
        return self._added_since(before)

    def double(self, side: int) -> tuple[Event, ...]:
        """Offer the cube at twice its value (R10)."""
        reason = self._double_refusal(side)
        if reason is not None:
            raise IllegalActionError(
                Message("side {side} cannot double: {why}", side=side, why=reason)
            )
        before = len(self._history)
        self._history.append(Doubled(side, 2 * self._cube_value))
        self._phase = Phase.DOUBLE_OFFERED
        return self._added_since(before)

    def take(self, side: int) -> tuple[Event, ...]:
        """Take the double offered (R10), or, as the doubler, accept a beaver (R11)."""
        taker = self._expect(side, "take", Phase.DOUBLE_OFFERED, Phase.BEAVER_OFFERED)
        before = len(self._history)
        self._history.append(Took(taker))
        if self._phase is Phase.DOUBLE_OFFERED:
            self._cube_owner = taker
        # After a beaver the cube already shows the taken double and stays with the beaver's maker.
        self._cube_value *= 2
        self._phase = Phase.ROLL
        return self._added_since(before)

    def drop(self, side: int) -> tuple[Event, ...]:
        """Refuse the double (R9: the doubler wins its old value), or as the doubler the beaver."""
        dropper = self._expect(side, "drop", Phase.DOUBLE_OFFERED, Phase.BEAVER_OFFERED)
        before = len(self._history)
        reason = EndReason.DROP if self._phase is Phase.DOUBLE_OFFERED else EndReason.BEAVER_REFUSED
        self._history.append(Dropped(dropper))
        self._finish(GameResult(1 - dropper, self._cube_value, WinKind.SINGLE, reason), dropper)
        return self._added_since(before)

    def beaver(self, side: int) -> tuple[Event, ...]:
        """Take the double offered and redouble at once, keeping the cube (R11)."""
        reason = self._beaver_refusal(side)
        if reason is not None:
            raise IllegalActionError(
                Message("side {side} cannot beaver: {why}", side=side, why=reason)
            )
        before = len(self._history)
        self._history.append(Beavered(side, 4 * self._cube_value))
        # As GNU Backgammon records it: the double is taken, the beaver is on offer.
        self._cube_value *= 2
        self._cube_owner = side
        self._phase = Phase.BEAVER_OFFERED
        return self._added_since(before)

    def resign(self, side: int, value: int) -> tuple[Event, ...]:
        """Offer to resign a single (1), gammon (2) or backgammon (3) (R9).

        Either side may offer while the game waits for a roll, a play or a
        chosen double; the opponent then accepts or rejects.
        """
        _check_side(side)
        if self._phase not in _RESIGNABLE:
            raise IllegalActionError(
                Message("side {side} cannot resign: {why}", side=side, why=self._not_now())
            )
        if not is_whole(value) or value not in (1, 2, 3):
            raise IllegalActionError(
                Message(
                    "side {side} cannot resign {value}: offer 1 (single), 2 (gammon) "
                    "or 3 (backgammon)",
                    side=side,
                    value=repr(value),
                )
            )
        before = len(self._history)
        self._history.append(Resigned(side, int(value)))
        self._resignation = (side, int(value))
        self._resumed_phase = self._phase
        self._phase = Phase.RESIGNATION_OFFERED
        return self._added_since(before)

    def accept_resignation(self, side: int) -> tuple[Event, ...]:
        """Accept the resignation offered: the game ends with its value times the cube (R9)."""
        winner = self._expect(side, "accept a resignation", Phase.RESIGNATION_OFFERED)
        assert self._resignation is not None
        kind, points = self._score(self._resignation[1])
        before = len(self._history)
        self._history.append(ResignationAccepted(winner))
        self._finish(GameResult(winner, points, kind, EndReason.RESIGNATION), winner)
        return self._added_since(before)

    def reject_resignation(self, side: int) -> tuple[Event, ...]:
        """Reject the resignation offered; the game goes on where it was."""
        answerer = self._expect(side, "reject a resignation", Phase.RESIGNATION_OFFERED)
        before = len(self._history)
        self._history.append(ResignationRejected(answerer))
        self._resignation = None
        self._phase = self._resumed_phase
        return self._added_since(before)

    def forfeit(
        self, side: int, *, on_time: bool = False, points: int | None = None
    ) -> tuple[Event, ...]:
        """``side`` leaves, or (``on_time``) its clock ran out: it loses the game (R13).

        It loses ``points``: by default the cube's value, as for a dropped
        double; a match passes what the winner needs to win the match. Only the
        side whose turn it is can run out of time.
        """
        _check_side(side)
        if self._phase is Phase.OVER:
            raise IllegalActionError(
                Message("side {side} cannot forfeit: {why}", side=side, why=self._not_now())
            )
        if on_time and self.turn != side:
            raise IllegalActionError(
                Message(
                    "side {side} cannot run out of time: its clock is not running, {why}",
                    side=side,
                    why=self._not_now(),
                )
            )
        if points is None:
            points = self._cube_value
        if not is_whole(points) or points < 1:
            raise IllegalActionError(
                Message("a forfeit costs 1 point or more, got {points}", points=repr(points))
            )
        before = len(self._history)
        self._history.append(Forfeited(side, on_time, points))
        reason = EndReason.TIME if on_time else EndReason.FORFEIT
        self._dice = None
        self._plays = []
        self._finish(GameResult(1 - side, points, WinKind.SINGLE, reason), side)
        return self._added_since(before)

    # -- replay and ids -----------------------------------------------------

    @classmethod
    def replay(
        cls,
        rules: GameRules | None,
        history: Iterable[Event],
        *,
        start: Position | None = None,
        dice: DiceSource | None = None,
    ) -> Game:
        """Rebuild a game from its history; ``dice`` (random by default) rolls from there on.

        ``start`` is the game's :attr:`start` if it was not the variant's own.

        Events that follow automatically (tied opening throws after the first,
        passes for want of a play, the end) are checked rather than replayed.
        Raises :class:`IllegalActionError` naming the first entry that does not
        follow from the ones before it.
        """
        events = tuple(history)
        game = cls(rules, dice=ScriptedDice(thrown_dice(events)), start=start)
        for index, event in enumerate(events):
            if index >= len(game._history):
                try:
                    game.apply_event(event)
                except IllegalActionError as exc:
                    raise IllegalActionError(f"history entry {index} ({event!r}): {exc}") from exc
            if index < len(game._history) and game._history[index] != event:
                raise IllegalActionError(
                    f"history entry {index} ({event!r}) does not follow from the entries "
                    f"before it; the game gives {game._history[index]!r}"
                )
        if len(game._history) > len(events):
            raise IllegalActionError(
                f"the history stops short: it should go on with {game._history[len(events)]!r}"
            )
        game._dice_source = dice if dice is not None else RandomDice()
        return game

    def match_id_fields(self, score: tuple[int, int] = (0, 0)) -> MatchIdFields:
        """The GNU Backgammon Match ID fields of this game; ``score`` is the score before it.

        A finished game adds its points to the winner's score, as GNU Backgammon does.
        """
        return MatchIdFields(**self.match_id_values(score))

    def match_id(self, score: tuple[int, int] = (0, 0)) -> str:
        """The GNU Backgammon Match ID; ``score`` is the score before this game.

        >>> Game(GameRules(match_length=5)).match_id()  # before the opening roll
        'MACgAAAAAAAE'
        """
        return match_id_of_valid(**self.match_id_values(score))

    def match_id_values(self, score: tuple[int, int] = (0, 0)) -> MatchIdValues:
        """:meth:`match_id_fields` by name, unchecked: the Match ID written straight from
        them skips making and checking the value (a game's state is valid by construction)."""
        phase = self._phase
        state = GameState.PLAYING
        turn = self.turn
        resignation = 0
        if phase is Phase.OPENING:
            state = GameState.NO_GAME
        elif phase is Phase.OVER:
            assert self._result is not None
            state = _MATCH_ID_STATES[self._result.reason]
            turn = self._final_turn
            points = list(score)
            points[self._result.winner] += self._result.points
            score = (points[0], points[1])
        if self._resignation is not None and phase in (Phase.RESIGNATION_OFFERED, Phase.OVER):
            resignation = self._resignation[1]  # pending, or accepted (as offered, before any cap)
        rules = self._rules
        return {
            "cube_value": self._cube_value,
            "cube_owner": self._cube_owner,
            "player_on_roll": self._on_roll or 0,
            "crawford": rules.crawford,
            "game_state": state,
            "turn": turn if turn is not None else 0,
            "double_offered": phase in (Phase.DOUBLE_OFFERED, Phase.BEAVER_OFFERED),
            "resignation": resignation,
            "dice": self._dice or (0, 0),
            "match_length": rules.match_length,
            "score": score,
            "jacoby": rules.jacoby,
        }

    def __repr__(self) -> str:
        state = f"result={self._result}" if self._result else f"turn={self.turn}"
        return (
            f"<Game {self._rules.variant.name} {self._phase} {state} "
            f"cube={self._cube_value} owner={self._cube_owner} after {len(self._history)} events>"
        )

    # -- internals ----------------------------------------------------------

    def _side_on_roll(self) -> int:
        assert self._on_roll is not None
        return self._on_roll

    def _added_since(self, start: int) -> tuple[Event, ...]:
        return tuple(self._history[start:])

    def _waiting_for(self) -> Message:
        """What the game waits for, in words, for error messages."""
        phase = self._phase
        if phase is Phase.OPENING:
            return Message("the opening roll")
        if phase is Phase.RESIGNATION_OFFERED:
            assert self._resignation is not None
            resigner, value = self._resignation
            return Message(
                "side {side} to accept or reject the resignation of {value}",
                side=1 - resigner,
                value=Message(WinKind(value).words),
            )
        side = self._side_on_roll()
        if phase is Phase.ROLL:
            if self.can_double(side):
                return Message("side {side} to roll or double", side=side)
            return Message("side {side} to roll", side=side)
        if phase is Phase.DOUBLE_OFFERED:
            value = 2 * self._cube_value
            if self.can_beaver(1 - side):
                return Message(
                    "side {side} to take, drop or beaver the double to {value}",
                    side=1 - side,
                    value=value,
                )
            return Message(
                "side {side} to take or drop the double to {value}", side=1 - side, value=value
            )
        if phase is Phase.BEAVER_OFFERED:
            return Message(
                "side {side} to take or drop the beaver to {value}",
                side=side,
                value=2 * self._cube_value,
            )
        if phase is Phase.MOVE:
            assert self._dice is not None
            roll = "-".join(str(die) for die in self._dice)
            return Message("side {side} to play {roll}", side=side, roll=roll)
        return Message("side {side} to choose a double for the acey-deucey bonus", side=side)

    def _not_now(self) -> Message:
        if self._result is not None:
            return Message("the game is over ({result})", result=str(self._result))
        return Message("the game waits for {what}", what=self._waiting_for())

    def _expect(self, side: int, verb: str, *phases: Phase) -> int:
        """Check that ``side`` is the one to act and the game waits for this action."""
        _check_side(side)
        if self._phase not in phases or self.turn != side:
            raise IllegalActionError(Message(_CANNOT[verb], side=side, why=self._not_now()))
        return side

    def _double_refusal(self, side: int) -> Message | None:
        """Why ``side`` may not double now, or None if it may (R10-R12, R14)."""
        _check_side(side)
        rules = self._rules
        if self._result is not None:
            return Message("the game is over ({result})", result=str(self._result))
        available = rules.cube and rules.variant.cube and rules.max_cube > 1
        unavailable = cube_unavailable_message(available=available, crawford=rules.crawford)
        if unavailable is not None:
            return unavailable
        if self._phase is not Phase.ROLL:
            if self._phase in (Phase.MOVE, Phase.CHOOSE_DOUBLE) and self._on_roll == side:
                return Message("the dice are already rolled")
            return self._not_now()
        if self._on_roll != side:
            return Message(
                "only the side on roll may double, and that is side {side}", side=self._on_roll
            )
        return cube_refusal_message(
            available=available,
            crawford=rules.crawford,
            opponent_owns=self._cube_owner not in (None, side),
            value=self._cube_value,
            max_cube=rules.max_cube,
        )

    def _beaver_refusal(self, side: int) -> Message | None:
        """Why ``side`` may not beaver now, or None if it may (R11)."""
        _check_side(side)
        if self._phase is not Phase.DOUBLE_OFFERED or self.turn != side:
            return self._not_now()
        if not self._rules.beavers:
            return Message("beavers are not allowed in this game")
        if 4 * self._cube_value > self._rules.max_cube:
            return Message(
                "a beaver would raise the cube to {value}, above the highest the cube may go, "
                "{limit}",
                value=4 * self._cube_value,
                limit=self._rules.max_cube,
            )
        return None

    def _opening_roll(self) -> None:
        """Throw one die each until they differ (R3); ties may double the cube."""
        rules = self._rules
        throws: list[Dice] = []
        cube = self._cube_value
        doublings = 0
        while True:
            dice = validate_dice(self._dice_source.roll())
            throws.append(dice)
            if dice[0] != dice[1]:
                break
            if doublings < rules.auto_doubles and rules.cube_in_play and 2 * cube <= rules.max_cube:
                doublings += 1
                cube *= 2
        # Nothing changes until every throw is in: a failing dice source leaves the game as it was.
        self._history.extend(OpeningRolled(dice) for dice in throws)
        self._cube_value = cube
        die0, die1 = throws[-1]
        self._on_roll = 0 if die0 > die1 else 1
        self._start_move((max(die0, die1), min(die0, die1)))

    def _start_move(self, dice: Dice) -> None:
        """Show the dice to the side on roll; a roll with no legal play passes at once (R5)."""
        mover = self._side_on_roll()
        plays = self.position_for(mover).plays(dice)
        if len(plays) == 1 and plays[0].is_pass:
            self._history.append(Passed(mover, PassReason.NO_PLAY))
            self._end_turn()
            return
        self._dice = dice
        self._plays = plays
        self._phase = Phase.MOVE

    def _end_turn(self) -> None:
        self._on_roll = 1 - self._side_on_roll()
        self._dice = None
        self._plays = []
        self._bonus_double = False
        self._phase = Phase.ROLL

    def _on_bar_against_closed_board(self, side: int) -> bool:
        """R7: a checker on the bar and all six of the opponent's home points held."""
        return self.position_for(side).is_closed_out()

    def _earns_acey_deucey_bonus(self, dice: Dice, play: Play) -> bool:
        """R14: a 1-2, or the double chosen after it, played in full earns the next step."""
        if not self._rules.variant.acey_deucey:
            return False
        if self._bonus_double:
            return len(play.moves) == 4
        return sorted(dice) == [1, 2] and len(play.moves) == 2

    def _find_play(self, play: Play | str) -> Play:
        """The legal play that ``play`` names, or an error saying why it is not one."""
        assert self._dice is not None
        roll = f"{self._dice[0]}-{self._dice[1]}"
        if isinstance(play, Play):
            for legal in self._plays:
                if legal == play:
                    return legal
            raise IllegalActionError(
                Message(
                    "{play} is not a legal play of {roll} in this position",
                    play=str(play),
                    roll=roll,
                )
            )
        if not isinstance(play, str):
            raise IllegalActionError(
                f"a play must be a Play or its notation, got {type(play).__name__}"
            )
        text = play.strip()
        texts = notations(self._plays)
        if text in texts:
            return self._plays[texts.index(text)]
        try:
            parsed = self.position.parse_play(text, self._dice)
        except (InvalidPlayError, IllegalPlayError) as exc:
            raise IllegalActionError(
                Message(
                    "{play} cannot be played with {roll}: {why}",
                    play=repr(text),
                    roll=roll,
                    why=exc.text,
                )
            ) from exc
        for legal in self._plays:
            if legal == parsed:
                return legal
        raise IllegalActionError(
            Message(
                "{play} is not a legal play of {roll} in this position", play=repr(text), roll=roll
            )
        )

    def _score(self, value: int) -> tuple[WinKind, int]:
        """What a win of ``value`` (1-3) counts: variant cap, gammons, Jacoby, cube (R9, R11)."""
        rules = self._rules
        value = rules.variant.win_value(value)
        if not rules.gammons:
            value = 1
        if rules.jacoby and self._cube_owner is None:
            value = 1  # R11: the cube was never turned
        return WinKind(value), value * self._cube_value

    def _finish(self, result: GameResult, last_actor: int) -> None:
        self._history.append(Ended(result))
        self._result = result
        self._final_turn = last_actor
        self._phase = Phase.OVER

    def apply_event(self, event: Event) -> tuple[Event, ...]:
        """Take the action a history entry records, as :meth:`replay` does entry by entry.

        For tools that step through a recorded game (analysis, replays); entries
        that follow by themselves (a tie's rethrow, a pass, the end) are refused.
        """
        match event:
            case OpeningRolled():
                return self.roll(0)
            case Rolled(side=side, dice=dice) if (
                self._phase is Phase.ROLL and self._on_bar_against_closed_board(side)
            ):
                return self.dance(side, dice)  # a recorded dance (R7)
            case Rolled(side=side) | Passed(side=side, reason=PassReason.CLOSED_BOARD):
                return self.roll(side)
            case Moved(side=side, play=text):
                return self.play(side, text)
            case DoubleChosen(side=side, number=number):
                return self.choose_double(side, number)
            case Doubled(side=side):
                return self.double(side)
            case Beavered(side=side):
                return self.beaver(side)
            case Took(side=side):
                return self.take(side)
            case Dropped(side=side):
                return self.drop(side)
            case Resigned(side=side, value=value):
                return self.resign(side, value)
            case ResignationAccepted(side=side):
                return self.accept_resignation(side)
            case ResignationRejected(side=side):
                return self.reject_resignation(side)
            case Forfeited(side=side, on_time=on_time, points=points):
                return self.forfeit(side, on_time=on_time, points=points)
            case _:
                raise IllegalActionError("this entry follows from the ones before it, not here")


def thrown_dice(history: Iterable[Event]) -> list[Dice]:
    """The dice a history's game drew from its dice source, in order, to replay it.

    Every opening throw and roll, except the dice of a recorded dance (``Rolled``
    then ``Passed`` against a closed board, :meth:`Game.dance`), which the record
    gives and no source threw.
    """
    events = tuple(history)
    thrown: list[Dice] = []
    for index, event in enumerate(events):
        if isinstance(event, OpeningRolled):
            thrown.append(event.dice)
        elif isinstance(event, Rolled):
            following = events[index + 1] if index + 1 < len(events) else None
            if not (
                isinstance(following, Passed)
                and following.reason is PassReason.CLOSED_BOARD
                and following.side == event.side
            ):
                thrown.append(event.dice)
    return thrown


#: ``side {side} cannot ...: {why}``, a whole sentence for each action (word order differs).
_CANNOT: Final = {
    "roll": N_("side {side} cannot roll: {why}"),
    "dance": N_("side {side} cannot dance: {why}"),
    "play": N_("side {side} cannot play: {why}"),
    "choose a double": N_("side {side} cannot choose a double: {why}"),
    "take": N_("side {side} cannot take: {why}"),
    "drop": N_("side {side} cannot drop: {why}"),
    "accept a resignation": N_("side {side} cannot accept a resignation: {why}"),
    "reject a resignation": N_("side {side} cannot reject a resignation: {why}"),
}


def _check_side(side: object) -> None:
    if side.__class__ is int and (side == 0 or side == 1):
        return  # the common case, checked on every action without a call
    if not is_whole(side) or side not in (0, 1):
        raise IllegalActionError(Message("a side is 0 or 1, got {side}", side=repr(side)))
