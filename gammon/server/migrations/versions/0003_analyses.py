"""Post-game analyses: the queue's jobs and their stored reviews.

Idempotent like 0002: a database made before migrations may have the table already.

Revision ID: 0003
Revises: 0002
Create Date: 2025-01-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    if "analyses" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "analyses",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("table_id", ID, nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=8), nullable=False),
        sa.Column("filename", sa.String(length=200), nullable=True),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("names", sa.JSON(), nullable=True),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("requested_by", ID, nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("finished", sa.Float(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("document", sa.JSON(), nullable=True),
        sa.Column("html", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["requested_by"], ["users.id"]),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    op.create_index(op.f("ix_analyses_status"), "analyses", ["status"], unique=False)
    op.create_index(op.f("ix_analyses_table_id"), "analyses", ["table_id"], unique=False)


def downgrade() -> None:
    op.drop_table("analyses")
