"""What a long series costs an action: the series calls a server makes on every action.

A server asks the series, on every action, whether it is over, what each side may
do, its Match ID and its score. These should cost the same at the 300th game of a
money session as at the first: the series keeps a running score of the finished
games instead of summing them on every call. Prints microseconds for those calls
at several game numbers and the ratio to the first game.

    python -m bench.series [--games 1,100,300] [--repeat 2000]
"""

from __future__ import annotations

import argparse
import timeit

from gammon.dice import RandomDice
from gammon.game import Phase
from gammon.match import Match, Session


def _series_at(kind: str, number: int) -> Match | Session:
    """A series whose current game is game ``number`` (the earlier ones resigned)."""
    series: Match | Session = (
        Session(dice=RandomDice(number))
        if kind == "money"
        else Match(32_767, dice=RandomDice(number))
    )
    while series.game_number < number:
        game = series.game
        if game.phase is Phase.OPENING:
            game.roll(0)
        loser = series.game_number % 2
        game.resign(loser, 1)
        game.accept_resignation(1 - loser)
        series.new_game()
    return series


def _per_action_us(series: Match | Session, repeat: int) -> float:
    def calls() -> None:
        _ = series.is_over, series.score, series.id
        series.legal_action_names(0)
        series.legal_action_names(1)

    return 1e6 * timeit.timeit(calls, number=repeat) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1,100,300", help="game numbers, comma-separated")
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    numbers = [int(n) for n in args.games.split(",")]
    for kind in ("money", "match"):
        first = None
        for number in numbers:
            us = _per_action_us(_series_at(kind, number), args.repeat)
            first = first or us
            print(
                f"{kind:5} game {number:4}: {us:6.1f} us, one action's series calls "
                f"({us / first:.2f}x game {numbers[0]})"
            )


if __name__ == "__main__":
    main()
