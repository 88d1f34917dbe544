"""Self-play training's parts, on tiny runs: no real training here."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gammon.engine.bearoff import is_bearoff_batch
from gammon.engine.encoding import (
    CONTACT_INPUTS,
    CONTACT_NAMES,
    INPUT_SIZE,
    RACE_INPUTS,
    encode_boards,
    encode_contact,
)
from gammon.engine.network import Network
from gammon.engine.train import (
    Adam,
    Trainer,
    load_checkpoint,
    load_race,
    prime_start,
    random_bearoffs,
    save_checkpoint,
)
from gammon.position import Position

_TRAP = CONTACT_NAMES.index("prime_trap")
_PER_SIDE = len(CONTACT_NAMES)


def test_prime_starts_have_a_prime_with_checkers_behind_it() -> None:
    rng = np.random.default_rng(5)
    boards = np.stack([np.frombuffer(prime_start(rng), dtype=np.int8) for _ in range(50)])
    for board in boards:
        counts = board.tolist()  # a legal position: 15 checkers a side, no shared points
        Position(counts[1:26], counts[28:53])
    x = encode_contact(boards)[:, INPUT_SIZE:]
    trap = np.maximum(x[:, _TRAP], x[:, _PER_SIDE + _TRAP])
    assert np.all(trap >= 4 / 6 - 1e-6)


def test_random_bearoffs_are_bearoffs() -> None:
    boards = random_bearoffs(np.random.default_rng(1), 100)
    assert is_bearoff_batch(boards).all()
    assert (boards[:, :27].sum(axis=1) == 15).all() and (boards[:, 27:].sum(axis=1) == 15).all()


def test_a_widened_net_plays_as_before() -> None:
    net = Network.create(INPUT_SIZE, 16, seed=3)
    wide = net.widened(CONTACT_INPUTS)
    boards = np.frombuffer(Position.initial().raw, dtype=np.int8).reshape(1, 54)
    assert np.allclose(net.forward(encode_boards(boards)), wide.forward(encode_contact(boards)))


def test_a_net_with_more_hidden_units_plays_as_before_and_learns_with_them() -> None:
    net = Network.create(CONTACT_INPUTS, 16, seed=3)
    larger = net.with_hidden(24, seed=4)
    assert larger.hidden == 24
    boards = np.frombuffer(Position.initial().raw, dtype=np.int8).reshape(1, 54)
    assert np.allclose(net.forward(encode_contact(boards)), larger.forward(encode_contact(boards)))
    trainer = Trainer(larger, Adam(), batch=4, seed=1)
    trainer.step()
    assert np.any(larger.w2[16:] != 0)  # the new units have a say after one step


def test_two_nets_train_together_and_resume(tmp_path: Path) -> None:
    net = Network.create(CONTACT_INPUTS, 8, seed=1)
    race = (Network.create(RACE_INPUTS, 8, seed=2), Adam())
    trainer = Trainer(net, Adam(), batch=4, seed=1, race=race, prime_starts=0.5)
    before = net.w1.copy(), race[0].w1.copy()
    for _ in range(3):
        trainer.step()
    assert not np.array_equal(before[0], net.w1)
    assert not np.array_equal(before[1], race[0].w1)  # fitted to bear-offs at least
    path = tmp_path / "checkpoint.npz"
    save_checkpoint(path, net, trainer.opt, 7, race)
    loaded, opt, games = load_checkpoint(path)
    saved_race = load_race(path)
    assert games == 7 and opt.step == trainer.opt.step
    assert np.array_equal(loaded.w1, net.w1)
    assert saved_race is not None and np.array_equal(saved_race[0].w1, race[0].w1)
