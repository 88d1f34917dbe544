"""The evaluation network: a small multilayer perceptron in plain NumPy.

Five sigmoid outputs estimate, for the player on roll, the cubeless chances to
win, win a gammon or more, win a backgammon, lose a gammon or more and lose a
backgammon (GNU Backgammon's layout, so equity and cube formulas carry over).
Inference needs nothing but NumPy; training code updates the same arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

__all__ = ["Network", "equity", "invert", "OUTPUTS"]

OUTPUTS = 5
FloatArray = npt.NDArray[np.float32]

# Output index -> the output it becomes when the board is seen from the other side.
_INVERT_ORDER = np.array([0, 3, 4, 1, 2])


def invert(probs: FloatArray) -> FloatArray:
    """The same estimates from the opponent's side: their win is my loss, and so on."""
    flipped = probs[..., _INVERT_ORDER].copy()
    flipped[..., 0] = 1.0 - flipped[..., 0]
    return flipped


def equity(probs: FloatArray) -> npt.NDArray[np.float64]:
    """Cubeless money equity: +1 a single win, +2 a gammon, +3 a backgammon."""
    p = probs.astype(np.float64)
    return np.asarray(2.0 * p[..., 0] - 1.0 + p[..., 1] - p[..., 3] + p[..., 2] - p[..., 4])


def _sigmoid_in_place(x: FloatArray) -> FloatArray:
    """The logistic function, overwriting ``x``: no temporaries (a tenth of a 0-ply choice)."""
    np.negative(x, out=x)
    np.exp(x, out=x)
    x += 1.0
    return np.reciprocal(x, out=x)


@dataclass
class Network:
    """Weights of a one-hidden-layer net; ``forward`` maps inputs to the five chances."""

    w1: FloatArray
    b1: FloatArray
    w2: FloatArray
    b2: FloatArray

    @classmethod
    def create(cls, inputs: int, hidden: int, seed: int = 0) -> Network:
        rng = np.random.default_rng(seed)
        scale1 = 1.0 / np.sqrt(inputs)
        scale2 = 1.0 / np.sqrt(hidden)
        return cls(
            w1=rng.normal(0.0, scale1, (inputs, hidden)).astype(np.float32),
            b1=np.zeros(hidden, dtype=np.float32),
            w2=rng.normal(0.0, scale2, (hidden, OUTPUTS)).astype(np.float32),
            b2=np.zeros(OUTPUTS, dtype=np.float32),
        )

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[1])

    @property
    def inputs(self) -> int:
        """How many inputs the net reads (which encoding: see ``encoding.encoder_for``)."""
        return int(self.w1.shape[0])

    def widened(self, inputs: int) -> Network:
        """A copy reading ``inputs`` >= :attr:`inputs` inputs, the new ones weighted zero.

        The copy plays exactly as this net until training finds a use for the
        new inputs: how a net on richer inputs starts from a trained one.
        """
        if inputs < self.inputs:
            raise ValueError(f"cannot widen a net of {self.inputs} inputs to {inputs}")
        w1 = np.zeros((inputs, self.hidden), dtype=np.float32)
        w1[: self.inputs] = self.w1
        return Network(w1=w1, b1=self.b1.copy(), w2=self.w2.copy(), b2=self.b2.copy())

    def with_hidden(self, hidden: int, seed: int = 0) -> Network:
        """A copy with ``hidden`` >= :attr:`hidden` hidden units, the new ones with small
        random input weights and no weight on the outputs.

        The copy plays exactly as this net, and training grows the new units' part: how
        a larger net starts from a trained one instead of from nothing.
        """
        if hidden < self.hidden:
            raise ValueError(f"cannot shrink a net of {self.hidden} hidden units to {hidden}")
        rng = np.random.default_rng(seed)
        extra = hidden - self.hidden
        fresh = rng.normal(0.0, 1.0 / np.sqrt(self.inputs), (self.inputs, extra))
        return Network(
            w1=np.hstack([self.w1, fresh.astype(np.float32)]),
            b1=np.concatenate([self.b1, np.zeros(extra, dtype=np.float32)]),
            w2=np.vstack([self.w2, np.zeros((extra, OUTPUTS), dtype=np.float32)]),
            b2=self.b2.copy(),
        )

    def forward(self, x: FloatArray) -> FloatArray:
        """The five chances for each row of ``x``, kept consistent (wins >= gammons >= bgs)."""
        hidden = x @ self.w1
        hidden += self.b1
        out = _sigmoid_in_place(hidden) @ self.w2
        out += self.b2
        return _consistent(_sigmoid_in_place(out))

    def save(self, path: Path) -> None:
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> Network:
        with np.load(path) as data:
            return cls(
                w1=data["w1"].astype(np.float32),
                b1=data["b1"].astype(np.float32),
                w2=data["w2"].astype(np.float32),
                b2=data["b2"].astype(np.float32),
            )


def _consistent(out: FloatArray) -> FloatArray:
    """Clip so a gammon is never likelier than a win, nor a backgammon than a gammon."""
    win = out[:, 0]
    lose = 1.0 - win
    out[:, 1] = np.minimum(out[:, 1], win)
    out[:, 2] = np.minimum(out[:, 2], out[:, 1])
    out[:, 3] = np.minimum(out[:, 3], lose)
    out[:, 4] = np.minimum(out[:, 4], out[:, 3])
    return out
