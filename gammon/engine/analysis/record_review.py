"""Reviewing a whole record, a game, a match or a money session: each game in turn here,
or each as a Ray task (:mod:`gammon.engine.cluster`), then the players' totals.

One game's review is :mod:`~gammon.engine.analysis.review`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from gammon.engine.analysis.judge import Engine
from gammon.engine.analysis.results import (
    Analysis,
    EngineLabel,
    GameAnalysis,
    PlayerSummary,
    summarise,
)
from gammon.engine.analysis.review import (
    DEFAULT_LUCK_PLY,
    DEFAULT_NAMES,
    DEFAULT_PLY,
    Progress,
    Reviewer,
    analyse_game,
    check_depth,
    steps,
)
from gammon.engine.evaluator import default_evaluator
from gammon.events import Event
from gammon.game import Game
from gammon.match import Match, Session
from gammon.position import Position
from gammon.rules import GameRules

if TYPE_CHECKING:
    from gammon.engine.cluster import RayCluster

__all__ = ["analyse"]


def analyse(
    record: Game | Match | Session,
    *,
    names: tuple[str, str] = DEFAULT_NAMES,
    score: tuple[int, int] = (0, 0),
    ply: int = DEFAULT_PLY,
    luck_ply: int = DEFAULT_LUCK_PLY,
    progress: Progress | None = None,
    evaluator: Engine | None = None,
    cluster: RayCluster | None = None,
) -> Analysis:
    """Review every decision and roll of a game, a match or a money session.

    ``score`` is the match score before a lone :class:`Game` of a match (a
    :class:`Match` knows its own). ``ply`` is the search depth of the
    decisions (0 to 3; :data:`DEFAULT_PLY`), ``luck_ply`` that of the luck.
    ``progress(done, total)`` is called after each step, for a progress bar.

    With ``cluster`` (:mod:`gammon.engine.cluster`) each game is a Ray task
    (:func:`analyse_game`), and ``progress`` moves by a game's steps as its task
    finishes; the analysis is the same (nothing in it is random).
    """
    check_depth(ply, luck_ply)
    games = [record] if isinstance(record, Game) else list(record.games)
    jobs = _jobs(games, score if isinstance(record, Game) else record.start_score)
    if cluster is None:
        reviewer = Reviewer(
            evaluator or default_evaluator(),
            ply,
            luck_ply,
            progress,
            steps([job.history for job in jobs]),
        )
        analysed = [
            reviewer.game(
                job.rules,
                job.history,
                start=job.start,
                score=job.score,
                number=job.number,
                names=names,
            )
            for job in jobs
        ]
    else:
        analysed = _on_cluster(cluster, jobs, names, (ply, luck_ply), progress, evaluator)
    kind = (
        "game" if isinstance(record, Game) else "match" if isinstance(record, Match) else "session"
    )
    return Analysis(
        kind=kind,
        match_length=games[0].rules.match_length,
        names=names,
        ply=ply,
        luck_ply=luck_ply,
        games=tuple(analysed),
        players=_totals(analysed, names),
        engine=EngineLabel(evaluator.name if evaluator is not None else "gammon", ply),
    )


class _Job(NamedTuple):
    """One game of a record to review, and the match score before it."""

    rules: GameRules
    history: tuple[Event, ...]
    start: Position | None
    score: tuple[int, int]
    number: int


def _jobs(games: Sequence[Game], score: tuple[int, int]) -> list[_Job]:
    """The games of a record in order, each with the score its earlier games left."""
    jobs: list[_Job] = []
    before = score
    for number, game in enumerate(games, start=1):
        jobs.append(_Job(game.rules, tuple(game.history), game.start, before, number))
        if game.result is not None:
            points = list(before)
            points[game.result.winner] += game.result.points
            before = (points[0], points[1])
    return jobs


def _on_cluster(
    cluster: RayCluster,
    jobs: Sequence[_Job],
    names: tuple[str, str],
    depth: tuple[int, int],
    progress: Progress | None,
    evaluator: Engine | None,
) -> list[GameAnalysis]:
    """Each game reviewed as a Ray task (``depth``: the ply and the luck's ply), in the
    record's order; ``progress`` moves by a game's steps as its task finishes."""
    total = steps([job.history for job in jobs])
    shared = None if evaluator is None else cluster.put(evaluator)
    found: dict[int, GameAnalysis] = {}
    done = 0
    tasks = [(*job, names, *depth, shared) for job in jobs]
    for index, result in cluster.map(_game_task, tasks):
        found[index] = result
        done += steps([jobs[index].history])
        if progress is not None:
            progress(done, total)
    return [found[index] for index in range(len(jobs))]


def _game_task(
    rules: GameRules,
    history: Sequence[Event],
    start: Position | None,
    score: tuple[int, int],
    number: int,
    names: tuple[str, str],
    ply: int,
    luck_ply: int,
    evaluator: Engine | None,
) -> GameAnalysis:
    """One game of :func:`analyse` as a Ray task."""
    return analyse_game(
        rules,
        history,
        start=start,
        score=score,
        number=number,
        names=names,
        ply=ply,
        luck_ply=luck_ply,
        evaluator=evaluator,
    )


def _totals(
    games: Sequence[GameAnalysis], names: tuple[str, str]
) -> tuple[PlayerSummary, PlayerSummary]:
    checker = [review for game in games for review in game.checker]
    cube = [review for game in games for review in game.cube]
    luck = [roll for game in games for roll in game.luck]
    results = (sum(g.results[0] for g in games), sum(g.results[1] for g in games))
    summaries = [
        summarise(
            side,
            names[side],
            checker,
            cube,
            luck,
            sum(g.forced_plays[side] for g in games),
            results,
        )
        for side in (0, 1)
    ]
    return summaries[0], summaries[1]
