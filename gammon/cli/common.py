"""What every ``gammon`` command shares: its argument parser and its optional dependencies.

The rules-only commands (``moves``, ``show``) run on the core dependencies
alone; the engine, the server and the WebSocket client are extras. A command
that needs one imports it inside :func:`needs_extra`, so a missing extra ends
that command with one line saying what to install, and the others still work.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeAlias

from gammon.errors import GammonError

__all__ = [
    "ENGINE_HELP",
    "RAY_HELP",
    "Commands",
    "MissingExtraError",
    "Parser",
    "UsageError",
    "add_engine_option",
    "add_lang_option",
    "add_ray_option",
    "lang_of",
    "needs_extra",
]

RAY_HELP = (
    "run the work on a Ray cluster: 'local' (start one on this machine), 'auto' (the one "
    "running here) or its address (gammon[ray]); the figures are the same as without it"
)

#: The engines ``--engine`` takes (:data:`gammon.engine.engines.ENGINES`, written out here
#: so that ``--help`` works without the engine extra; a test keeps the two alike).
ENGINE_HELP = (
    "whose nets judge: gammon (ours, the default), gnubg (GNU Backgammon's, "
    "gammon[gnubg]) or sage (Open Sage's, gammon[sage]); the search and the cube on "
    "top are ours whichever it is"
)

Commands: TypeAlias = "argparse._SubParsersAction[Any]"
"""The ``add_subparsers`` object each command module's ``register`` adds itself to."""


class UsageError(GammonError):
    """A command line that argparse rejected; the command exits with status 2."""


class MissingExtraError(GammonError):
    """A command needs an optional dependency that is not installed."""


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting, so ``main`` stays in charge."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


@contextmanager
def needs_extra(what: str, extra: str) -> Iterator[None]:
    """Turn a missing third-party module imported in the block into :class:`MissingExtraError`.

    ``what`` names what needs it (``"gammon serve"``), ``extra`` what to install.

    Only modules outside ``gammon`` count: a broken import of our own is a bug
    and is raised as it is.

    >>> import sys
    >>> sys.modules["uvicorn_missing_here"] = None  # type: ignore[assignment]
    >>> with needs_extra("gammon serve", "server"):
    ...     import uvicorn_missing_here
    Traceback (most recent call last):
    ...
    gammon.cli.common.MissingExtraError: gammon serve needs the server extra \
(uvicorn_missing_here is not installed): pip install 'gammon[server]'
    >>> del sys.modules["uvicorn_missing_here"]
    """
    try:
        yield
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        if not missing or missing == "gammon":
            raise
        raise MissingExtraError(
            f"{what} needs the {extra} extra ({missing} is not installed): "
            f"pip install 'gammon[{extra}]'"
        ) from None


def add_ray_option(parser: argparse.ArgumentParser) -> None:
    """The ``--ray ADDRESS`` option of the commands that can run on a Ray cluster."""
    parser.add_argument("--ray", metavar="ADDRESS", default=None, help=RAY_HELP)


def add_lang_option(parser: argparse.ArgumentParser) -> None:
    """The ``--lang CODE`` option of the commands whose output a player reads."""
    from gammon.i18n import LANGUAGES

    parser.add_argument(
        "--lang", metavar="CODE", default=None,
        help=f"the language of the output: {', '.join(LANGUAGES)} (default: the locale's, "
        "from LANGUAGE, LC_ALL, LC_MESSAGES or LANG; else en)",
    )  # fmt: skip


def lang_of(args: argparse.Namespace) -> str:
    """The language a command speaks: ``--lang``, else the environment's locale.

    An unknown ``--lang`` is a :class:`UsageError` naming the languages there are."""
    from gammon.i18n import UnknownLanguageError, from_environment, language

    requested = getattr(args, "lang", None)
    if requested is None:
        return from_environment()
    try:
        return language(requested)
    except UnknownLanguageError as exc:
        raise UsageError(f"--lang: {exc}") from None


def add_engine_option(parser: argparse.ArgumentParser) -> None:
    """The ``--engine NAME`` option of the commands that judge positions."""
    parser.add_argument("--engine", metavar="NAME", default="gammon", help=ENGINE_HELP)
