"""The chat room's records in the database (R13): messages, reports, sanctions, bans.

Small named queries, each run by the store's pool (:meth:`gammon.server.store.Store.run`)
in its own transaction; :mod:`gammon.server.chatroom` is their one caller.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from gammon.server.db import ChatMessage, Report, Sanction, User, now, select

__all__ = [
    "add_chat_message",
    "add_report",
    "add_sanction",
    "chat_history",
    "moderation_state",
    "set_banned",
]


def chat_history(
    session: Session, table_id: int | None, limit: int, *, tournament_id: int | None = None
) -> list[dict[str, Any]]:
    """The last ``limit`` chat messages of a table, of a tournament, or (neither) of the
    lobby, oldest first."""
    if table_id is not None:
        where = ChatMessage.table_id == table_id
    elif tournament_id is not None:
        where = ChatMessage.tournament_id == tournament_id
    else:
        where = ChatMessage.table_id.is_(None) & ChatMessage.tournament_id.is_(None)
    rows = session.execute(
        select(ChatMessage, User.name)
        .join(User, User.id == ChatMessage.user_id)
        .where(where)
        .order_by(ChatMessage.id.desc())
        .limit(limit)
    ).all()
    return [
        {"id": row.id, "user": name, "text": row.text, "ms": int(row.at * 1000)}
        for row, name in reversed(rows)
    ]


def add_chat_message(
    session: Session,
    table_id: int | None,
    user_id: int,
    text: str,
    at: float,
    *,
    tournament_id: int | None = None,
) -> int:
    """Record one chat message (committed); returns its id."""
    row = ChatMessage(
        table_id=table_id, tournament_id=tournament_id, user_id=user_id, text=text, at=at
    )
    session.add(row)
    session.commit()
    return row.id


def add_report(
    session: Session,
    reporter_id: int,
    target_id: int,
    *,
    reason: str,
    table: str | None,
    evidence: Any,
    at: float,
) -> None:
    """Record a report for the operators, with the reported user's recent messages."""
    session.add(
        Report(
            reporter_id=reporter_id,
            target_id=target_id,
            reason=json.dumps({"reason": reason, "table": table, "evidence": evidence}),
            at=at,
        )
    )
    session.commit()


def add_sanction(
    session: Session,
    user_id: int,
    kind: str,
    *,
    until: float | None,
    by: int,
    reason: str,
    at: float,
) -> None:
    """Record an operator's kick, ban or unban."""
    session.add(Sanction(user_id=user_id, kind=kind, until=until, by_id=by, reason=reason, at=at))
    session.commit()


def set_banned(session: Session, user_id: int, banned: bool) -> None:
    """Mark an account banned for good (it cannot sign in), or lift that."""
    session.execute(update(User).where(User.id == user_id).values(banned=banned))
    session.commit()


def moderation_state(session: Session) -> tuple[list[str], dict[str, float | None]]:
    """Operators' names and the bans in force (name -> until, None for good): server start."""
    operators = list(session.scalars(select(User.name).where(User.is_operator.is_(True))))
    bans: dict[str, float | None] = {
        name: None for name in session.scalars(select(User.name).where(User.banned.is_(True)))
    }
    at = now()
    rows = session.execute(
        select(User.name, Sanction.kind, Sanction.until)
        .join(User, User.id == Sanction.user_id)
        .where(Sanction.kind.in_(("ban", "unban")))
        .order_by(Sanction.id)
    ).all()
    for name, kind, until in rows:
        if kind == "unban":
            bans.pop(name, None)
        elif until is None or until > at:
            bans[name] = until
    return operators, bans
