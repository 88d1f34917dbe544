"""The analyses' rows in the database (run in the store's threads): a job added, found,
started, saved with its review's pages, failed; the jobs a start queues again; and, on
several nodes, the claims on jobs (:mod:`gammon.server.analysis` says how they work).
"""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import delete, text, update
from sqlalchemy.orm import Session, defer

from gammon.i18n import SOURCE_LANGUAGE
from gammon.server.db import AnalysisPageRow, AnalysisRow, now, select
from gammon.server.leases import DB_NOW

__all__ = [
    "LIGHT",
    "add_job",
    "claim_jobs",
    "fail_job",
    "job_row",
    "latest_table_job",
    "release_claims",
    "renew_claims",
    "requeue_all",
    "review_page",
    "save_review",
    "set_status",
    "start_job",
    "table_job",
    "unfinished",
]


def add_job(session: Session, row: AnalysisRow) -> None:
    session.add(row)


def job_row(session: Session, key: str, *, full: bool = False) -> AnalysisRow | None:
    query = select(AnalysisRow).where(AnalysisRow.key == key)
    if not full:
        query = query.options(LIGHT)
    return session.scalars(query).first()


#: What a question about a job's state leaves out: the file, the review and the report.
LIGHT: Final = defer(AnalysisRow.text).defer(AnalysisRow.document).defer(AnalysisRow.html)


def table_job(session: Session, table_id: int, games: int, ply: int) -> AnalysisRow | None:
    return session.scalars(
        select(AnalysisRow)
        .options(LIGHT)
        .where(AnalysisRow.table_id == table_id, AnalysisRow.games == games, AnalysisRow.ply == ply)
        .order_by(AnalysisRow.id.desc())
    ).first()


def latest_table_job(session: Session, table_id: int) -> AnalysisRow | None:
    return session.scalars(
        select(AnalysisRow)
        .options(LIGHT)
        .where(AnalysisRow.table_id == table_id)
        .order_by(AnalysisRow.id.desc())
    ).first()


def unfinished(session: Session) -> list[tuple[str, int | None]]:
    rows = session.execute(
        select(AnalysisRow.key, AnalysisRow.requested_by)
        .where(AnalysisRow.status.in_(("queued", "running")))
        .order_by(AnalysisRow.id)
    ).all()
    return [(key, owner) for key, owner in rows]


def requeue_all(session: Session) -> None:
    session.execute(
        update(AnalysisRow).where(AnalysisRow.status == "running").values(status="queued")
    )


def set_status(session: Session, key: str, status: str, **claim: Any) -> None:
    session.execute(
        update(AnalysisRow).where(AnalysisRow.key == key).values(status=status, error=None, **claim)
    )


def start_job(session: Session, key: str, node: str | None) -> bool:
    """Mark the job running, counting the run; False if it is not this node's (several
    nodes: its claim ran out and another node took it)."""
    query = (
        update(AnalysisRow)
        .where(AnalysisRow.key == key, AnalysisRow.status.in_(("queued", "running")))
        .values(status="running", error=None, runs=AnalysisRow.runs + 1)
    )
    if node is not None:
        query = query.where(AnalysisRow.node == node)
    return bool(session.execute(query).rowcount)  # type: ignore[attr-defined]


def save_review(
    session: Session, key: str, document: dict[str, Any], html: str, pages: dict[str, str]
) -> None:
    session.execute(
        update(AnalysisRow)
        .where(AnalysisRow.key == key)
        .values(status="done", document=document, html=html, finished=now(), error=None)
    )
    analysis_id = session.scalars(select(AnalysisRow.id).where(AnalysisRow.key == key)).one()
    session.execute(delete(AnalysisPageRow).where(AnalysisPageRow.analysis_id == analysis_id))
    session.add_all(
        AnalysisPageRow(analysis_id=analysis_id, lang=lang, html=page)
        for lang, page in sorted(pages.items())
    )


def review_page(session: Session, key: str, lang: str) -> tuple[str, str] | None:
    """The done job's HTML page in ``lang`` and its language: English where the job has
    no page in ``lang`` (one analysed before the pages were translated); None: not done."""
    query = select(AnalysisRow.id, AnalysisRow.html).where(
        AnalysisRow.key == key, AnalysisRow.status == "done"
    )
    row = session.execute(query).first()
    if row is None or row.html is None:
        return None
    if lang != SOURCE_LANGUAGE:
        page = session.scalars(
            select(AnalysisPageRow.html).where(
                AnalysisPageRow.analysis_id == row.id, AnalysisPageRow.lang == lang
            )
        ).first()
        if page is not None:
            return page, lang
    return row.html, SOURCE_LANGUAGE


def fail_job(session: Session, key: str, message: str) -> None:
    session.execute(
        update(AnalysisRow)
        .where(AnalysisRow.key == key)
        .values(status="failed", error=message, finished=now())
    )


# -- several nodes: the claims on jobs (PostgreSQL) ----------------------------------------------


def claim_jobs(
    session: Session,
    node: str,
    ttl: float,
    where: str,
    values: dict[str, Any],
    *,
    queued_again: bool = False,
) -> list[tuple[int, str, int | None]]:
    """Claim for ``node`` the jobs the ``where`` of a ``SELECT`` picks (its order and limit
    too), each by one ``UPDATE`` that skips rows another node is claiming: their (id, key,
    requested_by), in id order. ``queued_again``: a job that was running is queued."""
    status = ", status = 'queued'" if queued_again else ""
    statement = text(
        f"UPDATE analyses SET node = :node, claimed_until = {DB_NOW} + :ttl{status} "
        f"WHERE id IN (SELECT id FROM analyses WHERE {where} FOR UPDATE SKIP LOCKED) "
        "RETURNING id, key, requested_by"
    )
    rows = session.execute(statement, {"node": node, "ttl": ttl, **values}).all()
    session.commit()
    return sorted((int(i), str(k), r) for i, k, r in rows)


def renew_claims(session: Session, node: str | None, ttl: float) -> None:
    """Extend ``node``'s claims on its queued and running jobs by ``ttl`` seconds."""
    session.execute(
        text(
            f"UPDATE analyses SET claimed_until = {DB_NOW} + :ttl "
            "WHERE node = :node AND status IN ('queued', 'running')"
        ),
        {"node": node, "ttl": ttl},
    )
    session.commit()


def release_claims(session: Session, node: str) -> None:
    """End ``node``'s claims now: the other nodes take its jobs at once."""
    session.execute(
        text(
            f"UPDATE analyses SET claimed_until = {DB_NOW} - 1 "
            "WHERE node = :node AND status IN ('queued', 'running')"
        ),
        {"node": node},
    )
    session.commit()
