"""Schema migrations: the database brought to the revision this code expects, with Alembic.

The scripts are in ``gammon/server/migrations/versions`` (0001 the first schema, each
later one what changed). :func:`upgrade` runs the pending ones; ``gammon serve`` calls it
at start (``--migrate-only`` runs it and exits, ``--no-migrate`` refuses to start on a
database that is not up to date). It works on SQLite and PostgreSQL alike:

- On PostgreSQL the whole upgrade is one transaction (DDL is transactional there) under
  an advisory lock, so two servers started at once never both migrate, and a failed
  migration changes nothing.
- On SQLite, DDL is not transactional and a foreign key cannot be added in place:
  foreign keys are switched off while it runs (Alembic's batch mode copies tables).
  Back the file up first (docs/DEPLOY.md).
- A database made before migrations (no ``alembic_version`` table, but the server's
  tables) is taken as being at 0001 and brought up from there; the revisions after
  0001 add only what such a database lacks.

>>> from gammon.server.db import Database
>>> db = Database("sqlite://")
>>> upgrade(db) == (None, head())
True
>>> current(db) == head(), differences(db)
(True, [])
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from gammon.errors import GammonError
from gammon.server.db import Base, Database

__all__ = [
    "BASELINE",
    "MigrationError",
    "current",
    "differences",
    "head",
    "pending",
    "require_head",
    "upgrade",
]

log = logging.getLogger("gammon.server")

SCRIPTS: Final = Path(__file__).parent / "migrations"
#: The revision a database made before migrations is taken to be at.
BASELINE: Final = "0001"
#: pg_advisory_xact_lock key: one migrating server at a time.
_LOCK_KEY: Final = 0x67616D6D6F6E  # "gammon"


class MigrationError(GammonError):
    """The database is not at the schema this server expects, and was not to be upgraded."""


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(SCRIPTS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision: the schema of :mod:`gammon.server.db`'s models."""
    found = ScriptDirectory.from_config(_config()).get_current_head()
    assert found is not None
    return found


def _current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def _is_legacy(connection: Connection) -> bool:
    names = set(inspect(connection).get_table_names())
    return "alembic_version" not in names and "users" in names


def current(db: Database) -> str | None:
    """The database's revision (None: empty, or made before migrations)."""
    with db.engine.connect() as connection:
        return _current(connection)


def pending(db: Database) -> list[str]:
    """The revisions :func:`upgrade` would run, oldest first."""
    with db.engine.connect() as connection:
        at = BASELINE if _is_legacy(connection) else _current(connection)
    scripts = ScriptDirectory.from_config(_config())
    return [script.revision for script in reversed(list(scripts.iterate_revisions("head", at)))]


def upgrade(db: Database, revision: str = "head") -> tuple[str | None, str | None]:
    """Run the pending migrations up to ``revision``; returns (revision before, after)."""
    sqlite = db.is_sqlite
    with db.engine.connect() as connection:
        if sqlite:
            # Outside any transaction (the driver ignores it inside one); Alembic's batch
            # mode drops and copies tables that others point at.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                if connection.dialect.name == "postgresql":
                    lock = text("SELECT pg_advisory_xact_lock(:key)")
                    connection.execute(lock, {"key": _LOCK_KEY})
                before = _current(connection)
                if before is None and _is_legacy(connection):
                    log.warning(
                        "the database has no schema revision (made before migrations): "
                        "taking it as %s and upgrading from there",
                        BASELINE,
                    )
                    command.stamp(_config(connection), BASELINE)
                command.upgrade(_config(connection), revision)
                after = _current(connection)
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()
    if after != before:
        log.info(
            "database upgraded from %s to %s",
            before or "nothing",
            after,
            extra={"revision": after},
        )
    return before, after


def require_head(db: Database) -> None:
    """Raise :class:`MigrationError` unless the database is at :func:`head`."""
    at = current(db)
    if at != head():
        raise MigrationError(
            f"the database is at schema revision {at or 'none'}, this server needs {head()}: "
            "run `gammon serve --migrate-only` (back the database up first)"
        )


def differences(db: Database) -> list[Any]:
    """What Alembic's autogenerate finds between the models and the database ([]: none)."""
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, Base.metadata))
