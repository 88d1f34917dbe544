"""A knockout tournament as a state machine over actions, rebuilt exactly by replaying its log.

Like a table, a :class:`Tournament` changes only through :meth:`Tournament.apply`,
which takes one action (a JSON object, as the tournament's log stores it) and either
raises :class:`~gammon.server.tournaments.errors.TournamentError`, leaving everything
as it was, or returns an :class:`Applied` record with the events it caused. The draw
by lot uses a seed carried in the ``start`` action, so replaying the log draws the
same bracket. The tournament never creates tables, reads clocks or rolls dice: it
tells the server what is due (:meth:`Tournament.due`) and which matches are ready to
be played (``match_ready`` events), and the server reports back (``table``,
``arrived``, ``result``, ``no_show``) through the same :meth:`apply`.

Why this module is long: it is one state machine, like :mod:`gammon.game`: the
tournament's values (entries, matches, records: about 80 lines), what it answers
(what is due, standings, its JSON: about 230), and its eleven actions, each a
handler with its checks and the refusals they share (about 550). Each handler
reads and changes the same state (entries, the bracket, the status) and refuses
before it changes anything; cut into modules, one action's checks would sit away
from the state they guard, and the refusals' table would be imported by every
part. What is not the state machine is elsewhere already: the draw
(:mod:`~gammon.server.tournaments.bracket`), the organiser's settings
(:mod:`~gammon.server.tournaments.settings`), the log, the rows and the pages on
the live server (``log``, ``queries``, ``pages``, ``live``).

>>> t = Tournament(1, TournamentSettings.from_json({"name": "Quick 4", "seats": 4}),
...                creator_id=None, created=0.0)
>>> for user, name in [(1, "ann"), (2, "bob"), (3, "cy"), (4, "dee")]:
...     _ = t.apply({"type": "register", "user": user, "name": name}, actor_id=user, at=1.0)
>>> t.due(2.0)
[{'type': 'start'}]
>>> applied = t.apply({"type": "start", "seed": "00ff"}, actor_id=None, at=2.0)
>>> [e["type"] for e in applied.events]
['drawn', 'match_ready', 'match_ready']
>>> [[t.entry(n).name for n in m.players] for m in t.rounds[0]]
[['dee', 'ann'], ['bob', 'cy']]
>>> _ = t.apply({"type": "result", "match": 1, "winner": 4, "how": "played"}, actor_id=None, at=3.0)
>>> _ = t.apply({"type": "result", "match": 2, "winner": 3, "how": "resign"}, actor_id=None, at=4.0)
>>> t.match(3).players, t.match(3).status
([4, 3], 'ready')
>>> _ = t.apply({"type": "result", "match": 3, "winner": 3, "how": "time"}, actor_id=None, at=5.0)
>>> t.status, t.entry(t.winner).name, [row["place"] for row in t.standings()]
('finished', 'cy', ['1', '2', '3-4', '3-4'])
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeGuard

from gammon.i18n import N_
from gammon.messages import Message
from gammon.server.tournaments.bracket import bracket_size, draw, round_count, round_name
from gammon.server.tournaments.errors import TournamentError
from gammon.server.tournaments.settings import TournamentSettings

__all__ = [
    "STATUSES",
    "Applied",
    "BracketMatch",
    "Entry",
    "Record",
    "Tournament",
]

STATUSES: Final = ("registering", "running", "finished", "cancelled")
#: Actions only the server itself takes (``actor_id`` None): timers and reports from tables.
SERVER_ACTIONS: Final = frozenset({"add_bots", "table", "arrived", "result", "no_show"})
#: How a played match may end, as the table reports it (``how`` of a ``result``).
_HOW: Final = re.compile(r"[a-z_]{1,24}")
_SEED: Final = re.compile(r"(?:[0-9a-f]{2}){1,64}")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass
class Entry:
    """One player in the tournament: an account, or a bot filling a seat (``bot`` its level).

    ``out`` says why the player left the tournament (``"lost"``, ``"no_show"``,
    ``"withdrew"``, ``"removed"``), None while still in; ``qualified_from`` is the
    satellite that won the player this seat.
    """

    no: int
    user_id: int | None
    name: str
    bot: str | None = None
    qualified_from: int | None = None
    out: str | None = None
    #: For a player who left while waiting for the next round: the last round they won.
    left_in_round: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "entry": self.no,
            "user": self.user_id,
            "name": self.name,
            "bot": self.bot,
            "qualified_from": self.qualified_from,
            "out": self.out,
        }


@dataclass
class BracketMatch:
    """A match of the bracket: ``players[slot]`` is an entry number, or None for nobody.

    ``known[slot]`` says whether the slot is decided (a player, or nobody: a bye, or a
    previous match that sent no one); ``status`` is ``waiting`` (a slot is not decided),
    ``ready`` (two players, to be played: the server makes its table), or ``over``.
    """

    number: int
    round: int
    index: int
    length: int
    players: list[int | None] = field(default_factory=lambda: [None, None])
    known: list[bool] = field(default_factory=lambda: [False, False])
    status: str = "waiting"
    table: int | None = None
    ready_at: float | None = None
    arrived: list[bool] = field(default_factory=lambda: [False, False])
    winner: int | None = None
    how: str | None = None

    def slot_of(self, entry: int) -> int | None:
        for slot, player in enumerate(self.players):
            if player == entry:
                return slot
        return None


@dataclass(frozen=True)
class Record:
    """One accepted action as the log keeps it: enough to replay it exactly."""

    action: dict[str, Any]
    actor_id: int | None
    operator: bool
    at: float


@dataclass(frozen=True)
class _Act:
    """One action being applied, as each handler reads it: what it says, who acts (None:
    the server), whether as an operator, when, and the events it adds."""

    action: Mapping[str, Any]
    actor_id: int | None
    operator: bool
    at: float
    events: list[dict[str, Any]]


@dataclass
class Applied:
    """One accepted action, its place in the log, and the events it caused."""

    seq: int
    record: Record
    events: list[dict[str, Any]]


class Tournament:
    """A tournament's whole state, changed only by :meth:`apply` (live, and when replaying)."""

    def __init__(
        self,
        tournament_id: int,
        settings: TournamentSettings,
        *,
        creator_id: int | None,
        created: float,
    ) -> None:
        self.id = tournament_id
        self.settings = settings
        self.creator_id = creator_id
        self.created = created
        self.status = "registering"
        #: Every entry ever made, by number; ``registered`` lists those still in the draw.
        self.entries: dict[int, Entry] = {}
        self.registered: list[int] = []
        self._next_no = 1
        #: When the field last went from empty to one player (bots fill seats after a wait).
        self.waiting_since: float | None = None
        self.rounds: list[list[BracketMatch]] = []
        self.size = 0
        self.seed: str | None = None
        self.started_at: float | None = None
        self.finished_at: float | None = None
        self.winner: int | None = None
        self.qualified: list[int] = []
        self.cancel_reason: str | None = None
        self.seq = 0

    @classmethod
    def replay(
        cls,
        tournament_id: int,
        settings: TournamentSettings,
        *,
        creator_id: int | None,
        created: float,
        records: Iterable[Record],
    ) -> Tournament:
        """The tournament its log describes (each record applied again, in order)."""
        tournament = cls(tournament_id, settings, creator_id=creator_id, created=created)
        for record in records:
            tournament.apply(
                record.action, actor_id=record.actor_id, operator=record.operator, at=record.at
            )
        return tournament

    # -- reading -----------------------------------------------------------------------------

    def entry(self, no: int) -> Entry:
        return self.entries[no]

    def entry_of_user(self, user_id: int) -> Entry | None:
        """The user's entry: the one in the draw (or, after it, the one in the bracket)."""
        for no in self.registered:
            if self.entries[no].user_id == user_id:
                return self.entries[no]
        return None

    @property
    def matches(self) -> list[BracketMatch]:
        return [match for round_ in self.rounds for match in round_]

    def match(self, number: int) -> BracketMatch:
        for match in self.matches:
            if match.number == number:
                return match
        raise TournamentError(
            "unknown_match", Message("this tournament has no match {number}", number=number)
        )

    def match_of_table(self, table_id: int) -> BracketMatch | None:
        for match in self.matches:
            if match.table == table_id:
                return match
        return None

    def current_match(self, entry: int) -> BracketMatch | None:
        """The match the entry plays or waits for next, None when out or champion."""
        for match in self.matches:
            if match.status != "over" and entry in match.players:
                return match
        return None

    @property
    def full(self) -> bool:
        return len(self.registered) >= self.settings.seats

    @property
    def rounds_total(self) -> int:
        return len(self.rounds)

    def show_up_deadline(self, match: BracketMatch) -> float | None:
        """When the players of a ready match who have not come forfeit it."""
        if match.status != "ready" or match.ready_at is None or all(match.arrived):
            return None
        return match.ready_at + self.settings.show_up_s

    def due(self, at: float) -> list[dict[str, Any]]:
        """The actions the server must take now (``start`` without its seed: the server adds it)."""
        actions: list[dict[str, Any]] = []
        settings = self.settings
        if self.status == "registering":
            if settings.kind == "scheduled":
                assert settings.start_at is not None
                if at >= settings.start_at:
                    actions.append({"type": "start"})
            elif self.full:
                actions.append({"type": "start"})
            elif self._bots_at() is not None and at >= self._bots_at():  # type: ignore[operator]
                actions.append({"type": "add_bots"})
        elif self.status == "running":
            for match in self.matches:
                deadline = self.show_up_deadline(match)
                if deadline is not None and at >= deadline:
                    actions.append({"type": "no_show", "match": match.number})
        return actions

    def next_deadline(self) -> float | None:
        """The next moment something becomes due (for the server's timer), None if nothing will."""
        times: list[float] = []
        if self.status == "registering":
            if self.settings.kind == "scheduled":
                assert self.settings.start_at is not None
                times.append(self.settings.start_at)
            bots_at = self._bots_at()
            if bots_at is not None:
                times.append(bots_at)
        elif self.status == "running":
            for match in self.matches:
                deadline = self.show_up_deadline(match)
                if deadline is not None:
                    times.append(deadline)
        return min(times) if times else None

    def _bots_at(self) -> float | None:
        settings = self.settings
        if (
            self.status != "registering"
            or settings.bots is None
            or settings.bots_after_s is None
            or self.waiting_since is None
            or self.full
        ):
            return None
        return self.waiting_since + settings.bots_after_s

    def standings(self) -> list[dict[str, Any]]:
        """Each player of the bracket with their place (``"1"``, ``"2"``, ``"3-4"``...), best
        first; ``place`` is None for players still in."""
        if not self.rounds:
            return []
        total = self.rounds_total
        rows: list[tuple[int, str | None, int]] = []
        placed: set[int] = set()
        for match in reversed(self.matches):
            if match.status != "over":
                continue
            losers = [p for p in match.players if p is not None and p != match.winner]
            low, high = 2 ** (total - match.round) + 1, 2 ** (total - match.round + 1)
            place = str(low) if low == high else f"{low}-{high}"
            for loser in losers:
                if loser not in placed:
                    rows.append((low, place, loser))
                    placed.add(loser)
        if self.winner is not None:
            rows.insert(0, (1, "1", self.winner))
            placed.add(self.winner)
        for no in self.registered:
            left = self.entries[no].left_in_round
            if no not in placed and left is not None:
                # Left after winning round ``left``: placed with the losers of the next round.
                low, high = 2 ** (total - left - 1) + 1, 2 ** (total - left)
                rows.append((low, str(low) if low == high else f"{low}-{high}", no))
                placed.add(no)
        still = [(0, None, no) for no in self.registered if no not in placed]
        ordered = still + sorted(rows, key=lambda row: row[0])
        return [{"place": place, **self.entries[no].to_json()} for _, place, no in ordered]

    def to_json(self) -> dict[str, Any]:
        """The whole tournament as the protocol shows it."""

        def player(no: int | None, known: bool) -> dict[str, Any] | None:
            if no is None:
                return {"entry": None, "name": "bye" if known else "?"} if known else None
            entry = self.entries[no]
            return {"entry": no, "name": entry.name, "user": entry.user_id, "bot": entry.bot}

        return {
            "id": self.id,
            "settings": self.settings.to_json(),
            "status": self.status,
            "creator": self.creator_id,
            "created": self.created,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "next_deadline": self.next_deadline(),
            "registered": [self.entries[no].to_json() for no in self.registered],
            "size": self.size,
            "rounds": [
                {
                    "round": number,
                    "name": round_name(number, self.rounds_total),
                    "length": round_[0].length,
                    "matches": [
                        {
                            "match": m.number,
                            "players": [
                                player(p, k) for p, k in zip(m.players, m.known, strict=True)
                            ],
                            "status": m.status,
                            "table": m.table,
                            "ready_at": m.ready_at,
                            "show_up_by": self.show_up_deadline(m),
                            "arrived": list(m.arrived),
                            "winner": m.winner,
                            "how": m.how,
                        }
                        for m in round_
                    ],
                }
                for number, round_ in enumerate(self.rounds, start=1)
            ],
            "winner": self.entries[self.winner].to_json() if self.winner is not None else None,
            "qualified": [self.entries[no].to_json() for no in self.qualified],
            "standings": self.standings(),
            "cancel_reason": self.cancel_reason,
        }

    # -- changing ------------------------------------------------------------------------------

    def apply(
        self,
        action: Mapping[str, Any],
        *,
        actor_id: int | None,
        operator: bool = False,
        at: float,
    ) -> Applied:
        """Carry out one action; on :class:`TournamentError` the tournament is as before.

        ``actor_id`` None is the server itself (timers, reports from tables, satellite
        seats); ``operator`` marks an operator acting.
        """
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise TournamentError(
                "bad_message", Message('an action is a JSON object with a "type"')
            )
        kind = action["type"]
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise TournamentError(
                "unknown_type",
                Message(
                    "there is no tournament action {action}; the actions are: {actions}",
                    action=repr(str(kind)[:40]),
                    actions=", ".join(_HANDLERS),
                ),
            )
        if kind in SERVER_ACTIONS and actor_id is not None:
            raise TournamentError("forbidden", Message("only the server itself takes this action"))
        events: list[dict[str, Any]] = []
        # Each handler checks everything before it changes anything.
        handler(self, _Act(action, actor_id, operator, at, events))
        self.seq += 1
        record = Record(dict(action), actor_id, operator, at)
        return Applied(self.seq, record, events)

    # registration ------------------------------------------------------------------------------

    def _register(self, act: _Act) -> None:
        user, name = act.action.get("user"), act.action.get("name")
        source = act.action.get("qualified_from")
        if not _is_int(user) or not (isinstance(name, str) and 0 < len(name) <= 40):
            raise TournamentError(
                "bad_message", Message('register needs "user" (a number) and "name"')
            )
        if source is not None and (not _is_int(source) or act.actor_id is not None):
            raise TournamentError(
                "forbidden", Message("only the server seats a satellite's qualifiers")
            )
        if act.actor_id is not None and act.actor_id != user and not act.operator:
            raise TournamentError("forbidden", Message("players register themselves"))
        self._check_registering("register")
        settings = self.settings
        opens = settings.registration_opens_at
        if opens is not None and act.at < opens and source is None:
            raise TournamentError("not_open_yet", Message("registration has not opened yet"))
        if settings.start_at is not None and act.at >= settings.start_at:
            raise TournamentError("too_late", Message("registration closed at the start time"))
        if self.entry_of_user(user) is not None:
            raise TournamentError(
                "already_registered", Message("{name} is registered already", name=name)
            )
        # A satellite's seat is a promise: it goes past the field's limit of a scheduled
        # tournament (a Sit & Go has its seats and no more).
        if self.full and not (source is not None and settings.kind == "scheduled"):
            raise TournamentError(
                "full", Message("all {seats} seats are taken", seats=settings.seats)
            )
        entry = Entry(self._next_no, user, name, qualified_from=source)
        self._add(entry, act.at)
        act.events.append({"type": "registered", **entry.to_json()})

    def _add(self, entry: Entry, at: float) -> None:
        self._next_no += 1
        self.entries[entry.no] = entry
        if not self.registered:
            self.waiting_since = at
        self.registered.append(entry.no)

    def _unregister(self, act: _Act) -> None:
        user = _own_user(act, "unregister")
        if self.status == "running":
            raise TournamentError(
                "not_registering", Message("the tournament has started: withdraw instead")
            )
        self._check_registering("unregister")
        entry = self.entry_of_user(user)
        if entry is None:
            raise TournamentError("not_registered", Message("that player is not registered"))
        self._drop_registration(entry, act.events, "unregistered")

    def _drop_registration(self, entry: Entry, events: list[dict[str, Any]], kind: str) -> None:
        self.registered.remove(entry.no)
        if not self.registered:
            self.waiting_since = None
        events.append({"type": kind, "entry": entry.no, "user": entry.user_id, "name": entry.name})

    def _check_registering(self, what: str) -> None:
        if self.status != "registering":
            raise TournamentError(
                "not_registering",
                Message(_CANNOT[what], why=Message(_HAS[self.status])),
            )

    def _add_bots(self, act: _Act) -> None:
        bots_at = self._bots_at()
        if bots_at is None or act.at < bots_at:
            raise TournamentError(
                "not_due", Message("bots fill the seats only after the announced wait")
            )
        level = self.settings.bots
        assert level is not None
        added = []
        number = 1
        names = {self.entries[no].name for no in self.registered}
        while not self.full:
            name = f"gammon-{level}-{number}"
            number += 1
            if name in names:
                continue
            entry = Entry(self._next_no, None, name, bot=level)
            self._add(entry, act.at)
            added.append(entry.to_json())
        act.events.append({"type": "bots_added", "entries": added})

    # the draw and the rounds ------------------------------------------------------------------

    def _start(self, act: _Act) -> None:
        seed = act.action.get("seed")
        if not (isinstance(seed, str) and _SEED.fullmatch(seed)):
            raise TournamentError(
                "bad_message", Message('start needs "seed": 1 to 64 bytes in lower-case hex')
            )
        if act.actor_id is not None and not act.operator:
            raise TournamentError(
                "forbidden", Message("a tournament starts by itself, or by an operator")
            )
        self._check_registering("start")
        settings = self.settings
        if act.actor_id is None:
            if settings.kind == "scheduled":
                assert settings.start_at is not None
                if act.at < settings.start_at:
                    raise TournamentError("not_due", Message("the start time has not come"))
            elif not self.full:
                raise TournamentError(
                    "not_due", Message("a Sit & Go starts when its seats are full")
                )
        if len(self.registered) < settings.min_players:
            self.status = "cancelled"
            self.cancel_reason = (
                f"not enough players: {len(self.registered)} registered, "
                f"{settings.min_players} needed"
            )
            self.finished_at = act.at
            act.events.append({"type": "cancelled", "reason": self.cancel_reason, "tables": []})
            return
        self.seed = seed
        slots = draw(list(self.registered), random.Random(bytes.fromhex(seed)))
        self.size = bracket_size(len(self.registered))
        number = 1
        for round_number in range(1, round_count(self.size) + 1):
            matches = self.size >> round_number
            length = settings.length_of_round(round_number)
            round_ = []
            for index in range(matches):
                round_.append(BracketMatch(number, round_number, index, length))
                number += 1
            self.rounds.append(round_)
        for index, match in enumerate(self.rounds[0]):
            match.players = [slots[2 * index], slots[2 * index + 1]]
            match.known = [True, True]
        self.status = "running"
        self.started_at = act.at
        act.events.append({"type": "drawn", "size": self.size, "slots": slots})
        for match in self.rounds[0]:
            self._settle(match, act.at, act.events)

    def _settle(self, match: BracketMatch, at: float, events: list[dict[str, Any]]) -> None:
        """A match whose slots are both decided: a walkover, or ready to be played."""
        if not all(match.known) or match.status != "waiting":
            return
        a, b = match.players
        if a is None or b is None:
            how = "bye" if match.round == 1 else "walkover"
            self._decide(match, a if b is None else b, how, at, events)
            return
        match.status = "ready"
        match.ready_at = at
        match.arrived = [self.entries[p].bot is not None for p in (a, b)]
        events.append(
            {
                "type": "match_ready",
                "match": match.number,
                "round": match.round,
                "length": match.length,
                "players": [a, b],
                "names": [self.entries[a].name, self.entries[b].name],
            }
        )

    def _decide(
        self,
        match: BracketMatch,
        winner: int | None,
        how: str,
        at: float,
        events: list[dict[str, Any]],
        out: str = "lost",
    ) -> None:
        match.status = "over"
        match.winner = winner
        match.how = how
        losers = [p for p in match.players if p is not None and p != winner]
        for loser in losers:
            if self.entries[loser].out is None:
                self.entries[loser].out = out
        events.append(
            {
                "type": "match_over",
                "match": match.number,
                "winner": winner,
                "losers": losers,
                "how": how,
                "table": match.table,
            }
        )
        if match.round == self.rounds_total:
            self._finish(winner, at, events)
            return
        following = self.rounds[match.round][match.index // 2]
        slot = match.index % 2
        following.players[slot] = winner
        following.known[slot] = True
        self._settle(following, at, events)

    def _finish(self, winner: int | None, at: float, events: list[dict[str, Any]]) -> None:
        self.status = "finished"
        self.finished_at = at
        self.winner = winner
        satellite = self.settings.satellite
        if satellite is not None:
            if satellite.seats == 1:
                reaching = [winner]
            else:
                # The players who reached the round where ``seats`` players were left.
                reached = max(1, self.rounds_total - int(math.log2(satellite.seats)) + 1)
                reaching = [p for m in self.rounds[reached - 1] for p in m.players]
            # A bot wins no seat; nor does a player who left or was removed.
            self.qualified = [
                p
                for p in reaching
                if p is not None
                and self.entries[p].bot is None
                and self.entries[p].out not in ("removed", "withdrew", "no_show")
            ]
        events.append(
            {
                "type": "finished",
                "winner": winner,
                "name": self.entries[winner].name if winner is not None else None,
                "qualified": [self.entries[p].to_json() for p in self.qualified],
                "target": satellite.target if satellite else None,
            }
        )

    def _running_match(self, action: Mapping[str, Any]) -> BracketMatch:
        number = action.get("match")
        if not _is_int(number):
            raise TournamentError("bad_message", Message('"match" must be a match number'))
        if self.status != "running":
            raise TournamentError("not_running", Message(_IS[self.status]))
        match = self.match(number)
        if match.status != "ready":
            raise TournamentError(
                "match_not_ready" if match.status == "waiting" else "match_over",
                Message(_MATCH_IS[match.status], number=number),
            )
        return match

    # reports from the server ------------------------------------------------------------------

    def _table(self, act: _Act) -> None:
        match = self._running_match(act.action)
        table = act.action.get("table")
        if not _is_int(table):
            raise TournamentError("bad_message", Message('"table" must be a table number'))
        if match.table is not None:
            raise TournamentError(
                "illegal_action",
                Message("match {number} has its table already", number=match.number),
            )
        match.table = table
        act.events.append({"type": "table", "match": match.number, "table": table})

    def _arrived(self, act: _Act) -> None:
        match = self._running_match(act.action)
        entry = act.action.get("entry")
        slot = match.slot_of(entry) if _is_int(entry) else None
        if slot is None:
            raise TournamentError(
                "not_in_match",
                Message("that entry does not play match {number}", number=match.number),
            )
        if match.arrived[slot]:
            raise TournamentError("illegal_action", Message("that player has come already"))
        match.arrived[slot] = True
        act.events.append({"type": "arrived", "match": match.number, "entry": match.players[slot]})

    def _result(self, act: _Act) -> None:
        match = self._running_match(act.action)
        winner, how = act.action.get("winner"), act.action.get("how", "played")
        if not _is_int(winner) or match.slot_of(winner) is None:
            raise TournamentError(
                "not_in_match",
                Message("the winner must play match {number}", number=match.number),
            )
        if not (isinstance(how, str) and _HOW.fullmatch(how)):
            raise TournamentError(
                "bad_message", Message('"how" must be a short word (played, time...)')
            )
        self._decide(match, winner, how, act.at, act.events)

    def _no_show(self, act: _Act) -> None:
        match = self._running_match(act.action)
        deadline = self.show_up_deadline(match)
        if deadline is None:
            raise TournamentError("illegal_action", Message("both players came to the match"))
        if act.at < deadline:
            raise TournamentError("not_due", Message("the players still have time to come"))
        present = [p for p, came in zip(match.players, match.arrived, strict=True) if came]
        self._decide(
            match, present[0] if present else None, "no_show", act.at, act.events, out="no_show"
        )

    # leaving ---------------------------------------------------------------------------------

    def _withdraw(self, act: _Act) -> None:
        user = _own_user(act, "withdraw")
        if self.status == "registering":
            raise TournamentError(
                "not_running", Message("the tournament has not started: unregister instead")
            )
        entry = self._entry_in_play(user)
        self._leave(entry, "withdrew", act.at, act.events)

    def _remove(self, act: _Act) -> None:
        """The operator takes a player out (R13: the operator has the last word)."""
        user = act.action.get("user")
        if not _is_int(user):
            raise TournamentError("bad_message", Message('remove needs "user" (a number)'))
        if not act.operator:
            raise TournamentError("forbidden", Message("only an operator removes a player"))
        if self.status == "registering":
            entry = self.entry_of_user(user)
            if entry is None:
                raise TournamentError("not_registered", Message("that player is not registered"))
            entry.out = "removed"
            self._drop_registration(entry, act.events, "removed")
            return
        entry = self._entry_in_play(user)
        self._leave(entry, "removed", act.at, act.events)

    def _entry_in_play(self, user: int) -> Entry:
        if self.status != "running":
            raise TournamentError("not_running", Message(_IS[self.status]))
        entry = self.entry_of_user(user)
        if entry is None:
            raise TournamentError(
                "not_registered", Message("that player is not in this tournament")
            )
        if entry.out is not None:
            raise TournamentError(
                "illegal_action",
                Message("{name} is out of the tournament already", name=entry.name),
            )
        return entry

    def _leave(self, entry: Entry, why: str, at: float, events: list[dict[str, Any]]) -> None:
        match = self.current_match(entry.no)
        assert match is not None  # a running tournament's player still in plays or waits
        events.append({"type": why, "entry": entry.no, "name": entry.name, "match": match.number})
        if match.status == "ready":
            other = next(p for p in match.players if p != entry.no)
            self._decide(match, other, why, at, events, out=why)
            return
        # Waiting for an opponent: the slot empties, the opponent will walk over.
        slot = match.slot_of(entry.no)
        assert slot is not None
        match.players[slot] = None
        entry.out = why
        entry.left_in_round = match.round - 1

    def _cancel(self, act: _Act) -> None:
        reason = act.action.get("reason", "cancelled by the organiser")
        if not (isinstance(reason, str) and 0 < len(reason) <= 200):
            raise TournamentError("bad_message", Message('"reason" must be a short text'))
        creator_may = (
            act.actor_id is not None
            and act.actor_id == self.creator_id
            and self.status == "registering"
        )
        if not (act.operator or creator_may):
            raise TournamentError(
                "forbidden",
                Message("only an operator (or its creator, before the start) cancels a tournament"),
            )
        if self.status not in ("registering", "running"):
            raise TournamentError("illegal_action", Message(_ALREADY[self.status]))
        tables = [m.table for m in self.matches if m.status == "ready" and m.table is not None]
        self.status = "cancelled"
        self.cancel_reason = reason
        self.finished_at = act.at
        act.events.append({"type": "cancelled", "reason": reason, "tables": tables})


_HANDLERS: Final = {
    "register": Tournament._register,
    "unregister": Tournament._unregister,
    "add_bots": Tournament._add_bots,
    "start": Tournament._start,
    "table": Tournament._table,
    "arrived": Tournament._arrived,
    "result": Tournament._result,
    "no_show": Tournament._no_show,
    "withdraw": Tournament._withdraw,
    "remove": Tournament._remove,
    "cancel": Tournament._cancel,
}


def _own_user(act: _Act, verb: str) -> int:
    """The ``user`` an action names, who must be the actor unless an operator acts."""
    user = act.action.get("user")
    if not _is_int(user):
        raise TournamentError(
            "bad_message", Message('{action} needs "user" (a number)', action=verb)
        )
    if act.actor_id is not None and act.actor_id != user and not act.operator:
        raise TournamentError("forbidden", Message(_THEMSELVES[verb]))
    return int(user)


#: The refusals of an action that needs the registration open, by the action, and why not,
#: by the tournament's status.
_CANNOT: Final = {
    "register": N_("cannot register: {why}"),
    "unregister": N_("cannot unregister: {why}"),
    "start": N_("cannot start: {why}"),
}
_HAS: Final = {
    "running": N_("the tournament has started"),
    "finished": N_("the tournament has finished"),
    "cancelled": N_("the tournament has been cancelled"),
}
#: The tournament's status, as a refusal says it.
_IS: Final = {
    "registering": N_("the tournament is registering"),
    "running": N_("the tournament is running"),
    "finished": N_("the tournament is finished"),
    "cancelled": N_("the tournament is cancelled"),
}
_ALREADY: Final = {
    "finished": N_("the tournament is finished already"),
    "cancelled": N_("the tournament is cancelled already"),
}
_MATCH_IS: Final = {
    "waiting": N_("match {number} is waiting for its players"),
    "over": N_("match {number} is over"),
}
#: An action on one's own entry that another player may not take for one.
_THEMSELVES: Final = {
    "unregister": N_("players unregister themselves"),
    "withdraw": N_("players withdraw themselves"),
}
