"""One explained mistake (:class:`Explanation`), what the checker and cube teachers both
return, and what they share: the board a review names and the step of chances worth a
sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from gammon.errors import GammonError
from gammon.position import Position

__all__ = ["CHANCE_STEP", "Explanation", "board_of"]

#: Chances that differ by less than this are not worth a sentence.
CHANCE_STEP: Final = 0.03


@dataclass(frozen=True)
class Explanation:
    """Why one decision was a mistake: the facts, and the teacher's tags for patterns.

    ``kind`` is "checker", "double" (the doubler's action) or "answer" (the take or pass).
    ``tags`` name what the mistake shows (see :mod:`~gammon.engine.analysis.patterns`).
    """

    game: int
    index: int
    side: int
    kind: str
    played: str
    better: str
    loss: float
    facts: tuple[str, ...]
    tags: frozenset[str]

    @property
    def text(self) -> str:
        return " ".join(self.facts)

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.game,
            "index": self.index,
            "side": self.side,
            "kind": self.kind,
            "played": self.played,
            "better": self.better,
            "loss": round(self.loss, 6),
            "text": self.text,
            "facts": list(self.facts),
            "tags": sorted(self.tags),
        }


def board_of(position_id: str | None, checkers: int) -> Position | None:
    if position_id is None:
        return None
    try:
        return Position.from_id(position_id, checkers=checkers)
    except GammonError:
        return None
