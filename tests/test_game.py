"""Tests of gammon.game: one game's rules as a state machine (R3, R5, R7, R9-R11, R14).

Every refused action is checked to leave the game exactly as it was, by comparing
a snapshot of everything a caller can see before and after.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammon.dice import RandomDice, ScriptedDice
from gammon.errors import IllegalActionError, InvalidPlayError, InvalidRulesError
from gammon.events import (
    Beavered,
    DoubleChosen,
    Doubled,
    Dropped,
    Ended,
    EndReason,
    GameResult,
    Moved,
    OpeningRolled,
    Passed,
    PassReason,
    Resigned,
    Rolled,
    Took,
    WinKind,
)
from gammon.game import Game, Phase, thrown_dice
from gammon.ids import GameState, decode_match_id
from gammon.play import Play
from gammon.position import Position
from gammon.rules import GameRules

# -- helpers ------------------------------------------------------------------


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a caller can observe about a game."""
    return (
        game.phase,
        game.turn,
        game.on_roll,
        game.dice,
        game.cube_value,
        game.cube_owner,
        game.position_for(0),
        game.position_for(1),
        game.history,
        game.result,
        game.resignation,
        [str(play) for play in game.legal_plays()],
        game.can_double(0),
        game.can_double(1),
        game.match_id_fields(plausible_score(game.rules)),
    )


def plausible_score(rules: GameRules) -> tuple[int, int]:
    """A score before the game that its rules can have (a Crawford game needs a side 1-away)."""
    return (rules.match_length - 1, 0) if rules.crawford else (0, 0)


def refused(
    game: Game, action: Callable[..., object], *args: object, match: str | None = None
) -> str:
    """Check that an action raises IllegalActionError and changes nothing; return the message."""
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=match) as info:
        action(*args)
    assert snapshot(game) == before
    return str(info.value)


def game_with(
    *rolls: tuple[int, int], rules: GameRules | None = None, start: Position | None = None
) -> Game:
    """A game whose opening roll (the first of ``rolls``) has been thrown."""
    game = Game(rules, dice=ScriptedDice(rolls), start=start)
    game.roll(0)
    return game


def first_play(game: Game) -> None:
    side = game.turn
    assert side is not None
    game.play(side, game.legal_plays()[0])


# -- the opening roll (R3) ----------------------------------------------------


def test_opening_roll_higher_die_moves_first_with_both_dice() -> None:
    game = Game(dice=ScriptedDice([(2, 5)]))
    assert game.phase is Phase.OPENING and game.turn is None and game.on_roll is None
    assert game.roll(0) == (OpeningRolled((2, 5)),)
    assert game.on_roll == 1 and game.turn == 1
    assert game.phase is Phase.MOVE
    assert game.dice == (5, 2)
    assert {str(p) for p in game.legal_plays()} == {
        str(p) for p in Position.initial().plays((5, 2))
    }


def test_either_side_may_throw_the_opening_roll() -> None:
    game = Game(dice=ScriptedDice([(6, 1)]))
    game.roll(1)
    assert game.on_roll == 0 and game.dice == (6, 1)


def test_opening_ties_are_thrown_again_without_doubling_by_default() -> None:
    game = game_with((4, 4), (3, 3), (6, 1))
    assert game.history == (OpeningRolled((4, 4)), OpeningRolled((3, 3)), OpeningRolled((6, 1)))
    assert game.history[0].is_tie and not game.history[2].is_tie  # type: ignore[union-attr]
    assert game.cube_value == 1 and game.cube_owner is None
    assert game.on_roll == 0 and game.dice == (6, 1)


def test_automatic_doubles_stop_at_their_limit() -> None:
    # R3: each tie doubles the centred cube, at most auto_doubles times.
    rules = GameRules(auto_doubles=2)
    game = game_with((1, 1), (2, 2), (3, 3), (5, 4), rules=rules)
    assert game.cube_value == 4 and game.cube_owner is None
    game = game_with((1, 1), (5, 4), rules=rules)
    assert game.cube_value == 2


def test_automatic_doubles_respect_the_maximum_cube_and_a_missing_cube() -> None:
    game = game_with((1, 1), (2, 2), (3, 3), (5, 4), rules=GameRules(auto_doubles=5, max_cube=2))
    assert game.cube_value == 2
    game = game_with((1, 1), (5, 4), rules=GameRules("tavla", auto_doubles=3))
    assert game.cube_value == 1
    game = game_with((1, 1), (5, 4), rules=GameRules(auto_doubles=3, cube=False))
    assert game.cube_value == 1


def test_automatic_doubles_are_for_money_play_only() -> None:
    with pytest.raises(InvalidRulesError, match="automatic doubles are for money play only"):
        GameRules(auto_doubles=1, match_length=5)


def test_a_dice_source_that_fails_during_the_opening_leaves_the_game_unchanged() -> None:
    game = Game(dice=ScriptedDice([(3, 3), (2, 2)]))
    refused(game, game.roll, 0, match="no rolls left")
    assert game.phase is Phase.OPENING and game.history == ()


def test_opening_roll_cannot_be_thrown_twice() -> None:
    game = game_with((3, 1), (6, 6))
    message = refused(game, game.roll, 0, match="cannot roll")
    assert "side 0 to play 3-1" in message


# -- turns (R3) ---------------------------------------------------------------


def test_turns_alternate() -> None:
    game = game_with((3, 1), (6, 4), (5, 5))
    game.play(0, "8/5 6/5")
    assert game.phase is Phase.ROLL and game.turn == 1 and game.dice is None
    assert game.roll(1) == (Rolled(1, (6, 4)),)
    assert game.turn == 1 and game.dice == (6, 4)
    game.play(1, game.legal_plays()[0])
    assert game.turn == 0 and game.phase is Phase.ROLL
    game.roll(0)
    assert game.dice == (5, 5)
    # The board is kept consistently: what side 0 played shows on its side.
    assert game.position_for(0).point(5) == 2
    assert game.position_for(1).point(20) == -2


def test_rolling_twice_is_refused_and_draws_no_dice() -> None:
    dice = ScriptedDice([(3, 1), (6, 4), (2, 2)])
    game = Game(dice=dice)
    game.roll(0)
    game.play(0, "8/5 6/5")
    game.roll(1)
    left = dice.remaining
    refused(game, game.roll, 1, match="side 1 cannot roll: the game waits for side 1 to play 6-4")
    assert dice.remaining == left


def test_rolling_out_of_turn_is_refused() -> None:
    game = game_with((3, 1), (6, 4))
    game.play(0, "8/5 6/5")
    refused(game, game.roll, 0, match="side 0 cannot roll: the game waits for side 1 to roll")


def test_moving_for_the_wrong_side_is_refused() -> None:
    game = game_with((3, 1))
    refused(game, game.play, 1, "8/5 6/5", match="side 1 cannot play")


def test_playing_before_rolling_is_refused() -> None:
    game = game_with((3, 1), (6, 4))
    game.play(0, "8/5 6/5")
    refused(game, game.play, 1, "24/18 13/9", match="waits for side 1 to roll")


@pytest.mark.parametrize("side", [2, -1, True, "0", None, 0.0])
def test_sides_are_zero_or_one(side: Any) -> None:
    game = game_with((3, 1))
    refused(game, game.play, side, "8/5 6/5", match="a side is 0 or 1")
    refused(game, game.resign, side, 1, match="a side is 0 or 1")
    fresh = Game(dice=ScriptedDice([(3, 1)]))
    refused(fresh, fresh.roll, side, match="a side is 0 or 1")


def test_an_illegal_play_is_refused_and_changes_nothing() -> None:
    game = game_with((3, 1))
    message = refused(game, game.play, 0, "24/18 13/9")
    assert "3-1" in message
    # Readable but illegal, and unreadable notation: both are refused actions.
    refused(game, game.play, 0, "6/3 6/3")
    with pytest.raises(IllegalActionError) as info:
        game.play(0, "13-x")
    assert isinstance(info.value.__cause__, InvalidPlayError)
    refused(game, game.play, 0, 42)


def test_plays_may_be_given_as_play_objects_or_any_notation() -> None:
    game = game_with((3, 1), (6, 4))
    wanted = next(p for p in game.legal_plays() if str(p) == "8/5 6/5")
    assert game.play(0, wanted)[0] == Moved(0, (3, 1), "8/5 6/5", wanted.moves)
    game.roll(1)
    # Any notation the parser reads is accepted; the history keeps the standard form.
    events = game.play(1, "13/9 24/18")
    assert isinstance(events[0], Moved) and events[0].play == "24/18 13/9"


def test_a_play_from_another_position_is_refused() -> None:
    game = game_with((3, 1))
    stranger: Play = Position.from_points({8: 1, 6: 1}, {24: 1}, checkers=15).plays((3, 1))[0]
    refused(game, game.play, 0, stranger, match="not a legal play of 3-1")


# -- passing (R5, R7) ------------------------------------------------------------

# Side 1 holds all six of its home points; side 0 has a checker on the bar.
CLOSED = Position.from_points(
    {25: 1, 13: 5, 8: 3, 6: 5},
    {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 11: 3},
)


def test_a_roll_with_no_legal_play_passes_the_turn_automatically() -> None:
    # R5/R7: side 0 wins the opening roll but cannot enter against the closed board.
    game = game_with((3, 1), rules=None, start=CLOSED)
    assert game.history == (OpeningRolled((3, 1)), Passed(0, PassReason.NO_PLAY))
    assert game.phase is Phase.ROLL and game.turn == 1


def test_no_legal_play_after_a_normal_roll() -> None:
    # Side 0 holds its points 1-5; side 1 on the bar rolls 5-5 and cannot enter.
    start = Position.from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, {25: 1, 13: 14})
    game = game_with((4, 3), (5, 5), start=start)
    game.play(0, "13/9 13/10")
    assert game.roll(1) == (Rolled(1, (5, 5)), Passed(1, PassReason.NO_PLAY))
    assert game.turn == 0 and game.phase is Phase.ROLL and game.dice is None


def test_on_the_bar_against_a_closed_board_the_turn_passes_without_rolling() -> None:
    # Seeds and R7: the player loses turn after turn without rolling.
    dice = ScriptedDice([(3, 1), (6, 5)])
    game = Game(dice=dice, start=CLOSED)
    game.roll(0)  # side 0 wins the opening but cannot enter
    game.roll(1)
    keeps_board_closed = [
        p for p in game.legal_plays() if all(n >= 2 for n in p.position.mine[:6])
    ]
    game.play(1, keeps_board_closed[0])
    assert game.phase is Phase.ROLL and game.turn == 0
    assert game.can_double(0)  # doubling before the (skipped) roll is still allowed
    assert dice.remaining == 0
    assert game.roll(0) == (Passed(0, PassReason.CLOSED_BOARD),)
    assert game.turn == 1 and game.phase is Phase.ROLL and game.dice is None


def test_a_record_keeps_the_dice_of_a_dance_against_a_closed_board() -> None:
    """R7: our games do not roll there, but a record read from a file keeps its dice."""
    dice = ScriptedDice([(3, 1), (6, 5)])
    game = Game(dice=dice, start=CLOSED)
    game.roll(0)
    with pytest.raises(IllegalActionError, match="side 0 cannot dance: the game waits for"):
        game.dance(0, (5, 4))
    with pytest.raises(IllegalActionError, match="not on the bar against a closed board"):
        game.dance(1, (5, 4))
    game.roll(1)
    closed = next(p for p in game.legal_plays() if all(n >= 2 for n in p.position.mine[:6]))
    game.play(1, closed)
    with pytest.raises(IllegalActionError, match=r"cannot dance with \(7, 1\): each die"):
        game.dance(0, (7, 1))
    assert game.dance(0, (5, 4)) == (Rolled(0, (5, 4)), Passed(0, PassReason.CLOSED_BOARD))
    assert dice.remaining == 0 and game.turn == 1 and game.dice is None
    # The history rebuilds the game: the dance's dice come from the record, not the source.
    again = Game.replay(None, game.history, start=CLOSED)
    assert again.history == game.history and again.turn == 1
    assert thrown_dice(game.history) == [(3, 1), (6, 5)]


# -- the cube (R10, R12, R14) ---------------------------------------------------


def after_opening_play(*rolls: tuple[int, int], rules: GameRules | None = None) -> Game:
    """Side 0 won the opening with 3-1 and played it; side 1 is on roll."""
    game = game_with((3, 1), *rolls, rules=rules)
    game.play(0, "8/5 6/5")
    return game


def test_double_and_take() -> None:
    game = after_opening_play((6, 4))
    assert game.can_double(1) and not game.can_double(0)
    assert game.double(1) == (Doubled(1, 2),)
    assert game.phase is Phase.DOUBLE_OFFERED and game.turn == 0 and game.on_roll == 1
    assert game.cube_value == 1  # the cube turns when taken
    fields = game.match_id_fields()
    assert fields.double_offered and fields.turn == 0 and fields.player_on_roll == 1
    assert game.take(0) == (Took(0),)
    assert game.cube_value == 2 and game.cube_owner == 0
    assert game.phase is Phase.ROLL and game.turn == 1
    game.roll(1)
    assert game.dice == (6, 4)


def test_only_the_cube_owner_may_redouble() -> None:
    game = after_opening_play((6, 4), (5, 2), (4, 1), (6, 2))
    game.double(1)
    game.take(0)
    game.roll(1)
    first_play(game)
    assert game.can_double(0) and not game.can_double(1)
    game.double(0)
    game.take(1)
    assert game.cube_value == 4 and game.cube_owner == 1
    game.roll(0)
    first_play(game)
    assert game.can_double(1)  # the owner may redouble
    game.roll(1)
    first_play(game)
    assert not game.can_double(0)
    refused(game, game.double, 0, match="the opponent owns the cube")


def test_doubling_after_rolling_or_out_of_turn_is_refused() -> None:
    game = after_opening_play((6, 4))
    refused(game, game.double, 0, match="only the side on roll may double")
    game.roll(1)
    refused(game, game.double, 1, match="dice are already rolled")


def test_answering_a_double_that_was_not_offered_is_refused() -> None:
    game = after_opening_play((6, 4))
    refused(game, game.take, 0, match="side 0 cannot take: the game waits for side 1 to roll")
    refused(game, game.drop, 0, match="cannot drop")
    refused(game, game.beaver, 0, match="cannot beaver")
    game.double(1)
    refused(game, game.take, 1, match="waits for side 0 to take or drop the double to 2")
    refused(game, game.roll, 1, match="cannot roll")
    refused(game, game.double, 1, match="waits for side 0")


def test_doubling_at_the_maximum_cube_is_refused() -> None:
    game = after_opening_play((6, 4), (5, 2), rules=GameRules(max_cube=2))
    game.double(1)
    game.take(0)
    game.roll(1)
    first_play(game)
    refused(game, game.double, 0, match="already at 2, the highest it may go")
    no_cube = after_opening_play(rules=GameRules(max_cube=1))
    assert not no_cube.can_double(1)


def test_no_cube_when_disabled_in_tavla_or_in_the_crawford_game() -> None:
    for rules, why in (
        (GameRules(cube=False), "not used in this game"),
        (GameRules("tavla"), "not used in this game"),
        (GameRules(crawford=True, match_length=5), "Crawford game"),
    ):
        game = after_opening_play(rules=rules)
        refused(game, game.double, 1, match=why)


def test_crawford_game_needs_match_play() -> None:
    with pytest.raises(InvalidRulesError, match="only in match play"):
        GameRules(crawford=True)


@pytest.mark.parametrize(
    ("value", "message"),
    [(3, "power of two"), (128 * 512, "power of two"), (0, "power of two"), (True, "power")],
)
def test_bad_maximum_cube(value: int, message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        GameRules(max_cube=value)


def test_drop_gives_the_doubler_the_value_before_the_double() -> None:
    # R9: a refused double wins the value before the offer, never a gammon.
    game = after_opening_play((6, 4), (5, 2))
    game.double(1)
    assert game.drop(0) == (
        Dropped(0),
        Ended(GameResult(1, 1, WinKind.SINGLE, EndReason.DROP)),
    )
    assert game.is_over and game.phase is Phase.OVER and game.turn is None
    fields = game.match_id_fields()
    assert fields.game_state is GameState.DROPPED and fields.turn == 0
    assert fields.score == (0, 1)

    game = after_opening_play((6, 4), (5, 2))
    game.double(1)
    game.take(0)
    game.roll(1)
    first_play(game)
    game.double(0)
    game.drop(1)
    assert game.result == GameResult(0, 2, WinKind.SINGLE, EndReason.DROP)


def test_nothing_can_be_done_after_the_end() -> None:
    game = after_opening_play()
    game.double(1)
    game.drop(0)
    for action, args in (
        (game.roll, (0,)),
        (game.roll, (1,)),
        (game.double, (1,)),
        (game.take, (0,)),
        (game.play, (1, "24/18")),
        (game.resign, (0, 1)),
        (game.accept_resignation, (1,)),
        (game.choose_double, (1, 6)),
    ):
        assert "the game is over (side 1 won 1 point (single, drop))" in refused(
            game, action, *args
        )


# -- beavers (R11) ----------------------------------------------------------------


def test_beaver_accepted() -> None:
    game = after_opening_play((6, 4), rules=GameRules(beavers=True))
    game.double(1)
    assert game.can_beaver(0) and not game.can_beaver(1)
    assert game.beaver(0) == (Beavered(0, 4),)
    assert game.phase is Phase.BEAVER_OFFERED and game.turn == 1
    assert game.cube_owner == 0 and game.cube_value == 2
    refused(game, game.take, 0, match="waits for side 1 to take or drop the beaver to 4")
    assert game.take(1) == (Took(1),)
    assert game.cube_value == 4 and game.cube_owner == 0
    assert game.phase is Phase.ROLL and game.turn == 1  # the doubler now rolls


def test_beaver_refused_loses_the_doubled_value() -> None:
    game = after_opening_play((6, 4), rules=GameRules(beavers=True))
    game.double(1)
    game.beaver(0)
    game.drop(1)
    assert game.result == GameResult(0, 2, WinKind.SINGLE, EndReason.BEAVER_REFUSED)
    fields = game.match_id_fields()
    assert fields.game_state is GameState.DROPPED and fields.score == (2, 0)


def test_beavers_off_by_default_and_never_above_the_maximum_cube() -> None:
    game = after_opening_play((6, 4))
    game.double(1)
    refused(game, game.beaver, 0, match="beavers are not allowed")
    game = after_opening_play((6, 4), rules=GameRules(beavers=True, max_cube=2))
    game.double(1)
    refused(game, game.beaver, 0, match="above the highest the cube may go, 2")


def test_beavers_are_for_money_play_only() -> None:
    with pytest.raises(InvalidRulesError, match="beavers are for money play only"):
        GameRules(beavers=True, match_length=3)


# -- game values (R9, R11, R14) ------------------------------------------------------


def bear_off_win(
    loser: dict[int, int], rules: GameRules | None = None, *, turn_cube: bool = False
) -> GameResult:
    """Side 1 wins the opening and plays; side 0 (two checkers on its 1-point) then bears off.

    ``loser`` is side 1's checkers by its own point numbers (25 = bar).
    """
    start = Position.from_points({1: 2}, loser)
    game = Game(rules, dice=ScriptedDice([(1, 2), (6, 5)]), start=start)
    game.roll(0)
    first_play(game)
    if turn_cube:
        game.double(0)
        game.take(1)
    game.roll(0)
    events = game.play(0, game.legal_plays()[0])
    assert game.is_over and isinstance(events[-1], Ended)
    assert game.position.winner() == 1  # the loser is "on roll" afterwards, as in GNU
    assert game.result is not None
    return game.result


SINGLE = {6: 14}  # one checker borne off
GAMMON = {12: 15}  # none off, none in the winner's home board
BACKGAMMON = {25: 1, 12: 14}  # one on the bar


def test_single_gammon_and_backgammon() -> None:
    assert bear_off_win(SINGLE) == GameResult(0, 1, WinKind.SINGLE, EndReason.BEAR_OFF)
    assert bear_off_win(GAMMON) == GameResult(0, 2, WinKind.GAMMON, EndReason.BEAR_OFF)
    assert bear_off_win(BACKGAMMON) == GameResult(0, 3, WinKind.BACKGAMMON, EndReason.BEAR_OFF)
    assert bear_off_win(BACKGAMMON, turn_cube=True).points == 6


def test_a_checker_in_the_winners_home_board_makes_a_backgammon() -> None:
    # R9: the loser's 19- to 24-points are the winner's home board.
    for point, kind in ((19, WinKind.BACKGAMMON), (23, WinKind.BACKGAMMON), (18, WinKind.GAMMON)):
        start = Position.from_points({1: 2}, {point: 1, 12: 14})
        game = game_with((2, 1), start=start)  # side 0 bears off at once
        first_play(game)
        assert game.result == GameResult(0, kind.value, kind, EndReason.BEAR_OFF)


def test_jacoby_rule() -> None:
    # R11: gammons count only if the cube was turned.
    jacoby = GameRules(jacoby=True)
    assert bear_off_win(GAMMON, jacoby) == GameResult(0, 1, WinKind.SINGLE, EndReason.BEAR_OFF)
    assert bear_off_win(GAMMON, jacoby, turn_cube=True) == GameResult(
        0, 4, WinKind.GAMMON, EndReason.BEAR_OFF
    )
    assert bear_off_win(GAMMON).points == 2  # off by default


def test_jacoby_counts_an_automatic_double_as_unturned() -> None:
    rules = GameRules(jacoby=True, auto_doubles=1)
    start = Position.from_points({1: 2}, GAMMON)
    game = Game(rules, dice=ScriptedDice([(4, 4), (1, 2), (6, 5)]), start=start)
    game.roll(0)
    first_play(game)
    game.roll(0)
    first_play(game)
    assert game.result == GameResult(0, 2, WinKind.SINGLE, EndReason.BEAR_OFF)


def test_gammons_off_scores_every_win_as_single() -> None:
    # Seeds: gammons are optional in home play.
    assert bear_off_win(BACKGAMMON, GameRules(gammons=False)).kind is WinKind.SINGLE


def test_tavla_mars_counts_two_and_there_is_no_backgammon() -> None:
    # R14: mars (gammon) counts 2; a backgammon scores as a mars.
    tavla = GameRules("tavla")
    assert bear_off_win(BACKGAMMON, tavla) == GameResult(0, 2, WinKind.GAMMON, EndReason.BEAR_OFF)
    assert bear_off_win(SINGLE, tavla).points == 1


def test_a_finished_game_in_the_match_id() -> None:
    fields = Game.replay(
        GameRules(match_length=7),
        _bear_off_history(),
        start=Position.from_points({1: 2}, GAMMON),
    ).match_id_fields((3, 4))
    assert fields.game_state is GameState.OVER
    assert fields.score == (5, 4)
    assert fields.player_on_roll == 1 and fields.turn == 1 and fields.dice == (0, 0)


def _bear_off_history() -> tuple[Any, ...]:
    game = Game(
        GameRules(match_length=7),
        dice=ScriptedDice([(1, 2), (6, 5)]),
        start=Position.from_points({1: 2}, GAMMON),
    )
    game.roll(0)
    first_play(game)
    game.roll(0)
    first_play(game)
    return game.history


def test_a_start_position_must_suit_the_variant() -> None:
    with pytest.raises(IllegalActionError, match="3 checkers a side, but standard"):
        Game(start=Position.initial("hypergammon"))
    with pytest.raises(IllegalActionError, match="already won"):
        Game(start=Position.from_points({}, {6: 1}))


# -- resignation (R9) ----------------------------------------------------------------


def test_resignation_accepted() -> None:
    game = after_opening_play((6, 4), (5, 2))
    game.double(1)
    game.take(0)
    assert game.resign(1, 2) == (Resigned(1, 2),)
    assert game.phase is Phase.RESIGNATION_OFFERED and game.turn == 0
    assert game.resignation == (1, 2)
    fields = game.match_id_fields()
    assert fields.resignation == 2 and fields.turn == 0 and fields.player_on_roll == 1
    game.accept_resignation(0)
    assert game.result == GameResult(0, 4, WinKind.GAMMON, EndReason.RESIGNATION)
    fields = game.match_id_fields()
    assert fields.game_state is GameState.RESIGNED and fields.resignation == 2


def test_resignation_rejected_resumes_where_the_game_was() -> None:
    game = after_opening_play((6, 4))
    game.roll(1)
    before = snapshot(game)
    game.resign(0, 1)  # the side not on roll may resign too
    refused(game, game.play, 1, "24/18 13/9", match="accept or reject the resignation")
    refused(game, game.accept_resignation, 0, match="cannot accept")
    refused(game, game.resign, 0, 3, match="cannot resign")
    game.reject_resignation(1)
    assert snapshot(game)[:8] == before[:8]
    assert game.phase is Phase.MOVE and game.dice == (6, 4)
    game.play(1, "24/18 13/9")


def test_resignation_values_and_timing() -> None:
    game = after_opening_play((6, 4))
    for value in (0, 4, "1", 1.0):
        refused(game, game.resign, 1, value, match="offer 1 \\(single\\), 2 \\(gammon\\)")
    refused(game, game.accept_resignation, 0, match="cannot accept a resignation")
    refused(game, game.reject_resignation, 0, match="cannot reject a resignation")
    game.double(1)
    refused(game, game.resign, 0, 1, match="cannot resign: the game waits for side 0 to take")
    opening = Game(dice=ScriptedDice([(3, 1)]))
    refused(opening, opening.resign, 0, 1, match="waits for the opening roll")


def test_resignation_is_scored_like_a_win() -> None:
    game = after_opening_play(rules=GameRules("tavla"))
    game.resign(1, 3)
    game.accept_resignation(0)
    assert game.result == GameResult(0, 2, WinKind.GAMMON, EndReason.RESIGNATION)
    assert game.match_id_fields().resignation == 3  # the Match ID keeps what was offered
    game = after_opening_play(rules=GameRules(jacoby=True))
    game.resign(0, 2)
    game.accept_resignation(1)
    assert game.result == GameResult(1, 1, WinKind.SINGLE, EndReason.RESIGNATION)


# -- acey-deucey (R14) ------------------------------------------------------------


ACEY = GameRules("acey-deucey")


def test_acey_deucey_bonus_in_full() -> None:
    # R14: 1-2 played, then a double of choice played four times, then roll again.
    game = game_with((3, 1), (1, 2), (5, 3), rules=ACEY)
    first_play(game)
    game.roll(1)
    game.play(1, max(game.legal_plays(), key=lambda p: len(p.moves)))
    assert game.phase is Phase.CHOOSE_DOUBLE and game.turn == 1 and game.dice is None
    refused(game, game.roll, 1, match="choose a double for the acey-deucey bonus")
    refused(game, game.double, 1, match="dice are already rolled")
    refused(game, game.choose_double, 0, 6, match="side 0 cannot choose a double")
    refused(game, game.choose_double, 1, 7, match="pick a number from 1 to 6")
    assert game.choose_double(1, 6) == (DoubleChosen(1, 6),)
    assert game.phase is Phase.MOVE and game.dice == (6, 6)
    assert all(len(p.moves) == 4 for p in game.legal_plays())
    first_play(game)
    assert game.phase is Phase.ROLL and game.turn == 1  # rolls again
    game.roll(1)
    assert game.dice == (5, 3)


def test_acey_deucey_bonus_lost_when_the_one_two_cannot_be_played_in_full() -> None:
    # Side 0's last checker is on its 10-point; side 1 holds side 0's 9 and 7 points,
    # so only the 2 can be played (10/8, then 8/7 is blocked): the rest is lost.
    start = Position(
        [0] * 9 + [1] + [0] * 15,
        [0] * 15 + [2] + [0] + [2] + [0] * 7,
        waiting=(0, 11),
    )
    game = game_with((2, 1), rules=ACEY, start=start)  # the opening 2-1 is a 1-2 too
    assert [str(p) for p in game.legal_plays()] == ["10/8"]
    game.play(0, "10/8")
    assert game.phase is Phase.ROLL and game.turn == 1


# Side 0's last checker is on its 10-point and side 1 holds side 0's 4-point.
LAST_CHECKER = Position([0] * 9 + [1] + [0] * 15, [0] * 20 + [2] + [0] * 4, waiting=(0, 13))


def test_acey_deucey_extra_roll_lost_when_the_double_cannot_be_played_in_full() -> None:
    game = game_with((2, 1), rules=ACEY, start=LAST_CHECKER)
    game.play(0, "10/7")
    assert game.phase is Phase.CHOOSE_DOUBLE
    game.choose_double(0, 1)  # 7/6/5, then 5/4 is blocked: two of four
    assert [str(p) for p in game.legal_plays()] == ["7/5"]
    game.play(0, "7/5")
    assert game.phase is Phase.ROLL and game.turn == 1


def test_acey_deucey_chosen_double_with_no_play_passes() -> None:
    game = game_with((2, 1), rules=ACEY, start=LAST_CHECKER)
    game.play(0, "10/7")
    assert game.choose_double(0, 3) == (DoubleChosen(0, 3), Passed(0, PassReason.NO_PLAY))
    assert game.phase is Phase.ROLL and game.turn == 1


def test_standard_one_two_earns_no_bonus() -> None:
    game = game_with((2, 1), (1, 2))
    first_play(game)
    assert game.phase is Phase.ROLL and game.turn == 1


# -- GNU Backgammon Match IDs -----------------------------------------------------


def test_match_id_of_the_manual_example() -> None:
    # GNU Backgammon manual: "the score is 2-4 in a 9 point match with player 0 holding
    # a 2-cube, and player 1 has just rolled 52": QYkqASAAIAAA. The manual predates
    # the Jacoby bit; GNU Backgammon now writes Jacoby off in match play (NewGame sets
    # fJacoby only when nMatchTo is 0), so the last character becomes E.
    game = game_with((3, 1), (5, 2), rules=GameRules(match_length=9))
    game.play(0, "8/5 6/5")
    game.double(1)
    game.take(0)
    game.roll(1)
    assert game.match_id((2, 4)) == "QYkqASAAIAAE"


def test_match_id_after_an_opening_roll() -> None:
    # "g9vBASSYZ8wBBg:cIkmAQAAAAAA" from GNU Backgammon: a 9-point match at 0-0,
    # player 1 to play 51 (again with the Jacoby bit of today's match play).
    game = game_with((1, 5), rules=GameRules(match_length=9))
    assert game.match_id() == "cIkmAQAAAAAE"


def test_match_id_before_the_opening_roll() -> None:
    fields = decode_match_id(Game(GameRules(match_length=5)).match_id((1, 2)))
    assert fields.game_state is GameState.NO_GAME and fields.score == (1, 2)


# -- history and replay -----------------------------------------------------------


def random_step(game: Game, rng: random.Random) -> None:
    """One random legal action by whichever side must act."""
    phase = game.phase
    if phase is Phase.OPENING:
        game.roll(rng.randrange(2))
        return
    side = game.turn
    assert side is not None
    if phase in (Phase.ROLL, Phase.MOVE) and rng.random() < 0.003:
        game.resign(rng.randrange(2), rng.randint(1, 3))
    elif phase is Phase.ROLL:
        if game.can_double(side) and rng.random() < 0.06:
            game.double(side)
        else:
            game.roll(side)
    elif phase is Phase.DOUBLE_OFFERED:
        choice = rng.random()
        if game.can_beaver(side) and choice < 0.2:
            game.beaver(side)
        elif choice < 0.75:
            game.take(side)
        else:
            game.drop(side)
    elif phase is Phase.BEAVER_OFFERED:
        (game.take if rng.random() < 0.7 else game.drop)(side)
    elif phase is Phase.MOVE:
        play = rng.choice(game.legal_plays())
        game.play(side, str(play) if rng.random() < 0.5 else play)
    elif phase is Phase.CHOOSE_DOUBLE:
        game.choose_double(side, rng.randint(1, 6))
    elif phase is Phase.RESIGNATION_OFFERED:
        (game.accept_resignation if rng.random() < 0.5 else game.reject_resignation)(side)
    else:  # pragma: no cover
        raise AssertionError(phase)


def random_wrong_action(game: Game, rng: random.Random) -> None:
    """Any action at all, by either side, with a random argument; may well be refused."""
    side = rng.randrange(2)
    name = rng.choice(
        ["roll", "double", "take", "drop", "beaver", "play", "resign", "accept_resignation",
         "reject_resignation", "choose_double"]
    )
    if name == "play":
        plays = game.legal_plays() or Position.initial().plays((6, 5))
        game.play(side, rng.choice(plays))
    elif name == "resign":
        game.resign(side, rng.randint(0, 4))
    elif name == "choose_double":
        game.choose_double(side, rng.randint(0, 7))
    else:
        getattr(game, name)(side)


def play_out(game: Game, rng: random.Random, *, probe: bool = False, limit: int = 5000) -> None:
    """Play random legal actions to the end; with ``probe``, also try random other actions."""
    for _ in range(limit):
        if game.is_over:
            return
        game.match_id_fields(plausible_score(game.rules))  # consistent GNU Match ID fields
        if probe:
            before = snapshot(game)
            try:
                random_wrong_action(game, rng)
            except IllegalActionError:
                assert snapshot(game) == before
        if not game.is_over:
            random_step(game, rng)
    raise AssertionError("the game did not end")


RULE_SETS = [
    GameRules(),
    GameRules(beavers=True, jacoby=True, auto_doubles=2),
    GameRules("nackgammon", max_cube=4),
    GameRules("hypergammon", gammons=False),
    GameRules("tavla"),
    GameRules("acey-deucey", beavers=True),
    GameRules(crawford=True, match_length=3),
    GameRules(match_length=5),
]


def check_result(game: Game) -> None:
    result = game.result
    assert result is not None and game.phase is Phase.OVER
    assert result.winner in (0, 1)
    assert game.history[-1] == Ended(result)
    assert sum(isinstance(e, Ended) for e in game.history) == 1
    cube = game.cube_value
    if result.reason is EndReason.BEAR_OFF:
        assert game.position_for(result.winner).winner() == 0
        assert result.points == result.kind * cube
    elif result.reason is EndReason.RESIGNATION:
        assert result.points == result.kind * cube
    else:
        assert result.kind is WinKind.SINGLE and result.points == cube
    assert result.kind <= game.rules.variant.max_win
    assert game.rules.gammons or result.kind is WinKind.SINGLE
    assert cube <= game.rules.max_cube
    if not game.rules.cube_in_play:
        assert not any(isinstance(e, Doubled) for e in game.history)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(RULE_SETS))
def test_random_games_end_with_a_valid_result_and_replay_identically(
    seed: int, rules: GameRules
) -> None:
    rng = random.Random(seed)
    game = Game(rules, dice=RandomDice(seed))
    play_out(game, rng)
    check_result(game)
    copy = Game.replay(rules, game.history)
    assert snapshot(copy) == snapshot(game)
    assert copy.history == game.history


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(RULE_SETS))
def test_refused_actions_never_change_the_game(seed: int, rules: GameRules) -> None:
    rng = random.Random(seed)
    game = Game(rules, dice=RandomDice(seed))
    play_out(game, rng, probe=True)
    check_result(game)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 400))
def test_replay_of_a_game_in_progress(seed: int, stop: int) -> None:
    rng = random.Random(seed)
    game = Game(GameRules(beavers=True), dice=RandomDice(seed))
    for _ in range(stop):
        if game.is_over:
            break
        random_step(game, rng)
    copy = Game.replay(game.rules, game.history, dice=RandomDice(1))
    assert snapshot(copy) == snapshot(game)
    if not copy.is_over:
        random_step(copy, rng)  # and it goes on


def test_replay_rejects_a_history_that_does_not_follow() -> None:
    game = after_opening_play((6, 4), (5, 2))
    game.roll(1)
    game.play(1, "24/18 13/9")
    history = list(game.history)
    with pytest.raises(IllegalActionError, match="history entry 2"):
        Game.replay(None, [*history[:2], Moved(1, (6, 4), "24/14", ()), *history[3:]])
    with pytest.raises(IllegalActionError, match="history entry 1"):
        Game.replay(None, [history[0], Moved(1, (3, 1), "8/5 6/5", ())])
    dropped = after_opening_play()
    dropped.double(1)
    dropped.drop(0)
    with pytest.raises(IllegalActionError, match="stops short"):
        Game.replay(None, dropped.history[:-1])
    with pytest.raises(IllegalActionError, match="follows from the ones before"):
        Game.replay(None, [dropped.history[0], dropped.history[-1]])


def test_replay_keeps_automatic_events() -> None:
    game = game_with((4, 4), (3, 1), rules=GameRules(auto_doubles=1), start=CLOSED)
    copy = Game.replay(game.rules, game.history, start=CLOSED)
    assert copy.history == game.history and copy.cube_value == 2
    assert isinstance(copy.history[-1], Passed)
