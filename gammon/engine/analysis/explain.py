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
from gammon.i18n import N_, SOURCE_LANGUAGE, Translator, translator
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
    "MARKS",
    "VERDICTS",
    "mark_words",
    "verdict_words",
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
#
# Every sentence is a message of the catalogs (gammon.i18n), in the language of the
# analysis: English (the source) unless a ``lang`` is given. Figures are rounded here, as
# the English has always shown them, and then written as the language writes numbers, so
# that every language shows the same figures.


def _number(value: int, tr: Translator) -> str:
    return str(value) if tr.lang == SOURCE_LANGUAGE else tr.number(value)


def _fixed(value: float, digits: int, tr: Translator) -> str:
    """``value`` with ``digits`` decimals: ``0.123`` (``0,123`` in Finnish)."""
    shown = f"{value:.{digits}f}"
    if tr.lang == SOURCE_LANGUAGE:
        return shown
    return tr.number(float(shown), f"0.{'0' * digits}" if digits else "0")


def _list(points: Iterable[int], tr: Translator) -> tuple[str, int]:
    """Points named for a sentence, highest first, and how many: ``8-, 7- and 5`` (the
    message then says ``the {points}-points``), ``7`` for one."""
    names = [_number(point, tr) for point in sorted(points, reverse=True)]
    if len(names) == 1:
        return names[0], 1
    listed = names[0]
    for name in names[1:-1]:
        # TRANSLATORS: joins points in a list ("8-, 7"); the last is joined by the next message.
        listed = tr.gettext("{points}-, {point}", points=listed, point=name)
    # TRANSLATORS: the last point of a list ("8-, 7- and 5"), said before "-points".
    return tr.gettext("{points}- and {last}", points=listed, last=names[-1]), len(names)


def _checkers(count: int, tr: Translator) -> str:
    return tr.ngettext("{n} checker", "{n} checkers", count)


def _pips(count: int, tr: Translator) -> str:
    return tr.ngettext("{n} pip", "{n} pips", count)


def _leaves(play: str, shape: Shape, tr: Translator, *, where: bool = False) -> str:
    """What ``play`` leaves open and how often it is hit, as a clause with ``play`` its
    subject: '13/7 6/5 leaves a blot on the 7-point: 16 of 36 rolls hit it'."""
    if not shape.blots:
        return tr.gettext("{play} leaves none", play=play)
    points, count = _list(shape.blots, tr)
    shots = _number(shape.shots, tr)
    if count == 1 and where:
        message = N_("{play} leaves a blot on the {points}-point, where {shots} of 36 rolls hit it")
        return tr.gettext(message, play=play, points=points, shots=shots)
    if count == 1:
        message = N_("{play} leaves a blot on the {points}-point: {shots} of 36 rolls hit it")
        return tr.gettext(message, play=play, points=points, shots=shots)
    if where:
        message = N_(
            "{play} leaves blots on the {points}-points, where {shots} of 36 rolls hit one"
        )
        return tr.gettext(message, play=play, points=points, shots=shots)
    message = N_("{play} leaves blots on the {points}-points: {shots} of 36 rolls hit one")
    return tr.gettext(message, play=play, points=points, shots=shots)


def _pct(chance: float, digits: int = 0, tr: Translator | None = None) -> str:
    """A chance as a per cent, rounded as the English has always shown it."""
    shown = f"{100.0 * chance:.{digits}f}"
    if tr is None or tr.lang == SOURCE_LANGUAGE:
        return f"{shown}%"
    return tr.percent(float(shown) / 100.0, digits)


def _games(chance: float, digits: int = 0, tr: Translator | None = None) -> str:
    """A chance of winning the game, its unit said: '65% of the games'."""
    tr = tr or translator()
    return tr.gettext("{chance} of the games", chance=_pct(chance, digits, tr))


def _digits(pairs: Iterable[tuple[float, float | None]]) -> int:
    """Decimals enough for each chance and the threshold it is compared with to read as
    different where they are (68% against 68%: 67.6% against 68.1%)."""
    for chance, threshold in pairs:
        if threshold is not None and chance != threshold and _pct(chance) == _pct(threshold):
            return 1
    return 0


# -- checker plays ----------------------------------------------------------------------


def _race(shape: Shape, tr: Translator) -> str:
    lead = shape.pips[1] - shape.pips[0]
    mine, theirs = _number(shape.pips[0], tr), _pips(shape.pips[1], tr)
    if lead > 0:
        message = N_("you lead by {lead} ({mine} to {theirs})")
        return tr.gettext(message, lead=_pips(lead, tr), mine=mine, theirs=theirs)
    if lead < 0:
        message = N_("you trail by {lead} ({mine} to {theirs})")
        return tr.gettext(message, lead=_pips(-lead, tr), mine=mine, theirs=theirs)
    return tr.gettext("the pip counts are even ({pips} each)", pips=_pips(shape.pips[0], tr))


def _facts(
    before: Shape, better: str, b: Shape, played: str, p: Shape, tr: Translator
) -> tuple[list[str], list[str]]:
    """How the board after ``played`` differs from the board after ``better``, in two lists:
    what the better play does and what the play made costs (said first), then what the
    play made has for it, each ending in why the better play is still better."""
    leads: list[str] = []
    concessions: list[str] = []
    if b.hit != p.hit:
        more, fewer = _checkers(max(b.hit, p.hit), tr), _checkers(min(b.hit, p.hit), tr)
        lost = _pips(abs(b.pips[1] - p.pips[1]), tr)
        if b.hit > p.hit:
            leads.append(
                tr.gettext(
                    "{better} puts {more} on the bar; {played} only {fewer}.",
                    better=better,
                    more=more,
                    played=played,
                    fewer=fewer,
                )
                if min(b.hit, p.hit)
                else tr.gettext(
                    "{better} hits, costing the opponent {pips}; {played} hits nothing.",
                    better=better,
                    pips=lost,
                    played=played,
                )
            )
        else:
            concessions.append(
                tr.gettext(
                    "{better} puts only {fewer} on the bar, and is still better: "
                    "{played} puts {more} there.",
                    better=better,
                    fewer=fewer,
                    played=played,
                    more=more,
                )
                if min(b.hit, p.hit)
                else tr.gettext(
                    "{better} does not hit, and is still better: {played} hits, costing the "
                    "opponent {pips}.",
                    better=better,
                    played=played,
                    pips=lost,
                )
            )
    if p.shots > b.shots:
        leads.append(
            tr.gettext(
                "{first}; {second}.",
                first=_leaves(played, p, tr),
                second=_leaves(better, b, tr, where=True),
            )
        )
    elif b.shots > p.shots:
        concessions.append(
            tr.gettext(
                "{leaves}, and is still better: the risk is worth taking ({other}).",
                leaves=_leaves(better, b, tr),
                other=_leaves(played, p, tr, where=True),
            )
        )
    new_b = sorted(b.made - p.made - before.made)
    new_p = sorted(p.made - b.made - before.made)
    kept = before.made & (b.made - p.made)
    given = before.made & (p.made - b.made)
    anchors_lost = {point for point in kept if point >= 19}

    def one_or_more(points: Iterable[int], one: str, more: str, **values: str) -> str:
        """The message for one point or for several (``one``, ``more``: marked N_)."""
        named, count = _list(points, tr)
        return tr.gettext(one if count == 1 else more, points=named, **values)

    if new_b:
        made = one_or_more(
            new_b,
            N_("{play} makes the {points}-point"),
            N_("{play} makes the {points}-points"),
            play=better,
        )
        if new_p:
            instead = one_or_more(
                new_p,
                N_("{play} makes the {points}-point"),
                N_("{play} makes the {points}-points"),
                play=played,
            )
            leads.append(tr.gettext("{first}; {second} instead.", first=made, second=instead))
        else:
            leads.append(tr.gettext("{clause}.", clause=made))
    elif new_p:
        concessions.append(
            one_or_more(
                new_p,
                N_(
                    "{better} does not make the {points}-point, and is still better: {played} does."
                ),
                N_(
                    "{better} does not make the {points}-points, and is still better: "
                    "{played} does."
                ),
                better=better,
                played=played,
            )
        )
    if kept - anchors_lost:
        leads.append(
            one_or_more(
                kept - anchors_lost,
                N_("{played} breaks the {points}-point; {better} keeps it."),
                N_("{played} breaks the {points}-points; {better} keeps it."),
                played=played,
                better=better,
            )
        )
    if given:
        concessions.append(
            one_or_more(
                given,
                N_("{better} gives up the {points}-point, and is still better."),
                N_("{better} gives up the {points}-points, and is still better."),
                better=better,
            )
        )
    if anchors_lost:
        leads.append(
            one_or_more(
                anchors_lost,
                N_("{played} gives up the anchor on the {points}-point; {better} keeps it."),
                N_("{played} gives up the anchor on the {points}-points; {better} keeps it."),
                played=played,
                better=better,
            )
        )
    if p.contact or b.contact:
        (lp, _), (lb, tb) = p.prime, b.prime
        l0 = before.prime[0]
        ends = {"top": _number(tb, tr), "bottom": _number(tb - lb + 1, tr)}
        if lp < l0 <= lb and l0 >= 3:
            leads.append(
                tr.gettext(
                    "{played} breaks your {length}-point prime; {better} keeps {kept} points in a "
                    "row (from the {top}- to the {bottom}-point).",
                    played=played,
                    length=_number(l0, tr),
                    better=better,
                    kept=_number(lb, tr),
                    **ends,
                )
            )
        elif lb > lp and lb >= 3:
            leads.append(
                tr.ngettext(
                    "{better} builds a {length}-point prime (from the {top}- to the "
                    "{bottom}-point); {played} has {n} point in a row at most.",
                    "{better} builds a {length}-point prime (from the {top}- to the "
                    "{bottom}-point); {played} has {n} points in a row at most.",
                    lp,
                    better=better,
                    length=_number(lb, tr),
                    played=played,
                    **ends,
                )
            )
        if p.back > b.back and b.contact:
            leads.append(
                tr.gettext(
                    "{better} brings {checkers} out of the opponent's home board; {played} "
                    "leaves {back} back.",
                    better=better,
                    checkers=_checkers(p.back - b.back, tr),
                    played=played,
                    back=_checkers(p.back, tr),
                )
            )
        elif b.back > p.back and p.contact:
            concessions.append(
                tr.gettext(
                    "{better} keeps {back} back, and is still better: {played} runs {run} from "
                    "there.",
                    better=better,
                    back=_checkers(b.back, tr),
                    played=played,
                    run=_checkers(b.back - p.back, tr),
                )
            )
    if p.tallest[0] >= _TALL and p.tallest[0] > b.tallest[0]:
        leads.append(
            tr.gettext(
                "{played} stacks {count} checkers on the {point}-point; {better} spreads them "
                "(at most {most} on a point).",
                played=played,
                count=_number(p.tallest[0], tr),
                point=_number(p.tallest[1], tr),
                better=better,
                most=_checkers(b.tallest[0], tr),
            )
        )
    if before.contact and p.contact != b.contact:
        if not b.contact:
            leads.append(
                tr.gettext(
                    "{better} breaks contact: a pure race in which {race}.",
                    better=better,
                    race=_race(b, tr),
                )
            )
        else:
            concessions.append(
                tr.gettext(
                    "{better} keeps contact, and is still better: {played} breaks it, into a "
                    "pure race in which {race}.",
                    better=better,
                    played=played,
                    race=_race(p, tr),
                )
            )
    elif not before.contact:
        off_b, off_p = b.off - before.off, p.off - before.off
        if off_b > off_p:
            leads.append(
                tr.gettext(
                    "{better} bears off {off}, {played} {other}.",
                    better=better,
                    off=_checkers(off_b, tr),
                    played=played,
                    other=_checkers(off_p, tr),
                )
            )
        elif off_p > off_b:
            concessions.append(
                tr.gettext(
                    "{better} bears off {off}, and is still better: {played} bears off {other}.",
                    better=better,
                    off=_checkers(off_b, tr),
                    played=played,
                    other=_checkers(off_p, tr),
                )
            )
        if p.pips[0] > b.pips[0]:
            leads.append(
                tr.gettext(
                    "{played} wastes {waste}: {better} leaves {left} to bear off, {played} "
                    "{other}.",
                    played=played,
                    waste=_pips(p.pips[0] - b.pips[0], tr),
                    better=better,
                    left=_pips(b.pips[0], tr),
                    other=_pips(p.pips[0], tr),
                )
            )
    return leads, concessions


def _cubeless(chances: tuple[float, float, float, float, float]) -> float:
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = chances
    return 2.0 * win - 1.0 + win_gammon + win_backgammon - lose_gammon - lose_backgammon


def _chance_facts(
    better: str, b: Candidate, played: str, p: Candidate, tr: Translator
) -> list[str]:
    """The engine's chances after each play, in one sentence, when they differ enough."""
    (bw, bwg, _, blg, _), (pw, pwg, _, plg, _) = b.chances, p.chances
    steps = (abs(bw - pw), abs(bwg - pwg), abs(blg - plg))
    if max(steps) < _CHANCE_STEP:
        return []
    if max(steps[1:]) < _CHANCE_STEP:
        return [
            tr.gettext(
                "After {better} you win {win}, after {played} {other}.",
                better=better,
                win=_games(bw, 0, tr),
                played=played,
                other=_games(pw, 0, tr),
            )
        ]
    return [
        tr.gettext(
            "After {better} you win {win} ({gammons} gammons) and lose a gammon {lost} of the "
            "time; after {played} you win {other} ({other_gammons} gammons) and lose a gammon "
            "{other_lost} of the time.",
            better=better,
            win=_games(bw, 0, tr),
            gammons=_pct(bwg, 0, tr),
            lost=_pct(blg, 0, tr),
            played=played,
            other=_games(pw, 0, tr),
            other_gammons=_pct(pwg, 0, tr),
            other_lost=_pct(plg, 0, tr),
        )
    ]


def compare_plays(
    before: Position, dice: Dice, *, better: str, played: str, lang: str = SOURCE_LANGUAGE
) -> list[str]:
    """Why ``better`` beats ``played`` on the board ``before`` (mover on roll), from the boards:
    what ``better`` does and ``played`` costs first, then what ``played`` has for it."""
    b = before.parse_play(better, dice).position
    p = before.parse_play(played, dice).position
    leads, concessions = _facts(
        shape_of(before, mover_on_roll=True),
        better,
        shape_of(b),
        played,
        shape_of(p),
        translator(lang),
    )
    return leads + concessions


def loss_words(loss: float, unit: Unit, lang: str = SOURCE_LANGUAGE) -> str:
    """A loss as the player reads it, its unit named: '0.123 in equity', '1.4% in match
    winning chance'."""
    tr = translator(lang)
    if unit is Unit.MWC:
        return tr.gettext("{loss} in match winning chance", loss=_pct(loss, 1, tr))
    return tr.gettext("{loss} in equity", loss=_fixed(loss, 3, tr))


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


def explain_checker(
    review: CheckerReview, *, checkers: int = 15, lang: str = SOURCE_LANGUAGE
) -> Explanation | None:
    """Why the play made lost against the best play; None if it was the best.

    ``checkers`` is the variant's checkers a side (3 in hypergammon); ``lang`` the language
    of the words (gammon.i18n).
    """
    best = review.best
    if review.loss <= 0.0 or best.play == review.played:
        return None
    before = _position(review.position_id, checkers)
    if before is None:
        return None
    tr = translator(lang)
    played = next(c for c in review.candidates if c.play == review.played)
    b_pos = before.parse_play(best.play, review.dice).position
    p_pos = before.parse_play(review.played, review.dice).position
    shape0, b, p = shape_of(before, mover_on_roll=True), shape_of(b_pos), shape_of(p_pos)
    leads, concessions = _facts(shape0, best.play, b, review.played, p, tr)
    chances = _chance_facts(best.play, best, review.played, played, tr)
    favours_better = _cubeless(best.chances) >= _cubeless(played.chances)
    facts = leads[:_MOST_FACTS] + (chances if favours_better else [])
    if not facts:  # nothing on the boards speaks for the better play: its value does
        loss, unit = checker_loss(review)
        facts = [
            tr.gettext(
                "As the engine plays the position on, {better} is better than {played} by {loss}.",
                better=best.play,
                played=review.played,
                loss=loss_words(loss, unit, tr.lang),
            )
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

#: The cube's right actions as GNU Backgammon names them (CubeReview.verdict), for words.
VERDICTS: Final = frozenset(
    {
        N_("No double, take"),
        N_("No double, beaver"),
        N_("No redouble, take"),
        N_("No redouble, beaver"),
        N_("Double, take"),
        N_("Double, beaver"),
        N_("Double, pass"),
        N_("Redouble, take"),
        N_("Redouble, beaver"),
        N_("Redouble, pass"),
        N_("Too good to double, take"),
        N_("Too good to double, pass"),
        N_("Too good to redouble, take"),
        N_("Too good to redouble, pass"),
    }
)


#: The marks of a decision (results.Mark) and of a roll's luck (results.LuckMark), for words.
MARKS: Final = frozenset(
    {
        N_("doubtful"),
        N_("bad"),
        N_("very bad"),
        N_("very lucky"),
        N_("lucky"),
        N_("unlucky"),
        N_("very unlucky"),
        N_("take"),
        N_("pass"),
        N_("beaver"),
    }
)


def mark_words(mark: str, lang: str = SOURCE_LANGUAGE) -> str:
    """A mark ("doubtful", "very bad", "lucky"...) or an answer ("take", "pass") in
    ``lang``; an empty mark stays empty."""
    mark = str(mark)
    return translator(lang).gettext(mark) if mark in MARKS else mark


def verdict_words(verdict: str, lang: str = SOURCE_LANGUAGE) -> str:
    """A cube verdict ("Double, take") in ``lang``; the verdict itself where it is not one
    of :data:`VERDICTS`."""
    return translator(lang).gettext(verdict) if verdict in VERDICTS else verdict


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


def _early_double_fact(win: float, model: CubeDecision | None, digits: int, tr: Translator) -> str:
    """Why a double was too early, in words that agree with the figures shown: below the
    window when the chances are, or else why the engine still keeps the cube."""
    if model is None:
        return tr.gettext("Too early to double: the cube is worth more kept.")
    if model.doubling_point is None:
        return tr.gettext("Here doubling never gains: the cube is worth more kept.")
    window = _games(model.doubling_point, digits, tr)
    if win < model.doubling_point:
        return tr.gettext(
            "That is below the doubling window, which opens at {window}: too early to double; "
            "the cube is worth more kept.",
            window=window,
        )
    if win >= model.cash_point:
        return tr.gettext(
            "By the chances alone that is past the cash point of {cash}, but as the engine "
            "plays the position on, keeping the cube is worth more: too early to double.",
            cash=_games(model.cash_point, digits, tr),
        )
    return tr.gettext(
        "By the chances alone that is inside the doubling window, which opens at {window}, "
        "but as the engine plays the position on, keeping the cube is worth more: too early "
        "to double.",
        window=window,
    )


def _missed_double_fact(
    win: float,
    model: CubeDecision | None,
    verdict: str,
    doubler: str,
    taker: str,
    digits: int,
    tr: Translator,
) -> str:
    """Why a double was missed, in words that agree with the figures shown."""
    if "pass" in verdict.lower():
        if model is None:
            return tr.gettext(
                "That is past the cash point: {doubler} should double and {taker} should "
                "pass; waiting risks losing the market.",
                doubler=doubler,
                taker=taker,
            )
        cash = _games(model.cash_point, digits, tr)
        if win >= model.cash_point:
            return tr.gettext(
                "That is past the cash point of {cash}: {doubler} should double and {taker} "
                "should pass; waiting risks losing the market.",
                cash=cash,
                doubler=doubler,
                taker=taker,
            )
        return tr.gettext(
            "By the chances alone that is short of the cash point ({cash}), but as the engine "
            "plays the position on, {taker} should pass a double: {doubler} should double "
            "now; waiting risks losing the market.",
            cash=cash,
            taker=taker,
            doubler=doubler,
        )
    if model is None:
        return tr.gettext(
            "The right action was: {verdict}.", verdict=verdict_words(verdict, tr.lang).lower()
        )
    if model.doubling_point is None:
        return tr.gettext(
            "By the chances alone doubling never gains here, but as the engine plays the "
            "position on, it does: double, and {taker} should take.",
            taker=taker,
        )
    window = {
        "low": _pct(model.doubling_point, digits, tr),
        "cash": _games(model.cash_point, digits, tr),
        "taker": taker,
    }
    if model.doubling_point <= win < model.cash_point:
        return tr.gettext(
            "That is inside the doubling window ({low} to {cash}): double, and {taker} "
            "should take.",
            **window,
        )
    if win < model.doubling_point:
        return tr.gettext(
            "By the chances alone that is below the doubling window ({low} to {cash}), but as "
            "the engine plays the position on, doubling gains: double, and {taker} should "
            "take.",
            **window,
        )
    return tr.gettext(
        "By the chances alone that is above the doubling window ({low} to {cash}), but as "
        "the engine plays the position on, doubling gains: double, and {taker} should take.",
        **window,
    )


def cube_words(win: float, decision: CubeDecision, lang: str = SOURCE_LANGUAGE) -> tuple[str, ...]:
    """Where the doubler's chance of winning the game stands against the doubling window
    and the take point, in words that agree with ``decision``'s action and answer: where
    a search decided against the chances alone, the words say so (the cube hint's text).
    """
    tr = translator(lang)
    window, cash, take = decision.doubling_point, decision.cash_point, decision.take_point
    digits = _digits([(win, window), (win, cash), (1.0 - win, take)])
    if window is None:
        place, doubles_by_chances = tr.gettext("where doubling never gains"), False
    elif win < window:
        place = tr.gettext(
            "below the doubling window, which opens at {window}",
            window=_games(window, digits, tr),
        )
        doubles_by_chances = False
    elif win < cash:
        place = tr.gettext(
            "inside the doubling window ({low} to {cash})",
            low=_pct(window, digits, tr),
            cash=_games(cash, digits, tr),
        )
        doubles_by_chances = True
    else:
        place = tr.gettext("past the cash point of {cash}", cash=_games(cash, digits, tr))
        doubles_by_chances = True
    odds = tr.gettext("The doubler wins {chance}", chance=_games(win, digits, tr))
    if decision.doubler is DoublerVerdict.TOO_GOOD:
        doubler = tr.gettext(
            "{odds}, {place}, and is too good to double: playing on for the gammon is worth "
            "more than the point the double cashes.",
            odds=odds,
            place=place,
        )
    elif doubles_by_chances == decision.doubles:
        doubler = tr.gettext("{odds}: {place}.", odds=odds, place=place)
    else:
        engine = (
            tr.gettext("doubling gains")
            if decision.doubles
            else tr.gettext("keeping the cube is worth more")
        )
        doubler = tr.gettext(
            "{odds}: by the chances alone that is {place}, but as the engine plays the "
            "position on, {engine}.",
            odds=odds,
            place=place,
            engine=engine,
        )
    taker_wins = tr.gettext("The taker wins {chance}", chance=_games(1.0 - win, digits, tr))
    takes_by_chances = 1.0 - win >= take
    point = (
        tr.gettext("above the take point of {take}", take=_games(take, digits, tr))
        if takes_by_chances
        else tr.gettext("below the take point of {take}", take=_games(take, digits, tr))
    )
    takes = decision.taker is not TakerVerdict.PASS
    if takes_by_chances == takes:
        taker = tr.gettext("{odds}: {point}.", odds=taker_wins, point=point)
    else:
        engine = (
            tr.gettext("taking loses less than passing")
            if takes
            else tr.gettext("passing loses less")
        )
        taker = tr.gettext(
            "{odds}: by the chances alone that is {point}, but as the engine plays the "
            "position on, {engine}.",
            odds=taker_wins,
            point=point,
            engine=engine,
        )
    return doubler, taker


def _answer_fact(chances: str, take: str | None, above: bool, against: bool, tr: Translator) -> str:
    """Where the taker's chances stand against the take point (``take``, None where there
    is no model), and, ``against`` the chances, that the engine decided otherwise."""
    if take is None:
        return (
            tr.gettext("{chances}: above the take point.", chances=chances)
            if above
            else tr.gettext("{chances}: below the take point.", chances=chances)
        )
    if not against:
        return (
            tr.gettext("{chances}: above the take point of {take}.", chances=chances, take=take)
            if above
            else tr.gettext(
                "{chances}: below the take point of {take}.", chances=chances, take=take
            )
        )
    if above:
        return tr.gettext(
            "{chances}: above the take point of {take} by the chances alone, but as the "
            "engine plays the position on, taking loses more than passing.",
            chances=chances,
            take=take,
        )
    return tr.gettext(
        "{chances}: below the take point of {take} by the chances alone, but as the engine "
        "plays the position on, taking loses less.",
        chances=chances,
        take=take,
    )


def explain_cube(
    review: CubeReview,
    names: Sequence[str] = ("side 0", "side 1"),
    *,
    checkers: int = 15,
    lang: str = SOURCE_LANGUAGE,
) -> list[Explanation]:
    """Why the cube action, or the answer to it, was wrong: chances against the thresholds."""
    tr = translator(lang)
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
    odds = (
        tr.gettext(
            "{player} wins {chance} of the games ({gammons} gammons) and loses a gammon {lost} "
            "of the time.",
            player=doubler,
            chance=_pct(win, digits, tr),
            gammons=_pct(win_gammon, 0, tr),
            lost=_pct(lose_gammon, 0, tr),
        )
        if gammons
        else tr.gettext(
            "{player} wins {chance} of the games, with no gammons in sight.",
            player=doubler,
            chance=_pct(win, digits, tr),
        )
    )
    verdict = review.verdict.lower()
    if review.doubler_loss > 0.0:
        facts = [odds]
        tags: set[str] = set()
        if review.doubled and "too good" in verdict:
            facts.append(
                tr.gettext(
                    "That is too good to double: playing on for the gammon is worth more than "
                    "the point the double cashes."
                )
            )
            tags.add("too-good")
        elif review.doubled:
            facts.append(_early_double_fact(win, model, digits, tr))
            tags.add("early-double")
        else:
            facts.append(
                _missed_double_fact(win, model, review.verdict, doubler, taker, digits, tr)
            )
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
        take_point = None if model is None else _games(model.take_point, digits, tr)
        chances = (
            tr.gettext(
                "{player} wins {chance} of the games and loses a gammon {lost} of the time",
                player=taker,
                chance=_pct(1.0 - win, digits, tr),
                lost=_pct(win_gammon, 0, tr),
            )
            if gammons
            else tr.gettext(
                "{player} wins {chance} of the games",
                player=taker,
                chance=_pct(1.0 - win, digits, tr),
            )
        )
        taker_chance = 1.0 - win
        if review.response == "pass":
            above = model is None or taker_chance >= model.take_point
            facts = [
                _answer_fact(chances, take_point, above, not above, tr),
                tr.gettext("Passing gives the game up for sure; taking loses less on average."),
            ]
            tags = {"wrong-pass"}
            better = "take"
        else:
            below = model is None or taker_chance < model.take_point
            facts = [
                _answer_fact(chances, take_point, not below, not below, tr),
                tr.gettext(
                    "Taking risks more than the point that passing gives up, gammons included."
                )
                if win_gammon >= _CHANCE_STEP
                else tr.gettext("Taking risks more than the point that passing gives up."),
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
