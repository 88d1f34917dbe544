"""Run the test suite (or a named part of it) several times and list every test that failed.

Usage::

    python scripts/flakiness.py --runs 5                  # the whole suite (./test.sh), quiet
    python scripts/flakiness.py --runs 3 --hog            # beside two busy processes
    python scripts/flakiness.py --runs 10 -- tests/server/test_accounts.py -k rate

Without a part, each run is ``./test.sh`` with ``GAMMON_TESTS_ONLY=1`` (its pytest phases:
SQLite, PostgreSQL, several nodes; lint and types do not flake and are left out); with a
part (the arguments after ``--``), each run is ``pytest`` on that part alone. ``--hog``
starts two processes that spin on the CPU for the whole time (at the tests' own priority:
a 2-core machine then runs at a load of about 4 and more, as CI's busy machines do).

Each run's JUnit reports are read, and the script prints one line a run (time, tests,
failures) and then every test that failed or errored in any run, with how often. It exits
with status 1 when any run failed, so it can gate a release.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class RunResult:
    """What one run of the suite did: its time, its tests and the ids of those that failed."""

    seconds: float
    exit_code: int
    tests: int = 0
    skipped: int = 0
    failed: list[str] = field(default_factory=list)


def _spin() -> None:
    while True:
        pass


def read_reports(folder: Path) -> tuple[int, int, list[str]]:
    """(tests, skipped, failed test ids) over every JUnit report in ``folder``."""
    tests = skipped = 0
    failed: list[str] = []
    for report in sorted(folder.glob("*.xml")):
        phase = report.stem
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            tests += 1
            name = f"{case.get('classname', '')}::{case.get('name', '')}"
            if case.find("skipped") is not None:
                skipped += 1
            if case.find("failure") is not None or case.find("error") is not None:
                failed.append(f"[{phase}] {name}")
    return tests, skipped, failed


def run_once(part: list[str], folder: Path, log: Path) -> RunResult:
    """One run of the suite (``./test.sh``) or of ``part`` (pytest), its reports in ``folder``."""
    env = {**os.environ, "GAMMON_JUNIT_DIR": str(folder), "GAMMON_TESTS_ONLY": "1"}
    if part:
        python = ROOT / ".venv" / "bin" / "python"
        command = [str(python if python.exists() else sys.executable), "-m", "pytest", "-q"]
        command += ["-p", "no:cacheprovider", f"--junitxml={folder / 'part.xml'}", *part]
    else:
        command = ["bash", str(ROOT / "test.sh")]
    started = time.monotonic()
    with log.open("w") as out:
        code = subprocess.call(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    result = RunResult(time.monotonic() - started, code)
    result.tests, result.skipped, result.failed = read_reports(folder)
    if code != 0 and not result.failed:
        # A phase that never wrote its report (a crash, or a check before pytest).
        result.failed.append(f"[run] exit status {code}, no failing test reported: see {log}")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="how many runs (5)")
    parser.add_argument("--hog", action="store_true", help="beside two busy processes")
    parser.add_argument("--logs", type=Path, default=None, help="keep each run's output here")
    parser.add_argument("part", nargs="*", help="pytest arguments (after --): a part only")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs needs at least one run")
    logs = args.logs or Path(tempfile.mkdtemp(prefix="gammon-flakiness-"))
    logs.mkdir(parents=True, exist_ok=True)
    hogs = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(2 if args.hog else 0)]
    for hog in hogs:
        hog.start()
    what = " ".join(args.part) or "the whole suite"
    print(f"{args.runs} runs of {what}{' beside 2 busy processes' if hogs else ''}; logs in {logs}")
    results: list[RunResult] = []
    try:
        for number in range(1, args.runs + 1):
            folder = logs / f"run-{number}"
            folder.mkdir(exist_ok=True)
            result = run_once(args.part, folder, logs / f"run-{number}.log")
            results.append(result)
            load = os.getloadavg()[0]
            print(
                f"run {number}: {result.seconds:.0f} s, {result.tests} tests "
                f"({result.skipped} skipped), {len(result.failed)} failed, "
                f"exit {result.exit_code}, load {load:.1f}",
                flush=True,
            )
    finally:
        for hog in hogs:
            hog.terminate()
    failures = Counter(name for result in results for name in result.failed)
    green = sum(1 for result in results if result.exit_code == 0)
    print(f"{green} of {len(results)} runs green")
    for name, count in failures.most_common():
        print(f"  failed in {count} of {len(results)} runs: {name}")
    return 0 if green == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
