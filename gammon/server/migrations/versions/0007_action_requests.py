"""Several nodes: each action forwarded from another node keeps its request's id (issue 17).

A node that forwards an action and hears no answer (the owner died, or Redis lost the
answer) asks again with the same id; the owner, or the node that took the table over,
finds the id in the log and answers with the action that was committed, instead of
refusing the second ask as ``stale``. A single node leaves the column empty.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("actions")}
    if "request_id" not in columns:
        with op.batch_alter_table("actions") as batch:
            batch.add_column(sa.Column("request_id", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("request_id")
