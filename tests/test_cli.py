"""The ``gammon`` command line, run in-process through ``main`` and once as a real process."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import gnubg_nn
import pytest

from gammon.actions import (
    AcceptResignation,
    Action,
    ChooseDouble,
    Double,
    Drop,
    PlayDice,
    Roll,
    Take,
)
from gammon.cli import main
from gammon.cli.inputs import parse_dice, read_position
from gammon.cli.play import RandomOpponent
from gammon.diagram import draw
from gammon.dice import RandomDice
from gammon.errors import InvalidDiceError, PositionIdError
from gammon.events import Ended, Moved, describe
from gammon.game import Game, Phase
from gammon.match import Match, Session
from gammon.position import Position
from gammon.server.fairdice import FairDice

START_ID = "4HPwATDgc/ABMA"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def play_lines(out: str) -> list[str]:
    """The play column of a ``moves`` table (rows start with the play's number)."""
    return [line[5:30].strip() for line in out.splitlines()[3:]]


# -- moves -------------------------------------------------------------------------


def test_moves_from_the_start_with_31(capsys: pytest.CaptureFixture[str]) -> None:
    # R4/R5: 3-1 from the start has 16 distinct plays, the point-making 8/5 6/5 among them.
    status, out, err = run(capsys, "moves", START_ID, "31")
    assert status == 0 and err == ""
    assert out.splitlines()[0] == f"16 legal plays of 3-1 from {START_ID}"
    plays = play_lines(out)
    assert len(plays) == 16
    assert "8/5 6/5" in plays
    assert set(plays) == {str(p) for p in Position.initial().plays((3, 1))}


def test_moves_rows_give_both_ids(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "moves", START_ID, "31")
    row = next(line for line in out.splitlines() if line[5:30].strip() == "8/5 6/5")
    play = next(p for p in Position.initial().plays((3, 1)) if str(p) == "8/5 6/5")
    assert row.split()[-2:] == [play.position.swapped().id, play.position.id]


@pytest.mark.parametrize("dice", [["31"], ["3-1"], ["3,1"], ["3", "1"], ["13"], ["3 1"]])
def test_dice_spellings_agree(capsys: pytest.CaptureFixture[str], dice: list[str]) -> None:
    _, expected, _ = run(capsys, "moves", START_ID, "31")
    _, out, _ = run(capsys, "moves", START_ID, *dice)
    if dice == ["13"]:
        expected = expected.replace("3-1", "1-3", 1)
    assert out == expected


def test_moves_json_round_trips_ids(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", START_ID, "3-1", "--json")
    assert status == 0
    report = json.loads(out)
    assert report["start_position_id"] == START_ID
    assert report["dice"] == [3, 1]
    assert report["variant"] == "standard"
    plays = {str(p): p for p in Position.initial().plays((3, 1))}
    assert sorted(entry["play"] for entry in report["plays"]) == sorted(plays)
    for entry in report["plays"]:
        play = plays[entry["play"]]
        after = Position.from_id(entry["position_id"])
        assert after == play.position.swapped()
        assert Position.from_id(entry["mover_position_id"]) == play.position
        assert after.swapped().id == entry["mover_position_id"]
        moves = [(m["from"], m["to"], m["hit"]) for m in entry["moves"]]
        assert moves == [(m.source, m.target, m.hit) for m in play.moves]


@pytest.mark.parametrize(
    ("position_id", "dice"),
    [
        (START_ID, (3, 1)),
        (START_ID, (6, 6)),
        ("4HPwBSDgc/ABMA", (6, 2)),
        ("4HPkQSDgc/ABUA", (4, 4)),  # on the bar (R7)
        ("AHgfAJfddgAAAA", (6, 5)),  # bearing off (R8)
    ],
)
def test_moves_json_ids_match_gnubg(
    capsys: pytest.CaptureFixture[str], position_id: str, dice: tuple[int, int]
) -> None:
    # GNU Backgammon's move generator gives the same resulting boards: as it
    # returns them (the mover still on roll) and turned for the opponent.
    _, out, _ = run(capsys, "moves", position_id, f"{dice[0]}{dice[1]}", "--json")
    plays = json.loads(out)["plays"]
    board = gnubg_nn.board_from_position_id(position_id)
    boards = [
        [list(side) for side in gnubg_nn.boardfromkey(key)]
        for key in gnubg_nn.moves(board, *dice)
    ]
    if not boards:  # gnubg lists no boards when nothing can be played
        boards = [board]
    assert {entry["mover_position_id"] for entry in plays} == {
        gnubg_nn.position_id(b) for b in boards
    }
    assert {entry["position_id"] for entry in plays} == {
        gnubg_nn.position_id(b[::-1]) for b in boards
    }


def test_position_id_prefix_quoted_or_not(capsys: pytest.CaptureFixture[str]) -> None:
    _, expected, _ = run(capsys, "moves", START_ID, "31")
    assert run(capsys, "moves", f"Position ID: {START_ID}", "31")[1] == expected
    assert run(capsys, "moves", "Position", "ID:", START_ID, "31")[1] == expected
    assert run(capsys, "moves", f"GNU Backgammon  Position ID: {START_ID}", "3-1")[1] == expected


def test_xgid_and_match_id_supply_dice(capsys: pytest.CaptureFixture[str]) -> None:
    _, expected, _ = run(capsys, "moves", START_ID, "31")
    assert run(capsys, "moves", START_XGID)[1] == expected
    # The Match ID QYkqASAAIAAA has 5-2 rolled.
    status, out, _ = run(capsys, "moves", f"{START_ID}:QYkqASAAIAAA")
    assert status == 0
    count = len(Position.initial().plays((5, 2)))
    assert out.splitlines()[0] == f"{count} legal plays of 5-2 from {START_ID}"
    # Dice on the command line win over the ones in the ID.
    assert run(capsys, "moves", START_XGID, "31")[1] == expected


def test_options_may_come_before_the_dice(capsys: pytest.CaptureFixture[str]) -> None:
    _, expected, _ = run(capsys, "moves", START_ID, "31", "--json")
    assert run(capsys, "moves", START_ID, "--json", "3", "1")[1] == expected


def test_dance_is_listed_as_no_play(capsys: pytest.CaptureFixture[str]) -> None:
    # R7: on the bar against a closed board no roll enters; the turn is lost.
    closed = Position.from_points({25: 1, 13: 14}, {p: 2 for p in range(1, 7)})
    status, out, _ = run(capsys, "moves", closed.id, "66")
    assert status == 0
    assert out.splitlines()[0] == f"no legal play of 6-6 from {closed.id}"
    assert play_lines(out) == ["(no play)"]


def test_variant_sets_the_checker_count(capsys: pytest.CaptureFixture[str]) -> None:
    # R14: hypergammon has three checkers a side; a 15-checker ID is rejected.
    hyper = Position.initial("hypergammon")
    status, out, _ = run(capsys, "moves", hyper.id, "31", "--variant", "hyper", "--json")
    assert status == 0
    report = json.loads(out)
    assert report["variant"] == "hypergammon"
    assert len(report["plays"]) == len(hyper.plays((3, 1)))
    status, _, err = run(capsys, "moves", START_ID, "31", "--variant", "hypergammon")
    assert status == 2
    assert "more than the 3 of a side" in err


def test_acey_deucey_start(capsys: pytest.CaptureFixture[str]) -> None:
    # R14: acey-deucey checkers wait off the board; no Position ID can say so.
    status, out, _ = run(capsys, "moves", "start", "21", "--variant", "acey", "--json")
    assert status == 0
    report = json.loads(out)
    assert report["start_position_id"] is None
    assert {entry["play"] for entry in report["plays"]} == {
        str(p) for p in Position.initial("acey-deucey").plays((2, 1))
    }


# -- errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["moves", "4HPwATDgc/ABM", "31"], "Position ID must be 14 characters, got 13"),
        (["moves", "4HPwATDgc/AB!A", "31"], "invalid character '!'"),
        (["moves", START_ID, "71"], "each die must be a number from 1 to 6, got 7"),
        (["moves", START_ID, "3"], "dice must be two numbers from 1 to 6"),
        (["moves", START_ID, "three", "one"], "dice must be two numbers from 1 to 6"),
        (["moves", START_ID], "no dice given"),
        (["moves", START_ID, "31", "--variant", "chess"], "unknown variant 'chess'"),
        (["moves", "XGID=-b----E-C:0:0:1:31:0:0:0:0:10"], "XGID position must be 26 characters"),
        (["show", f"{START_ID}:QYkqASAAIAA"], "Match ID must be 12 characters, got 11"),
        (["show", START_ID, "--dice", "0-1"], "each die must be a number from 1 to 6, got 0"),
        (["moves"], "the following arguments are required: position"),
        (["fly"], "invalid choice: 'fly'"),
        ([], "the following arguments are required: COMMAND"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("gammon: error: ")
    assert message in err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", "--help")
    assert status == 0
    assert "--variant" in out and "--json" in out


def test_parse_dice_and_read_position() -> None:
    assert parse_dice("6-6") == (6, 6)
    assert parse_dice("2,5") == (2, 5)
    with pytest.raises(InvalidDiceError, match="got '123'"):
        parse_dice("123")
    assert read_position("start", "nackgammon") == Position.initial("nackgammon")
    with pytest.raises(PositionIdError, match="no position given"):
        read_position("Position ID: ")


# -- show --------------------------------------------------------------------------


def test_show_draws_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", START_ID)
    assert status == 0
    assert out == draw(Position.initial()) + "\n"


def test_show_with_match_id(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", f"{START_ID}:QYkqASAAIAAA")
    assert status == 0
    lines = out.splitlines()
    assert lines[1] == " Match ID   : QYkqASAAIAAA"
    assert lines[10].endswith("X rolled 5-2")
    assert lines[-1] == " 9-point match"


def test_show_xgid_with_cube_and_dice(capsys: pytest.CaptureFixture[str]) -> None:
    # Top player on roll at 4-2 in a 7-point match, cube 2 owned by the player on roll.
    status, out, _ = run(capsys, "show", "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:2:4:0:7:10")
    assert status == 0
    lines = out.splitlines()
    assert lines[2].endswith("|     2 points")
    assert lines[8].endswith("|     Cube: 2")  # the player on roll's side
    assert lines[12].endswith("|     4 points")
    assert lines[-1] == " 7-point match"


def test_show_tavla_has_no_cube(capsys: pytest.CaptureFixture[str]) -> None:
    # R14: tavla is played without the cube.
    _, out, _ = run(capsys, "show", "start", "--variant", "tavla", "--dice", "4-2")
    assert "Cube" not in out
    assert "X rolled 4-2" in out


# -- a real process ----------------------------------------------------------------


def test_python_dash_m_gammon() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gammon", "moves", START_ID, "31"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(play_lines(done.stdout)) == 16
    assert "8/5 6/5" in play_lines(done.stdout)


def test_python_dash_m_gammon_bad_id() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gammon", "moves", "nonsense", "31"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "gammon: error: Position ID must be 14 characters, got 8\n"


# -- play --------------------------------------------------------------------------


class Player:
    """A scripted person at the keyboard: random plays, doubles now and then, drops some."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.plays = RandomOpponent(seed)

    def decide(self, game: Game, side: int) -> Action:
        if game.phase is Phase.ROLL and game.can_double(side):
            return Double(side) if self.random.random() < 0.15 else Roll(side)
        if game.phase is Phase.DOUBLE_OFFERED:
            return Drop(side) if self.random.random() < 0.2 else Take(side)
        return self.plays.decide(game, side)


def typed(action: Action) -> str:
    """What a person types at ``gammon play`` for an action."""
    match action:
        case PlayDice(play=play):
            return str(play)
        case ChooseDouble(number=number):
            return f"choose {number}"
        case AcceptResignation():
            return "accept"
    return action.name


def script(
    seed: int, opponent: str, match: int | None = None, variant: str = "standard"
) -> tuple[list[str], Match | Session]:
    """The commands people would type in ``gammon play --seed seed``, and the series they make.

    The same dice and the same random opponent as the command line, with its
    rule that dice are rolled for a side that cannot double.
    """
    dice = RandomDice(seed)
    series: Match | Session = (
        Match(match, variant=variant, dice=dice)
        if match
        else Session(variant=variant, max_games=1, dice=dice)
    )
    bots = {1: RandomOpponent(seed)} if opponent == "random" else {}
    people = {0: Player(seed + 100), 1: Player(seed + 200)}
    commands: list[str] = []
    while True:
        game = series.game
        if game.is_over:
            if series.is_over:
                return commands, series
            series.new_game()
            continue
        side = game.turn if game.turn is not None else 0
        if game.phase in (Phase.OPENING, Phase.ROLL) and not game.can_double(side):
            series.apply(Roll(side))
        elif side in bots:
            series.apply(bots[side].decide(game, side))
        else:
            action = people[side].decide(game, side)
            commands.append(typed(action))
            series.apply(action)


def play_cli(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lines: list[str],
    *argv: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    return run(capsys, "play", *argv)


def result_line(series: Match | Session) -> str:
    """The last game's result as the terminal words it: :func:`gammon.events.describe`."""
    result = series.game.result
    assert result is not None
    return describe(Ended(result), ("X", "O"))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_play_a_whole_game_against_the_random_opponent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    # R9: the game ends when a side has borne off all its checkers, or a double is dropped.
    commands, series = script(seed, "random")
    status, out, err = play_cli(
        capsys, monkeypatch, commands, "--opponent", "random", "--seed", str(seed)
    )
    assert (status, err) == (0, "")
    assert "Not possible" not in out
    assert result_line(series) in out.splitlines()
    moved = sum(isinstance(e, Moved) for e in series.game.history)
    assert sum(re.match(r"[XO] plays ", line) is not None for line in out.splitlines()) == moved
    # The board is drawn from the person's side all game: X at the bottom.
    assert all(line.endswith("     X") for line in out.splitlines() if line.startswith(" +12"))


def test_play_two_people_with_doubles(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # R10: doubles offered, taken or dropped, as the script says.
    commands, series = script(5, "human")
    assert "double" in commands
    status, out, err = play_cli(capsys, monkeypatch, commands, "--seed", "5")
    assert (status, err) == (0, "")
    assert "Not possible" not in out
    assert result_line(series) in out.splitlines()
    doubles = [line for line in out.splitlines() if re.fullmatch(r"[XO] doubles to \d+", line)]
    assert len(doubles) == commands.count("double")


def test_play_a_match(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # R12: games follow each other until a side reaches the match length.
    commands, series = script(11, "random", match=3)
    assert isinstance(series, Match)
    status, out, _ = play_cli(
        capsys, monkeypatch, commands, "--opponent", "random", "--match", "3", "--seed", "11"
    )
    assert status == 0
    assert "Not possible" not in out
    score = series.score
    assert out.splitlines()[-1] == (
        f"{'XO'[series.winner or 0]} wins the match {max(score)}-{min(score)}."
    )
    assert f"Game {len(series.games)}" in out.splitlines() or len(series.games) == 1


@pytest.mark.parametrize("variant", ["nackgammon", "hypergammon", "tavla", "acey-deucey"])
def test_play_variants(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    # R14: every variant plays to a finish, acey-deucey's chosen doubles included.
    commands, series = script(7, "random", variant=variant)
    status, out, _ = play_cli(
        capsys, monkeypatch, commands, "--opponent", "random", "--variant", variant,
        "--seed", "7",
    )
    assert status == 0
    assert "Not possible" not in out
    assert result_line(series) in out.splitlines()
    if variant == "tavla":
        assert "Cube" not in out


def test_play_scripted_by_hand(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # With seed 3 the opening roll is X 2, O 5: O plays 5-2 first (R3).
    lines = [
        "help", "roll", "foo", "13/7", "moves", "9", "pips", "hint", "24/22 13/8",
        "drop", "double", "resign maybe", "drop",
    ]
    status, out, err = play_cli(capsys, monkeypatch, lines, "--seed", "3")
    assert (status, err) == (0, "")
    got = out.splitlines()
    assert "opening roll: X 2, O 5" in got
    assert "O (play 5-2)> roll" in got
    assert "Not possible: O cannot roll: the game waits for O to play 5-2" in got
    assert "Not possible: unknown command 'foo'; type 'help' for the commands" in got
    assert "Not possible: '13/7' cannot be played with 5-2: 13/7 needs a 6; the dice are 5-2" in got
    assert "  7  8/6 8/3" in got
    assert "Not possible: there is no play number 9: 'moves' lists 8 plays" in got
    assert "Pip count: X 167, O 167" in got
    assert "O plays 24/22 13/8" in got
    # R10: X, on roll with the cube centred, doubles; O drops and X wins 1 point (R9).
    assert "X (roll or double)> drop" in got
    assert "Not possible: X cannot drop: the game waits for X to roll or double" in got
    assert "X doubles to 2" in got
    assert "O (take or drop)> resign maybe" in got
    end = got.index("O (take or drop)> drop")
    assert got[end + 1 : end + 3] == [
        "O drops",
        "X wins 1 point (a single game, by a dropped double)",
    ]
    # The final board, from the side of X (the last to act was O, who dropped).
    assert any(line.endswith("|     Game over") for line in got[end + 3 :])
    assert got[-1] == " Money game"


def test_play_quit_and_end_of_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = play_cli(capsys, monkeypatch, ["quit"], "--seed", "3")
    assert status == 0 and out.splitlines()[-1] == "Bye." and err == ""
    status, _, err = play_cli(capsys, monkeypatch, ["moves"], "--seed", "3")
    assert status == 1
    assert err == "gammon: input ended before the game was over\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--match", "0"], "a match is 1 to 32767 points, got '0'"),
        (["--opponent", "gnubg"], "invalid choice: 'gnubg'"),
        (["--seed", "x"], "invalid int value: 'x'"),
    ],
)
def test_play_bad_options(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, _, err = run(capsys, "play", *argv)
    assert status == 2 and message in err and err.count("\n") == 1


def test_play_through_a_real_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gammon", "play", "--seed", "3"],
        input="24/22 13/8\ndouble\ndrop\n", capture_output=True, text=True, timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "X wins 1 point (a single game, by a dropped double)" in done.stdout.splitlines()


# -- hint and the bot -------------------------------------------------------------


def test_hint_ranks_every_play(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "hint", "4HPwATDgc/ABMA", "--dice", "31", "--limit", "0")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "16 legal plays of 3-1, ranked at 0-ply:"
    assert len(lines) == 17
    # The best play loses nothing; the losses only grow down the list.
    assert lines[1].startswith("  1. 8/5 6/5") and "(-0.000)" in lines[1]
    losses = [float(re.search(r"\((-\d\.\d+)\)", line).group(1)) for line in lines[1:]]  # type: ignore[union-attr]
    assert losses == sorted(losses, reverse=True)


def test_hint_without_dice_gives_the_cube_action(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "hint", "start")
    assert status == 0
    assert out.splitlines()[0] == "Cube action (0-ply, equity per cube): No double, take"
    assert "double/pass  +1.000" in out


def test_hint_in_the_crawford_game_says_no_double(capsys: pytest.CaptureFixture[str]) -> None:
    """R12: no cube in the Crawford game; a Match ID with the Crawford flag says so."""
    from gammon.ids import MatchIdFields, encode_match_id

    crawford = encode_match_id(
        MatchIdFields(crawford=True, match_length=5, score=(4, 2), player_on_roll=0, turn=0)
    )
    status, out, _ = run(capsys, "hint", f"4HPwATDgc/ABMA:{crawford}")
    assert status == 0
    assert out.startswith(
        "The player on roll cannot double here: there is no doubling in the Crawford game"
    )


def test_hint_rejects_a_bad_ply(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "hint", "start", "--ply", "5")
    assert status == 2 and err.startswith("gammon: error:")


def test_play_against_the_bot_to_the_end(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The person (X) rolls, plays the first listed play and takes; the bot (O) plays on.

    Commands that do not fit the moment are refused and the game goes on.
    """
    lines = ["hint"] + ["roll", "1", "take"] * 300
    status, out, _ = play_cli(capsys, monkeypatch, lines, "--opponent", "bot", "--seed", "5")
    assert status == 0
    assert "gammon-expert (O)" in out.splitlines()[0]
    assert "ranked at 0-ply" in out
    assert any(re.fullmatch(r"[XO] wins \d+ points? \(.*\)", line) for line in out.splitlines())


# -- optional dependencies -----------------------------------------------------------

#: The third-party packages of each extra; the core is numpy and numba alone.
EXTRAS = {
    "engine": ["threadpoolctl", "rich"],
    "server": ["starlette", "uvicorn", "sqlalchemy", "argon2", "psycopg", "orjson"],
    "client": ["websockets"],
}
WITHOUT = """
import sys
for name in {blocked!r}:
    sys.modules[name] = None  # as if not installed: importing it raises ModuleNotFoundError
from gammon.cli import main
status = main({argv!r})
loaded = sorted(m for m in ("gammon.engine", "gammon.server.app", "gammon.cli.connect.link")
                if sys.modules.get(m) is not None)
print("loaded:", *loaded)
sys.exit(status)
"""


def run_without(blocked: list[str], *argv: str) -> subprocess.CompletedProcess[str]:
    """``gammon ARGV`` in a fresh interpreter where the ``blocked`` packages cannot be imported."""
    return subprocess.run(
        [sys.executable, "-c", WITHOUT.format(blocked=blocked, argv=list(argv))],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_rules_commands_and_verify_need_only_the_core(tmp_path: Path) -> None:
    every_extra = [name for names in EXTRAS.values() for name in names]
    moves = run_without(every_extra, "moves", START_ID, "31")
    assert moves.returncode == 0, moves.stderr
    assert "8/5 6/5" in play_lines(moves.stdout)
    # Neither the engine nor the server nor the WebSocket client was even imported.
    assert moves.stdout.splitlines()[-1] == "loaded:"
    show = run_without(every_extra, "show", START_ID)
    assert show.returncode == 0, show.stderr
    assert show.stdout.splitlines()[:-1] == draw(Position.initial()).splitlines()
    dice = FairDice(bytes(range(32)))
    dice.roll([b"entropy"])
    record = tmp_path / "record.json"
    record.write_text(json.dumps(dice.record()))
    verify = run_without(every_extra, "verify", str(record))
    assert verify.returncode == 0, verify.stderr
    assert verify.stdout.splitlines()[-2:] == ["all 1 rolls verified", "loaded:"]


@pytest.mark.parametrize(
    ("extra", "argv", "what"),
    [
        ("engine", ["hint", "start"], "gammon hint"),
        ("engine", ["play", "--opponent", "bot"], "gammon play --opponent bot"),
        ("server", ["serve", "--port", "1"], "gammon serve"),
        ("client", ["connect", "http://127.0.0.1:1", "--bot", "expert"], "gammon connect"),
    ],
)
def test_a_missing_extra_is_named_with_what_to_install(
    extra: str, argv: list[str], what: str
) -> None:
    done = run_without(EXTRAS[extra], *argv)
    assert done.returncode == 2
    assert done.stderr.startswith(f"gammon: error: {what} needs the {extra} extra (")
    assert done.stderr.endswith(f"is not installed): pip install 'gammon[{extra}]'\n")
    assert done.stderr.count("\n") == 1
