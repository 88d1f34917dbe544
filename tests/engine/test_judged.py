"""The judged benchmark (gammon.engine.judged) on the repository's own mined collection."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from bench.judged import gnubg_values
from gammon.engine.evaluator import default_evaluator
from gammon.engine.judged import (
    HOLDOUT,
    JudgedSet,
    choose,
    compare,
    decision_errors,
    score,
    training_rows,
)
from gammon.engine.network import equity
from gammon.engine.supervise import training_data
from gammon.position import Position

DATA = Path(__file__).resolve().parents[2] / "training" / "rollouts-r1.npz"


@pytest.fixture(scope="module")
def judged() -> JudgedSet:
    return JudgedSet.from_mined(DATA)


def test_the_benchmark_is_whole_decisions_of_the_held_out_games(judged: JudgedSet) -> None:
    with np.load(DATA) as mined:
        games, turns = mined["game"], mined["turn"]
    assert judged.decisions > 100
    assert (judged.game % HOLDOUT == 0).all()
    sizes = np.diff(judged.start)
    assert (sizes >= 2).all() and judged.start[-1] == judged.candidates
    for d in range(judged.decisions):  # every candidate of the decision, none of another
        rows = np.count_nonzero((games == judged.game[d]) & (turns == judged.turn[d]))
        assert rows == sizes[d]


def test_training_never_sees_the_benchmark_games(tmp_path: Path) -> None:
    with np.load(DATA) as mined:
        games, boards = mined["game"], mined["boards"]
    used = training_rows(games)
    assert used.any() and (~used).any()
    assert not (games[used] % HOLDOUT == 0).any()
    fitted, targets = training_data(DATA)
    assert fitted.shape[0] == targets.shape[0] == int(used.sum())
    assert np.array_equal(fitted, boards[used])
    # A collection without games (the older kind) is fitted whole.
    plain = tmp_path / "plain.npz"
    np.savez(plain, boards=boards[:5], targets=np.zeros((5, 5)))
    assert training_data(plain)[0].shape[0] == 5


def test_the_rollouts_judge_for_the_player_who_chose(judged: JudgedSet) -> None:
    # Our own 1-ply of the same boards, for the mover: a perspective slip would make the
    # two disagree in sign, not merely differ by the net's error.
    ours = equity(default_evaluator().after_play(judged.boards, 1))
    assert np.corrcoef(ours, judged.judge)[0, 1] > 0.9
    assert (judged.judge_error >= 0).all() and (judged.judge_error < 0.1).all()


def test_errors_are_what_the_choice_loses_against_the_best(judged: JudgedSet) -> None:
    spans = list(itertools.pairwise(judged.start))
    oracle = np.array([a + int(np.argmax(judged.judge[a:b])) for a, b in spans])
    assert (decision_errors(judged, oracle) == 0).all()
    worst = np.array([a + int(np.argmin(judged.judge[a:b])) for a, b in spans])
    spread = decision_errors(judged, worst)
    zero = choose(default_evaluator(), judged, 0)
    errors = decision_errors(judged, zero)
    assert (errors >= 0).all() and (errors <= spread + 1e-9).all()
    assert ((zero >= judged.start[:-1]) & (zero < judged.start[1:])).all()
    assert score(default_evaluator(), judged, 0).overall.mean == pytest.approx(errors.mean())


def test_a_paired_comparison_is_the_difference_decision_by_decision(judged: JudgedSet) -> None:
    search = default_evaluator()
    zero, one = choose(search, judged, 0), choose(search, judged, 1)
    same = compare(judged, zero, zero)
    assert same.overall.mean == 0 and same.overall.interval == 0
    paired = compare(judged, one, zero)
    expected = decision_errors(judged, one) - decision_errors(judged, zero)
    assert paired.overall.mean == pytest.approx(expected.mean())
    assert sum(c.decisions for c in paired.classes) == judged.decisions
    # 1-ply ranks the candidates better than 0-ply (issue 18's own figures: 3.6 vs 6.0 mp).
    assert paired.overall.mean + paired.overall.interval < 0


def test_a_saved_benchmark_loads_the_same(judged: JudgedSet, tmp_path: Path) -> None:
    values = np.linspace(-1, 1, judged.candidates)
    saved = judged.with_second_opinion(values, "a test's values")
    saved.save(tmp_path / "judged.npz")
    loaded = JudgedSet.load(tmp_path / "judged.npz")
    assert loaded.second_name == "a test's values"
    for name in ("boards", "judge", "judge_error", "start", "kind", "game", "turn", "second"):
        assert np.array_equal(getattr(loaded, name), getattr(saved, name)), name


def test_gnubg_as_second_opinion_judges_for_the_mover(judged: JudgedSet) -> None:
    pytest.importorskip("gnubg_nn")
    values = gnubg_values(judged.boards[:40], 1)
    assert np.corrcoef(values, judged.judge[:40])[0, 1] > 0.8
    # A play that bears off the last checker wins: a backgammon here (the loser has none
    # off and all of them in the winner's home board).
    won = Position.from_points({}, {24: 15}).raw  # the mover (first) has borne off all
    board = np.frombuffer(won, dtype=np.int8).reshape(1, 54).copy()
    assert gnubg_values(board, 2)[0] == pytest.approx(3.0)
