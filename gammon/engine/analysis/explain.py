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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from gammon.engine.analysis.results import (
    DOUBTFUL,
    Candidate,
    CheckerReview,
    CubeReview,
    Unit,
)
from gammon.engine.cube import (
    CubeDecision,
    CubeOwner,
    CubeState,
    DoublerVerdict,
    TakerVerdict,
    cube_decision,
    cube_efficiency,
)
from gammon.engine.met import InvalidCubeStateError, MatchScore
from gammon.errors import GammonError
from gammon.ids import decode_match_id
from gammon.position import Dice, Position

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
]

#: Chances that differ by less than this are not worth a sentence.
_CHANCE_STEP: Final = 0.03
#: Sentences on the boards kept per play (the first are the plainest: hits, blots, points).
_MOST_FACTS: Final = 4
#: A stack this tall or taller is worth a sentence (and counts as stacking).
_TALL: Final = 5


@dataclass(frozen=True)
class Shape:
    """What a teacher reads off a board, for the player whose checkers are ``mine``.

    Points are numbered from that player's side (1-24). ``shots`` counts the
    opponent's rolls (of 36) that hit a blot, with the opponent on roll.
    """

    blots: tuple[int, ...]
    shots: int
    made: frozenset[int]
    #: The longest run of made points: (length, highest point); (0, 0) for none.
    prime: tuple[int, int]
    home_points: int
    #: Checkers in the opponent's home board or on the bar.
    back: int
    #: The tallest stack: (checkers, point).
    tallest: tuple[int, int]
    pips: tuple[int, int]
    #: The opponent's checkers on the bar.
    hit: int
    contact: bool
    off: int

    @property
    def anchors(self) -> frozenset[int]:
        return frozenset(point for point in self.made if point >= 19)


def shape_of(position: Position, *, mover_on_roll: bool = False) -> Shape:
    """The shape of ``position`` for its mover, the player who has just played.

    A :class:`~gammon.play.Play`'s ``position`` is seen from the mover with the
    opponent to roll next: shots are counted from there. With
    ``mover_on_roll`` the mover is to roll (the board before a play), and
    shots are left at 0.
    """
    mine = position.mine
    made = frozenset(point for point in range(1, 25) if mine[point - 1] >= 2)
    blots = tuple(point for point in range(1, 25) if mine[point - 1] == 1)
    contact = position.is_contact()
    reply = position.swapped()
    in_reach = blots
    shots = 0
    if contact and not mover_on_roll and blots:
        in_reach = tuple(point for point in blots if reply.shots(25 - point) > 0)
        shots = reply.shots() if in_reach else 0
    best_run, top, run = 0, 0, 0
    for point in range(1, 26):
        if point in made:
            run += 1
            if run > best_run:
                best_run, top = run, point
        else:
            run = 0
    tallest = max((mine[point - 1], point) for point in range(1, 25))
    return Shape(
        blots=in_reach if contact else (),
        shots=shots,
        made=made,
        prime=(best_run, top),
        home_points=sum(1 for point in made if point <= 6),
        back=sum(mine[18:24]) + position.bar[0],
        tallest=tallest,
        pips=position.pips(),
        hit=position.bar[1],
        contact=contact,
        off=position.off[0],
    )


# -- words ----------------------------------------------------------------------------


def _points(points: Iterable[int]) -> str:
    """'the 7-point', 'the 7- and 5-points', 'the 8-, 7- and 5-points'."""
    names = [str(point) for point in sorted(points, reverse=True)]
    if len(names) == 1:
        return f"the {names[0]}-point"
    return f"the {'-, '.join(names[:-1])}- and {names[-1]}-points"


def _checkers(count: int) -> str:
    return f"{count} checker{'' if count == 1 else 's'}"


def _pips(count: int) -> str:
    return f"{count} pip{'' if count == 1 else 's'}"


def _exposure(shape: Shape) -> str:
    """What a play leaves open and how often it is hit: 'a blot on the 7-point: 17 of 36 ...'."""
    if not shape.blots:
        return "leaves no blot in reach"
    if len(shape.blots) == 1:
        return f"leaves a blot on {_points(shape.blots)}: {shape.shots} of 36 rolls hit it"
    return f"leaves blots on {_points(shape.blots)}: {shape.shots} of 36 rolls hit one"


def _pct(chance: float, digits: int = 0) -> str:
    return f"{100.0 * chance:.{digits}f}%"


def _games(chance: float, digits: int = 0) -> str:
    """A chance of winning the game, its unit said: '65% of the games'."""
    return f"{_pct(chance, digits)} of the games"


def _digits(pairs: Iterable[tuple[float, float | None]]) -> int:
    """Decimals enough for each chance and the threshold it is compared with to read as
    different where they are (68% against 68%: 67.6% against 68.1%)."""
    for chance, threshold in pairs:
        if threshold is not None and chance != threshold and _pct(chance) == _pct(threshold):
            return 1
    return 0


# -- checker plays ----------------------------------------------------------------------


def _race(shape: Shape) -> str:
    lead = shape.pips[1] - shape.pips[0]
    if lead > 0:
        return f"you lead by {_pips(lead)} ({shape.pips[0]} to {_pips(shape.pips[1])})"
    if lead < 0:
        return f"you trail by {_pips(-lead)} ({shape.pips[0]} to {_pips(shape.pips[1])})"
    return f"the pip counts are even ({_pips(shape.pips[0])} each)"


def _facts(
    before: Shape, better: str, b: Shape, played: str, p: Shape
) -> tuple[list[str], list[str]]:
    """How the board after ``played`` differs from the board after ``better``, in two lists:
    what the better play does and what the play made costs (said first), then what the
    play made has for it, each ending in why the better play is still better."""
    leads: list[str] = []
    concessions: list[str] = []
    if b.hit != p.hit:
        more, fewer = max(b.hit, p.hit), min(b.hit, p.hit)
        lost = abs(b.pips[1] - p.pips[1])
        if b.hit > p.hit:
            leads.append(
                f"{better} puts {_checkers(more)} on the bar; {played} only {_checkers(fewer)}."
                if fewer
                else f"{better} hits, costing the opponent {_pips(lost)}; {played} hits nothing."
            )
        else:
            concessions.append(
                f"{better} puts only {_checkers(fewer)} on the bar, and is still better: "
                f"{played} puts {_checkers(more)} there."
                if fewer
                else f"{better} does not hit, and is still better: {played} hits, costing the "
                f"opponent {_pips(lost)}."
            )
    if p.shots > b.shots:
        rest = "leaves none" if not b.blots else _exposure(b).replace(": ", ", where ", 1)
        leads.append(f"{played} {_exposure(p)}; {better} {rest}.")
    elif b.shots > p.shots:
        rest = "leaves none" if not p.blots else _exposure(p).replace(": ", ", where ", 1)
        concessions.append(
            f"{better} {_exposure(b)}, and is still better: the risk is worth taking "
            f"({played} {rest})."
        )
    new_b = sorted(b.made - p.made - before.made)
    new_p = sorted(p.made - b.made - before.made)
    kept = before.made & (b.made - p.made)
    given = before.made & (p.made - b.made)
    anchors_lost = {point for point in kept if point >= 19}
    if new_b:
        instead = f"; {played} makes {_points(new_p)} instead" if new_p else ""
        leads.append(f"{better} makes {_points(new_b)}{instead}.")
    elif new_p:
        concessions.append(
            f"{better} does not make {_points(new_p)}, and is still better: {played} does."
        )
    if kept - anchors_lost:
        leads.append(f"{played} breaks {_points(kept - anchors_lost)}; {better} keeps it.")
    if given:
        concessions.append(f"{better} gives up {_points(given)}, and is still better.")
    if anchors_lost:
        leads.append(f"{played} gives up the anchor on {_points(anchors_lost)}; {better} keeps it.")
    if p.contact or b.contact:
        (lp, _), (lb, tb) = p.prime, b.prime
        l0 = before.prime[0]
        if lp < l0 <= lb and l0 >= 3:
            leads.append(
                f"{played} breaks your {l0}-point prime; {better} keeps "
                f"{lb} points in a row (from the {tb}- to the {tb - lb + 1}-point)."
            )
        elif lb > lp and lb >= 3:
            leads.append(
                f"{better} builds a {lb}-point prime (from the {tb}- to the {tb - lb + 1}-point); "
                f"{played} has {lp} point{'' if lp == 1 else 's'} in a row at most."
            )
        if p.back > b.back and b.contact:
            leads.append(
                f"{better} brings {_checkers(p.back - b.back)} out of the opponent's home "
                f"board; {played} leaves {_checkers(p.back)} back."
            )
        elif b.back > p.back and p.contact:
            concessions.append(
                f"{better} keeps {_checkers(b.back)} back, and is still better: {played} runs "
                f"{_checkers(b.back - p.back)} from there."
            )
    if p.tallest[0] >= _TALL and p.tallest[0] > b.tallest[0]:
        leads.append(
            f"{played} stacks {p.tallest[0]} checkers on the {p.tallest[1]}-point; "
            f"{better} spreads them (at most {_checkers(b.tallest[0])} on a point)."
        )
    if before.contact and p.contact != b.contact:
        if not b.contact:
            leads.append(f"{better} breaks contact: a pure race in which {_race(b)}.")
        else:
            concessions.append(
                f"{better} keeps contact, and is still better: {played} breaks it, into a pure "
                f"race in which {_race(p)}."
            )
    elif not before.contact:
        off_b, off_p = b.off - before.off, p.off - before.off
        if off_b > off_p:
            leads.append(f"{better} bears off {_checkers(off_b)}, {played} {_checkers(off_p)}.")
        elif off_p > off_b:
            concessions.append(
                f"{better} bears off {_checkers(off_b)}, and is still better: {played} "
                f"bears off {_checkers(off_p)}."
            )
        if p.pips[0] > b.pips[0]:
            leads.append(
                f"{played} wastes {_pips(p.pips[0] - b.pips[0])}: {better} leaves "
                f"{_pips(b.pips[0])} to bear off, {played} {_pips(p.pips[0])}."
            )
    return leads, concessions


def _cubeless(chances: tuple[float, float, float, float, float]) -> float:
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = chances
    return 2.0 * win - 1.0 + win_gammon + win_backgammon - lose_gammon - lose_backgammon


def _chance_facts(better: str, b: Candidate, played: str, p: Candidate) -> list[str]:
    """The engine's chances after each play, in one sentence, when they differ enough."""
    (bw, bwg, _, blg, _), (pw, pwg, _, plg, _) = b.chances, p.chances
    steps = (abs(bw - pw), abs(bwg - pwg), abs(blg - plg))
    if max(steps) < _CHANCE_STEP:
        return []
    if max(steps[1:]) < _CHANCE_STEP:
        return [f"After {better} you win {_games(bw)}, after {played} {_games(pw)}."]
    return [
        f"After {better} you win {_games(bw)} ({_pct(bwg)} gammons) and lose a gammon "
        f"{_pct(blg)} of the time; after {played} you win {_games(pw)} ({_pct(pwg)} gammons) "
        f"and lose a gammon {_pct(plg)} of the time."
    ]


def compare_plays(before: Position, dice: Dice, *, better: str, played: str) -> list[str]:
    """Why ``better`` beats ``played`` on the board ``before`` (mover on roll), from the boards:
    what ``better`` does and ``played`` costs first, then what ``played`` has for it."""
    b = before.parse_play(better, dice).position
    p = before.parse_play(played, dice).position
    leads, concessions = _facts(
        shape_of(before, mover_on_roll=True), better, shape_of(b), played, shape_of(p)
    )
    return leads + concessions


def loss_words(loss: float, unit: Unit) -> str:
    """A loss as the player reads it, its unit named: '0.123 in equity', '1.4% in match
    winning chance'."""
    if unit is Unit.MWC:
        return f"{100.0 * loss:.1f}% in match winning chance"
    return f"{loss:.3f} in equity"


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


def _tags(before: Shape, b: Shape, p: Shape) -> frozenset[str]:
    """Which beginner patterns the play made shows, against the better play."""
    tags = set()
    if p.shots > b.shots and p.blots:
        tags.add("blots")
    if p.tallest[0] >= _TALL and p.tallest[0] > b.tallest[0]:
        tags.add("stacking")
    if p.home_points < b.home_points and b.contact:
        tags.add("home")
    if p.back > b.back and b.contact:
        tags.add("late-run")
    if (before.anchors & b.made) - p.made:
        tags.add("anchor")
    if b.hit > p.hit:
        tags.add("no-hit")
    return frozenset(tags)


def _position(position_id: str | None, checkers: int) -> Position | None:
    if position_id is None:
        return None
    try:
        return Position.from_id(position_id, checkers=checkers)
    except GammonError:
        return None


def checker_loss(review: CheckerReview) -> tuple[float, Unit]:
    """What the play made gave up in the review's unit: match winning chance in a match
    (the candidates carry it), equity in money play."""
    best = review.best
    played = next(c for c in review.candidates if c.play == review.played)
    if best.mwc is not None and played.mwc is not None:
        return max(0.0, best.mwc - played.mwc), Unit.MWC
    return review.loss, Unit.EQUITY


def explain_checker(review: CheckerReview, *, checkers: int = 15) -> Explanation | None:
    """Why the play made lost against the best play; None if it was the best.

    ``checkers`` is the variant's checkers a side (3 in hypergammon).
    """
    best = review.best
    if review.loss <= 0.0 or best.play == review.played:
        return None
    before = _position(review.position_id, checkers)
    if before is None:
        return None
    played = next(c for c in review.candidates if c.play == review.played)
    b_pos = before.parse_play(best.play, review.dice).position
    p_pos = before.parse_play(review.played, review.dice).position
    shape0, b, p = shape_of(before, mover_on_roll=True), shape_of(b_pos), shape_of(p_pos)
    leads, concessions = _facts(shape0, best.play, b, review.played, p)
    chances = _chance_facts(best.play, best, review.played, played)
    favours_better = _cubeless(best.chances) >= _cubeless(played.chances)
    facts = leads[:_MOST_FACTS] + (chances if favours_better else [])
    if not facts:  # nothing on the boards speaks for the better play: its value does
        loss, unit = checker_loss(review)
        facts = [
            f"As the engine plays the position on, {best.play} is better than "
            f"{review.played} by {loss_words(loss, unit)}."
        ]
    facts += concessions[: max(0, _MOST_FACTS - len(leads))]
    if not favours_better:
        facts += chances
    return Explanation(
        review.game,
        review.index,
        review.side,
        "checker",
        review.played,
        best.play,
        review.loss,
        tuple(facts),
        _tags(shape0, b, p),
    )


# -- cube decisions -----------------------------------------------------------------


def cube_state_of(match_id: str, side: int) -> CubeState:
    """The cube and score a Match ID tells, seen from ``side`` (Jacoby and beavers, which
    a Match ID does not tell, move neither the window nor the take point)."""
    fields = decode_match_id(match_id)
    owner = fields.cube_owner
    relative = (
        CubeOwner.CENTRED if owner is None else CubeOwner.ME if owner == side
        else CubeOwner.OPPONENT
    )  # fmt: skip
    score = None
    if fields.match_length:
        away = (
            fields.match_length - fields.score[side],
            fields.match_length - fields.score[1 - side],
        )
        score = MatchScore(
            *away, crawford=fields.crawford, post_crawford=not fields.crawford and 1 in away
        )
    return CubeState(fields.cube_value, relative, score)


def cube_model(review: CubeReview, checkers: int) -> CubeDecision | None:
    """The engine's cube decision from the review's chances: the doubling window and take
    point the words compare the chances with (None where the board or score cannot be read).

    The cube and score come from the review's Match ID (:func:`cube_state_of`), the cube
    efficiency from its board: the same model the analysis used.
    """
    position = _position(review.position_id, checkers)
    if position is None:
        return None
    try:
        state = cube_state_of(review.match_id, review.side)
        return cube_decision(review.chances, state, cube_efficiency(position))
    except (GammonError, InvalidCubeStateError, ValueError):
        return None


def _early_double_fact(win: float, model: CubeDecision | None, digits: int) -> str:
    """Why a double was too early, in words that agree with the figures shown: below the
    window when the chances are, or else why the engine still keeps the cube."""
    if model is None:
        return "Too early to double: the cube is worth more kept."
    if model.doubling_point is None:
        return "Here doubling never gains: the cube is worth more kept."
    if win < model.doubling_point:
        return (
            "That is below the doubling window, which opens at "
            f"{_games(model.doubling_point, digits)}: "
            "too early to double; the cube is worth more kept."
        )
    if win >= model.cash_point:
        return (
            "By the chances alone that is past the cash point of "
            f"{_games(model.cash_point, digits)}, but as the engine plays the position on, "
            "keeping the cube is worth more: too early to double."
        )
    return (
        f"By the chances alone that is inside the doubling window, which opens at "
        f"{_games(model.doubling_point, digits)}, but as the engine plays the position on, "
        "keeping the cube is worth more: too early to double."
    )


def _missed_double_fact(
    win: float, model: CubeDecision | None, verdict: str, doubler: str, taker: str, digits: int
) -> str:
    """Why a double was missed, in words that agree with the figures shown."""
    if "pass" in verdict:
        if model is None or win >= model.cash_point:
            cash = f" of {_games(model.cash_point, digits)}" if model is not None else ""
            return (
                f"That is past the cash point{cash}: {doubler} should double and {taker} "
                "should pass; waiting risks losing the market."
            )
        return (
            "By the chances alone that is short of the cash point "
            f"({_games(model.cash_point, digits)}), "
            f"but as the engine plays the position on, {taker} should pass a double: "
            f"{doubler} should double now; waiting risks losing the market."
        )
    if model is None:
        return f"The right action was: {verdict}."
    if model.doubling_point is None:
        return (
            "By the chances alone doubling never gains here, but as the engine plays the "
            f"position on, it does: double, and {taker} should take."
        )
    window = f"({_pct(model.doubling_point, digits)} to {_games(model.cash_point, digits)})"
    if model.doubling_point <= win < model.cash_point:
        return f"That is inside the doubling window {window}: double, and {taker} should take."
    side = "below" if win < model.doubling_point else "above"
    return (
        f"By the chances alone that is {side} the doubling window {window}, but as the engine "
        f"plays the position on, doubling gains: double, and {taker} should take."
    )


def cube_words(win: float, decision: CubeDecision) -> tuple[str, ...]:
    """Where the doubler's chance of winning the game stands against the doubling window
    and the take point, in words that agree with ``decision``'s action and answer: where
    a search decided against the chances alone, the words say so (the cube hint's text).
    """
    window, cash, take = decision.doubling_point, decision.cash_point, decision.take_point
    digits = _digits([(win, window), (win, cash), (1.0 - win, take)])
    if window is None:
        place, doubles_by_chances = "where doubling never gains", False
    elif win < window:
        place = f"below the doubling window, which opens at {_games(window, digits)}"
        doubles_by_chances = False
    elif win < cash:
        place = f"inside the doubling window ({_pct(window, digits)} to {_games(cash, digits)})"
        doubles_by_chances = True
    else:
        place, doubles_by_chances = f"past the cash point of {_games(cash, digits)}", True
    odds = f"The doubler wins {_games(win, digits)}"
    if decision.doubler is DoublerVerdict.TOO_GOOD:
        doubler = (
            f"{odds}, {place}, and is too good to double: playing on for the gammon is "
            "worth more than the point the double cashes."
        )
    elif doubles_by_chances == decision.doubles:
        doubler = f"{odds}: {place}."
    else:
        engine = "doubling gains" if decision.doubles else "keeping the cube is worth more"
        doubler = (
            f"{odds}: by the chances alone that is {place}, but as the engine plays the "
            f"position on, {engine}."
        )
    taker_wins = f"The taker wins {_games(1.0 - win, digits)}"
    takes_by_chances = 1.0 - win >= take
    side = "above" if takes_by_chances else "below"
    point = f"{side} the take point of {_games(take, digits)}"
    takes = decision.taker is not TakerVerdict.PASS
    if takes_by_chances == takes:
        taker = f"{taker_wins}: {point}."
    else:
        engine = "taking loses less than passing" if takes else "passing loses less"
        taker = (
            f"{taker_wins}: by the chances alone that is {point}, but as the engine plays "
            f"the position on, {engine}."
        )
    return doubler, taker


def explain_cube(
    review: CubeReview, names: Sequence[str] = ("side 0", "side 1"), *, checkers: int = 15
) -> list[Explanation]:
    """Why the cube action, or the answer to it, was wrong: chances against the thresholds."""
    found: list[Explanation] = []
    win, win_gammon, _, lose_gammon, _ = review.chances
    model = cube_model(review, checkers)
    digits = (
        0
        if model is None
        else _digits(
            [
                (win, model.doubling_point),
                (win, model.cash_point),
                (1.0 - win, model.take_point),
            ]
        )
    )
    doubler, taker = names[review.side], names[1 - review.side]
    gammons = win_gammon + lose_gammon >= 0.005
    odds = f"{doubler} wins {_pct(win, digits)} of the games" + (
        f" ({_pct(win_gammon)} gammons) and loses a gammon {_pct(lose_gammon)} of the time"
        if gammons
        else ", with no gammons in sight"
    )
    verdict = review.verdict.lower()
    if review.doubler_loss > 0.0:
        facts = [odds + "."]
        tags: set[str] = set()
        if review.doubled and "too good" in verdict:
            facts.append(
                "That is too good to double: playing on for the gammon is worth more "
                "than the point the double cashes."
            )
            tags.add("too-good")
        elif review.doubled:
            facts.append(_early_double_fact(win, model, digits))
            tags.add("early-double")
        else:
            facts.append(_missed_double_fact(win, model, verdict, doubler, taker, digits))
            tags.add("missed-double")
        found.append(
            Explanation(
                review.game,
                review.index,
                review.side,
                "double",
                "double" if review.doubled else "no double",
                review.verdict,
                review.doubler_loss,
                tuple(facts),
                frozenset(tags),
            )
        )
    if review.taker_loss > 0.0 and review.response is not None:
        take_point = f" of {_games(model.take_point, digits)}" if model is not None else ""
        chances = f"{taker} wins {_pct(1.0 - win, digits)} of the games" + (
            f" and loses a gammon {_pct(win_gammon)} of the time" if gammons else ""
        )
        taker_chance = 1.0 - win
        if review.response == "pass":
            facts = [
                f"{chances}: above the take point{take_point}."
                if model is None or taker_chance >= model.take_point
                else f"{chances}: below the take point{take_point} by the chances alone, but "
                "as the engine plays the position on, taking loses less.",
                "Passing gives the game up for sure; taking loses less on average.",
            ]
            tags = {"wrong-pass"}
            better = "take"
        else:
            facts = [
                f"{chances}: below the take point{take_point}."
                if model is None or taker_chance < model.take_point
                else f"{chances}: above the take point{take_point} by the chances alone, but "
                "as the engine plays the position on, taking loses more than passing.",
                "Taking risks more than the point that passing gives up"
                + (", gammons included." if win_gammon >= _CHANCE_STEP else "."),
            ]
            tags = {"hopeless-take"}
            better = "pass"
        found.append(
            Explanation(
                review.game,
                review.index,
                1 - review.side,
                "answer",
                review.response,
                better,
                review.taker_loss,
                tuple(facts),
                frozenset(tags),
            )
        )
    return found


def explain(
    checker: Iterable[CheckerReview],
    cube: Iterable[CubeReview],
    names: Sequence[str] = ("side 0", "side 1"),
    *,
    threshold: float = DOUBTFUL,
    checkers: int = 15,
) -> list[Explanation]:
    """Explanations of every decision that lost at least ``threshold`` (doubtful or worse)."""
    found: list[Explanation] = []
    for review in checker:
        if review.loss >= threshold:
            explanation = explain_checker(review, checkers=checkers)
            if explanation is not None:
                found.append(explanation)
    for cube_review in cube:
        found += [
            e for e in explain_cube(cube_review, names, checkers=checkers) if e.loss >= threshold
        ]
    found.sort(key=lambda e: (e.game, e.index, e.kind))
    return found
