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

Reading is liberal in what it accepts, as GNU Backgammon, eXtreme Gammon and the
online sites write the format: column widths, a left cell that runs into the right
one, ``Wins ... and the match``, ``???`` or ``Cannot Move`` after a roll, a win
written right after the winner's roll, ``(Crawford)`` after ``Game N`` or the scores
(which must then be right), both cube wordings (``Takes``/``Drops`` and
``Accepts``/``Passes``/``Rejects``), Backgammon Galaxy's ``Losses 1 point``, games
without a score line, results left out (the rules' own end, or the next game's
score, tells them), GNU Backgammon's ``HyperGammon (3)`` and its money files, which
carry no ``Beaver`` or ``Jacoby`` tag (a beaver in the games, or points that add up
only under the Jacoby rule, tell them). What a file says is kept: the roll of a turn
lost on the bar against a closed board, which other programs throw (R7: our games do
not), stays in the record; a match taken up at a score (FIBS) starts at its first
game's score line; an online site's last game that gives only what the winner needed
(``Wins 3 point and the match`` after a gammon worth 4) is the game it was, a gammon
or a resigned gammon, as GNU Backgammon reads it; money sessions whose score lines all
restart at ``0 : 0`` are read by their games. It is strict about content:
:func:`replay_mat` plays every cell through the rules and raises
:class:`~gammon.errors.MatFileError` naming the line of the first one that is
unreadable or illegal, or a result that no cube and no match length allow (more than
three times the cube, and more than the winner needed); a corrupt cell, such as a
server's board dump, is refused on its line rather than read past as an edited
position.

Writing gives only rows GNU Backgammon reads (it is row-based, and any cell it does
not know puts its board out of step): rolls high die first, a turn lost on the bar
against a closed board as a roll that dances (the record's own roll, or ``64:`` where
our rules passed without one, R7), an accepted resignation as its ``Wins`` line, a
match taken up at a score from that score; a game set up from another position cannot
be written (the rows start from the variant's own start: write it as .sgf). What the
rows cannot say goes into head tags, which other programs ignore (GNU Backgammon even
keeps them):

- ``; [ClosedBoard "1: 40 52"]``: the turns our rules passed on the bar against a
  closed board without a roll (R7), by their place in the game's history; their rows
  show a stand-in roll (``64:``), and without the tag a dance's roll is the record's;

- ``; [OpeningTies "2: 33 22; 5: 11"]``: the tied opening throws of each game (R3),
  which matter for automatic doubles;
- ``; [Resignations "game 1 event 9: side 1 resigns 2, rejected"]``: offers refused,
  still pending, or accepted where the points do not tell the value, by their place
  in the game's history;
- ``; [Forfeit "Game 3"]`` (or ``"Game 3 on time"``): the last game was lost by a
  forfeit or on time (R13); its rows stop where the player left;
- rule tags a reader needs to replay the games: ``Variation``, ``Crawford``,
  ``CubeLimit``, ``Jacoby`` and ``Beaver`` (as eXtreme Gammon names them), and
  ``Gammons``, ``AutoDoubles``, ``Stakes`` and ``MaxGames``. Each is written only
  when the series differs from what a reader assumes without it (standard
  backgammon, Crawford rule on, cube up to 64, no money-play options).

Files of earlier versions, with ``OpeningTies`` lines inside a game and ``Closed
out``, ``Resigns 2`` and ``Rejects`` cells, still read.

The package follows the format's seams: :mod:`~gammon.matfile.record` (the parts of
a file and the rule tags), :mod:`~gammon.matfile.reader` (text to records),
:mod:`~gammon.matfile.replay` (records through the rules, a game's cells by
:mod:`~gammon.matfile.game_replay`) and
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
