"""A table's dice: every roll depends on player entropy, as DICE.md promises (R13)."""

from __future__ import annotations

from gammon.server.fairdice import FairDice, derive_dice
from gammon.server.table import TableDice


def test_a_roll_without_new_entropy_reuses_the_previous_contributions() -> None:
    fair = FairDice(bytes(range(32)))
    dice = TableDice()
    dice.new_game(fair)
    dice.pending.append(b"\x01" * 32)
    first = dice.roll()
    second = dice.roll()  # e.g. an opening tie thrown again within the same action
    records = fair.rolls
    assert records[0].entropy == records[1].entropy == (b"\x01" * 32,)
    assert first == derive_dice(bytes(range(32)), 1, [b"\x01" * 32])
    assert second == derive_dice(bytes(range(32)), 2, [b"\x01" * 32])


def test_a_new_game_forgets_all_entropy() -> None:
    dice = TableDice()
    dice.new_game(FairDice(bytes(range(32))))
    dice.pending.append(b"\x02" * 32)
    dice.roll()
    fresh = FairDice(bytes(32))
    dice.new_game(fresh)
    dice.roll()
    assert fresh.rolls[0].entropy == ()
