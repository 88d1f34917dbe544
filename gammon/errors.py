"""The exceptions gammon raises.

Every error caused by bad input is a :class:`ValueError` subclass, so callers can
catch one family (as in python-chess); the message always says what was wrong.
"""

from __future__ import annotations

from gammon.messages import Message

__all__ = [
    "GammonError",
    "InvalidPositionError",
    "InvalidDiceError",
    "InvalidIdError",
    "PositionIdError",
    "MatchIdError",
    "XgidError",
    "InvalidPlayError",
    "IllegalPlayError",
    "IllegalActionError",
    "InvalidRulesError",
    "InvalidClockError",
    "MatFileError",
    "SgfError",
    "XgFileError",
    "UnknownVariantError",
    "InvalidCubeStateError",
]


class GammonError(Exception):
    """Base class of every exception raised by gammon.

    An error a player may read is raised with a :class:`~gammon.messages.Message` (the
    English template and its values) rather than a formatted text: ``str()`` is its
    English, :meth:`translated` its words in the reader's language.

    >>> str(IllegalPlayError(Message("the play must use {n} dice", n=2)))
    'the play must use 2 dice'
    """

    def __str__(self) -> str:
        if len(self.args) == 1 and isinstance(self.args[0], Message):
            return self.args[0].english
        return super().__str__()

    @property
    def text(self) -> Message:
        """The error's message (a plain text when it was raised with one)."""
        if len(self.args) == 1 and isinstance(self.args[0], Message):
            return self.args[0]
        return Message.plain(str(self))

    def translated(self, lang: str) -> str:
        """The error's message in ``lang`` (English where the catalogs lack it)."""
        return self.text.translated(lang)


class InvalidPositionError(GammonError, ValueError):
    """A board that cannot exist: wrong checker counts, both sides on one point..."""


class InvalidDiceError(GammonError, ValueError):
    """Dice that are not two numbers from 1 to 6."""


class InvalidIdError(GammonError, ValueError):
    """A position or match identifier that cannot be decoded."""


class PositionIdError(InvalidIdError):
    """A malformed GNU Backgammon Position ID."""


class MatchIdError(InvalidIdError):
    """A malformed GNU Backgammon Match ID."""


class XgidError(InvalidIdError):
    """A malformed eXtreme Gammon XGID string, or values no XGID can hold.

    Raised with what is wrong *without* the word XGID (``XgidError(Message("turn must be
    1 (bottom) or -1 (top), got {turn}", turn="0"))``): :attr:`text` and ``str()`` put
    "XGID" before it, for whoever pasted one; :attr:`reason` is it alone, for the analysis
    board, whose player may have set the position up by hand and never typed an XGID.
    Why not cut "XGID " off the text where it is shown: each language writes the prefix
    its own way ("XGID: ..."), so only the message itself can give the words without it.

    >>> exc = XgidError(Message("turn must be 1 (bottom) or -1 (top), got {turn}", turn="0"))
    >>> print(exc)
    XGID turn must be 1 (bottom) or -1 (top), got 0
    >>> exc.reason.english
    'turn must be 1 (bottom) or -1 (top), got 0'
    >>> exc.translated("fi")
    'XGID: vuoron on oltava 1 (alempi) tai -1 (ylempi), ei 0'
    """

    def __str__(self) -> str:
        return self.text.english

    @property
    def reason(self) -> Message:
        """What is wrong, without the word XGID."""
        if len(self.args) == 1:
            return Message.of(self.args[0])
        return Message.plain(Exception.__str__(self))

    @property
    def text(self) -> Message:
        return Message("XGID {why}", why=self.reason)


class InvalidPlayError(GammonError, ValueError):
    """Move notation that cannot be read at all (``"13-x"``)."""


class IllegalPlayError(GammonError, ValueError):
    """A readable play that the rules forbid; the message says which rule."""


class IllegalActionError(GammonError, ValueError):
    """A game, match or session action that is not allowed in the current state."""


class InvalidClockError(GammonError, ValueError):
    """A clock's settings out of range, or a clock told to run for no side there is."""


class InvalidRulesError(GammonError, ValueError):
    """Settings for a game or a series that cannot go together or are out of range.

    ``setting`` names the offending option (``"length"``, ``"max_cube"``...), so a
    program can point at the field while the message speaks plain words.
    """

    def __init__(self, setting: str, message: str | Message) -> None:
        super().__init__(message)
        self.setting = setting


class MatFileError(GammonError, ValueError):
    """A .mat match file that cannot be read."""


class SgfError(GammonError, ValueError):
    """A GNU Backgammon .sgf file that cannot be read, or a series that cannot be written as one."""


class XgFileError(GammonError, ValueError):
    """An eXtreme Gammon .xg file that cannot be read: not one, damaged, or not replayable."""


class UnknownVariantError(GammonError, ValueError):
    """A variant name gammon does not know."""


class InvalidCubeStateError(GammonError, ValueError):
    """A match score, cube state or set of chances that cannot be (R10-R12)."""
