"""The n-ply search agrees with a plain, position-by-position reading of its definition.

The batched search (:meth:`Evaluator._before_roll`) swaps boards, inverts chances,
picks each roll's best reply and sends every leaf to the method of its class
(database, race net, contact net) in one batch.  A slip in any of these (a
perspective flip, a leaf judged by the wrong net, a reply chosen for the wrong
side) shows up here as a difference from the slow loop below, which does each
step with :class:`~gammon.position.Position` objects and single evaluations.
The positions are chosen to cross the class boundaries the search crosses:
contact that breaks into a race on some replies, races that become bear-offs,
bear-offs that end the game, a checker on the bar.
"""

from __future__ import annotations

import numpy as np
import pytest

from gammon.engine.bearoff import is_bearoff_batch
from gammon.engine.encoding import is_contact_boards
from gammon.engine.evaluator import Evaluator, default_evaluator
from gammon.engine.network import equity, invert
from gammon.position import ALL_ROLLS, Position

# Each one puts some of the search's leaves in another class than its root.
POSITIONS = {
    # X's last checker back in O's home board: running it past O breaks contact.
    "contact-to-race": Position.from_points(
        {24: 1, 6: 5, 5: 4, 4: 3, 3: 2}, {7: 1, 6: 5, 5: 4, 4: 3, 3: 2}
    ),
    # No contact, two checkers outside: bringing both home makes a bear-off.
    "race-to-bearoff": Position.from_points(
        {8: 2, 6: 4, 5: 4, 4: 3, 3: 2}, {6: 5, 5: 4, 4: 3, 2: 3}
    ),
    # Both sides home, few checkers left: many replies end the game.
    "bearoff-ending": Position.from_points({2: 1, 1: 2}, {3: 1, 1: 1}, checkers=15),
    # X on the bar against a 4-point board: dancing rolls leave the board unchanged.
    "bar": Position.from_points(
        {25: 1, 13: 4, 8: 3, 6: 5, 4: 2}, {24: 2, 13: 3, 8: 2, 6: 3, 5: 2, 4: 2, 3: 1}
    ),
    "opening": Position.initial(),
}


def _after_value(evaluator: Evaluator, play_position: Position) -> np.ndarray:
    """Chances for the mover of the position they moved to, the slow way."""
    if play_position.winner() is not None:
        board = np.frombuffer(play_position.raw, dtype=np.int8).reshape(1, -1)
        return evaluator.after_play(board, 0)[0]
    theirs = evaluator.evaluate(play_position.swapped(), 0).probabilities
    return invert(np.array(theirs, dtype=np.float32))


def _one_ply_slow(evaluator: Evaluator, position: Position) -> np.ndarray:
    """Average over the 21 rolls of the 0-ply value of the best 0-ply play."""
    total = np.zeros(5)
    for dice, weight in ALL_ROLLS:
        values = [_after_value(evaluator, play.position) for play in position.plays(dice)]
        best = max(values, key=lambda v: float(equity(v)))
        total += weight / 36.0 * best
    return total


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_one_ply_equals_the_slow_definition(name: str) -> None:
    evaluator = default_evaluator()
    position = POSITIONS[name]
    fast = np.array(evaluator.evaluate(position, 1).probabilities)
    slow = _one_ply_slow(evaluator, position)
    assert fast == pytest.approx(slow, abs=2e-6)


def test_the_fixed_positions_cross_the_boundaries() -> None:
    """The positions above really reach leaves of other classes (else the test is moot)."""

    def leaf_classes(position: Position) -> set[str]:
        boards = np.array(
            [
                np.frombuffer(play.position.raw, dtype=np.int8)
                for dice, _ in ALL_ROLLS
                for play in position.plays(dice)
                if play.position.winner() is None
            ]
        )
        bearoff = is_bearoff_batch(boards)
        contact = is_contact_boards(boards)
        return {
            "bearoff" if b else "contact" if c else "race"
            for b, c in zip(bearoff, contact, strict=True)
        }

    assert leaf_classes(POSITIONS["contact-to-race"]) == {"contact", "race"}
    assert leaf_classes(POSITIONS["race-to-bearoff"]) == {"race", "bearoff"}
    ending = POSITIONS["bearoff-ending"]
    assert any(play.position.winner() == 0 for play in ending.plays((2, 2)))


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_after_play_is_the_opponents_view_inverted(name: str) -> None:
    """Every candidate, batch or single, 0- or 1-ply: the mover's chances are the
    opponent's, on roll, turned round."""
    evaluator = default_evaluator()
    position = POSITIONS[name]
    plays = position.plays((6, 3))
    boards = np.array([np.frombuffer(p.position.raw, dtype=np.int8) for p in plays])
    for ply in (0, 1):
        batch = evaluator.after_play(boards, ply)
        for row, play in enumerate(plays):
            after = play.position
            if after.winner() is not None:
                continue
            theirs = np.array(evaluator.evaluate(after.swapped(), ply).probabilities)
            assert batch[row] == pytest.approx(invert(theirs.astype(np.float32)), abs=2e-6)
