"""Table leases: which node of several runs each table, under a fence (issue 11).

Only servers started with ``--redis`` write to it; a single node leaves it empty.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "table_leases" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("node", sa.String(length=64), nullable=False),
        sa.Column("fence", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_index(op.f("ix_table_leases_node"), "table_leases", ["node"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_table_leases_node"), table_name="table_leases")
    op.drop_table("table_leases")
