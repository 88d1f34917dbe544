"""The play server's instructions per action, counted by valgrind's callgrind.

A run's CPU time on this shared machine varies by about ±10%, so two trees compared by
``bench.server_load``'s seconds need many pairs to see a few per cent. Callgrind counts
the instructions the server executes instead, which the machine's other work changes
far less: runs of one tree agree within about 1% on a quiet machine (the games differ
from run to run, and work done by the clock, not by the actions, counts too; one run
beside another busy process came 5% above its repeats), so take the median of a few
runs of each tree. The server runs under callgrind with counting off (so starting it
and signing the guests up stay quick enough); counting is switched on when the measured
seconds begin and the count is dumped when they end (``callgrind_control``). Every
thread counts, the database writer's included. Instructions are not seconds (a cache
miss costs more than an add), so this is for comparing two trees, not for sizing a site.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

__all__ = ["command", "counted", "start"]


def command(out: Path) -> list[str]:
    """What goes before the server's command line: callgrind, not counting yet."""
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise SystemExit("--callgrind needs valgrind (Debian's package valgrind)")
    return [
        "valgrind", "--tool=callgrind", "--instr-atstart=no",
        f"--callgrind-out-file={out}", f"--log-file={out}.log",  # valgrind's own words
    ]  # fmt: skip


def start() -> None:
    """Count from now on (in every program running under callgrind: the server alone)."""
    subprocess.run(["callgrind_control", "-i", "on"], check=True, capture_output=True)


def counted(out: Path) -> int:
    """Dump the count and read it: the instructions since :func:`start`."""
    subprocess.run(["callgrind_control", "-d"], check=True, capture_output=True)
    dump = Path(f"{out}.1")  # callgrind numbers each dump after the file's name
    for line in dump.read_text(encoding="utf-8").splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise SystemExit(f"{dump} has no summary line: was the dump written?")
