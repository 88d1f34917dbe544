"""Data the client's JavaScript is tested on, made by the rules library as the server sends it.

Random games of every variant: each (board, dice, legal plays) a player had to play, and
each game's log with the board (side 0's view) and cube after each play, plus each
variant's starting board as ``/api/info`` gives it. The browser test and the ``node
--test`` unit tests (tests/js/) read the same data.

``python -m tests.server.js_fixtures --small`` writes the few hand-picked cases committed
in tests/js/fixtures/cases.json.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from gammon.dice import RandomDice
from gammon.game import Game, Phase
from gammon.position import Position
from gammon.rules import GameRules
from gammon.server.game_json import board_json, event_json, moves_json
from gammon.variants import VARIANTS

VARIANT_NAMES = ("standard", "nackgammon", "hypergammon", "tavla", "acey-deucey")


def start_boards() -> dict[str, dict[str, Any]]:
    """Each variant's starting board, side 0's view (``/api/info``, VARIANT.board)."""
    return {v.name: board_json(Position.initial(v), 0) for v in VARIANTS}


def random_games(games_per_variant: int = 2) -> dict[str, Any]:
    """``cases``, ``games`` and ``starts`` for random games of every variant."""
    cases: list[dict[str, Any]] = []
    games: list[dict[str, Any]] = []
    for variant in VARIANT_NAMES:
        rng = random.Random(variant)
        for number in range(games_per_variant):
            game = Game(GameRules(variant), dice=RandomDice(f"{variant}{number}"))
            checks: list[dict[str, Any]] = []
            game.roll(0)
            while not game.is_over:
                side = game.turn
                assert side is not None
                if game.phase is Phase.MOVE:
                    plays = game.legal_plays()
                    assert game.dice is not None
                    cases.append(
                        {
                            "variant": variant,
                            "board": board_json(game.position_for(side), side),
                            "dice": list(game.dice),
                            "plays": [
                                {
                                    "play": str(play),
                                    "moves": moves_json(play.moves),
                                    "board": board_json(play.position, side),
                                }
                                for play in plays
                            ],
                        }
                    )
                    game.play(side, rng.choice(plays))
                    checks.append(
                        {
                            "upto": len(game.history),
                            "board": board_json(game.position_for(0), 0),
                            "cube": [game.cube_value, game.cube_owner],
                        }
                    )
                elif game.phase is Phase.CHOOSE_DOUBLE:
                    game.choose_double(side, rng.randint(1, 6))
                elif game.phase is Phase.DOUBLE_OFFERED:
                    game.take(side)
                elif game.can_double(side) and rng.random() < 0.1:
                    game.double(side)
                else:
                    game.roll(side)
            log = [event_json(event, ["ann", "bob"]) for event in game.history]
            games.append({"variant": variant, "log": log, "checks": checks})
    return {"cases": cases, "games": games, "starts": start_boards()}


def _kinds(case: dict[str, Any]) -> set[str]:
    """What a case exercises: doubles, the bar, bearing off, waiting checkers, hits, chains."""
    kinds = {case["variant"]}
    dice = case["dice"]
    if dice[0] == dice[1]:
        kinds.add("doubles")
    if case["board"]["mine"][24]:
        kinds.add("bar")
    if case["board"]["waiting"][0]:
        kinds.add("waiting")
    moves = [m for p in case["plays"] for m in p["moves"]]
    if any(to == 0 for _, to, _ in moves):
        kinds.add("bear-off")
    if any(hit for _, _, hit in moves):
        kinds.add("hit")
    for play in case["plays"]:
        steps = play["moves"]
        if any(steps[i][1] == steps[i + 1][0] for i in range(len(steps) - 1)):
            kinds.add("chain")
    return kinds


def small_fixture() -> dict[str, Any]:
    """A few cases covering every kind, and one whole game, small enough to commit."""
    data = random_games(1)
    chosen: list[dict[str, Any]] = []
    covered: set[str] = set()
    for case in data["cases"]:
        new = _kinds(case) - covered
        if new and len(case["plays"]) <= 40:
            chosen.append(case)
            covered |= new
    game = min(data["games"], key=lambda g: len(g["log"]))
    return {"cases": chosen, "games": [game], "starts": data["starts"]}


if __name__ == "__main__":
    small = "--small" in sys.argv[1:]
    json.dump(small_fixture() if small else random_games(), sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
