"""Cube decisions (R10-R12): textbook money and match answers, Janowski's formulas."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.engine.cube import (
    CONTACT_EFFICIENCY,
    FLUID_EFFICIENCY,
    CubeDecision,
    CubeOwner,
    CubeState,
    DoublerVerdict,
    TakerVerdict,
    cube_decision,
    cube_efficiency,
    cubeful_equity,
    double_refusal,
    may_double,
)
from gammon.engine.evaluator import Evaluation
from gammon.engine.met import InvalidCubeStateError, MatchScore, match_equity
from gammon.errors import IllegalActionError
from gammon.position import ALL_ROLLS, Position
from gammon.rules import GameRules

DEAD = 0.0  # cube efficiency of a last roll: no later cube action
MONEY = CubeState()

ND, DT, DP, TG = (
    DoublerVerdict.NO_DOUBLE,
    DoublerVerdict.DOUBLE_TAKE,
    DoublerVerdict.DOUBLE_PASS,
    DoublerVerdict.TOO_GOOD,
)
TAKE, PASS, BEAVER = TakerVerdict.TAKE, TakerVerdict.PASS, TakerVerdict.BEAVER


def plain(p: float) -> tuple[float, float, float, float, float]:
    """Chances with no gammons."""
    return (p, 0.0, 0.0, 0.0, 0.0)


def bear_off_chance(position: Position) -> float:
    """The chance that the player on roll bears off every checker with this roll (R8)."""
    wins = sum(
        weight
        for dice, weight in ALL_ROLLS
        if any(play.position.winner() == 0 for play in position.plays(dice))
    )
    return wins / 36


def average_values(chances: tuple[float, ...]) -> tuple[float, float]:
    """Janowski's W and L: average cubeless value of a win and of a loss."""
    win, wg, wbg, lg, lbg = chances
    return (win + wg + wbg) / win, (1 - win + lg + lbg) / (1 - win)


# -- money: last roll ---------------------------------------------------------


@pytest.mark.parametrize(
    ("p", "doubler", "taker"),
    [
        (0.30, ND, TAKE),
        (0.50, ND, TAKE),  # doubling gains nothing at 50%
        (0.51, DT, TAKE),
        (0.70, DT, TAKE),
        (0.75, DT, TAKE),  # the taker is indifferent at 25%
        (0.76, DP, PASS),
        (1.00, DP, PASS),
    ],
)
def test_last_roll_money(p: float, doubler: DoublerVerdict, taker: TakerVerdict) -> None:
    # R10 with a dead cube: double above 50%, take up to 75% (a 25% take point).
    decision = cube_decision(plain(p), MONEY, efficiency=DEAD)
    assert (decision.doubler, decision.taker) == (doubler, taker)
    assert decision.no_double == pytest.approx(2 * p - 1)
    assert decision.double_take == pytest.approx(2 * (2 * p - 1))
    assert decision.double_pass == 1.0
    assert decision.take_point == pytest.approx(0.25)
    assert decision.doubling_point == pytest.approx(0.5)
    assert decision.too_good_point is None


@pytest.mark.parametrize(
    ("mine", "rolls", "verdict"),
    [
        ({4: 1, 3: 1}, 17, "No double, take"),
        ({5: 1, 2: 1}, 19, "Double, take"),
        ({3: 1, 2: 1}, 25, "Double, take"),
        ({4: 1, 1: 1}, 29, "Double, pass"),
        ({2: 1, 1: 1}, 36, "Double, pass"),
    ],
)
def test_last_roll_positions(mine: dict[int, int], rolls: int, verdict: str) -> None:
    # The opponent's last two checkers are on their 1-point: they bear off with any
    # roll (R8), so the player on roll wins exactly when they bear off now; no gammons.
    position = Position.from_points(mine, {1: 2})
    p = bear_off_chance(position)
    assert p == rolls / 36
    decision = cube_decision(plain(p), MONEY, efficiency=DEAD)
    assert str(decision) == verdict
    assert decision.equity == pytest.approx(min(1.0, max(2 * p - 1, 2 * (2 * p - 1))))


def test_last_roll_redouble_wording() -> None:
    owned = CubeState(2, CubeOwner.ME)
    assert str(cube_decision(plain(0.4), owned, efficiency=DEAD)) == "No redouble, take"
    assert str(cube_decision(plain(0.9), owned, efficiency=DEAD)) == "Redouble, pass"


# -- money: Janowski ------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "take_point"),
    [(0.0, 0.25), (CONTACT_EFFICIENCY, 0.5 / 2.34), (1.0, 0.2)],
)
def test_money_take_points(x: float, take_point: float) -> None:
    # Janowski: TP = (L - 1/2) / (W + L + x/2) in the taker's terms; 25% dead, 20% live.
    decision = cube_decision(plain(0.6), MONEY, efficiency=x)
    assert decision.take_point == pytest.approx(take_point)
    assert decision.cash_point == pytest.approx(1 - take_point)


def test_janowski_take_point_with_contact_efficiency_is_about_21_4_percent() -> None:
    decision = cube_decision(plain(0.6), MONEY)
    assert round(decision.take_point, 4) == 0.2137


gammon_rates = st.tuples(
    st.floats(0.05, 0.95),  # win
    st.floats(0.0, 0.6),  # share of wins that are gammons
    st.floats(0.0, 0.2),  # share of gammons that are backgammons
    st.floats(0.0, 0.6),
    st.floats(0.0, 0.2),
).map(
    lambda t: (
        t[0],
        t[0] * t[1],
        t[0] * t[1] * t[2],
        (1 - t[0]) * t[3],
        (1 - t[0]) * t[3] * t[4],
    )
)
efficiencies = st.floats(0.0, 1.0)


@given(gammon_rates, efficiencies)
def test_money_take_point_formula(chances: tuple[float, ...], x: float) -> None:
    big_w, big_l = average_values(chances)
    decision = cube_decision(chances, MONEY, efficiency=x)
    # In the taker's terms their L is the doubler's W.
    assert decision.take_point == pytest.approx((big_w - 0.5) / (big_w + big_l + 0.5 * x))


@given(gammon_rates, efficiencies)
def test_janowski_owned_cube_formulas(chances: tuple[float, ...], x: float) -> None:
    p = chances[0]
    big_w, big_l = average_values(chances)
    cash = (big_l + 1) / (big_w + big_l + 0.5)
    their_cash = (big_l - 0.5) / (big_w + big_l + 0.5)
    mine = cubeful_equity(chances, CubeState(2, CubeOwner.ME), x)
    theirs = cubeful_equity(chances, CubeState(2, CubeOwner.OPPONENT), x)
    if p <= cash:
        assert mine == pytest.approx(p * (big_w + big_l + 0.5 * x) - big_l)
    if p >= their_cash:
        assert theirs == pytest.approx(p * (big_w + big_l + 0.5 * x) - big_l - 0.5 * x)


@given(gammon_rates, efficiencies)
def test_cube_life_is_between_dead_and_live(chances: tuple[float, ...], x: float) -> None:
    dead = cubeful_equity(chances, MONEY, 0.0)
    live = cubeful_equity(chances, MONEY, 1.0)
    assert cubeful_equity(chances, MONEY, x) == pytest.approx((1 - x) * dead + x * live)
    big_w, big_l = average_values(chances)
    assert dead == pytest.approx(chances[0] * big_w - (1 - chances[0]) * big_l)


def test_owning_the_cube_is_worth_something() -> None:
    for p in (0.3, 0.5, 0.7):
        centred = cubeful_equity(plain(p), MONEY)
        assert cubeful_equity(plain(p), CubeState(2, CubeOwner.ME)) > centred
        assert cubeful_equity(plain(p), CubeState(2, CubeOwner.OPPONENT)) < centred


def test_money_equities_are_per_unit_of_the_cube() -> None:
    chances = (0.72, 0.2, 0.01, 0.08, 0.0)
    two = cube_decision(chances, CubeState(2, CubeOwner.ME))
    eight = cube_decision(chances, CubeState(8, CubeOwner.ME))
    assert two == eight
    assert two.double_pass == 1.0


def test_the_taker_cannot_redouble_at_the_maximum_cube() -> None:
    # R10: a cube taken at the maximum is dead for the taker.
    chances = plain(0.7)
    state = CubeState(32, CubeOwner.ME, max_cube=64)
    decision = cube_decision(chances, state)
    assert decision.double_take == pytest.approx(2 * (2 * 0.7 - 1))
    assert decision.double_take > cube_decision(chances, CubeState(2, CubeOwner.ME)).double_take


def test_too_good_to_double_when_gammons_count() -> None:
    # Big gammon chances: playing on is worth more than cashing a point (R9).
    gammonish = (0.85, 0.6, 0.1, 0.0, 0.0)
    decision = cube_decision(gammonish, MONEY)
    assert (decision.doubler, decision.taker) == (TG, PASS)
    assert str(decision) == "Too good to double, pass"
    assert decision.no_double > decision.double_pass
    assert decision.equity == decision.no_double
    assert decision.too_good_point is not None and decision.too_good_point < 0.85


def test_jacoby_makes_the_gammonish_position_a_cash() -> None:
    # R11: with Jacoby, gammons count only after a double, so play-on wins singles only.
    gammonish = (0.85, 0.6, 0.1, 0.0, 0.0)
    decision = cube_decision(gammonish, CubeState(jacoby=True))
    assert (decision.doubler, decision.taker) == (DP, PASS)
    assert decision.too_good_point is None
    assert decision.no_double < 1.0


def test_jacoby_no_longer_applies_once_the_cube_is_turned() -> None:
    chances = (0.7, 0.3, 0.02, 0.1, 0.01)
    for owner in (CubeOwner.ME, CubeOwner.OPPONENT):
        with_jacoby = cubeful_equity(chances, CubeState(2, owner, jacoby=True))
        assert with_jacoby == cubeful_equity(chances, CubeState(2, owner))
    centred = cubeful_equity(chances, CubeState(jacoby=True))
    assert centred != cubeful_equity(chances, MONEY)


def test_beaver() -> None:
    # R11: a taker who is the favourite beavers, keeping the cube at four times.
    decision = cube_decision(plain(0.3), CubeState(beavers=True))
    assert (decision.doubler, decision.taker) == (ND, BEAVER)
    assert str(decision) == "No double, beaver"
    assert decision.double_beaver == pytest.approx(2 * decision.double_take)
    assert cube_decision(plain(0.3), MONEY).taker is TAKE
    assert cube_decision(plain(0.3), MONEY).double_beaver is None
    # A good double is simply taken: the taker is the underdog.
    assert cube_decision(plain(0.72), CubeState(beavers=True)).taker is TAKE


def test_no_beaver_past_the_maximum_cube() -> None:
    decision = cube_decision(plain(0.3), CubeState(beavers=True, max_cube=2))
    assert decision.double_beaver is None
    assert decision.taker is TAKE


def test_gammons_off_scores_every_win_single() -> None:
    chances = (0.85, 0.6, 0.1, 0.05, 0.0)
    off = cube_decision(chances, CubeState(gammons=False))
    assert off == cube_decision(plain(0.85), MONEY)


def test_evaluations_are_accepted() -> None:
    evaluation = Evaluation(0.72, 0.2, 0.01, 0.08, 0.0)
    assert cube_decision(evaluation, MONEY) == cube_decision(evaluation.probabilities, MONEY)


# -- money: properties ------------------------------------------------------------

RANK = {ND: 0, DT: 1, DP: 2, TG: 3}
TAKER_RANK = {BEAVER: 0, TAKE: 1, PASS: 2}

money_states = st.builds(
    lambda owner, value, jacoby, beavers: CubeState(
        1 if owner is CubeOwner.CENTRED else value, owner, jacoby=jacoby, beavers=beavers
    ),
    st.sampled_from([CubeOwner.CENTRED, CubeOwner.ME]),
    st.sampled_from([1, 2, 4, 16]),
    st.booleans(),
    st.booleans(),
)
match_states = st.builds(
    lambda me, opp, owner, level: CubeState(
        1 if owner is CubeOwner.CENTRED else min(level, 16),
        owner,
        score=MatchScore(me, opp, post_crawford=(me == 1) != (opp == 1)),
    ),
    st.integers(1, 15),
    st.integers(1, 15),
    st.sampled_from([CubeOwner.CENTRED, CubeOwner.ME]),
    st.sampled_from([2, 4, 8]),
)
cube_states = st.one_of(money_states, match_states)


@given(cube_states, st.floats(0.0, 1.0), st.floats(0.0, 1.0), efficiencies)
def test_gammonless_decisions_are_monotone(state: CubeState, p: float, q: float, x: float) -> None:
    low, high = sorted((p, q))
    a = cube_decision(plain(low), state, efficiency=x)
    b = cube_decision(plain(high), state, efficiency=x)
    assert RANK[a.doubler] <= RANK[b.doubler]
    assert TAKER_RANK[a.taker] <= TAKER_RANK[b.taker]
    assert a.no_double <= b.no_double + 1e-12
    assert a.double_take <= b.double_take + 1e-12


@given(gammon_rates, cube_states, efficiencies)
def test_equities_are_bounded(chances: tuple[float, ...], state: CubeState, x: float) -> None:
    decision = cube_decision(chances, state, efficiency=x)
    if state.is_money:
        assert -3.0 <= decision.no_double <= 3.0
        assert -6.0 <= decision.double_take <= 6.0
        assert decision.double_pass == 1.0
    else:
        for value in (decision.no_double, decision.double_take, decision.double_pass):
            assert 0.0 <= value <= 1.0
    assert decision.equity >= decision.no_double - 1e-9  # the cube action never costs
    assert 0.0 <= decision.take_point <= 1.0


def swapped_chances(chances: tuple[float, ...]) -> tuple[float, float, float, float, float]:
    win, wg, wbg, lg, lbg = chances
    return (1 - win, lg, lbg, wg, wbg)


@given(
    gammon_rates,
    st.one_of(money_states, match_states),
    st.sampled_from(list(CubeOwner)),
    efficiencies,
)
def test_cubeful_equity_is_zero_sum(
    chances: tuple[float, ...], state: CubeState, owner: CubeOwner, x: float
) -> None:
    value = 1 if owner is CubeOwner.CENTRED else max(state.value, 2)
    state = CubeState(value, owner, state.score, state.jacoby, state.beavers)
    mine = cubeful_equity(chances, state, x)
    theirs = cubeful_equity(swapped_chances(chances), state.swapped(), x)
    assert mine + theirs == pytest.approx(0.0 if state.is_money else 1.0, abs=1e-9)


# -- match play -------------------------------------------------------------------


def test_two_away_two_away_take_point_is_one_minus_crawford_equity() -> None:
    # R12: after a double to 2 at 2-away 2-away the cube is dead; the taker needs
    # 1 - MWC(1-away, 2-away Crawford) = 32.3% (30% with older tables like Woolsey's).
    state = CubeState(score=MatchScore(2, 2))
    for chances in (plain(0.6), (0.6, 0.2, 0.01, 0.15, 0.0)):
        for x in (0.0, 0.68, 1.0):
            decision = cube_decision(chances, state, efficiency=x)
            assert decision.take_point == pytest.approx(1 - match_equity(1, 2))
            assert decision.take_point == pytest.approx(0.32264)
            assert decision.double_take == pytest.approx(chances[0])


def test_two_away_two_away_redouble_is_dead() -> None:
    # Whoever holds the 2-cube at 2-away 2-away already plays for the match.
    owned = CubeState(2, CubeOwner.ME, score=MatchScore(2, 2))
    for p in (0.3, 0.6, 0.9):
        decision = cube_decision((p, 0.2, 0.0, 0.1, 0.0), owned)
        assert decision.doubler is ND
        assert decision.double_take == pytest.approx(decision.no_double)
        assert decision.no_double == pytest.approx(p)  # gammons no longer matter
        assert decision.doubling_point is None


def test_crawford_game_has_no_cube() -> None:
    # R12: no doubling in the Crawford game.
    state = CubeState(score=MatchScore(1, 3, crawford=True))
    assert not may_double(state)
    assert not may_double(state.swapped())
    assert "Crawford" in (double_refusal(state) or "")
    with pytest.raises(IllegalActionError, match="Crawford"):
        cube_decision(plain(0.6), state)
    # Its equity is cubeless: wins take the leader to victory; a gammon loss to DMP.
    chances = (0.6, 0.1, 0.0, 0.1, 0.0)
    single_loss = match_equity(1, 2, post_crawford=True)
    gammon_loss = match_equity(1, 1)
    expected = 0.6 + 0.3 * single_loss + 0.1 * gammon_loss
    assert cubeful_equity(chances, state) == pytest.approx(expected)


@pytest.mark.parametrize("trailer", [2, 3, 4, 5, 6, 9])
def test_post_crawford_trailer_doubles_at_once(trailer: int) -> None:
    # After the Crawford game (R12) the leader has no use for the cube: the trailer
    # doubles at the first opportunity and the leader takes an even game.
    state = CubeState(score=MatchScore(trailer, 1, post_crawford=True))
    decision = cube_decision((0.5, 0.12, 0.005, 0.1, 0.005), state)
    assert (decision.doubler, decision.taker) == (DT, TAKE)
    assert decision.doubling_point == 0.0


def test_post_crawford_free_drop_at_two_away() -> None:
    # Dropping at 2-away 1-away only gives double match point: the leader passes as
    # soon as the trailer is the favourite.
    state = CubeState(score=MatchScore(2, 1, post_crawford=True))
    assert cube_decision(plain(0.48), state).taker is TAKE
    assert cube_decision(plain(0.52), state).taker is PASS
    assert cube_decision(plain(0.5), state).take_point == pytest.approx(0.5)
    # At 3-away a drop costs the leader a whole game: they take 52% games.
    assert (
        cube_decision(plain(0.52), CubeState(score=MatchScore(3, 1, post_crawford=True))).taker
        is TAKE
    )


def test_post_crawford_leader_never_doubles() -> None:
    state = CubeState(score=MatchScore(1, 4, post_crawford=True))
    for p in (0.2, 0.5, 0.8, 0.95):
        assert cube_decision(plain(p), state).doubler is ND


def test_automatic_redouble_when_the_opponent_cube_would_be_dead() -> None:
    # At 4-away 2-away, holding a 2-cube, the trailer redoubles at once: the leader
    # cannot use a 4-cube, and a loss costs the match either way.
    state = CubeState(2, CubeOwner.ME, score=MatchScore(4, 2))
    decision = cube_decision((0.4, 0.1, 0.0, 0.1, 0.0), state)
    assert str(decision) == "Redouble, take"
    assert decision.doubling_point == 0.0
    assert decision.double_take == pytest.approx(0.4)  # a game for the match


def test_match_decision_near_money_at_long_even_scores() -> None:
    # Deep in a long match the cube behaves much as for money.
    chances = (0.72, 0.18, 0.01, 0.08, 0.004)
    match = cube_decision(chances, CubeState(score=MatchScore(15, 15)))
    money = cube_decision(chances, MONEY)
    assert (match.doubler, match.taker) == (money.doubler, money.taker)
    assert match.take_point == pytest.approx(money.take_point, abs=0.03)


def test_match_too_good() -> None:
    decision = cube_decision((0.88, 0.65, 0.05, 0.0, 0.0), CubeState(score=MatchScore(7, 7)))
    assert decision.doubler is TG
    assert decision.match


# -- state and helpers ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "reason"),
    [
        (CubeState(available=False), "not used"),
        (CubeState(owner=CubeOwner.OPPONENT, value=2), "owns the cube"),
        (CubeState(64, CubeOwner.ME), "the highest it may go"),
        (CubeState(max_cube=1), "the highest it may go"),
        (CubeState(score=MatchScore(1, 2, crawford=True)), "Crawford"),
    ],
)
def test_when_a_double_is_not_allowed(state: CubeState, reason: str) -> None:
    # R10-R12, R14.
    assert not may_double(state)
    assert reason in (double_refusal(state) or "")
    with pytest.raises(IllegalActionError, match=reason):
        cube_decision(plain(0.7), state)


def test_when_a_double_is_allowed() -> None:
    assert may_double(MONEY)
    assert may_double(CubeState(2, CubeOwner.ME))
    assert may_double(CubeState(score=MatchScore(1, 3, post_crawford=True)))


def test_from_rules() -> None:
    assert not CubeState.from_rules(GameRules("tavla")).available  # R14
    assert not CubeState.from_rules(GameRules(cube=False)).available  # R10
    money = CubeState.from_rules(GameRules(jacoby=True, beavers=True, max_cube=16))
    assert (money.jacoby, money.beavers, money.max_cube) == (True, True, 16)
    crawford = CubeState.from_rules(
        GameRules(crawford=True, match_length=5), score=MatchScore(1, 3, crawford=True)
    )
    assert not may_double(crawford)
    with pytest.raises(InvalidCubeStateError, match="match score"):
        CubeState.from_rules(GameRules(match_length=5))
    with pytest.raises(InvalidCubeStateError, match="crawford"):
        CubeState.from_rules(GameRules(match_length=5), score=MatchScore(1, 3, crawford=True))
    with pytest.raises(InvalidCubeStateError, match="money"):
        CubeState.from_rules(GameRules(), score=MatchScore(3, 3))


def test_swapped_state() -> None:
    state = CubeState(4, CubeOwner.ME, score=MatchScore(3, 5))
    assert state.swapped() == CubeState(4, CubeOwner.OPPONENT, score=MatchScore(5, 3))
    assert state.swapped().swapped() == state


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"value": 3}, "power of two"),
        ({"value": 0}, "power of two"),
        ({"max_cube": 48}, "power of two"),
        ({"value": 8, "max_cube": 4}, "above the maximum"),
        ({"score": MatchScore(3, 3), "jacoby": True}, "money play only"),
        ({"score": MatchScore(3, 3), "beavers": True}, "money play only"),
        ({"score": MatchScore(3, 3), "value": 2}, "centred cube"),
        (
            {"score": MatchScore(1, 3, crawford=True), "value": 2, "owner": CubeOwner.ME},
            "Crawford",
        ),
    ],
)
def test_impossible_cube_states(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidCubeStateError, match=message):
        CubeState(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("chances", "message"),
    [
        ((0.5, 0.1, 0.0, 0.1), "five numbers"),
        ((1.2, 0.0, 0.0, 0.0, 0.0), "win chance"),
        ((0.5, -0.1, 0.0, 0.0, 0.0), "win gammon chance"),
        ((math.nan, 0.0, 0.0, 0.0, 0.0), "win chance"),
    ],
)
def test_impossible_chances(chances: tuple[float, ...], message: str) -> None:
    with pytest.raises(InvalidCubeStateError, match=message):
        cube_decision(chances, MONEY)


def test_efficiency_must_be_a_fraction() -> None:
    with pytest.raises(InvalidCubeStateError, match="efficiency"):
        cube_decision(plain(0.6), MONEY, efficiency=1.5)


def test_slightly_inconsistent_network_output_is_tidied() -> None:
    # Gammons above wins (float noise from a network) count as all wins gammons.
    tidy = cube_decision((0.7, 0.7, 0.1, 0.1, 0.0), MONEY)
    assert cube_decision((0.7, 0.7000001, 0.1, 0.1, 0.0), MONEY) == tidy


def test_cube_efficiency_of_positions() -> None:
    assert cube_efficiency(Position.initial()) == FLUID_EFFICIENCY  # early contact
    assert cube_efficiency(Position.from_points({13: 15}, {6: 15})) == 0.7  # long race
    # 80 pips: 0.55 + 0.00125 * 80 = 0.65 (GNU Backgammon's race formula).
    assert cube_efficiency(Position.from_points({10: 8}, {6: 15})) == pytest.approx(0.65)
    assert cube_efficiency(Position.from_points({6: 15}, {6: 15})) == 0.6  # bear-off


def test_decision_equity_picks_the_right_action() -> None:
    decision: CubeDecision = cube_decision(plain(0.7), MONEY)
    assert decision.doubles and decision.equity == decision.double_take
    decision = cube_decision(plain(0.9), MONEY)
    assert decision.equity == decision.double_pass == 1.0
    decision = cube_decision(plain(0.55), MONEY)
    assert not decision.doubles and decision.equity == decision.no_double
