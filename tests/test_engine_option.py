"""``--engine NAME`` on ``gammon hint``, ``rollout``, ``analyse`` and ``serve``: the figures
come from the engine named, and every answer says whose they are and how deep."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gammon.cli.serve import ServeError, _check_engine, register
from gammon.engine.analysis.results import EngineLabel
from gammon.engine.engines import UnknownEngineError, get_engine
from gammon.engine.hint import play_hints
from gammon.position import Position
from gammon.server.bots import Bots, EngineChoice
from gammon.server.practice import _plays
from tests.test_analyse_cli import mat_file, run

__all__ = ["mat_file"]  # the fixture, shared with the analyse tests

START = "4HPwATDgc/ABMA"


def test_hint_ranks_by_the_engine_named(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "hint", START, "--dice", "31", "--engine", "gnubg")
    assert status == 0, err
    first, best = out.splitlines()[:2]
    assert first == "16 legal plays of 3-1, ranked at 0-ply by the gnubg engine:"
    top = get_engine("gnubg").rank_plays(Position.initial(), (3, 1))[0]
    assert str(top[0]) in best and f"{top[1].equity:+.3f}" in best


def test_our_own_hint_reads_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "hint", START, "--dice", "31")
    assert status == 0 and out.splitlines()[0] == "16 legal plays of 3-1, ranked at 0-ply:"


def test_the_cube_hint_names_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "hint", "start", "--engine", "sage", "--ply", "1")
    assert status == 0, err
    assert out.startswith("Cube action (1-ply by the sage engine, equity per cube): No double")


def test_an_unknown_engine_is_one_line_listing_the_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "hint", "start", "--engine", "xg")
    assert status == 2 and not out
    assert err == "gammon: error: unknown engine 'xg'; the engines are: gammon, gnubg, sage\n"


def test_rollout_plays_with_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "rollout", "start", "--trials", "36", "--batch", "36", "--engine", "gnubg"
    )
    assert status == 0, err
    assert out.rstrip().endswith("(plays by the gnubg engine)")
    status, ours, _ = run(capsys, "rollout", "start", "--trials", "36", "--batch", "36")
    assert "plays by" not in ours and ours.split(":")[1] != out.split(":")[1]


def test_analyse_says_which_engine_judged(
    mat_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "review.json"
    argv = ["analyse", str(mat_file), "--ply", "0", "--engine", "gnubg"]
    status, out, err = run(capsys, *argv, "--json", str(target))
    assert status == 0, err
    assert "analysed by the gnubg engine at 0-ply" in out.splitlines()[0]
    document = json.loads(target.read_text(encoding="utf-8"))
    assert document["engine"] == {"name": "gnubg", "ply": 0}
    html = tmp_path / "review.html"
    status, _, _ = run(capsys, *argv, "--html", str(html))
    assert "Analysed by gnubg (GNU Backgammon&#x27;s nets" in html.read_text(encoding="utf-8")
    status, _, _ = run(capsys, "analyse", str(mat_file), "--ply", "0", "--json", str(target))
    assert json.loads(target.read_text(encoding="utf-8"))["engine"] == {"name": "gammon", "ply": 0}


def test_the_label_reads_as_words() -> None:
    assert str(EngineLabel("sage", 2)) == "sage at 2-ply"


def test_serve_takes_the_engine_and_its_levels() -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="gammon")
    register(parser.add_subparsers())
    args = parser.parse_args(
        ["serve", "--engine", "gnubg", "--engine-levels", "expert, grandmaster"]
    )
    assert args.engine == "gnubg" and args.engine_levels == {"expert", "grandmaster"}
    assert parser.parse_args(["serve"]).engine == "gammon"
    _check_engine("gnubg", args.engine_levels)
    with pytest.raises(ServeError, match="unknown bot level wizard"):
        _check_engine("gnubg", frozenset({"wizard"}))
    with pytest.raises(UnknownEngineError):
        _check_engine("xg", frozenset())


def test_the_servers_hints_and_chosen_levels_use_the_engine() -> None:
    position = Position.initial()
    hinted = _plays(position, (3, 1), 1, None, "sage")
    expected = play_hints(position, (3, 1), ply=1, evaluator=get_engine("sage"))
    assert [h["play"] for h in hinted] == [str(h.play) for h in expected]
    assert hinted[0]["equity"] == round(expected[0].equity, 4)
    bots = Bots(EngineChoice("gnubg", frozenset({"grandmaster"})))
    try:
        assert bots._bot("grandmaster").evaluator is get_engine("gnubg")
        assert bots._bot("expert").evaluator.is_ours  # the other levels keep our nets
    finally:
        bots.pool.shutdown()


def test_the_analysis_worker_runs_the_engine(mat_file: Path) -> None:
    from gammon.server.analysis_worker import run_job

    source = {"kind": "upload", "filename": "m.mat", "text": mat_file.read_text()}
    result = run_job("job", source, 0, engine="sage", progress=lambda done, total: None)
    assert result["document"]["engine"] == {"name": "sage", "ply": 0}
    assert "Analysed by sage (Open Sage" in result["html"]
