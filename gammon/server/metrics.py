"""Metrics in the Prometheus text format (version 0.0.4), written by hand.

A server is one process with a handful of figures, so this is a few classes rather
than ``prometheus-client``: no global registry shared by every app in a process (the
tests run several), no multiprocess mode to set up, and an observation is a bisect and
two additions on the event loop. Counters and histograms are kept as they happen;
gauges are read when ``/metrics`` is scraped.

>>> h = Histogram("gammon_x_seconds", "An example.", (0.01, 0.1))
>>> h.observe(0.005); h.observe(0.05); h.observe(2.0)
>>> print("\\n".join(h.lines()))
# HELP gammon_x_seconds An example.
# TYPE gammon_x_seconds histogram
gammon_x_seconds_bucket{le="0.01"} 1
gammon_x_seconds_bucket{le="0.1"} 2
gammon_x_seconds_bucket{le="+Inf"} 3
gammon_x_seconds_sum 2.055
gammon_x_seconds_count 3
"""

from __future__ import annotations

import bisect
import os
import resource
import time
from collections.abc import Iterable, Mapping
from typing import Final

__all__ = [
    "ACTION_BUCKETS",
    "CONTENT_TYPE",
    "Histogram",
    "counter",
    "gauge",
    "process_lines",
]

CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"
#: Seconds from an action's message read to its state queued for every socket.
ACTION_BUCKETS: Final = (
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0,
)  # fmt: skip
_START: Final = time.time()


def _value(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def _labels(labels: Mapping[str, str]) -> str:
    if not labels:
        return ""
    escaped = (
        (key, value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n"))
        for key, value in labels.items()
    )
    return "{" + ",".join(f'{key}="{value}"' for key, value in escaped) + "}"


def _family(
    name: str, kind: str, help_text: str, samples: Iterable[tuple[Mapping[str, str], float]]
) -> list[str]:
    lines = [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"]
    lines.extend(f"{name}{_labels(labels)} {_value(value)}" for labels, value in samples)
    return lines


def counter(
    name: str, help_text: str, value: float | Mapping[str, float], label: str = ""
) -> list[str]:
    """A counter's lines: one value, or one per value of ``label``."""
    if isinstance(value, Mapping):
        samples = [({label: key}, float(v)) for key, v in sorted(value.items())]
        return _family(name, "counter", help_text, samples)
    return _family(name, "counter", help_text, [({}, float(value))])


def gauge(
    name: str, help_text: str, value: float | Mapping[str, float], label: str = ""
) -> list[str]:
    """A gauge's lines: one value, or one per value of ``label``."""
    if isinstance(value, Mapping):
        samples = [({label: key}, float(v)) for key, v in sorted(value.items())]
        return _family(name, "gauge", help_text, samples)
    return _family(name, "gauge", help_text, [({}, float(value))])


class Histogram:
    """Cumulative buckets, their sum and count."""

    def __init__(self, name: str, help_text: str, buckets: Iterable[float]) -> None:
        self.name = name
        self.help = help_text
        self.bounds = sorted(buckets)
        self.counts = [0] * (len(self.bounds) + 1)
        self.sum = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.sum += value
        self.count += 1

    def lines(self) -> list[str]:
        lines = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} histogram"]
        total = 0
        for bound, count in zip([*self.bounds, None], self.counts, strict=True):
            total += count
            le = "+Inf" if bound is None else _value(bound) if bound >= 1 else repr(bound)
            lines.append(f'{self.name}_bucket{{le="{le}"}} {total}')
        lines.append(f"{self.name}_sum {_value(round(self.sum, 9))}")
        lines.append(f"{self.name}_count {self.count}")
        return lines


def process_lines() -> list[str]:
    """The standard process metrics Prometheus users expect (CPU, memory, start, fds)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    lines = _family(
        "process_cpu_seconds_total",
        "counter",
        "User and system CPU time spent in seconds.",
        [({}, round(usage.ru_utime + usage.ru_stime, 3))],
    )
    rss = _resident_bytes()
    if rss is not None:
        lines += gauge("process_resident_memory_bytes", "Resident memory size in bytes.", rss)
    lines += gauge(
        "process_start_time_seconds",
        "Start time of the process since unix epoch in seconds.",
        round(_START, 3),
    )
    try:
        fds = len(os.listdir("/proc/self/fd"))
    except OSError:
        fds = -1
    if fds >= 0:
        lines += gauge("process_open_fds", "Number of open file descriptors.", fds)
    return lines


def _resident_bytes() -> float | None:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None
