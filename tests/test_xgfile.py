"""eXtreme Gammon's .xg files (gammon.xgfile), written by the test-only writer tests/xg_writer.py.

Each known match is written as .xg and read back; it must give the same games as the
.mat text of the same match (what eXtreme Gammon's text export holds: no head tags
of ours), and damaged files must say what is wrong.
"""

from __future__ import annotations

import dataclasses
import random
import struct
from pathlib import Path

import pytest
from test_matfile import play_series
from xg_writer import container, game_header, match_header, move_record, write_xg

from gammon.dice import RandomDice
from gammon.errors import XgFileError
from gammon.events import Rolled
from gammon.match import Match, Session
from gammon.matfile import read_mat, replay_mat, write_mat
from gammon.xgfile import XgNote, read_xg, replay_xg

VECTORS = Path(__file__).parent / "vectors"
#: The head tags of ours that eXtreme Gammon's text export does not hold.
OUR_TAGS = ("; [ClosedBoard", "; [OpeningTies", "; [Resignations", "; [Forfeit")


def as_xg_exports_it(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(OUR_TAGS)) + "\n"


def known_matches() -> list[tuple[str, str]]:
    """(name, .mat text) of the vectors and of random series, as eXtreme Gammon's export
    would hold them."""
    found = [
        (path.name, as_xg_exports_it(path.read_text()))
        for path in sorted(VECTORS.glob("*.mat"))
        if "Variation" not in path.read_text() or "Hypergammon" in path.read_text()
    ]
    for seed in range(4):
        series: Match | Session = (
            Match(5, dice=RandomDice(seed)) if seed % 2
            else Session(beavers=True, max_games=3, dice=RandomDice(seed))
        )
        play_series(series, random.Random(seed))
        if series.forfeited:
            continue
        found.append((f"random {seed}", as_xg_exports_it(write_mat(series, names=("Ann", "Ben")))))
    return found


@pytest.mark.parametrize(("name", "text"), known_matches(), ids=lambda v: str(v)[:20])
def test_xg_files_read_to_the_same_games_as_their_text(name: str, text: str) -> None:
    expected = replay_mat(text)
    names = read_mat(text).names
    data = write_xg(expected, names)
    read = read_xg(data)
    assert read.parsed.names == names
    assert read.parsed.length == read_mat(text).length
    series = replay_xg(read)
    assert series.histories == expected.histories
    # An .xg file has no place for a fixed number of games (R11): the rest of the rules agree.
    assert series.rules == dataclasses.replace(expected.rules, max_games=None)
    assert series.score == expected.score
    assert replay_mat(write_mat(series, names=names)).histories == expected.histories


def test_a_dance_against_a_closed_board_keeps_its_dice_in_xg() -> None:
    """R7: eXtreme Gammon throws the dice there too; they stay in the record."""
    text = (VECTORS / "closed_board.mat").read_text()
    series = replay_xg(write_xg(replay_mat(text), ("Alice", "Bob")))
    assert Rolled(0, (5, 4)) in series.games[0].history


def test_xg_analysis_is_kept_as_notes() -> None:
    text = (VECTORS / "double_drop.mat").read_text()
    expected = replay_mat(text)
    read = read_xg(write_xg(expected, ("Alice", "Bob"), analysed=True))
    plays = [note for note in read.analysis if note.kind == "play"]
    assert len(plays) == sum(
        1 for game in read.parsed.games for turn in game.turns if turn.play
    )
    assert plays[0] == XgNote(1, 0, 0, "play", 0.125, 0.25)
    doubles = [note for note in read.analysis if note.kind == "double"]
    assert [(note.game, note.side) for note in doubles] == [(1, 1), (2, 1), (2, 0)]
    assert read_xg(write_xg(expected, ("Alice", "Bob"))).analysis == ()  # -1000: not analysed


def test_older_file_versions_and_a_thumbnail() -> None:
    """Before version 24 the names are only the short ANSI strings; a thumbnail is skipped."""
    expected = replay_mat((VECTORS / "one_point.mat").read_text())
    data = write_xg(expected, ("Alice", "Bob"), version=8, thumbnail=b"\xff\xd8 a jpeg \xff\xd9")
    assert replay_xg(data).histories == expected.histories
    assert read_xg(data).parsed.names == ("Alice", "Bob")


def test_a_money_session_in_xg() -> None:
    session = replay_mat((VECTORS / "money.mat").read_text())
    again = replay_xg(write_xg(session, ("Erin", "Frank")))
    assert isinstance(again, Session) and again.rules.beavers and again.payouts == (4, 1)


def _damaged(data: bytes, at: int, value: bytes) -> bytes:
    return data[:at] + value + data[at + len(value) :]


def test_damaged_and_foreign_files_say_what_is_wrong() -> None:
    good = write_xg(replay_mat((VECTORS / "one_point.mat").read_text()), ("Alice", "Bob"))
    cases = [
        (b"; [Site \"x\"]\n 1 point match\n", r"does not start with the magic 'RGMH'"),
        ("text", r"an .xg file is read from bytes, got str"),
        (good[:-100], r"does not fit the file|CRC check|cut short"),
        (good[:8250], r"stops before its archive: it is cut short"),
        (_damaged(good, len(good) - 60, b"\x00\x01"), r"fails its CRC check"),
        (_damaged(good, 4, struct.pack("<i", 2)), r"header is of version 2; only 1 is read"),
        (container({"temp.xgc": b""}), r"holds no games \(temp.xg\), only \['temp.xgc'\]"),
        (container({"temp.xg": b"x" * 100}), r"not a whole number of 2560-byte records"),
    ]
    for data, message in cases:
        with pytest.raises(XgFileError, match=message):
            read_xg(data)  # type: ignore[arg-type]
    assert issubclass(XgFileError, ValueError)


def test_an_illegal_move_names_its_record() -> None:
    """Record 1 is the match header, 2 the game header, 3 the opening move."""
    match = Match(1)
    records = [
        match_header(match, ("Alice", "Bob")),
        game_header((0, 0), 1),
        move_record(0, (3, 1), [(8, 4), (6, 5)], -1000.0, 0.0),
    ]
    data = container({"temp.xg": b"".join(records)})
    assert read_xg(data).parsed.games[0].turns[0].line == 3
    with pytest.raises(XgFileError, match=r"^record 3: Alice cannot play '8/4 6/5' with 31"):
        replay_xg(data)
    records[2] = move_record(0, (3, 7), [], -1000.0, 0.0)
    with pytest.raises(XgFileError, match=r"^record 3: \(3, 7\) is not a roll of two dice"):
        read_xg(container({"temp.xg": b"".join(records)}))
    records[2] = match_header(match, ("Alice", "Bob"))
    with pytest.raises(XgFileError, match=r"^record 3: a second match header"):
        read_xg(container({"temp.xg": b"".join(records)}))
