"""Tournament chats: a chat message may belong to a tournament.

Idempotent like 0002 and 0003: a database a development server already gave the
column keeps it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    columns = {column["name"] for column in inspector.get_columns("chat_messages")}
    if "tournament_id" not in columns:
        with op.batch_alter_table("chat_messages") as batch:
            batch.add_column(sa.Column("tournament_id", sa.Integer(), nullable=True))
    indexes = {index["name"] for index in inspector.get_indexes("chat_messages")}
    name = op.f("ix_chat_messages_tournament_id")
    if name not in indexes:
        op.create_index(name, "chat_messages", ["tournament_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_chat_messages_tournament_id"), table_name="chat_messages")
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_column("tournament_id")
