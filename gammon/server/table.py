"""One table as a state machine: seats, the series, the dice, the clock.

A :class:`Table` changes only through :meth:`Table.apply`, which takes one
action value (the rules library's, :mod:`gammon.actions`, or the table's own,
:mod:`gammon.server.table_actions`; JSON becomes them in
:mod:`gammon.server.table_codec`) and either raises
:class:`~gammon.server.protocol.Refused` leaving the table exactly as it was,
or returns an :class:`Applied` record of what happened. The table itself only
seats the players, cancels, and presses the clock (the rules library's
:class:`~gammon.clock.Clock`, a value replaced at each action, at the time the
caller gives): every action of the game and the series (a roll, a play, a
forfeit, running out of time) is carried out by the series
(:meth:`gammon.match.Match.apply`), which decides what it costs and when the
series is over; a take-back that practice allows is the series' own
(:meth:`gammon.match.Match.take_back`). The live server and the recovery
after a crash run the same code: replaying a table's log with the seeds it
recorded rebuilds it exactly, dice included, because the fair dice are a
function of the seed, the roll number and the entropy that the log keeps (R13).

The table keeps values (its :class:`~gammon.server.table_actions.TableStatus`,
:class:`~gammon.server.table_actions.TableResult` and
:class:`~gammon.server.table_actions.LastAction`); what the clients see of it is
written by :mod:`gammon.server.views`.

>>> from gammon.actions import Forfeit, Roll
>>> from gammon.match import SeriesRules
>>> table = Table(1, TableSettings(SeriesRules(length=1)), Seat(7, "alice"), created=0.0,
...               seeds=[bytes(32)])  # the seed of game 1, as when replaying a log
>>> _ = table.apply(Start((Seat(7, "alice"), Seat(8, "bob"))), side=None, actor_id=8, at=0.0)
>>> table.status, table.game.phase
(<TableStatus.PLAYING: 'playing'>, <Phase.OPENING: 'opening'>)
>>> applied = table.apply(Roll(1), side=1, actor_id=8, entropy=b"x" * 32, at=1.0)
>>> applied.events[0]["text"], table.seq
('opening roll: alice 4, bob 5', 2)
>>> table.actions_for(0), table.actions_for(1)
(['resign', 'forfeit'], ['play', 'resign', 'forfeit'])
>>> _ = table.apply(Forfeit(0), side=0, actor_id=7, at=2.0)
>>> table.status, table.result
(<TableStatus.FINISHED: 'finished'>, TableResult(winner=1, reason='forfeit', score=(0, 1)))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from gammon.actions import Action, Forfeit, OutOfTime, PlayDice, Resign
from gammon.clock import Clock
from gammon.errors import GammonError, IllegalActionError
from gammon.events import Event, GameResult, Moved
from gammon.game import Game, Phase
from gammon.match import Match, Session
from gammon.messages import Message
from gammon.server.client_vocabulary import GAME_ACTIONS
from gammon.server.fairdice import FairDice, FairDiceSource
from gammon.server.game_json import event_json, moves_json, taken_back_text
from gammon.server.practice import TAKE_BACK, can_take_back, check_take_back, practice_on
from gammon.server.protocol import Refused
from gammon.server.settings import ClockSettings, TableSettings
from gammon.server.table_actions import (
    Cancel,
    LastAction,
    NoShow,
    Seat,
    SeriesAction,
    Start,
    TableAction,
    TableResult,
    TableStatus,
    TakeBack,
    Unseated,
)
from gammon.server.table_codec import status_words

__all__ = [
    "NO_SHOW",
    "OPENING_AUTO_ROLL_S",
    "Applied",
    "Changes",
    "Seat",
    "Table",
    "new_clock",
]

#: With a clock, the server throws the opening roll itself after this long (docs/PROTOCOL.md 4.2).
OPENING_AUTO_ROLL_S: Final = 30.0

#: The protocol's game actions: each accepted one by the side whose clock runs earns its increment.
_GAME_ACTIONS: Final = frozenset(GAME_ACTIONS)
#: Actions a side may take whoever's turn it is (the rules say when); any other action by
#: the side not to act is refused ``not_your_turn`` before the rules look at it.
_TURN_FREE: Final = frozenset({Resign.name, Forfeit.name, OutOfTime.name})
#: The reason of a table that ended as a tournament's match neither player came to.
NO_SHOW: Final = NoShow.name


# -- the clock ---------------------------------------------------------------------------


def new_clock(settings: ClockSettings) -> Clock:
    """The rules library's clock (R13) for a table's clock settings, nobody's running yet."""
    return Clock.start(settings.base_s, settings.delay_s, settings.increment_s)


# -- what an action did ----------------------------------------------------------------------


@dataclass
class Changes:
    """What an accepted action changed besides adding itself to the log, for the database."""

    new_games: list[tuple[int, str, str]] = field(default_factory=list)
    """(number, commitment, seed hex) of each game started."""
    ended_games: list[tuple[int, GameResult]] = field(default_factory=list)
    """(number, result) of each game finished."""
    status: TableStatus | None = None
    seats: list[int | None] | None = None
    result: TableResult | None = None


@dataclass
class Applied:
    """One accepted action (the log stores it as :func:`~gammon.server.table_codec.action_json`
    writes it), and what it changed."""

    seq: int
    action: TableAction | SeriesAction
    side: int | None
    actor_id: int | None
    entropy: str | None
    events: list[dict[str, Any]]
    clock: list[int] | None
    at: float
    changes: Changes
    #: The id of the forwarded request that carried it (several nodes: gammon.server.cluster).
    request: str | None = None


class Table:
    """A table's whole state, changed only by :meth:`apply` (live, and when replaying its log)."""

    def __init__(
        self,
        table_id: int,
        settings: TableSettings,
        creator: Seat,
        *,
        created: float,
        invite_id: int | None = None,
        seeds: Sequence[bytes] = (),
        tournament: tuple[int, int] | None = None,
    ) -> None:
        self.id = table_id
        self.settings = settings
        self.creator = creator
        self.created = created
        self.invite_id = invite_id
        #: The tournament and match number this table plays, if it plays one's match.
        self.tournament = tournament
        self.status = TableStatus.OPEN
        self.seats: list[Seat] | None = None
        #: The side the bot plays (None: two people, or not started), set with the seats:
        #: read several times an action (practice's rules, the timers).
        self.bot_side: int | None = None
        self.series: Match | Session | None = None
        #: The dice of the game being played, with the players' entropy (DICE.md).
        self.dice = FairDiceSource()
        #: Each game's fair dice, by game number - 1.
        self.game_dice: list[FairDice] = []
        #: Seeds recorded for games not started yet (when replaying the log).
        self._known_seeds = list(seeds)
        #: Where a new game's secret seed comes from (the server's chance,
        #: gammon.server.chance); None: the system's secure source.
        self.new_seed: Callable[[], bytes] | None = None
        #: Each game's log in protocol form, by game number - 1.
        self.logs: list[list[dict[str, Any]]] = []
        self.seq = 0
        #: The rules library's clock (an immutable value, replaced at each action), if any.
        self.clock = new_clock(settings.clock) if settings.clock else None
        self.result: TableResult | None = None
        self.last: LastAction | None = None
        self.last_at = created

    def learn_seed(self, number: int, seed: bytes) -> None:
        """Know game ``number``'s seed before it starts: a replica of a table run by another
        node applies that node's recorded actions exactly as a replay of the log does."""
        if number == len(self._known_seeds) + 1:
            self._known_seeds.append(seed)

    # -- reading ---------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        return self.series.game if self.series is not None else None

    @property
    def game_number(self) -> int:
        return self.series.game_number if self.series is not None else 0

    @property
    def names(self) -> list[str]:
        if self.seats is None:
            return [self.creator.name, "?"]
        return [seat.name for seat in self.seats]

    def side_of(self, user_id: int | None) -> int | None:
        """The side ``user_id`` plays, or None for a spectator."""
        if user_id is None or self.seats is None:
            return None
        for side, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return side
        return None

    def viewer_side(self, user_id: int | None) -> int | None:
        """The side ``user_id`` sees the table from: :meth:`side_of`, and for the creator of a
        table that has not started, 0 (``players[0]`` is the creator until the seats are
        drawn at the start, R13)."""
        if user_id is not None and self.seats is None and user_id == self.creator.user_id:
            return 0
        return self.side_of(user_id)

    def bot_to_act(self) -> bool:
        """Whether the bot must act now (it never throws the opening roll: the human does)."""
        side = self.bot_side
        game = self.game
        return (
            side is not None
            and self.status == TableStatus.PLAYING
            and game is not None
            and game.turn == side
        )

    def opening_deadline(self) -> float | None:
        """When the server throws a waiting opening roll itself (clock tables only)."""
        game = self.game
        if self.clock is None or self.status != TableStatus.PLAYING or game is None:
            return None
        if game.phase is not Phase.OPENING:
            return None
        return self.last_at + OPENING_AUTO_ROLL_S

    def actions_for(self, side: int | None) -> list[str]:
        """The action types ``side`` may send now (docs/PROTOCOL.md 3).

        What the series allows (each name once, in the rules' order; running out
        of time is the server's to say, not the player's), ``hint`` where practice
        is on and the player has a decision (dice to play, the cube, a double to
        answer), and ``take_back`` where the player may take their last play back
        against the bot (R15, :mod:`gammon.server.practice`).
        """
        if side is None or self.status != TableStatus.PLAYING or self.series is None:
            return []
        names = [n for n in self.series.legal_action_names(side) if n != OutOfTime.name]
        if practice_on(self) and any(name in names for name in ("play", "double", "take")):
            names.insert(names.index(Forfeit.name), "hint")
        if can_take_back(self, side):
            names.insert(names.index(Forfeit.name), TAKE_BACK)
        return names

    # -- checking who may act ---------------------------------------------------------------

    def _status(self) -> Message:
        """The table's status in words (the protocol's value in English)."""
        return status_words(self.status)

    def check_seq(self, expect_seq: int | None) -> None:
        """Refuse an action meant for another state of the table (``stale``)."""
        if expect_seq is not None and expect_seq != self.seq:
            raise Refused(
                "stale",
                Message(
                    "the action was meant for seq {expected}, but the table is at seq {seq}: "
                    "look at the new state and act again",
                    expected=expect_seq,
                    seq=self.seq,
                ),
            )

    def check_join(self, user_id: int) -> None:
        """Refuse ``user_id`` the free seat unless the table waits for them (docs/PROTOCOL.md 4)."""
        if self.status == TableStatus.PLAYING:
            raise Refused("table_full", Message("both seats are taken"))
        if self.status != TableStatus.OPEN:
            raise Refused("not_open", Message("the table is {status}", status=self._status()))
        if user_id == self.creator.user_id:
            raise Refused("own_table", Message("you created this table: wait for an opponent"))
        if self.invite_id is not None and self.invite_id != user_id:
            raise Refused("not_invited", Message("this table is for an invited player"))

    def check_turn(self, kind: str, side: int | None) -> None:
        """Refuse an action by ``side`` (None: a spectator) that is not theirs to take now."""
        if self.status == TableStatus.OPEN:
            raise Refused(
                "illegal_action",
                Message("the match has not started: the table waits for an opponent"),
            )
        if self.status != TableStatus.PLAYING:
            raise Refused("game_over", Message("the table is {status}", status=self._status()))
        if side is None:
            raise Refused("not_a_player", Message("spectators cannot act at this table"))
        game = self.game
        assert game is not None
        if kind in _TURN_FREE:
            return
        turn = game.turn
        if turn is not None and turn != side:
            raise Refused(
                "not_your_turn",
                Message(
                    "it is {player}'s turn (side {side}): the game is in phase {phase}",
                    player=self.names[turn],
                    side=turn,
                    phase=repr(str(game.phase)),
                ),
            )

    # -- changing -------------------------------------------------------------------------

    def apply(
        self,
        action: TableAction | SeriesAction,
        *,
        side: int | None,
        actor_id: int | None,
        at: float,
        entropy: bytes | None = None,
    ) -> Applied:
        """Carry out one action; on :class:`Refused` the table is exactly as before."""
        changes = Changes()
        log: list[dict[str, Any]] = []
        if isinstance(action, Start):
            self._start(list(action.seats), changes)
        elif isinstance(action, Cancel):
            self._cancel(changes)
        elif isinstance(action, NoShow):
            self._no_show(side, changes)
        # The game the events belong to: the one that just ended when this action ended
        # it, even though the state then shows the next game (docs/PROTOCOL.md 3).
        events_game = self.game_number or None
        if isinstance(action, TakeBack):
            log = self._take_back(side)
        elif not isinstance(action, (Start, Cancel, NoShow)):
            action, log = self._series_action(action, side, entropy, changes)
        self._press_clock(action.name, side, at)
        self.seq += 1
        self.last_at = at
        self.last = LastAction(self.seq, side, action, events_game, tuple(log))
        return Applied(
            seq=self.seq,
            action=action,
            side=side,
            actor_id=actor_id,
            entropy=entropy.hex() if entropy is not None else None,
            events=log,
            clock=self._clock_snapshot(),
            at=at,
            changes=changes,
        )

    def _press_clock(self, kind: str, side: int | None, at: float) -> None:
        """The clock after an accepted action: the side to act next runs; the side whose
        clock ran earns its increment for a game action."""
        if self.clock is None:
            return
        game = self.game
        self.clock = self.clock.press(
            at,
            to=game.turn if self.status == TableStatus.PLAYING and game is not None else None,
            earned=side is not None and side == self.clock.running and kind in _GAME_ACTIONS,
        )

    def _series_action(
        self, action: SeriesAction, side: int | None, entropy: bytes | None, changes: Changes
    ) -> tuple[Action, list[dict[str, Any]]]:
        """Carry out an action of the series for ``side``: the action as the log keeps it
        (a play as the rules wrote it, whatever the client sent) and the log entries."""
        self.check_turn(action.name, side)
        assert not isinstance(action, Unseated)  # check_turn refuses nobody's side
        assert action.side == side, "an action of the series is its sender's"
        events = self._apply_to_series(action, entropy)
        # Accepted: nothing below can refuse it.
        if isinstance(action, PlayDice):
            action = PlayDice(action.side, next(e.play for e in events if isinstance(e, Moved)))
        log = [event_json(event, self.names) for event in events]
        self.logs[-1].extend(log)
        self._after_series_action(changes)
        return action, log

    def _apply_to_series(self, action: Action, entropy: bytes | None) -> tuple[Event, ...]:
        """The series carries ``action`` out, with the sender's entropy for the dice; a
        refusal leaves the dice as they were."""
        assert self.series is not None and self.seats is not None
        checkpoint = self.dice.checkpoint()
        try:
            if entropy is not None and self.seats[action.side].bot is None:
                self.dice.add_entropy(entropy)
            return self.series.apply(action)
        except IllegalActionError as exc:
            self.dice.rollback(checkpoint)
            game = self.game
            code = (
                "illegal_play"
                if isinstance(action, PlayDice) and game is not None and game.phase is Phase.MOVE
                else "illegal_action"
            )
            raise Refused.of(code, exc) from None
        except GammonError as exc:  # pragma: no cover - the rules raise IllegalActionError
            self.dice.rollback(checkpoint)
            raise Refused.of("illegal_action", exc) from None
        except BaseException:
            # A refused message never adds entropy, whatever refused it (DICE.md).
            self.dice.rollback(checkpoint)
            raise

    def _take_back(self, side: int | None) -> list[dict[str, Any]]:
        """Take ``side``'s last play back, where practice allows it (gammon.server.practice):
        the series goes back to before it (the rules library's :meth:`Match.take_back`, on
        the same dice: nothing is thrown). The log entry it adds."""
        check_take_back(self, side)
        series = self.series
        assert series is not None and side is not None
        move = series.game.history[-1]
        assert isinstance(move, Moved)
        try:
            self.series = series.take_back(side)
        except IllegalActionError as exc:  # pragma: no cover - check_take_back asked the series
            raise Refused.of("illegal_action", exc) from None
        entry = {
            "type": "taken_back",
            "side": side,
            "play": move.play,
            "moves": moves_json(move.moves),
            "text": taken_back_text(self.names[side], move.play),
        }
        self.logs[-1].append(entry)
        return [entry]

    def _after_series_action(self, changes: Changes) -> None:
        """Record a game that ended; finish the table with its series, or start the next game."""
        series, game = self.series, self.game
        assert series is not None and game is not None
        if game.result is None:
            return
        changes.ended_games.append((self.game_number, game.result))
        if series.is_over:
            reason = (
                str(game.result.reason)
                if series.forfeited
                else "match"
                if isinstance(series, Match)
                else "session"
            )
            self.status = changes.status = TableStatus.FINISHED
            self.result = changes.result = TableResult(series.winner, reason, series.score)
            return
        series.new_game()
        self._begin_game(changes)

    def _no_show(self, side: int | None, changes: Changes) -> None:
        """Neither player came: the table ends with no winner and the score as it stands."""
        if self.status != TableStatus.PLAYING or self.series is None:
            raise Refused(
                "game_over",
                Message("the table is {status}, not being played", status=self._status()),
            )
        if side is not None:
            raise Refused(
                "forbidden", Message("only the server ends a match that neither player came to")
            )
        self.status = changes.status = TableStatus.FINISHED
        self.result = changes.result = TableResult(None, NO_SHOW, self.series.score)

    def _cancel(self, changes: Changes) -> None:
        if self.status != TableStatus.OPEN:
            raise Refused(
                "not_open",
                Message(
                    "only an open table can be cancelled; this one is {status}",
                    status=self._status(),
                ),
            )
        self.status = changes.status = TableStatus.CANCELLED

    def _start(self, seats: list[Seat], changes: Changes) -> None:
        if self.status != TableStatus.OPEN:
            raise Refused(
                "not_open",
                Message("the table is {status}, not waiting for players", status=self._status()),
            )
        if len(seats) != 2:
            raise Refused("bad_message", Message("a table has two seats"))
        self.seats = seats
        bots = [side for side, seat in enumerate(seats) if seat.bot is not None]
        self.bot_side = bots[0] if bots else None
        self.series = self.settings.rules.new_series(self.dice)
        self._begin_game(changes)
        self.status = changes.status = TableStatus.PLAYING
        changes.seats = [seat.user_id for seat in seats]

    def _begin_game(self, changes: Changes) -> None:
        number = self.game_number
        if number <= len(self._known_seeds):
            fair = self.dice.new_game(FairDice(self._known_seeds[number - 1]))
        else:
            fair = self.dice.new_game(None if self.new_seed is None else FairDice(self.new_seed()))
            changes.new_games.append((number, fair.commitment, fair.seed_hex))
        self.game_dice.append(fair)
        self.logs.append([])

    def _clock_snapshot(self) -> list[int] | None:
        """The reserves an action's record keeps (whole milliseconds)."""
        return None if self.clock is None else [math.floor(ms) for ms in self.clock.reserves]

    def restore_clock(self, remaining: Sequence[float] | None) -> None:
        """Set the reserves recorded with an action (replay), so rounding never drifts."""
        if self.clock is not None and remaining is not None:
            self.clock = self.clock.with_reserves((remaining[0], remaining[1]))

    def resume(self, at: float) -> None:
        """After a replay: the clocks run again from ``at`` (time the server was down is free)."""
        self.last_at = at
        if self.clock is not None:
            self.clock = self.clock.resumed(at)
