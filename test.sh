#!/usr/bin/env bash
# The whole test suite: lint, types, unit/property/differential tests and doctests.
# Creates .venv and installs gammon with its test dependencies on first use.
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
echo "== ruff"
ruff check gammon bench tests
echo "== mypy --strict"
mypy
echo "== pytest"
exec pytest -n "${PYTEST_WORKERS:-auto}" -q "$@"
