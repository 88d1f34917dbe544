"""The mistakes beginners make most, recognised in a player's games.

The Finnish guides (and the Nordic ones after them) list the habits that cost
new players most: too many open blots, home-board points left unbuilt,
stacks, back checkers left behind, and the cube ignored, turned too early or
taken when the game is gone. Each of the teacher's explanations
(:mod:`~gammon.engine.analysis.explain`) tags what its mistake shows, read off
the boards and the cube figures; a pattern is a tag that comes back, counted
over the player's mistakes.

>>> from gammon.engine.analysis.explain import Explanation
>>> slip = Explanation(1, 9, 0, "checker", "13/7 6/5", "13/6", 0.05, (), frozenset({"blots"}))
>>> [(p.name, p.count) for p in patterns([slip, slip], side=0)]
[('Leaving blots in reach without need', 2)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from gammon.engine.analysis.explain import Explanation

__all__ = ["PATTERNS", "Pattern", "patterns"]

#: Each pattern's tag, name and the advice behind it, in the order the guides give them.
PATTERNS: Final = (
    (
        "blots",
        "Leaving blots in reach without need",
        "a play left more shots than a safer one that was better",
    ),
    (
        "home",
        "Not building home-board points",
        "a better play made more home-board points, so hit checkers would come straight back",
    ),
    (
        "stacking",
        "Stacking checkers on few points",
        "five or more checkers piled on one point where a better play spread them",
    ),
    (
        "late-run",
        "Running the back checkers too late",
        "a better play brought back checkers out of the opponent's home board",
    ),
    ("anchor", "Giving up an anchor", "an anchor in the opponent's home board broken without need"),
    ("no-hit", "Not hitting", "a better play hit a checker and this one did not"),
    (
        "missed-double",
        "Ignoring the cube",
        "a double missed: the position was good enough to double",
    ),
    (
        "early-double",
        "Doubling too early",
        "a double below the doubling window: the cube was worth more kept",
    ),
    (
        "too-good",
        "Doubling when too good",
        "a double that cashed a game worth playing on for a gammon",
    ),
    (
        "hopeless-take",
        "Taking hopeless doubles",
        "a take with winning chances below the take point",
    ),
    ("wrong-pass", "Passing takable doubles", "a pass with winning chances above the take point"),
)


@dataclass(frozen=True)
class Pattern:
    """One habit found in a player's mistakes, how often, and where (game, history index)."""

    key: str
    name: str
    advice: str
    count: int
    where: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "key": self.key,
            "name": self.name,
            "advice": self.advice,
            "count": self.count,
            "where": [list(place) for place in self.where],
        }


def patterns(explanations: Iterable[Explanation], side: int) -> list[Pattern]:
    """The patterns in ``side``'s mistakes, most frequent first (ties in the guides' order)."""
    mine = [e for e in explanations if e.side == side]
    found = []
    for key, name, advice in PATTERNS:
        where = tuple((e.game, e.index) for e in mine if key in e.tags)
        if where:
            found.append(Pattern(key, name, advice, len(where), where))
    found.sort(key=lambda pattern: -pattern.count)
    return found
