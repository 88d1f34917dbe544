"""``gammon analyse``: a match file reviewed move by move, with the teacher's words.

Reads a match file, analyses every decision of both players with the engine
(:mod:`gammon.engine.analysis`), shows a progress bar on stderr while it
works, then prints each player's figures, the beginner patterns found, and the
worst mistakes with their boards, the better play and why. ``--json`` and
``--html`` write the whole report to a file instead of the mistakes.

The engine is an extra (``gammon[engine]``, which brings rich for the tables
and the bar). With ``--ray`` the games are analysed as tasks on a Ray cluster
(:mod:`gammon.engine.cluster`), with the same figures. File formats are one
reader each in :data:`READERS`, by suffix.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, TextIO

from gammon.cli.common import (
    Commands,
    UsageError,
    add_engine_option,
    add_lang_option,
    add_ray_option,
    lang_of,
    needs_extra,
)
from gammon.diagram import draw
from gammon.i18n import Translator, translator
from gammon.match import Match, Session

if TYPE_CHECKING:
    from rich.console import Console

    from gammon.engine.analysis import Analysis, CheckerReview, CubeReview
    from gammon.engine.analysis.report import Report

__all__ = ["READERS", "Loaded", "load", "print_report", "register", "run_analyse"]

#: Mistakes printed when ``--mistakes`` is not given.
DEFAULT_MISTAKES: Final = 5
#: Better plays printed with each mistake.
_BETTER_SHOWN: Final = 3


@dataclass(frozen=True)
class Loaded:
    """A match file read and replayed through the rules: the series and the players' names."""

    series: Match | Session
    names: tuple[str, str]


def _text(raw: bytes) -> str:
    """A text match file's characters: UTF-8 (with or without its mark), else Latin-1."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _read_mat(raw: bytes) -> Loaded:
    from gammon.matfile import read_mat, replay_mat

    parsed = read_mat(_text(raw))
    return Loaded(replay_mat(parsed), parsed.names)


def _read_sgf(raw: bytes) -> Loaded:
    from gammon.sgf import read_sgf, replay_sgf

    parsed = read_sgf(_text(raw))
    return Loaded(replay_sgf(parsed), parsed.names)


def _read_xg(raw: bytes) -> Loaded:
    from gammon.xgfile import read_xg, replay_xg

    read = read_xg(raw)
    return Loaded(replay_xg(read), read.parsed.names)


#: One reader per file suffix, from the file's bytes: a new format is one more entry.
READERS: Final[dict[str, Callable[[bytes], Loaded]]] = {
    ".mat": _read_mat,
    ".txt": _read_mat,
    ".sgf": _read_sgf,
    ".xg": _read_xg,
}


def load(path: str) -> Loaded:
    """Read the match file at ``path`` with the reader of its suffix (.mat when unknown)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    reader = READERS.get(Path(path).suffix.lower(), _read_mat)
    return reader(raw)


def _value(t: Translator, equity: float, mwc: float | None) -> str:
    """A figure with its unit: the match winning chance in a match, else the equity."""
    if mwc is not None:
        return t.gettext("{mwc} match winning chance", mwc=t.percent(mwc, 1))
    return t.gettext("equity {equity}", equity=t.signed(equity))


def _lost(t: Translator, loss: float, mwc_loss: float | None) -> str:
    """A loss with its unit, as a cost."""
    if mwc_loss is not None:
        return t.gettext("{mwc} match winning chance", mwc=t.percent(-mwc_loss, 1))
    return t.gettext("equity {equity}", equity=t.signed(-loss))


def _board(report: Report, review: CheckerReview | CubeReview) -> str | None:
    position = report.position(review)
    if position is None:
        return None
    names = report.analysis.names
    dice = getattr(review, "dice", None)
    return draw(
        position,
        match=review.match_id,
        dice=dice,
        names=(names[review.side], names[1 - review.side]),
        lang=report.lang,
    )


def _mistake_lines(
    report: Report, review: CheckerReview | CubeReview, width: int, t: Translator
) -> list[str]:
    """One mistake as the terminal shows it: what it cost, the board, the play or cube
    action made against the better ones, and the teacher's why."""
    from gammon.engine.analysis import CheckerReview

    if isinstance(review, CheckerReview):
        lines = [_checker_heading(report, review, t)]
    else:
        lines = [_cube_heading(report, review, t)]
    board = _board(report, review)
    if board is not None:
        lines += board.splitlines()
    if isinstance(review, CheckerReview):
        lines += _checker_choices(review, t)
    else:
        lines += _cube_choices(report, review, t)
    why = t.gettext("Why:") + " "
    for explanation in report.explanations_of(review):
        lines += textwrap.wrap(
            explanation.text, width=width, initial_indent="  " + why,
            subsequent_indent=" " * (len(why) + 2),
        )  # fmt: skip
    return lines


def _checker_heading(report: Report, review: CheckerReview, t: Translator) -> str:
    """Which game, who played what roll, the mark and the loss."""
    from gammon.engine.analysis.explain import mark_words

    names = report.analysis.names
    match = bool(report.analysis.match_length)
    return t.gettext(
        "Game {game}, {player} to play {die1}-{die2}: {mark} ({loss})",
        game=review.game, player=names[review.side], die1=review.dice[0],
        die2=review.dice[1], mark=mark_words(review.mark, t.lang),
        loss=_lost(t, review.loss, review.cost if match else None),
    )  # fmt: skip


def _cube_heading(report: Report, review: CubeReview, t: Translator) -> str:
    """Which game, whose cube decision was the worse (the doubler's or the taker's), its
    mark and its loss."""
    from gammon.engine.analysis.explain import mark_words

    names = report.analysis.names
    match = bool(report.analysis.match_length)
    who = 1 - review.side if review.taker_loss > review.doubler_loss else review.side
    taker = who != review.side
    loss = review.taker_loss if taker else review.doubler_loss
    cost = review.taker_cost if taker else review.doubler_cost
    mark = review.taker_mark if taker else review.doubler_mark
    return t.gettext(
        "Game {game}, cube decision of {player}: {mark} ({loss})",
        game=review.game, player=names[who], mark=mark_words(mark, t.lang),
        loss=_lost(t, loss, cost if match else None),
    )  # fmt: skip


def _checker_choices(review: CheckerReview, t: Translator) -> list[str]:
    """The play made and the better plays, with their figures."""
    lines = []
    played = next(c for c in review.candidates if c.play == review.played)
    lines.append(
        "  " + t.gettext(
            "Played: {play} {value}",
            play=str(review.played).ljust(24), value=_value(t, played.equity, played.mwc),
        )
    )  # fmt: skip
    better = [c for c in review.candidates if c.equity > played.equity]
    for candidate in better[:_BETTER_SHOWN]:
        lines.append(
            "  " + t.gettext(
                "Better: {play} {value}  (win {win}, gammon {gammon})",
                play=str(candidate.play).ljust(24),
                value=_value(t, candidate.equity, candidate.mwc),
                win=t.percent(candidate.chances[0], 0),
                gammon=t.percent(candidate.chances[1], 0),
            )
        )  # fmt: skip
    return lines


def _cube_choices(report: Report, review: CubeReview, t: Translator) -> list[str]:
    """The cube action made and the right one, and the three actions' figures."""
    from gammon.engine.analysis.explain import mark_words, verdict_words

    match = bool(report.analysis.match_length)
    lines = []
    action = t.gettext("double") if review.doubled else t.gettext("no double")
    if review.response:
        action = t.gettext(
            "{action}, {answer}", action=action, answer=mark_words(review.response, t.lang)
        )
    lines.append(
        "  " + t.gettext("Played: {action}; right: {verdict}", action=action,
                         verdict=verdict_words(review.verdict, t.lang))
    )  # fmt: skip
    mwcs = (review.no_double_mwc, review.double_take_mwc, review.double_pass_mwc)
    if match and None not in mwcs:
        nd, dt, dp = (t.percent(value or 0.0, 1) for value in mwcs)
        unit = t.gettext("match winning chance")
    else:
        nd, dt, dp = map(t.signed, (review.no_double, review.double_take, review.double_pass))
        unit = t.gettext("equity")
    lines.append(
        "  " + t.gettext(
            "No double {no_double}, double/take {double_take}, double/pass {double_pass} "
            "({unit})",
            no_double=nd, double_take=dt, double_pass=dp, unit=unit,
        )
    )  # fmt: skip
    return lines


def _series_words(analysis: Analysis, t: Translator) -> str:
    """What was analysed: ``5-point match``, ``money session`` or ``game``."""
    if analysis.kind == "match":
        return t.ngettext("{n}-point match", "{n}-point match", analysis.match_length)
    return t.gettext("money session") if analysis.kind == "session" else t.gettext("game")


def print_report(
    report: Report, out: TextIO, mistakes: int, width: int = 100, lang: str = "en"
) -> None:
    """The per-player table, their patterns, and the ``mistakes`` worst mistakes, in ``lang``.

    The habits' names and the teacher's explanations are the report's, in the language it
    was built in (``Report.build(..., lang=)``).
    """
    from rich.console import Console
    from rich.table import Table

    from gammon.engine.analysis.report import summary_rows

    t = translator(lang)
    analysis = report.analysis
    names = analysis.names
    console = Console(file=out, width=width, highlight=False, soft_wrap=True)
    console.print(
        t.gettext(
            "{player0} vs {player1}: {series}, {games}, analysed by the {engine} engine at "
            "{ply}-ply",
            player0=names[0], player1=names[1], series=_series_words(analysis, t),
            games=t.ngettext("{n} game", "{n} games", len(analysis.games)),
            engine=analysis.engine.name, ply=analysis.ply,
        ),
        markup=False,
    )  # fmt: skip
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("")
    table.add_column(names[0], justify="right")
    table.add_column(names[1], justify="right")
    for row in summary_rows(analysis.players, analysis.match_length, lang):
        table.add_row(*row)
    console.print(table)
    _print_patterns(console, report, t)
    _print_mistakes(console, report, mistakes, width, t)


def _print_patterns(console: Console, report: Report, t: Translator) -> None:
    """Each player's beginner patterns, or that there are none."""
    names = report.analysis.names
    for side, found in enumerate(report.patterns):
        if found:
            habits = "; ".join(f"{p.name.lower()} ({p.count}x)" for p in found)
            console.print(
                t.gettext("{player}'s habits to work on: {habits}.", player=names[side],
                          habits=habits),
                markup=False,
            )  # fmt: skip
        else:
            console.print(
                t.gettext("{player}: none of the beginners' patterns.", player=names[side]),
                markup=False,
            )


def _print_mistakes(
    console: Console, report: Report, mistakes: int, width: int, t: Translator
) -> None:
    """The ``mistakes`` worst mistakes, each as :func:`_mistake_lines` shows it."""
    from gammon.engine.analysis import DOUBTFUL

    analysis = report.analysis
    worst = analysis.mistakes(DOUBTFUL)
    shown = worst[: max(0, mistakes)]
    if not shown:
        if not worst:
            console.print(
                "\n" + t.gettext("No mistakes of {size} or more.", size=t.number(DOUBTFUL)),
                markup=False,
            )
        return
    console.print(
        "\n" + t.ngettext(
            "The worst mistake (of {total} doubtful or worse):",
            "The {n} worst mistakes (of {total} doubtful or worse):",
            len(shown), total=t.number(len(worst)),
        ),
        markup=False,
    )  # fmt: skip
    for review in shown:
        console.print("", markup=False)
        for line in _mistake_lines(report, review, width - 8, t):
            console.print(line, markup=False)


def run_analyse(args: argparse.Namespace, out: TextIO) -> int:
    """Analyse the file in ``args.file``; print the report, or write it as JSON or HTML."""
    with needs_extra("gammon analyse", "engine"):
        import rich.console
        import rich.progress

        from gammon.engine.analysis import DEFAULT_PLY, analyse
        from gammon.engine.analysis.report import Report
        from gammon.engine.cluster import connect
        from gammon.engine.engines import get_engine
    lang = lang_of(args)
    t = translator(lang)
    evaluator = get_engine(args.engine)
    loaded = load(args.file)
    cluster = connect(args.ray)
    ply = DEFAULT_PLY if args.ply is None else args.ply
    series = loaded.series
    bar = rich.progress.Progress(
        rich.progress.TextColumn(t.gettext("Analysing")),
        rich.progress.BarColumn(),
        rich.progress.MofNCompleteColumn(),
        rich.progress.TimeRemainingColumn(),
        console=rich.console.Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task("analyse", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            analysis = analyse(
                series,
                names=loaded.names,
                ply=ply,
                progress=progress,
                cluster=cluster,
                evaluator=None if evaluator.is_ours else evaluator,
            )
        finally:
            if cluster is not None:
                cluster.close()
    report = Report.build(
        analysis,
        histories=series.histories,
        checkers=series.game.rules.variant.checkers,
        lang=lang,
    )
    if args.json is not None:
        Path(args.json).write_text(report.to_json(), encoding="utf-8")
    if args.html is not None:
        Path(args.html).write_text(report.to_html(), encoding="utf-8")  # in --lang, as built
    written = args.json or args.html
    print_report(report, out, 0 if written else args.mistakes, lang=lang)
    if written:
        print(t.gettext("Report written to {path}", path=written), file=out)
    return 0


def register(commands: Commands) -> None:
    """Add ``analyse`` to the ``gammon`` command line."""
    command = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="review every decision of a match file, with error rates, luck and explanations",
        description="Analyse a match file (.mat, as GNU Backgammon, eXtreme Gammon and the "
        "online sites export it): each player's error rates, performance rating and luck, the "
        "beginner patterns found, and the worst mistakes with their boards, the better play "
        "and why it is better.",
    )
    command.add_argument("file", help="the match file (.mat)")
    command.add_argument("--ply", type=int, choices=(0, 1, 2, 3), default=None,
                         help="search depth (default: the engine's, 2-ply)")  # fmt: skip
    command.add_argument("--mistakes", type=int, default=DEFAULT_MISTAKES, metavar="N",
                         help=f"print the N worst (default {DEFAULT_MISTAKES})")  # fmt: skip
    written = command.add_mutually_exclusive_group()
    written.add_argument("--json", metavar="OUT", help="write the report as JSON to OUT")
    written.add_argument("--html", metavar="OUT",
                         help="write the report as one self-contained HTML page")  # fmt: skip
    add_engine_option(command)
    add_ray_option(command)
    add_lang_option(command)
    command.set_defaults(run=run_analyse)
