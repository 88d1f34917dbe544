"""One table as a state machine: settings, seats, the match, the dice, the clock.

A :class:`Table` changes only through :meth:`Table.apply`, which takes one
action (a JSON object, as the action log stores it), checks it with the rules
library and either raises :class:`~gammon.server.protocol.Refused` leaving the
table exactly as it was, or returns an :class:`Applied` record of what
happened. The live server and the recovery after a crash run the same code:
replaying a table's log with the seeds it recorded rebuilds it exactly, dice
included, because the fair dice are a function of the seed, the roll number
and the entropy that the log keeps (R13).

>>> table = Table(1, TableSettings(length=1), Seat(7, "alice"), created=0.0)
>>> _ = table.apply({"type": "start", "seats": [{"user": 7, "name": "alice"},
...                  {"user": 8, "name": "bob"}]}, side=None, actor_id=8, at=0.0)
>>> table.status, table.game.phase
('playing', <Phase.OPENING: 'opening'>)
>>> applied = table.apply({"type": "roll"}, side=1, actor_id=8, entropy=b"x" * 32, at=1.0)
>>> applied.events[0]["type"], table.seq
('opening', 2)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from gammon.dice import DiceSource
from gammon.errors import GammonError, IllegalActionError
from gammon.game import Event, Game, Moved, Phase
from gammon.match import Match, Session
from gammon.position import Dice
from gammon.server.fairdice import FairDice
from gammon.server.protocol import (
    GAME_ACTIONS,
    Refused,
    board_json,
    dumps,
    event_json,
    moves_notation,
    play_json,
    position_id,
)
from gammon.variants import VARIANTS, find_variant

__all__ = [
    "OPENING_AUTO_ROLL_S",
    "Applied",
    "Changes",
    "Clock",
    "ClockSettings",
    "Seat",
    "Table",
    "TableDice",
    "TableSettings",
]

#: With a clock, the server throws the opening roll itself after this long (docs/PROTOCOL.md 4.2).
OPENING_AUTO_ROLL_S: Final = 30.0
_STATUSES: Final = ("open", "playing", "finished", "cancelled")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: Each setting in the players' words, for error messages (the field name goes alongside).
_LABELS: Final = {
    "mode": "the mode",
    "length": "the match length (points)",
    "variant": "the variant",
    "cube": "the doubling cube",
    "max_cube": "the highest cube value",
    "crawford": "the Crawford rule",
    "jacoby": "the Jacoby rule",
    "beavers": "beavers",
    "auto_doubles": "the number of automatic doubles",
    "max_games": "the number of games in the session",
    "stakes": "the stakes (each side's bankroll, in points)",
    "clock": "the clock",
    "clock.base_s": "the clock's reserve (seconds)",
    "clock.delay_s": "the clock's delay (seconds)",
    "clock.increment_s": "the clock's increment (seconds)",
    "invite": "the invited player",
    "bot": "the bot level",
}


def _bad(name: str, message: str) -> Refused:
    """A refused setting: the message in words, ``name`` (the JSON field) for programs."""
    label = _LABELS.get(name, repr(name))
    return Refused("bad_settings", f"{label[0].upper()}{label[1:]} {message}", field=name)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# -- settings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockSettings:
    """A reserve for the whole match plus a simple delay and an increment per action (R13)."""

    base_s: int
    delay_s: int = 0
    increment_s: int = 0

    def to_json(self) -> dict[str, int]:
        return {"base_s": self.base_s, "delay_s": self.delay_s, "increment_s": self.increment_s}


_DEFAULTS: Final[dict[str, Any]] = {
    "mode": "match",
    "length": 3,
    "variant": "standard",
    "cube": True,
    "max_cube": 64,
    "crawford": True,
    "jacoby": False,
    "beavers": False,
    "auto_doubles": 0,
    "max_games": None,
    "stakes": None,
    "clock": None,
    "invite": None,
    "bot": None,
}


@dataclass(frozen=True)
class TableSettings:
    """What the creator chose (docs/PROTOCOL.md 1.3); every combination is checked on input.

    >>> TableSettings.from_json({"mode": "money", "beavers": True}).beavers
    True
    >>> TableSettings.from_json({"length": 0})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gammon.server.protocol.Refused: bad_settings: The match length (points) must be a whole ...
    >>> TableSettings.from_json({"variant": "tavla", "length": None}).cube
    False
    """

    mode: str = "match"
    length: int = 3
    variant: str = "standard"
    cube: bool = True
    max_cube: int = 64
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    auto_doubles: int = 0
    max_games: int | None = None
    stakes: int | None = None
    clock: ClockSettings | None = None
    invite: str | None = None
    bot: str | None = None

    @classmethod
    def from_json(cls, data: object, *, bot_levels: Sequence[str] | None = None) -> TableSettings:
        """Read a client's settings; raise ``Refused("bad_settings", ...)`` naming the field.

        A setting given as ``null`` is the same as one left out: it takes its
        default (docs/PROTOCOL.md 1.3). The cube's default depends on the
        variant: tavla is played without it, so ``"cube": true`` with tavla is
        refused and a tavla table left to the default has no cube.
        """
        if not isinstance(data, Mapping):
            raise Refused("bad_settings", "the settings must be a JSON object")
        unknown = sorted(set(data) - set(_DEFAULTS))
        if unknown:
            raise Refused(
                "bad_settings",
                f"there is no setting called {_shown(unknown[0])}; "
                f"the settings are: {', '.join(_DEFAULTS)}",
                field=str(unknown[0])[:64],
            )
        given = {k: v for k, v in data.items() if v is not None}
        values = {**_DEFAULTS, **given}
        mode = values["mode"]
        if mode not in ("match", "money"):
            raise _bad("mode", f'must be "match" or "money", not {_shown(mode)}')
        for name in ("cube", "crawford", "jacoby", "beavers"):
            if not isinstance(values[name], bool):
                raise _bad(name, f"must be true (on) or false (off), not {_shown(values[name])}")
        ranges = {
            "length": (1, 64),
            "auto_doubles": (0, 6),
            "max_games": (1, 1000),
            "stakes": (1, 10000),
            "max_cube": (2, 64),
        }
        for name, (low, high) in ranges.items():
            value = values[name]
            if value is not None and not (_is_int(value) and low <= value <= high):
                raise _bad(
                    name, f"must be a whole number from {low} to {high}, not {_shown(value)}"
                )
        if values["max_cube"] & (values["max_cube"] - 1):
            raise _bad("max_cube", f"must be 2, 4, 8, 16, 32 or 64, not {values['max_cube']}")
        variant = values["variant"]
        if not isinstance(variant, str):
            raise _bad("variant", f"must be a variant's name, not {_shown(variant)}")
        try:
            found = find_variant(variant)
        except GammonError:
            names = ", ".join(v.name for v in VARIANTS)
            raise _bad("variant", f"must be one of {names}, not {_shown(variant)}") from None
        variant = found.name
        if not found.cube:
            if given.get("cube") is True:
                raise _bad(
                    "cube",
                    f"is not used in {variant}: {variant} is played without it "
                    '(leave "cube" out or set it to false)',
                )
            values["cube"] = False
        if mode == "match":
            for name in ("jacoby", "beavers", "auto_doubles", "max_games", "stakes"):
                if values[name]:
                    raise _bad(
                        name,
                        f"{'are' if name == 'beavers' else 'is'} for money play only, "
                        'not for a match (set "mode" to "money", or leave it out)',
                    )
        clock = values["clock"]
        if clock is not None:
            clock = _clock_from_json(clock)
        invite, bot = values["invite"], values["bot"]
        if invite is not None and not (isinstance(invite, str) and 0 < len(invite) <= 40):
            raise _bad("invite", f"must be a user's name, not {_shown(invite)}")
        if bot is not None:
            levels = list(bot_levels) if bot_levels is not None else []
            if not isinstance(bot, str) or bot not in levels:
                known = (
                    f"one of {', '.join(levels)}" if levels else "unset: this server has no bots"
                )
                raise _bad("bot", f"must be {known}, not {_shown(bot)}")
            if invite is not None:
                raise Refused(
                    "bad_settings",
                    "a table against the bot cannot invite a player too: "
                    'set "invite" or "bot", not both',
                    field="invite",
                )
        settings = cls(
            mode=mode,
            length=values["length"] if mode == "match" else 0,
            variant=variant,
            cube=values["cube"],
            max_cube=values["max_cube"],
            crawford=values["crawford"] if mode == "match" else False,
            jacoby=values["jacoby"],
            beavers=values["beavers"],
            auto_doubles=values["auto_doubles"],
            max_games=values["max_games"],
            stakes=values["stakes"],
            clock=clock,
            invite=invite,
            bot=bot,
        )
        try:
            settings.new_series(_NoDice())
        except GammonError as exc:
            raise Refused("bad_settings", str(exc)) from None
        return settings

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "length": self.length if self.mode == "match" else None,
            "variant": self.variant,
            "cube": self.cube,
            "max_cube": self.max_cube,
            "crawford": self.crawford,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
            "auto_doubles": self.auto_doubles,
            "max_games": self.max_games,
            "stakes": self.stakes,
            "clock": self.clock.to_json() if self.clock else None,
            "invite": self.invite,
            "bot": self.bot,
        }

    def new_series(self, dice: DiceSource) -> Match | Session:
        """The rules library's match (R12) or money session (R11) these settings describe."""
        if self.mode == "match":
            return Match(
                self.length,
                variant=self.variant,
                crawford=self.crawford,
                cube=self.cube,
                max_cube=self.max_cube,
                dice=dice,
            )
        return Session(
            variant=self.variant,
            cube=self.cube,
            max_cube=self.max_cube,
            jacoby=self.jacoby,
            beavers=self.beavers,
            auto_doubles=self.auto_doubles,
            stakes=self.stakes,
            max_games=self.max_games,
            dice=dice,
        )


def _clock_from_json(data: object) -> ClockSettings:
    if not isinstance(data, Mapping):
        raise _bad(
            "clock",
            'must be left out (no clock) or {"base_s": ..., "delay_s": ..., "increment_s": ...}',
        )
    unknown = sorted(set(data) - {"base_s", "delay_s", "increment_s"})
    if unknown:
        raise _bad(
            "clock",
            f"has no field {_shown(unknown[0])}: its fields are base_s, delay_s and increment_s",
        )
    values = {"delay_s": 0, "increment_s": 0, **{k: v for k, v in data.items() if v is not None}}
    if values.get("base_s") is None:
        raise _bad("clock.base_s", "must be given: each side's reserve for the match, in seconds")
    for name, (low, high) in {
        "base_s": (1, 36000),
        "delay_s": (0, 120),
        "increment_s": (0, 120),
    }.items():
        value = values[name]
        if not (_is_int(value) and low <= value <= high):
            raise _bad(
                f"clock.{name}", f"must be a whole number from {low} to {high}, not {_shown(value)}"
            )
    return ClockSettings(values["base_s"], values["delay_s"], values["increment_s"])


class _NoDice:
    def roll(self) -> Dice:
        raise IllegalActionError("no dice here")


def settings_from_row(data: Mapping[str, Any]) -> TableSettings:
    """Settings as stored (already checked once): read back without the bot-level check."""
    values = dict(data)
    clock = values.pop("clock", None)
    return TableSettings(
        **{k: v for k, v in values.items() if k in _DEFAULTS and k != "length"},
        length=values.get("length") or 0,
        clock=ClockSettings(**clock) if clock else None,
    )


# -- seats, dice, clock ---------------------------------------------------------------------


@dataclass
class Seat:
    """Who sits on a side: a user, or the bot (``user_id`` None, ``bot`` its level)."""

    user_id: int | None
    name: str
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"user": self.user_id, "name": self.name, "bot": self.bot}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seat:
        return cls(data.get("user"), str(data["name"]), data.get("bot"))


class TableDice:
    """The DiceSource of a table's games: the current game's fair dice and the entropy waiting.

    Each roll uses every contribution received since the previous roll of this
    game; a roll with none new (an opening tie thrown again within one action, the
    bot's roll after a human's turn passed by itself) uses the previous roll's
    again, so no roll depends on the seed alone (DICE.md).  A new game starts with
    none: entropy sent before a commitment was published cannot be trusted to be
    unknown to the server that chose it.
    """

    def __init__(self) -> None:
        self.fair: FairDice | None = None
        self.pending: list[bytes] = []
        self.last: list[bytes] = []

    def new_game(self, fair: FairDice) -> None:
        self.fair = fair
        self.pending = []
        self.last = []

    def roll(self) -> Dice:
        assert self.fair is not None
        used = self.pending or self.last
        dice = self.fair.roll(used)
        self.last = list(used)
        self.pending = []
        return dice


class Clock:
    """Each side's reserve; the side that must act loses time after its delay (R13)."""

    def __init__(self, settings: ClockSettings) -> None:
        self.settings = settings
        self.remaining_ms = [settings.base_s * 1000.0, settings.base_s * 1000.0]
        self.running: int | None = None
        self.since = 0.0

    def used_ms(self, at: float) -> float:
        """Time the running side has been charged since its clock started."""
        if self.running is None:
            return 0.0
        return max(0.0, (at - self.since) * 1000.0 - self.settings.delay_s * 1000.0)

    def charge(self, at: float) -> None:
        if self.running is not None:
            side = self.running
            self.remaining_ms[side] = max(0.0, self.remaining_ms[side] - self.used_ms(at))
        self.since = at

    def deadline(self) -> float | None:
        """When the running side runs out of time (seconds since the epoch)."""
        if self.running is None:
            return None
        return self.since + self.settings.delay_s + self.remaining_ms[self.running] / 1000.0

    def snapshot(self) -> list[int]:
        return [math.floor(ms) for ms in self.remaining_ms]

    def to_json(self, at: float) -> dict[str, Any]:
        remaining = list(self.remaining_ms)
        if self.running is not None:
            remaining[self.running] = max(0.0, remaining[self.running] - self.used_ms(at))
        return {
            **self.settings.to_json(),
            "remaining_ms": [math.floor(ms) for ms in remaining],
            "running": self.running,
            # When the running side's clock started (its delay ends delay_s later): a page
            # opened in the middle of a turn shows the delay that is really left.
            "started_ms": math.floor(self.since * 1000) if self.running is not None else None,
            "server_ms": math.floor(at * 1000),
        }


# -- what an action did ----------------------------------------------------------------------


@dataclass
class Changes:
    """What an accepted action changed besides adding itself to the log, for the database."""

    new_games: list[tuple[int, str, str]] = field(default_factory=list)
    """(number, commitment, seed hex) of each game started."""
    ended_games: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """(number, result) of each game finished."""
    status: str | None = None
    seats: list[int | None] | None = None
    result: dict[str, Any] | None = None


@dataclass
class Applied:
    """One accepted action, as the action log stores it, and what it changed."""

    seq: int
    action: dict[str, Any]
    side: int | None
    actor_id: int | None
    entropy: str | None
    events: list[dict[str, Any]]
    clock: list[int] | None
    at: float
    changes: Changes


_GAME_ACTIONS: Final = frozenset(GAME_ACTIONS)
_ANYTIME: Final = frozenset({"resign"})


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
    ) -> None:
        self.id = table_id
        self.settings = settings
        self.creator = creator
        self.created = created
        self.invite_id = invite_id
        self.status = "open"
        self.seats: list[Seat] | None = None
        self.series: Match | Session | None = None
        self.dice = TableDice()
        #: Each game's fair dice, by game number - 1.
        self.game_dice: list[FairDice] = []
        #: Seeds recorded for games not started yet (when replaying the log).
        self._known_seeds = list(seeds)
        #: Each game's log in protocol form, by game number - 1.
        self.logs: list[list[dict[str, Any]]] = []
        #: The same events as JSON texts, written once each (docs/PROTOCOL.md 3: every
        #: state carries the game's log, so it is never encoded again).
        self._log_texts: list[list[str]] = []
        #: JSON texts of parts of the state at ``_parts_seq``: each is made once per state
        #: however many sockets receive it (see :meth:`state_text`).
        self._parts: dict[object, str] = {}
        self._parts_seq = -1
        self.seq = 0
        self.clock = Clock(settings.clock) if settings.clock else None
        self.result: dict[str, Any] | None = None
        self.last: dict[str, Any] | None = None
        self.last_at = created

    # -- reading ---------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        return self.series.game if self.series is not None else None

    @property
    def game_number(self) -> int:
        return len(self.series.games) if self.series is not None else 0

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

    @property
    def bot_side(self) -> int | None:
        if self.seats is None:
            return None
        for side, seat in enumerate(self.seats):
            if seat.bot is not None:
                return side
        return None

    def bot_to_act(self) -> bool:
        """Whether the bot must act now (it never throws the opening roll: the human does)."""
        side = self.bot_side
        game = self.game
        return (
            side is not None and self.status == "playing" and game is not None and game.turn == side
        )

    def opening_deadline(self) -> float | None:
        """When the server throws a waiting opening roll itself (clock tables only)."""
        game = self.game
        if self.clock is None or self.status != "playing" or game is None:
            return None
        if game.phase is not Phase.OPENING:
            return None
        return self.last_at + OPENING_AUTO_ROLL_S

    # -- checking who may act ---------------------------------------------------------------

    def check_turn(self, kind: str, side: int | None) -> None:
        """Refuse an action by ``side`` (None: a spectator) that is not theirs to take now."""
        if self.status == "open":
            raise Refused(
                "illegal_action", "the match has not started: the table waits for an opponent"
            )
        if self.status != "playing":
            raise Refused("game_over", f"the table is {self.status}")
        if side is None:
            raise Refused("not_a_player", "spectators cannot act at this table")
        game = self.game
        assert game is not None
        if kind not in _GAME_ACTIONS or kind in _ANYTIME:
            return
        turn = game.turn
        if turn is not None and turn != side:
            raise Refused(
                "not_your_turn",
                f"it is {self.names[turn]}'s turn (side {turn}): the game is in phase "
                f"{str(game.phase)!r}",
            )

    # -- changing -------------------------------------------------------------------------

    def apply(
        self,
        action: Mapping[str, Any],
        *,
        side: int | None,
        actor_id: int | None,
        at: float,
        entropy: bytes | None = None,
    ) -> Applied:
        """Carry out one action; on :class:`Refused` the table is exactly as before."""
        kind = action["type"]
        changes = Changes()
        events: list[Event] = []
        saved_pending, saved_last = list(self.dice.pending), list(self.dice.last)
        if kind == "start":
            self._start([Seat.from_json(s) for s in action["seats"]], changes, at)
        elif kind == "cancel":
            if self.status != "open":
                raise Refused(
                    "not_open", f"only an open table can be cancelled; this one is {self.status}"
                )
            self.status = changes.status = "cancelled"
        elif kind in ("timeout", "forfeit"):
            self.check_turn(kind, side)
            assert side is not None
            self._forfeit(side, "time" if kind == "timeout" else "forfeit", changes, at)
        elif kind in _GAME_ACTIONS:
            self.check_turn(kind, side)
            assert side is not None and self.series is not None
            if entropy is not None and self.seats is not None and self.seats[side].bot is None:
                self.dice.pending.append(entropy)
            try:
                events = list(self._game_action(kind, action, side))
            except IllegalActionError as exc:
                self.dice.pending, self.dice.last = saved_pending, saved_last
                code = (
                    "illegal_play"
                    if kind == "play" and self.game and self.game.phase is Phase.MOVE
                    else "illegal_action"
                )
                raise Refused(code, str(exc)) from None
            except GammonError as exc:  # pragma: no cover - the rules raise IllegalActionError
                self.dice.pending, self.dice.last = saved_pending, saved_last
                raise Refused("illegal_action", str(exc)) from None
            except BaseException:
                # A refused message never adds entropy, whatever refused it (DICE.md).
                self.dice.pending, self.dice.last = saved_pending, saved_last
                raise
        else:
            raise Refused("unknown_type", f"unknown action {kind!r}")
        # Accepted: nothing below can refuse it.
        if kind == "play":
            # The log keeps the play as the rules wrote it, whatever the client sent.
            action = {"type": "play", "play": next(e.play for e in events if isinstance(e, Moved))}
        log = [event_json(event, self.names) for event in events]
        events_game = self.game_number or None
        if events:
            self.logs[-1].extend(log)
            self._log_texts[-1].extend(dumps(entry) for entry in log)
            self._after_game_action(changes, at)
        if self.clock is not None:
            running = self.clock.running
            self.clock.charge(at)
            if side is not None and side == running and kind in _GAME_ACTIONS:
                self.clock.remaining_ms[side] += self.clock.settings.increment_s * 1000.0
            game = self.game
            self.clock.running = (
                game.turn if self.status == "playing" and game is not None else None
            )
        self.seq += 1
        self.last_at = at
        record = {k: v for k, v in action.items() if k != "type"}
        self.last = {
            "seq": self.seq,
            "side": side,
            "type": kind,
            **record,
            # The game the events belong to: the one that just ended when this action ended
            # it, even though the state already shows the next game (docs/PROTOCOL.md 3).
            "game": events_game,
            "events": log,
        }
        return Applied(
            seq=self.seq,
            action=dict(action),
            side=side,
            actor_id=actor_id,
            entropy=entropy.hex() if entropy is not None else None,
            events=log,
            clock=self.clock.snapshot() if self.clock is not None else None,
            at=at,
            changes=changes,
        )

    def restore_clock(self, remaining: Sequence[float] | None) -> None:
        """Set the reserves recorded with an action (replay), so rounding never drifts."""
        if self.clock is not None and remaining is not None:
            self.clock.remaining_ms = [float(remaining[0]), float(remaining[1])]

    def resume(self, at: float) -> None:
        """After a replay: the clocks run again from ``at`` (time the server was down is free)."""
        self.last_at = at
        if self.clock is not None:
            self.clock.since = at

    def _start(self, seats: list[Seat], changes: Changes, at: float) -> None:
        if self.status != "open":
            raise Refused("not_open", f"the table is {self.status}, not waiting for players")
        if len(seats) != 2:
            raise Refused("bad_message", "a table has two seats")
        self.seats = seats
        self.series = self.settings.new_series(self.dice)
        self._begin_game(changes)
        self.status = changes.status = "playing"
        changes.seats = [seat.user_id for seat in seats]

    def _begin_game(self, changes: Changes) -> None:
        number = self.game_number
        if number <= len(self._known_seeds):
            fair = FairDice(self._known_seeds[number - 1])
        else:
            fair = FairDice.new()
            changes.new_games.append((number, fair.commitment, fair.seed_hex))
        self.game_dice.append(fair)
        self.dice.new_game(fair)
        self.logs.append([])
        self._log_texts.append([])

    def _game_action(self, kind: str, action: Mapping[str, Any], side: int) -> tuple[Event, ...]:
        game = self.game
        assert game is not None
        if kind == "roll":
            return game.roll(side)
        if kind == "play":
            text = action.get("play")
            if text is None:
                text = moves_notation(action["moves"])
            return game.play(side, text)
        if kind == "double":
            return game.double(side)
        if kind == "take":
            return game.take(side)
        if kind == "drop":
            return game.drop(side)
        if kind == "beaver":
            return game.beaver(side)
        if kind == "choose_double":
            return game.choose_double(side, action["number"])
        if kind == "resign":
            return game.resign(side, action["value"])
        if kind == "accept_resignation":
            return game.accept_resignation(side)
        if kind == "reject_resignation":
            return game.reject_resignation(side)
        raise Refused("unknown_type", f"unknown action {kind!r}")  # pragma: no cover

    def _after_game_action(self, changes: Changes, at: float) -> None:
        series, game = self.series, self.game
        assert series is not None and game is not None
        if game.result is None:
            return
        result = _result_json(game)
        assert result is not None
        changes.ended_games.append((self.game_number, result))
        if series.is_over:
            reason = "match" if isinstance(series, Match) else "session"
            self._finish(series.winner, reason, list(series.score), changes)
            return
        series.new_game()
        self._begin_game(changes)

    def _forfeit(self, side: int, reason: str, changes: Changes, at: float) -> None:
        """Time out or leave (R13): lose the match; in money play, the game at the cube's value."""
        series, game = self.series, self.game
        assert series is not None and game is not None
        score = list(series.score)
        winner = 1 - side
        if isinstance(series, Session):
            if game.phase is not Phase.OPENING and not game.is_over:
                points = game.cube_value
                bankrolls = series.bankrolls
                if bankrolls is not None:
                    points = min(points, bankrolls[side])
                score[winner] += points
            net = score[0] - score[1]
            winner_or_none: int | None = winner if net != 0 else None
            self._finish(winner_or_none, reason, score, changes)
            return
        self._finish(winner, reason, score, changes)

    def _finish(self, winner: int | None, reason: str, score: list[int], changes: Changes) -> None:
        self.status = changes.status = "finished"
        self.result = changes.result = {"winner": winner, "reason": reason, "score": score}

    # -- writing ---------------------------------------------------------------------------

    def actions_for(self, side: int | None) -> list[str]:
        """The action types ``side`` may send now (docs/PROTOCOL.md 3)."""
        if side is None or self.status != "playing":
            return []
        game = self.game
        assert game is not None
        actions: list[str] = []
        phase, turn = game.phase, game.turn
        if phase is Phase.OPENING:
            actions.append("roll")
        elif turn == side:
            if phase is Phase.ROLL:
                actions.append("roll")
                if game.can_double(side):
                    actions.append("double")
            elif phase is Phase.DOUBLE_OFFERED:
                actions += ["take", "drop"]
                if game.can_beaver(side):
                    actions.append("beaver")
            elif phase is Phase.BEAVER_OFFERED:
                actions += ["take", "drop"]
            elif phase is Phase.MOVE:
                actions.append("play")
            elif phase is Phase.CHOOSE_DOUBLE:
                actions.append("choose_double")
            elif phase is Phase.RESIGNATION_OFFERED:
                actions += ["accept_resignation", "reject_resignation"]
        if phase in (Phase.ROLL, Phase.MOVE, Phase.CHOOSE_DOUBLE):
            actions.append("resign")
        if self.bot_side is not None and phase is Phase.MOVE and turn == side:
            actions.append("hint")
        actions.append("forfeit")
        return actions

    def game_json(self, viewer: int | None) -> dict[str, Any] | None:
        game = self.game
        if game is None or self.series is None:
            return None
        view = viewer if viewer is not None else 0
        actions = self.actions_for(viewer)
        return {
            **self._game_head_json(view),
            "actions": actions,
            "legal_plays": self._legal_plays_json(view) if "play" in actions else [],
            "log": self.logs[self.game_number - 1],
            **self._game_tail_json(),
        }

    def _game_head_json(self, view: int) -> dict[str, Any]:
        """The current game's fields before ``actions``, with the board from side ``view``."""
        game, series = self.game, self.series
        assert game is not None and series is not None
        resignation = game.resignation
        offered = game.phase in (Phase.DOUBLE_OFFERED, Phase.BEAVER_OFFERED)
        return {
            "number": self.game_number,
            "phase": str(game.phase),
            "turn": game.turn,
            "on_roll": game.on_roll,
            # The roll to be played: only while it waits to be played (not while a
            # resignation is offered in the middle of a move, nor once the game is over).
            "dice": list(game.dice) if game.dice and game.phase is Phase.MOVE else None,
            "cube": {
                "value": game.cube_value,
                "owner": game.cube_owner,
                "offered": offered,
                # What the cube shows if the offer is taken (the double, or the beaver's redouble).
                "offered_value": 2 * game.cube_value if offered else None,
                "centred": game.cube_owner is None,
            },
            "resignation": (
                {"side": resignation[0], "value": resignation[1]} if resignation else None
            ),
            "crawford": game.rules.crawford,
            "position_id": position_id(game.position),
            "match_id": self._match_id(),
            "board": board_json(game.position_for(view), view),
        }

    def _match_id(self) -> str:
        """The GNU Match ID of the current state (the game and the series show it)."""
        series = self.series
        assert series is not None
        return self._part("match_id", lambda: series.id)

    def _legal_plays_json(self, view: int) -> list[dict[str, Any]]:
        """Every legal play of the side on roll (``view``), with the board after it (R5)."""
        game = self.game
        assert game is not None
        return [play_json(play, view) for play in game.legal_plays()]

    def _game_tail_json(self) -> dict[str, Any]:
        game = self.game
        assert game is not None
        fair = self.game_dice[self.game_number - 1]
        return {
            "result": _result_json(game),
            "commitment": fair.commitment,
            "seed": fair.seed_hex if game.is_over else None,
        }

    def series_json(self) -> dict[str, Any] | None:
        series = self.series
        if series is None:
            return None
        game = series.game
        over = self.status == "finished"
        winner = self.result["winner"] if self.result else None
        if isinstance(series, Match):
            return {
                "mode": "match",
                "length": series.length,
                "score": list(self.result["score"] if self.result else series.score),
                "game_number": self.game_number,
                "crawford": game.rules.crawford,
                "over": over,
                "winner": winner,
                "net": None,
                "bankrolls": None,
                "match_id": self._match_id(),
            }
        score = list(self.result["score"] if self.result else series.score)
        return {
            "mode": "money",
            "length": 0,
            "score": score,
            "game_number": self.game_number,
            "crawford": False,
            "over": over,
            "winner": winner,
            "net": score[0] - score[1],
            "bankrolls": list(series.bankrolls) if series.bankrolls else None,
            "match_id": self._match_id(),
        }

    def previous_games_json(self) -> list[dict[str, Any]]:
        if self.series is None:
            return []
        out = []
        for index, game in enumerate(self.series.games):
            if not game.is_over or (index == len(self.series.games) - 1):
                continue
            fair = self.game_dice[index]
            out.append(
                {
                    "number": index + 1,
                    "result": _result_json(game),
                    "commitment": fair.commitment,
                    "seed": fair.seed_hex,
                }
            )
        return out

    def players_json(self, connected: set[int]) -> list[dict[str, Any]]:
        if self.seats is None:
            return [
                {
                    "name": self.creator.name,
                    "bot": None,
                    "connected": self.creator.user_id in connected,
                },
                None,  # type: ignore[list-item]
            ]
        return [
            {
                "name": seat.name,
                "bot": seat.bot,
                "connected": seat.bot is not None or seat.user_id in connected,
            }
            for seat in self.seats
        ]

    def state_json(
        self,
        viewer: int | None,
        *,
        at: float,
        connected: set[int] = frozenset(),  # type: ignore[assignment]
        spectators: int = 0,
    ) -> dict[str, Any]:
        """The whole state as ``viewer`` (a side, or None for a spectator) sees it."""
        return {
            "type": "state",
            "table": self.id,
            "seq": self.seq,
            "status": self.status,
            "settings": self.settings.to_json(),
            "you": viewer,
            "players": self.players_json(connected),
            "spectators": spectators,
            "series": self.series_json(),
            "game": self.game_json(viewer),
            "previous_games": self.previous_games_json(),
            "clock": self.clock.to_json(at) if self.clock is not None else None,
            "result": self.result,
            "last": self.last,
        }

    def _part(self, key: object, make: Callable[[], str]) -> str:
        """A part of the current state as JSON text, made once per ``seq``."""
        if self._parts_seq != self.seq:
            self._parts.clear()
            self._parts_seq = self.seq
        text = self._parts.get(key)
        if text is None:
            text = self._parts[key] = make()
        return text

    def state_text(
        self,
        viewer: int | None,
        *,
        at: float,
        connected: set[int] = frozenset(),  # type: ignore[assignment]
        spectators: int = 0,
        log_from: int | None = None,
    ) -> str:
        """:meth:`state_json` as JSON text, made from parts shared by every receiver.

        With ``log_from`` (a receiver that opted in to ``log_delta``, docs/PROTOCOL.md
        2.2) the game's ``log`` holds only the events from that index on, and
        ``log_from`` says so. Every part that is the same for all receivers of
        this ``seq`` is encoded once; only the clock, the players' connections
        and the receiver's own actions are written each time.

        >>> table = Table(1, TableSettings(length=1), Seat(7, "alice"), created=0.0)
        >>> import json
        >>> json.loads(table.state_text(None, at=0.0)) == table.state_json(None, at=0.0)
        True
        """
        game_text = "null"
        if self.game is not None and self.series is not None:
            view = viewer if viewer is not None else 0
            actions = self.actions_for(viewer)
            plays = (
                self._part(("plays", view), lambda: dumps(self._legal_plays_json(view)))
                if "play" in actions
                else "[]"
            )
            texts = self._log_texts[self.game_number - 1]
            if log_from is None:
                log = self._part("log", lambda: "[" + ",".join(texts) + "]")
            else:
                log = "[" + ",".join(texts[log_from:]) + '],"log_from":' + str(log_from)
            game_text = "".join(
                (
                    self._part(("head", view), lambda: dumps(self._game_head_json(view))[:-1]),
                    ',"actions":',
                    dumps(actions),
                    ',"legal_plays":',
                    plays,
                    ',"log":',
                    log,
                    ",",
                    self._part("tail", lambda: dumps(self._game_tail_json())[1:]),
                )
            )
        return "".join(
            (
                '{"type":"state","table":',
                dumps(self.id),
                ',"seq":',
                dumps(self.seq),
                ',"status":',
                dumps(self.status),
                ',"settings":',
                self._part("settings", lambda: dumps(self.settings.to_json())),
                ',"you":',
                dumps(viewer),
                ',"players":',
                dumps(self.players_json(connected)),
                ',"spectators":',
                dumps(spectators),
                ',"series":',
                self._part("series", lambda: dumps(self.series_json())),
                ',"game":',
                game_text,
                ',"previous_games":',
                self._part("previous", lambda: dumps(self.previous_games_json())),
                ',"clock":',
                dumps(self.clock.to_json(at)) if self.clock is not None else "null",
                ',"result":',
                dumps(self.result),
                ',"last":',
                self._part("last", lambda: dumps(self.last)),
                "}",
            )
        )

    def log_length(self) -> tuple[int, int]:
        """(game number, events in its log): what a receiver of the current state has."""
        number = self.game_number
        return number, len(self._log_texts[number - 1]) if number else 0

    def summary_json(self, spectators: int = 0) -> dict[str, Any]:
        """The table's lobby entry."""
        players: list[str | None] = (
            [seat.name for seat in self.seats]
            if self.seats is not None
            else [self.creator.name, None]
        )
        score = (
            self.result["score"]
            if self.result
            else list(self.series.score)
            if self.series is not None
            else [0, 0]
        )
        return {
            "id": self.id,
            "status": self.status,
            "created_by": self.creator.name,
            "players": players,
            "settings": self.settings.to_json(),
            "invite": self.settings.invite,
            "bot": self.settings.bot,
            "score": list(score),
            "spectators": spectators,
            "created_ms": math.floor(self.created * 1000),
        }

    def game_record(self, number: int) -> dict[str, Any]:
        """Game ``number``'s fair-dice record (R13); only once that game is over."""
        if self.series is None or not 1 <= number <= self.game_number:
            raise Refused("no_such_game", f"table {self.id} has no game {number}")
        game = self.series.games[number - 1]
        if not game.is_over:
            raise Refused(
                "game_not_over", f"game {number} is still being played: its seed is secret"
            )
        return self.game_dice[number - 1].record(
            game={
                "number": number,
                "result": _result_json(game),
                "players": self.names,
                "log": self.logs[number - 1],
            },
            table=self.id,
        )

    def table_record(self) -> dict[str, Any]:
        """Every finished game's record (docs/PROTOCOL.md 5)."""
        games = []
        if self.series is not None:
            games = [
                self.game_record(number)
                for number, game in enumerate(self.series.games, 1)
                if game.is_over
            ]
        return {
            "format": "gammon-table-record/1",
            "table": self.id,
            "settings": self.settings.to_json(),
            "players": self.names if self.seats else [self.creator.name, None],
            "status": self.status,
            "result": self.result,
            "games": games,
        }


def _result_json(game: Game) -> dict[str, Any] | None:
    result = game.result
    if result is None:
        return None
    return {
        "winner": result.winner,
        "points": result.points,
        "kind": result.kind.name.lower(),
        "reason": str(result.reason),
    }


def variant_names() -> list[str]:
    return [variant.name for variant in VARIANTS]
