"""The teacher (gammon.engine.analysis.explain) and the beginner patterns, on hand-built boards.

Every count in these tests is worked out by hand first (the rolls that hit a
blot, the points and primes), then checked against Position.shots.
"""

from __future__ import annotations

import dataclasses

from gammon.dice import ScriptedDice
from gammon.engine.analysis import analyse
from gammon.engine.analysis.explain import (
    Explanation,
    compare_plays,
    explain,
    explain_checker,
    explain_cube,
    shape_of,
)
from gammon.engine.analysis.patterns import patterns
from gammon.engine.cube import CubeState, cube_decision, cube_efficiency
from gammon.game import Game
from gammon.position import Position
from gammon.rules import GameRules
from tests.engine.test_analysis import _cube_review, _race, _random_game

# The opponent's two back checkers sit on our 1-point (their 24-point).
_BACK = {24: 2}


def test_a_blot_six_away_against_none() -> None:
    """13/7 6/5 leaves a blot 6 away from the back checkers; 13/6 leaves none.

    By hand: the 11 rolls with a 6, then 5-1 (through our 2-point; the 6-point
    is ours), 4-2 (through the 3-point; the 5-point is ours) and 3-3: 16. 2-2
    would need the 3- and 5-points and the 5-point is blocked.
    """
    before = Position.from_points({13: 1, 6: 3, 5: 2}, _BACK, checkers=6)
    after = before.parse_play("13/7 6/5", (6, 1)).position
    assert after.swapped().shots(25 - 7) == 16
    assert compare_plays(before, (6, 1), better="13/6", played="13/7 6/5") == [
        "13/7 6/5 leaves a blot on the 7-point: 16 of 36 rolls hit it; 13/6 leaves none."
    ]


def test_a_blot_seven_away_is_hit_by_six_rolls() -> None:
    """13/6 leaves the 8-point alone, 7 away: 6-1, 5-2 and 4-3, two ways each."""
    before = Position.from_points({13: 1, 8: 1, 6: 2}, _BACK, checkers=4)
    shape = shape_of(before.parse_play("13/6", (6, 1)).position)
    assert (shape.blots, shape.shots) == ((8,), 6)
    [blots, made] = compare_plays(before, (6, 1), better="13/7 8/7", played="13/6")
    assert blots == "13/6 leaves a blot on the 8-point: 6 of 36 rolls hit it; 13/7 8/7 leaves none."
    assert made == "13/7 8/7 makes the 7-point."


def test_a_prime_built_against_a_stack() -> None:
    """3-1: 8/5 6/5 closes the 5-point, five in a row from the 8 to the 4; 8/4 has three."""
    before = Position.from_points({8: 3, 7: 2, 6: 3, 4: 2}, _BACK, checkers=10)
    better = shape_of(before.parse_play("8/5 6/5", (3, 1)).position)
    assert better.prime == (5, 8) and better.home_points == 3
    facts = compare_plays(before, (3, 1), better="8/5 6/5", played="8/4")
    assert facts == [
        "8/5 6/5 makes the 5-point.",
        "8/5 6/5 builds a 5-point prime (from the 8- to the 4-point); 8/4 has 3 points in a "
        "row at most.",
    ]


def test_an_anchor_given_up() -> None:
    """6-4 with an anchor on the opponent's 5-point (our 20): running both loses it."""
    mine = {20: 2, 13: 5, 8: 3, 6: 5}
    theirs = {24: 2, 13: 5, 8: 3, 6: 5}
    before = Position.from_points(mine, theirs)
    facts = compare_plays(before, (6, 4), better="13/7 13/9", played="20/14 20/16")
    assert "20/14 20/16 gives up the anchor on the 20-point; 13/7 13/9 keeps it." in facts
    # Running is what the play made has for it: said last, with why the better play is still
    # better (the tutor had opened with the merits of the play made).
    assert facts[-1] == (
        "13/7 13/9 keeps 2 checkers back, and is still better: 20/14 20/16 runs 2 checkers "
        "from there."
    )


def test_a_hit_and_its_pips() -> None:
    """6-2 with an opponent blot on our 11-point (their 14): hitting it costs them 25 - 14 pips."""
    before = Position.from_points({13: 3, 6: 3}, {14: 1, 24: 1}, checkers=6)
    facts = compare_plays(before, (6, 2), better="13/11* 13/7", played="13/7 6/4")
    assert facts[0] == "13/11* 13/7 hits, costing the opponent 11 pips; 13/7 6/4 hits nothing."


def test_the_play_mades_merits_come_after_what_the_better_play_does() -> None:
    """6-2, a blot to hit on our 11-point: when the play made is the one that hits, the
    words open with what the better play does and what the play made costs, and say the
    hit after, as a concession (the tutor read "13/7 8/7 was better: 24/23 21/15* hits")."""
    before = Position.from_points({13: 3, 6: 3}, {14: 1, 24: 1}, checkers=6)
    facts = compare_plays(before, (6, 2), better="13/7 6/4", played="13/11* 13/7")
    assert facts == [
        "13/11* 13/7 breaks the 13-point; 13/7 6/4 keeps it.",
        "13/7 6/4 does not hit, and is still better: 13/11* 13/7 hits, costing the opponent "
        "11 pips.",
        "13/7 6/4 leaves blots on the 7- and 4-points: 26 of 36 rolls hit one, and is still "
        "better: the risk is worth taking (13/11* 13/7 leaves blots on the 13-, 11- and "
        "7-points, where 17 of 36 rolls hit one).",
    ]


def test_the_opening_blunder_is_explained_and_tagged() -> None:
    """6-5 played 13/7 13/8 instead of running a back checker 24/13."""
    game = Game(dice=ScriptedDice([(6, 5)]))
    game.roll(0)
    game.play(0, "13/7 13/8")
    [review] = analyse(game, ply=0).checker
    explanation = explain_checker(review)
    assert explanation is not None
    assert (explanation.played, explanation.better) == ("13/8 13/7", "24/13")
    assert explanation.loss == review.loss
    assert "24/13 brings 1 checker out of the opponent's home board" in explanation.text
    assert "late-run" in explanation.tags
    # The same figures twice give the same words: computed, not drawn at random.
    assert explain_checker(review) == explanation


def test_the_best_play_needs_no_explanation() -> None:
    game = Game(dice=ScriptedDice([(3, 1)]))
    game.roll(0)
    game.play(0, "8/5 6/5")
    [review] = analyse(game, ply=0).checker
    assert explain_checker(review) is None
    assert explain([review], []) == []


# -- the cube ---------------------------------------------------------------------------


def _model_points(review_chances: tuple[float, ...], position_id: str | None) -> tuple[str, str]:
    assert position_id is not None
    chances = (review_chances[0], *review_chances[1:])
    decision = cube_decision(
        chances,  # type: ignore[arg-type]
        CubeState(),
        cube_efficiency(Position.from_id(position_id)),
    )
    assert decision.doubling_point is not None
    return f"{100 * decision.doubling_point:.0f}%", f"{100 * decision.take_point:.0f}%"


def test_a_missed_double_is_explained_by_the_doubling_window() -> None:
    review = _cube_review(analyse(_race({6: 3, 5: 2, 4: 2, 3: 2}, GameRules(), "roll"), ply=0))
    [why] = explain_cube(review, ("Ann", "Bob"))
    window, _ = _model_points(review.chances, review.position_id)
    assert (why.kind, why.side, why.tags) == ("double", 0, frozenset({"missed-double"}))
    assert why.text.startswith(f"Ann wins {100 * review.chances[0]:.0f}% of the games")
    assert f"inside the doubling window ({window} to" in why.text


def test_a_wrong_pass_and_a_hopeless_take_against_the_take_point() -> None:
    dropped = _cube_review(
        analyse(_race({6: 3, 5: 2, 4: 2, 3: 2}, GameRules(), "double", "drop"), ply=0)
    )
    [why] = explain_cube(dropped, ("Ann", "Bob"))
    _, take_point = _model_points(dropped.chances, dropped.position_id)
    assert (why.kind, why.side, why.played, why.better) == ("answer", 1, "pass", "take")
    assert f"Bob wins {100 * (1 - dropped.chances[0]):.0f}% of the games" in why.text
    assert f"above the take point of {take_point}" in why.text

    taken = _cube_review(analyse(_race({6: 4, 5: 4, 4: 3}, GameRules(), "double", "take"), ply=0))
    [why] = explain_cube(taken, ("Ann", "Bob"))
    assert why.tags == frozenset({"hopeless-take"}) and why.better == "pass"
    assert "below the take point" in why.text


def test_a_double_too_early() -> None:
    review = _cube_review(
        analyse(_race({6: 2, 5: 2, 4: 2, 3: 2}, GameRules(), "double", "take"), ply=0)
    )
    [why] = explain_cube(review, ("Ann", "Bob"))
    window, _ = _model_points(review.chances, review.position_id)
    assert why.tags == frozenset({"early-double"})
    assert f"below the doubling window, which opens at {window}" in why.text


# -- patterns ---------------------------------------------------------------------------


def _mistake(side: int, *tags: str, index: int = 1) -> Explanation:
    return Explanation(1, index, side, "checker", "a", "b", 0.1, (), frozenset(tags))


def test_patterns_count_each_players_habits() -> None:
    found = [
        _mistake(0, "blots", "home", index=3),
        _mistake(0, "blots", index=7),
        _mistake(1, "hopeless-take", index=9),
        _mistake(0, "early-double", index=11),
    ]
    mine = patterns(found, side=0)
    assert [(p.key, p.count) for p in mine] == [("blots", 2), ("home", 1), ("early-double", 1)]
    assert mine[0].where == ((1, 3), (1, 7))
    assert mine[0].name == "Leaving blots in reach without need"
    assert [p.name for p in patterns(found, side=1)] == ["Taking hopeless doubles"]


def test_hypergammon_boards_are_read_with_their_three_checkers() -> None:
    analysis = analyse(_random_game(3, "hypergammon"), ply=0)
    found = explain(analysis.checker, analysis.cube, checkers=3, threshold=0.0)
    checker = [e for e in found if e.kind == "checker"]
    assert checker and all(e.facts and e.better in e.text for e in checker)


# Every cube explanation of many seeded games against its figures, the window and the take
# point: tests/engine/test_teacher_words.py.


def test_a_too_early_double_inside_the_window_by_the_chances_says_why() -> None:
    """A deeper search can keep the cube where the chances alone are inside the window (the
    server's reviews at 2-ply said "wins 68% ... below the doubling window, which opens at
    65%"): the words then say that, not that the chances are below the window."""
    review = _cube_review(
        analyse(_race({6: 2, 5: 2, 4: 2, 3: 2}, GameRules(), "double", "take"), ply=0)
    )
    assert review.position_id is not None
    efficiency = cube_efficiency(Position.from_id(review.position_id))
    opening = cube_decision(review.chances, CubeState(), efficiency).doubling_point
    assert opening is not None
    inside = dataclasses.replace(review, chances=(opening + 0.03, 0.0, 0.0, 0.0, 0.0))
    [why] = explain_cube(inside, ("Ann", "Bob"))
    assert why.tags == frozenset({"early-double"})
    assert "below the doubling window" not in why.text
    assert "By the chances alone that is inside the doubling window, which opens at" in why.text
