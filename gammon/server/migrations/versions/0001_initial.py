"""The play server's first schema: accounts, sessions, tables, games, the action log, chat,
reports, sanctions and results.

A database made before migrations existed (by ``create_all``) is taken as being at this
revision, whatever it holds besides; the next revisions add what is missing.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None

#: BIGINT on PostgreSQL, INTEGER on SQLite (where only INTEGER PRIMARY KEY autoincrements).
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=40), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("is_guest", sa.Boolean(), nullable=False),
        sa.Column("is_operator", sa.Boolean(), nullable=False),
        sa.Column("banned", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name_key"),
    )
    op.create_table(
        "sanctions",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("until", sa.Float(), nullable=True),
        sa.Column("by_id", ID, nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["by_id"], ["users.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_sanctions_user_id"), "sanctions", ["user_id"], unique=False)
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index(op.f("ix_sessions_user_id"), "sessions", ["user_id"], unique=False)
    op.create_table(
        "tables",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("created_by", ID, nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("seat0", ID, nullable=True),
        sa.Column("seat1", ID, nullable=True),
        sa.Column("invite_id", ID, nullable=True),
        sa.Column("bot_level", sa.String(length=40), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("finished", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"]),
        sa.ForeignKeyConstraint(["invite_id"], ["users.id"]),
        sa.ForeignKeyConstraint(["seat0"], ["users.id"]),
        sa.ForeignKeyConstraint(["seat1"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_tables_status"), "tables", ["status"], unique=False)
    op.create_table(
        "actions",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("table_id", ID, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("actor_id", ID, nullable=True),
        sa.Column("side", sa.Integer(), nullable=True),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("entropy", sa.String(length=128), nullable=True),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["actor_id"], ["users.id"]),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "seq"),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("table_id", ID, nullable=True),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_chat_table_id", "chat_messages", ["table_id", "id"], unique=False)
    op.create_table(
        "games",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("table_id", ID, nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("started", sa.Float(), nullable=False),
        sa.Column("ended", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "number"),
    )
    op.create_index(op.f("ix_games_table_id"), "games", ["table_id"], unique=False)
    op.create_table(
        "results",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("table_id", ID, nullable=False),
        sa.Column("winner_side", sa.Integer(), nullable=True),
        sa.Column("winner_id", ID, nullable=True),
        sa.Column("loser_id", ID, nullable=True),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("score", sa.JSON(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["loser_id"], ["users.id"]),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.ForeignKeyConstraint(["winner_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id"),
    )
    op.create_table(
        "reports",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("reporter_id", ID, nullable=False),
        sa.Column("target_id", ID, nullable=True),
        sa.Column("message_id", ID, nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("resolved", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["message_id"], ["chat_messages.id"]),
        sa.ForeignKeyConstraint(["reporter_id"], ["users.id"]),
        sa.ForeignKeyConstraint(["target_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    for name in (
        "reports", "results", "games", "chat_messages", "actions", "tables", "sessions",
        "sanctions", "users",
    ):  # fmt: skip
        op.drop_table(name)
