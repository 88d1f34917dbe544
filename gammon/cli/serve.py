"""``gammon serve``: run the play server on one machine.

The server's dependencies (starlette, uvicorn, SQLAlchemy...) are the ``server``
extra, imported only when the server starts.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="gammon")
>>> register(parser.add_subparsers())
>>> args = parser.parse_args(["serve", "--port", "9000", "--no-bot"])
>>> args.port, args.bot, args.database
(9000, False, 'sqlite:///gammon.db')
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import math
import signal
import socket
import sys
import threading
import traceback
from typing import TYPE_CHECKING, Any, Final, TextIO

from gammon.cli.common import ENGINE_HELP, Commands, needs_extra
from gammon.errors import GammonError

if TYPE_CHECKING:
    from gammon.server.app import ServerConfig

__all__ = ["main", "register", "run_serve"]


class ServeError(GammonError):
    """The server cannot start (a port in use, a database it cannot open...)."""


def _database_url(value: str) -> str:
    """A URL as given, or a plain path turned into a SQLite URL."""
    if "://" in value:
        return value
    return f"sqlite:///{value}"


def _limit(value: str) -> tuple[float, float]:
    """``COUNT/SECONDS``: a burst of COUNT, one more every SECONDS."""
    try:
        count, seconds = value.split("/")
        return float(count), 1.0 / float(seconds)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"expected COUNT/SECONDS, got {value!r}") from None


def _seconds(value: str) -> float:
    """A positive number of seconds."""
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not seconds > 0 or math.isinf(seconds):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {value!r}")
    return seconds


def _levels(value: str) -> frozenset[str]:
    """Bot levels separated by commas (checked against the engine's levels at start)."""
    return frozenset(level.strip() for level in value.split(",") if level.strip())


#: ``gammon serve``'s options, in the order ``--help`` lists them: (flag, add_argument's
#: keywords).
_OPTIONS: Final[tuple[tuple[str, dict[str, Any]], ...]] = (
    ("--host", dict(default="127.0.0.1", help="address to listen on")),
    ("--port", dict(type=int, default=8000, help="port to listen on")),
    (
        "--database",
        dict(
            type=_database_url,
            default="sqlite:///gammon.db",
            help="database URL (sqlite:///PATH or postgresql+psycopg://...) or a SQLite file path",
        ),
    ),
    (
        "--redis",
        dict(
            metavar="URL",
            default=None,
            help="one of several nodes of one server: redis://HOST:PORT for the messages between "
            "them (needs a PostgreSQL --database shared by every node; gammon[cluster])",
        ),
    ),
    (
        "--lease-ttl",
        dict(
            type=_seconds,
            default=5.0,
            metavar="SECONDS",
            help="with --redis: a dead node's tables are taken over after this long (default 5)",
        ),
    ),
    ("--no-bot", dict(dest="bot", action="store_false", help="no tables against the computer")),
    (
        "--login-limit",
        dict(
            type=_limit,
            default=None,
            metavar="COUNT/SECONDS",
            help="login attempts per IP and per name (default 10/6)",
        ),
    ),
    (
        "--signup-limit",
        dict(
            type=_limit,
            default=None,
            metavar="COUNT/SECONDS",
            help="sign-ups and guests per IP (default 20/30)",
        ),
    ),
    (
        "--message-rate",
        dict(
            type=float,
            default=20.0,
            metavar="N",
            help="messages a second each WebSocket may send (bursts of 2N; default 20)",
        ),
    ),
    (
        "--open-table-expiry",
        dict(
            type=_seconds,
            default=30 * 60.0,
            metavar="SECONDS",
            help="cancel an open table nobody joins within this long (default 1800)",
        ),
    ),
    (
        "--bot-table-idle",
        dict(
            type=_seconds,
            default=30 * 60.0,
            metavar="SECONDS",
            help="forfeit a table against the bot its player left this long ago (default 1800)",
        ),
    ),
    (
        "--proxy",
        dict(
            action="store_true",
            help="trust X-Forwarded-For/-Proto from a reverse proxy on this machine",
        ),
    ),
    (
        "--analysis-workers",
        dict(
            type=int,
            default=None,
            metavar="N",
            help="analyses run at once, each in a process of its own (default: half the cores, "
            "1 to 4; 0 keeps them queued)",
        ),
    ),
    (
        "--analysis-ply",
        dict(
            type=int,
            choices=(0, 1, 2, 3),
            default=None,
            help="search depth of the post-game analyses (default 2)",
        ),
    ),
    (
        "--engine",
        dict(
            metavar="NAME",
            default="gammon",
            help=f"the engine of the analyses and hints: {ENGINE_HELP}",
        ),
    ),
    (
        "--engine-levels",
        dict(
            type=_levels,
            default=frozenset(),
            metavar="LEVEL,...",
            help="bot levels that play with --engine too (default none: every bot plays with "
            "our own nets), e.g. world-class,grandmaster",
        ),
    ),
    (
        "--ray",
        dict(
            metavar="ADDRESS",
            default=None,
            help="run the analyses on a Ray cluster: 'local', 'auto' or its address "
            "(gammon[ray]; --analysis-workers is then the jobs at once, default 8)",
        ),
    ),
    (
        "--migrate-only",
        dict(
            action="store_true",
            help="bring the database's schema up to date (run the pending migrations) and exit",
        ),
    ),
    (
        "--no-migrate",
        dict(
            dest="migrate",
            action="store_false",
            help="do not migrate at start: refuse to start unless the schema is up to date",
        ),
    ),
    (
        "--chat-language",
        dict(
            choices=("en", "any"),
            default="en",
            help="the chat's house rule: en (the default, the guides' rule that tables speak "
            "English) or any (players write in the language they share)",
        ),
    ),
    (
        "--manual-time",
        dict(
            action="store_true",
            help="for tests: the game's clocks, expiries and rate limits stand still until "
            "POST /api/test/time moves them (never on a site people play on)",
        ),
    ),
    (
        "--dice-seed",
        dict(
            type=int,
            default=None,
            metavar="N",
            help="for tests: every game's dice seed and every draw from a generator seeded by N "
            "(predictable: never on a site people play on)",
        ),
    ),
    (
        "--log-level",
        dict(
            default="warning",
            choices=("debug", "info", "warning", "error"),
            help="the server's and uvicorn's log level (default warning)",
        ),
    ),
    (
        "--log-format",
        dict(
            choices=("text", "json"),
            default="text",
            help="json: one JSON object a line, with the table and user where there are some",
        ),
    ),
)


def register(commands: Commands) -> None:
    """Add ``serve`` to the ``gammon`` command line."""
    serve = commands.add_parser(
        "serve",
        help="run the play server",
        description="Run the play server: accounts, lobby, tables, bots (docs/PROTOCOL.md).",
    )
    for flag, options in _OPTIONS:
        serve.add_argument(flag, **options)
    serve.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Start the server and serve until it is stopped; 2 when it could not start."""
    with needs_extra("gammon serve", "server"):
        import uvicorn

        from gammon.server import logs
        from gammon.server.app import create_app
        from gammon.server.wsprotocol import WebSocketProtocol
    if args.ray is not None:
        from gammon.engine.cluster import import_ray

        import_ray()  # a missing extra is said now, not at the first analysis
    _check_engine(args.engine, args.engine_levels)

    logs.configure(args.log_format, args.log_level)
    if args.migrate_only:
        return _migrate_only(args.database, out)
    if args.redis is not None:
        _check_redis(args.database)
    config = _config(args)
    try:
        app = create_app(config)
    except Exception as exc:  # SQLAlchemy's errors for a bad URL
        raise ServeError(
            f"cannot open the database {logs.safe_url(args.database)}: "
            f"{logs.first_line(exc, _password(args.database))}"
        ) from None
    _can_start(config)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"Serving gammon at http://{shown}:{args.port}/", file=out, flush=True)
    hub = app.state.hub

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # Close the WebSockets with 1001 "going away" (docs/PROTOCOL.md 2) before
            # uvicorn closes whatever is left with 1012.
            with contextlib.suppress(Exception):
                await hub.going_away()
            await super().shutdown(sockets)

    server = Server(
        uvicorn.Config(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            # uvicorn's websockets-sansio, with cheaper compression and reading.
            ws=WebSocketProtocol,
            ws_max_size=1 << 20,
            proxy_headers=args.proxy,
            forwarded_allow_ips="127.0.0.1" if args.proxy else None,
            lifespan="on",
            # --log-format and --log-level: gammon.server.logs has set up every logger.
            log_config=None,
        )
    )
    _stacks_on_signals()
    server.run()
    return 0 if server.started else 2


def _config(args: argparse.Namespace) -> ServerConfig:
    """The server's configuration from the command line's options."""
    from gammon.server.app import RateLimits, ServerConfig

    defaults = RateLimits()
    config = ServerConfig(
        database=args.database,
        bots=args.bot,
        message_rate=args.message_rate,
        open_table_expiry_s=args.open_table_expiry,
        bot_table_idle_s=args.bot_table_idle,
        analysis_workers=args.analysis_workers,
        analysis_ply=args.analysis_ply,
        engine=args.engine,
        engine_levels=args.engine_levels,
        analysis_ray=args.ray,
        migrate=args.migrate,
        redis=args.redis,
        lease_ttl_s=args.lease_ttl,
        manual_time=args.manual_time,
        dice_seed=args.dice_seed,
        chat_language=args.chat_language,
        limits=RateLimits(
            login=args.login_limit or defaults.login,
            signup=args.signup_limit or defaults.signup,
        ),
    )
    return config


def _check_redis(database: str) -> None:
    """``--redis`` needs a PostgreSQL database and the ``cluster`` extra."""
    if database.startswith("sqlite"):
        raise ServeError(
            "--redis runs several nodes on one database, which must be PostgreSQL: "
            "a SQLite file belongs to one process (leave --redis out to run one node)"
        )
    with needs_extra("gammon serve --redis", "cluster"):
        import redis  # noqa: F401


def _stacks_on_signals() -> None:
    """`kill -USR1 PID` writes every thread's stack to stderr, and the server goes on;
    `kill -USR2 PID` too, for a server whose Python is stuck (DEPLOY.md 6)."""
    if hasattr(signal, "SIGUSR1"):
        signal.signal(signal.SIGUSR1, _write_stacks)
        faulthandler.register(signal.SIGUSR2, all_threads=True)


def _password(url: str) -> str | None:
    """The password in a database's or Redis's URL, to keep out of every message."""
    credentials = url.partition("://")[2].rpartition("@")[0]
    return credentials.partition(":")[2] or None


def _can_start(config: ServerConfig) -> None:
    """Say in one line, before serving, what would stop the server starting: a database that
    refuses the connection (a wrong password, nobody there) or a schema that is not the
    newest under ``--no-migrate``, an unreachable Redis. Without this the same failure
    comes from inside the application's start-up, as uvicorn's traceback."""
    from sqlalchemy import text

    from gammon.server import logs, migrate
    from gammon.server.db import Database

    url = config.database
    db = Database(url)
    try:
        with db.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        if not config.migrate:
            migrate.require_head(db)
    except GammonError:
        raise
    except Exception as exc:
        raise ServeError(
            f"cannot connect to the database {logs.safe_url(url)}: "
            f"{logs.first_line(exc, _password(url))}"
        ) from None
    finally:
        db.dispose()
    if config.redis is not None:
        from redis import Redis

        client = Redis.from_url(config.redis, socket_connect_timeout=5, socket_timeout=5)
        try:
            client.ping()
        except Exception as exc:
            raise ServeError(
                f"cannot reach Redis at {logs.safe_url(config.redis)}: "
                f"{logs.first_line(exc, _password(config.redis))}"
            ) from None
        finally:
            client.close()


def _check_engine(name: str, levels: frozenset[str]) -> None:
    """Say now, not at the first hint or analysis, that an engine is unknown or missing."""
    from gammon.engine.bot import SKILL_LEVELS
    from gammon.engine.engines import get_engine

    get_engine(name)
    unknown = sorted(levels - set(SKILL_LEVELS))
    if unknown:
        raise ServeError(
            f"unknown bot level {', '.join(unknown)} in --engine-levels; the levels are: "
            + ", ".join(SKILL_LEVELS)
        )


def _write_stacks(signum: int, frame: object) -> None:
    """Every thread's Python stack to stderr (SIGUSR1): what a slow or stuck server is doing.

    Run by the main thread between two steps of Python, so the other threads stand still
    while it reads their frames; faulthandler's dump (SIGUSR2) reads them from the signal
    itself, which still works when Python is stuck but can crash the process if another
    thread is running meanwhile (seen while the server warmed up its compiled kernels).
    """
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    parts = []
    for ident, top in sys._current_frames().items():
        parts.append(f"Thread {ident:#x} ({names.get(ident, 'not started by threading')}):\n")
        parts.extend(traceback.format_stack(top))
    sys.stderr.write("".join(parts))
    sys.stderr.flush()


def _migrate_only(database: str, out: TextIO) -> int:
    """``--migrate-only``: run the pending migrations, say what was done."""
    from gammon.server import logs, migrate
    from gammon.server.db import Database

    try:
        db = Database(database)
        try:
            todo = migrate.pending(db)
            before, after = migrate.upgrade(db)
        finally:
            db.dispose()
    except Exception as exc:
        raise ServeError(
            f"cannot migrate the database {logs.safe_url(database)}: "
            f"{logs.first_line(exc, _password(database))}"
        ) from None
    if todo:
        print(
            f"database upgraded from {before or 'nothing'} to {after} (ran {', '.join(todo)})",
            file=out,
        )
    else:
        print(f"database already at {after} (the newest schema): nothing to do", file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m gammon.server``: the same as ``gammon serve``."""
    parser = argparse.ArgumentParser(prog="python -m gammon.server")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)])
    try:
        return int(args.run(args, sys.stdout))
    except GammonError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
