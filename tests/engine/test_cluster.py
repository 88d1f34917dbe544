"""Engine work on Ray: a rollout, an analysis and the rollout collection on a small local
Ray cluster give the same figures (same seeds) as in this process.

One test starts one 2-CPU cluster and runs every check on it in turn (about 6 s to
start, 15 s in all), so that ``pytest -n`` starts one cluster, not one per worker."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import gammon
from gammon.dice import RandomDice
from gammon.engine.analysis import analyse
from gammon.engine.bot import Bot
from gammon.engine.cluster import RayCluster, RayMissingError, import_ray
from gammon.engine.rollout import rollout
from gammon.engine.supervise import collect
from gammon.match import Match
from gammon.position import Position
from tests.engine.test_analysis import _finish

#: The checkout under test, put first on the workers' path (not an installed gammon).
ROOT = Path(gammon.__file__).resolve().parent.parent


@pytest.fixture
def cluster() -> Iterator[RayCluster]:
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'gammon[ray]')")
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        configure_logging=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},
    )
    try:
        with RayCluster() as connected:  # joins the cluster the fixture started
            assert not connected.started
            yield connected
    finally:
        ray.shutdown()


def _workers_run_this_checkout(cluster: RayCluster) -> None:
    # A lambda travels by value (this test module is not importable on the workers).
    assert cluster.call(lambda: __import__("gammon").__file__) == gammon.__file__
    assert cluster.cpus == 2


def _a_rollout(cluster: RayCluster) -> None:
    position = Position.initial()
    seen: list[tuple[int, int]] = []
    here = rollout(position, trials=90, seed=7, batch=36)
    there = rollout(
        position,
        trials=90,
        seed=7,
        batch=36,
        cluster=cluster,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert there == here
    assert sorted(seen) == seen and seen[-1] == (90, 90) and len(seen) == 3
    # One batch is the rollout as it always was; on Ray too.
    assert rollout(position, trials=40, seed=3, cluster=cluster) == rollout(
        position, trials=40, seed=3
    )


def _an_analysis(cluster: RayCluster) -> None:
    # Dice that give a match of more than one game (the bots play for the match score).
    match = Match(3, dice=RandomDice(6))
    _finish(match, (Bot("beginner", seed=3), Bot("casual", seed=4)))
    assert len(match.games) >= 2
    here = analyse(match, names=("A", "B"), ply=0)
    steps: list[tuple[int, int]] = []
    there = analyse(
        match, names=("A", "B"), ply=0, cluster=cluster, progress=lambda d, t: steps.append((d, t))
    )
    assert there == here
    assert len(steps) == len(match.games) and steps[-1][0] == steps[-1][1]


def _the_collection(cluster: RayCluster, tmp_path: Path) -> None:
    collect(tmp_path / "here.npz", positions=4, trials=6, seed=2)
    collect(tmp_path / "there.npz", positions=4, trials=6, seed=2, cluster=cluster)
    with np.load(tmp_path / "here.npz") as here, np.load(tmp_path / "there.npz") as there:
        assert (here["boards"] == there["boards"]).all()
        assert (here["targets"] == there["targets"]).all()


def test_without_ray_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RayMissingError, match=r"pip install 'gammon\[ray\]'"):
        import_ray()


def _the_commands(
    cluster: RayCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    from gammon.cli import main

    capsys.readouterr()  # what the checks before printed
    argv = ["rollout", "start", "--trials", "72", "--batch", "36", "--seed", "2"]
    assert main(argv) == 0
    here = capsys.readouterr().out
    assert main([*argv, "--ray", "auto"]) == 0  # the fixture's cluster, already joined
    assert capsys.readouterr().out == here
    assert "4HPwATDgc/ABMA: equity" in here and "over 72 trials" in here
    mat = str(Path(__file__).parent.parent / "vectors" / "galaxy.mat")
    assert main(["analyse", mat, "--ply", "0"]) == 0
    analysed = capsys.readouterr().out
    assert main(["analyse", mat, "--ply", "0", "--ray", "auto"]) == 0
    assert capsys.readouterr().out == analysed


def test_engine_work_on_ray_gives_the_figures_it_gives_here(
    cluster: RayCluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _workers_run_this_checkout(cluster)
    _a_rollout(cluster)
    _an_analysis(cluster)
    _the_collection(cluster, tmp_path)
    _the_commands(cluster, capsys)
