#!/usr/bin/env bash
# The main job: installs gammon into .venv on first use, then starts the play
# server on SQLite (gammon.db here) with the bot, and prints its URL.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
stamp=.venv/.installed-run-$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -e "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[server]"
    touch "$stamp"
fi
exec .venv/bin/gammon serve "$@"
