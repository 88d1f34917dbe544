#!/usr/bin/env bash
# Debian packages the tests use: chromium (browser tests, driven by Playwright),
# nodejs (`node --test`: the browser client's unit tests, tests/js/), postgresql
# (the server suite runs on it as well as on SQLite) and gnubg (GNU Backgammon, a test-only
# tool: tests/test_sgf.py round-trips .mat and .sgf files through it; Debian installs it in
# /usr/games) and redis-server (the tests of several server nodes, tests/server/test_nodes.py).
# Installs what is missing when run as root with apt-get; otherwise says what to
# install.  Then starts PostgreSQL and Redis (on 127.0.0.1:6379, nothing saved to disk) and
# prints the test database URL on stdout (and nothing else there: test.sh reads it).
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v node >/dev/null 2>&1 || need+=(nodejs)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
command -v gnubg >/dev/null 2>&1 || [ -x /usr/games/gnubg ] || need+=(gnubg)
# Redis is installed with the others, but its absence alone skips only the several-node tests.
redis=()
command -v redis-server >/dev/null 2>&1 || redis=(redis-server)
if [ $((${#need[@]} + ${#redis[@]})) -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing ${need[*]} ${redis[*]} (apt-get)" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" "${redis[@]}" >&2
    elif [ ${#need[@]} -gt 0 ]; then
        echo "missing Debian packages: ${need[*]} ${redis[*]} (browser, JS unit, PostgreSQL and GNU Backgammon round-trip tests will be skipped)" >&2
        exit 0
    else
        echo "missing Debian package: redis-server (the tests of several server nodes will be skipped)" >&2
    fi
fi
# Start PostgreSQL (a cluster of Debian's newest installed version) if it is not running.
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h 2>/dev/null | grep -q "^$version main .* online"; then
    if ! pg_lsclusters -h 2>/dev/null | grep -q "^$version main "; then
        pg_createcluster "$version" main >&2
    fi
    pg_ctlcluster "$version" main start >&2
fi
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='gammon'\"" | grep -q 1 \
    || su postgres -c "psql -qc \"CREATE ROLE gammon LOGIN SUPERUSER PASSWORD 'gammon'\"" >&2
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='gammon_test'\"" | grep -q 1 \
    || su postgres -c "createdb -O gammon gammon_test" >&2
# Start Redis for the tests if nothing answers on its port (Debian's service may be off).
if command -v redis-server >/dev/null 2>&1 && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no --daemonize yes >&2
fi
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
echo "postgresql+psycopg://gammon:gammon@127.0.0.1:${port}/gammon_test"
