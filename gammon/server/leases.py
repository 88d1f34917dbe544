"""Leases with fences in PostgreSQL: which node runs a table or a tournament.

With several nodes (:mod:`gammon.server.cluster`) each unfinished table and each
unfinished tournament is run by one node at a time: the holder of its row in a lease
table (``table_leases`` keyed by ``table_id``, ``tournament_leases`` keyed by
``tournament_id``; columns ``node``, ``fence``, ``expires_at``). One :class:`Leases`
holds this node's part of one such table; the cluster and the tournaments' runner each
keep one and build their own behaviour on top (what to do with a thing taken or lost).

- **Taking.** One ``INSERT ... ON CONFLICT DO UPDATE ... WHERE expired`` takes a free or
  expired lease and adds one to its ``fence``: two nodes racing for it get one fence
  each, never the same one.
- **Fencing.** A write to the thing's log runs :meth:`Leases.fence_check` in its own
  transaction: the row must still name this node and fence (and is extended). PostgreSQL
  serialises the check and a takeover on that row, so a node that lost a lease never
  writes to the thing again. The writes committed together check their fences in one
  statement (:meth:`Leases.check_fences`).
- **Time.** Expiry is by the database's clock (:data:`DB_NOW`), never a node's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from sqlalchemy import text
from sqlalchemy.orm import Session

from gammon.server.store import Fenced

__all__ = ["DB_NOW", "FenceCheck", "Leases"]

#: The database's clock, in seconds since the epoch: leases and claims never depend on a
#: node's clock.
DB_NOW: Final = "EXTRACT(EPOCH FROM clock_timestamp())"


class Leases:
    """This node's leases in one lease table (``leases``, keyed by ``key``)."""

    def __init__(self, leases: str, key: str, node: str, ttl: float) -> None:
        #: The lease table and its key column (names of our own schema, never user input).
        self.leases = leases
        self.key = key
        self.node = node
        self.ttl = ttl

    def acquire(self, session: Session, thing: int) -> int | None:
        """Take the lease if nobody holds a live one (or this node does); its new fence,
        or None. The caller commits."""
        leases, key = self.leases, self.key
        fence = session.execute(
            text(
                f"INSERT INTO {leases} ({key}, node, fence, expires_at) "
                f"VALUES (:thing, :node, 1, {DB_NOW} + :ttl) "
                f"ON CONFLICT ({key}) DO UPDATE SET node = EXCLUDED.node, "
                f"fence = {leases}.fence + 1, expires_at = EXCLUDED.expires_at "
                f"WHERE {leases}.expires_at < {DB_NOW} OR {leases}.node = :node "
                "RETURNING fence"
            ),
            {"thing": thing, "node": self.node, "ttl": self.ttl},
        ).scalar()
        return int(fence) if fence is not None else None

    def take(self, session: Session, thing: int) -> int | None:
        """:meth:`acquire`, committed: a takeover's own transaction."""
        fence = self.acquire(session, thing)
        session.commit()
        return fence

    def fence_check(self, thing: int, fence: int | None, what: str) -> FenceCheck:
        """What a write to the thing's log runs first in its transaction: :class:`Fenced`
        (nothing is written) unless this node still holds the lease with ``fence``;
        the lease is extended when it does. ``what`` names the thing in the error."""
        return FenceCheck(self, thing, fence, what)

    def check_fences(self, session: Session, checks: Sequence[FenceCheck]) -> None:
        """Run ``checks`` (of this table of leases) in one statement: every lease they name
        extended, or :class:`Fenced` (naming the first lost) if any is no longer held."""
        held = {(check.thing, check.fence) for check in checks if check.fence is not None}
        extended: set[int] = set()
        if held:
            # One statement text whatever the batch's size (arrays, not a VALUES list):
            # PostgreSQL and the driver prepare it once.
            extended = set(
                session.scalars(
                    text(
                        f"UPDATE {self.leases} AS lease SET expires_at = "
                        f"GREATEST(lease.expires_at, {DB_NOW} + :ttl) "
                        "FROM unnest(CAST(:things AS BIGINT[]), CAST(:fences AS BIGINT[])) "
                        "AS held(thing, fence) "
                        f"WHERE lease.{self.key} = held.thing AND lease.node = :node "
                        f"AND lease.fence = held.fence RETURNING lease.{self.key}"
                    ),
                    {
                        "things": [thing for thing, _ in held],
                        "fences": [fence for _, fence in held],
                        "node": self.node,
                        "ttl": self.ttl,
                    },
                )
            )
        for check in checks:
            if check.fence is None or check.thing not in extended:
                raise Fenced(f"{check.what}: node {self.node} no longer holds its lease")

    def renew(self, session: Session) -> dict[int, int]:
        """Extend every lease of this node in one statement and commit; the leases it
        holds now, with their fences (one missing or with another fence was lost)."""
        # Rows a write holds are skipped (its fence check extends them itself): waiting for
        # them, in another order than a batch of writes takes them, could deadlock.
        session.execute(
            text(
                f"UPDATE {self.leases} SET expires_at = {DB_NOW} + :ttl WHERE {self.key} IN "
                f"(SELECT {self.key} FROM {self.leases} WHERE node = :node "
                "FOR UPDATE SKIP LOCKED)"
            ),
            {"node": self.node, "ttl": self.ttl},
        )
        rows = session.execute(
            text(f"SELECT {self.key}, fence FROM {self.leases} WHERE node = :node"),
            {"node": self.node},
        ).all()
        session.commit()
        return {int(thing): int(fence) for thing, fence in rows}

    @staticmethod
    def lost(
        before: Mapping[int, int], held: Mapping[int, int], owned: Mapping[int, int]
    ) -> Iterator[int]:
        """What a renewal showed lost: the things owned with a fence ``before`` it that the
        renewal did not find ``held`` with that fence, and are ``owned`` still with it. Read
        lazily, so each is checked against ``owned`` when its turn comes (the caller's
        handling of one may await while another is taken again)."""
        for thing, fence in before.items():
            if held.get(thing) != fence and owned.get(thing) == fence:
                yield thing

    def orphans(self, session: Session, things: str, unfinished: tuple[str, ...]) -> list[int]:
        """The ids of the rows of ``things`` whose status is one of ``unfinished`` and whose
        lease is missing or expired: what nobody runs."""
        statuses = ", ".join(f"'{status}'" for status in unfinished)
        rows = session.execute(
            text(
                f"SELECT t.id FROM {things} t LEFT JOIN {self.leases} l ON l.{self.key} = t.id "
                f"WHERE t.status IN ({statuses}) "
                f"AND (l.{self.key} IS NULL OR l.expires_at < {DB_NOW})"
            )
        ).scalars()
        return [int(thing) for thing in rows]

    def owner(self, session: Session, thing: int) -> str | None:
        """The node holding a live lease on the thing, or None."""
        node = session.execute(
            text(
                f"SELECT node FROM {self.leases} "
                f"WHERE {self.key} = :thing AND expires_at >= {DB_NOW}"
            ),
            {"thing": thing},
        ).scalar()
        return str(node) if node is not None else None

    def release(self, session: Session, thing: int, fence: int) -> None:
        """A finished thing needs no runner: its lease row goes (if it is still ``fence``'s)."""
        session.execute(
            text(f"DELETE FROM {self.leases} WHERE {self.key} = :thing AND fence = :fence"),
            {"thing": thing, "fence": fence},
        )
        session.commit()

    def hand_back(self, session: Session) -> None:
        """A node stopping: every lease of its expires now, for the others to take at once
        rather than after the leases' time."""
        session.execute(
            text(f"UPDATE {self.leases} SET expires_at = {DB_NOW} - 1 WHERE node = :node"),
            {"node": self.node},
        )
        session.commit()


@dataclass(frozen=True)
class FenceCheck:
    """One write's fence (:meth:`Leases.fence_check`): called alone, or with the other
    writes of a batch through ``run_together`` (the store's writer does)."""

    leases: Leases
    thing: int
    fence: int | None
    what: str

    def __call__(self, session: Session) -> None:
        self.leases.check_fences(session, [self])

    @property
    def run_together(self) -> Callable[[Session, Sequence[FenceCheck]], None]:
        """Runs this check with the others of the same leases in one statement."""
        return self.leases.check_fences
