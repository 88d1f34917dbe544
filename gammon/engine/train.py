"""Training the evaluation network by self-play, TD(0), many games in lockstep.

Usage::

    python -m gammon.engine.train --games 200000 --checkpoint training/td.npz

Each step advances every game in a batch by one turn: all candidate plays of
all games are encoded and evaluated in one matrix product, each game takes the
play with the best equity for the side that moves, and the network is moved one
gradient step toward those choices' values (the next position's estimate, seen
from the mover; the true result when the play ends the game).  Evaluating
hundreds of games at once keeps NumPy busy instead of Python, which is what
makes tens of thousands of games an hour possible on one CPU core.

With ``--race`` a second net learns the races (positions without contact)
from the same games, each net from its own class of positions, and each
position's target comes from the method that judges its class (the race net,
the contact net, or the bear-off database), as in play.  ``--start-from``
begins from trained weights, widened to the richer encoding with the new
inputs weighted zero, so the run starts from the old net's play and learns
what the new inputs add.

The checkpoint holds the weights, the optimiser's state and the count of games
played, and is rewritten every ``--save-every`` games, so a stopped run resumes
where it was by running the same command again.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gammon import movegen
from gammon.engine.bearoff import bearoff_probabilities_batch, is_bearoff_batch
from gammon.engine.encoding import (
    CONTACT_INPUTS,
    INPUT_SIZE,
    RACE_INPUTS,
    encoder_for,
    is_contact_boards,
)
from gammon.engine.evaluator import Evaluator, one_blas_thread, swap_boards
from gammon.engine.network import Network, equity
from gammon.position import Position

__all__ = ["Trainer", "main", "prime_start", "random_bearoffs"]

_SIDE = 27
_BOARD = 54
FloatArray = npt.NDArray[np.float32]


@dataclass
class Adam:
    """Adam's running moments for each weight array (Kingma & Ba, 2015)."""

    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    step: int = 0
    moments: dict[str, tuple[FloatArray, FloatArray]] = field(default_factory=dict)

    def update(self, name: str, weights: FloatArray, grad: FloatArray) -> None:
        m, v = self.moments.get(name, (np.zeros_like(weights), np.zeros_like(weights)))
        m = self.beta1 * m + (1 - self.beta1) * grad
        v = self.beta2 * v + (1 - self.beta2) * grad * grad
        self.moments[name] = (m, v)
        m_hat = m / (1 - self.beta1**self.step)
        v_hat = v / (1 - self.beta2**self.step)
        weights -= (self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


def train_step(net: Network, opt: Adam, x: FloatArray, target: FloatArray) -> float:
    """One gradient step of cross-entropy between the net's outputs and ``target``."""
    hidden = 1.0 / (1.0 + np.exp(-(x @ net.w1 + net.b1)))
    out = 1.0 / (1.0 + np.exp(-(hidden @ net.w2 + net.b2)))
    delta_out = (out - target) / x.shape[0]
    delta_hidden = (delta_out @ net.w2.T) * hidden * (1.0 - hidden)
    opt.step += 1
    opt.update("w2", net.w2, (hidden.T @ delta_out).astype(np.float32))
    opt.update("b2", net.b2, delta_out.sum(axis=0).astype(np.float32))
    opt.update("w1", net.w1, (x.T @ delta_hidden).astype(np.float32))
    opt.update("b1", net.b1, delta_hidden.sum(axis=0).astype(np.float32))
    return float(np.mean((out - target) ** 2))


#: Random bear-off positions the race net learns from the database each step.
BEAROFF_SAMPLES = 32


def random_bearoffs(rng: np.random.Generator, count: int) -> npt.NDArray[np.int8]:
    """``count`` random bear-off boards: each side 1-15 checkers spread over its home board."""
    boards = np.zeros((count, _BOARD), dtype=np.int8)
    for base in (0, _SIDE):
        left = rng.integers(1, 16, size=count)
        for row in range(count):
            points = rng.multinomial(left[row], rng.dirichlet(np.ones(6)))
            boards[row, base + 1 : base + 7] = points
            boards[row, base] = 15 - left[row]
    return boards


def prime_start(rng: np.random.Generator) -> bytes:
    """A random prime-versus-trapped-checkers position, either side on roll (54 bytes).

    Self-play from the opening rarely builds a long prime with checkers behind
    it, so a net trained on it alone misjudges them (issue 8: 77% wins for a
    side whose last checker is stuck behind a six-prime).  Games started here
    teach the net what such positions come to under its own play.  One side
    holds a prime of 4 to 6 points somewhere on its 2- to 12-points; the other
    has 1 to 3 checkers on the points just behind it (up to three points below
    it on the holder's numbering, or on the bar) and the rest on its own side of
    the board.
    """
    while True:
        length = int(rng.integers(4, 7))
        front = int(rng.integers(2, 13 - length + 1))
        holder = [0] * 25  # points 1-24, then the bar, on the holder's numbering
        trapped = [0] * 25
        for p in range(front, front + length):
            holder[p - 1] = 2 + int(rng.random() < 0.25)
        # The trapped side moves up the holder's numbering: behind the prime is below it.
        behind = list(range(max(1, front - 3), front))
        caught = int(rng.integers(1, 4))
        for _ in range(caught):
            if rng.random() < 0.15:
                trapped[24] += 1  # on the bar
            else:
                p = int(rng.choice(behind))
                trapped[25 - p - 1] += 1  # the holder's point p is the trapped side's 25 - p
        for _ in range(15 - sum(holder)):
            while True:  # the rest of the holder's checkers: home, prime, or just outside
                p = int(rng.integers(1, min(front + length + 6, 24) + 1))
                if trapped[25 - p - 1] == 0:
                    holder[p - 1] += 1
                    break
        for _ in range(15 - sum(trapped)):
            while True:  # the rest of the trapped side: its home board and outfield
                q = int(rng.integers(1, 13))
                if holder[25 - q - 1] == 0:
                    trapped[q - 1] += 1
                    break
        try:
            mine, theirs = (holder, trapped) if rng.random() < 0.5 else (trapped, holder)
            position = Position(mine, theirs)
        except ValueError:
            continue
        if position.winner() is None:
            return position._board


class Trainer:
    """Self-play TD(0) over a batch of games played in lockstep."""

    def __init__(
        self,
        net: Network,
        opt: Adam,
        *,
        batch: int,
        seed: int,
        race: tuple[Network, Adam] | None = None,
        prime_starts: float = 0.0,
    ) -> None:
        self.net = net
        #: The share of games started from :func:`prime_start` instead of the opening.
        self.prime_starts = prime_starts
        self.opt = opt
        #: The race net and its optimiser, when races have their own net.
        self.race = race
        self.evaluator = Evaluator(net, race=race[0] if race else None)
        self.race_loss = 0.0
        self.batch = batch
        self.rng = np.random.default_rng(seed)
        start = Position.initial()._board
        self.start = start
        self.boards: list[bytes] = [start] * batch
        self.first = [True] * batch
        self.finished = 0
        self.loss = 0.0

    def _roll(self, first: bool) -> tuple[int, int]:
        while True:
            d1, d2 = (int(v) for v in self.rng.integers(1, 7, size=2))
            if not first or d1 != d2:  # R3: the opening roll is never a double.
                return d1, d2

    def step(self) -> None:
        """Advance every game one turn and learn from the choices made."""
        candidates: list[bytes] = []
        counts: list[int] = []
        for index, board in enumerate(self.boards):
            dice = self._roll(self.first[index])
            self.first[index] = False
            boards, _moves, count, _used = movegen.generate(board, *dice)
            candidates.append(boards)
            counts.append(count)
        after = np.frombuffer(b"".join(candidates), dtype=np.int8).reshape(-1, _BOARD)
        # Exact where the game ends or both sides bear off, the net elsewhere.
        values = self.evaluator.after_play(after, 0)
        won = after[:, 0] == 15
        scores = equity(values)
        offsets = np.concatenate(([0], np.cumsum(counts)))
        chosen = np.array(
            [
                offsets[i] + int(np.argmax(scores[offsets[i] : offsets[i + 1]]))
                for i in range(self.batch)
            ]
        )
        before = np.frombuffer(b"".join(self.boards), dtype=np.int8).reshape(-1, _BOARD)
        # Bear-offs are the database's job; the nets learn the rest, each its class.
        learn = ~is_bearoff_batch(before)
        if self.race is not None:
            race = learn & ~is_contact_boards(before)
            learn &= ~race
            # The race net also sees random bear-offs with the database's figures, so
            # its answers join the database's where the race ends.
            exact = random_bearoffs(self.rng, BEAROFF_SAMPLES)
            race_boards = np.concatenate([before[race], exact])
            targets = np.concatenate(
                [values[chosen[race]], bearoff_probabilities_batch(exact).astype(np.float32)]
            )
            net, opt = self.race
            self.race_loss = train_step(net, opt, encoder_for(net.inputs)(race_boards), targets)
        if learn.any():
            x = encoder_for(self.net.inputs)(before[learn])
            self.loss = train_step(self.net, self.opt, x, values[chosen[learn]])
        next_boards = swap_boards(after[chosen])
        for index in range(self.batch):
            if won[chosen[index]]:
                if self.prime_starts and self.rng.random() < self.prime_starts:
                    self.boards[index] = prime_start(self.rng)
                    self.first[index] = False
                else:
                    self.boards[index] = self.start
                    self.first[index] = True
                self.finished += 1
            else:
                self.boards[index] = next_boards[index].tobytes()


def _net_arrays(net: Network, opt: Adam, prefix: str) -> dict[str, npt.NDArray[np.generic]]:
    arrays: dict[str, npt.NDArray[np.generic]] = {
        f"{prefix}w1": net.w1,
        f"{prefix}b1": net.b1,
        f"{prefix}w2": net.w2,
        f"{prefix}b2": net.b2,
        f"{prefix}adam_step": np.array(opt.step),
        f"{prefix}lr": np.array(opt.lr),
    }
    for name, (m, v) in opt.moments.items():
        arrays[f"{prefix}m_{name}"] = m
        arrays[f"{prefix}v_{name}"] = v
    return arrays


def save_checkpoint(
    path: Path,
    net: Network,
    opt: Adam,
    games: int,
    race: tuple[Network, Adam] | None = None,
) -> None:
    """Write the contact net (and the race net, keys ``race_*``) with their optimisers."""
    arrays = _net_arrays(net, opt, "")
    arrays["games"] = np.array(games)
    if race is not None:
        arrays.update(_net_arrays(*race, "race_"))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
    tmp.replace(path)


def _load_net(data: np.lib.npyio.NpzFile, prefix: str) -> tuple[Network, Adam]:
    net = Network(*(data[f"{prefix}{name}"] for name in ("w1", "b1", "w2", "b2")))
    opt = Adam(lr=float(data[f"{prefix}lr"]), step=int(data[f"{prefix}adam_step"]))
    for name in ("w1", "b1", "w2", "b2"):
        if f"{prefix}m_{name}" in data:
            opt.moments[name] = (data[f"{prefix}m_{name}"], data[f"{prefix}v_{name}"])
    return net, opt


def load_checkpoint(path: Path) -> tuple[Network, Adam, int]:
    """The contact net, its optimiser and the games played (see :func:`load_race`)."""
    with np.load(path) as data:
        net, opt = _load_net(data, "")
        return net, opt, int(data["games"])


def load_race(path: Path) -> tuple[Network, Adam] | None:
    """The checkpoint's race net and its optimiser, if it has one."""
    with np.load(path) as data:
        return _load_net(data, "race_") if "race_w1" in data else None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Train the evaluation net by self-play TD(0).")
    parser.add_argument("--games", type=int, default=0, help="total games to reach")
    parser.add_argument("--checkpoint", type=Path, default=Path("training/td.npz"))
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--batch", type=int, default=128, help="games played in lockstep")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument(
        "--lr-after",
        action="append",
        default=[],
        metavar="GAMES:LR",
        help="use learning rate LR from GAMES games on (repeatable), e.g. 140000:3e-4",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--inputs",
        choices=("raw", "contact"),
        default="raw",
        help="encoding of a new contact net (see gammon.engine.encoding)",
    )
    parser.add_argument("--race", action="store_true", help="train a separate race net too")
    parser.add_argument(
        "--start-from",
        type=Path,
        metavar="WEIGHTS",
        help="begin a new run from these weights, widened to --inputs (and to the race inputs)",
    )
    parser.add_argument(
        "--start-race",
        type=Path,
        metavar="WEIGHTS",
        help="with --start-from and --race: begin the race net from these weights",
    )
    parser.add_argument(
        "--prime-starts",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="start this share of games from a random prime position (see prime_start)",
    )
    parser.add_argument("--save-every", type=int, default=5000)
    parser.add_argument(
        "--export",
        type=Path,
        metavar="WEIGHTS",
        help="only write the checkpoint's network to WEIGHTS (gammon/engine/weights/*.npz)",
    )
    parser.add_argument(
        "--export-race", type=Path, metavar="WEIGHTS", help="with --export: the race net's file"
    )
    return parser


def _export(args: argparse.Namespace) -> None:
    """Write the checkpoint's network (and its race net, with --export-race) as weights."""
    net, _opt, games = load_checkpoint(args.checkpoint)
    args.export.parent.mkdir(parents=True, exist_ok=True)
    net.save(args.export)
    print(f"exported the network after {games} games to {args.export}")
    race_saved = load_race(args.checkpoint)
    if args.export_race and race_saved is not None:
        race_saved[0].save(args.export_race)
        print(f"exported the race network to {args.export_race}")


def _nets(args: argparse.Namespace) -> tuple[Network, Adam, tuple[Network, Adam] | None, int]:
    """The nets to train, their optimisers and the games played: resumed from the
    checkpoint, begun from --start-from's weights, or new."""
    inputs = CONTACT_INPUTS if args.inputs == "contact" else INPUT_SIZE
    race: tuple[Network, Adam] | None = None
    if args.checkpoint.exists():
        net, opt, games = load_checkpoint(args.checkpoint)
        race = load_race(args.checkpoint)
        print(f"resuming {args.checkpoint} at {games} games")
    else:
        games = 0
        if args.start_from:
            # Widened to the inputs, and to --hidden units when that is more than it has.
            start = Network.load(args.start_from)
            net = start.widened(inputs).with_hidden(max(args.hidden, start.hidden), args.seed)
            if args.race:
                race_start = Network.load(args.start_race) if args.start_race else start
                race = (race_start.widened(RACE_INPUTS), Adam(lr=args.lr))
        else:
            net = Network.create(inputs, args.hidden, args.seed)
            if args.race:
                race = (Network.create(RACE_INPUTS, args.hidden, args.seed + 1), Adam(lr=args.lr))
        opt = Adam(lr=args.lr)
    return net, opt, race, games


def _learning_rate(args: argparse.Namespace, games: int) -> float:
    """The learning rate after ``games`` games: --lr, or the last --lr-after reached."""
    schedule = sorted(
        (int(games_at), float(rate)) for games_at, rate in (s.split(":") for s in args.lr_after)
    )
    rate = float(args.lr)
    for games_at, later in schedule:
        if games >= games_at:
            rate = later
    return rate


def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    if args.export:
        _export(args)
        return
    one_blas_thread()
    net, opt, race, games = _nets(args)

    def set_rates(games: int) -> None:
        opt.lr = _learning_rate(args, games)
        if race is not None:
            race[1].lr = opt.lr

    set_rates(games)
    trainer = Trainer(
        net,
        opt,
        batch=args.batch,
        seed=args.seed + games,
        race=race,
        prime_starts=args.prime_starts,
    )
    _self_play(args, trainer, games, set_rates)


def _self_play(
    args: argparse.Namespace, trainer: Trainer, games: int, set_rates: Callable[[int], None]
) -> None:
    """Play games in lockstep up to --games, saving every --save-every games and at the end;
    a live bar on a terminal, a line per save in a log file."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    net, opt, race = trainer.net, trainer.opt, trainer.race
    first_games = saved = games
    started = time.perf_counter()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} games"),
        TextColumn("{task.fields[rate]:.0f} games/s  loss {task.fields[loss]:.4f}"),
        TimeRemainingColumn(),
    )
    # Rich draws a live bar on a terminal; a log file gets a line per save.
    with Progress(*columns, disable=not sys.stdout.isatty()) as progress:
        task = progress.add_task("self-play", total=args.games, completed=games, rate=0.0, loss=0.0)
        while games < args.games:
            trainer.step()
            if trainer.finished:
                games += trainer.finished
                trainer.finished = 0
                rate = (games - first_games) / max(time.perf_counter() - started, 1e-9)
                progress.update(task, completed=games, rate=rate, loss=trainer.loss)
            set_rates(games)
            if games - saved >= args.save_every:
                save_checkpoint(args.checkpoint, net, opt, games, race)
                saved = games
                if not sys.stdout.isatty():
                    elapsed = time.perf_counter() - started
                    race_loss = f", race loss {trainer.race_loss:.4f}" if race else ""
                    print(
                        f"{games} games, {(games - first_games) / elapsed:.0f} games/s, "
                        f"loss {trainer.loss:.4f}{race_loss}, saved {args.checkpoint}",
                        flush=True,
                    )
    save_checkpoint(args.checkpoint, net, opt, games, race)
    print(f"{games} games; checkpoint {args.checkpoint}")


if __name__ == "__main__":
    main()
