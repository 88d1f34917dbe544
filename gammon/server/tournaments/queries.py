"""The tournaments' rows in the database: a tournament created, its log appended to and
replayed, the tables of its matches.

Small named queries for the store's pool and writer (:class:`gammon.server.store.Store`);
the log is replayed through :meth:`Tournament.replay`, and one that does not replay is
left out and logged, as a table's is.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from sqlalchemy import update
from sqlalchemy.orm import Session

from gammon.errors import GammonError
from gammon.server.db import TableRow, TournamentAction, TournamentRow, select
from gammon.server.tournaments.settings import TournamentSettings
from gammon.server.tournaments.state import Applied as TournamentApplied
from gammon.server.tournaments.state import Record, Tournament

__all__ = [
    "add_tournament_action",
    "create_tournament",
    "load_tournament",
    "load_tournaments",
    "table_tournament",
    "tournament_tables",
]

log = logging.getLogger("gammon.server")


def create_tournament(
    session: Session, settings: TournamentSettings, *, creator_id: int | None, at: float
) -> Tournament:
    """Record a new tournament (committed by :meth:`Store.write`)."""
    row = TournamentRow(
        created_by=creator_id, created=at, settings=settings.to_json(), status="registering"
    )
    session.add(row)
    session.flush()
    return Tournament(row.id, settings, creator_id=creator_id, created=at)


def add_tournament_action(
    session: Session, tournament: Tournament, applied: TournamentApplied
) -> None:
    """Append one accepted action to a tournament's log, and its status to its row."""
    record = applied.record
    session.add(
        TournamentAction(
            tournament_id=tournament.id,
            seq=applied.seq,
            actor_id=record.actor_id,
            operator=record.operator,
            action=record.action,
            events=applied.events,
            at=record.at,
        )
    )
    session.execute(
        update(TournamentRow)
        .where(TournamentRow.id == tournament.id)
        .values(status=tournament.status, finished=tournament.finished_at)
    )


def load_tournament(session: Session, tournament_id: int) -> Tournament | None:
    """One tournament, replayed from its log (another node's, several nodes); None if it
    does not exist or does not replay."""
    rows = session.scalars(select(TournamentRow).where(TournamentRow.id == tournament_id)).all()
    return next(iter(_replay_tournaments(session, rows)), None)


def load_tournaments(session: Session) -> list[Tournament]:
    """Every tournament, replayed from its log; one whose log does not replay is left out."""
    rows = session.scalars(select(TournamentRow).order_by(TournamentRow.id)).all()
    return _replay_tournaments(session, rows)


def _replay_tournaments(session: Session, rows: Sequence[TournamentRow]) -> list[Tournament]:
    tournaments = []
    for row in rows:
        actions = session.scalars(
            select(TournamentAction)
            .where(TournamentAction.tournament_id == row.id)
            .order_by(TournamentAction.seq)
        ).all()
        records = [Record(a.action, a.actor_id, a.operator, a.at) for a in actions]
        try:
            tournament = Tournament.replay(
                row.id,
                TournamentSettings.from_row(row.settings),
                creator_id=row.created_by,
                created=row.created,
                records=records,
            )
        except GammonError as exc:
            log.error(
                "tournament %s cannot be rebuilt and is left out: %s",
                row.id,
                exc,
                extra={"tournament_id": row.id},
            )
            continue
        tournaments.append(tournament)
    return tournaments


def table_tournament(session: Session, table_id: int) -> int | None:
    """The tournament a table plays a match of, or None."""
    row = session.get(TableRow, table_id)
    return row.tournament_id if row is not None else None


def tournament_tables(session: Session, tournament_id: int) -> dict[int, int]:
    """The tables made for a tournament's matches: match number -> table id."""
    rows = session.execute(
        select(TableRow.tournament_match, TableRow.id).where(
            TableRow.tournament_id == tournament_id
        )
    ).all()
    return {match: table for match, table in rows if match is not None}
