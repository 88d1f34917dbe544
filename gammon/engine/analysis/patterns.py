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
from gammon.i18n import N_, SOURCE_LANGUAGE, language, translator

__all__ = ["PATTERNS", "SECTIONS", "Pattern", "mistakes_page", "patterns"]

#: Each pattern's tag, name and the advice behind it, in the order the guides give them;
#: the name is the heading of its section of the beginners' mistakes page
#: (docs/rules/MISTAKES.md, and MISTAKES.<lang>.md in each language), M1 to M11 in order.
PATTERNS: Final = (
    (
        "blots",
        N_("Leaving blots in reach without need"),
        N_("a play left more shots than a safer one that was better"),
    ),
    (
        "home",
        N_("Not building home-board points"),
        N_("a better play made more home-board points, so hit checkers would come straight back"),
    ),
    (
        "stacking",
        N_("Stacking checkers on few points"),
        N_("five or more checkers piled on one point where a better play spread them"),
    ),
    (
        "late-run",
        N_("Running the back checkers too late"),
        N_("a better play brought back checkers out of the opponent's home board"),
    ),
    (
        "anchor",
        N_("Giving up an anchor"),
        N_("an anchor in the opponent's home board broken without need"),
    ),
    ("no-hit", N_("Not hitting"), N_("a better play hit a checker and this one did not")),
    (
        "missed-double",
        N_("Ignoring the cube"),
        N_("a double missed: the position was good enough to double"),
    ),
    (
        "early-double",
        N_("Doubling too early"),
        N_("a double below the doubling window: the cube was worth more kept"),
    ),
    (
        "too-good",
        N_("Doubling when too good"),
        N_("a double that cashed a game worth playing on for a gammon"),
    ),
    (
        "hopeless-take",
        N_("Taking hopeless doubles"),
        N_("a take with winning chances below the take point"),
    ),
    (
        "wrong-pass",
        N_("Passing takable doubles"),
        N_("a pass with winning chances above the take point"),
    ),
)
#: Each pattern's section of the beginners' mistakes page ("M1"...), by its tag.
SECTIONS: Final = {key: f"M{number}" for number, (key, _, _) in enumerate(PATTERNS, 1)}


def mistakes_page(lang: str = SOURCE_LANGUAGE) -> str:
    """The beginners' mistakes page of ``lang``, as a path in the repository.

    >>> mistakes_page(), mistakes_page("fi")
    ('docs/rules/MISTAKES.md', 'docs/rules/MISTAKES.fi.md')
    """
    lang = language(lang)
    return "docs/rules/MISTAKES.md" if lang == SOURCE_LANGUAGE else f"docs/rules/MISTAKES.{lang}.md"


@dataclass(frozen=True)
class Pattern:
    """One habit found in a player's mistakes, how often, and where (game, history index)."""

    key: str
    name: str
    advice: str
    count: int
    where: tuple[tuple[int, int], ...]
    #: The language of ``name`` and ``advice``.
    lang: str = SOURCE_LANGUAGE

    @property
    def section(self) -> str:
        """The habit's section of the beginners' mistakes page: ``"M1"``..."""
        return SECTIONS[self.key]

    @property
    def link(self) -> str:
        """Where the habit is explained: its section of the mistakes page in its language
        (``docs/rules/MISTAKES.fi.md#M1``)."""
        return f"{mistakes_page(self.lang)}#{self.section}"

    def to_dict(self) -> dict[str, object]:
        return {
            "key": self.key,
            "name": self.name,
            "advice": self.advice,
            "count": self.count,
            "where": [list(place) for place in self.where],
            "section": self.section,
            "link": self.link,
        }


def patterns(
    explanations: Iterable[Explanation], side: int, lang: str = SOURCE_LANGUAGE
) -> list[Pattern]:
    """The patterns in ``side``'s mistakes, most frequent first (ties in the guides' order),
    named in ``lang``."""
    tr = translator(lang)
    mine = [e for e in explanations if e.side == side]
    found = []
    for key, name, advice in PATTERNS:
        where = tuple((e.game, e.index) for e in mine if key in e.tags)
        if where:
            found.append(
                Pattern(key, tr.gettext(name), tr.gettext(advice), len(where), where, tr.lang)
            )
    found.sort(key=lambda pattern: -pattern.count)
    return found
