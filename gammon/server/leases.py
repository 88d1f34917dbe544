"""Leases with fences in PostgreSQL: which node runs a table or a tournament.

With several nodes (:mod:`gammon.server.nodes`) each unfinished table and each
unfinished tournament is run by one node at a time: the node named by its row in a lease
table (``table_leases`` keyed by ``table_id``, ``tournament_leases`` keyed by
``tournament_id``; columns ``node`` and ``fence``). A lease is live while its node is:
each node has one row of its own in ``node_leases`` (:class:`NodeLease`), which it alone
renews, one row however many tables and tournaments it runs (migration 0010; before it,
every lease row was written at every renewal: 60,000 rows a second at 100,000 tables,
docs/DEPLOY.md 9.2). One :class:`Leases` holds this node's part of one lease table.

- **Taking.** One ``INSERT ... ON CONFLICT DO UPDATE ... WHERE`` the holder's node is
  not live takes a free lease, or a dead node's, and adds one to its ``fence``: two nodes
  racing for it get one fence each, never the same one.
- **Fencing.** A write to the thing's log runs :meth:`Leases.fence_check` in its own
  transaction: the row must still name this node and fence, and is locked until the
  write commits (``FOR UPDATE``: no new row version, nothing to vacuum), and the node's
  own lease is extended. PostgreSQL serialises the check and a takeover on that row, so
  a node that lost a lease never writes to the thing again. The writes committed
  together check their fences in one statement (:meth:`Leases.check_fences`).
- **Time.** Expiry is by the database's clock (:data:`DB_NOW`), never a node's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from sqlalchemy import text
from sqlalchemy.orm import Session

from gammon.server.store import Fenced

__all__ = ["DB_NOW", "FenceCheck", "Leases", "NodeLease"]

#: The database's clock, in seconds since the epoch: leases and claims never depend on a
#: node's clock.
DB_NOW: Final = "EXTRACT(EPOCH FROM clock_timestamp())"
#: How long a dead node's row is kept before it is cleared away (its leases are free
#: long before: as soon as it expires).
FORGET_DEAD_S: Final = 3600.0

#: Whether a lease row (``{leases}.node``) names a node whose own lease is live.
_LIVE: Final = (
    "EXISTS (SELECT 1 FROM node_leases n WHERE n.node = {leases}.node AND n.expires_at >= {now})"
)


class NodeLease:
    """This node's own lease (its row in ``node_leases``): every lease naming it is live
    while it is."""

    def __init__(self, node: str, ttl: float) -> None:
        self.node = node
        self.ttl = ttl

    def extend(self, session: Session) -> None:
        """Make (or keep) this node live for ``ttl`` more seconds; the caller commits."""
        session.execute(
            text(
                "INSERT INTO node_leases (node, expires_at) VALUES (:node, "
                f"{DB_NOW} + :ttl) ON CONFLICT (node) DO UPDATE SET expires_at = "
                "GREATEST(node_leases.expires_at, EXCLUDED.expires_at)"
            ),
            {"node": self.node, "ttl": self.ttl},
        )

    def renew(self, session: Session) -> None:
        """:meth:`extend`, committed, and the rows of nodes dead for long cleared away."""
        self.extend(session)
        # Rows another node's renewal is clearing are skipped: two renewals clearing the
        # same rows in another order could deadlock.
        session.execute(
            text(
                "DELETE FROM node_leases WHERE node IN (SELECT node FROM node_leases "
                f"WHERE expires_at < {DB_NOW} - :after FOR UPDATE SKIP LOCKED)"
            ),
            {"after": FORGET_DEAD_S},
        )
        session.commit()

    def live_nodes(self, session: Session) -> list[str]:
        """The nodes whose own lease is live now (this one's among them while it renews)."""
        rows = session.execute(
            text(f"SELECT node FROM node_leases WHERE expires_at >= {DB_NOW}")
        ).scalars()
        return [str(node) for node in rows]

    def hand_back(self, session: Session) -> None:
        """A node stopping: its lease expires now, and with it every lease naming it, for
        the others to take at once rather than after the leases' time."""
        session.execute(
            text(f"UPDATE node_leases SET expires_at = {DB_NOW} - 1 WHERE node = :node"),
            {"node": self.node},
        )
        session.commit()


class Leases:
    """This node's leases in one lease table (``leases``, keyed by ``key``)."""

    def __init__(self, leases: str, key: str, node: str, ttl: float) -> None:
        #: The lease table and its key column (names of our own schema, never user input).
        self.leases = leases
        self.key = key
        self.node = node
        self.ttl = ttl
        #: This node's own lease, which every lease of it lives by.
        self.own = NodeLease(node, ttl)

    def acquire(self, session: Session, thing: int) -> int | None:
        """Take the lease if nobody live holds it (or this node does); its new fence, or
        None. This node's own lease is extended first, so that what it takes is live. The
        caller commits."""
        self.own.extend(session)
        leases, key = self.leases, self.key
        live = _LIVE.format(leases=leases, now=DB_NOW)
        fence = session.execute(
            text(
                f"INSERT INTO {leases} ({key}, node, fence) VALUES (:thing, :node, 1) "
                f"ON CONFLICT ({key}) DO UPDATE SET node = EXCLUDED.node, "
                f"fence = {leases}.fence + 1 "
                f"WHERE {leases}.node = :node OR NOT {live} "
                "RETURNING fence"
            ),
            {"thing": thing, "node": self.node},
        ).scalar()
        return int(fence) if fence is not None else None

    def take(self, session: Session, thing: int) -> int | None:
        """:meth:`acquire`, committed: a takeover's own transaction."""
        fence = self.acquire(session, thing)
        session.commit()
        return fence

    def fence_check(self, thing: int, fence: int | None, what: str) -> FenceCheck:
        """What a write to the thing's log runs first in its transaction: :class:`Fenced`
        (nothing is written) unless this node still holds the lease with ``fence``; this
        node's own lease is extended when it does. ``what`` names the thing in the error."""
        return FenceCheck(self, thing, fence, what)

    def check_fences(self, session: Session, checks: Sequence[FenceCheck]) -> None:
        """Run ``checks`` (of this table of leases) in one statement: every lease they name
        locked until the commit and this node's own lease extended, or :class:`Fenced`
        (naming the first lost) if any is no longer held."""
        held = {(check.thing, check.fence) for check in checks if check.fence is not None}
        locked: set[int] = set()
        if held:
            # One statement text whatever the batch's size (arrays, not a VALUES list):
            # PostgreSQL and the driver prepare it once.
            locked = set(
                session.scalars(
                    text(
                        f"SELECT lease.{self.key} FROM {self.leases} AS lease "
                        "JOIN unnest(CAST(:things AS BIGINT[]), CAST(:fences AS BIGINT[])) "
                        f"AS held(thing, fence) ON lease.{self.key} = held.thing "
                        "AND lease.fence = held.fence WHERE lease.node = :node "
                        "FOR UPDATE OF lease"
                    ),
                    {
                        "things": [thing for thing, _ in held],
                        "fences": [fence for _, fence in held],
                        "node": self.node,
                    },
                )
            )
        for check in checks:
            if check.fence is None or check.thing not in locked:
                raise Fenced(f"{check.what}: node {self.node} no longer holds its lease")
        self.own.extend(session)

    def held(self, session: Session) -> dict[int, int]:
        """The leases this node holds now, with their fences (one missing, or with another
        fence, was lost). A read: the node's own lease is what is renewed
        (:meth:`NodeLease.renew`)."""
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
        lease is missing or names a node that is not live: what nobody runs."""
        statuses = ", ".join(f"'{status}'" for status in unfinished)
        live = _LIVE.format(leases="l", now=DB_NOW)
        rows = session.execute(
            text(
                f"SELECT t.id FROM {things} t LEFT JOIN {self.leases} l ON l.{self.key} = t.id "
                f"WHERE t.status IN ({statuses}) AND (l.{self.key} IS NULL OR NOT {live})"
            )
        ).scalars()
        return [int(thing) for thing in rows]

    def owner(self, session: Session, thing: int) -> str | None:
        """The node holding a live lease on the thing, or None."""
        live = _LIVE.format(leases=self.leases, now=DB_NOW)
        node = session.execute(
            text(f"SELECT node FROM {self.leases} WHERE {self.key} = :thing AND {live}"),
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
