"""The server's database: accounts, tables, the append-only action log, chat and sanctions.

One set of models for SQLite (the default, a file in the working directory) and
PostgreSQL (``postgresql+psycopg://...``). A table's state is never stored as
such: it is rebuilt by replaying its :class:`Action` rows through the rules
library, so what is in the log is exactly what happened.

>>> db = Database("sqlite://")
>>> db.create_all()
>>> with db.session() as session:
...     session.add(User(name="alice", name_key="alice", created=0.0))
...     session.commit()
...     session.scalars(select(User.name)).all()
['alice']
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import orjson
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    select,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

__all__ = [
    "Action",
    "AnalysisRow",
    "Base",
    "ChatMessage",
    "Database",
    "GameRow",
    "RatingChange",
    "RatingRow",
    "Report",
    "Result",
    "Sanction",
    "SessionRow",
    "TableLease",
    "TableRow",
    "TournamentAction",
    "TournamentLease",
    "TournamentRow",
    "User",
    "now",
    "select",
    "UserSettingsRow",
]


def now() -> float:
    """Seconds since the epoch: every time in the database is one of these."""
    return time.time()


# BIGINT on PostgreSQL, INTEGER on SQLite (where only INTEGER PRIMARY KEY autoincrements).
_Id = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    #: The name in lower case: names are unique ignoring case.
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    #: argon2id hash; None for guests, who cannot log in again once signed out.
    password_hash: Mapped[str | None] = mapped_column(String(200), default=None)
    created: Mapped[float] = mapped_column(Float)
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    is_operator: Mapped[bool] = mapped_column(Boolean, default=False)
    banned: Mapped[bool] = mapped_column(Boolean, default=False)


class SessionRow(Base):
    """A signed-in browser or program; the cookie holds the token, we keep its SHA-256."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float)


class TableRow(Base):
    """A table: its settings, seats and status; its play is in :class:`Action`."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created: Mapped[float] = mapped_column(Float)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: open, playing, finished, cancelled
    status: Mapped[str] = mapped_column(String(16), index=True)
    seat0: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    seat1: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    invite_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    bot_level: Mapped[str | None] = mapped_column(String(40), default=None)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    finished: Mapped[float | None] = mapped_column(Float, default=None)
    #: The tournament whose match this table plays, and the match's number, if any.
    tournament_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournaments.id"), default=None, index=True
    )
    tournament_match: Mapped[int | None] = mapped_column(Integer, default=None)


class GameRow(Base):
    """One game of a table, with its fair-dice seed (secret until the game is over, R13)."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    commitment: Mapped[str] = mapped_column(String(64))
    seed: Mapped[str] = mapped_column(String(64))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    started: Mapped[float] = mapped_column(Float)
    ended: Mapped[float | None] = mapped_column(Float, default=None)


class Action(Base):
    """One accepted action of a table, in order: the log a table is rebuilt from.

    ``action`` is what was done (``{"type": "play", "play": "8/5 6/5"}``),
    ``entropy`` the hex the player sent with it (mixed into the next roll),
    ``events`` what the rules made of it (dice rolled and so on, checked on
    replay) and ``clock`` the reserves after it, in milliseconds. ``request_id`` is the
    id of the request that carried it from another node (several nodes), so that the
    same request asked again is answered with this action, not carried out twice.
    """

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    seq: Mapped[int] = mapped_column(Integer)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    side: Mapped[int | None] = mapped_column(Integer, default=None)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    entropy: Mapped[str | None] = mapped_column(String(128), default=None)
    events: Mapped[list[Any]] = mapped_column(JSON)
    clock: Mapped[list[Any] | None] = mapped_column(JSON, default=None)
    at: Mapped[float] = mapped_column(Float)
    request_id: Mapped[str | None] = mapped_column(String(32), default=None)


class ChatMessage(Base):
    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_table_id", "table_id", "id"),)

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    #: None for the lobby and the tournaments' chats.
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"), default=None)
    #: A tournament's chat (docs/PROTOCOL.md 6.1); None for the lobby and the tables.
    tournament_id: Mapped[int | None] = mapped_column(Integer, default=None, index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)


class Report(Base):
    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    target_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    message_id: Mapped[int | None] = mapped_column(ForeignKey("chat_messages.id"), default=None)
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    resolved: Mapped[bool] = mapped_column(Boolean, default=False)


class Sanction(Base):
    """A mute, kick or ban, by an operator (R13: the operator's decision is final)."""

    __tablename__ = "sanctions"

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    until: Mapped[float | None] = mapped_column(Float, default=None)
    by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    reason: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[float] = mapped_column(Float)


class Result(Base):
    """A finished table's outcome, for standings and history."""

    __tablename__ = "results"

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), unique=True)
    winner_side: Mapped[int | None] = mapped_column(Integer, default=None)
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    loser_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    reason: Mapped[str] = mapped_column(String(16))
    score: Mapped[list[Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)


class TournamentRow(Base):
    """A tournament: its posted rules and status; what happened in it is in its log."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    created: Mapped[float] = mapped_column(Float)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: registering, running, finished, cancelled
    status: Mapped[str] = mapped_column(String(16), index=True)
    finished: Mapped[float | None] = mapped_column(Float, default=None)


class TournamentAction(Base):
    """One accepted action of a tournament's log, with the events it caused."""

    __tablename__ = "tournament_actions"
    __table_args__ = (UniqueConstraint("tournament_id", "seq"),)

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    seq: Mapped[int] = mapped_column(Integer)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    operator: Mapped[bool] = mapped_column(Boolean, default=False)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """An account's rating and experience (gammon.server.ratings); no row: 1500, none."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    experience: Mapped[int] = mapped_column(Integer)
    matches: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float, index=True)


class UserSettingsRow(Base):
    """An account's own settings for the browser client (sound, animation, board...):
    a small JSON object the client gives meaning to (gammon.server.user_settings)."""

    __tablename__ = "user_settings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    settings: Mapped[str] = mapped_column(Text)
    updated: Mapped[float] = mapped_column(Float)


class RatingChange(Base):
    """One rated match as it changed one player's rating (the rating graph, the history)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    opponent_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    opponent_name: Mapped[str] = mapped_column(String(40))
    opponent_rating: Mapped[float] = mapped_column(Float)
    length: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    experience: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)


class AnalysisRow(Base):
    """A post-game analysis (gammon.server.analysis): a table's finished games or an upload.

    ``key`` is the public name in links (random, so an upload's review is shared only by
    whoever has its link). A job interrupted by a restart is still ``queued`` or
    ``running`` here, and is queued again when the server starts.
    """

    __tablename__ = "analyses"

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(32), unique=True)
    #: The table analysed (None: an uploaded file), and how many of its games.
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"), default=None, index=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    #: "table", "mat" or "sgf".
    source: Mapped[str] = mapped_column(String(8))
    filename: Mapped[str | None] = mapped_column(String(200), default=None)
    #: An uploaded file's text (kept so that a restart can analyse it again).
    text: Mapped[str | None] = mapped_column(Text, default=None)
    names: Mapped[list[Any] | None] = mapped_column(JSON, default=None)
    ply: Mapped[int] = mapped_column(Integer)
    #: queued, running, done, failed
    status: Mapped[str] = mapped_column(String(16), index=True)
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    created: Mapped[float] = mapped_column(Float)
    finished: Mapped[float | None] = mapped_column(Float, default=None)
    error: Mapped[str | None] = mapped_column(Text, default=None)
    #: The review document (gammon-analysis/1) and the HTML report, once done.
    document: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    html: Mapped[str | None] = mapped_column(Text, default=None)
    #: Several nodes: the node whose queue holds the job, and until when (the database's
    #: clock) its claim lasts unless renewed; None on a single node (migration 0006).
    node: Mapped[str | None] = mapped_column(String(64), default=None, index=True)
    claimed_until: Mapped[float | None] = mapped_column(Float, default=None)
    #: How many times a worker started on the job (so "run once" can be counted).
    runs: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class AnalysisPageRow(Base):
    """A review's HTML page in a language besides English (migration 0009): a row of its
    own, read only when that page is asked for, so the review's document stays small."""

    __tablename__ = "analysis_pages"
    __table_args__ = (UniqueConstraint("analysis_id", "lang"),)

    id: Mapped[int] = mapped_column(_Id, primary_key=True, autoincrement=True)
    analysis_id: Mapped[int] = mapped_column(ForeignKey("analyses.id"))
    lang: Mapped[str] = mapped_column(String(8))
    html: Mapped[str] = mapped_column(Text)


class NodeLease(Base):
    """How long a node lives without renewing (gammon.server.nodes): every table and
    tournament lease naming the node is live while this row is.

    ``expires_at`` is in seconds since the epoch by the database's clock, so the nodes'
    clocks need not agree; the node renews its row alone, one row per renewal however many
    tables it runs (migration 0010).
    """

    __tablename__ = "node_leases"

    node: Mapped[str] = mapped_column(String(64), primary_key=True)
    expires_at: Mapped[float] = mapped_column(Float)


class TableLease(Base):
    """Which node runs a table, under which fence (gammon.server.nodes).

    ``fence`` grows by one at each change of owner; the owner's every append checks it
    in the same transaction, so a node that lost the table can never write to it again.
    The lease is live while its node's (:class:`NodeLease`) is.
    """

    __tablename__ = "table_leases"

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    node: Mapped[str] = mapped_column(String(64), index=True)
    fence: Mapped[int] = mapped_column(BigInteger)


class TournamentLease(Base):
    """Which node runs a tournament, under which fence: a table's lease's twin
    (:class:`TableLease`), for :mod:`gammon.server.nodes`."""

    __tablename__ = "tournament_leases"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    node: Mapped[str] = mapped_column(String(64), index=True)
    fence: Mapped[int] = mapped_column(BigInteger)


class Database:
    """An engine and a session factory for one database URL.

    SQLite runs in WAL mode with ``synchronous=FULL``: a commit is on disk when
    it returns, which is what lets the server promise that an action it has
    broadcast survives a crash.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        else:
            kwargs["pool_size"] = 8
            kwargs["max_overflow"] = 8
            kwargs["pool_pre_ping"] = True
        # JSON columns (an action's events, above all) written with orjson: the standard
        # library's encoder was a fifth of the database writer thread's time.
        kwargs["json_serializer"] = _json_text
        kwargs["json_deserializer"] = orjson.loads
        self.engine: Engine = create_engine(url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def drop_all(self) -> None:
        """Drop every table of ours (tests start from an empty database)."""
        Base.metadata.drop_all(self.engine)

    def create_all(self) -> None:
        """Create the tables from the models, for a throwaway database (tests, doctests).

        A server's database is made and upgraded by the migrations instead
        (:mod:`gammon.server.migrate`), which also record its schema revision.
        """
        Base.metadata.create_all(self.engine)

    def file(self) -> str | None:
        """The SQLite file's path (None: PostgreSQL, or a database in memory)."""
        if not self.is_sqlite:
            return None
        path = make_url(self.url).database
        return path if path and path != ":memory:" else None

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self._sessions() as session:
            yield session

    def dispose(self) -> None:
        self.engine.dispose()


def _json_text(value: Any) -> str:
    """A JSON column's text (compact; integer keys written as strings, as ``json`` does;
    what orjson refuses, such as an integer over 64 bits, by the standard library)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")
    except orjson.JSONEncodeError:
        return json.dumps(value)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()
