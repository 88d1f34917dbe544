"""The compiled 0-ply pass against its definition in NumPy, on random boards of every class."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.engine.bearoff import bearoff_probabilities_batch, is_bearoff_batch, sure_to_finish
from gammon.engine.encoding import INPUT_SIZE, encoder_for, is_contact_boards
from gammon.engine.evaluator import Evaluator, default_evaluator, swap_boards, won_outcome
from gammon.engine.network import Network, invert

_SIDE = 27
#: How far back a side's checkers may stand: home only, a race, contact, the bar.
_TOPS = (6, 6, 9, 12, 18, 24, 25)


def _net_values(evaluator: Evaluator, boards: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
    """Race net for races (when there is one), contact net for the rest."""
    nets = [(evaluator.network, np.ones(len(boards), dtype=bool))]
    if evaluator.race is not None:
        contact = is_contact_boards(boards)
        nets = [(evaluator.network, contact), (evaluator.race, ~contact)]
    out = np.empty((boards.shape[0], 5), dtype=np.float32)
    for net, rows in nets:
        if rows.any():
            out[rows] = net.forward(encoder_for(net.inputs)(boards[rows]))
    return out


def on_roll_reference(
    evaluator: Evaluator, boards: npt.NDArray[np.int8]
) -> npt.NDArray[np.float32]:
    """``Evaluator.on_roll`` as masks over the batch, each class to its method."""
    out = np.empty((boards.shape[0], 5), dtype=np.float32)
    lost = boards[:, _SIDE] == boards[:, :_SIDE].sum(axis=1)  # opponent bore off all
    if lost.any():
        out[lost] = invert(won_outcome(swap_boards(boards[lost])))
    live = ~lost
    if evaluator.bearoff and live.any():
        exact = live & is_bearoff_batch(boards)
        if exact.any():
            out[exact] = bearoff_probabilities_batch(boards[exact])
            live &= ~exact
        certain = live & sure_to_finish(boards)
        if certain.any():
            out[certain] = won_outcome(boards[certain])
            live &= ~certain
    if live.any():
        out[live] = _net_values(evaluator, boards[live])
    return out


def after_play_reference(
    evaluator: Evaluator, boards: npt.NDArray[np.int8]
) -> npt.NDArray[np.float32]:
    """``Evaluator.after_play`` at 0-ply: the mover's won games, else the reply's chances turned."""
    out = np.empty((boards.shape[0], 5), dtype=np.float32)
    won = boards[:, 0] == boards[:, :_SIDE].sum(axis=1)
    if won.any():
        out[won] = won_outcome(boards[won])
    if (~won).any():
        out[~won] = invert(on_roll_reference(evaluator, swap_boards(boards[~won])))
    return out


def random_boards(seed: int, n: int = 48) -> npt.NDArray[np.int8]:
    """Boards of 15 checkers a side, spread from home only to the bar, some borne off.

    Every class turns up: finished games, bear-offs, games won this roll, races and
    contact, with blots, points and checkers on the bar.
    """
    rng = np.random.default_rng(seed)
    boards = np.zeros((n, 2 * _SIDE), dtype=np.int8)
    for row in range(n):
        for base in (0, _SIDE):
            off = int(rng.choice([0, 0, rng.integers(0, 16), 13, 14, 14, 15]))
            boards[row, base] = off
            top = int(rng.choice(_TOPS))
            for _ in range(15 - off):
                boards[row, base + rng.integers(1, top + 1)] += 1
        # A point belongs to one side: the opponent's checker there is taken off instead.
        for p in range(1, 25):
            extra = boards[row, _SIDE + 25 - p]
            if boards[row, p] and extra:
                boards[row, _SIDE + 25 - p] = 0
                boards[row, _SIDE] += extra
    return boards


def _evaluators() -> dict[str, Evaluator]:
    shipped = default_evaluator()
    raw = Network.create(INPUT_SIZE, 16, seed=3)
    return {
        "shipped": shipped,
        "no race net": Evaluator(shipped.network, race=None),
        "no database": Evaluator(shipped.network, race=shipped.race, bearoff=False),
        "raw inputs": Evaluator(raw, race=shipped.race),
    }


_EVALUATORS = _evaluators()


@pytest.mark.parametrize("name", sorted(_EVALUATORS))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_on_roll_and_after_play_match_the_numpy_definition(name: str, seed: int) -> None:
    evaluator = _EVALUATORS[name]
    boards = random_boards(seed)
    np.testing.assert_allclose(
        evaluator.on_roll(boards), on_roll_reference(evaluator, boards), rtol=0, atol=2e-6
    )
    np.testing.assert_allclose(
        evaluator.after_play(boards, 0), after_play_reference(evaluator, boards), rtol=0, atol=2e-6
    )


def test_the_random_boards_cover_every_class() -> None:
    boards = np.concatenate([random_boards(seed) for seed in range(10)])
    live = boards[:, _SIDE] != boards[:, :_SIDE].sum(axis=1)
    bearoff = is_bearoff_batch(boards)
    certain = live & ~bearoff & sure_to_finish(boards)
    contact = is_contact_boards(boards)
    assert (~live).sum() >= 10
    assert bearoff.sum() >= 10
    assert certain.sum() >= 10
    assert (live & ~bearoff & ~certain & ~contact).sum() >= 10  # races
    assert (live & contact).sum() >= 10
    assert (boards[:, 25] > 0).sum() >= 10  # on the bar


def test_an_empty_batch() -> None:
    empty = np.zeros((0, 2 * _SIDE), dtype=np.int8)
    assert default_evaluator().on_roll(empty).shape == (0, 5)
    assert default_evaluator().after_play(empty, 0).shape == (0, 5)
