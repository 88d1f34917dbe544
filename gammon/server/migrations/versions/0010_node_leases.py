"""One lease row per node: a table's or a tournament's lease is live while its node's is
(issue 17, ready for 100,000 games).

Each node renews its own row in ``node_leases`` alone, one row written per renewal, where
every lease row of the node was written before (60,000 rows a second at 100,000 tables,
docs/DEPLOY.md 9.2); the table and tournament leases keep their node and fence, and lose
their own ``expires_at``. Only servers started with ``--redis`` write to these tables.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_LEASES = ("table_leases", "tournament_leases")


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if "node_leases" not in inspector.get_table_names():
        op.create_table(
            "node_leases",
            sa.Column("node", sa.String(length=64), nullable=False),
            sa.Column("expires_at", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("node"),
        )
    for table in _LEASES:
        if "expires_at" in {column["name"] for column in inspector.get_columns(table)}:
            with op.batch_alter_table(table) as batch:
                batch.drop_column("expires_at")


def downgrade() -> None:
    for table in _LEASES:
        with op.batch_alter_table(table) as batch:
            expires = sa.Column("expires_at", sa.Float(), nullable=False, server_default="0")
            batch.add_column(expires)
    op.drop_table("node_leases")
