"""The review's HTML pages in the other languages, a row each (issue 20).

A review's document carries the teacher's words in every language; its HTML pages, some
hundreds of kilobytes each, are rows of their own, read only when one is asked for.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "analysis_pages" not in sa.inspect(op.get_bind()).get_table_names():
        identity = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
        op.create_table(
            "analysis_pages",
            sa.Column("id", identity, primary_key=True, autoincrement=True),
            sa.Column("analysis_id", identity, nullable=False),
            sa.Column("lang", sa.String(8), nullable=False),
            sa.Column("html", sa.Text(), nullable=False),
            sa.ForeignKeyConstraint(["analysis_id"], ["analyses.id"]),
            sa.UniqueConstraint("analysis_id", "lang"),
        )


def downgrade() -> None:
    op.drop_table("analysis_pages")
