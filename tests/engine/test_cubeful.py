"""Cube decisions searched 0-2 plies deep, position-dependent efficiency, match-aware hints."""

from __future__ import annotations

import pytest

from gammon.engine.bot import Bot
from gammon.engine.cube import (
    CONTACT_EFFICIENCY,
    CRASHED_EFFICIENCY,
    FLUID_EFFICIENCY,
    PRIME_EFFICIENCY,
    CubeState,
    DoublerVerdict,
    TakerVerdict,
    cube_decision,
    cube_efficiency,
    position_class,
)
from gammon.engine.cubeful import analyse_cube
from gammon.engine.evaluator import default_evaluator
from gammon.engine.hint import cube_hint, play_hints
from gammon.engine.met import MatchScore
from gammon.position import Position

MONEY = CubeState()
# The opponent has one checker on the ace point: off next turn whatever they roll.
# X's last roll: checkers on the 5 and 1 points bear off with 23 rolls of 36.
LAST_ROLL_TAKE = Position.from_points({5: 1, 1: 1}, {1: 1})
# On the 3 and 1 points only 1-2 fails: 34 of 36.
LAST_ROLL_PASS = Position.from_points({3: 1, 1: 1}, {1: 1})
# A closed board with two checkers on the bar: a gammon most of the time.
BLITZ = Position.from_points(
    {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, {25: 2, 6: 5, 8: 3, 13: 5}
)
# X (74 pips) on roll with 6-4: money hits loose for the gammon (16/10 5/1*), a score
# where gammons are worthless wants the safe 16/6 (found in the bot's self-play).
GAMMONISH = Position.from_id("m3zABiB2dwcgAA")
DMP = CubeState(score=MatchScore(1, 1, post_crawford=True))
CRAWFORD_LEADER = CubeState(score=MatchScore(1, 4, crawford=True))


def test_last_roll_is_exact_from_one_ply() -> None:
    p = 23 / 36
    zero = analyse_cube(LAST_ROLL_TAKE, MONEY, ply=0).decision
    one = analyse_cube(LAST_ROLL_TAKE, MONEY, ply=1).decision
    assert zero is not None and one is not None
    # 0-ply has the exact chances (bear-off database) but the model's live cube
    # (x = 0.6) holds the double back; a roll later the cube is dead: a clear double.
    assert zero.doubler is DoublerVerdict.NO_DOUBLE
    assert one.doubler is DoublerVerdict.DOUBLE_TAKE and one.taker is TakerVerdict.TAKE
    assert one.no_double == pytest.approx(2 * p - 1)
    assert one.double_take == pytest.approx(2 * (2 * p - 1))
    passed = analyse_cube(LAST_ROLL_PASS, MONEY, ply=1).decision
    assert passed is not None and str(passed) == "Double, pass"
    assert passed.no_double == pytest.approx(2 * 34 / 36 - 1)
    two = analyse_cube(LAST_ROLL_TAKE, MONEY, ply=2).decision
    assert two is not None and two.double_take == pytest.approx(one.double_take)


def test_too_good_in_a_gammonish_blitz() -> None:
    assert cube_decision((0.95, 0.75, 0.05, 0.0, 0.0), MONEY).doubler is DoublerVerdict.TOO_GOOD
    for ply in (0, 1):
        found = analyse_cube(BLITZ, MONEY, ply=ply)
        assert found.decision is not None
        assert found.decision.doubler is DoublerVerdict.TOO_GOOD, ply
        assert found.decision.taker is TakerVerdict.PASS
        assert found.equity > 1.0  # playing on for the gammon beats the point
    # With Jacoby a centred cube wins no gammon: cash it.
    jacoby = analyse_cube(BLITZ, CubeState(jacoby=True), ply=1).decision
    assert jacoby is not None and str(jacoby) == "Double, pass"


def test_two_away_two_away_double_take() -> None:
    state = CubeState(score=MatchScore(2, 2))
    decision = cube_decision((0.62, 0.1, 0.0, 0.05, 0.0), state)
    assert str(decision) == "Double, take"
    # The taker is right up to 1 - MWC(1-away, 2-away Crawford) = 32.3% (no gammons).
    assert str(cube_decision((0.70, 0, 0, 0, 0), state)) == "Double, pass"
    # Last roll at 2-away/2-away: the double is the match, the taker wins 13/36.
    found = analyse_cube(LAST_ROLL_TAKE, state, ply=1).decision
    assert found is not None and str(found) == "Double, take"
    assert found.double_take == pytest.approx(23 / 36)  # all or nothing: the match


def test_efficiency_ordering() -> None:
    crashed = Position.from_points({1: 5, 2: 5, 3: 2, 13: 2, 24: 1}, {20: 2, 13: 5, 8: 3, 6: 5})
    primed = Position.from_points({24: 1, 13: 14}, {8: 2, 7: 2, 6: 2, 5: 2, 13: 7})
    holding = Position.from_points({18: 2, 8: 4, 6: 5, 5: 4}, {21: 2, 6: 6, 5: 4, 4: 3})
    long_race = Position.from_points({13: 15}, {6: 15})
    short_race = Position.from_points({7: 4, 6: 2}, {6: 15})
    assert position_class(crashed) == "crashed"
    assert position_class(primed) == "prime"
    assert position_class(holding) == "contact"
    assert position_class(Position.initial()) == "contact"
    assert cube_efficiency(crashed) == CRASHED_EFFICIENCY
    assert cube_efficiency(primed) == PRIME_EFFICIENCY
    assert cube_efficiency(holding) == CONTACT_EFFICIENCY
    assert cube_efficiency(Position.initial()) == FLUID_EFFICIENCY
    assert cube_efficiency(short_race) == pytest.approx(0.6)
    assert cube_efficiency(short_race) < cube_efficiency(long_race) == 0.7
    # The cube is least alive where the game jumps (crashed, primed), most in fluid play.
    assert (
        cube_efficiency(crashed)
        < cube_efficiency(primed)
        < cube_efficiency(holding)
        < cube_efficiency(long_race)
        < cube_efficiency(Position.initial())
    )


def test_searched_chances_match_the_evaluator() -> None:
    evaluator = default_evaluator()
    found = analyse_cube(GAMMONISH, MONEY, ply=1)
    expected = evaluator.evaluate(GAMMONISH, 1).probabilities
    assert found.chances.probabilities == pytest.approx(expected, abs=1e-5)
    zero = analyse_cube(GAMMONISH, MONEY, ply=0)
    assert zero.decision == cube_decision(
        evaluator.evaluate(GAMMONISH), MONEY, cube_efficiency(GAMMONISH)
    )


def test_hints_and_bot_share_the_decision() -> None:
    state = CubeState(score=MatchScore(5, 3))
    for ply in (0, 1):
        hint = cube_hint(BLITZ, state, ply=ply)
        assert hint.decision == analyse_cube(BLITZ, state, ply=ply).decision
        assert Bot(ply=ply)._cube(BLITZ, state).decision == hint.decision


def test_match_hints_rank_by_match_winning_chance() -> None:
    money = play_hints(GAMMONISH, (6, 4))
    assert str(money[0].play) == "16/10 5/1*" and money[0].mwc is None
    for state in (DMP, CRAWFORD_LEADER):
        for ply in (0, 1):
            hints = play_hints(GAMMONISH, (6, 4), ply=ply, state=state)
            assert str(hints[0].play) == "16/6", (state, ply)
            assert hints[0].loss == 0.0 and all(h.loss >= 0.0 for h in hints)
            assert all(h.mwc is not None and 0.0 <= h.mwc <= 1.0 for h in hints)
            mwcs = [h.mwc for h in hints if h.ply == hints[0].ply]
            assert mwcs == sorted(mwcs, reverse=True)
    # Where gammons count (5-away/5-away) the gammonish play is back on top.
    level = play_hints(GAMMONISH, (6, 4), state=CubeState(score=MatchScore(5, 5)))
    assert str(level[0].play) == "16/10 5/1*"


def test_bot_plays_for_the_match() -> None:
    bot = Bot()
    assert str(bot.choose_play(GAMMONISH, (6, 4))) == "16/10 5/1*"
    assert str(bot.choose_play(GAMMONISH, (6, 4), state=DMP)) == "16/6"


def test_cli_hints_at_a_match_score() -> None:
    from gammon.cli.hint import format_play_hints

    lines = format_play_hints(GAMMONISH, (6, 4), 0, 3, DMP).splitlines()
    assert lines[0].endswith("ranked at 0-ply by match winning chance:")
    assert "16/6" in lines[1] and "MWC" in lines[1]
    assert "MWC" not in format_play_hints(GAMMONISH, (6, 4), 0, 3)
