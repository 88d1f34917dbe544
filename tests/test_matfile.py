"""The .mat match files (gammon.matfile): writing, reading, and replaying through the rules.

Round trips play random legal actions (cube actions and resignations included),
write the series, replay the text and demand identical histories and scores.
The hand-written samples in tests/vectors/*.mat follow the layout GNU Backgammon
exports (bar as 25, off as 0, ``Wins`` in the winner's column) and are checked
event by event.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from test_game import random_step

from gammon.actions import Forfeit, OutOfTime, PlayDice, Roll
from gammon.dice import RandomDice, ScriptedDice
from gammon.errors import MatFileError
from gammon.events import (
    Beavered,
    Doubled,
    Dropped,
    EndReason,
    Event,
    Moved,
    OpeningRolled,
    Passed,
    PassReason,
    ResignationAccepted,
    Resigned,
    Rolled,
    Took,
    WinKind,
)
from gammon.game import Game, Phase
from gammon.match import Match, Session
from gammon.matfile import ParsedMatch, TurnKind, read_mat, replay_mat, write_mat
from gammon.play import Move

VECTORS = Path(__file__).parent / "vectors"


def vector(name: str) -> str:
    return (VECTORS / name).read_text()


def play_series(
    series: Match | Session, rng: random.Random, *, stop_at: Phase | None = None
) -> bool:
    """Random legal actions until the series is over; True if it stopped early at ``stop_at``.

    ``Phase.OVER`` stops after a game ends, before the next one starts.
    """
    for _ in range(200):
        game = series.game
        while not game.is_over:
            if game.phase is stop_at and rng.random() < 0.5:
                return True
            random_step(game, rng)
        if series.is_over:
            return False
        if stop_at is Phase.OVER and rng.random() < 0.5:
            return True
        series.new_game()
    raise AssertionError("the series did not end")


def high_first(histories: tuple[tuple[Event, ...], ...]) -> list[list[object]]:
    """The histories with every roll's dice high first, as .mat files write them.

    A file does not keep the order the dice were thrown in (GNU Backgammon and eXtreme
    Gammon write the high die first), so a round trip gives back the same games with
    the dice in that order. Opening throws keep theirs: each die belongs to a side.
    """
    out: list[list[object]] = []
    for history in histories:
        game: list[object] = []
        for event in history:
            if isinstance(event, Rolled):
                game.append(Rolled(event.side, (max(event.dice), min(event.dice))))
            elif isinstance(event, Moved):
                moves = sorted((m.source, m.target, m.hit) for m in event.moves)
                game.append(("moved", event.side, sorted(event.dice), event.play, moves))
            else:
                game.append(event)
        out.append(game)
    return out


def round_trip(series: Match | Session, **kwargs: object) -> Match | Session:
    """Write, replay, and check that nothing was lost; returns the replayed series."""
    text = write_mat(series, **kwargs)  # type: ignore[arg-type]
    again = replay_mat(text)
    assert type(again) is type(series)
    assert high_first(again.histories) == high_first(series.histories)
    assert again.score == series.score
    assert again.is_over == series.is_over
    assert [g.rules for g in again.games] == [g.rules for g in series.games]
    assert write_mat(again, **kwargs) == text  # type: ignore[arg-type]
    return again


def events_of(series: Match | Session) -> list[Event]:
    return [event for game in series.games for event in game.history]


# -- round trips -----------------------------------------------------------------


@pytest.mark.parametrize("length", [3, 5])
def test_random_matches_round_trip_with_cube_actions_and_crawford(length: int) -> None:
    """R10, R12: doubles, takes, drops, redoubles and the Crawford game all survive the file."""
    seen: set[str] = set()
    for seed in range(10):
        match = Match(length, dice=RandomDice(seed))
        play_series(match, random.Random(seed))
        again = round_trip(match, names=("Alice Smith", "Bob"))
        assert [g.rules.crawford for g in again.games] == [g.rules.crawford for g in match.games]
        for event in events_of(match):
            seen.add(type(event).__name__)
        if any(g.rules.crawford for g in match.games):
            seen.add("crawford")
        if any(isinstance(e, OpeningRolled) and e.is_tie for e in events_of(match)):
            seen.add("tie")
    assert {"Doubled", "Took", "Dropped", "Resigned", "ResignationRejected"} <= seen
    assert {"crawford", "tie"} <= seen


def test_random_money_sessions_round_trip() -> None:
    """R3, R11: beavers, Jacoby, automatic doubles and table stakes come back from the file."""
    seen: set[str] = set()
    for seed in range(8):
        rng = random.Random(seed)
        options: dict[str, object] = {
            "beavers": True,
            "jacoby": seed % 2 == 0,
            "auto_doubles": seed % 3,
            "stakes": (6, 9) if seed % 4 == 1 else None,
            "max_games": 4,
        }
        session = Session(dice=RandomDice(seed), **options)  # type: ignore[arg-type]
        play_series(session, rng)
        again = round_trip(session)
        assert isinstance(again, Session)
        assert again.rules == session.rules
        assert (again.stakes, again.max_games) == (session.stakes, session.max_games)
        assert again.payouts == session.payouts
        seen.update(type(event).__name__ for event in events_of(session))
    assert {"Beavered", "Took", "Dropped", "Doubled"} <= seen


def test_a_money_session_is_a_zero_point_match_with_running_scores() -> None:
    """R11: the score lines of a session add up what each side has won, after the stakes cap."""
    session = Session(stakes=3, dice=ScriptedDice([(6, 1), (5, 2)]))
    game = session.game
    game.roll(0)
    game.play(0, "13/7 8/7")
    game.resign(1, 3)
    game.accept_resignation(0)  # a backgammon: 3 points, all of side 1's stake
    text = write_mat(session, names=("Erin", "Frank"))
    assert text.splitlines()[:2] == ['; [Stakes "3 3"]', ""]
    assert " 0 point match" in text.splitlines()
    assert "      Wins 3 points" in text.splitlines()
    again = replay_mat(text)
    assert isinstance(again, Session)
    assert again.is_over and again.bankrolls == (6, 0)


@pytest.mark.parametrize(
    ("make", "tags"),
    [
        (lambda d: Match(3, variant="nackgammon", dice=d), ['; [Variation "NackGammon"]']),
        (lambda d: Match(3, variant="hypergammon", dice=d), ['; [Variation "Hypergammon"]']),
        (lambda d: Match(5, variant="tavla", dice=d), ['; [Variation "Tavla"]']),
        (lambda d: Match(3, variant="acey-deucey", dice=d), ['; [Variation "Acey-Deucey"]']),
        (lambda d: Match(5, crawford=False, dice=d), ['; [Crawford "Off"]']),
        (lambda d: Match(5, cube=False, dice=d), ['; [CubeLimit "1"]']),
        (lambda d: Match(5, max_cube=16, gammons=False, dice=d),
         ['; [CubeLimit "16"]', '; [Gammons "Off"]']),
        (lambda d: Match(5, dice=d), []),
    ],
)
def test_rules_other_than_the_default_are_written_as_tags(
    make: Callable[[RandomDice], Match], tags: list[str]
) -> None:
    """R12, R14: a reader replays variants and match options from the head of the file."""
    for seed in range(3):
        match = make(RandomDice(seed))
        play_series(match, random.Random(seed))
        text = write_mat(match)
        head = text.split(" point match")[0].splitlines()
        history_tags = ('; [OpeningTies "', '; [Resignations "')
        assert [
            line for line in head if line.startswith(";") and not line.startswith(history_tags)
        ] == tags
        round_trip(match)


def test_acey_deucey_doubles_of_choice_are_written_as_rolls() -> None:
    """R14: after a full 1-2 the named double is a cell of its own in the player's column."""
    for seed in range(30):
        match = Match(1, variant="acey-deucey", dice=RandomDice(seed))
        play_series(match, random.Random(seed))
        if any(type(e).__name__ == "DoubleChosen" for e in events_of(match)):
            round_trip(match)
            return
    raise AssertionError("no acey-deucey bonus in 30 games")


@pytest.mark.parametrize(
    "phase",
    [Phase.ROLL, Phase.MOVE, Phase.DOUBLE_OFFERED, Phase.BEAVER_OFFERED,
     Phase.RESIGNATION_OFFERED, Phase.OVER],
)
def test_unfinished_series_round_trip_and_play_on(phase: Phase) -> None:
    """A series stopped anywhere (dice rolled, cube or resignation on offer) reads back as is."""
    for seed in range(60):
        rng = random.Random(seed)
        series: Match | Session = (
            Match(5, dice=RandomDice(seed))
            if seed % 2 and phase is not Phase.BEAVER_OFFERED
            else Session(beavers=True, dice=RandomDice(seed))
        )
        if not play_series(series, rng, stop_at=phase):
            continue
        assert series.game.phase is phase
        again = round_trip(series)
        assert again.game.phase is phase
        # The replayed series goes on with fresh dice.
        if phase is Phase.OVER:
            again.new_game()
        for _ in range(30):
            if again.game.is_over:
                break
            random_step(again.game, rng)
        return
    raise AssertionError(f"no random series stopped at {phase}")


def play_priming_game(seed: int) -> Match:
    """A cube-less game where each side makes home points and hits, which closes boards (R7)."""
    rng = random.Random(seed)
    match = Match(1, cube=False, dice=RandomDice(seed))
    game = match.game
    while not game.is_over:
        side = game.turn
        if game.phase is Phase.OPENING:
            game.roll(0)
        elif game.phase is Phase.ROLL:
            assert side is not None
            game.roll(side)
        else:
            assert side is not None
            game.play(side, max(
                game.legal_plays(),
                key=lambda p: (sum(c >= 2 for c in p.position.mine[:6]), p.hits, rng.random()),
            ))
    return match


def closed_board_passes(match: Match) -> int:
    return sum(
        isinstance(e, Passed) and e.reason is PassReason.CLOSED_BOARD for e in events_of(match)
    )


def legacy_closed_out(match: Match, monkeypatch: pytest.MonkeyPatch) -> str:
    """The match as earlier versions wrote it, with a "Closed out" cell for each pass."""
    with monkeypatch.context() as patch:
        patch.setattr("gammon.matfile.writer._CLOSED_OUT_ROLL", (9, 9))
        return write_mat(match).replace("99:", "Closed out")


def test_closed_board_passes_are_written_as_a_roll_that_dances(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R7: our rules pass without a roll; the file shows a roll with no move, as GNU does.

    GNU Backgammon warns about a "Closed out" cell and its board goes out of step; a
    roll with nothing after it is what it and eXtreme Gammon write for a dance.
    """
    match = play_priming_game(13)
    passes = closed_board_passes(match)
    assert passes >= 3
    text = write_mat(match)
    assert "Closed out" not in text
    cells = [turn for turn in read_mat(text).games[0].turns if turn.dice == (6, 4)]
    assert sum(turn.play == "" for turn in cells) >= passes
    round_trip(match)
    # Files of earlier versions, with their own "Closed out" cell, still read.
    legacy = legacy_closed_out(match, monkeypatch)
    assert legacy.count("Closed out") == passes
    assert high_first(replay_mat(legacy).histories) == high_first(match.histories)


def test_a_closed_out_player_cannot_play_the_dance_roll(monkeypatch: pytest.MonkeyPatch) -> None:
    match = play_priming_game(13)
    text = legacy_closed_out(match, monkeypatch).replace("Closed out", "64: 25/21", 1)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "64: 25/21" in row)
    with pytest.raises(
        MatFileError,
        match=rf"^line {line}: Player \d is on the bar against a closed board "
        r"and cannot play '25/21'$",
    ):
        replay_mat(text)


# -- hand-written samples ------------------------------------------------------------


def test_sample_one_point_match() -> None:
    """A 1-point match ended by a resignation, with GNU-style tags and a comment."""
    parsed = read_mat(vector("one_point.mat"))
    assert parsed.length == 1 and not parsed.is_money
    assert parsed.names == ("Alice", "Bob")
    assert parsed.metadata == {"Site": "Kitchen table", "EventDate": "2024.05.01"}
    assert parsed.comments == ("A friendly game, transcribed by hand.",)
    (game,) = parsed.games
    assert game.score == (0, 0)
    assert [(t.side, t.dice, t.play) for t in game.turns] == [
        (0, (3, 1), "8/5 6/5"),
        (1, (6, 2), "24/18 13/11"),
        (0, (6, 1), "13/7* 8/7"),
        (1, (4, 3), "25/21 24/21"),
        (0, (5, 2), "13/8 13/11"),
    ]
    assert (game.winner, game.points, game.result_line) == (0, 1, 12)

    match = replay_mat(parsed)
    assert isinstance(match, Match)
    history = match.games[0].history
    assert history[0] == OpeningRolled((3, 1))
    assert history[2] == Rolled(1, (6, 2))
    hit = history[5]
    assert isinstance(hit, Moved) and hit.moves == (Move(13, 7, True), Move(8, 7))  # R6
    entry = history[7]
    assert isinstance(entry, Moved) and Move(25, 21) in entry.moves  # R7: bar written as 25
    # Bob resigned a single game after Alice's play (R9): the "Wins" line in Alice's column.
    assert history[-3:-1] == (Resigned(1, 1), ResignationAccepted(0))
    assert match.is_over and match.winner == 0 and match.score == (1, 0)


def test_sample_doubles_drops_and_the_crawford_game() -> None:
    """R9, R10, R12: a drop pays the cube before the offer; no cube in the Crawford game."""
    parsed = read_mat(vector("double_drop.mat"))
    assert [g.score for g in parsed.games] == [(0, 0), (0, 1), (2, 1)]
    cube_turns = [(t.side, t.kind, t.value) for t in parsed.games[1].turns if t.dice is None]
    assert cube_turns == [
        (1, TurnKind.DOUBLE, 2),
        (0, TurnKind.TAKE, None),
        (0, TurnKind.DOUBLE, 4),
        (1, TurnKind.DROP, None),
    ]
    match = replay_mat(parsed)
    results = [(g.result.winner, g.result.points, g.result.reason) for g in match.games if g.result]
    assert results == [
        (1, 1, EndReason.DROP),
        (0, 2, EndReason.DROP),
        (0, 1, EndReason.RESIGNATION),
    ]
    game2 = match.games[1].history
    assert [e for e in game2 if isinstance(e, Doubled | Took | Dropped)] == [
        Doubled(1, 2), Took(0), Doubled(0, 4), Dropped(1),
    ]
    assert [g.rules.crawford for g in match.games] == [False, False, True]
    assert match.is_over and match.score == (3, 1)


def test_sample_dance() -> None:
    """R7: a roll that cannot enter from the bar is written with nothing after it."""
    parsed = read_mat(vector("dance.mat"))
    dance = parsed.games[0].turns[3]
    assert (dance.line, dance.side, dance.dice, dance.play) == (6, 1, (6, 5), "")
    match = replay_mat(parsed)
    history = match.games[0].history
    index = history.index(Rolled(1, (6, 5)))
    assert history[index + 1] == Passed(1, PassReason.NO_PLAY)
    assert history[index + 2 : index + 5] == (
        Rolled(0, (4, 2)), history[index + 3], Rolled(1, (6, 4))
    )
    entry = history[index + 5]
    assert isinstance(entry, Moved) and entry.moves == (Move(25, 21), Move(21, 15))
    assert match.score == (1, 0)


def test_dances_against_a_closed_board_keep_their_dice() -> None:
    """R7: the file's rolls on the bar against a closed board stay in the record, replay,
    and are written back as they were (our own games still pass without a roll)."""
    text = vector("closed_board.mat")
    parsed = read_mat(text)
    match = replay_mat(parsed)
    history = match.games[0].history
    dances = [
        history[index - 1]
        for index, event in enumerate(history)
        if isinstance(event, Passed) and event.reason is PassReason.CLOSED_BOARD
    ]
    assert dances == [Rolled(0, d) for d in [(5, 4), (3, 1), (2, 1), (6, 5), (4, 3)]]
    written = write_mat(match, names=parsed.names, metadata=parsed.metadata)
    assert written == text
    assert "ClosedBoard" not in written
    assert replay_mat(written).histories == match.histories
    # Our own pass (no roll) is told apart from a record's dance by the ClosedBoard tag.
    ours = play_priming_game(13)
    assert '; [ClosedBoard "1: 64 67 70 73 76"]' in write_mat(ours)
    round_trip(ours)  # the same games, no roll where our rules passed without one


def test_sample_bar_entry_and_bear_off() -> None:
    """R7, R8, R9: hypergammon with hits, entries as 25/x, bear-off as x/0, a backgammon."""
    parsed = read_mat(vector("bar_bearoff.mat"))
    assert parsed.metadata == {"Variation": "Hypergammon"}
    match = replay_mat(parsed)
    assert match.games[0].rules.variant.name == "hypergammon"
    moves = [e for e in match.games[0].history if isinstance(e, Moved)]
    assert moves[2].moves[0] == Move(25, 20)
    assert moves[6].moves[0] == Move(25, 22)
    last = moves[-1]
    assert last.side == 1 and sorted(m.target for m in last.moves) == [0, 0, 0, 1]
    result = match.games[0].result
    assert result is not None
    assert (result.winner, result.points, result.kind) == (1, 3, WinKind.BACKGAMMON)
    assert result.reason is EndReason.BEAR_OFF and match.score == (0, 3)
    # The variant may be named when replaying, but it must agree with the file.
    assert replay_mat(parsed, "hypergammon").histories == match.histories
    with pytest.raises(MatFileError, match="hypergammon file"):
        replay_mat(parsed, "standard")


def test_sample_resignation_after_a_take() -> None:
    """R9: 'Wins 4 points' with the cube on 2 is a gammon resigned."""
    match = replay_mat(vector("resignation.mat"))
    history = match.games[0].history
    assert history[-3:-1] == (Resigned(1, 2), ResignationAccepted(0))
    result = match.games[0].result
    assert result is not None and (result.kind, result.points) == (WinKind.GAMMON, 4)
    assert match.is_over and match.score == (4, 0)


def test_sample_money_session_with_a_beaver() -> None:
    """R11: the doubler's next roll takes the beaver, as GNU Backgammon reads it."""
    parsed = read_mat(vector("money.mat"))
    assert parsed.is_money and parsed.names == ("Erin", "Frank")
    session = replay_mat(parsed)
    assert isinstance(session, Session) and session.rules.beavers
    cube = [e for e in session.games[0].history if isinstance(e, Doubled | Beavered | Took)]
    assert cube == [Doubled(1, 2), Beavered(0, 4), Took(1)]
    assert session.games[0].cube_value == 4 and session.games[0].cube_owner == 0
    assert session.payouts == (4, 1) and session.net == 5


def cell_columns(text: str) -> list[list[int]]:
    """Where each word group starts on the rows of a file (tags, comments and blanks left out)."""
    rows = [line for line in text.splitlines() if line.strip() and line.lstrip()[0] not in ";#"]
    return [
        [i for i, c in enumerate(row) if c != " " and (i == 0 or row[i - 1] == " ")][:2]
        for row in rows
    ]


@pytest.mark.parametrize(
    "name", sorted(p.name for p in VECTORS.glob("*.mat") if p.name != "galaxy.mat")
)
def test_samples_write_back_in_the_same_layout(name: str) -> None:
    """The writer lays rows out as GNU Backgammon does; only move order and details differ."""
    text = vector(name)
    parsed = read_mat(text)
    series = replay_mat(parsed)
    written = write_mat(series, names=parsed.names, metadata=parsed.metadata)
    assert replay_mat(written).histories == series.histories
    assert read_mat(written).tags == tuple(
        type(tag)(tag.key, tag.value, index) for index, tag in enumerate(parsed.tags, 1)
    )
    assert cell_columns(written) == cell_columns(text)


# -- reading layout ---------------------------------------------------------------------


def test_reading_is_lenient_about_layout() -> None:
    """Columns by position, a left cell running into the right one, XG's '???' and 'Cannot Move'."""
    text = "\n".join([
        "\ufeff; [Site \"Somewhere\"]",
        "# another comment",
        "",
        "7 Point Match",
        " Game 1",
        " A : 0   B : 0",
        "  1) 33: 24/21 24/21 13/10 13/10 62: 24/22 22/16",
        "  2)                    51: ???",
        "  3) 43: Cannot Move",
        "\tWins 2 points and the match",
    ])
    parsed = read_mat(text)
    assert parsed.length == 7 and parsed.metadata == {"Site": "Somewhere"}
    turns = parsed.games[0].turns
    assert [(t.line, t.side, t.dice, t.play) for t in turns] == [
        (7, 0, (3, 3), "24/21 24/21 13/10 13/10"),
        (7, 1, (6, 2), "24/22 22/16"),
        (8, 1, (5, 1), ""),
        (9, 0, (4, 3), ""),
    ]
    assert (parsed.games[0].winner, parsed.games[0].points) == (0, 2)


def test_online_site_wording_and_galaxy_losses_cells() -> None:
    """Accepts, Passes, Rejects (after a double: a drop) and Galaxy's "Losses N points"."""
    parsed = read_mat(vector("galaxy.mat"))
    assert [(g.winner, g.points) for g in parsed.games] == [(1, 1), (0, 2), (0, 1)]
    kinds = [t.kind for t in parsed.games[1].turns if t.dice is None]
    assert kinds == [TurnKind.DOUBLE, TurnKind.TAKE, TurnKind.DOUBLE, TurnKind.REJECT]
    match = replay_mat(parsed)
    results = [(g.result.winner, g.result.points, g.result.reason) for g in match.games if g.result]
    # Game 3, abandoned before its opening roll, is given up for the point it lost.
    assert results == [
        (1, 1, EndReason.DROP), (0, 2, EndReason.DROP), (0, 1, EndReason.FORFEIT),
    ]
    assert match.is_over and match.score == (3, 1)


def test_a_losses_cell_that_disagrees_with_the_wins_line() -> None:
    text = vector("galaxy.mat").replace("Losses 2 points", "Losses 4 points")
    with pytest.raises(MatFileError, match=r"^line 23: 'Losses 4 points' does not agree"):
        read_mat(text)


def test_games_without_score_lines() -> None:
    """Some sites go from "Game N" straight to row 1: the names come from the head."""
    text = (
        '; [Player 1 "Ann"]\n; [Player 2 "Ben"]\n\n 1 point match\n\n Game 1\n'
        "  1) 31: 8/5 6/5                 62: 24/18 13/11\n      Wins 1 point\n"
    )
    parsed = read_mat(text)
    assert parsed.names == ("Ann", "Ben") and parsed.games[0].score is None
    assert replay_mat(parsed).winner == 0


@pytest.mark.parametrize(
    ("value", "variant"),
    [("HyperGammon (3)", "hypergammon"), ("Hypergammon3", "hypergammon"),
     ("hypergammon", "hypergammon"), ("Nackgammon", "nackgammon"), ("Backgammon", "standard")],
)
def test_variation_names_of_other_programs(value: str, variant: str) -> None:
    match = replay_mat(f'; [Variation "{value}"]\n\n 1 point match\n')
    assert match.rules.variant.name == variant


def test_hypergammon_with_fewer_checkers_is_named() -> None:
    with pytest.raises(
        MatFileError,
        match=r"^line 1: the Variation 'HyperGammon \(2\)' is hypergammon with 2 checkers a "
        r"side; only 3-checker hypergammon is played here$",
    ):
        replay_mat('; [Variation "HyperGammon (2)"]\n\n 1 point match\n')


def test_a_money_file_with_a_beaver_and_no_beaver_tag() -> None:
    """R11: GNU Backgammon writes no Beaver tag; a beaver in the games allows them."""
    text = vector("money.mat").replace('; [Beaver "On"]\n', "")
    assert "Beaver " not in text
    session = replay_mat(text)
    assert session.rules.beavers
    with pytest.raises(MatFileError, match="beavers are not allowed"):
        replay_mat('; [Beaver "Off"]\n' + text)


def test_rolls_are_written_high_die_first() -> None:
    match = Match(3, dice=ScriptedDice([(3, 1), (2, 6)]))
    match.game.roll(0)
    match.game.play(0, "8/5 6/5")
    match.game.roll(1)
    match.game.play(1, "24/18 13/11")
    assert "62: 24/18 13/11" in write_mat(match)


def test_opening_ties_are_a_head_tag() -> None:
    """R3: GNU Backgammon warns about a tag line inside a game; the head is read by no one."""
    session = Session(auto_doubles=1, dice=ScriptedDice([(4, 4), (3, 1)]))
    session.game.roll(0)
    text = write_mat(session)
    assert text.splitlines()[:2] == ['; [AutoDoubles "1"]', '; [OpeningTies "1: 44"]']
    again = replay_mat(text)
    assert again.game.cube_value == 2 and again.histories == session.histories


def test_an_xg_style_head_round_trips_through_metadata() -> None:
    head = "\n".join([
        '; [Site "eXtreme Gammon"]',
        '; [Player 1 "A"]',
        '; [Player 2 "B"]',
        '; [Variation "Backgammon"]',
        '; [Unrated "Off"]',
        '; [Crawford "On"]',
        '; [CubeLimit "1024"]',
        "",
        " 5 point match",
        "",
        " Game 1",
        " A : 0                          B : 0",
        "  1) 31: 8/5 6/5",
    ])
    parsed = read_mat(head)
    match = replay_mat(parsed)
    assert isinstance(match, Match) and match.games[0].rules.max_cube == 1024
    written = write_mat(match, names=parsed.names, metadata=parsed.metadata)
    assert read_mat(written).tags == tuple(
        type(tag)(tag.key, tag.value, tag.line) for tag in parsed.tags
    )


def test_a_file_without_games_and_one_cut_after_a_game() -> None:
    """An unfinished match is a match in progress, not an error."""
    empty = replay_mat(" 3 point match\n")
    assert isinstance(empty, Match) and empty.game.phase is Phase.OPENING
    first_game = vector("double_drop.mat").split(" Game 2")[0]
    match = replay_mat(first_game)
    assert match.score == (0, 1) and match.game.is_over and not match.is_over
    match.new_game()  # the match goes on with fresh dice
    match.game.roll(0)


# -- malformed files ---------------------------------------------------------------------


def replace_line(text: str, number: int, new: str) -> str:
    lines = text.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


DOUBLE_DROP = vector("double_drop.mat")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # bad headers
        ("Game 1\n", r"^line 1: expected the match length"),
        (" 5 points match\n", r"^line 1: expected the match length"),
        ("; only a comment\n", r"^line 1: the file has no match length line"),
        (" 3 point match\n\n Game 2\n", r"^line 3: expected game 1, found game 2"),
        (" 3 point match\n\n Game 1\n Alice 0 Bob 0\n", r"^line 4: expected the names and scores"),
        (replace_line(DOUBLE_DROP, 4, " Alice : 0   Bob : 0   x"), r"^line 4: cannot read 'x'"),
        # illegal moves (R4-R7)
        (replace_line(DOUBLE_DROP, 5, "  1) 52: 24/19 13/11"), r"^line 5: Alice cannot play .*19"),
        (replace_line(DOUBLE_DROP, 5, "  1) 52: 13/11 13/9"),
         r"^line 5: Alice cannot play '13/11 13/9' with 52: .*needs a 4"),
        (replace_line(DOUBLE_DROP, 6, "  2) 63: 24/18 13/10             55:"),
         r"^line 6: Bob rolled 55 but the file gives no play"),
        # wrong dice
        (replace_line(DOUBLE_DROP, 5, "  1) 55: 13/8 13/8 6/1 6/1"),
         r"^line 5: the opening roll cannot be a double like 55: "
         r"equal opening dice are thrown again$"),
        (replace_line(DOUBLE_DROP, 5, "  1) 72: 13/6 13/11"), r"^line 5: 72 is not a roll"),
        (replace_line(DOUBLE_DROP, 5, "  1) 5x: 13/11 13/8"), r"^line 5: cannot read '5x:"),
        # cube actions and results that do not follow (R9, R10, R12)
        (replace_line(DOUBLE_DROP, 8, "  4) 31: 8/5 6/5                  Doubles => 4"),
         r"^line 8: Bob doubles the cube to 2, not 4$"),
        (replace_line(DOUBLE_DROP, 9, "  5)  Drops                       Wins 2 points"),
         r"^line 9: the file says Bob wins 2 points, but Bob won 1 point"),
        (replace_line(DOUBLE_DROP, 9, "  5)  Takes                       Takes"),
         r"^line 9: side 1 cannot take"),
        (replace_line(DOUBLE_DROP, 12, " Alice : 1                      Bob : 0"),
         r"^line 12: game 2 starts at 1-0, but the games before it make the score 0-1"),
        (replace_line(DOUBLE_DROP, 12, " Alice : 0                      Carl : 1"),
         r"^line 12: game 2 is between 'Alice' and 'Carl'"),
        (replace_line(DOUBLE_DROP, 19, " Game 3 (Crawford)"), None),
        (replace_line(DOUBLE_DROP, 21, "  1) 42: 8/4 6/4                  Doubles => 2"),
         r"^line 21: .*no doubling in the Crawford game$"),
        (DOUBLE_DROP + " Game 4\n Alice : 3   Bob : 1\n", r"^line 24: game 4 cannot be played"),
        # truncated files
        (DOUBLE_DROP.split(" Alice : 0                      Bob : 1")[0],
         r"^line 11: game 2 stops before its score line"),
        (replace_line(DOUBLE_DROP, 6, "  2) 63: 24/18 13/1"),
         r"^line 6: Alice cannot play '24/18 13/1' with 63: 13/1 needs 12"),
        ("\n".join(DOUBLE_DROP.splitlines()[:7] + DOUBLE_DROP.splitlines()[10:]) + "\n",
         None),
        ("\n".join([
            *DOUBLE_DROP.splitlines()[:7],
            " Game 2",
            " Alice : 1                      Bob : 1",
            *DOUBLE_DROP.splitlines()[12:],
        ]) + "\n",
         r"^line 7: game 1 has no 'Wins' line and is not over, and the score of game 2 "
         r"does not tell who won it$"),
    ],
)
def test_malformed_files_name_the_line(text: str, message: str | None) -> None:
    if message is None:  # a marked Crawford game that is one, or a result left out: accepted
        assert replay_mat(text).games[-1].rules.crawford
        return
    with pytest.raises(MatFileError, match=message):
        replay_mat(text)


def test_a_crawford_marker_on_a_normal_game_is_refused() -> None:
    text = replace_line(DOUBLE_DROP, 11, " Game 2 (Crawford)")
    with pytest.raises(MatFileError, match=r"^line 11: game 2 is marked as the Crawford game"):
        replay_mat(text)


@pytest.mark.parametrize(
    ("head", "message"),
    [
        ('; [Variation "Chess"]\n 3 point match\n', r"^line 1: unknown Variation 'Chess'"),
        ('; [Crawford "Maybe"]\n 3 point match\n', r'^line 1: Crawford is "On" or "Off"'),
        ('; [CubeLimit "12"]\n 3 point match\n', r"^line 1: CubeLimit is a power of two"),
        ('; [Jacoby "On"]\n 3 point match\n', r"Jacoby tag is for money sessions"),
        ('; [Stakes "0"]\n 0 point match\n', r"^line 1: Stakes is one or two positive"),
    ],
)
def test_bad_rule_tags(head: str, message: str) -> None:
    with pytest.raises(MatFileError, match=message):
        replay_mat(head)


# -- writing errors -------------------------------------------------------------------------


def test_names_and_metadata_that_cannot_be_written() -> None:
    match = Match(3)
    with pytest.raises(MatFileError, match="cannot write the name 'A:B'"):
        write_mat(match, names=("A:B", "C"))
    with pytest.raises(MatFileError, match="must be some text"):
        write_mat(match, names=("", "C"))
    with pytest.raises(MatFileError, match=r"cannot write the tag 'Site'"):
        write_mat(match, metadata={"Site": 'say "hi"'})
    with pytest.raises(MatFileError, match=r'says \[Crawford "Off"\], but the match was played'):
        write_mat(match, metadata={"Crawford": "Off"})
    with pytest.raises(MatFileError, match="Jacoby is for money sessions only"):
        write_mat(match, metadata={"Jacoby": "Off"})
    with pytest.raises(MatFileError, match="only a Match or a Session"):
        write_mat(Game())  # type: ignore[arg-type]
    # Rule tags that agree with the series are kept as given.
    assert write_mat(match, metadata={"Crawford": "On"}).startswith('; [Crawford "On"]\n')


def test_resignations_the_cells_cannot_show_go_to_a_head_tag() -> None:
    """R9: a refused offer, and a gammon resigned without gammons (it scores 1), are listed
    in the head, where GNU Backgammon ignores them; the rows stay what it reads."""
    match = Match(3, gammons=False, dice=ScriptedDice([(4, 2)]))
    match.game.roll(0)
    match.game.resign(1, 1)
    match.game.reject_resignation(0)
    match.game.resign(1, 2)
    match.game.accept_resignation(0)
    text = write_mat(match)
    assert text.splitlines()[:2] == [
        '; [Gammons "Off"]',
        '; [Resignations "game 1 event 1: side 1 resigns 1, rejected; '
        'game 1 event 3: side 1 resigns 2, accepted"]',
    ]
    assert "Resigns" not in text.split(" point match")[1]
    assert "Rejects" not in text
    assert "  1) 42:" in text and "      Wins 1 point" in text
    again = round_trip(match)
    assert again.games[0].history[1:5] == match.games[0].history[1:5]


def test_resignations_offered_in_the_middle_of_a_turn_and_pending() -> None:
    """An offer between a roll and its play, and one still waiting, come back where they were."""
    match = Match(5, dice=ScriptedDice([(3, 1), (6, 4)]))
    game = match.game
    game.roll(0)
    game.resign(1, 3)
    game.reject_resignation(0)
    game.play(0, "8/5 6/5")
    game.roll(1)
    game.resign(0, 1)
    text = write_mat(match)
    assert '"game 1 event 1: side 1 resigns 3, rejected; game 1 event 5: side 0 resigns 1"' in text
    assert "  1) 31: 8/5 6/5                 64:" in text
    again = round_trip(match)
    assert again.game.phase is Phase.RESIGNATION_OFFERED and again.game.resignation == (0, 1)


def test_old_resignation_cells_still_read() -> None:
    """Files of earlier versions wrote "Resigns N" and "Rejects" cells."""
    text = (
        " 3 point match\n\n Game 1\n A : 0                          B : 0\n"
        "  1) 42:                          Resigns 1\n"
        "  2)  Rejects                     Resigns 2\n"
        "      Wins 1 point\n"
    )
    match = replay_mat(text.replace(" 3 point match", '; [Gammons "Off"]\n 3 point match'))
    assert [type(e).__name__ for e in match.games[0].history[1:5]] == [
        "Resigned", "ResignationRejected", "Resigned", "ResignationAccepted"
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('; [OpeningTies "1: 12"]\n 1 point match\n', r"^line 1: the OpeningTies tag lists"),
        ('; [Resignations "game 1: side 1"]\n 1 point match\n',
         r"^line 1: the Resignations tag lists offers"),
        ('; [Resignations "game 1 event 5: side 1 resigns 2"]\n 1 point match\n Game 1\n'
         " A : 0  B : 0\n  1) 31: 8/5 6/5\n",
         r"^line 1: the Resignations tag's offer at game 1 event 5 does not fit the game"),
        ('; [Resignations "game 1 event 0: side 1 resigns 2"]\n 1 point match\n Game 1\n'
         " A : 0  B : 0\n  1) 31: 8/5 6/5\n",
         r"^line 1: the Resignations tag's offer at game 1 event 0 cannot be made: "),
    ],
)
def test_bad_history_tags_are_named(text: str, message: str) -> None:
    with pytest.raises(MatFileError, match=message):
        replay_mat(text)


def test_parsed_match_is_a_plain_value() -> None:
    parsed = read_mat(vector("dance.mat"))
    assert parsed == read_mat(vector("dance.mat"))
    assert isinstance(parsed, ParsedMatch)
    with pytest.raises(AttributeError):
        parsed.length = 3  # type: ignore[misc]


# -- forfeits and losses on time (R13) ---------------------------------------------------


@pytest.mark.parametrize("on_time", [False, True])
def test_a_forfeited_match_writes_and_replays_with_its_ending(on_time: bool) -> None:
    match = Match(5, dice=RandomDice(21))
    match.apply(Roll(0))
    mover = match.game.turn
    assert mover is not None
    match.apply(PlayDice(mover, match.game.legal_plays()[0]))
    match.apply(Roll(1 - mover))
    match.apply(OutOfTime(1 - mover) if on_time else Forfeit(1 - mover))
    text = write_mat(match, names=("alice", "bob"))
    expected = '; [Forfeit "Game 1 on time"]' if on_time else '; [Forfeit "Game 1"]'
    assert text.splitlines()[0] == expected and "Wins 5 points" in text
    replayed = replay_mat(text)
    assert replayed.histories == match.histories and replayed.is_over
    assert write_mat(replayed, names=("alice", "bob"), metadata=read_mat(text).metadata) == text


def test_a_forfeited_session_replays_at_the_cube_value() -> None:
    session = Session(dice=ScriptedDice([(6, 1)]))
    session.apply(Roll(0))
    session.apply(Forfeit(0))
    replayed = replay_mat(write_mat(session))
    assert replayed.is_over and replayed.net == -1 and replayed.histories == session.histories


def test_a_bad_forfeit_tag_is_named() -> None:
    with pytest.raises(MatFileError, match='the Forfeit tag is "Game N" or "Game N on time"'):
        replay_mat('; [Forfeit "yesterday"]\n\n 1 point match\n')


# -- files of the online sites (issue 19) ----------------------------------------------------

FIBS_TAKEN_UP = vector("fibs_taken_up.mat")


def test_galaxy_caps_a_match_winning_gammon_at_what_was_needed() -> None:
    """R9, R12: the site writes 3 points for a gammon on a cube of 4 that won the match; the
    game is read as it was (a gammon, 8 points by the rules, as GNU Backgammon reads it)."""
    text = vector("galaxy_capped.mat")
    assert "Wins 3 point and the match" in text
    assert read_mat(text).games[0].points == 3  # the site's figure stays in the record
    match = replay_mat(text)
    result = match.games[0].result
    assert result is not None
    assert (result.winner, result.points, result.kind, result.reason) == (
        0, 8, WinKind.GAMMON, EndReason.BEAR_OFF,
    )
    assert match.is_over and match.winner == 0
    again = replay_mat(write_mat(match, names=("joust", "Carla")))
    assert again.histories == match.histories
    # A cap is only ever what the winner needed: any other figure is still refused.
    with pytest.raises(MatFileError, match=r"^line 26: the file says joust wins 2 points, but"):
        replay_mat(text.replace("Wins 3 point and the match", "Wins 2 points"))


def test_galaxy_caps_a_match_winning_resignation_alike() -> None:
    """R9, R12: 3 points after a resignation with the cube on 2 is a resigned gammon (4),
    capped at the 3 the winner needed, as for a gammon played out (not a forfeit)."""
    rows = vector("galaxy_capped.mat").split("  5)")[0]
    text = rows + "  5) 51: 18/13 24/23*\n      Wins 3 point and the match\n"
    match = replay_mat(text)
    history = match.games[0].history
    assert history[-3:-1] == (Resigned(1, 2), ResignationAccepted(0))
    result = match.games[0].result
    assert result is not None and (result.kind, result.points) == (WinKind.GAMMON, 4)
    assert match.is_over and replay_mat(write_mat(match)).histories == match.histories


@pytest.mark.parametrize("play", ["????", "51: ????"])
def test_a_result_no_cube_and_no_match_length_allow_is_refused(play: str) -> None:
    """Backgammon Studio's `32: ????` then `Wins 4016 point` in a 3-point match: the roll is
    read as a roll whose play the file does not show (as GNU Backgammon reads it), and the
    result, which no resignation (3 times the cube) and no forfeit (what was needed) gives,
    is refused on its line."""
    rows = vector("galaxy_capped.mat").split("  5)")[0]
    cell = play if ":" in play else f"51: {play}"
    text = rows + f"  5) {cell}\n      Wins 4016 point\n"
    with pytest.raises(
        MatFileError,
        match=r"^line 12: joust wins 4016 points, but no result gives that: with the cube at 2 "
        r"a game not played out is worth at most 6, and joust needed only 3 to win the match$",
    ):
        replay_mat(text)
    assert read_mat(text).games[0].turns[-1].play == ""  # the roll stands, its play unknown
    money = text.replace(" 3 point match", " 0 point match")
    with pytest.raises(MatFileError, match=r"^line 12: joust wins 4016 points, but no result"):
        replay_mat(money)


def test_a_match_taken_up_at_a_score() -> None:
    """R12: a FIBS match whose first game starts at 0-2 is read from that score; nori at
    2 of 3 plays the Crawford game first, and the scores after it follow on."""
    match = replay_mat(FIBS_TAKEN_UP)
    assert isinstance(match, Match)
    assert match.start_score == (0, 2) and match.score == (1, 3) and match.winner == 1
    assert [game.rules.crawford for game in match.games] == [True, False]
    written = write_mat(match, names=("Rusty,1658", "nori,1764"))
    assert " Rusty,1658 : 0                 nori,1764 : 2" in written
    assert replay_mat(written).histories == match.histories
    assert replay_mat(written).start_score == (0, 2)
    # The later games must still agree with the scores before them.
    wrong = FIBS_TAKEN_UP.replace(" Rusty,1658 : 1   ", " Rusty,1658 : 0   ")
    with pytest.raises(MatFileError, match=r"^line 12: game 2 starts at 0-2, but the games"):
        replay_mat(wrong)
    over = FIBS_TAKEN_UP.replace("nori,1764 : 2\n  1) 52", "nori,1764 : 3\n  1) 52")
    with pytest.raises(MatFileError, match=r"^line 6: game 1 starts at 0-3, but a 3-point match"):
        replay_mat(over)


def test_a_match_can_be_taken_up_at_a_score_by_the_rules_library() -> None:
    match = Match(5, score=(3, 4), dice=ScriptedDice([(3, 1)]))
    assert match.score == (3, 4) and match.game.rules.crawford  # R12: 4 of 5 is N-1
    assert Match(5).start_score == (0, 0)
    with pytest.raises(ValueError, match=r"taken up at a score of two whole numbers from 0 to 4"):
        Match(5, score=(5, 0))
    with pytest.raises(ValueError, match="a money session starts at 0-0"):
        Session.from_rules(Session().rules, score=(1, 0))


def test_a_money_session_whose_score_lines_restart_at_zero() -> None:
    """R11: some sites write every game of a money session at 0 : 0; the header's score is
    no rule there, so the games are read as they are."""
    text = vector("money_restart.mat")
    session = replay_mat(text)
    assert isinstance(session, Session) and session.payouts == (1, 2, 1)
    assert session.score == (3, 1)
    # Running scores that do not add up are still refused (GNU's files, which also tell
    # the Jacoby rule by them), and so is a match whose scores restart.
    lines = text.splitlines()
    lines[13] = " Alice : 0                      Bob : 1"
    lines[21] = " Alice : 1                      Bob : 1"
    running = "\n".join(lines) + "\n"
    with pytest.raises(MatFileError, match=r"^line 22: game 3 starts at 1-1, but the games"):
        replay_mat(running)
    with pytest.raises(MatFileError, match=r"^line 14: game 2 starts at 0-0, but the games"):
        replay_mat(text.replace(" 0 point match", " 3 point match"))


def test_a_corrupt_cell_is_refused_on_its_line() -> None:
    """A FIBS board dump in a Snowie file (``Illegal play (25;0;1;...)``): GNU Backgammon reads
    past it as an edited position; here it is refused with its line, since nothing in the
    file says what the position became and the rules cannot check the games after it."""
    text = replace_line(
        vector("double_drop.mat"), 6, "  2) 63: Illegal play (25;0;1;0;0;-2;0;5)   55: 13/8 13/8"
    )
    with pytest.raises(MatFileError, match=r"^line 6: .*Illegal play"):
        replay_mat(text)
