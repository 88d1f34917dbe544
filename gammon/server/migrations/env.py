"""Alembic's environment: always given a connection by gammon.server.migrate, never a URL.

Importing it outside Alembic (pytest's doctest collection) does nothing.
"""

from __future__ import annotations

from alembic import context

from gammon.server.db import Base


def run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        compare_type=True,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:  # run by Alembic
    run()
