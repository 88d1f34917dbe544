#!/usr/bin/env bash
# Type-check the browser client (gammon/server/static/js: `// @ts-check` + JSDoc types)
# with TypeScript, which builds nothing: the client is served as it is. Uses `tsc` from
# PATH, or fetches TypeScript 5 with npx. The test suite runs the same check when tsc is
# installed (tests/server/test_js_units.py; GAMMON_TSC=/path/to/tsc also works).
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v tsc >/dev/null 2>&1; then
    exec tsc -p tests/js/tsconfig.json
fi
exec npx --yes -p typescript@5 tsc -p tests/js/tsconfig.json
