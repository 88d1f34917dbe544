"""The network's view of a board: a fixed-length vector of numbers per position.

Boards arrive as the raw 54-byte rows the move generator produces (27 per side,
player on roll first: 0 off, 1-24 points, 25 bar, 26 acey-deucey waiting), so a
whole roll's candidate plays are encoded in one NumPy pass without building a
:class:`~gammon.position.Position` for each.

Three encodings, one per kind of net (:func:`encoder_for` picks one by a net's
input count):

**The raw encoding** (:func:`encode_boards`, :data:`INPUT_SIZE` = 202 inputs),
the first part of the other two.  Per side and point, four units in the manner
of TD-Gammon: one checker there, two, three, and half of the rest, so blots,
points and stacks are told apart.  Then per side: the bar (halved), checkers
borne off and still waiting (fifteenths), and the pip count (hundredths);
finally whether contact remains and the pip difference.

**The contact encoding** (:func:`encode_contact`, :data:`CONTACT_INPUTS`): the raw
inputs, then for each side (the player on roll first) the 21 inputs below, each
what a strong player reads off the board and a net of this size does not find
by itself from the raw points (``_feature_kernels`` computes them, numba, all
candidates at once).  "I" is the side described, "you" its opponent.

 0. ``back_escapes``: of 36 rolls, those that carry my rearmost checker past
    your blocks 1-12 pips ahead (GNU Backgammon's count: the roll's total lands
    open and one of the dice's stops is open), /36.  A checker behind a prime
    has none: it cannot run, whatever the pip count says.
 1. ``second_escapes``: the same for my next checker from the back: with two
    back checkers, both must come out.
 2. ``containment``: 1 - the fewest escaping rolls (/36) of a checker of yours
    on any of your points 15-24: how well my blocks hold a checker I may hit.
 3. ``prime_length``: my longest run of made points, /6.  Six is a full prime.
 4. ``prime_trap``: my longest run of made points in front of your rearmost
    checker, /6: the prime that actually has a checker behind it.
 5. ``prime_gap``: open points between your rearmost checker and that prime
    (/6, capped; 1 with no prime in front): right behind the prime is worst.
 6. ``hit_chance``: of your 36 rolls, those that hit a blot of mine (direct and
    indirect shots, blocked paths and entering from the bar counted), /36.
 7. ``double_hit``: your rolls that can hit two of my blots, /36.
 8. ``pip_loss``: the pips my worst-hit blot loses, summed over your hitting
    rolls, /(36 x 12): a hit on my home board costs far more than one on yours.
 9. ``timing``: pips my spare checkers outside home (not the two holding a
    point) can play before reaching home, /100: with none left I must break my
    board or my prime while I wait.
10. ``buried``: my checkers on my 1-3 points, /15: wasted in a contact game.
11. ``mobility``: share of my (checker, die) moves that land on a point you
    have not made: a side with few playable numbers wrecks its position.
12. ``anchor``: whether I hold a point in your home board: protection against
    being blitzed or closed out.
13. ``forward_anchor``: my most advanced point on your 1- to 10-points (your
    point number /12, 0 for none): an advanced anchor is easier to leave.
14. ``crossovers``: quarters of the board my checkers still cross to get home,
    /30: the work of the bear-in, besides pips.
15. ``home``: my checkers home or off, /15.
16. ``contact_pips``: pips I need to pass every one of your checkers, /100:
    how far the game is from a race.
17. ``dance``: the chance I stay on the bar this roll ((your closed home points
    /6)^2, 0 when I am not on the bar).
18. ``home_points``: my made home-board points, /6: what your hit checkers
    must enter against.
19. ``back_checker``: my rearmost checker's point, /25.
20. ``back_count``: my checkers on your home board or on the bar, /15.

**The race encoding** (:func:`encode_race`, :data:`RACE_INPUTS`), for positions
without contact: the raw inputs, then per side (player on roll first):

 0. ``crossovers``: as above, /30: each crossing costs a part of a roll.
 1. ``outside``: checkers not yet home (bar included), /15.
 2. ``bear_in_pips``: pips to bring every checker home, /100.
 3. ``stacked``: checkers beyond three on a home point, /15 (wastage).
 4. ``gaps``: empty 4-, 5- and 6-points, /3 (rolls that will be wasted).
 5. ``low``: checkers on the 1-3 points, /15 (pips already wasted).
 6. ``all_home``: whether every checker left is home;
 7. ``mean_rolls``: then the exact expected rolls to bear off (one-sided
    database), /10, else 0;
 8. ``mean_first_off``: then the expected rolls to take the first checker off
    (/5, 0 once one is off): the gammon race.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from gammon.engine import _feature_kernels as kernels
from gammon.engine._bearoff_kernels import BINOM as _BINOM

__all__ = [
    "CONTACT_INPUTS",
    "CONTACT_NAMES",
    "INPUT_SIZE",
    "RACE_INPUTS",
    "RACE_NAMES",
    "encode_boards",
    "encode_contact",
    "encode_race",
    "encoder_for",
    "is_contact_boards",
]

_SIDE = 27
_PER_SIDE = 24 * 4 + 4
INPUT_SIZE = 2 * _PER_SIDE + 2
CONTACT_INPUTS = INPUT_SIZE + 2 * kernels.CONTACT_FEATURES
RACE_INPUTS = INPUT_SIZE + 2 * kernels.RACE_FEATURES

#: Names of the per-side inputs after the raw ones, in order (see the module docstring).
CONTACT_NAMES = (
    "back_escapes",
    "second_escapes",
    "containment",
    "prime_length",
    "prime_trap",
    "prime_gap",
    "hit_chance",
    "double_hit",
    "pip_loss",
    "timing",
    "buried",
    "mobility",
    "anchor",
    "forward_anchor",
    "crossovers",
    "home",
    "contact_pips",
    "dance",
    "home_points",
    "back_checker",
    "back_count",
)
RACE_NAMES = (
    "crossovers",
    "outside",
    "bear_in_pips",
    "stacked",
    "gaps",
    "low",
    "all_home",
    "mean_rolls",
    "mean_first_off",
)


def is_contact_boards(boards: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    """Whether each board still has contact: some checker must pass an opposing one."""
    boards = np.ascontiguousarray(boards.reshape(-1, 2 * _SIDE), dtype=np.int8)
    return np.asarray(kernels.contact_flags(boards))


def encode_boards(boards: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
    """Encode ``(n, 54)`` int8 boards as ``(n, INPUT_SIZE)`` float32 inputs."""
    boards = np.ascontiguousarray(boards.reshape(-1, 2 * _SIDE), dtype=np.int8)
    out = np.empty((boards.shape[0], INPUT_SIZE), dtype=np.float32)
    kernels.raw_inputs(boards, out)
    return out


def _with_raw(
    boards: npt.NDArray[np.int8], size: int
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
    boards = np.ascontiguousarray(boards.reshape(-1, 2 * _SIDE), dtype=np.int8)
    out = np.empty((boards.shape[0], size), dtype=np.float32)
    kernels.raw_inputs(boards, out)
    return boards, out


def encode_contact(boards: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
    """``(n, 54)`` boards as ``(n, CONTACT_INPUTS)``: raw, then each side's contact inputs."""
    boards, out = _with_raw(boards, CONTACT_INPUTS)
    kernels.contact_features(boards, out, INPUT_SIZE, kernels.ESCAPES)
    return out


def encode_race(boards: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
    """``(n, 54)`` boards as ``(n, RACE_INPUTS)``: raw inputs, then each side's race inputs."""
    from gammon.engine.bearoff import one_sided_means

    boards, out = _with_raw(boards, RACE_INPUTS)
    rolls, first = one_sided_means()
    kernels.race_features(boards, out, INPUT_SIZE, _BINOM, rolls, first)
    return out


def encoder_for(inputs: int) -> Callable[[npt.NDArray[np.int8]], npt.NDArray[np.float32]]:
    """The encoding a net with ``inputs`` inputs was trained on."""
    encoders = {INPUT_SIZE: encode_boards, CONTACT_INPUTS: encode_contact, RACE_INPUTS: encode_race}
    if inputs not in encoders:
        raise ValueError(f"no encoding has {inputs} inputs (known: {sorted(encoders)})")
    return encoders[inputs]
