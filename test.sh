#!/usr/bin/env bash
# The whole test suite: lint, types, the rules library installed alone, unit/property/differential tests, doctests,
# the server on SQLite and on PostgreSQL, and the browser tests.
# Creates .venv and installs gammon with its test dependencies on first use;
# installs Debian's chromium and postgresql too when run as root (scripts/system-deps.sh).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
stamp=.venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -e "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[test]"
    touch "$stamp"
fi
. .venv/bin/activate
postgres_url=${GAMMON_TEST_DATABASE_URL:-$(bash scripts/system-deps.sh)}
# The tests of several nodes use this Redis (scripts/system-deps.sh starts it); without it
# they start a redis-server of their own, or are skipped when there is none.
redis_url=${GAMMON_TEST_REDIS_URL:-}
if [ -z "$redis_url" ] && command -v redis-cli >/dev/null 2>&1 \
    && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    redis_url=redis://127.0.0.1:6379/0
fi
# GAMMON_JUNIT_DIR: each pytest phase also writes a JUnit report there (scripts/flakiness.py
# reads them); GAMMON_TESTS_ONLY=1 leaves out the lint, type and install checks.
junit() {
    if [ -n "${GAMMON_JUNIT_DIR:-}" ]; then echo "--junitxml=$GAMMON_JUNIT_DIR/$1.xml"; fi
}
# The slowest 20 tests of each phase are printed at its end (issue 21: none over 30 s
# without a reason).
durations=--durations=20
if [ -z "${GAMMON_TESTS_ONLY:-}" ]; then
    echo "== ruff"
    ruff check gammon bench tests scripts
    echo "== mypy --strict"
    mypy
    if command -v npx >/dev/null 2>&1; then
        echo "== the browser client's types (tsc --checkJs)"
        bash scripts/check-js-types.sh
    fi
    echo "== the rules library alone (pip install . without extras)"
    bash scripts/check-core-install.sh
    echo "== each engine extra alone (pip install '.[gnubg]', '.[sage]')"
    bash scripts/check-engine-extras.sh
fi
echo "== pytest (SQLite)"
env -u GAMMON_TEST_DATABASE_URL pytest -n "${PYTEST_WORKERS:-auto}" -q $durations $(junit sqlite) "$@"
if [ -n "$postgres_url" ]; then
    # The server's own tests again on PostgreSQL; the browser tests (clients of the same
    # server code) and the JavaScript units (no database) ran once above, on SQLite.
    echo "== pytest: the server on PostgreSQL"
    GAMMON_TEST_DATABASE_URL="$postgres_url" GAMMON_TEST_REDIS_URL="$redis_url" pytest -n "${PYTEST_WORKERS:-auto}" -q $durations $(junit postgresql) \
        tests/server --ignore-glob='tests/server/test_browser*.py' \
        --ignore=tests/server/test_js_units.py \
        --ignore=tests/server/test_nodes.py --ignore=tests/server/test_nodes_work.py "$@"
    # Three server processes each, with leases of 2 s: one at a time, so a busy
    # machine does not starve a node into losing its leases.
    echo "== pytest: several nodes (PostgreSQL and Redis), one test at a time"
    GAMMON_TEST_DATABASE_URL="$postgres_url" GAMMON_TEST_REDIS_URL="$redis_url" pytest -q $durations $(junit nodes) \
        tests/server/test_nodes.py tests/server/test_nodes_work.py "$@"
else
    echo "== PostgreSQL not available: the server suite ran on SQLite only"
fi
