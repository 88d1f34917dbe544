"""eXtreme Gammon's .xg files: matches and money sessions read and replayed through the rules.

An .xg file is binary: a game data header (magic ``RGMH``), an optional JPEG
thumbnail, and a zlib archive whose ``temp.xg`` holds the games as 2560-byte
records (a match header, then each game's header, cube decisions, moves and
footer). It is read from eXtreme Gammon's published description of the format
(``xg_format.pas``, https://www.extremegammon.com/xgformat.aspx); the code is our
own and needs nothing beyond the standard library.

The games become the records of a .mat file (:mod:`gammon.matfile`) and replay the
same way, so an .xg file and the .mat export of the same match give the same
games; a record that does not follow names its place in ``temp.xg``. eXtreme
Gammon's own analysis, where the file holds it, is kept beside them as
:class:`XgNote` values (the equity each play and cube action lost, the luck of
each roll). Rollouts, comments and the thumbnail are skipped; a game set up from an
edited position is not read from its header (its moves then fail to replay).

The package follows the format's seams: :mod:`~gammon.xgfile.container` (the
header and the archive), :mod:`~gammon.xgfile.records` (the records of
``temp.xg``) and :mod:`~gammon.xgfile.reader` (records to games).
"""

from __future__ import annotations

from gammon.xgfile.reader import XgFile, XgNote, read_xg, replay_xg

__all__ = ["XgFile", "XgNote", "read_xg", "replay_xg"]
