"""The teacher: why a play or a cube action was wrong, in plain words, read off the boards.

Nothing here is canned advice: each sentence compares what the board looks
like after the play made with what it looks like after the better play
(:class:`Shape`), and says what differs: hits, blots and the rolls that hit
them (:meth:`~gammon.position.Position.shots`), points made or broken, a prime
(the longest run of made points), an anchor given up, back checkers left
behind, stacks, the race, and the engine's winning and gammon chances. A cube
mistake is explained by the doubler's chances against the doubling window and
the taker's against the take point, from the review's own chances and the
cube model of :mod:`gammon.engine.cube`.

>>> from gammon.position import Position
>>> before = Position.from_points({13: 1, 6: 3, 5: 2}, {24: 2}, checkers=6)
>>> compare_plays(before, (6, 1), better="13/6", played="13/7 6/5")
['13/7 6/5 leaves a blot on the 7-point: 16 of 36 rolls hit it; 13/6 leaves none.']

(Six away from the opponent's two back checkers: 11 rolls with a 6, and 5-1, 4-2
and 3-3; 2-2 is blocked by the 5-point.)

The teacher is in parts, one concept each, all importable from here: :mod:`.shape` (what
a board shows), :mod:`.checker_facts` (why a play was wrong), :mod:`.cube_facts` (why a
cube action or answer was), :mod:`.words` (figures, marks and verdicts in words) and
:mod:`.explanation` (what both return). This module gathers every mistake of a review.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gammon.engine.analysis.checker_facts import checker_loss, compare_plays, explain_checker
from gammon.engine.analysis.cube_facts import cube_model, cube_state_of, cube_words, explain_cube
from gammon.engine.analysis.explanation import Explanation
from gammon.engine.analysis.results import DOUBTFUL, CheckerReview, CubeReview
from gammon.engine.analysis.shape import Shape, shape_of
from gammon.engine.analysis.words import (
    MARKS,
    VERDICTS,
    loss_words,
    mark_words,
    verdict_words,
)
from gammon.i18n import SOURCE_LANGUAGE

__all__ = [
    "Explanation",
    "checker_loss",
    "Shape",
    "compare_plays",
    "cube_model",
    "cube_state_of",
    "cube_words",
    "explain",
    "explain_checker",
    "explain_cube",
    "loss_words",
    "shape_of",
    "MARKS",
    "VERDICTS",
    "mark_words",
    "verdict_words",
]


def explain(
    checker: Iterable[CheckerReview],
    cube: Iterable[CubeReview],
    names: Sequence[str] = ("side 0", "side 1"),
    *,
    threshold: float = DOUBTFUL,
    checkers: int = 15,
    lang: str = SOURCE_LANGUAGE,
) -> list[Explanation]:
    """Explanations of every decision that lost at least ``threshold`` (doubtful or worse),
    in ``lang``."""
    found: list[Explanation] = []
    for review in checker:
        if review.loss >= threshold:
            explanation = explain_checker(review, checkers=checkers, lang=lang)
            if explanation is not None:
                found.append(explanation)
    for cube_review in cube:
        found += [
            e
            for e in explain_cube(cube_review, names, checkers=checkers, lang=lang)
            if e.loss >= threshold
        ]
    found.sort(key=lambda e: (e.game, e.index, e.kind))
    return found
