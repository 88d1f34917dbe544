"""Where the play server's time per action goes: py-spy samples grouped by what they do.

``python -m bench.server_load --profile FILE`` records the server with py-spy
(when it is installed: it is not a dependency) during the measured seconds and
prints the groups below; ``python -m bench.server_profile FILE`` prints them
again from the recorded file. ``--profile-gil`` samples only the thread holding
the GIL: closer to Python's CPU time, blind to C code that lets the GIL go
(zlib, SQLite, socket calls). Without it, every thread that is not idle is
sampled, waiting included (a commit's fsync, the GIL). A sample belongs to the
first group whose frames it contains, in the order of :data:`GROUPS`.
"""

from __future__ import annotations

import collections
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Final

__all__ = ["GROUPS", "group_samples", "record"]

#: (group, substrings of a frame): the first group with a frame in the stack takes the sample.
GROUPS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("legal plays encoding", ("_legal_plays_json", "legal_plays_text")),
    ("WS send: deflate", ("encode (websockets/extensions/permessage_deflate",)),
    ("WS receive: inflate", ("decode (websockets/extensions/permessage_deflate",)),
    (
        "WS send: framing, transport",
        ("write_loop (gammon", "send_text (starlette", "send (uvicorn/protocols/websockets"),
    ),
    (
        "rules (table.apply)",
        ("apply (gammon/server/table.py", "(gammon/game.py", "(gammon/match.py", "check_seq"),
    ),
    ("state building (views, broadcast)", ("broadcast_state", "(gammon/server/views.py")),
    ("read client message", ("parse_message", "loads (gammon/server/protocol.py", "allow (gammon")),
    (
        "WS receive: framing, transport",
        ("receive (starlette/websockets.py", "_read_ready", "data_received", "receive (uvicorn"),
    ),
    (
        "acting: ack, commit wait, the rest",
        ("act (gammon/server/hub.py", "_message (gammon/server/table_sockets.py"),
    ),
)


def _group(thread: str, frames: list[str]) -> str:
    if "gammon-db-writer" in thread:
        return "database writer thread"
    if "MainThread" not in thread:
        return "other threads"
    stack = ";".join(frames)
    for name, parts in GROUPS:
        if any(part in stack for part in parts):
            return name
    return "event loop, other"


def group_samples(raw: Path) -> tuple[int, list[tuple[str, int]]]:
    """(samples, [(group, samples)] largest first) of a py-spy ``--format raw`` file."""
    counts: collections.Counter[str] = collections.Counter()
    total = 0
    for line in raw.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue  # a frame name py-spy read with newlines in it: the rest of its line is lost
        thread, *frames = stack.split(";")
        counts[_group(thread, frames)] += int(count)
        total += int(count)
    return total, counts.most_common()


def record(pid: int, seconds: float, out: Path, *, gil: bool) -> subprocess.Popen[bytes]:
    """Start py-spy on ``pid`` for ``seconds`` (it does not stop the process to sample)."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        raise SystemExit("--profile needs py-spy (pip install py-spy)")
    command = [spy, "record", "--pid", str(pid), "--duration", str(max(1, int(seconds))),
               "--rate", "250", "--nonblocking", "--threads", "--format", "raw",
               "--output", str(out)]  # fmt: skip
    if gil:
        command.append("--gil")
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def report(raw: Path) -> None:
    total, groups = group_samples(raw)
    print(f"profile              {total} samples in {raw}")
    for name, count in groups:
        print(f"  {100 * count / max(1, total):5.1f}%  {name}")


if __name__ == "__main__":
    report(Path(sys.argv[1]))
