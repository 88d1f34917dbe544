#!/usr/bin/env bash
# The rules library installs and plays on its own: `pip install .` without extras
# into a fresh virtualenv, then a whole game with no web stack or engine installed.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(mktemp -d)/core
trap 'rm -rf "$(dirname "$venv")"' EXIT
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet .
cd "$(dirname "$venv")"  # away from the source tree, so the installed package is the one imported
"$venv/bin/python" - <<'PY'
import importlib.util

from gammon import Match, RandomDice, SeriesRules
from gammon.actions import PlayDice, Roll

for name in ("starlette", "sqlalchemy", "psycopg", "uvicorn", "websockets", "threadpoolctl", "rich"):
    assert importlib.util.find_spec(name) is None, f"{name} was installed with the rules library"

match = SeriesRules(length=3).new_series(RandomDice(1))
assert isinstance(match, Match)
while not match.is_over:
    game = match.game
    if game.is_over:
        match.new_game()
        continue
    side = game.turn if game.turn is not None else 0
    actions = match.legal_actions(side)
    plays = [action for action in actions if isinstance(action, PlayDice)]
    match.apply(plays[0] if plays else Roll(side))
print(f"the rules library alone: a 3-point match played to {match.score[0]}-{match.score[1]}")

# The game log in the players' languages: the catalogs (package data) came with the library.
from gammon.events import Rolled, describe

finnish = describe(Rolled(0, (6, 4)), ("anna", "ben"), lang="fi")
assert finnish == "anna heittää 6-4", f"the Finnish catalog is missing: {finnish!r}"
print(f"the game log in Finnish: {finnish}")
PY
