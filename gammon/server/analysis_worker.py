"""What runs in the analysis worker processes: read a match, analyse it, write the review.

:mod:`gammon.server.analysis` keeps the queue on the event loop and hands each job
to a process of its pool; the job itself is :func:`run_job`, a plain function of
plain values (a match file's text, or a table's rules and histories), so that it
pickles to a fresh interpreter and back. The document it returns is the engine's
report (:meth:`Report.to_dict <gammon.engine.analysis.report.Report.to_dict>`)
plus what the browser's review page needs to draw it without the rules: each
game's log in protocol form (``docs/PROTOCOL.md`` 3), the variant, and the
per-player summary rows; and the self-contained HTML page of the report.

:func:`check_upload` reads an uploaded file the same way, for the upload's answer.
Nothing here touches the database or the event loop.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from gammon.errors import GammonError
from gammon.i18n import LANGUAGES, N_, SOURCE_LANGUAGE
from gammon.messages import Message

if TYPE_CHECKING:
    from multiprocessing.queues import Queue

    from gammon.engine.analysis import Analysis
    from gammon.engine.cluster import RayCluster
    from gammon.events import Event
    from gammon.match import Match, SeriesRules, Session

__all__ = [
    "DOCUMENT_FORMAT",
    "MAX_STEPS",
    "Loaded",
    "UploadError",
    "check_upload",
    "in_language",
    "xg_as_mat",
    "init_worker",
    "load_upload",
    "run_job",
]

#: The review document's format name (docs/PROTOCOL.md 9).
DOCUMENT_FORMAT: Final = "gammon-analysis/1"
#: The most steps (plays, rolls, doubles) one analysis may have: a 25-point match has
#: about 3000; more is refused rather than holding a worker for many minutes.
MAX_STEPS: Final = 6000
#: Progress is reported at most this often (seconds).
_PROGRESS_EVERY_S: Final = 0.25

_progress: Queue[tuple[str, int, int]] | None = None


class UploadError(GammonError, ValueError):
    """An uploaded file that is not a match we can read: the message says why, in words."""


@dataclass(frozen=True)
class Loaded:
    """A match read and replayed through the rules, and the players' names."""

    series: Match | Session
    names: tuple[str, str]


def init_worker(progress: Queue[tuple[str, int, int]] | None, server: int | None = None) -> None:
    """Set up a worker process: one thread for the engine, a lower priority than play.

    The server's own process (the tables, the bot) keeps the CPU whenever it wants it:
    the workers run at ``nice`` 10, so an analysis only uses time play leaves over.
    ``server`` is the server's process id, as the server gave it: the worker ends once
    its parent is another (the server was killed, perhaps while this worker started).
    """
    global _progress
    _progress = progress
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
        os.environ[name] = "1"
    with contextlib.suppress(AttributeError, OSError):  # not on every platform
        os.nice(10)
    if server is not None:
        threading.Thread(
            target=_exit_with, args=(server,), name="gammon-worker-watch", daemon=True
        ).start()


#: How often a worker looks whether its server still lives.
PARENT_CHECK_S: Final = 1.0


def _exit_with(server: int) -> None:
    """End this worker once its server is gone: a server that was killed had no chance to
    stop its pool, and a worker would otherwise wait for work that never comes."""
    while os.getppid() == server:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)


def _format_of(filename: str, text: str) -> str:
    """'sgf' or 'mat': by the file's suffix, or by its first character when it has none."""
    lower = filename.lower()
    if lower.endswith(".sgf"):
        return "sgf"
    if lower.endswith((".mat", ".txt")):
        return "mat"
    return "sgf" if text.lstrip().startswith("(;") else "mat"


def load_upload(filename: str, text: str) -> Loaded:
    """Read and replay an uploaded .mat or .sgf file; :class:`UploadError` says what is wrong."""
    if not text.strip():
        raise UploadError(Message("the file is empty"))
    kind = _format_of(filename, text)
    try:
        if kind == "sgf":
            from gammon.sgf import read_sgf, replay_sgf

            parsed_sgf = read_sgf(text)
            loaded = Loaded(replay_sgf(parsed_sgf), parsed_sgf.names)
        else:
            from gammon.matfile import read_mat, replay_mat

            parsed = read_mat(text)
            loaded = Loaded(replay_mat(parsed), parsed.names)
    except GammonError as exc:
        # The reader's reason inside: a rule's in the reader's language, a format's own
        # (line numbers, the format's terms) in English.
        message = (
            N_("this is not a GNU Backgammon .sgf match file we can read: {why}")
            if kind == "sgf"
            else N_("this is not a .mat match file we can read: {why}")
        )
        raise UploadError(Message(message, why=exc.text)) from None
    if not any(game.history for game in loaded.series.games):
        raise UploadError(Message("the file holds no moves to analyse"))
    return loaded


def xg_as_mat(raw: bytes) -> str:
    """An uploaded eXtreme Gammon .xg file (binary) as the .mat text of the same games, which
    the queue keeps and the worker analyses like any .mat upload; :class:`UploadError` if
    it cannot be read."""
    from gammon.matfile import write_mat
    from gammon.xgfile import read_xg, replay_xg

    try:
        read = read_xg(raw)
        return write_mat(replay_xg(read), names=read.parsed.names)
    except GammonError as exc:
        raise UploadError(
            Message("this is not an eXtreme Gammon .xg file we can read: {why}", why=exc.text)
        ) from None


def check_upload(filename: str, text: str) -> dict[str, Any]:
    """What an upload holds (for the queue's answer); :class:`UploadError` if unreadable."""
    loaded = load_upload(filename, text)
    total = _steps(loaded.series.histories)
    if total > MAX_STEPS:
        raise UploadError(
            Message(
                "the match is too long to analyse here: {total} steps, at most {limit} "
                "(analyse it with `gammon analyse` on your own computer)",
                total=total,
                limit=MAX_STEPS,
            )
        )
    rules = loaded.series.rules
    return {
        "names": list(loaded.names),
        "games": len(loaded.series.games),
        "length": rules.length,
        "variant": rules.variant.name,
        "steps": total,
    }


def _steps(histories: Sequence[Sequence[Event]]) -> int:
    """About the steps of an analysis (its plays, rolls and doubles): the engine's
    ``steps`` without importing the engine into the server's process."""
    from gammon.events import Doubled, Moved, Rolled

    return sum(isinstance(e, Moved | Rolled | Doubled) for h in histories for e in h)


def _series(source: dict[str, Any]) -> Loaded:
    if source["kind"] == "series":
        from gammon.match import Match, Session

        rules: SeriesRules = source["rules"]
        histories: Sequence[Sequence[Event]] = source["histories"]
        cls = Match if rules.is_match else Session
        names = source["names"]
        return Loaded(cls.from_rules(rules, None, histories), (names[0], names[1]))
    return load_upload(source.get("filename") or "", source["text"])


def _logs(loaded: Loaded) -> list[dict[str, Any]]:
    """Each game's log in protocol form: event ``i`` is the game's history entry ``i``."""
    from gammon.server.game_json import event_json

    names = list(loaded.names)
    return [
        {"number": number, "log": [event_json(event, names) for event in game.history]}
        for number, game in enumerate(loaded.series.games, start=1)
    ]


def run_job(
    job: str,
    source: dict[str, Any],
    ply: int,
    *,
    cluster: RayCluster | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: str = "gammon",
) -> dict[str, Any]:
    """Analyse one match: the review document (JSON-ready), the HTML report and its pages
    in the other languages (``{"document", "html", "pages": {lang: html}}``).

    ``engine`` names whose nets judge (:func:`gammon.engine.engines.get_engine`); the
    document says which (``"engine": {"name", "ply"}``).

    ``source`` is ``{"kind": "upload", "filename", "text"}`` or ``{"kind": "series",
    "rules", "histories", "names"}``. Progress goes to the pool's queue as
    ``(job, done, total)``, or to ``progress(done, total)`` when given.

    With ``cluster`` (the server's ``--ray``), this runs in a thread of the server:
    the games are analysed as Ray tasks (progress as each finishes) and the report
    is built in one more task, so the server's process only replays the match.
    """
    from gammon.engine.analysis import analyse
    from gammon.engine.engines import get_engine

    evaluator = get_engine(engine)
    loaded = _series(source)
    series = loaded.series
    last = [0.0]

    def report(done: int, total: int) -> None:
        if progress is not None:
            progress(done, total)
            return
        at = time.monotonic()
        if _progress is not None and (done == total or at - last[0] >= _PROGRESS_EVERY_S):
            last[0] = at
            _progress.put((job, done, total))

    started = time.monotonic()
    analysis = analyse(
        series,
        names=loaded.names,
        ply=ply,
        progress=report,
        cluster=cluster,
        evaluator=None if evaluator.is_ours else evaluator,
    )
    if cluster is not None:
        result = cluster.call(_document, source, analysis)
    else:
        result = _document(source, analysis, loaded)
    result["document"]["seconds"] = round(time.monotonic() - started, 2)
    return result


def _document(
    source: dict[str, Any], analysis: Analysis, loaded: Loaded | None = None
) -> dict[str, Any]:
    """The review document and the HTML pages (English, and by language) of an analysis of
    ``source``'s match."""
    from gammon.engine.analysis.report import Report, summary_rows

    loaded = loaded or _series(source)
    series = loaded.series
    report = Report.build(
        analysis, histories=series.histories, checkers=series.game.rules.variant.checkers
    )
    document = report.to_dict()
    document["format"] = DOCUMENT_FORMAT
    document["variant"] = series.rules.variant.name
    document["cube"] = series.rules.cube
    document["logs"] = _logs(loaded)
    rows = summary_rows(analysis.players, analysis.match_length)
    document["summary"] = [list(row) for row in rows]
    # The teacher's words in every other language in the document, and the HTML page in
    # each beside it (gammon.server.analysis keeps the pages in rows of their own and picks
    # by the request's language): explaining again is cheap, the search is done.
    document["languages"] = {}
    pages: dict[str, str] = {}
    for lang in LANGUAGES:
        if lang == SOURCE_LANGUAGE:
            continue
        spoken = Report.build(
            analysis,
            histories=series.histories,
            checkers=series.game.rules.variant.checkers,
            lang=lang,
        )
        document["languages"][lang] = spoken.words()
        pages[lang] = spoken.to_html()
    return {"document": document, "html": report.to_html(), "pages": pages}


def in_language(document: dict[str, Any], lang: str) -> dict[str, Any]:
    """The review document with the teacher's words (explanations, patterns) in ``lang``
    where the worker wrote them, else in English; ``lang`` says which (the other
    languages' words are left out)."""
    shown = {key: value for key, value in document.items() if key != "languages"}
    words = (document.get("languages") or {}).get(lang)
    if lang != SOURCE_LANGUAGE and words is not None:
        shown.update(words)
    else:
        shown["lang"] = SOURCE_LANGUAGE
    return shown
