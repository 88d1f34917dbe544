"""Tournaments on the live server: their logs, their timers, and their matches' tables.

The tournament itself (:mod:`gammon.server.tournaments.state`) decides; this module
carries its decisions out on the same table API the lobby uses: a ``match_ready``
event becomes a table (seats drawn by lot, the round's length and the tournament's
clock), whose number goes back into the log; a table that ends reports its winner; a
player opening their match's table has come; the timers apply what is due (the start,
bots filling seats, no-shows). Every action is committed to the tournament's log
before anything follows from it, and on a restart each unfinished tournament is
replayed from its log and put in step with its tables (one created, or one finished,
while the server was going down). Each tournament in memory has a runner
(:mod:`gammon.server.runner`, the same as a table's): it carries an action out on the node
that runs the tournament, commits it, and hands the change to :meth:`Tournaments._on_change`
(timers, pages, the lobby) and what follows from it to :meth:`Tournaments._after` (tables
made and ended, a full Sit & Go started, satellites' seats). On several nodes
(:mod:`gammon.server.nodes`) one node runs each tournament under a lease, and every other
node keeps a replica, which reads the log again at each of the runner's records.

A tournament's socket, its pages kept live and its chat, is
:mod:`gammon.server.tournaments.pages`.
"""

from __future__ import annotations

import contextlib
import copy
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import text
from sqlalchemy.orm import Session

from gammon.actions import Forfeit
from gammon.messages import Message
from gammon.server.db import TableRow, select
from gammon.server.nodes import LogKey, NotOwner, Request, SharedLog
from gammon.server.protocol import Refused
from gammon.server.runner import Committed, Runner, adopt_log
from gammon.server.settings import TableSettings
from gammon.server.store import load_table
from gammon.server.table import Seat, Table
from gammon.server.table_actions import NoShow
from gammon.server.timesource import Timer
from gammon.server.tournaments.errors import TournamentError
from gammon.server.tournaments.log import ENDED, TournamentLog
from gammon.server.tournaments.pages import TournamentPages, summary_json
from gammon.server.tournaments.queries import create_tournament, load_tournaments, tournament_tables
from gammon.server.tournaments.settings import TournamentSettings
from gammon.server.tournaments.state import Applied, BracketMatch, Tournament

if TYPE_CHECKING:
    from gammon.server.auth import UserInfo
    from gammon.server.connections import Connection
    from gammon.server.hub import Hub, TableEvent

__all__ = ["TOURNAMENT_LOGS", "LiveTournament", "Tournaments"]

log = logging.getLogger("gammon.server")

#: Finished and cancelled tournaments listed in the lobby, newest first.
KEEP_DONE: Final = 20
#: What the nodes must know of a tournament's log.
TOURNAMENT_LOGS: Final = SharedLog(
    "tournament",
    leases=("tournament_leases", "tournament_id"),
    things="tournaments",
    unfinished=("registering", "running"),
    follow_all=True,  # every node's pages and lobby show every tournament
    pin_retries=False,  # a tournament's seq moves on by itself (its timers)
    unanswered=Message("the tournament's server did not answer: look at it and act again"),
)
#: Rounds of due actions one timer applies: add_bots, then the start it makes due.
_DUE_ROUNDS: Final = 3


@dataclass
class LiveTournament:
    """A tournament in memory: its runner (its state, lock, acting and following) and timer."""

    runner: Runner[Tournament, Applied]
    timer: Timer | None = None

    @property
    def tournament(self) -> Tournament:
        return self.runner.state


def _key(tournament_id: int) -> LogKey:
    """A tournament's log, as the nodes name it."""
    return ("tournament", tournament_id)


class Tournaments:
    """Every tournament of one server, in memory, and their tables through the hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = hub.store
        self.live: dict[int, LiveTournament] = {}
        #: Which tournament match each table plays: table id -> (tournament id, match number).
        self.by_table: dict[int, tuple[int, int]] = {}
        #: Called after every accepted action (the lobby and the pages listening).
        self.listeners: list[Callable[[Tournament], None]] = []
        #: Each tournament's socket: its pages, live, and its chat (PROTOCOL.md 6.1).
        self.pages = TournamentPages(hub, self._tournament_or_none)
        #: How a runner applies, appends and reads back a tournament's actions.
        self.log = TournamentLog(hub.store)
        #: The nodes (one alone, or several: gammon.server.nodes), shared with the hub.
        self.nodes = hub.nodes
        hub.listen("status", self._on_table_changed)
        hub.listen("joined", self._on_table_joined)
        self.nodes.register(TOURNAMENT_LOGS, self)

    # -- start -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Replay every tournament from its log, then catch up with what happened meanwhile.

        With several nodes these are replicas: the nodes' sweep (:meth:`Hub.join_nodes`)
        takes over the tournaments nobody runs.
        """
        for tournament in await self.store.run(load_tournaments):
            self._live(tournament)
        if self.nodes.shared:
            return
        for live in list(self.live.values()):
            if live.tournament.status == "running":
                await self._catch_up(live)
            self._schedule(live)

    async def _catch_up(self, live: LiveTournament) -> None:
        """Tables made but not yet in the log, and results not yet reported (after a crash)."""
        tournament = live.tournament
        made = await self.store.run(lambda s: tournament_tables(s, tournament.id))
        for match in list(tournament.matches):
            if match.status != "ready":
                continue
            if match.table is None:
                table_id = made.get(match.number)
                if table_id is None:
                    await self._open_match(live, match)
                    continue
                await self.act(live, {"type": "table", "match": match.number, "table": table_id})
            assert match.table is not None
            self.by_table[match.table] = (tournament.id, match.number)
            table_live = await self.hub.live_table(match.table)
            if table_live is not None and table_live.table.status == "finished":
                await self._report(table_live.table)

    # -- reading -------------------------------------------------------------------------------

    def get(self, tournament_id: int) -> LiveTournament:
        live = self.live.get(tournament_id)
        if live is None:
            raise TournamentError(
                "no_such_tournament",
                Message("there is no tournament {tournament}", tournament=tournament_id),
            )
        return live

    def _tournament_or_none(self, tournament_id: int) -> Tournament | None:
        live = self.live.get(tournament_id)
        return None if live is None else live.tournament

    def lobby_json(self) -> list[dict[str, Any]]:
        """The tournaments the lobby lists: open and running ones, and the latest finished."""
        current: list[dict[str, Any]] = []
        done: list[dict[str, Any]] = []
        for live in self.live.values():
            t = live.tournament
            (current if t.status in ("registering", "running") else done).append(summary_json(t))
        done.sort(key=lambda s: -s["id"])
        current.sort(key=lambda s: (s["status"] != "registering", s["start_at"] or 0, s["id"]))
        return current + done[:KEEP_DONE]

    # -- acting ---------------------------------------------------------------------------------

    async def create(self, user: UserInfo, data: object) -> Tournament:
        """A new tournament; operators create any, other accounts Sit & Go's only."""
        if user.guest:
            raise Refused(
                "forbidden", Message("tournaments are for accounts: sign up to create one")
            )
        settings = TournamentSettings.from_json(data, bot_levels=self.hub.bot_levels)
        if settings.kind == "scheduled" and not user.operator:
            raise Refused(
                "forbidden",
                Message("only an operator schedules tournaments; any account may start a Sit & Go"),
            )
        at = self.hub.time.now()
        if settings.start_at is not None and settings.start_at <= at:
            raise TournamentError(
                "bad_settings", Message("The start time must be in the future"), field="start_at"
            )
        if settings.satellite is not None:
            target = self.live.get(settings.satellite.target)
            if target is None or target.tournament.status != "registering":
                raise TournamentError(
                    "bad_settings",
                    Message(
                        "The satellite's target tournament must exist and be open for registration"
                    ),
                    field="satellite.target",
                )
        nodes = self.nodes

        def create(session: Session) -> Tournament:
            made = create_tournament(session, settings, creator_id=user.id, at=at)
            nodes.acquire(session, _key(made.id))
            return made

        tournament = await self.store.write(create)
        nodes.created(_key(tournament.id))
        live = self._live(tournament)
        # The other nodes hear of it (and read it) as of any change.
        await nodes.committed(_key(tournament.id), {"seq": tournament.seq}, ended=False)
        self._schedule(live)
        self._changed(tournament)
        return tournament

    def runs(self, tournament_id: int) -> bool:
        """Whether this node runs the tournament (a single node runs every one)."""
        return self.nodes.owns(_key(tournament_id))

    async def request(
        self,
        live: LiveTournament,
        action: dict[str, Any],
        *,
        actor_id: int | None = None,
        operator: bool = False,
    ) -> None:
        """An action from outside (a player, an operator, a table's result): carried out by
        the node running the tournament, this one or another."""
        tournament = live.tournament
        if not self.runs(tournament.id) and tournament.status in ENDED:
            # Nobody runs an ended tournament (its lease is gone): refused as it would be
            # there, on a copy, rather than taken over for nothing.
            copy.deepcopy(tournament).apply(
                action, actor_id=actor_id, operator=operator, at=self.hub.time.now()
            )
        await live.runner.act(Request(action, actor_id=actor_id, operator=operator))

    async def act(
        self,
        live: LiveTournament,
        action: dict[str, Any],
        *,
        actor_id: int | None = None,
        operator: bool = False,
    ) -> Applied:
        """Check, record, then carry out one action of this node's (a timer's, a match's
        table), and whatever follows from it (:meth:`_after`); refused if another node
        runs the tournament now."""
        try:
            return await live.runner.act_here(Request(action, actor_id=actor_id, operator=operator))
        except NotOwner:
            raise Refused("server_error", self.log.moved(live.tournament.id)) from None

    def _live(self, tournament: Tournament) -> LiveTournament:
        """Put a tournament read from the log in memory, with a runner of its own."""
        live: LiveTournament
        runner: Runner[Tournament, Applied] = Runner(
            self.log,
            tournament,
            nodes=self.nodes,
            time=self.hub.time,
            spawn=self.hub.spawn,
            on_change=lambda change: self._on_change(live, change),
            after=lambda change: self._after(live, change),
        )
        live = self.live[tournament.id] = LiveTournament(runner)
        self._know_tables(tournament)
        return live

    def _know_tables(self, tournament: Tournament) -> None:
        for match in tournament.matches:
            if match.table is not None:
                self.by_table[match.table] = (tournament.id, match.number)

    def _on_change(self, live: LiveTournament, change: Committed[Tournament, Applied]) -> None:
        """What follows every change of a tournament, here or as a replica: its tables known,
        its timer set where it runs, its pages and the lobby told."""
        tournament = change.state
        self._know_tables(tournament)
        self._schedule(live)
        self._changed(tournament)
        if change.before != tournament.status:
            self.hub.lobby_changed()

    async def _after(self, live: LiveTournament, change: Committed[Tournament, Applied]) -> None:
        """What an action committed here makes happen, once the tournament's lock is free
        (it may act again): its events carried out, and a full Sit & Go started."""
        if change.applied is None:
            return
        await self._follow(live, change.applied.events)
        if change.applied.record.action.get("type") == "register":
            await self.after_register(live)

    # -- several nodes: the nodes' part (gammon.server.nodes.LogPart) -----------------------

    async def adopt(self, thing: int, run_here: Callable[[], None]) -> None:
        """This node took the tournament over: run it from its log, in step with its tables."""
        live = await adopt_log(
            self.log,
            thing,
            run_here,
            time=self.hub.time,  # its load runs nothing again from now (times of day)
            live=lambda: self.live.get(thing),
            install=self._live,
        )
        if live is None:
            return
        if live.tournament.status == "running":
            await self._catch_up(live)
        self._schedule(live)  # what fell due while nobody ran it is applied at once

    async def demote(self, thing: int) -> None:
        """Another node runs the tournament now: stop its timer here, keep it as a replica
        (as the log has it: an action here may not have been committed)."""
        live = self.live.get(thing)
        if live is None:
            return
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        await live.runner.restore()

    async def serve(self, thing: int, request: Request) -> dict[str, Any]:
        live = self.live.get(thing)
        if live is None:
            raise NotOwner
        return self.log.record(await live.runner.act_here(request))

    def on_record(self, thing: int, record: dict[str, Any]) -> None:
        live = self.live.get(thing)
        if live is not None:
            live.runner.on_record(record)
        else:  # made on another node
            self.hub.spawn(self._discover(thing))

    def on_told(self, thing: int, message: dict[str, Any]) -> None:
        """Nothing is told to a tournament's runner."""

    async def _discover(self, thing: int) -> None:
        """A tournament another node made: a replica here, for the pages and the lobby."""
        tournament = await self.log.load(thing, None)
        if tournament is not None and thing not in self.live:
            live = self._live(tournament)
            self._on_change(live, Committed(tournament, "", None, None, here=False))

    async def sweep(self) -> None:
        """Bring the replicas up to the log (and read those made elsewhere); put the ones run
        here in step with their tables."""
        known = max(self.live, default=0)

        def heads(session: Session) -> dict[int, int]:
            seqs = session.execute(
                text(
                    "SELECT t.id, COALESCE(MAX(a.seq), 0) FROM tournaments t "
                    "LEFT JOIN tournament_actions a ON a.tournament_id = t.id "
                    "WHERE t.status IN ('registering', 'running') OR t.id > :known "
                    "GROUP BY t.id"
                ),
                {"known": known},
            ).all()
            return {int(t): int(seq) for t, seq in seqs}

        seqs = await self.store.run(heads)
        for tournament_id, seq in seqs.items():
            replica = self.live.get(tournament_id)
            if self.runs(tournament_id):
                continue
            if replica is None:
                await self._discover(tournament_id)
            elif replica.tournament.seq < seq:
                await replica.runner.reload()
        for tournament_id, replica in list(self.live.items()):
            unfinished = replica.tournament.status not in ENDED
            if unfinished and tournament_id not in seqs and not self.runs(tournament_id):
                await replica.runner.reload()  # it ended; its record was missed
        for tournament_id, replica in list(self.live.items()):
            if self.runs(tournament_id) and replica.tournament.status == "running":
                await self.check_tables(replica)

    async def check_tables(self, live: LiveTournament) -> None:
        """Report the matches whose tables finished (on whichever node ran them)."""
        tables = [
            m.table for m in live.tournament.matches if m.status == "ready" and m.table is not None
        ]
        if not tables:
            return

        def finished(session: Session) -> list[Table]:
            ended = session.scalars(
                select(TableRow.id).where(TableRow.id.in_(tables), TableRow.status == "finished")
            ).all()
            loaded = (load_table(session, table_id) for table_id in ended)
            return [table for table in loaded if table is not None]

        for table in await self.store.run(finished):
            await self._report(table)

    async def _follow(self, live: LiveTournament, events: list[dict[str, Any]]) -> None:
        tournament = live.tournament
        for event in events:
            kind = event["type"]
            if kind == "match_ready":
                await self._open_match(live, tournament.match(event["match"]))
            elif kind == "match_over" and event["table"] is not None:
                await self._end_table(event["table"], event["losers"], tournament)
            elif kind == "finished" and event["qualified"]:
                await self._seat_qualifiers(tournament, event)

    async def _open_match(self, live: LiveTournament, match: BracketMatch) -> None:
        """A ready match gets its table; two bots meeting are decided by lot, without one."""
        tournament = live.tournament
        entries = [tournament.entry(p) for p in match.players if p is not None]
        if all(e.bot is not None for e in entries):
            winner = entries[self.hub.chance.randbelow(2)].no
            await self.act(
                live, {"type": "result", "match": match.number, "winner": winner, "how": "lot"}
            )
            return
        seats = [Seat(e.user_id, e.name, e.bot) for e in entries]
        if self.hub.chance.randbelow(2):
            seats.reverse()  # R13: who sits where is decided by lot
        settings = TableSettings.from_json(
            {**tournament.settings.table_json(match.round), "rated": tournament.settings.rated},
            bot_levels=self.hub.bot_levels,
        )
        creator = next(seat for seat in seats if seat.user_id is not None)
        table = await self.hub.create_tournament_table(
            settings, seats, tournament=(tournament.id, match.number), creator=creator
        )
        self.by_table[table.id] = (tournament.id, match.number)
        await self.act(live, {"type": "table", "match": match.number, "table": table.id})

    async def _end_table(self, table_id: int, losers: list[int], tournament: Tournament) -> None:
        """A match decided away from its table (a withdrawal, a no-show): the table ends too."""
        table_live = await self.hub.live_table(table_id)
        if table_live is None or table_live.table.status != "playing":
            return
        table = table_live.table
        names = {tournament.entry(no).name for no in losers}
        sides = [side for side, seat in enumerate(table.seats or []) if seat.name in names]
        # One loser forfeits in their name; when neither came (or nobody is named) the
        # table ends with no winner, as nobody went through (docs/PROTOCOL.md 1.6).
        action, side = (Forfeit(sides[0]), sides[0]) if len(sides) == 1 else (NoShow(), None)
        with contextlib.suppress(Refused):
            await self.hub.act(table_live, action, side=side, actor_id=None)

    async def _seat_qualifiers(self, tournament: Tournament, event: dict[str, Any]) -> None:
        target = self.live.get(event["target"])
        if target is None:
            return
        for entry in event["qualified"]:
            action = {
                "type": "register",
                "user": entry["user"],
                "name": entry["name"],
                "qualified_from": tournament.id,
            }
            try:
                await self.request(target, action)
            except Refused as exc:
                log.warning(
                    "tournament %s: %s's seat in tournament %s was not given: %s",
                    tournament.id,
                    entry["name"],
                    event["target"],
                    exc.message,
                )

    # -- what tables report -------------------------------------------------------------------

    def _on_table_changed(self, event: TableEvent) -> None:
        table = event.live.table
        if table.status == "finished" and table.id in self.by_table:
            self.hub.spawn(self._report(table))

    async def _report(self, table: Table) -> None:
        where = self.by_table.get(table.id)
        if where is None or table.result is None or table.seats is None:
            return
        live = self.live.get(where[0])
        if live is None:
            return
        match = live.tournament.match(where[1])
        if match.status != "ready":
            return
        winner_side = table.result.winner
        if winner_side is None:
            return
        seat = table.seats[winner_side]
        winner = next(
            (
                p
                for p in match.players
                if p is not None and live.tournament.entry(p).name == seat.name
            ),
            None,
        )
        if winner is None:
            return
        how = table.result.reason or "played"
        with contextlib.suppress(Refused):
            await self.request(
                live, {"type": "result", "match": match.number, "winner": winner, "how": how}
            )

    def _on_table_joined(self, event: TableEvent) -> None:
        live_table, user_id = event.live, event.user_id
        where = self.by_table.get(live_table.table.id)
        if user_id is None:
            return
        if where is None:
            return
        live = self.live.get(where[0])
        if live is None:
            return
        match = live.tournament.match(where[1])
        entry = live.tournament.entry_of_user(user_id)
        if match.status != "ready" or entry is None:
            return
        slot = match.slot_of(entry.no)
        if slot is None or match.arrived[slot]:
            return
        action = {"type": "arrived", "match": match.number, "entry": entry.no}
        self.hub.spawn(self._quietly(live, action))

    async def _quietly(self, live: LiveTournament, action: dict[str, Any]) -> None:
        with contextlib.suppress(Refused):
            await self.request(live, action)

    # -- timers ----------------------------------------------------------------------------------

    def _schedule(self, live: LiveTournament) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        deadline = live.tournament.next_deadline()
        if deadline is None or not self.runs(live.tournament.id):
            return
        delay = max(0.0, deadline - self.hub.time.now()) + 0.005
        live.timer = self.hub.time.call_later(delay, lambda: self.hub.spawn(self._on_timer(live)))

    async def _on_timer(self, live: LiveTournament) -> None:
        """Apply what is due, and what that makes due in turn: the bots that fill a Sit & Go
        make it full, and a full one starts now (a round at most per kind of action, so a
        refused action cannot loop)."""
        for _ in range(_DUE_ROUNDS):
            due = live.tournament.due(self.hub.time.now())
            if not due:
                break
            applied = False
            for action in due:
                if action["type"] == "start":
                    action["seed"] = self.hub.chance.token_bytes(16).hex()
                with contextlib.suppress(Refused):
                    await self.act(live, action)
                    applied = True
            if not applied:
                break
        self._schedule(live)

    async def after_register(self, live: LiveTournament) -> None:
        """A Sit & Go whose last seat was just taken starts at once."""
        if live.tournament.due(self.hub.time.now()):
            await self._on_timer(live)

    def stop(self) -> None:
        for live in self.live.values():
            if live.timer is not None:
                live.timer.cancel()

    def _changed(self, tournament: Tournament) -> None:
        for listener in list(self.listeners):
            listener(tournament)
        self.pages.push(tournament.id)

    # -- the tournament's socket (its pages: gammon.server.tournaments.pages) -------------------

    async def join_socket(self, live: LiveTournament, conn: Connection) -> None:
        """A page opens the tournament's socket: hello, the chat's recent lines, the tournament."""
        await self.pages.join(live.tournament, conn)

    def leave_socket(self, live: LiveTournament, conn: Connection) -> None:
        self.pages.leave(live.tournament.id, conn)

    async def on_socket_message(
        self, live: LiveTournament, conn: Connection, raw: str | None
    ) -> None:
        """One message on a tournament's socket: the lobby's messages (chat, moderation, ping)."""
        await self.pages.on_message(live.tournament.id, conn, raw)
