"""The browser client's unit tests: ``node --test`` on tests/js/*.test.mjs.

The pure modules of gammon/server/static/js/ (the move logic, the replay, the board's
geometry, the table's words, the lobby form) are tested in node, without a browser,
on cases the rules library makes here (random games of every variant) as well as on
the few committed in tests/js/fixtures/. The types of every module (``// @ts-check``
and JSDoc) are checked by TypeScript when ``tsc`` is installed (scripts/check-js-types.sh).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.server.js_fixtures import random_games

ROOT = Path(__file__).resolve().parents[2]
JS_TESTS = sorted((ROOT / "tests" / "js").glob("*.test.mjs"))
NODE = shutil.which("node")


@pytest.mark.skipif(
    NODE is None, reason="no node on PATH (apt-get install nodejs): JS unit tests skipped"
)
def test_node_unit_tests(tmp_path: Path) -> None:
    assert NODE is not None
    assert len(JS_TESTS) >= 5
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(random_games(), separators=(",", ":")))
    result = subprocess.run(
        [NODE, "--test", *map(str, JS_TESTS)],
        cwd=ROOT,
        env={**os.environ, "GAMMON_JS_CASES": str(cases)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    # Every test ran, the random-game ones included: none skipped, none failed.
    assert "# fail 0" in output and "# skipped 0" in output, output[-3000:]
    passed = int(output.split("# pass ", 1)[1].split()[0])
    assert passed >= 20, output[-3000:]


TSC = shutil.which("tsc") or os.environ.get("GAMMON_TSC")


@pytest.mark.skipif(
    TSC is None,
    reason="no TypeScript (tsc) installed: scripts/check-js-types.sh checks the client's types",
)
def test_client_types() -> None:
    assert TSC is not None
    result = subprocess.run(
        [TSC, "-p", str(ROOT / "tests" / "js" / "tsconfig.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
