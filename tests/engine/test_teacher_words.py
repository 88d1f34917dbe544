"""The teacher's words read against its own figures (issue 16: "wins 68% of the games ...
That is below the doubling window, which opens at 65%").

Some hundreds of decisions of seeded games (money games and 5-point matches of random
plays and a random cube, so that every kind of mistake comes up) are analysed at 0-ply
and explained; each explanation, and the tutor's verdict on the same plays, is read as a
player reads it: every number is taken out of the sentences and compared with the
analysis' own figures (chances, shots, pips, losses, the cube model's doubling window
and take point), every claim that a chance is below, inside or above a threshold is
checked against both the figures shown and the figures behind them, the action the
words recommend is the verdict's, and no number is left without its unit.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator

import pytest

from gammon.dice import RandomDice
from gammon.engine.analysis import Analysis, CheckerReview, CubeReview, analyse
from gammon.engine.analysis.explain import (
    Explanation,
    cube_model,
    cube_state_of,
    explain_cube,
    shape_of,
)
from gammon.engine.analysis.patterns import patterns
from gammon.engine.analysis.report import Report, summary_rows
from gammon.game import Game
from gammon.match import Match
from gammon.position import Position
from gammon.server.practice import tutor_verdict

NAMES = ("Ann", "Bob")
#: Each figure's unit, as the words must say it (a point's name, "the 7-point", counts as
#: a name, not a figure; plays and names are taken out before the text is read).
UNITS = (
    r"\d+(?:\.\d)?% of the games",
    r"\d+(?:\.\d)?% to \d+(?:\.\d)?% of the games",
    r"\d+(?:\.\d)?% gammons",
    r"\d+(?:\.\d)?% of the time",
    r"\d+\.\d% in match winning chance",
    r"\d+\.\d{3} in equity",
    r"\d+ of 36 rolls",
    r"\d+ pips?",
    r"\d+ to \d+ pips",
    r"\d+ checkers?",
    r"\d+ points? in a row",
    r"\d+-point prime",
    r"\d+-point",
    r"\d+-(?:,| and)",
    r"the \d+- to",
)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _random_actions(game: Game, rng: random.Random) -> None:
    """Play ``game`` out with random plays and a random cube: doubles one turn in five,
    takes three in five."""
    while not game.is_over:
        side = game.turn
        assert side is not None
        actions = {type(action).__name__ for action in game.legal_actions(side)}
        if "Take" in actions:
            (game.take if rng.random() < 0.6 else game.drop)(side)
        elif "Double" in actions and rng.random() < 0.2:
            game.double(side)
        elif "Roll" in actions:
            game.roll(side)
        elif plays := game.legal_plays():
            game.play(side, rng.choice(plays))
        else:
            game.roll(side)


def _money_game(seed: int) -> Game:
    game = Game(dice=RandomDice(seed))
    game.roll(0)
    _random_actions(game, random.Random(seed))
    return game


def _match(seed: int) -> Match:
    match = Match(5, dice=RandomDice(1000 + seed))
    rng = random.Random(seed)
    while not match.is_over:
        if match.game.is_over:
            match.new_game()
        game = match.game
        if game.turn is None:
            game.roll(0)
        _random_actions(game, rng)
    return match


@pytest.fixture(scope="module")
def reviewed() -> list[tuple[Analysis, Report]]:
    """Seeded money games and matches, analysed at 0-ply, with the teacher's words."""
    found = []
    for seed in range(10):
        analysis = analyse(_money_game(seed), names=NAMES, ply=0)
        found.append((analysis, Report.build(analysis)))
    for seed in range(4):
        analysis = analyse(_match(seed), names=NAMES, ply=0)
        found.append((analysis, Report.build(analysis)))
    return found


def _decisions(reviewed: list[tuple[Analysis, Report]]) -> Iterator[tuple[Report, Explanation]]:
    for _, report in reviewed:
        for explanation in report.explanations:
            yield report, explanation


# -- reading the words ----------------------------------------------------------------------


def unnamed_figures(text: str, names: tuple[str, ...]) -> list[str]:
    """The numbers in ``text`` that no unit names (after the plays and names in ``names``
    are taken out)."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "PLAY")
    covered = [False] * len(text)
    for unit in UNITS:
        for found in re.finditer(unit, text):
            covered[found.start() : found.end()] = [True] * (found.end() - found.start())
    return [
        found.group()
        for found in _NUMBER.finditer(text)
        if not all(covered[found.start() : found.end()])
    ]


def _shown(text: str) -> tuple[float, int]:
    """A per cent as written, and its decimals."""
    return float(text), len(text.partition(".")[2])


def assert_shows(text: str, value: float, what: str, context: str) -> float:
    """``text`` (a per cent as the words write it) is ``value`` rounded; its number back."""
    shown, digits = _shown(text)
    assert abs(shown - 100.0 * value) <= 0.5 / 10**digits + 1e-9, (
        f"{what}: the words say {text}%, the figure is {100 * value:.3f}%: {context}"
    )
    return shown


def _play(play: str) -> str:
    """A play as a pattern, not matched inside a longer play."""
    return rf"(?<![\w/*()]){re.escape(play)}(?![\w/*(])"


# -- the checks: checker plays --------------------------------------------------------------


def check_checker(review: CheckerReview, why: Explanation, checkers: int = 15) -> int:
    """Every claim of a checker play's explanation against the boards and the review's
    figures; how many numbers were compared."""
    best, played = review.best.play, review.played
    text = why.text
    assert (why.better, why.played) == (best, played), text
    compared = 0
    # Which play is better: every concession is the better play's, and the first fact
    # says what the better play does or what the play made costs.
    for fact in why.facts:
        if "is still better" in fact:
            assert fact.startswith(best), fact
    first = why.facts[0]
    assert "is still better" not in first, why.facts
    conceded = [i for i, fact in enumerate(why.facts) if "is still better" in fact]
    said = [i for i, fact in enumerate(why.facts) if "is still better" not in fact]
    if conceded:  # what the play made has for it comes after what speaks against it
        assert max((i for i in said if not why.facts[i].startswith("After")), default=-1) < min(
            conceded
        )
    if not first.startswith((best, "After", "As the engine plays the position on")):
        assert first.startswith(played), first
        verb = first[len(played) :].split()[0]
        assert verb in ("leaves", "breaks", "gives", "stacks", "wastes"), first
    # The boards after each play.
    assert review.position_id is not None
    before = Position.from_id(review.position_id, checkers=checkers)
    shapes = {
        play: shape_of(before.parse_play(play, review.dice).position) for play in (best, played)
    }
    for play, shape in shapes.items():
        for found in re.finditer(
            _play(play) + r" leaves (?:a blot|blots) on [^:,]*[:,] (?:where )?(\d+) of 36", text
        ):
            assert int(found[1]) == shape.shots, (play, shape, text)
            compared += 1
    if found := re.search(r"hits, costing the opponent (\d+) pips?", text):
        assert int(found[1]) == abs(shapes[best].pips[1] - shapes[played].pips[1]), text
        compared += 1
    for found in re.finditer(r"(?:lead|trail) by (\d+) pips? \((\d+) to (\d+) pips\)", text):
        assert int(found[1]) == abs(int(found[3]) - int(found[2])), text
        compared += 1
    for play, shape in shapes.items():
        if found := re.search(_play(play) + r" makes the ([\d\-, and]+)-points?", text):
            named = {int(n) for n in re.findall(r"\d+", found[1])}
            assert named <= shape.made, (play, named, text)
            compared += 1
    # The engine's chances after each play.
    candidates = {c.play: c for c in review.candidates}
    for play in (best, played):
        if found := re.search(r"(?i:after) " + _play(play) + r" you win (\d+)%", text):
            assert_shows(found[1], candidates[play].chances[0], f"{play} wins", text)
            compared += 1
    # A loss in its unit: equity for money, match winning chance in a match.
    worth = (
        rf"{_play(best)} is better than {_play(played)} by (\d+\.\d+)(%)? in "
        "(equity|match winning chance)"
    )
    if found := re.search(worth, text):
        if found[3] == "equity":
            assert review.best.mwc is None, text
            assert abs(float(found[1]) - review.loss) <= 0.0005 + 1e-9, text
        else:
            mine = candidates[played].mwc
            assert review.best.mwc is not None and mine is not None, text
            assert_shows(found[1], review.best.mwc - mine, "the loss", text)
        compared += 1
    return compared


# -- the checks: the cube -------------------------------------------------------------------


def _relation(claim: str, chance: float, threshold: float, text: str) -> None:
    below = claim in ("below", "short of")
    if below:
        assert chance < threshold, text
    else:
        assert chance >= threshold, text


def check_cube(review: CubeReview, why: Explanation, checkers: int = 15) -> int:
    """Every figure and every claim of a cube explanation against the review's chances, the
    cube model's window and take point, and the verdict; how many numbers were compared."""
    text = why.text
    doubler, taker = NAMES[review.side], NAMES[1 - review.side]
    win, win_gammon, _, lose_gammon, _ = review.chances
    model = cube_model(review, checkers)
    assert model is not None, text
    compared = 0
    shown: dict[str, float] = {}
    if found := re.search(rf"{doubler} wins (\d+(?:\.\d)?)% of the games", text):
        shown["win"] = assert_shows(found[1], win, "the doubler's chance", text)
        compared += 1
    if found := re.search(rf"{taker} wins (\d+(?:\.\d)?)% of the games", text):
        shown["taker"] = assert_shows(found[1], 1.0 - win, "the taker's chance", text)
        compared += 1
    if found := re.search(r"\((\d+(?:\.\d)?)% gammons\) and loses a gammon (\d+(?:\.\d)?)%", text):
        assert_shows(found[1], win_gammon, "gammons", text)
        assert_shows(found[2], lose_gammon, "gammons lost", text)
        compared += 2
    if why.kind == "answer":
        assert "taker" in shown, text
        gammon = rf"{taker} wins [\d.]+% of the games and loses a gammon (\d+(?:\.\d)?)%"
        if found := re.search(gammon, text):
            assert_shows(found[1], win_gammon, "the taker's gammons lost", text)
            compared += 1
    else:
        assert "win" in shown, text
    # The thresholds, as the words give them, are the model's.
    pct = r"(\d+(?:\.\d)?)%"
    if found := re.search(rf"doubling window, which opens at {pct} of the games", text):
        assert model.doubling_point is not None
        shown["opens"] = assert_shows(found[1], model.doubling_point, "the window", text)
        compared += 1
    if found := re.search(rf"doubling window \({pct} to {pct} of the games\)", text):
        assert model.doubling_point is not None
        shown["opens"] = assert_shows(found[1], model.doubling_point, "the window", text)
        shown["cash"] = assert_shows(found[2], model.cash_point, "the cash point", text)
        compared += 2
    if found := re.search(rf"cash point (?:of |\(){pct} of the games", text):
        shown["cash"] = assert_shows(found[1], model.cash_point, "the cash point", text)
        compared += 1
    if found := re.search(rf"take point of {pct} of the games", text):
        shown["take"] = assert_shows(found[1], model.take_point, "the take point", text)
        compared += 1
    # Each claim holds of the figures behind the words and reads so in the figures shown.
    claims = 0
    for found in re.finditer(r"(below|inside|above) the doubling window", text):
        assert model.doubling_point is not None
        claims += 1
        if found[1] == "inside":
            assert model.doubling_point <= win < model.cash_point, text
            assert shown["opens"] <= shown["win"] <= shown.get("cash", 100.0), text
        elif found[1] == "below":
            assert win < model.doubling_point and shown["win"] <= shown["opens"], text
        else:
            assert win >= model.cash_point and shown["win"] >= shown["cash"], text
    for found in re.finditer(r"(past|short of) the cash point", text):
        claims += 1
        _relation(found[1], win, model.cash_point, text)
        _relation(found[1], shown["win"], shown["cash"] + (0 if found[1] == "past" else 1e-9), text)
    for found in re.finditer(r"(above|below) the take point", text):
        claims += 1
        _relation(found[1], 1.0 - win, model.take_point, text)
        assert (
            (shown["taker"] >= shown["take"])
            if found[1] == "above"
            else (shown["taker"] <= shown["take"])
        ), text
    assert claims or "too good" in text.lower() or "never gains" in text, text
    # The action the words recommend is the verdict's.
    verdict = review.verdict.lower()
    if why.kind == "double":
        assert why.better == review.verdict
        if "too early to double" in text:
            assert review.doubled and verdict.startswith("no "), text
        if "too good to double" in text:
            assert review.doubled and verdict.startswith("too good"), text
        if "should double" in text or "double, and" in text:
            assert not review.doubled and verdict.startswith(("double", "redouble")), text
        if "should pass" in text:
            assert verdict.endswith("pass"), text
        if "should take" in text:
            assert verdict.endswith(("take", "beaver")), text
    else:
        assert why.better == ("pass" if verdict.endswith("pass") else "take"), text
        assert ("taking loses less" in text) == (why.better == "take"), text
    return compared + claims


# -- the tests ------------------------------------------------------------------------------


def test_no_explanation_contradicts_its_figures_or_leaves_a_figure_unnamed(
    reviewed: list[tuple[Analysis, Report]],
) -> None:
    checked = compared = 0
    kinds: set[str] = set()
    for analysis, report in reviewed:
        checker = {(r.game, r.index): r for r in analysis.checker}
        cube = {(r.game, r.index): r for r in analysis.cube}
        for why in report.explanations:
            plays: tuple[str, ...] = NAMES
            if why.kind == "checker":
                review = checker[(why.game, why.index)]
                compared += check_checker(review, why)
                plays += tuple(c.play for c in review.candidates)
            else:
                compared += check_cube(cube[(why.game, why.index)], why)
            assert unnamed_figures(why.text, plays) == [], why.text
            checked += 1
            kinds.add(f"{why.kind} {analysis.unit.value}")
    assert checked >= 300 and compared >= 600, (checked, compared)
    assert kinds == {f"{k} {u}" for k in ("checker", "double", "answer") for u in ("equity", "mwc")}


def test_chances_next_to_a_threshold_read_on_the_right_side_of_it(
    reviewed: list[tuple[Analysis, Report]],
) -> None:
    """The reviewed cube decisions again, with the doubler's chance moved to just below and
    just above the doubling point and the cash point (the verdict kept, as a deeper search
    can keep it against the chances): the words say on which side the chance is, in
    figures precise enough to show it, and still recommend the verdict's action."""
    reviews = [
        review
        for analysis, report in reviewed
        for review in analysis.cube
        if report.explanations_of(review) and review.position_id is not None
    ]
    checked = 0
    for review in reviews[:80]:
        model = cube_model(review, 15)
        assert model is not None
        _, win_gammon, win_backgammon, lose_gammon, lose_backgammon = review.chances
        for threshold in (model.doubling_point, model.cash_point):
            if threshold is None:
                continue
            for step in (-0.002, 0.002):
                win = min(max(threshold + step, win_gammon), 1.0 - lose_gammon)
                moved = dataclasses.replace(
                    review, chances=(win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)
                )
                for why in explain_cube(moved, NAMES):
                    check_cube(moved, why)
                    assert unnamed_figures(why.text, NAMES) == [], why.text
                    checked += 1
    assert checked >= 150


def test_the_summary_counts_the_cube_mistakes_its_patterns_count(
    reviewed: list[tuple[Analysis, Report]],
) -> None:
    """The summary said "12 missed doubles" beside the habit "Ignoring the cube (3x)"."""
    counted = 0
    for analysis, report in reviewed:
        for side, player in enumerate(analysis.players):
            found = {p.key: p.count for p in patterns(report.explanations, side)}
            assert player.missed_doubles == found.get("missed-double", 0)
            assert player.wrong_doubles == found.get("early-double", 0) + found.get("too-good", 0)
            assert player.wrong_takes == found.get("hopeless-take", 0)
            assert player.wrong_passes == found.get("wrong-pass", 0)
            counted += player.missed_doubles + player.wrong_doubles + player.wrong_passes
    assert counted >= 20


def test_every_figure_of_the_review_document_names_its_unit(
    reviewed: list[tuple[Analysis, Report]],
) -> None:
    """A match's reviews carry match winning chances, money's do not; the summary's rows
    with figures say their unit."""
    for analysis, report in reviewed:
        document = report.to_dict()
        match = bool(analysis.match_length)
        assert document["unit"] == ("mwc" if match else "equity")
        assert document["unit_words"] == analysis.unit.words
        for game in document["games"]:
            for review in game["checker"]:
                assert all((c["mwc"] is not None) == match for c in review["candidates"])
            for review in game["cube"]:
                for key in ("no_double_mwc", "double_take_mwc", "double_pass_mwc"):
                    assert (review[key] is not None) == match
                if match:  # the MWC figures are the normalised ones on another scale
                    assert (review["double_pass_mwc"] >= review["no_double_mwc"]) == (
                        review["double_pass"] >= review["no_double"]
                    )
        for label, left, right in summary_rows(analysis.players, analysis.match_length):
            if any("." in value or "%" in value for value in (left, right)):
                unit = "match winning chance" if match else "equity"
                assert f"in {unit}" in label or "in points" in label or "(PR" in label, label
        page = report.to_html()
        assert f"Figures are in {analysis.unit.words}" in page


def test_the_tutor_names_its_unit_and_agrees_with_the_hints(
    reviewed: list[tuple[Analysis, Report]],
) -> None:
    """The tutor's verdict on the plays of the reviewed games, money and match: its loss is
    the verdict's own figure in the unit it names, its better play the hint's best, and its
    explanation passes the same reading as the review's."""
    from gammon.engine.hint import play_hints

    checked = 0
    for analysis, _ in reviewed:
        match = bool(analysis.match_length)
        for review in analysis.checker[:: 4 if match else 6]:
            assert review.position_id is not None
            position = Position.from_id(review.position_id)
            state = cube_state_of(review.match_id, review.side) if match else None
            verdict = tutor_verdict(position, review.dice, review.played, 0, state=state)
            hints = play_hints(position, review.dice, ply=0, state=state)
            text = verdict["text"]
            assert verdict["best"] == str(hints[0].play)
            assert verdict["unit"] == ("mwc" if match else "equity")
            names = tuple(str(h.play) for h in hints)
            assert unnamed_figures(text, names) == [], text
            if not verdict["mark"]:
                assert "loses" not in text, text
                continue
            if match:
                loss = f"{100 * verdict['mwc_loss']:.1f}% in match winning chance"
                mine = next(h for h in hints if str(h.play) == review.played)
                assert hints[0].mwc is not None and mine.mwc is not None
                assert abs(verdict["mwc_loss"] - (hints[0].mwc - mine.mwc)) < 1e-4
            else:
                loss = f"{verdict['loss']:.3f} in equity"
            assert text.startswith(f"That play loses {loss}; {verdict['best']} was better"), text
            # What follows the colon is the teacher's: it opens with the better play's side.
            why = text.partition(" was better: ")[2]
            if why:
                assert not why.startswith(review.played + " hits"), text
                assert not why.startswith(review.played + " makes"), text
            checked += 1
    assert checked >= 40


def test_the_cube_hints_words_agree_with_its_figures_and_its_action(
    reviewed: list[tuple[Analysis, Report]],
) -> None:
    """The cube hint (practice.cube_fields) on the reviewed games' cube decisions, at 0-
    and 1-ply: its words give the doubler's and the taker's chances and the thresholds as
    its own fields, on the side of each threshold the figures are, and say "by the chances
    alone" exactly where the action goes against them."""
    from gammon.server.practice import cube_fields

    reviews = [r for analysis, _ in reviewed for r in analysis.cube if r.position_id][::3]
    checked = against = 0
    for review in reviews[:55]:
        assert review.position_id is not None
        position = Position.from_id(review.position_id)
        state = cube_state_of(review.match_id, review.side)
        for ply in (0, 1):
            hint = cube_fields(position, state, ply)
            text, win = hint["text"], hint["win"]
            assert unnamed_figures(text, ()) == [], text
            doubler_words, _, taker_words = text.partition(" The taker ")
            found = re.search(r"The doubler wins (\d+(?:\.\d)?)% of the games", doubler_words)
            assert found, text
            shown = assert_shows(found[1], win, "the doubler's chance", text)
            found = re.search(r"wins (\d+(?:\.\d)?)% of the games", taker_words)
            assert found, text
            taker = assert_shows(found[1], 1.0 - win, "the taker's chance", text)
            window, cash = hint["doubling_point"], hint["cash_point"]
            if window is None:
                by_chances = False
                assert "doubling never gains" in doubler_words, text
            elif found := re.search(r"which opens at (\d+(?:\.\d)?)% of", doubler_words):
                assert win < window and shown <= assert_shows(found[1], window, "window", text)
                by_chances = False
            elif found := re.search(r"window \((\d+(?:\.\d)?)% to (\d+(?:\.\d)?)% of", text):
                assert window <= win < cash, text
                low = assert_shows(found[1], window, "window", text)
                assert low <= shown <= assert_shows(found[2], cash, "cash", text)
                by_chances = True
            else:
                found = re.search(r"past the cash point of (\d+(?:\.\d)?)% of", doubler_words)
                assert found and win >= cash, text
                assert shown >= assert_shows(found[1], cash, "cash", text)
                by_chances = True
            if hint["action"].startswith("Too good"):
                assert "too good to double" in doubler_words, text
            else:
                alone = "by the chances alone" in doubler_words
                assert alone == (by_chances != hint["double"]), text
                against += alone
                if alone:
                    engine = "doubling gains" if hint["double"] else "keeping the cube"
                    assert engine in doubler_words, text
            found = re.search(r"(above|below) the take point of (\d+(?:\.\d)?)% of", taker_words)
            assert found, text
            point = assert_shows(found[2], hint["take_point"], "take point", text)
            takes_by_chances = found[1] == "above"
            assert takes_by_chances == (1.0 - win >= hint["take_point"]), text
            assert (taker >= point) if takes_by_chances else (taker <= point), text
            alone = "by the chances alone" in taker_words
            assert alone == (takes_by_chances != (hint["take"] != "pass")), text
            checked += 1
    assert checked >= 100, checked


@pytest.mark.parametrize(
    ("win", "no_double", "double_take", "action", "doubler", "taker"),
    [
        # Inside the window by the chances, but the search keeps the cube.
        (0.70, 0.50, 0.45, "No double, take", "inside the doubling window", ""),
        # Below the window by the chances, but the search doubles.
        (0.60, 0.20, 0.35, "Double, take", "below the doubling window", ""),
        # Past the cash point by the chances (a pass), but the search finds a take.
        (0.85, 0.60, 0.80, "Double, take", "", "below the take point"),
    ],
)
def test_the_cube_hint_says_where_a_search_went_against_the_chances(
    win: float, no_double: float, double_take: float, action: str, doubler: str, taker: str
) -> None:
    """A deeper search can decide against the chances alone (the review had said "wins 68%
    ... below the doubling window, which opens at 65%" of a double the search made): the
    words then say where the chances stand and that the search decided otherwise; where
    they agree, they say only where the chances stand."""
    from gammon.engine.analysis.explain import cube_words
    from gammon.engine.cube import CubeState, cube_decision, with_equities

    model = cube_decision((win, 0.0, 0.0, 0.0, 0.0), CubeState())
    decision = with_equities(model, no_double, double_take)
    assert str(decision) == action
    doubler_words, taker_words = cube_words(win, decision)
    if doubler:
        assert f"by the chances alone that is {doubler}" in doubler_words
        engine = "doubling gains" if decision.doubles else "keeping the cube is worth more"
        assert doubler_words.endswith(f"but as the engine plays the position on, {engine}.")
    else:
        assert "by the chances alone" not in doubler_words
    if taker:
        assert f"by the chances alone that is {taker}" in taker_words
        assert taker_words.endswith("taking loses less than passing.")
    else:
        assert "by the chances alone" not in taker_words
    assert unnamed_figures(doubler_words + " " + taker_words, ()) == []
