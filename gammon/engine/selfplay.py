"""One cubeless game between two players: the loop that benchmarks and training share.

Deliberately minimal (no cube, no resignation, no match score): it is what a
bot needs to measure itself or to generate positions, not the rules engine
for people (that is :mod:`gammon.game`).  The dice come from a
:class:`random.Random` handed in, so a game is repeated exactly by handing in
an equally seeded one, which is what duplicate play needs.

>>> import random
>>> from gammon.engine.pubeval import PubevalPlayer
>>> from gammon.engine.player import RandomPlayer
>>> result = play_game(PubevalPlayer(), RandomPlayer(seed=1), random.Random(5))
>>> result.winner, result.value in (1, 2, 3)
(0, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gammon.engine.player import Player
from gammon.errors import IllegalActionError, IllegalPlayError
from gammon.play import Play
from gammon.position import Dice, Position
from gammon.variants import Variant, find_variant

__all__ = ["GameResult", "opening_roll", "play_game"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended, from the side of ``player_a`` (the first player passed in)."""

    #: 0 if ``player_a`` won, 1 if ``player_b`` did.
    winner: int
    #: 1, 2 or 3: single, gammon, backgammon (R9), capped by the variant (R14).
    value: int
    #: Who won the opening roll and moved first (0 = ``player_a``).
    first: int
    #: Plays made, the opening one and lost turns included.
    turns: int
    #: Every play in order when recorded (``record=True``); turn ``i`` belongs to
    #: ``first`` when ``i`` is even.  ``play.start`` is the position before it,
    #: ``play.position`` the one after, both seen from the mover.
    plays: tuple[Play, ...] = ()

    @property
    def points(self) -> int:
        """What ``player_a`` won (positive) or lost (negative), cube at 1."""
        return self.value if self.winner == 0 else -self.value


def opening_roll(dice_rng: random.Random) -> tuple[int, Dice]:
    """Roll one die each until they differ (R3): who moves first (0 = A) and the roll.

    >>> opening_roll(random.Random(0))
    (1, (3, 1))
    """
    while True:
        die_a, die_b = dice_rng.randint(1, 6), dice_rng.randint(1, 6)
        if die_a != die_b:
            break
    if die_a > die_b:
        return 0, (die_a, die_b)
    return 1, (die_b, die_a)


def play_game(
    player_a: Player,
    player_b: Player,
    dice_rng: random.Random,
    *,
    variant: str | Variant = "standard",
    record: bool = False,
) -> GameResult:
    """Play one cubeless game to the end and score it (R3, R9).

    The higher opening die moves first with both opening dice; then the
    players alternate, each rolling two dice from ``dice_rng``.  Every play a
    player returns must come from ``position.plays(dice)`` (checked cheaply:
    same start and same roll).

    Acey-deucey is refused: its 1-2 bonus (R14) is game-level logic this loop
    does not have.
    """
    rules = find_variant(variant)
    if rules.acey_deucey:
        raise IllegalActionError(
            "self-play does not implement acey-deucey's 1-2 bonus; choose another variant"
        )
    players = (player_a, player_b)
    mover, dice = opening_roll(dice_rng)
    first = mover
    position = Position.initial(rules)
    history: list[Play] = []
    turns = 0
    while True:
        play = players[mover].choose_play(position, dice)
        if play.start != position or sorted(play.dice) != sorted(dice):
            raise IllegalPlayError(
                f"{players[mover].name} returned {play!r}, which is not a play of "
                f"{dice[0]}-{dice[1]} from {position!r}"
            )
        turns += 1
        if record:
            history.append(play)
        after = play.position
        if after.winner() is not None:
            # Only the mover can finish the game by bearing off (R9).
            return GameResult(
                winner=mover,
                value=rules.win_value(after.win_value()),
                first=first,
                turns=turns,
                plays=tuple(history),
            )
        position = after.swapped()
        mover = 1 - mover
        dice = (dice_rng.randint(1, 6), dice_rng.randint(1, 6))
