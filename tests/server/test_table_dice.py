"""A table's dice: every roll depends on player entropy, as DICE.md promises (R13)."""

from __future__ import annotations

from gammon.server.fairdice import FairDice, FairDiceSource, derive_dice


def test_a_roll_without_new_entropy_reuses_the_previous_contributions() -> None:
    fair = FairDice(bytes(range(32)))
    dice = FairDiceSource()
    dice.new_game(fair)
    dice.add_entropy(b"\x01" * 32)
    first = dice.roll()
    second = dice.roll()  # e.g. an opening tie thrown again within the same action
    records = fair.rolls
    assert records[0].entropy == records[1].entropy == (b"\x01" * 32,)
    assert first == derive_dice(bytes(range(32)), 1, [b"\x01" * 32])
    assert second == derive_dice(bytes(range(32)), 2, [b"\x01" * 32])


def test_a_new_game_forgets_all_entropy() -> None:
    dice = FairDiceSource()
    dice.new_game(FairDice(bytes(range(32))))
    dice.add_entropy(b"\x02" * 32)
    dice.roll()
    fresh = FairDice(bytes(32))
    dice.new_game(fresh)
    dice.roll()
    assert fresh.rolls[0].entropy == ()


def test_entropy_of_a_refused_action_is_never_used() -> None:
    fair = FairDice(bytes(range(32)))
    dice = FairDiceSource(fair)
    dice.add_entropy(b"\x03" * 32)
    dice.roll()
    saved = dice.checkpoint()
    dice.add_entropy(b"\x04" * 32)  # came with an action the rules refused
    dice.rollback(saved)
    assert dice.pending == () and dice.last == (b"\x03" * 32,)
    dice.roll()
    assert fair.rolls[1].entropy == (b"\x03" * 32,)
