"""The variants of R14, as data: starting layout, checkers, cube and scoring.

Only data lives here, so every other module can depend on it;
``Position.initial(variant)`` builds the board from the layout.

>>> find_variant("nack").name
'nackgammon'
>>> find_variant("hypergammon").start, find_variant("hypergammon").checkers
(((24, 1), (23, 1), (22, 1)), 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gammon.errors import UnknownVariantError

if TYPE_CHECKING:
    pass

__all__ = ["Variant", "VARIANTS", "find_variant"]


@dataclass(frozen=True)
class Variant:
    """One way to play: what differs from standard backgammon is named here."""

    name: str
    aliases: tuple[str, ...] = ()
    #: Starting checkers per point, the same for both sides (R2, R14).
    start: tuple[tuple[int, int], ...] = ((24, 2), (13, 5), (8, 3), (6, 5))
    checkers: int = 15
    #: Whether the doubling cube may be used at all (Turkish tavla: no; R14).
    cube: bool = True
    #: The most a single win can be worth before the cube (tavla: mars is 2; R14).
    max_win: int = 3
    #: Acey-deucey: checkers start off the board and 1-2 earns a bonus (R14).
    acey_deucey: bool = False
    description: str = field(default="", compare=False)

    def win_value(self, value: int) -> int:
        """A win's value under this variant's scoring (R9, R14)."""
        return min(value, self.max_win)


VARIANTS: tuple[Variant, ...] = (
    Variant("standard", aliases=("backgammon", "std"), description="Standard backgammon."),
    Variant(
        "nackgammon",
        aliases=("nack",),
        start=((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)),
        description="Nackgammon: two more back checkers.",
    ),
    Variant(
        "hypergammon",
        aliases=("hyper",),
        start=((24, 1), (23, 1), (22, 1)),
        checkers=3,
        description="Hypergammon: three checkers a side.",
    ),
    Variant(
        "tavla",
        aliases=("turkish", "turkish-tavla"),
        cube=False,
        max_win=2,
        description="Turkish tavla: no cube, a gammon (mars) counts 2, no backgammon.",
    ),
    Variant(
        "acey-deucey",
        aliases=("acey", "aceydeucey", "acey_deucey"),
        start=(),
        acey_deucey=True,
        description="Acey-deucey: enter all 15 from off the board; 1-2 earns a bonus.",
    ),
)

_BY_NAME = {name: v for v in VARIANTS for name in (v.name, *v.aliases)}


def find_variant(name: str | Variant) -> Variant:
    """The variant called ``name`` (or one of its aliases), case-insensitive."""
    if isinstance(name, Variant):
        return name
    variant = _BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None
    if variant is None:
        known = ", ".join(v.name for v in VARIANTS)
        raise UnknownVariantError(f"unknown variant {name!r}; known variants: {known}")
    return variant
