""".mat match files, the plain-text format of Jellyfish that GNU Backgammon, eXtreme Gammon
and most other programs export: written from a :class:`~gammon.match.Match` or
:class:`~gammon.match.Session`, read back, and replayed through the rules.

A file holds optional ``; [Tag "value"]`` lines, a ``5 point match`` line (``0``
for a money session), then one block per game: ``Game 1``, the names with the
score before the game, and numbered rows with the first-named player (side 0)
on the left and the other on the right. A cell is a roll and its play
(``31: 8/5 6/5``, bar as 25, off as 0, one move per die as GNU Backgammon writes
them), a roll with nothing after it (a dance), or a cube action (``Doubles => 2``,
``Takes``, ``Drops``, ``Beavers => 4``); ``Wins 2 points`` in the winner's column
ends the game, after a bear-off, a drop or a resignation.

>>> from gammon.dice import ScriptedDice
>>> from gammon.match import Match
>>> match = Match(1, dice=ScriptedDice([(3, 1), (6, 4)]))
>>> _ = match.game.roll(0), match.game.play(0, "8/5 6/5"), match.game.roll(1)
>>> _ = match.game.resign(1, 1), match.game.accept_resignation(0)
>>> text = write_mat(match, names=("Alice", "Bob"))
>>> print(text, end="")
 1 point match
<BLANKLINE>
 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 64:
      Wins 1 point
<BLANKLINE>
>>> parsed = read_mat(text)
>>> parsed.length, parsed.names, parsed.games[0].winner, parsed.games[0].points
(1, ('Alice', 'Bob'), 0, 1)
>>> replay_mat(text).histories == match.histories
True

Reading is lenient about layout (column widths, a left cell that runs into the
right one, ``Wins ... and the match``, ``???`` or ``Cannot Move`` after a roll,
``(Crawford)`` after ``Game N`` or the scores, which must then be right) and
strict about content: :func:`replay_mat` plays every cell through the rules
and raises :class:`~gammon.errors.MatFileError` naming the line of the first one
that is unreadable or illegal.

The format cannot say everything a game's history holds, so a few cells and
tags are this module's own; other programs skip them (GNU Backgammon ignores
tags it does not know and warns once about a cell it cannot read):

- ``; [OpeningTies "33 22"]`` after a game's score line: the tied opening throws
  (R3), which matter for automatic doubles;
- ``Closed out``: a turn lost on the bar against a closed board, which our rules
  pass without a roll (R7; GNU Backgammon shows a roll that dances instead, and
  reading accepts that too);
- ``Resigns 2`` and ``Rejects``: a resignation offer that was refused, is still
  pending, or whose value the points do not tell (an accepted one is only its
  ``Wins`` line, as GNU Backgammon writes it);
- rule tags a reader needs to replay the games: ``Variation``, ``Crawford``,
  ``CubeLimit``, ``Jacoby`` and ``Beaver`` (as eXtreme Gammon names them), and
  ``Gammons``, ``AutoDoubles``, ``Stakes`` and ``MaxGames``. Each is written only
  when the series differs from what a reader assumes without it (standard
  backgammon, Crawford rule on, cube up to 64, no money-play options).

The package follows the format's seams: :mod:`~gammon.matfile.record` (the parts of
a file and the rule tags), :mod:`~gammon.matfile.reader` (text to records),
:mod:`~gammon.matfile.replay` (records through the rules) and
:mod:`~gammon.matfile.writer` (a series to text).
"""

from __future__ import annotations

from gammon.matfile.reader import read_mat
from gammon.matfile.record import MatGame, MatTag, MatTurn, ParsedMatch, TurnKind
from gammon.matfile.replay import replay_mat
from gammon.matfile.writer import write_mat

__all__ = [
    "TurnKind",
    "MatTurn",
    "MatGame",
    "MatTag",
    "ParsedMatch",
    "write_mat",
    "read_mat",
    "replay_mat",
]
