"""Several nodes, continued: tournament leases, and analysis jobs claimed by one node (issue 11).

Only servers started with ``--redis`` write to the new columns and table; a single node
leaves them empty.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    if "tournament_leases" not in sa.inspect(bind).get_table_names():
        op.create_table(
            "tournament_leases",
            sa.Column(
                "tournament_id",
                sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                nullable=False,
            ),
            sa.Column("node", sa.String(length=64), nullable=False),
            sa.Column("fence", sa.BigInteger(), nullable=False),
            sa.Column("expires_at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
            sa.PrimaryKeyConstraint("tournament_id"),
        )
        op.create_index(
            op.f("ix_tournament_leases_node"), "tournament_leases", ["node"], unique=False
        )
    columns = {c["name"] for c in sa.inspect(bind).get_columns("analyses")}
    if "node" not in columns:
        with op.batch_alter_table("analyses") as batch:
            batch.add_column(sa.Column("node", sa.String(length=64), nullable=True))
            batch.add_column(sa.Column("claimed_until", sa.Float(), nullable=True))
            batch.add_column(sa.Column("runs", sa.Integer(), server_default="0", nullable=False))
            batch.create_index(batch.f("ix_analyses_node"), ["node"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("analyses") as batch:
        batch.drop_index(batch.f("ix_analyses_node"))
        batch.drop_column("runs")
        batch.drop_column("claimed_until")
        batch.drop_column("node")
    op.drop_index(op.f("ix_tournament_leases_node"), table_name="tournament_leases")
    op.drop_table("tournament_leases")
