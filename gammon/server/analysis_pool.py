"""Where the analyses run: a pool of worker processes, or threads that wait on a Ray cluster.

:class:`~gammon.server.analysis.Analyses` keeps the queue and the rows; this runs one
job at a time for it and reports each job's progress back on the event loop. The pool
and the progress reader start on the first job (a server that analyses nothing starts
neither); on Ray, each job waits in a thread of the server while its games run as Ray
tasks (:mod:`gammon.engine.cluster`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from gammon.server.analysis_worker import init_worker, run_job

if TYPE_CHECKING:
    from gammon.engine.cluster import RayCluster

__all__ = ["AnalysisWorkers"]

log = logging.getLogger("gammon.server")


class AnalysisWorkers:
    """``workers`` jobs at once, in worker processes or (``ray``: the cluster's address,
    ``local`` or ``auto``) on Ray; ``on_progress(key, done, total)`` is called on the
    event loop as a job's games are analysed."""

    def __init__(
        self,
        workers: int,
        *,
        ray: str | None,
        engine: str,
        on_progress: Callable[[str, int, int], None],
    ) -> None:
        self.workers = workers
        self.ray = ray
        #: The engine whose nets judge (gammon.engine.engines: ``gammon serve --engine``).
        self.engine = engine
        self.on_progress = on_progress
        self._pool: ProcessPoolExecutor | None = None
        self._cluster: RayCluster | None = None
        self._ray_threads: ThreadPoolExecutor | None = None
        self._connecting = threading.Lock()
        self._progress: Any = None
        self._reader: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def run(self, key: str, source: dict[str, Any], ply: int) -> dict[str, Any]:
        """Job ``key``'s result (its review's document, HTML report and pages)."""
        loop = self._loop = asyncio.get_running_loop()
        try:
            if self.ray is not None:
                if self._ray_threads is None:
                    self._ray_threads = ThreadPoolExecutor(
                        max(1, self.workers), thread_name_prefix="gammon-analysis-ray"
                    )
                return await loop.run_in_executor(self._ray_threads, self._on_ray, key, source, ply)
            job = functools.partial(run_job, key, source, ply, engine=self.engine)
            return await loop.run_in_executor(self._executor(), job)
        except BrokenProcessPool:
            self._pool = None  # a worker died (killed, out of memory): a fresh pool next time
            raise RuntimeError("the analysis worker stopped unexpectedly") from None

    def stop(self) -> None:
        """Stop the workers; a job in progress is queued again at the next start."""
        pool, self._pool = self._pool, None
        if pool is not None:
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # an analysis in progress is queued again at start
                with contextlib.suppress(Exception):
                    process.terminate()
        if self._progress is not None:
            with contextlib.suppress(Exception):
                self._progress.put(None)
            self._progress = None
        threads, self._ray_threads = self._ray_threads, None
        if self._cluster is not None:
            # Jobs waiting on Ray stop within half a second (queued again at start);
            # the connection itself closes when the process exits.
            self._cluster.stop_waiting()
        if threads is not None:
            threads.shutdown(wait=False, cancel_futures=True)

    def _executor(self) -> ProcessPoolExecutor:
        """The worker pool, started on first use (a server that analyses nothing starts none)."""
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded server
            self._progress = context.Queue()
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=init_worker,
                initargs=(self._progress, os.getpid()),
            )
            self._reader = threading.Thread(
                target=self._read_progress,
                args=(self._progress,),
                name="gammon-analysis-progress",
                daemon=True,
            )
            self._reader.start()
        return self._pool

    def _on_ray(self, key: str, source: dict[str, Any], ply: int) -> dict[str, Any]:
        """One job on the Ray cluster, in a thread of the server: the games are Ray tasks."""
        with self._connecting:
            if self._cluster is None:
                from gammon.engine.cluster import RayCluster

                assert self.ray is not None
                self._cluster = RayCluster(self.ray)
                log.info("analysis: jobs go to the Ray cluster %r", self.ray)
        loop = self._loop

        def progress(done: int, total: int) -> None:
            if loop is not None:
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self.on_progress, key, done, total)

        return run_job(
            key, source, ply, cluster=self._cluster, progress=progress, engine=self.engine
        )

    def _read_progress(self, source: Any) -> None:
        loop = self._loop
        while True:
            try:
                item = source.get()
            except (EOFError, OSError):
                return
            if item is None or loop is None:
                return
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.on_progress, *item)
