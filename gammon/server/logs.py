"""The server's log: plain lines, or one JSON object a line (``gammon serve --log-format json``).

A JSON line has ``ts`` (ISO 8601, UTC), ``level``, ``logger`` and ``message``, then
whatever context the call gave with ``extra=``: ``table_id``, ``user``, ``tournament_id``,
``analysis``, ``seq``... (:data:`CONTEXT`), and ``exc`` with the traceback when there is
one. uvicorn's own loggers (``uvicorn.error``, ``uvicorn.access``) go through the same
handler, so a log collector reads one format.

>>> import logging
>>> record = logging.LogRecord("gammon.server", logging.INFO, "", 0, "table %s finished",
...                            (7,), None)
>>> record.table_id = 7
>>> line = JsonFormatter().format(record)
>>> import json; {k: v for k, v in json.loads(line).items() if k != "ts"}
{'level': 'info', 'logger': 'gammon.server', 'message': 'table 7 finished', 'table_id': 7}
"""

from __future__ import annotations

import datetime
import json
import logging
import sys
from typing import Final

__all__ = ["CONTEXT", "JsonFormatter", "configure", "first_line", "safe_url"]

#: The ``extra=`` keys written as fields of their own.
CONTEXT: Final = (
    "table_id", "user", "user_id", "tournament_id", "analysis", "seq", "action", "status",
    "reason", "client", "revision",
)  # fmt: skip


def safe_url(url: str) -> str:
    """A database's or a Redis's URL with its password hidden: what may be printed or logged.

    >>> safe_url("postgresql+psycopg://gammon:s3cret@db:5432/gammon")
    'postgresql+psycopg://gammon:***@db:5432/gammon'
    >>> safe_url("redis://:s3cret@cache:6379/0"), safe_url("sqlite:///gammon.db")
    ('redis://:***@cache:6379/0', 'sqlite:///gammon.db')
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    credentials, at, place = rest.rpartition("@")
    if not at or ":" not in credentials.split("/", 1)[0]:
        return url
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{place}"


def first_line(error: BaseException, secret: str | None = None) -> str:
    """An error in one line for people (its type and its first line: SQLAlchemy and
    psycopg append a background link and a traceback's worth of lines), with ``secret``
    (a password) never in it.

    >>> first_line(ValueError("bad\\nmore"), secret="pw")
    'ValueError: bad'
    """
    text = str(error).strip().split("\n", 1)[0][:300]
    if secret:
        text = text.replace(secret, "***")
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "ts": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in CONTEXT:
            value = record.__dict__.get(key)
            if value is not None:
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def configure(format: str = "text", level: str = "warning") -> None:
    """Send every logger (ours and uvicorn's) to stderr in ``format`` ("text" or "json")."""
    handler = logging.StreamHandler(sys.stderr)
    if format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper(), logging.WARNING))
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
