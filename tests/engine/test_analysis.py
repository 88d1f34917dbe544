"""Post-game analysis (gammon.engine.analysis) on small hand-built games, all at 0-ply.

The cube tests use pure races with every checker home, where the engine's
figures come from the exact bear-off database, so they hold whatever network
the engine ships.
"""

from __future__ import annotations

import json
import math
import random
import statistics

import pytest

from gammon.dice import RandomDice, ScriptedDice
from gammon.engine.analysis import (
    BAD,
    DOUBTFUL,
    VERY_BAD,
    Analysis,
    CubeReview,
    Mark,
    analyse,
    analyse_game,
    mark_for,
    steps,
)
from gammon.engine.analysis.judge import Frame, Judge, average_roll
from gammon.engine.bot import Bot
from gammon.engine.cube import CubeState
from gammon.engine.evaluator import default_evaluator
from gammon.engine.met import MatchScore
from gammon.events import Moved
from gammon.game import Game
from gammon.match import Match, Session
from gammon.position import ALL_ROLLS, Position
from gammon.rules import GameRules


def test_marks_follow_gnu_backgammon_thresholds() -> None:
    assert (DOUBTFUL, BAD, VERY_BAD) == (0.04, 0.08, 0.16)
    assert mark_for(0.039) is Mark.NONE
    assert mark_for(0.04) is Mark.DOUBTFUL
    assert mark_for(0.08) is Mark.BAD
    assert mark_for(0.5) is Mark.VERY_BAD


# -- checker plays --------------------------------------------------------------


def test_a_known_blunder_is_marked_with_its_loss() -> None:
    """Opening 6-5 played 13/7 13/8 instead of running 24/13: a clear mistake."""
    game = Game(dice=ScriptedDice([(6, 5)]))
    game.roll(0)
    game.play(0, "13/7 13/8")
    analysis = analyse(game, ply=0)
    [review] = analysis.checker
    assert review.side == 0 and review.dice == (6, 5)
    assert review.played == "13/8 13/7"
    assert review.best.play == "24/13"
    assert review.rank > 0
    assert review.loss >= DOUBTFUL
    assert review.mark is mark_for(review.loss)
    played = next(c for c in review.candidates if c.play == review.played)
    assert review.loss == pytest.approx(review.best.equity - played.equity)
    assert played.loss == pytest.approx(review.loss)
    assert review.cost == pytest.approx(review.loss)  # money, cube at 1
    summary = analysis.players[0]
    assert summary.checker_decisions == 1
    assert summary.checker_error == pytest.approx(review.loss)
    assert summary.rating == pytest.approx(500 * review.loss)
    assert analysis.mistakes() == [review]


def test_the_best_play_loses_nothing() -> None:
    game = Game(dice=ScriptedDice([(3, 1)]))
    game.roll(0)
    game.play(0, "8/5 6/5")
    [review] = analyse(game, ply=0).checker
    assert (review.loss, review.mark, review.rank) == (0.0, Mark.NONE, 0)
    assert [c.loss for c in review.candidates] == sorted(c.loss for c in review.candidates)


def test_a_forced_play_is_no_decision() -> None:
    """Two checkers left on the 1 and 2 points: 6-5 bears both off, the only play."""
    start = Position.from_points({1: 1, 2: 1}, {19: 5, 13: 5, 12: 5})
    game = Game(dice=ScriptedDice([(6, 5)]), start=start)
    game.roll(0)
    assert len(game.legal_plays()) == 1
    game.play(0, game.legal_plays()[0])
    assert game.is_over
    analysis = analyse(game, ply=0)
    summary = analysis.players[0]
    assert analysis.checker == ()
    assert (summary.forced_plays, summary.checker_decisions, summary.decisions) == (1, 0, 0)
    assert summary.error_rate == 0.0 and summary.rating == 0.0
    # Side 0 won a backgammon: side 1 still has checkers in side 0's home board.
    assert analysis.games[0].results == (3.0, -3.0)


# -- cube decisions ---------------------------------------------------------------

# Side 1 wins the opening with 2-1 and plays 6/5 6/4; then side 0 is on roll in a race.
_DOUBLER = {6: 2, 5: 2, 4: 2, 3: 2}


def _race(theirs: dict[int, int], rules: GameRules, *then: str) -> Game:
    """The race above with side 0 to act, then ``then``: 'roll', 'double', 'take', 'drop'."""
    game = Game(
        rules, dice=ScriptedDice([(1, 2), (6, 5)]), start=Position.from_points(_DOUBLER, theirs)
    )
    game.roll(0)
    game.play(1, "6/5 6/4")
    for action in then:
        if action == "roll":
            game.roll(0)
            game.play(0, game.legal_plays()[0])
        elif action == "double":
            game.double(0)
        elif action == "take":
            game.take(1)
        else:
            game.drop(1)
    return game


def _cube_review(analysis: Analysis) -> CubeReview:
    [review] = [r for r in analysis.cube if r.side == 0]
    return review


def test_a_missed_double_at_money() -> None:
    """75% in a short race: double, take; side 0 rolls instead."""
    game = _race({6: 3, 5: 2, 4: 2, 3: 2}, GameRules(), "roll")
    analysis = analyse(game, ply=0)
    review = _cube_review(analysis)
    assert review.verdict == "Double, take"
    assert not review.doubled and review.missed_double and not review.wrong_double
    assert review.double_take > review.no_double
    assert review.doubler_loss == pytest.approx(review.double_take - review.no_double)
    assert review.doubler_loss > DOUBTFUL and review.close
    assert analysis.players[0].missed_doubles == 1
    assert analysis.players[0].cube_decisions == 1
    assert analysis.players[0].cube_error == pytest.approx(review.doubler_loss)
    # The roll's point on the equity graph: where side 0 stood, the cube action to take.
    [roll] = [r for r in analysis.luck if r.side == 0]
    assert roll.equity == pytest.approx(review.optimal)
    assert roll.chances == review.chances


def test_a_wrong_pass_at_money() -> None:
    game = _race({6: 3, 5: 2, 4: 2, 3: 2}, GameRules(), "double", "drop")
    analysis = analyse(game, ply=0)
    review = _cube_review(analysis)
    assert review.doubled and review.response == "pass"
    assert review.doubler_loss == 0.0 and not review.wrong_double
    assert review.wrong_pass and not review.wrong_take
    assert review.double_pass == 1.0
    assert review.taker_loss == pytest.approx(review.double_pass - review.double_take)
    assert review.taker_mark is mark_for(review.taker_loss)
    taker = analysis.players[1]
    assert (taker.wrong_passes, taker.cube_decisions) == (1, 1)
    assert taker.cube_error == pytest.approx(review.taker_loss)
    assert analysis.games[0].results == (1.0, -1.0)


def test_a_right_take_and_a_too_early_double() -> None:
    """At 59% a double is too early (no double, take): the take is right."""
    game = _race({6: 2, 5: 2, 4: 2, 3: 2}, GameRules(), "double", "take")
    review = _cube_review(analyse(game, ply=0))
    assert review.verdict == "No double, take"
    assert review.wrong_double and review.doubler_loss > 0
    assert review.response == "take" and review.taker_loss == 0.0


def test_missed_double_and_wrong_pass_at_a_match_score() -> None:
    """7-point match at 4-4 (3-away, 3-away): 72% is a double and a take, judged by MWC."""
    rules = GameRules(match_length=7)
    theirs = {6: 3, 5: 3, 4: 2}
    missed = _cube_review(analyse(_race(theirs, rules, "roll"), score=(4, 4), ply=0))
    assert missed.verdict == "Double, take" and missed.missed_double
    # Normalised to money at the score: the MWC gap over half the MWC at stake.
    score = MatchScore(3, 3)
    spread = score.after(1, 0) - score.after(0, 1)
    assert missed.double_pass == pytest.approx(1.0)
    assert missed.doubler_cost == pytest.approx(missed.doubler_loss * spread / 2)
    assert missed.doubler_loss == pytest.approx(missed.double_take - missed.no_double)

    analysis = analyse(_race(theirs, rules, "double", "drop"), score=(4, 4), ply=0)
    dropped = _cube_review(analysis)
    assert dropped.wrong_pass and dropped.taker_loss > DOUBTFUL
    assert analysis.players[1].wrong_passes == 1
    # The game's result in MWC: side 0 reaches 5 points, 2-away against 3-away.
    assert analysis.games[0].results[0] == pytest.approx(score.after(1, 0) - 0.5)
    assert sum(analysis.games[0].results) == pytest.approx(0.0)


def test_no_cube_review_in_the_crawford_game() -> None:
    rules = GameRules(match_length=5, crawford=True)
    game = _race({6: 3, 5: 2, 4: 2, 3: 2}, rules, "roll")
    analysis = analyse(game, score=(4, 2), ply=0)
    assert analysis.cube == ()
    assert analysis.players[0].cube_decisions == 0


# -- luck -----------------------------------------------------------------------


def _random_game(seed: int, variant: str = "hypergammon") -> Game:
    rng = random.Random(seed)
    game = Game(GameRules(variant), dice=RandomDice(seed))
    game.roll(0)
    while not game.is_over:
        side = game.turn
        assert side is not None
        plays = game.legal_plays()
        if plays:
            game.play(side, rng.choice(plays))
        else:
            game.roll(side)
    return game


def test_the_rolls_luck_averages_to_exactly_zero_in_any_position() -> None:
    judge = Judge(default_evaluator())
    rng = random.Random(3)
    position, positions = Position.initial(), []
    for turn in range(30):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        position = rng.choice(position.plays(dice)).position.swapped()
        if turn % 6 == 0:
            positions.append(position)
    for position in positions:
        frame = Frame(CubeState(), 1)
        values = judge.roll_values(position, frame, 0)
        lucks = {dice: value - average_roll(values) for dice, value in values.items()}
        assert math.fsum(lucks[dice] * weight for dice, weight in ALL_ROLLS) == pytest.approx(
            0.0, abs=1e-9
        )


def test_luck_sums_to_about_zero_over_random_games() -> None:
    """Property: each player's luck has mean zero; over 40 random games the mean of
    side 0's luck minus side 1's stays within four standard errors of zero."""
    totals = []
    for seed in range(40):
        analysis = analyse(_random_game(seed), ply=0)
        player0, player1 = analysis.players
        assert player0.luck == pytest.approx(sum(r.luck for r in analysis.luck if r.side == 0))
        totals.append(player0.luck - player1.luck)
    mean = statistics.fmean(totals)
    error = statistics.stdev(totals) / math.sqrt(len(totals))
    assert abs(mean) < 4 * error


# -- whole matches ----------------------------------------------------------------


def _finish(series: Match | Session, bots: tuple[Bot, Bot]) -> None:
    while not series.is_over:
        game = series.game
        if game.is_over:
            series.new_game()
            continue
        side = game.turn if game.turn is not None else 0
        series.apply(bots[side].decide(game, side, series.score))


def test_a_bot_match_analyses_and_the_summary_adds_up() -> None:
    match = Match(3, dice=RandomDice(11))
    _finish(match, (Bot("casual", seed=1), Bot("intermediate", seed=2)))
    calls: list[tuple[int, int]] = []
    analysis = analyse(
        match, names=("casual", "intermediate"), ply=0, progress=lambda d, t: calls.append((d, t))
    )
    total = steps(match.histories)
    assert calls == [(done, total) for done in range(1, total + 1)]
    assert analysis.kind == "match" and len(analysis.games) == len(match.games)

    for side, player in enumerate(analysis.players):
        assert player.name == ("casual", "intermediate")[side]
        moves = sum(
            1 for h in match.histories for e in h if isinstance(e, Moved) and e.side == side
        )
        assert player.checker_decisions + player.forced_plays == moves
        assert player.decisions == player.checker_decisions + player.cube_decisions
        assert player.error == pytest.approx(player.checker_error + player.cube_error)
        assert player.error_rate == pytest.approx(player.error / max(1, player.decisions))
        assert player.rating == pytest.approx(500 * player.error_rate)
        assert player.doubtful + player.bad + player.very_bad == sum(
            1 for r in analysis.checker if r.side == side and r.mark is not Mark.NONE
        )
        per_game = [game.players[side] for game in analysis.games]
        assert player.checker_decisions == sum(p.checker_decisions for p in per_game)
        assert player.cube_decisions == sum(p.cube_decisions for p in per_game)
        assert player.error == pytest.approx(sum(p.error for p in per_game))
        assert player.luck == pytest.approx(sum(p.luck for p in per_game))
        assert player.result == pytest.approx(sum(p.result for p in per_game))
    winner = match.winner
    assert winner is not None
    assert analysis.players[winner].result == pytest.approx(0.5)  # from 50% to 100%
    adjusted = [p.luck_adjusted for p in analysis.players]
    assert adjusted[0] == pytest.approx(-adjusted[1])

    assert all((r.equity is None) == r.opening for r in analysis.luck)
    document = json.loads(analysis.to_json())
    assert document["players"][0]["name"] == "casual"
    assert len(document["games"]) == len(match.games)


def test_a_money_session_with_beavers_analyses() -> None:
    session = Session(jacoby=True, beavers=True, max_games=2, dice=RandomDice(8))
    _finish(session, (Bot("casual", seed=3), Bot("casual", seed=4)))
    analysis = analyse(session, ply=0)
    assert analysis.kind == "session" and analysis.match_length == 0
    results = [p.result for p in analysis.players]
    assert results[0] == pytest.approx(session.net) and results[1] == pytest.approx(-session.net)


def test_a_game_from_its_rules_and_history() -> None:
    game = _random_game(5, "standard")
    history = game.history[:30]
    alone = analyse_game(GameRules(), history, ply=0)
    assert alone.winner is None and alone.results == (0.0, 0.0)
    assert len(alone.checker) + sum(alone.forced_plays) == sum(
        1 for e in history if isinstance(e, Moved)
    )
    with pytest.raises(ValueError, match="0 to 3 ply"):
        analyse(game, ply=5)


def test_no_cube_decisions_where_the_cube_is_dead() -> None:
    """At double match point (1-point match) doubling changes nothing: no cube decisions."""
    match = Match(1, dice=RandomDice(11))
    _finish(match, (Bot("casual", seed=3), Bot("casual", seed=4)))
    analysis = analyse(match, names=("A", "B"), ply=0)
    assert all(not game.cube for game in analysis.games)
