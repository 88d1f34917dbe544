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
        return _missed_cash_fact(win, model, doubler, taker, digits, tr)
    return _missed_take_fact(win, model, verdict, taker, digits, tr)


def _missed_cash_fact(
    win: float, model: CubeDecision | None, doubler: str, taker: str, digits: int, tr: Translator
) -> str:
    """Why a double the taker should pass was missed: the market is being lost."""
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


def _missed_take_fact(
    win: float, model: CubeDecision | None, verdict: str, taker: str, digits: int, tr: Translator
) -> str:
    """Why a double the taker should take was missed: where the chances stand against the
    doubling window, and where the engine decided otherwise."""
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


def _window_place(
    win: float, decision: CubeDecision, digits: int, tr: Translator
) -> tuple[str, bool]:
    """Where ``win`` stands against the doubling window, in words, and whether the chances
    alone say double."""
    window, cash = decision.doubling_point, decision.cash_point
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
    return place, doubles_by_chances


def _doubler_words(win: float, decision: CubeDecision, digits: int, tr: Translator) -> str:
    """The doubler's chance against the window, and the engine's action where it differs."""
    place, doubles_by_chances = _window_place(win, decision, digits, tr)
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
    return doubler


def _taker_words(win: float, decision: CubeDecision, digits: int, tr: Translator) -> str:
    """The taker's chance against the take point, and the engine's answer where it differs."""
    take = decision.take_point
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
    return taker


def cube_words(win: float, decision: CubeDecision, lang: str = SOURCE_LANGUAGE) -> tuple[str, ...]:
    """Where the doubler's chance of winning the game stands against the doubling window
    and the take point, in words that agree with ``decision``'s action and answer: where
    a search decided against the chances alone, the words say so (the cube hint's text).
    """
    tr = translator(lang)
    window, cash, take = decision.doubling_point, decision.cash_point, decision.take_point
    digits = decimals_needed([(win, window), (win, cash), (1.0 - win, take)])
    return _doubler_words(win, decision, digits, tr), _taker_words(win, decision, digits, tr)


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


def _cube_digits(win: float, model: CubeDecision | None) -> int:
    """Decimals enough for the chances to read as different from the thresholds they are
    compared with (:func:`~gammon.engine.analysis.words.decimals_needed`)."""
    if model is None:
        return 0
    return decimals_needed(
        [(win, model.doubling_point), (win, model.cash_point), (1.0 - win, model.take_point)]
    )


def _has_gammons(review: CubeReview) -> bool:
    """Whether gammons are in sight, either way, and so worth naming."""
    _, win_gammon, _, lose_gammon, _ = review.chances
    return win_gammon + lose_gammon >= 0.005


def _doubler_odds(review: CubeReview, doubler: str, digits: int, tr: Translator) -> str:
    """The doubler's chances, gammons included where there are any, in one sentence."""
    win, win_gammon, _, lose_gammon, _ = review.chances
    return (
        tr.gettext(
            "{player} wins {chance} of the games ({gammons} gammons) and loses a gammon {lost} "
            "of the time.",
            player=doubler,
            chance=percent(win, digits, tr),
            gammons=percent(win_gammon, 0, tr),
            lost=percent(lose_gammon, 0, tr),
        )
        if _has_gammons(review)
        else tr.gettext(
            "{player} wins {chance} of the games, with no gammons in sight.",
            player=doubler,
            chance=percent(win, digits, tr),
        )
    )


def _double_explanation(
    review: CubeReview,
    model: CubeDecision | None,
    names: tuple[str, str],
    digits: int,
    tr: Translator,
) -> Explanation:
    """Why the doubler's action was wrong: too good, too early, or a double missed.
    ``names`` are the doubler's and the taker's."""
    doubler, taker = names
    win = review.chances[0]
    verdict = review.verdict.lower()
    facts = [_doubler_odds(review, doubler, digits, tr)]
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
        facts.append(_missed_double_fact(win, model, review.verdict, doubler, taker, digits, tr))
        tags.add("missed-double")
    return Explanation(
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


def _answer_explanation(
    review: CubeReview,
    response: str,
    model: CubeDecision | None,
    taker: str,
    digits: int,
    tr: Translator,
) -> Explanation:
    """Why the taker's answer (``response``, "take" or "pass") was wrong: the taker's
    chances against the take point."""
    win, win_gammon, _, _, _ = review.chances
    take_point = None if model is None else games(model.take_point, digits, tr)
    chances = (
        tr.gettext(
            "{player} wins {chance} of the games and loses a gammon {lost} of the time",
            player=taker,
            chance=percent(1.0 - win, digits, tr),
            lost=percent(win_gammon, 0, tr),
        )
        if _has_gammons(review)
        else tr.gettext(
            "{player} wins {chance} of the games",
            player=taker,
            chance=percent(1.0 - win, digits, tr),
        )
    )
    taker_chance = 1.0 - win
    if response == "pass":
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
            tr.gettext("Taking risks more than the point that passing gives up, gammons included.")
            if win_gammon >= CHANCE_STEP
            else tr.gettext("Taking risks more than the point that passing gives up."),
        ]
        tags = {"hopeless-take"}
        better = "pass"
    return Explanation(
        review.game,
        review.index,
        1 - review.side,
        "answer",
        response,
        better,
        review.taker_loss,
        tuple(facts),
        frozenset(tags),
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
    win = review.chances[0]
    model = cube_model(review, checkers)
    digits = _cube_digits(win, model)
    doubler, taker = names[review.side], names[1 - review.side]
    found: list[Explanation] = []
    if review.doubler_loss > 0.0:
        found.append(_double_explanation(review, model, (doubler, taker), digits, tr))
    if review.taker_loss > 0.0 and review.response is not None:
        found.append(_answer_explanation(review, review.response, model, taker, digits, tr))
    return found
