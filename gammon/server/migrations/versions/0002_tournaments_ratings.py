"""Tournaments and ratings: the tournaments and their logs, each table's tournament link,
ratings and the rating history.

Idempotent: a database made before migrations by a server that already had tournaments
(``create_all`` and its "add the missing nullable columns" step) has some or all of this;
only what is missing is added. Such a SQLite database keeps its ``tables.tournament_id``
without the foreign key (SQLite adds none to an existing column without copying the table).

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    found = sa.inspect(op.get_bind())
    tables = set(found.get_table_names())
    if "tournaments" not in tables:
        op.create_table(
            "tournaments",
            sa.Column("id", ID, autoincrement=True, nullable=False),
            sa.Column("created_by", ID, nullable=True),
            sa.Column("created", sa.Float(), nullable=False),
            sa.Column("settings", sa.JSON(), nullable=False),
            sa.Column("status", sa.String(length=16), nullable=False),
            sa.Column("finished", sa.Float(), nullable=True),
            sa.ForeignKeyConstraint(["created_by"], ["users.id"]),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index(op.f("ix_tournaments_status"), "tournaments", ["status"], unique=False)
    if "tournament_actions" not in tables:
        op.create_table(
            "tournament_actions",
            sa.Column("id", ID, autoincrement=True, nullable=False),
            sa.Column("tournament_id", ID, nullable=False),
            sa.Column("seq", sa.Integer(), nullable=False),
            sa.Column("actor_id", ID, nullable=True),
            sa.Column("operator", sa.Boolean(), nullable=False),
            sa.Column("action", sa.JSON(), nullable=False),
            sa.Column("events", sa.JSON(), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["actor_id"], ["users.id"]),
            sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("tournament_id", "seq"),
        )
    columns = {column["name"] for column in found.get_columns("tables")}
    if "tournament_id" not in columns:
        op.add_column(
            "tables",
            sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.id"), nullable=True),
            inline_references=True,
        )
    elif op.get_bind().dialect.name != "sqlite" and not any(
        key["constrained_columns"] == ["tournament_id"] for key in found.get_foreign_keys("tables")
    ):
        op.create_foreign_key(None, "tables", "tournaments", ["tournament_id"], ["id"])
    if "tournament_match" not in columns:
        op.add_column("tables", sa.Column("tournament_match", sa.Integer(), nullable=True))
    if "ix_tables_tournament_id" not in {index["name"] for index in found.get_indexes("tables")}:
        op.create_index(op.f("ix_tables_tournament_id"), "tables", ["tournament_id"], unique=False)
    if "ratings" not in tables:
        op.create_table(
            "ratings",
            sa.Column("user_id", ID, nullable=False),
            sa.Column("rating", sa.Float(), nullable=False),
            sa.Column("experience", sa.Integer(), nullable=False),
            sa.Column("matches", sa.Integer(), nullable=False),
            sa.Column("wins", sa.Integer(), nullable=False),
            sa.Column("updated", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
            sa.PrimaryKeyConstraint("user_id"),
        )
        op.create_index(op.f("ix_ratings_updated"), "ratings", ["updated"], unique=False)
    if "rating_history" not in tables:
        op.create_table(
            "rating_history",
            sa.Column("id", ID, autoincrement=True, nullable=False),
            sa.Column("user_id", ID, nullable=False),
            sa.Column("table_id", ID, nullable=False),
            sa.Column("opponent_id", ID, nullable=True),
            sa.Column("opponent_name", sa.String(length=40), nullable=False),
            sa.Column("opponent_rating", sa.Float(), nullable=False),
            sa.Column("length", sa.Integer(), nullable=False),
            sa.Column("won", sa.Boolean(), nullable=False),
            sa.Column("before", sa.Float(), nullable=False),
            sa.Column("after", sa.Float(), nullable=False),
            sa.Column("experience", sa.Integer(), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["opponent_id"], ["users.id"]),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
            sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index(
            op.f("ix_rating_history_user_id"), "rating_history", ["user_id"], unique=False
        )


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("ratings")
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_tournament_id")
        batch.drop_column("tournament_match")
        batch.drop_column("tournament_id")
    op.drop_table("tournament_actions")
    op.drop_table("tournaments")
