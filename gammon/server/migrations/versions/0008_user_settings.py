"""Each account's settings for the browser client, kept on the server (issue 16).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "user_settings" not in sa.inspect(op.get_bind()).get_table_names():
        op.create_table(
            "user_settings",
            sa.Column(
                "user_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
            ),
            sa.Column("settings", sa.Text(), nullable=False),
            sa.Column("updated", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
            sa.PrimaryKeyConstraint("user_id"),
        )


def downgrade() -> None:
    op.drop_table("user_settings")
