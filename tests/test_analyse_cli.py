"""``gammon analyse``: a bot-played match written as .mat, analysed at 0-ply."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gammon.cli import main
from gammon.cli.analyse import READERS, load
from gammon.dice import RandomDice
from gammon.engine.analysis import analyse
from gammon.engine.bot import Bot
from gammon.events import Passed, PassReason, Rolled
from gammon.match import Match
from gammon.matfile import replay_mat, write_mat
from tests.engine.test_analysis import _finish
from tests.engine.test_report import well_formed
from tests.xg_writer import write_xg

NAMES = ("Alice", "Bob")


@pytest.fixture(scope="module")
def mat_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    match = Match(1, dice=RandomDice(5))
    _finish(match, (Bot("beginner", seed=1), Bot("casual", seed=2)))
    path = tmp_path_factory.mktemp("analyse") / "match.mat"
    path.write_text(write_mat(match, names=NAMES), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_summary_names_both_players_and_their_figures(
    mat_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "analyse", str(mat_file), "--ply", "0", "--mistakes", "2")
    assert status == 0, err
    analysis = analyse(load(str(mat_file)).series, names=NAMES, ply=0)
    assert out.startswith(
        "Alice vs Bob: 1-point match, 1 game, analysed by the gammon engine at 0-ply"
    )
    for player in analysis.players:
        assert f"{player.rating:.1f} ({player.rating_words})" in out
        assert f"{player.checker_decisions} ({player.forced_plays})" in out
    worst = analysis.mistakes()
    assert f"The 2 worst mistakes (of {len(worst)} doubtful or worse):" in out
    assert out.count("Position ID:") == 2 and "Why: " in out
    assert out.count("  Played: ") == 2
    # A match's figures in match winning chance, named (the mistakes are checker plays).
    played = [line for line in out.splitlines() if line.startswith("  Played: ")]
    assert all(line.endswith("% match winning chance") for line in played), played
    assert "equity +" not in out and "equity -" not in out


def test_json_parses_and_agrees_with_the_library(
    mat_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "report.json"
    status, out, _ = run(capsys, "analyse", str(mat_file), "--ply", "0", "--json", str(target))
    assert status == 0 and f"Report written to {target}" in out
    document = json.loads(target.read_text(encoding="utf-8"))
    analysis = analyse(load(str(mat_file)).series, names=NAMES, ply=0)
    assert document["players"] == json.loads(analysis.to_json())["players"]
    assert document["names"] == list(NAMES)
    assert document["explanations"] and all(e["text"] for e in document["explanations"])


def test_html_is_well_formed_and_self_contained(
    mat_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "report.html"
    status, _, _ = run(capsys, "analyse", str(mat_file), "--ply", "0", "--html", str(target))
    assert status == 0
    page = target.read_text(encoding="utf-8")
    checker = well_formed(page)
    assert checker.svgs >= 2 and all(link.startswith("#") for link in checker.links)
    assert "Alice" in page and "Bob" in page


def test_bad_input_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "analyse", str(tmp_path / "missing.mat"))
    assert status == 2 and "cannot read" in err
    broken = tmp_path / "broken.mat"
    broken.write_text(" 1 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 6/4\n")
    status, _, err = run(capsys, "analyse", str(broken), "--ply", "0")
    assert status == 2 and "line 4" in err
    status, _, err = run(capsys, "analyse", str(broken), "--json", "a", "--html", "b")
    assert status == 2 and "not allowed with" in err


def test_each_format_is_one_reader() -> None:
    assert {".mat", ".sgf", ".xg"} <= set(READERS)


def test_extreme_gammon_xg_files_are_analysed(
    mat_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An .xg file (from the test-only writer) is analysed like the .mat of the same match."""
    series = load(str(mat_file)).series
    path = tmp_path / "match.xg"
    path.write_bytes(write_xg(series, NAMES))
    assert load(str(path)).series.histories == series.histories
    status, out, _ = run(capsys, "analyse", str(path), "--ply", "0", "--mistakes", "1")
    assert status == 0 and "Alice" in out and "PR" in out
    broken = tmp_path / "broken.xg"
    broken.write_bytes(b"RGMH" + bytes(10))
    status, _, err = run(capsys, "analyse", str(broken), "--ply", "0")
    assert status == 2 and "the .xg file stops inside its header: it is cut short" in err


def test_gnu_backgammon_sgf_files_are_analysed(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).parent / "vectors" / "gnubg" / "bots_5pt.sgf"
    loaded = load(str(path))
    assert loaded.series.is_over
    status, out, _ = run(capsys, "analyse", str(path), "--ply", "0", "--mistakes", "1")
    assert status == 0 and "5-point match" in out and "PR" in out


def test_recorded_dances_and_a_match_taken_up_at_a_score_are_analysed() -> None:
    """R7: a dance the file keeps is no decision and has no luck; a match taken up at a
    score is analysed at that score (R12)."""
    vectors = Path(__file__).parent / "vectors"
    match = replay_mat((vectors / "closed_board.mat").read_text())
    history = match.games[0].history
    dances = {i for i, e in enumerate(history) if isinstance(e, Rolled) and isinstance(
        history[i + 1], Passed) and history[i + 1].reason is PassReason.CLOSED_BOARD}
    assert len(dances) == 5
    analysis = analyse(match, names=NAMES, ply=0, luck_ply=0)
    (game,) = analysis.games
    assert not {review.index for review in game.luck} & dances
    assert not {review.index for review in game.checker} & {i + 1 for i in dances}
    taken_up = replay_mat((vectors / "fibs_taken_up.mat").read_text())
    assert analyse(taken_up, ply=0, luck_ply=0).games[0].cube == ()  # the Crawford game


@pytest.mark.parametrize(
    ("lang", "first", "worst", "played", "why"),
    [
        ("fi", "Alice \u2013 Bob: 1 pisteen ottelu, 1 peli, analysoinut gammon-moottori, 0-ply",
         "2 pahinta virhettä (", "  Pelattu: ", "  Miksi: "),
        ("nl", "Alice tegen Bob: match tot 1 punt, 1 partij, geanalyseerd door de engine "
         "gammon op 0-ply", "De 2 ergste fouten (van ", "  Gespeeld: ", "  Waarom: "),
    ],
)  # fmt: skip
def test_lang_speaks_the_report_in_the_language(
    mat_file: Path, capsys: pytest.CaptureFixture[str], lang: str, first: str, worst: str,
    played: str, why: str,
) -> None:  # fmt: skip
    """--lang: the report's own words in the language, its figures with the language's
    decimal comma; the same figures and mistakes as in English."""
    status, out, err = run(
        capsys, "analyse", str(mat_file), "--ply", "0", "--mistakes", "2", "--lang", lang
    )
    assert status == 0, err
    assert out.startswith(first)
    assert worst in out and out.count(played) == 2 and why in out
    assert "Played:" not in out and "Better:" not in out and "worst mistake" not in out
    _, english, _ = run(capsys, "analyse", str(mat_file), "--ply", "0", "--mistakes", "2")
    # The same boards (their Position IDs) in the same order, whatever the language.
    ids = [line for line in english.splitlines() if "Position ID:" in line]
    assert [line for line in out.splitlines() if "Position ID:" in line] == ids
