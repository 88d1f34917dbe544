"""Players' ratings, profiles, history and the leaderboard, as the database keeps them.

Ratings change in the same transaction that records a match's end (``rate_finished``
is called by the store when a table's result is written), so a crash can never leave
a finished match unrated or rated twice. The formula and which matches count are
:mod:`gammon.server.ratings`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from gammon.server.db import (
    Action,
    AnalysisRow,
    GameRow,
    RatingChange,
    RatingRow,
    Result,
    TableRow,
    User,
)
from gammon.server.ratings import BOT_RATINGS, INITIAL_RATING, Rating, counts_for_rating, rate_match

__all__ = [
    "bot_profile",
    "LEADERBOARD_PAGE",
    "all_ratings",
    "leaderboard",
    "profile",
    "rate_finished",
    "rating_of",
]

LEADERBOARD_PAGE: Final = 50
RECENT_MATCHES: Final = 30


def rating_of(session: Session, user_id: int) -> Rating:
    row = session.get(RatingRow, user_id)
    return Rating(row.rating, row.experience) if row is not None else Rating()


def _save(session: Session, user_id: int, rating: Rating, won: bool, at: float) -> None:
    row = session.get(RatingRow, user_id)
    if row is None:
        row = RatingRow(
            user_id=user_id, rating=INITIAL_RATING, experience=0, matches=0, wins=0, updated=at
        )
        session.add(row)
    row.rating = rating.rating
    row.experience = rating.experience
    row.matches += 1
    row.wins += int(won)
    row.updated = at


def rate_finished(session: Session, table_id: int, winner_side: int | None, at: float) -> None:
    """Change the ratings for a table's match that just ended, if it counts (not committed)."""
    table = session.get(TableRow, table_id)
    if table is None or winner_side is None:
        return
    seats = [table.seat0, table.seat1]
    users = [session.get(User, s) if s is not None else None for s in seats]
    if not _is_rated(session, table, users):
        return
    length = int(table.settings.get("length") or 0)
    ratings: list[Rating] = []
    for user in users:
        if user is None:  # the bot: a fixed rating, no experience of its own to count
            level = table.bot_level or "expert"
            ratings.append(Rating(BOT_RATINGS.get(level, INITIAL_RATING), 10_000))
        else:
            ratings.append(rating_of(session, user.id))
    loser_side = 1 - winner_side
    won, lost = rate_match(ratings[winner_side], ratings[loser_side], length)
    after = {winner_side: won, loser_side: lost}
    names = [u.name if u is not None else f"gammon-{table.bot_level}" for u in users]
    for side, user in enumerate(users):
        if user is None:
            continue
        other = 1 - side
        _save(session, user.id, after[side], side == winner_side, at)
        session.add(
            RatingChange(
                user_id=user.id,
                table_id=table_id,
                opponent_id=seats[other],
                opponent_name=names[other],
                opponent_rating=ratings[other].rating,
                length=length,
                won=side == winner_side,
                before=ratings[side].rating,
                after=after[side].rating,
                experience=after[side].experience,
                at=at,
            )
        )


def _is_rated(session: Session, table: TableRow, users: list[User | None]) -> bool:
    """Whether the table's finished match counts for the ratings (ratings.counts_for_rating):
    its mode and length, who sat there, and whether each human played at all."""
    settings = table.settings
    accounts = sum(1 for u in users if u is not None and not u.is_guest)
    bots = 1 if table.bot_level is not None else 0
    humans = {u.id for u in users if u is not None}
    acted = set(
        session.scalars(
            select(Action.actor_id).where(
                Action.table_id == table.id,
                Action.actor_id.in_(humans),
                Action.side.is_not(None),
            )
        )
    )
    length = int(settings.get("length") or 0)
    return counts_for_rating(
        mode=str(settings.get("mode", "match")),
        accounts=accounts,
        bots=bots,
        # Hints and the tutor for both players: practice, not a rated match (the bot's
        # tables always offer hints, as they always have, and stay rated).
        rated=bool(settings.get("rated", True)) and not (settings.get("practice") and not bots),
        took_part=acted == humans and length > 0,
    )


def all_ratings(session: Session, user_ids: Sequence[int] | None = None) -> dict[int, float]:
    """Ratings by user id (of the given users, or of everyone rated), for the lobby."""
    query = select(RatingRow.user_id, RatingRow.rating)
    if user_ids is not None:
        query = query.where(RatingRow.user_id.in_(list(user_ids)))
    return {user_id: rating for user_id, rating in session.execute(query).all()}


def _user_json(row: RatingRow | None) -> dict[str, Any]:
    rating = Rating(row.rating, row.experience) if row is not None else Rating()
    return {
        "rating": round(rating.rating, 2),
        "experience": rating.experience,
        "provisional": rating.provisional,
        "matches": row.matches if row is not None else 0,
        "wins": row.wins if row is not None else 0,
        "last_played": row.updated if row is not None else None,
    }


def profile(session: Session, name: str) -> dict[str, Any] | None:
    """A player's page (docs/PROTOCOL.md 1.6): rating, history, record, unfinished tables."""
    user = session.scalar(select(User).where(User.name_key == name.lower()))
    if user is None:
        return None
    rating = session.get(RatingRow, user.id)
    history = session.scalars(
        select(RatingChange).where(RatingChange.user_id == user.id).order_by(RatingChange.at)
    ).all()
    # Every finished match (rated or not): the results of the tables they sat at.
    rows = session.execute(
        select(Result, TableRow)
        .join(TableRow, TableRow.id == Result.table_id)
        .where(or_(TableRow.seat0 == user.id, TableRow.seat1 == user.id))
        .order_by(Result.at.desc())
    ).all()
    rated = {change.table_id: change for change in history}
    opponents: dict[str, dict[str, Any]] = {}
    recent: list[dict[str, Any]] = []
    for result, table in rows:
        side = 0 if table.seat0 == user.id else 1
        other_id = table.seat1 if side == 0 else table.seat0
        other = session.get(User, other_id) if other_id is not None else None
        opponent = other.name if other is not None else f"gammon-{table.bot_level or '?'}"
        won = result.winner_side == side
        outcome = _outcome(won, result)
        if outcome != "unplayed":  # a match neither came to is no meeting of the two
            record = opponents.setdefault(opponent, {"opponent": opponent, "wins": 0, "losses": 0})
            if result.winner_side is not None:
                record["wins" if won else "losses"] += 1
        if len(recent) < RECENT_MATCHES:
            recent.append(_recent(session, table, result, side, opponent, rated.get(table.id)))
    return {
        "name": user.name,
        "guest": user.is_guest,
        "joined": user.created,
        **_user_json(rating),
        "rating_history": [
            {"at": c.at, "rating": round(c.after, 2), "table": c.table_id} for c in history
        ],
        "opponents": sorted(
            opponents.values(), key=lambda r: (-(r["wins"] + r["losses"]), r["opponent"])
        ),
        "recent": recent,
        "unfinished": _unfinished(session, user.id),
    }


def _recent(
    session: Session,
    table: TableRow,
    result: Result,
    side: int,
    opponent: str,
    change: RatingChange | None,
) -> dict[str, Any]:
    """One of a player's recent matches, from their ``side``, with its links."""
    outcome = _outcome(result.winner_side == side, result)
    games = session.scalar(
        select(func.count()).select_from(GameRow).where(GameRow.table_id == table.id)
    )
    analysed = session.scalar(
        select(AnalysisRow.id)
        .where(AnalysisRow.table_id == table.id, AnalysisRow.status == "done")
        .limit(1)
    )
    return {
        "table": table.id,
        "opponent": opponent,
        "result": outcome,
        "how": result.reason,
        "mode": table.settings.get("mode", "match"),
        "length": table.settings.get("length"),
        "variant": table.settings.get("variant", "standard"),
        # From the player's side, as the result is: "lost 0-3", never the seat
        # order's "lost 3-0" for a player who sat second.
        "score": [result.score[side], result.score[1 - side]],
        "games": int(games or 0),
        "at": result.at,
        "rating_change": round(change.after - change.before, 2) if change else None,
        "replay": f"/#/record/{table.id}",
        "record": f"/api/tables/{table.id}/record",
        "mat": f"/api/tables/{table.id}/mat" if outcome != "unplayed" else None,
        "analysis": f"/#/review/{table.id}" if analysed is not None else None,
    }


def _unfinished(session: Session, user_id: int) -> list[dict[str, Any]]:
    """The open and playing tables the player sits at or created, newest first."""
    tables = session.scalars(
        select(TableRow)
        .where(
            TableRow.status.in_(("open", "playing")),
            or_(
                TableRow.seat0 == user_id, TableRow.seat1 == user_id, TableRow.created_by == user_id
            ),
        )
        .order_by(TableRow.id.desc())
    ).all()
    return [
        {"table": t.id, "status": t.status, "settings": t.settings, "created": t.created}
        for t in tables
    ]


def bot_profile(session: Session, name: str) -> dict[str, Any] | None:
    """A bot's page: its level, engine and depth, its fixed rating and its record against
    people (the results of the tables where it met one, from the bot's side), or None when
    ``name`` is no bot's (``gammon-LEVEL``; people cannot take such names)."""
    from gammon.engine.bot import SKILL_LEVELS

    prefix, _, wanted = name.lower().partition("-")
    level = SKILL_LEVELS.get(wanted) if prefix == "gammon" else None
    if level is None:
        return None
    rows = session.execute(
        select(Result, TableRow)
        .join(TableRow, TableRow.id == Result.table_id)
        .where(TableRow.bot_level == level.name)
        .order_by(Result.at.desc())
    ).all()
    wins = losses = 0
    recent: list[dict[str, Any]] = []
    for result, table in rows:
        if (table.seat0 is None) == (table.seat1 is None):
            continue  # two bots, or no person: not a match against people
        side = 0 if table.seat0 is None else 1  # the bot's seat is the one with no account
        person = session.get(User, table.seat1 if side == 0 else table.seat0)
        if result.winner_side is not None:
            if result.winner_side == side:
                wins += 1
            else:
                losses += 1
        if len(recent) < RECENT_MATCHES:
            score = list(result.score) if result.score else [0, 0]
            recent.append(
                {
                    "table": table.id,
                    "opponent": person.name if person is not None else "?",
                    "result": "won" if result.winner_side == side else "lost",
                    "how": result.reason,
                    "score": [score[side], score[1 - side]],
                    "at": result.at,
                    "replay": f"/#/record/{table.id}",
                }
            )
    return {
        "name": f"gammon-{level.name}",
        "bot": {
            "level": level.name,
            "description": level.description,
            "engine": "gammon",
            "ply": level.ply,
            "noise": level.noise,
        },
        "rating": BOT_RATINGS[level.name],
        "record": {"wins": wins, "losses": losses},
        "recent": recent,
    }


def leaderboard(
    session: Session, *, search: str = "", offset: int = 0, limit: int = LEADERBOARD_PAGE
) -> dict[str, Any]:
    """Rated players, best first; ``search`` narrows to names containing it."""
    query = (
        select(RatingRow, User)
        .join(User, User.id == RatingRow.user_id)
        .where(User.is_guest.is_(False), User.banned.is_(False))
    )
    text = search.strip().lower()
    if text:
        escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        query = query.where(User.name_key.like(f"%{escaped}%", escape="\\"))
    total = session.scalar(select(func.count()).select_from(query.subquery()))
    rows: Sequence[Any] = session.execute(
        query.order_by(RatingRow.rating.desc(), User.name_key).offset(offset).limit(limit)
    ).all()
    return {
        "total": int(total or 0),
        "offset": offset,
        "players": [
            {"rank": offset + i + 1, "name": user.name, **_user_json(rating)}
            for i, (rating, user) in enumerate(rows)
        ],
    }


def _outcome(won: bool, result: Result) -> str:
    """How a finished match went for the player: won, lost, drawn (a money session ended
    even) or unplayed (a tournament match neither player came to, docs/PROTOCOL.md 1.6)."""
    if won:
        return "won"
    if result.winner_side is not None:
        return "lost"
    return "unplayed" if result.reason == "no_show" else "drawn"
