"""Why a checker play was wrong: the boards after the play made and after the better play
compared (hits, blots, points, primes, back checkers, stacks, the race), then the
engine's chances after each."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Final

from gammon.engine.analysis.explanation import CHANCE_STEP, Explanation, board_of
from gammon.engine.analysis.results import Candidate, CheckerReview, Unit
from gammon.engine.analysis.shape import TALL, Shape, shape_of
from gammon.engine.analysis.words import (
    checker_count,
    games,
    loss_words,
    number,
    percent,
    pip_count,
    point_list,
)
from gammon.i18n import N_, SOURCE_LANGUAGE, Translator, translator
from gammon.position import Dice, Position

__all__ = ["checker_loss", "compare_plays", "explain_checker"]

#: Sentences on the boards kept per play (the first are the plainest: hits, blots, points).
_MOST_FACTS: Final = 4


def _leaves(play: str, shape: Shape, tr: Translator, *, where: bool = False) -> str:
    """What ``play`` leaves open and how often it is hit, as a clause with ``play`` its
    subject: '13/7 6/5 leaves a blot on the 7-point: 16 of 36 rolls hit it'."""
    if not shape.blots:
        return tr.gettext("{play} leaves none", play=play)
    points, count = point_list(shape.blots, tr)
    shots = number(shape.shots, tr)
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


def _race(shape: Shape, tr: Translator) -> str:
    lead = shape.pips[1] - shape.pips[0]
    mine, theirs = number(shape.pips[0], tr), pip_count(shape.pips[1], tr)
    if lead > 0:
        message = N_("you lead by {lead} ({mine} to {theirs})")
        return tr.gettext(message, lead=pip_count(lead, tr), mine=mine, theirs=theirs)
    if lead < 0:
        message = N_("you trail by {lead} ({mine} to {theirs})")
        return tr.gettext(message, lead=pip_count(-lead, tr), mine=mine, theirs=theirs)
    return tr.gettext("the pip counts are even ({pips} each)", pips=pip_count(shape.pips[0], tr))


@dataclass(frozen=True)
class _Comparison:
    """The boards a teacher compares (the shapes before, after ``better`` and after
    ``played``) and the two lists of sentences the facts below add to: ``leads``, what the
    better play does and the play made costs; ``concessions``, what the play made has for
    it, each ending in why the better play is still better."""

    before: Shape
    better: str
    b: Shape
    played: str
    p: Shape
    tr: Translator
    leads: list[str] = field(default_factory=list)
    concessions: list[str] = field(default_factory=list)


def _one_or_more(tr: Translator, points: Iterable[int], one: str, more: str, **values: str) -> str:
    """The message for one point or for several (``one``, ``more``: marked N_)."""
    named, count = point_list(points, tr)
    return tr.gettext(one if count == 1 else more, points=named, **values)


def _hit_facts(c: _Comparison) -> None:
    """Who hits more: checkers put on the bar, the pips they cost."""
    better, b, played, p, tr = c.better, c.b, c.played, c.p, c.tr
    leads, concessions = c.leads, c.concessions
    if b.hit != p.hit:
        more, fewer = checker_count(max(b.hit, p.hit), tr), checker_count(min(b.hit, p.hit), tr)
        lost = pip_count(abs(b.pips[1] - p.pips[1]), tr)
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


def _shot_facts(c: _Comparison) -> None:
    """Who leaves more shots: the blots and the rolls that hit them."""
    better, b, played, p, tr = c.better, c.b, c.played, c.p, c.tr
    leads, concessions = c.leads, c.concessions
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


def _made_facts(c: _Comparison) -> None:
    """Points made by one play and not the other."""
    before, better, b, played, p, tr = c.before, c.better, c.b, c.played, c.p, c.tr
    leads, concessions = c.leads, c.concessions
    new_b = sorted(b.made - p.made - before.made)
    new_p = sorted(p.made - b.made - before.made)
    if new_b:
        made = _one_or_more(
            tr,
            new_b,
            N_("{play} makes the {points}-point"),
            N_("{play} makes the {points}-points"),
            play=better,
        )
        if new_p:
            instead = _one_or_more(
                tr,
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
            _one_or_more(
                tr,
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


def _kept_facts(c: _Comparison) -> None:
    """Points, and anchors, that one play keeps and the other breaks."""
    before, better, b, played, p, tr = c.before, c.better, c.b, c.played, c.p, c.tr
    leads, concessions = c.leads, c.concessions
    kept = before.made & (b.made - p.made)
    given = before.made & (p.made - b.made)
    anchors_lost = {point for point in kept if point >= 19}

    if kept - anchors_lost:
        leads.append(
            _one_or_more(
                tr,
                kept - anchors_lost,
                N_("{played} breaks the {points}-point; {better} keeps it."),
                N_("{played} breaks the {points}-points; {better} keeps it."),
                played=played,
                better=better,
            )
        )
    if given:
        concessions.append(
            _one_or_more(
                tr,
                given,
                N_("{better} gives up the {points}-point, and is still better."),
                N_("{better} gives up the {points}-points, and is still better."),
                better=better,
            )
        )
    if anchors_lost:
        leads.append(
            _one_or_more(
                tr,
                anchors_lost,
                N_("{played} gives up the anchor on the {points}-point; {better} keeps it."),
                N_("{played} gives up the anchor on the {points}-points; {better} keeps it."),
                played=played,
                better=better,
            )
        )


def _prime_facts(c: _Comparison) -> None:
    """A prime broken or built, while there is contact."""
    before, better, b, played, p, tr = c.before, c.better, c.b, c.played, c.p, c.tr
    leads = c.leads
    if not (p.contact or b.contact):
        return
    (lp, _), (lb, tb) = p.prime, b.prime
    l0 = before.prime[0]
    ends = {"top": number(tb, tr), "bottom": number(tb - lb + 1, tr)}
    if lp < l0 <= lb and l0 >= 3:
        leads.append(
            tr.gettext(
                "{played} breaks your {length}-point prime; {better} keeps {kept} points in a "
                "row (from the {top}- to the {bottom}-point).",
                played=played,
                length=number(l0, tr),
                better=better,
                kept=number(lb, tr),
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
                length=number(lb, tr),
                played=played,
                **ends,
            )
        )


def _back_facts(c: _Comparison) -> None:
    """Back checkers brought out or left behind."""
    better, b, played, p, tr = c.better, c.b, c.played, c.p, c.tr
    leads, concessions = c.leads, c.concessions
    if p.back > b.back and b.contact:
        leads.append(
            tr.gettext(
                "{better} brings {checkers} out of the opponent's home board; {played} "
                "leaves {back} back.",
                better=better,
                checkers=checker_count(p.back - b.back, tr),
                played=played,
                back=checker_count(p.back, tr),
            )
        )
    elif b.back > p.back and p.contact:
        concessions.append(
            tr.gettext(
                "{better} keeps {back} back, and is still better: {played} runs {run} from there.",
                better=better,
                back=checker_count(b.back, tr),
                played=played,
                run=checker_count(b.back - p.back, tr),
            )
        )


def _stack_facts(c: _Comparison) -> None:
    """A tall stack the better play spreads."""
    better, b, played, p, tr = c.better, c.b, c.played, c.p, c.tr
    leads = c.leads
    if p.tallest[0] >= TALL and p.tallest[0] > b.tallest[0]:
        leads.append(
            tr.gettext(
                "{played} stacks {count} checkers on the {point}-point; {better} spreads them "
                "(at most {most} on a point).",
                played=played,
                count=number(p.tallest[0], tr),
                point=number(p.tallest[1], tr),
                better=better,
                most=checker_count(b.tallest[0], tr),
            )
        )


def _contact_facts(c: _Comparison) -> None:
    """Contact broken into a race by one play and kept by the other."""
    before, better, b, played, p, tr = c.before, c.better, c.b, c.played, c.p, c.tr
    leads, concessions = c.leads, c.concessions
    if not before.contact or p.contact == b.contact:
        return
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


def _bearoff_facts(c: _Comparison) -> None:
    """In a race: checkers borne off and pips wasted."""
    before, better, b, played, p, tr = c.before, c.better, c.b, c.played, c.p, c.tr
    leads, concessions = c.leads, c.concessions
    if before.contact:
        return
    off_b, off_p = b.off - before.off, p.off - before.off
    if off_b > off_p:
        leads.append(
            tr.gettext(
                "{better} bears off {off}, {played} {other}.",
                better=better,
                off=checker_count(off_b, tr),
                played=played,
                other=checker_count(off_p, tr),
            )
        )
    elif off_p > off_b:
        concessions.append(
            tr.gettext(
                "{better} bears off {off}, and is still better: {played} bears off {other}.",
                better=better,
                off=checker_count(off_b, tr),
                played=played,
                other=checker_count(off_p, tr),
            )
        )
    if p.pips[0] > b.pips[0]:
        leads.append(
            tr.gettext(
                "{played} wastes {waste}: {better} leaves {left} to bear off, {played} {other}.",
                played=played,
                waste=pip_count(p.pips[0] - b.pips[0], tr),
                better=better,
                left=pip_count(b.pips[0], tr),
                other=pip_count(p.pips[0], tr),
            )
        )


#: The facts a teacher reads, plainest first: each adds its sentences to a comparison's
#: leads and concessions in this order.
_FACTS: Final[tuple[Callable[[_Comparison], None], ...]] = (
    _hit_facts,
    _shot_facts,
    _made_facts,
    _kept_facts,
    _prime_facts,
    _back_facts,
    _stack_facts,
    _contact_facts,
    _bearoff_facts,
)


def _facts(
    before: Shape, better: str, b: Shape, played: str, p: Shape, tr: Translator
) -> tuple[list[str], list[str]]:
    """How the board after ``played`` differs from the board after ``better``, in two lists:
    what the better play does and what the play made costs (said first), then what the
    play made has for it, each ending in why the better play is still better."""
    comparison = _Comparison(before, better, b, played, p, tr)
    for add_facts in _FACTS:
        add_facts(comparison)
    return comparison.leads, comparison.concessions


def _cubeless(chances: tuple[float, float, float, float, float]) -> float:
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = chances
    return 2.0 * win - 1.0 + win_gammon + win_backgammon - lose_gammon - lose_backgammon


def _chance_facts(
    better: str, b: Candidate, played: str, p: Candidate, tr: Translator
) -> list[str]:
    """The engine's chances after each play, in one sentence, when they differ enough."""
    (bw, bwg, _, blg, _), (pw, pwg, _, plg, _) = b.chances, p.chances
    steps = (abs(bw - pw), abs(bwg - pwg), abs(blg - plg))
    if max(steps) < CHANCE_STEP:
        return []
    if max(steps[1:]) < CHANCE_STEP:
        return [
            tr.gettext(
                "After {better} you win {win}, after {played} {other}.",
                better=better,
                win=games(bw, 0, tr),
                played=played,
                other=games(pw, 0, tr),
            )
        ]
    return [
        tr.gettext(
            "After {better} you win {win} ({gammons} gammons) and lose a gammon {lost} of the "
            "time; after {played} you win {other} ({other_gammons} gammons) and lose a gammon "
            "{other_lost} of the time.",
            better=better,
            win=games(bw, 0, tr),
            gammons=percent(bwg, 0, tr),
            lost=percent(blg, 0, tr),
            played=played,
            other=games(pw, 0, tr),
            other_gammons=percent(pwg, 0, tr),
            other_lost=percent(plg, 0, tr),
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


def _tags(before: Shape, b: Shape, p: Shape) -> frozenset[str]:
    """Which beginner patterns the play made shows, against the better play."""
    tags = set()
    if p.shots > b.shots and p.blots:
        tags.add("blots")
    if p.tallest[0] >= TALL and p.tallest[0] > b.tallest[0]:
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
    before = board_of(review.position_id, checkers)
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
