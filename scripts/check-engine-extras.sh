#!/usr/bin/env bash
# Each optional engine installs and judges on its own: `pip install '.[gnubg]'` and
# `pip install '.[sage]'`, each alone in a fresh virtualenv, then `gammon hint --engine`
# with it, and the other engine's absence said as the extra to install (issue 18).
set -euo pipefail
cd "$(dirname "$0")/.."
source_tree=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check() {
    local extra=$1 module=$2 other=$3
    local venv="$work/$extra"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet "$source_tree[$extra]"
    (
        cd "$work"  # away from the source tree, so the installed package is the one imported
        "$venv/bin/python" - "$module" <<'PY'
import importlib.util
import sys

for name in ("starlette", "sqlalchemy", "uvicorn", "ray", "pytest"):
    assert importlib.util.find_spec(name) is None, f"{name} came with an engine extra"
assert importlib.util.find_spec(sys.argv[1]) is not None, f"{sys.argv[1]} is missing"
PY
        out=$("$venv/bin/gammon" hint 4HPwATDgc/ABMA --dice 31 --limit 1 --engine "$extra")
        echo "$out" | grep -q "ranked at 0-ply by the $extra engine" \
            || { echo "gammon hint --engine $extra said: $out" >&2; exit 1; }
        if "$venv/bin/gammon" hint start --engine "$other" 2>"$work/err"; then
            echo "--engine $other worked without its extra" >&2
            exit 1
        fi
        grep -q "pip install 'gammon\[$other\]'" "$work/err" \
            || { echo "--engine $other without its extra said: $(cat "$work/err")" >&2; exit 1; }
        echo "gammon[$extra] alone: $(echo "$out" | sed -n 2p | sed 's/  */ /g')"
    )
}
check gnubg gnubg_nn sage
check sage bgsage gnubg
