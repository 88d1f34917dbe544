"""The close take searched a ply deeper (gammon.engine.take, issue 18 item 5)."""

from __future__ import annotations

import pytest

from gammon.engine.bot import Bot
from gammon.engine.cube import CubeState, TakerVerdict, cube_decision
from gammon.engine.cubeful import analyse_cube
from gammon.engine.met import MatchScore
from gammon.engine.take import TAKE_MARGIN, close_take, take_margin
from gammon.position import Position

MONEY = CubeState()
# X bears off two checkers from the 2-point (fails with 10 rolls: a 1 and not 1-1); O's
# one checker on the 6-point is off unless O rolls less than 6 (2-1, 1-1... 1-4).
# The model, on 79% cubeless chances, passes by 0.04; a ply deeper O's misses count
# for X, but so do O's chances of a return shot at a recube: take.
DEUCES_AGAINST_SIX = Position.from_points({2: 2}, {6: 1}, checkers=15)
# The same bear-off against a checker on O's ace point: X's last roll (26 of 36).
DEUCES_LAST_ROLL = Position.from_points({2: 2}, {1: 1}, checkers=15)
# X bears off with 34 rolls of 36 and O is off next turn: a clear pass.
CLEAR_PASS = Position.from_points({3: 1, 1: 1}, {1: 1}, checkers=15)
THREE_AWAY = CubeState(score=MatchScore(3, 3))


def test_margin_is_points_of_the_current_cube() -> None:
    decision = cube_decision((0.75, 0, 0, 0, 0), MONEY)
    assert take_margin(decision, MONEY) == pytest.approx(
        abs(decision.double_take - decision.double_pass)
    )
    assert close_take(decision, MONEY)
    assert not close_take(decision, MONEY, margin=0.0)  # 0 switches the search off


def test_match_margin_is_normalised_like_the_analysis() -> None:
    decision = cube_decision((0.72, 0, 0, 0, 0), THREE_AWAY)
    score = MatchScore(3, 3)
    spread = score.after(1, 0) - score.after(0, 1)
    expected = 2 * abs(decision.double_take - decision.double_pass) / spread
    assert take_margin(decision, THREE_AWAY) == pytest.approx(expected)


def test_close_pass_that_one_ply_turns_into_a_take() -> None:
    model = analyse_cube(DEUCES_AGAINST_SIX, MONEY, ply=0, take_margin=0.0)
    assert model.decision is not None and model.ply == 0
    assert model.decision.taker is TakerVerdict.PASS
    assert take_margin(model.decision, MONEY) < TAKE_MARGIN
    shipped = analyse_cube(DEUCES_AGAINST_SIX, MONEY, ply=0, take_margin=TAKE_MARGIN)
    assert shipped.ply == 1  # searched a ply deeper, and says so
    assert shipped.decision is not None and shipped.decision.taker is TakerVerdict.TAKE
    searched = analyse_cube(DEUCES_AGAINST_SIX, MONEY, ply=1)
    assert shipped.decision == searched.decision
    judge = analyse_cube(DEUCES_AGAINST_SIX, MONEY, ply=2).decision
    assert judge is not None and judge.taker is TakerVerdict.TAKE  # our 2-ply agrees


def test_close_take_that_one_ply_turns_into_a_pass_in_a_match() -> None:
    # 3-away, 3-away, X's last roll: the model's live cube (x = 0.6) takes, but the
    # game ends on this roll and the cube is dead: 10/36 is below the take point.
    model = analyse_cube(DEUCES_LAST_ROLL, THREE_AWAY, ply=0, take_margin=0.0)
    assert model.decision is not None and model.decision.taker is TakerVerdict.TAKE
    shipped = analyse_cube(DEUCES_LAST_ROLL, THREE_AWAY, ply=0, take_margin=TAKE_MARGIN)
    assert shipped.ply == 1
    assert shipped.decision is not None and shipped.decision.taker is TakerVerdict.PASS


def test_the_analysis_keeps_the_model_and_the_bot_searches() -> None:
    # The analysis' 0-ply figures sit beside the model's equities: no search by default.
    assert analyse_cube(DEUCES_AGAINST_SIX, MONEY, ply=0).ply == 0
    bot = Bot(ply=0)
    assert bot._cube(DEUCES_AGAINST_SIX, MONEY).ply == 1


def test_clear_pass_stays_the_models() -> None:
    shipped = analyse_cube(CLEAR_PASS, MONEY, ply=0, take_margin=TAKE_MARGIN)
    assert shipped.ply == 0  # not close: no search
    assert shipped.decision is not None and str(shipped.decision) == "Double, pass"
    assert take_margin(shipped.decision, MONEY) > 3 * TAKE_MARGIN
