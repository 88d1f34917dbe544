"""Heavy engine work on a Ray cluster: the same functions, their pieces run as Ray tasks.

Rollouts (:func:`~gammon.engine.rollout.rollout`), post-game analysis
(:func:`~gammon.engine.analysis.analyse`) and the training's rollout collection
(:func:`~gammon.engine.supervise.collect`) run in the calling process by
default. Given a :class:`RayCluster` (``cluster=``), they split their work into
independent tasks (a rollout's batches of trials, a match's games, the
collection's positions), hand them to Ray, and combine the results in the same
order as the local path does, so the figures are the same: every random
number is drawn from a seed that belongs to the task (a batch of trials, a
position), never to the worker that happens to run it, and nothing else is
random. Progress callbacks are fed as tasks finish.

Ray is an optional extra (``pip install 'gammon[ray]'``) imported only here,
and only when a cluster is asked for; without it :class:`RayMissingError` names
the extra. Every node of a cluster needs the same gammon installed (the tasks
import it there); ``RAY_ADDRESS`` and Ray's own settings apply as usual.

Which cluster (:func:`connect`, the ``--ray`` options of the commands):

- ``local``: start a Ray instance on this machine for this process (all its cores);
- ``auto``: join the cluster already running on this machine (``ray start --head``);
- an address: ``HOST:6379`` (a head node's GCS) or ``ray://HOST:10001`` (Ray Client).

If Ray is already initialised in the process (a test fixture, a notebook),
that connection is used as it is.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, TypeVar

from gammon.errors import GammonError

__all__ = ["RAY_EXTRA", "RayCluster", "RayMissingError", "connect", "import_ray"]

#: The extra that installs Ray.
RAY_EXTRA: Final = "ray"

T = TypeVar("T")


class RayMissingError(GammonError, ImportError):
    """Ray was asked for but is not installed."""


def import_ray() -> Any:
    """The ``ray`` module, or :class:`RayMissingError` naming the extra to install."""
    try:
        return importlib.import_module("ray")
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] != "ray":
            raise
        raise RayMissingError(
            "running on a Ray cluster needs the ray extra (ray is not installed): "
            f"pip install 'gammon[{RAY_EXTRA}]'"
        ) from None


class RayCluster:
    """A connection to a Ray cluster that the engine's functions hand their tasks to.

    ``address`` is ``None`` or ``"local"`` (start Ray on this machine), ``"auto"``
    (the cluster running on this machine) or a cluster's address; ``init`` goes
    to ``ray.init``. A connection this object made is closed by :meth:`close`
    (also on leaving a ``with`` block); one that was there before is left open.
    """

    def __init__(self, address: str | None = None, **init: Any) -> None:
        ray = import_ray()
        self._ray = ray
        self._remote: dict[Callable[..., Any], Any] = {}
        self._closed = threading.Event()
        self.started = False
        if not ray.is_initialized():
            target = "local" if address is None else address
            init.setdefault("include_dashboard", False)
            init.setdefault("configure_logging", False)
            try:
                ray.init(address=target, **init)
            except ConnectionError as exc:
                raise GammonError(f"cannot reach the Ray cluster {address!r}: {exc}") from None
            self.started = True

    def __enter__(self) -> RayCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Disconnect, if this object connected (a Ray started with ``local`` stops)."""
        self.stop_waiting()
        if self.started and self._ray.is_initialized():
            self._ray.shutdown()
        self.started = False

    def stop_waiting(self) -> None:
        """Make every :meth:`map` waiting in other threads stop (within half a second) with
        :class:`GammonError`, cancelling its tasks; Ray itself stays connected."""
        self._closed.set()

    @property
    def cpus(self) -> int:
        """The CPUs the cluster has (at least 1)."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def put(self, value: object) -> Any:
        """Store ``value`` in the cluster once, to pass to many tasks (a reference)."""
        return self._ray.put(value)

    def _task(self, function: Callable[..., Any]) -> Any:
        remote = self._remote.get(function)
        if remote is None:
            remote = self._remote[function] = self._ray.remote(num_cpus=1)(function)
        return remote

    def map(
        self, function: Callable[..., T], jobs: Sequence[tuple[Any, ...]]
    ) -> Iterator[tuple[int, T]]:
        """Run ``function(*job)`` for each job as a Ray task; yield ``(index, result)`` as
        each finishes (in no particular order). Tasks still running when the caller stops
        iterating (an error, a Ctrl-C) are cancelled; a task's error is raised here."""
        remote = self._task(function)
        refs = [remote.remote(*job) for job in jobs]
        where = {ref: index for index, ref in enumerate(refs)}
        pending = list(refs)
        try:
            while pending:
                if self._closed.is_set():
                    raise GammonError("the connection to the Ray cluster was closed")
                done, pending = self._ray.wait(pending, num_returns=1, timeout=0.5)
                for ref in done:
                    yield where[ref], self._ray.get(ref)
        finally:
            for ref in pending:
                self._ray.cancel(ref)

    def call(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)`` as one Ray task and wait for its result."""
        result: T = self._ray.get(self._task(function).remote(*args))
        return result


def connect(address: str | None) -> RayCluster | None:
    """A :class:`RayCluster` for a command's ``--ray`` option, or ``None`` (run here)."""
    if address is None:
        return None
    return RayCluster(address)
