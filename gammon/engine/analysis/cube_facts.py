"""Why a cube action or the answer to it was wrong: the doubler's chances against the
doubling window and the taker's against the take point, from the review's own chances
and the cube model of :mod:`gammon.engine.cube`."""

from __future__ import annotations

from collections.abc import Sequence

from gammon.engine.analysis.explanation import CHANCE_STEP, Explanation, board_of
from gammon.engine.analysis.results import CubeReview
from gammon.engine.analysis.words import decimals_needed, games, percent, verdict_words
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
from gammon.i18n import SOURCE_LANGUAGE, Translator, translator
from gammon.ids import decode_match_id

__all__ = ["cube_model", "cube_state_of", "cube_words", "explain_cube"]


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
    position = board_of(review.position_id, checkers)
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
    window = games(model.doubling_point, digits, tr)
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
            cash=games(model.cash_point, digits, tr),
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
        cash = games(model.cash_point, digits, tr)
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
        "low": percent(model.doubling_point, digits, tr),
        "cash": games(model.cash_point, digits, tr),
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
    digits = decimals_needed([(win, window), (win, cash), (1.0 - win, take)])
    if window is None:
        place, doubles_by_chances = tr.gettext("where doubling never gains"), False
    elif win < window:
        place = tr.gettext(
            "below the doubling window, which opens at {window}",
            window=games(window, digits, tr),
        )
        doubles_by_chances = False
    elif win < cash:
        place = tr.gettext(
            "inside the doubling window ({low} to {cash})",
            low=percent(window, digits, tr),
            cash=games(cash, digits, tr),
        )
        doubles_by_chances = True
    else:
        place = tr.gettext("past the cash point of {cash}", cash=games(cash, digits, tr))
        doubles_by_chances = True
    odds = tr.gettext("The doubler wins {chance}", chance=games(win, digits, tr))
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
    taker_wins = tr.gettext("The taker wins {chance}", chance=games(1.0 - win, digits, tr))
    takes_by_chances = 1.0 - win >= take
    point = (
        tr.gettext("above the take point of {take}", take=games(take, digits, tr))
        if takes_by_chances
        else tr.gettext("below the take point of {take}", take=games(take, digits, tr))
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
        else decimals_needed(
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
            chance=percent(win, digits, tr),
            gammons=percent(win_gammon, 0, tr),
            lost=percent(lose_gammon, 0, tr),
        )
        if gammons
        else tr.gettext(
            "{player} wins {chance} of the games, with no gammons in sight.",
            player=doubler,
            chance=percent(win, digits, tr),
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
        take_point = None if model is None else games(model.take_point, digits, tr)
        chances = (
            tr.gettext(
                "{player} wins {chance} of the games and loses a gammon {lost} of the time",
                player=taker,
                chance=percent(1.0 - win, digits, tr),
                lost=percent(win_gammon, 0, tr),
            )
            if gammons
            else tr.gettext(
                "{player} wins {chance} of the games",
                player=taker,
                chance=percent(1.0 - win, digits, tr),
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
                if win_gammon >= CHANCE_STEP
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
