"""The engine interface and its registry: whose 0-ply figures the search stands on.

An engine is a :class:`~gammon.engine.evaluator.Search`: it gives the 0-ply cubeless
chances of a batch of boards, and the search, the cube, the hints, the bot, the
rollouts and the analysis on top are our own code, the same for every engine. Our
nets (:class:`~gammon.engine.evaluator.Evaluator`) are the default; other programs'
nets plug in as an :class:`Adapter`, each an optional extra, found by name:

>>> get_engine("gammon").name
'gammon'
>>> get_engine("stockfish")
Traceback (most recent call last):
...
gammon.engine.engines.base.UnknownEngineError: unknown engine 'stockfish'; the engines are: \
gammon, gnubg, sage

Why the seam is the 0-ply chances: they are all that the search asks of a net, so an
adapter is a board translation and a perspective, nothing more; depth means the same
for every engine (our move filters, our cube search), so a review by two engines differs
only by their nets. Every board an adapter sees comes from our move generator: it never
chooses or generates a play (Open Sage's own generator allows an illegal bear-off).
"""

from __future__ import annotations

import functools
import importlib
from abc import abstractmethod
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from gammon.engine.evaluator import FloatArray, Search, swap_boards, won_outcome
from gammon.engine.network import invert
from gammon.errors import GammonError

__all__ = [
    "DEFAULT_ENGINE",
    "ENGINES",
    "Adapter",
    "EngineError",
    "EngineInfo",
    "EngineNotInstalledError",
    "UnknownEngineError",
    "UnsupportedBoardError",
    "engine_names",
    "get_engine",
]

_SIDE = 27
_BOARD = 54
_CHECKERS = 15
_WAITING = 26


class EngineError(GammonError, ValueError):
    """An engine that cannot be had or cannot judge what it was given."""


class UnknownEngineError(EngineError):
    """An engine name that is not in :data:`ENGINES`; the message lists the names."""


class EngineNotInstalledError(EngineError):
    """An engine whose package is not installed; the message names the extra to install."""


class UnsupportedBoardError(EngineError):
    """A board another program's net was not made for (not 15 checkers a side)."""


@dataclass(frozen=True)
class EngineInfo:
    """One engine of the registry: where it lives and what it needs."""

    name: str
    #: ``module:Class`` of the engine, imported only when it is asked for.
    target: str
    summary: str
    licence: str
    #: The extra that installs its package (``pip install 'gammon[EXTRA]'``), None for ours.
    extra: str | None = None


#: The engines by name, ours first.
ENGINES: dict[str, EngineInfo] = {
    info.name: info
    for info in (
        EngineInfo(
            "gammon", "gammon.engine.engines.ours:ours", "our own nets (the default)",
            "GPL-3.0-or-later",
        ),
        EngineInfo(
            "gnubg", "gammon.engine.engines.gnubg:GnubgEngine",
            "GNU Backgammon's nets (the gnubg-nn package)", "GPL-3.0-or-later", "gnubg",
        ),
        EngineInfo(
            "sage", "gammon.engine.engines.sage:SageEngine",
            "Open Sage's nets (the bgsage package)", "MPL-2.0", "sage",
        ),
    )
}  # fmt: skip

DEFAULT_ENGINE = "gammon"


def engine_names() -> tuple[str, ...]:
    """The names ``get_engine`` and ``--engine`` take."""
    return tuple(ENGINES)


@functools.cache
def get_engine(name: str = DEFAULT_ENGINE) -> Search:
    """The engine called ``name``, built once per process.

    :class:`UnknownEngineError` for a name not in :data:`ENGINES`,
    :class:`EngineNotInstalledError` when its package is missing.
    """
    info = ENGINES.get(name)
    if info is None:
        raise UnknownEngineError(
            f"unknown engine {name!r}; the engines are: {', '.join(engine_names())}"
        )
    module_name, attribute = info.target.split(":")
    try:
        module = importlib.import_module(module_name)
        engine: Search = getattr(module, attribute)()
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        if info.extra is None or not missing or missing == "gammon":
            raise
        raise EngineNotInstalledError(
            f"the {name} engine needs the {info.extra} extra ({missing} is not installed): "
            f"pip install 'gammon[{info.extra}]'"
        ) from None
    return engine


class Adapter(Search):
    """Another program's net at 0-ply, under our search.

    A subclass says which view its package's net takes (:attr:`native_after`: the
    player who just moved, or else the player on roll) and gives that net's chances
    for a batch of boards in our layout (:meth:`native`); boards of the other view are
    swapped and the figures turned round here, once for every adapter. Finished games
    are scored exactly (no net is asked about a game that is over), and boards the
    nets were not made for are refused rather than judged wrongly.
    """

    is_ours = False
    #: Whether the package's net judges a board for the player who just moved (Open
    #: Sage's post-move evaluation) rather than for the player on roll (GNU's).
    native_after: ClassVar[bool] = False

    @abstractmethod
    def native(self, boards: npt.NDArray[np.int8]) -> FloatArray:
        """The package's own 0-ply chances of each board (54 bytes, our layout), in its
        native view: for the first side of each board, which is on roll or has just moved
        as :attr:`native_after` says."""

    def _zero_ply(self, boards: npt.NDArray[np.int8], *, after: bool) -> FloatArray:
        boards = np.ascontiguousarray(boards.reshape(-1, _BOARD), dtype=np.int8)
        _check_standard(boards, self.name)
        out = np.empty((boards.shape[0], 5), dtype=np.float32)
        first_off = boards[:, 0] == _CHECKERS
        second_off = boards[:, _SIDE] == _CHECKERS
        # Every figure here is for the first side of the board, whichever view is asked.
        if first_off.any():
            out[first_off] = won_outcome(boards[first_off])
        if second_off.any():
            out[second_off] = invert(won_outcome(swap_boards(boards[second_off])))
        live = ~(first_off | second_off)
        if live.any():
            if after == self.native_after:
                out[live] = self.native(boards[live])
            else:
                out[live] = invert(self.native(swap_boards(boards[live])))
        return out


def _check_standard(boards: npt.NDArray[np.int8], name: str) -> None:
    """Refuse boards other than 15 checkers a side with none waiting to enter."""
    counts = boards.reshape(-1, 2, _SIDE)
    totals = counts.sum(axis=2, dtype=np.int64)
    waiting = counts[:, :, _WAITING]
    if (totals != _CHECKERS).any() or waiting.any():
        raise UnsupportedBoardError(
            f"the {name} engine judges boards of 15 checkers a side with none waiting to "
            "enter (the standard variants); use our own engine for this one"
        )
