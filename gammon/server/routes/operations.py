"""Operations (docs/DEPLOY.md): ``/healthz``, ``/readyz``, ``/metrics``; and, on a
``--manual-time`` test server only, ``POST /api/test/time``."""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Final

from sqlalchemy import text
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from gammon.messages import Message
from gammon.server import metrics
from gammon.server.protocol import Refused

if TYPE_CHECKING:
    from gammon.server.analysis import Analyses
    from gammon.server.db import Database
    from gammon.server.edge import Edge
    from gammon.server.timesource import ManualTime

__all__ = ["READY_TIMEOUT_S", "Operations", "time_mover_route"]

#: How long /readyz waits for the database (and the other nodes) before saying no.
READY_TIMEOUT_S: Final = 2.0


class Operations:
    """The operators' endpoints over one node's database, hub and analyses."""

    def __init__(self, edge: Edge, db: Database, analyses: Analyses) -> None:
        self.edge = edge
        self.db = db
        self.analyses = analyses
        #: The database file's (device, inode) at start: /readyz sees it replaced.
        self.database_file: tuple[int, int] | None = None

    def started(self) -> None:
        """Note the database file the server started on (SQLite)."""
        path = self.db.file()
        if path is not None:
            found = os.stat(path)
            self.database_file = (found.st_dev, found.st_ino)

    def routes(self) -> list[Route]:
        return [
            Route("/healthz", self.healthz, methods=["GET", "HEAD"]),
            Route("/readyz", self.readyz, methods=["GET", "HEAD"]),
            Route("/metrics", self.metrics_page, methods=["GET"]),
        ]

    async def healthz(self, request: Request) -> Response:
        """The process answers (its event loop runs): nothing else is checked."""
        return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})

    async def readyz(self, request: Request) -> Response:
        """Ready for players: the database answers, the writer runs, the hub has started, and
        (several nodes) the other nodes can be reached."""
        store, hub = self.edge.store, self.edge.hub
        checks: dict[str, str] = {"database": await self._database()}
        checks["writer"] = "ok" if store.writing else "stopped"
        checks["hub"] = "ok" if hub.started else "not started"
        if hub.nodes.shared:  # several nodes: the others are reached through Redis
            checks["peers"] = await hub.nodes.unreachable(READY_TIMEOUT_S) or "ok"
        ready = all(value == "ok" for value in checks.values())
        return JSONResponse(
            {"status": "ready" if ready else "not_ready", "checks": checks},
            status_code=200 if ready else 503,
            headers={"Cache-Control": "no-store"},
        )

    async def _database(self) -> str:
        try:
            await asyncio.wait_for(
                self.edge.store.run(lambda s: s.execute(text("SELECT 1")).scalar_one()),
                READY_TIMEOUT_S,
            )
        except TimeoutError:
            return f"no answer within {READY_TIMEOUT_S:g} s"
        except Exception as exc:
            message = str(exc).split("\n")[0][:200]
            return f"failed: {type(exc).__name__}: {message}"
        path = self.db.file()
        if path is None:
            return "ok"
        try:
            found = os.stat(path)
        except OSError:
            return f"the file {path} is gone (deleted or moved)"
        if self.database_file not in (None, (found.st_dev, found.st_ino)):
            return f"the file {path} was replaced since the server started"
        return "ok"

    async def metrics_page(self, request: Request) -> Response:
        return PlainTextResponse(
            "\n".join(self.metric_lines()) + "\n",
            media_type=metrics.CONTENT_TYPE,
            headers={"Cache-Control": "no-store"},
        )

    def metric_lines(self) -> list[str]:
        """The Prometheus text of this node, line by line."""
        store, hub, analyses = self.edge.store, self.edge.hub, self.analyses
        at_tables = sum(len(live.conns) for live in hub.tables.values())
        by_status = dict.fromkeys(("open", "playing", "finished", "cancelled"), 0.0)
        for live in hub.tables.values():
            by_status[live.table.status] = by_status.get(live.table.status, 0.0) + 1
        return [
            *metrics.gauge(
                "gammon_connections",
                "Open WebSockets, by socket (lobby or table).",
                {"lobby": len(hub.lobby), "table": at_tables},
                "socket",
            ),
            *metrics.gauge(
                "gammon_tables",
                "Tables in this server's memory, by status (open and playing are all of them; "
                "finished and cancelled only the recent ones).",
                by_status,
                "status",
            ),
            *metrics.counter(
                "gammon_actions_total",
                "Actions accepted and committed, by type.",
                dict(hub.action_counts),
                "type",
            ),
            *hub.action_seconds.lines(),
            *metrics.counter(
                "gammon_db_commits_total", "Writes committed by the writer thread.", store.commits
            ),
            *metrics.counter(
                "gammon_db_batches_total",
                "Transactions of the writer thread (each holds one or more writes).",
                store.batches,
            ),
            *metrics.gauge(
                "gammon_db_write_queue", "Writes waiting for the writer thread.", store.write_queue
            ),
            *metrics.gauge(
                "gammon_analysis_queue_depth", "Post-game analyses queued.", len(analyses.queue)
            ),
            *metrics.gauge(
                "gammon_analysis_running", "Post-game analyses running.", len(analyses.running)
            ),
            *metrics.counter(
                "gammon_analyses_completed_total", "Post-game analyses done.", analyses.completed
            ),
            *metrics.gauge(
                "gammon_bot_queue",
                "Bot moves and hints waiting for or running on the engine's thread.",
                hub.bots.pending if hub.bots is not None else 0,
            ),
            *metrics.counter(
                "gammon_faults_total", "Unexpected server faults (logged).", hub.faults.count
            ),
            *metrics.gauge("gammon_ready", "1 once the hub has started.", int(hub.started)),
            *metrics.process_lines(),
        ]


def time_mover_route(edge: Edge, clock: ManualTime) -> Route:
    """``POST /api/test/time {"advance_s": S}`` on a ``--manual-time`` server: the clock moves
    S seconds on and what fell due (game clocks, expiries, tournaments' timers) is started;
    answers the new time. A test's way to let time pass without waiting for it."""

    async def move(request: Request) -> Response:
        data = await edge.body(request)
        seconds = data.get("advance_s")
        if (
            set(data) != {"advance_s"}
            or isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not 0 <= seconds < 1e9
        ):
            raise Refused(
                "bad_request", Message('send {{"advance_s": SECONDS}}, a number of 0 or more')
            )
        clock.advance(float(seconds))
        await asyncio.sleep(0)  # let the tasks the timers started take their first step
        return JSONResponse({"now": clock.now()})

    return Route("/api/test/time", edge.handler(move), methods=["POST"])
