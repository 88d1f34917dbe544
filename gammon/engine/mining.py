"""Positions where the net is wrong: decisions of self-play where 0-ply and a deeper
search disagree, for the supervised rounds' rollouts (issue 18).

Usage::

    python -m gammon.engine.mining [--games 20] [--seed 1] [--ply 2]  # the make-up by class

Why: fitting the net to positions sampled evenly from its own games changed nothing
(TRAINING.md): most of them it already judges well, and the few it misjudges are lost in
the rest. A disagreement between the 0-ply choice and a search is a cheap sign that the
net misreads what follows, so only those decisions are kept, and the positions of the
classes the net is known to misjudge (primes, holding games, back games, crashed boards,
bear-ins against contact) are searched more often than the rest.

The games are the shipped nets' 0-ply self-play with a little exploration (a share of
the plays is one of the next best two, so the games stray into positions the net's own
play avoids), and a share of them starts from a prime (:func:`gammon.engine.train.prime_start`).
Each game draws everything from its own seed (``SeedSequence([seed, game])``), so game
``g``'s decisions are the same whichever games were mined before it: a collection that
stops resumes by re-mining only its last game.

The deeper search is 2-ply: the 0-ply best 8 plays at 1-ply, the best ``keep`` of those at
2-ply (about 0.1 s a decision on one core, against seconds for the rollouts of its plays,
so the deeper and better informed search costs little here).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from gammon.engine.cube import position_class
from gammon.engine.evaluator import Evaluator, default_evaluator, one_blas_thread, require_ours
from gammon.engine.network import equity
from gammon.engine.train import prime_start
from gammon.play import packed_boards
from gammon.position import Position

__all__ = [
    "CLASSES",
    "SEARCH_RATE",
    "Candidate",
    "Decision",
    "judge",
    "mine",
    "mine_game",
    "mining_class",
]

#: The classes of position the miner tells apart, most specific first.
CLASSES = ("prime", "backgame", "holding", "crashed", "bearin", "contact", "race")
#: The share of each class's decisions searched (the rest are only played): the classes
#: the net misjudges most are over-sampled. Bear-offs are never searched (the database).
SEARCH_RATE = {
    "prime": 1.0,
    "backgame": 1.0,
    "holding": 1.0,
    "crashed": 1.0,
    "bearin": 1.0,
    "contact": 0.3,
    "race": 0.15,
}
#: Plays searched at 1-ply before the best few go to 2-ply.
_FIRST_CUT = 8


def _anchors(side: Sequence[int]) -> list[int]:
    """The points a side holds in its opponent's home board (its own 19- to 24-points)."""
    return [p for p in range(19, 25) if side[p - 1] >= 2]


def _pips(side: Sequence[int]) -> int:
    return sum(p * side[p - 1] for p in range(1, 26))


def _backgame(side: Sequence[int], other: Sequence[int]) -> bool:
    """Two or more points held in the opponent's home board, far behind in the race."""
    return len(_anchors(side)) >= 2 and _pips(side) - _pips(other) >= 40


def _holding(side: Sequence[int]) -> bool:
    """One point held on the opponent's 4- to 7-point (own 18 to 21), nothing else back."""
    held = [p for p in range(18, 22) if side[p - 1] >= 2]
    back = [p for p in range(18, 26) if side[p - 1]]
    return len(held) == 1 and back == held


def _bearin(side: Sequence[int]) -> bool:
    """Every checker past the midpoint (on the 1- to 12-points or off), contact left."""
    return not any(side[12:]) and any(side[6:12])


def mining_class(position: Position) -> str:
    """The position's class for mining: ``"bearoff"`` or one of :data:`CLASSES`.

    :func:`gammon.engine.cube.position_class` first (bear-off, race, crashed, prime),
    then, among the other contact positions, a back game (either side), a holding game
    or a bear-in against contact, else ``"contact"``.

    >>> mining_class(Position.initial())
    'contact'
    >>> mining_class(Position.from_points({21: 2, 6: 5, 8: 4, 13: 4}, {6: 6, 5: 3, 8: 3, 13: 3}))
    'holding'
    """
    base = position_class(position)
    if base != "contact":
        return base
    mine, theirs = position.mine, position.theirs
    if _backgame(mine, theirs) or _backgame(theirs, mine):
        return "backgame"
    if _holding(mine) or _holding(theirs):
        return "holding"
    if _bearin(mine) or _bearin(theirs):
        return "bearin"
    return "contact"


@dataclass(frozen=True)
class Candidate:
    """One play of a decision: the position after it (the opponent on roll) and its
    equity for the mover at 0-ply and by the deeper search."""

    position: Position
    zero: float
    deep: float


@dataclass(frozen=True)
class Decision:
    """A decision where 0-ply and the search disagree, with its best plays by the search
    (and the 0-ply choice, when the search does not rank it among them)."""

    game: int
    #: The decision's turn within its game (from 0): with ``game``, its name.
    turn: int
    position: Position
    dice: tuple[int, int]
    kind: str
    candidates: tuple[Candidate, ...]


def judge(
    position: Position,
    dice: tuple[int, int],
    evaluator: Evaluator,
    *,
    ply: int = 2,
    keep: int = 4,
    threshold: float = 0.08,
) -> tuple[Candidate, ...] | None:
    """The candidates of a decision where 0-ply and the ``ply``-deep search disagree (the
    best play differs, or a searched play's two equities differ by more than
    ``threshold``), best by the search first; None where they agree or the play is forced."""
    plays = position.plays(dice)
    if len(plays) < 2:
        return None
    after = np.frombuffer(packed_boards(plays), dtype=np.int8).reshape(-1, 54)
    zero = equity(evaluator.after_play(after, 0))
    first = np.argsort(-zero, kind="stable")[:_FIRST_CUT]
    searched = equity(evaluator.after_play(after[first], 1)) if ply >= 2 else None
    top = first if searched is None else first[np.argsort(-searched, kind="stable")[:keep]]
    deep = equity(evaluator.after_play(after[top], ply))
    order = np.argsort(-deep, kind="stable")
    chosen = int(np.argmax(zero))
    disagree = int(top[order[0]]) != chosen or bool(np.any(np.abs(deep - zero[top]) > threshold))
    if not disagree:
        return None
    rows = [(int(top[i]), float(deep[i])) for i in order]
    if chosen not in top:  # the net's own choice, which it over-rates: searched too
        rows.append((chosen, float(equity(evaluator.after_play(after[[chosen]], ply))[0])))
    return tuple(
        Candidate(plays[i].position.swapped(), float(zero[i]), value) for i, value in rows
    )


def mine_game(
    game: int,
    seed: int,
    evaluator: Evaluator,
    *,
    ply: int = 2,
    keep: int = 4,
    threshold: float = 0.08,
    explore: float = 0.1,
    prime_starts: float = 0.25,
) -> Iterator[Decision]:
    """The decisions of game ``game`` (its own seed, see the module's text) that
    :func:`judge` keeps, in the order they are played."""
    require_ours(evaluator, "mining training positions")
    rng = np.random.default_rng([seed, game])
    opening = rng.random() >= prime_starts
    position = Position.initial() if opening else Position._from_board(prime_start(rng))
    for turn in range(400):
        while True:
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            if not (opening and turn == 0 and dice[0] == dice[1]):
                break
        kind = mining_class(position)
        draw, explored, pick = rng.random(), rng.random(), int(rng.integers(1, 3))
        if kind != "bearoff" and draw < SEARCH_RATE[kind]:
            found = judge(position, dice, evaluator, ply=ply, keep=keep, threshold=threshold)
            if found is not None:
                yield Decision(game, turn, position, dice, kind, found)
        ranked = evaluator.rank_plays(position, dice, 0)
        play = ranked[min(pick, len(ranked) - 1)][0] if explored < explore else ranked[0][0]
        if play.position.winner() is not None:
            return
        position = play.position.swapped()


def mine(
    seed: int, evaluator: Evaluator, *, start: int = 0, ply: int = 2
) -> Iterator[Decision]:
    """The kept decisions of games ``start``, ``start + 1``, ... (without end)."""
    game = start
    while True:
        yield from mine_game(game, seed, evaluator, ply=ply)
        game += 1


def make_up(decisions: Sequence[Decision]) -> str:
    """The decisions and their candidate positions by class, as a line of text."""
    kinds = Counter(d.kind for d in decisions)
    positions: Counter[str] = Counter()
    for d in decisions:
        positions[d.kind] += len(d.candidates)
    total = sum(positions.values()) or 1
    return ", ".join(
        f"{kind} {kinds[kind]} ({positions[kind]}, {positions[kind] / total:.0%})"
        for kind in CLASSES
        if kinds[kind]
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Mine decisions where the net is wrong.")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ply", type=int, default=2)
    args = parser.parse_args(argv)
    one_blas_thread()
    evaluator = default_evaluator()
    found = [
        d for g in range(args.games) for d in mine_game(g, args.seed, evaluator, ply=args.ply)
    ]
    print(f"{len(found)} decisions from {args.games} games, by class (positions, share):")
    print(make_up(found))


if __name__ == "__main__":
    main()
