"""Post-game analysis on the server: a queue on the event loop, a pool of worker processes.

The queue and its jobs' life are here; where a job runs (worker processes or Ray) is
:mod:`gammon.server.analysis_pool`, the jobs' rows :mod:`gammon.server.analysis_rows`,
and the HTTP routes :mod:`gammon.server.routes.analyses`.

As lichess hands analysis to fishnet, play never waits for analysis here: each
job runs in a process of its own pool (:mod:`gammon.server.analysis_worker`),
at a lower CPU priority than the server, while the event loop only keeps the
queue, stores results and answers questions about them. A job is:

- a table's finished games, analysed automatically when a table against the bot
  finishes, or when a player or spectator asks (``POST /api/tables/{id}/analysis``);
- an uploaded .mat, .sgf or .xg file (``POST /api/analyses``), read and checked before
  it is queued, so a bad file is refused at once and in words.

**How many at once.** ``workers`` processes (:func:`default_workers`: half the
CPU cores, at least 1 and at most 4). An analysis is one CPU-bound thread for
seconds to a minute; the other half of the cores stays free for the event loop,
the database threads and the bot's engine thread, which are what a player waits
on. The workers also run at ``nice`` 10. More jobs wait in a first-come queue:
a waiting player sees the job's place in it (``position``, 1 = next), how many
run at once, and, once it runs, its progress (steps done of the total).

**On a Ray cluster** (``gammon serve --ray ADDRESS``: ``local``, ``auto`` or a
cluster's address; ``gammon[ray]``), no worker processes are started here: each
job waits in a thread of the server while its games run as Ray tasks
(:mod:`gammon.engine.cluster`) and its report is built in one more task, so the
server's process only replays the match; ``workers`` is then the jobs run at
once (:data:`RAY_JOBS` by default), progress moves a game at a time, and the
review is the same as the pool's.

Jobs and results are rows of :class:`~gammon.server.db.AnalysisRow` (the review
as JSON, and the HTML report), so a review survives restarts; a job still queued
or running when the server stopped is queued again at start, in its old order.

**On several nodes** (``--redis``, :mod:`gammon.server.cluster`) each job is claimed
in the database by the node whose queue holds it (``node``, and ``claimed_until`` by
the database's clock, renewed by that node every third of ``claim_ttl``); a worker
starts on a job only by one ``UPDATE ... WHERE node = this node``, which adds one to
``runs``. A node starting, and every node now and then, queues only the jobs whose
claim has run out (their node died or stopped), each taken by one ``UPDATE`` with
``FOR UPDATE SKIP LOCKED``: no job is queued on two nodes, so none is analysed twice.
A node with idle workers also takes jobs that have waited :data:`SHARE_AFTER_CLAIMS`
claim times in another node's queue (the same ``UPDATE``, naming itself): that node
then finds the job gone when it comes to start it, and goes on to its next.
Every analysis has a random ``key``: its shareable link is ``/#/analysis/{key}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from gammon.i18n import SOURCE_LANGUAGE
from gammon.messages import Message
from gammon.server.analysis_pool import AnalysisWorkers
from gammon.server.analysis_rows import (
    add_job,
    claim_jobs,
    fail_job,
    job_row,
    latest_table_job,
    release_claims,
    renew_claims,
    requeue_all,
    review_page,
    save_review,
    set_status,
    start_job,
    table_job,
    unfinished,
)
from gammon.server.analysis_worker import (
    UploadError,
    check_upload,
    xg_as_mat,
)
from gammon.server.auth import TokenBuckets, UserInfo
from gammon.server.connections import LiveTable
from gammon.server.db import AnalysisRow, now
from gammon.server.leases import DB_NOW
from gammon.server.protocol import Refused
from gammon.server.store import Store
from gammon.server.timesource import TimeSource
from gammon.xgfile.container import GDF_MAGIC

if TYPE_CHECKING:
    pass

__all__ = [
    "MAX_QUEUED",
    "MAX_QUEUED_EACH",
    "MAX_UPLOAD_BYTES",
    "Analyses",
    "default_workers",
    "too_large",
]

log = logging.getLogger("gammon.server")

#: The database's clock, in seconds since the epoch (PostgreSQL: several nodes only).

#: The largest file accepted (a long match as .mat is well under 100 KB).
MAX_UPLOAD_BYTES: Final = 512 * 1024
#: Jobs waiting at once, over everybody; a request beyond it is refused (``busy``).
MAX_QUEUED: Final = 500
#: Jobs one user may have waiting at once.
MAX_QUEUED_EACH: Final = 3
#: Upload and analysis requests a user may make: a burst, then one every 20 s.
REQUEST_LIMIT: Final = (10.0, 1 / 20)

#: Claim times a queued job waits on a busy node before a node with idle workers takes it.
SHARE_AFTER_CLAIMS: Final = 2.0
#: Jobs run at once on a Ray cluster unless told (each waits in a thread of the server
#: while its games run as Ray tasks; the cluster queues what it cannot run yet).
RAY_JOBS: Final = 8
#: The depth of the analyses (the engine's default for analysis: 2-ply).
DEFAULT_PLY: Final = 2
#: HTTP statuses of this module's refusals (the others are app.py's).
STATUS: Final = {"no_analysis": 404, "too_large": 413, "busy": 503, "bad_file": 400}


def default_workers() -> int:
    """Half the CPU cores, at least one and at most four (see the module's docstring)."""
    return max(1, min(4, (os.cpu_count() or 2) // 2))


@dataclass
class _Running:
    done: int = 0
    total: int = 0


async def _take_here(buckets: TokenBuckets, key: str) -> float:
    """One node alone: the request limit's buckets are this process's."""
    return buckets.take(key)


class Analyses:
    """The analysis queue of one server, its worker pool, and the stored reviews."""

    def __init__(
        self,
        store: Store,
        tables: Callable[[int], Awaitable[LiveTable | None]],
        *,
        workers: int | None = None,
        ply: int | None = None,
        engine: str = "gammon",
        ray: str | None = None,
        node: str | None = None,
        claim_ttl: float = 5.0,
        take: Callable[[TokenBuckets, str], Awaitable[float]] | None = None,
        time: TimeSource | None = None,
    ) -> None:
        self.store = store
        #: Takes a token from the request limit: several nodes share it (the cluster's
        #: ``take``, in Redis); alone, the buckets here.
        self.take = take if take is not None else _take_here
        #: Several nodes: this node's name, which its claims on jobs carry; None: alone.
        self.node = node
        self.claim_ttl = claim_ttl
        self.tables = tables
        #: The Ray cluster the jobs go to (``--ray``: local, auto or an address), or None.
        self.ray = ray
        #: Jobs run at once; 0 keeps jobs queued without running them (a paused queue).
        default = RAY_JOBS if ray is not None else default_workers()
        self.workers = default if workers is None else workers
        self.ply = DEFAULT_PLY if ply is None else ply
        if self.ply not in (0, 1, 2, 3):
            raise ValueError(f"the analysis depth is 0 to 3 ply, not {self.ply!r}")
        #: The engine whose nets judge (gammon.engine.engines: ``gammon serve --engine``).
        self.engine = engine
        #: Keys of the queued jobs, first come first.
        self.queue: list[str] = []
        self.running: dict[str, _Running] = {}
        self.requests = TokenBuckets(*REQUEST_LIMIT, name="analysis_user", time=time)
        #: Where the jobs run: worker processes, or threads waiting on Ray.
        self.backend = AnalysisWorkers(
            self.workers, ray=ray, engine=engine, on_progress=self._on_progress
        )
        self._tasks: set[asyncio.Task[Any]] = set()
        self._owners: dict[str, int | None] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self.completed = 0

    # -- start and stop ------------------------------------------------------------------

    async def start(self) -> None:
        """Queue again every job a stop or crash interrupted, in its old order."""
        self._loop = asyncio.get_running_loop()
        if self.node is not None:
            await self._adopt()
            self._spawn(self._claims_loop())
            return
        rows = await self.store.run(unfinished)
        for key, owner in rows:
            self.queue.append(key)
            self._owners[key] = owner
        if rows:
            await self.store.write(requeue_all)
            log.info("analysis: %d interrupted jobs queued again", len(rows))
        self._pump()

    # -- several nodes: claims on jobs ---------------------------------------------------

    def _claim(self) -> dict[str, Any]:
        """The columns of a job this node queues: its claim (nothing on a single node)."""
        if self.node is None:
            return {}
        return {"node": self.node, "claimed_until": time.time() + self.claim_ttl}

    async def _adopt(self) -> None:
        """Queue here the jobs whose claim ran out (their node died or stopped), oldest first."""
        where = (
            "status IN ('queued', 'running') "
            f"AND (claimed_until IS NULL OR claimed_until < {DB_NOW}) ORDER BY id"
        )
        taken = await self._claim_jobs(where, {}, queued_again=True)
        if taken:
            log.info("analysis: %d jobs of stopped nodes queued here", taken)

    async def _claim_jobs(
        self, where: str, values: dict[str, Any], *, queued_again: bool = False
    ) -> int:
        """Claim for this node the jobs the ``where`` of a ``SELECT`` picks (its order and
        limit too), each by one ``UPDATE`` that skips rows another node is claiming; queue
        them here in their order. ``queued_again``: a job that was running is queued."""
        node, ttl = self.node, self.claim_ttl
        assert node is not None
        rows = await self.store.run(
            lambda s: claim_jobs(s, node, ttl, where, values, queued_again=queued_again)
        )
        for _, key, owner in rows:
            if key not in self.queue and key not in self.running:
                self.queue.append(key)
                self._owners[key] = owner
        if rows:
            self._pump()
        return len(rows)

    async def _renew(self) -> None:
        """Extend this node's claims on its queued and running jobs."""
        node, ttl = self.node, self.claim_ttl
        await self.store.run(lambda s: renew_claims(s, node, ttl))

    async def _share(self) -> None:
        """Take jobs waiting in other nodes' queues while workers here are idle (the oldest
        first, each by one ``UPDATE`` naming this node: the node that had it finds it gone
        when it comes to start it)."""
        idle = self.workers - len(self.running) - len(self.queue)
        if self.node is None or idle <= 0:
            return
        where = "status = 'queued' AND node <> :node AND created < :before ORDER BY id LIMIT :idle"
        before = time.time() - SHARE_AFTER_CLAIMS * self.claim_ttl
        taken = await self._claim_jobs(where, {"before": before, "idle": idle})
        if taken:
            log.info("analysis: %d jobs waiting on busier nodes queued here", taken)

    async def _claims_loop(self) -> None:
        """Renew this node's claims every third of their time, adopt the orphans, and take
        on other nodes' waiting jobs while workers here are idle."""
        while True:
            await asyncio.sleep(self.claim_ttl / 3)
            try:
                await self._renew()
                await self._adopt()
                await self._share()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("analysis: renewing the claims on jobs failed")

    async def release(self) -> None:
        """Several nodes, on a stop: this node's jobs go to the others at once, not after
        their claims' time (a job interrupted here runs again there)."""
        if self.node is None:
            return
        node = self.node
        with contextlib.suppress(Exception):
            await self.store.run(lambda s: release_claims(s, node))

    def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        self.backend.stop()

    def _spawn(self, coroutine: Any) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_progress(self, key: str, done: int, total: int) -> None:
        running = self.running.get(key)
        if running is not None:
            running.done, running.total = done, total

    # -- the queue --------------------------------------------------------------------------

    def _pump(self) -> None:
        while self.queue and len(self.running) < self.workers:
            key = self.queue.pop(0)
            self.running[key] = _Running()
            self._spawn(self._run(key))

    async def _run(self, key: str) -> None:
        try:
            source, ply = await self._source(key)
            if not await self.store.write(lambda s: start_job(s, key, self.node)):
                log.warning("analysis %s: another node has it", key, extra={"analysis": key})
                return
            result = await self.backend.run(key, source, ply)
            document, html, pages = result["document"], result["html"], result["pages"]
            await self.store.write(lambda s: save_review(s, key, document, html, pages))
            self.completed += 1
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            message = str(exc) if isinstance(exc, UploadError | Refused) else f"{exc}"
            log.warning("analysis %s failed: %s", key, message, extra={"analysis": key})
            with contextlib.suppress(Exception):
                await self.store.write(lambda s: fail_job(s, key, message[:1000]))
        finally:
            if not (self._loop is not None and self._loop.is_closed()):
                self.running.pop(key, None)
                self._owners.pop(key, None)
                self._pump()

    async def _source(self, key: str) -> tuple[dict[str, Any], int]:
        """What the worker needs for job ``key``: an upload's text, or a table's histories."""
        row = await self.store.run(lambda s: job_row(s, key, full=True))
        if row is None:
            raise RuntimeError("the job is no longer in the database")
        if row.table_id is None:
            upload = {"kind": "upload", "filename": row.filename or "", "text": row.text or ""}
            return upload, row.ply
        live = await self.tables(row.table_id)
        if live is None or live.table.series is None:
            raise RuntimeError(f"table {row.table_id} cannot be loaded")
        table = live.table
        series = table.series
        assert series is not None
        return {
            "kind": "series",
            "rules": series.rules,
            "histories": [game.history for game in series.games[: row.games]],
            "names": table.names,
        }, row.ply

    def _enqueue(self, key: str, owner: int | None) -> None:
        self.queue.append(key)
        self._owners[key] = owner
        self._pump()

    async def _check_room(self, user: UserInfo | None) -> None:
        if len(self.queue) >= MAX_QUEUED:
            raise Refused("busy", Message("the analysis queue is full: try again in a few minutes"))
        if user is None:
            return
        wait = await self.take(self.requests, str(user.id))
        if wait:
            seconds = 3600 if math.isinf(wait) else math.ceil(wait)
            raise Refused(
                "rate_limited",
                Message("too many analyses asked for: try again in {seconds} s", seconds=seconds),
            )
        mine = sum(1 for key in self.queue if self._owners.get(key) == user.id)
        if mine >= MAX_QUEUED_EACH:
            raise Refused(
                "busy",
                Message(
                    "you already have {mine} analyses waiting: wait for them to start first",
                    mine=mine,
                ),
            )

    # -- asking -------------------------------------------------------------------------------

    async def request_table(self, live: LiveTable, user: UserInfo | None) -> dict[str, Any]:
        """Queue the analysis of a table's finished games (or give the one already there)."""
        table = live.table
        series = table.series
        games = 0 if series is None else sum(1 for game in series.games if game.is_over)
        if games == 0:
            raise Refused(
                "game_not_over",
                Message("no game of table {table} is over yet: nothing to analyse", table=table.id),
            )
        existing = await self.store.run(lambda s: table_job(s, table.id, games, self.ply))
        if existing is not None and existing.status != "failed":
            return self.job_json(existing)
        await self._check_room(user)
        key = existing.key if existing is not None else secrets.token_urlsafe(12)
        names = list(table.names)
        ply = self.ply
        user_id = user.id if user is not None else None
        if existing is not None:
            claim = self._claim()
            await self.store.write(lambda s: set_status(s, key, "queued", **claim))
        else:
            await self.store.write(
                lambda s: add_job(
                    s,
                    AnalysisRow(
                        key=key,
                        table_id=table.id,
                        games=games,
                        source="table",
                        names=names,
                        ply=ply,
                        status="queued",
                        requested_by=user_id,
                        created=now(),
                        **self._claim(),
                    ),
                )
            )
        self._enqueue(key, user_id)
        return await self.get(key)

    def table_finished(self, live: LiveTable) -> None:
        """A table finished: one against the bot is analysed without being asked."""
        if live.table.bot_side is None:
            return

        async def request() -> None:
            try:
                await self.request_table(live, None)
            except Refused:
                pass
            except Exception:
                log.exception(
                    "table %s: its analysis could not be queued",
                    live.table.id,
                    extra={"table_id": live.table.id},
                )

        self._spawn(request())

    async def upload(self, filename: str, raw: bytes, user: UserInfo) -> dict[str, Any]:
        """Check an uploaded match file and queue its analysis (``bad_file`` says what is wrong)."""
        if len(raw) > MAX_UPLOAD_BYTES:
            raise Refused("too_large", too_large())
        xg = filename.lower().endswith(".xg") or raw.startswith(GDF_MAGIC)
        if xg:  # eXtreme Gammon's binary file: kept as the .mat text of its games
            try:
                text = await asyncio.to_thread(xg_as_mat, raw)
            except UploadError as exc:
                raise Refused("bad_file", exc.text) from None
        else:
            text = _decode(raw)
        if not text.strip():
            raise Refused("bad_file", Message("the file is empty"))
        if "\x00" in text:
            raise Refused(
                "bad_file",
                Message(
                    "this is not a text file: .mat and .sgf files are plain text (and .xg files "
                    "are eXtreme Gammon's, named .xg)"
                ),
            )
        await self._check_room(user)
        try:
            summary = await asyncio.to_thread(check_upload, filename, text)
        except UploadError as exc:
            raise Refused("bad_file", exc.text) from None
        except Exception as exc:  # a reader's fault: still the file's problem for the user
            log.warning("an upload could not be read: %r", exc)
            raise Refused(
                "bad_file", Message("the file cannot be read as a match: {why}", why=str(exc))
            ) from None
        key = secrets.token_urlsafe(12)
        sgf = filename.lower().endswith(".sgf") or text.lstrip().startswith("(;")
        source = "xg" if xg else "sgf" if sgf else "mat"
        await self.store.write(
            lambda s: add_job(
                s,
                AnalysisRow(
                    key=key,
                    source=source,
                    filename=filename[:200] or None,
                    text=text,
                    names=summary["names"],
                    games=summary["games"],
                    ply=self.ply,
                    status="queued",
                    requested_by=user.id,
                    created=now(),
                    **self._claim(),
                ),
            )
        )
        self._enqueue(key, user.id)
        return await self.get(key)

    # -- reading ------------------------------------------------------------------------------

    def job_json(self, row: AnalysisRow, *, document: bool = False) -> dict[str, Any]:
        """A job as the protocol shows it (docs/PROTOCOL.md 9)."""
        key = row.key
        status = row.status
        position = None
        if key in self.queue:
            status, position = "queued", self.queue.index(key) + 1
        elif key in self.running:
            status = "running"
        running = self.running.get(key)
        data: dict[str, Any] = {
            "key": key,
            "link": f"/#/analysis/{key}",
            "table": row.table_id,
            "games": row.games,
            "source": row.source,
            "filename": row.filename,
            "names": row.names,
            "ply": row.ply,
            "status": status,
            "position": position,
            "queued": len(self.queue),
            "workers": self.workers,
            "running": len(self.running),
            "progress": (
                {"done": running.done, "total": running.total}
                if running is not None and running.total
                else None
            ),
            "error": row.error,
            "created_ms": math.floor(row.created * 1000),
            "finished_ms": math.floor(row.finished * 1000) if row.finished else None,
        }
        if document:
            data["document"] = row.document if status == "done" else None
        return data

    async def get(self, key: str, *, document: bool = False) -> dict[str, Any]:
        row = await self.store.run(lambda s: job_row(s, key, full=document))
        if row is None:
            raise Refused("no_analysis", Message("there is no analysis {key}", key=repr(key)))
        return self.job_json(row, document=document)

    async def for_table(self, table_id: int) -> dict[str, Any]:
        row = await self.store.run(lambda s: latest_table_job(s, table_id))
        if row is None:
            raise Refused(
                "no_analysis", Message("table {table} has not been analysed", table=table_id)
            )
        return self.job_json(row)

    async def html(self, key: str, lang: str = SOURCE_LANGUAGE) -> tuple[str, str]:
        """The review's HTML page in ``lang`` (English where the job has none in it), and
        the page's language."""
        found = await self.store.run(lambda s: review_page(s, key, lang))
        if found is None:
            raise Refused("no_analysis", Message("the analysis {key} is not ready", key=repr(key)))
        return found


def too_large() -> Message:
    """Why a file over :data:`MAX_UPLOAD_BYTES` is refused."""
    return Message("the file is over {kb} KB: is it a match file?", kb=MAX_UPLOAD_BYTES // 1024)


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")
