"""``gammon connect``, the terminal client written from docs/PROTOCOL.md and DICE.md alone.

Each test runs the client as a real process (``python -m gammon.cli.connect``, the same code
as ``gammon connect``) against a real server on loopback, with its commands piped into
standard input, exactly as a script would use it. Nothing is mocked.
"""

from __future__ import annotations

import hashlib
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import IO, Any, Final

import httpx
import pytest

from gammon.cli.connect.commands import HELP
from gammon.cli.connect.dice import DiceRecordError, check_record, derive_dice
from gammon.i18n import translator
from tests.server.client import ROOT, ServerProcess, database_url

#: Commands repeated until the game ends: each that does not fit the moment is refused
#: harmlessly (by the server, or by the client for a play number with no plays listed).
LOOP = "1\nroll\ntake\naccept\n" * 600


def connect(
    server: ServerProcess, *args: str, script: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gammon.cli.connect", server.url, *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def signed_in_name(out: str) -> str:
    found = re.search(r"^Signed in as (\S+)", out, re.MULTILINE)
    assert found, out[:2000]
    return found.group(1)


def assert_finished_and_verified(out: str) -> int:
    """The table's result and the dice check (R13) close the output; returns the roll count."""
    # A game's result is worded by gammon.events.describe, as everywhere else.
    assert re.search(r"^Game 1 over: .* wins \d+ points? \(a (single game|gammon|backgammon), by ",
                     out, re.MULTILINE), out[-3000:]  # fmt: skip
    assert re.search(r"^Result: .* the (match|session)", out, re.MULTILINE), out[-3000:]
    found = re.search(r"^Fair dice \(DICE.md\): all (\d+) rolls verified in 1 game$", out,
                      re.MULTILINE)  # fmt: skip
    assert found, out[-3000:]
    assert "NOT VERIFIED" not in out
    return int(found.group(1))


class Lines:
    """A process's output, read by a thread so a test can wait for a line with a timeout."""

    def __init__(self, stream: IO[str] | None) -> None:
        assert stream is not None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)

    def expect(self, pattern: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                seen = "".join(self.seen)
                raise AssertionError(f"no line matching {pattern!r}:\n{seen}") from None
            if line is None:
                raise AssertionError(f"output ended before {pattern!r}:\n{''.join(self.seen)}")
            self.seen.append(line)
            if re.search(pattern, line):
                return line

    def rest(self) -> str:
        while (line := self.lines.get(timeout=60)) is not None:
            self.seen.append(line)
        return "".join(self.seen)


# -- a whole game against the bot -------------------------------------------------------


def test_guest_plays_a_whole_match_against_the_bot(server: ServerProcess) -> None:
    # Bad commands first: each prints the server's reason (or the client's, for a play
    # number with nothing listed) and the session goes on (PROTOCOL.md 2.1).
    script = (
        "take\n"  # R3: the game waits for the opening roll
        "say good luck\n"
        "1\n"  # nothing to choose yet
        "roll\n"
        "roll\n"  # refused if we won the opening roll, else our first roll: we play next
        "24/1\n"  # R4: no roll moves a checker 23 pips
        "hint\n"  # R15: against the bot, on our move
        "moves\n"
        "99\n"
    ) + LOOP
    result = connect(server, "--guest", "--bot", "beginner", "--match", "1", script=script)
    out = result.stdout
    assert result.returncode == 0, (out[-3000:], result.stderr)
    name = signed_in_name(out)
    assert re.search(r"^! refused 'take': .*opening roll.* \[illegal_action\]$", out, re.MULTILINE)
    assert f"[chat] {name}: good luck" in out
    assert "! no play 1 to choose: it is not your move" in out
    assert re.search(r"^! refused '24/1': .*23 pips.* \[illegal_play\]$", out, re.MULTILINE)
    assert "Hint (best first):" in out
    assert re.search(r"^! there is no play 99: choose 1 to \d+$", out, re.MULTILINE)
    assert assert_finished_and_verified(out) > 0
    # The board is drawn from the Position ID, from the user's side: always X at the bottom.
    boards = out.split(" Position ID: ")[1:]
    assert boards and boards[0].startswith("4HPwATDgc/ABMA")  # R2: the starting position
    bottoms = [line for line in out.splitlines() if line.startswith(" +12-11-10")]
    assert len(bottoms) == len(boards)
    assert all(line.endswith(f"X: {name}") for line in bottoms)


def test_two_people_play_through_connect(server: ServerProcess) -> None:
    # One opens a table and waits; the other joins it by id; seats are drawn at random (R13).
    creator = subprocess.Popen(
        [sys.executable, "-m", "gammon.cli.connect", server.url, "--create", "--match", "1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=ROOT,
    )  # fmt: skip
    lines = Lines(creator.stdout)
    created = lines.expect(r"^Created table (\d+)")
    table = re.search(r"(\d+)", created)
    assert table
    assert creator.stdin is not None
    creator.stdin.write(LOOP)
    creator.stdin.close()
    joiner = connect(server, "--table", table.group(1), script=LOOP)
    creator.wait(60)
    first = lines.rest()
    assert creator.returncode == 0, first[-2000:]
    assert joiner.returncode == 0, joiner.stdout[-2000:]
    assert f"Waiting for an opponent to join table {table.group(1)}." in first
    rolls = assert_finished_and_verified(first)
    assert assert_finished_and_verified(joiner.stdout) == rolls


# -- signing in -----------------------------------------------------------------------------


def test_wrong_password_is_one_line_and_status_2(server: ServerProcess) -> None:
    name = f"conn{int(time.time() * 1000) % 10**8}"
    made = connect(server, "--signup", "--name", name, "--password", "correct horse")
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith(f"Signed in as {name}\n")
    assert re.search(r"^\d+ tables? at http://127\.0\.0\.1:\d+$", made.stdout, re.MULTILINE)
    wrong = connect(server, "--name", name, "--password", "not the one", "--bot", "expert")
    assert wrong.returncode == 2
    assert wrong.stdout == ""
    assert wrong.stderr == "gammon: error: wrong name or password (bad_credentials)\n"


def test_bad_settings_are_the_servers_words(server: ServerProcess) -> None:
    result = connect(server, "--bot", "nobody")
    assert result.returncode == 2
    assert result.stderr.startswith("gammon: error: ")
    assert result.stderr.rstrip().endswith("(bad_settings)") and result.stderr.count("\n") == 1


# -- the socket drops --------------------------------------------------------------------


def test_reconnects_after_the_server_is_killed_and_finishes_the_game() -> None:
    # PROTOCOL.md 2 and 4.3: a killed server restarts where it was; the client reconnects
    # with backoff and resyncs from the state sent on connect, then plays on (money, R11).
    server = ServerProcess(database_url("connect"), "--message-rate", "500").start()
    client: subprocess.Popen[str] | None = None
    try:
        client = subprocess.Popen(
            [sys.executable, "-m", "gammon.cli.connect", server.url, "--bot", "beginner",
             "--money", "--max-games", "1"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=ROOT,
        )  # fmt: skip
        assert client.stdin is not None
        lines = Lines(client.stdout)
        lines.expect(r"^\* connected to table \d+ as Guest-")
        client.stdin.write("roll\nroll\n")
        client.stdin.flush()
        lines.expect(r"^Your move: play \d-\d")  # our first move, either way
        server.kill()
        lines.expect(r"^\* connection lost")
        client.stdin.write("1\n")  # waits for the connection, then goes with the right seq
        client.stdin.flush()
        server.start()
        lines.expect(r"^\* reconnected to table \d+ as Guest-")
        client.stdin.write(LOOP)
        client.stdin.close()
        assert client.wait(60) == 0, client.stderr.read() if client.stderr else ""
        out = lines.rest()
        assert assert_finished_and_verified(out) > 0
    finally:
        if client is not None and client.poll() is None:
            client.kill()
            client.wait(10)
        server.stop()


# -- built on the documents alone -------------------------------------------------------


def test_the_client_imports_neither_the_server_nor_the_engine() -> None:
    # Only PROTOCOL.md, DICE.md and the rules library: what an outside developer would have.
    code = (
        "import sys, gammon.cli.connect.session\n"
        "print(*sorted(m for m in sys.modules if m.startswith(('gammon.server', 'gammon.engine'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "\n"


# -- the dice check, from DICE.md alone ---------------------------------------------------

SEED = bytes(range(32))
A = bytes.fromhex("00112233445566778899aabbccddeeff")
B = bytes.fromhex("a1b2c3d4e5f60718293a4b5c6d7e8f90")


@pytest.mark.parametrize(
    ("index", "entropy", "dice"),
    [(1, [], (3, 6)), (1, [A], (2, 6)), (1, [A, B], (1, 4)), (1, [B, A], (1, 4)),
     (2, [A, B], (3, 4)), (69, [A, B], (1, 1)), (83, [], (2, 4))],
)  # fmt: skip
def test_dice_md_vectors(index: int, entropy: list[bytes], dice: tuple[int, int]) -> None:
    # R13: DICE.md's worked example and table, recomputed by the client's own few lines.
    assert derive_dice(SEED, index, entropy) == dice


def record(*rolls: tuple[list[bytes], tuple[int, int]], seed: bytes = SEED) -> dict[str, Any]:
    return {
        "format": "gammon-fair-dice/1",
        "commitment": hashlib.sha256(seed).hexdigest(),
        "seed": seed.hex(),
        "rolls": [
            {"index": n, "entropy": [e.hex() for e in entropy], "dice": list(dice)}
            for n, (entropy, dice) in enumerate(rolls, 1)
        ],
    }


def test_check_record_accepts_an_honest_record() -> None:
    honest = record(([A, B], (1, 4)), ([A, B], (3, 4)))
    assert check_record(honest, sent=[A.hex(), B.hex()], only_ours=True) == 2
    # Our entropy sent after the last roll (the game ended first) is not missing.
    assert check_record(honest, sent=[A.hex(), B.hex(), "ff" * 32]) == 2


@pytest.mark.parametrize(
    ("tamper", "kwargs", "message"),
    [
        (lambda r: r.update(seed="11" * 32), {}, "SHA-256 is not the record's commitment"),
        (lambda r: None, {"commitment": "00" * 32}, "not the one shown before the game"),
        (lambda r: r["rolls"][1].update(dice=[4, 3]), {}, "roll 2 is 4-3 but"),
        (lambda r: r["rolls"].pop(0), {}, "roll 1 is missing"),
        (lambda r: None, {"sent": [A.hex()], "only_ours": True}, "entropy we did not send"),
        (lambda r: None, {"sent": ["ee" * 32, A.hex()]}, "is missing though later entropy"),
    ],
)
def test_check_record_names_the_first_problem(tamper: Any, kwargs: Any, message: str) -> None:
    # R13: a changed seed, a changed roll, a gap, or entropy dropped or invented is caught.
    bad = record(([A, B], (1, 4)), ([A, B], (3, 4)))
    tamper(bad)
    with pytest.raises(DiceRecordError, match=re.escape(message)):
        check_record(bad, **kwargs)


def test_programs_register_see_the_bracket_and_withdraw(server: ServerProcess) -> None:
    """The tournament commands: list, register, the bracket drawn, a withdrawal deciding it."""
    import asyncio

    from tests.server.client import Player

    async def create() -> int:
        organiser = await Player(server).signup()
        made = await organiser.post(
            "/api/tournaments", {"name": "Terminal duel", "seats": 2, "lengths": [1]}
        )
        assert made.status_code == 201, made.text
        await organiser.close()
        return int(made.json()["tournament"]["id"])

    number = asyncio.run(create())
    stamp = int(time.time() * 1000) % 10**7
    names = [f"term{stamp}{i}" for i in range(2)]
    listed = connect(server, "--tournaments").stdout
    assert re.search(rf"^\s+{number}  Terminal duel: sit and go, registering, 0/2", listed, re.M)
    first = connect(server, "--signup", "--name", names[0], "--password", "correct horse",
                    "--tournament", str(number), "--register")  # fmt: skip
    assert first.returncode == 0, first.stderr
    assert "* registered" in first.stdout and "registering, 1/2 registered" in first.stdout
    second = connect(server, "--signup", "--name", names[1], "--password", "correct horse",
                     "--tournament", str(number), "--register")  # fmt: skip
    assert second.returncode == 0, second.stderr
    assert re.search(rf"^    1\. {names[0]} - {names[1]}: table \d+$|^    1\. {names[1]} - "
                     rf"{names[0]}: table \d+$", second.stdout, re.M), second.stdout  # fmt: skip
    again = connect(server, "--name", names[1], "--password", "correct horse",
                    "--tournament", str(number), "--register")  # fmt: skip
    assert again.returncode == 2 and "the tournament has started (not_registering)" in again.stderr
    gone = connect(server, "--name", names[1], "--password", "correct horse",
                   "--tournament", str(number), "--withdraw")  # fmt: skip
    assert gone.returncode == 0, gone.stderr
    assert "* withdrawn" in gone.stdout and f"  Winner: {names[0]}" in gone.stdout
    assert f"{names[0]} won (withdrew)" in gone.stdout


# -- whose turn it is -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("you", "phase", "turn", "actions", "ours"),
    [
        (0, "opening", None, ["roll", "forfeit"], True),  # either side may throw it (R3)
        (1, "roll", 1, ["roll", "double", "resign", "forfeit"], True),
        (0, "roll", 1, ["resign", "forfeit"], False),
        # Practice against the bot: our last play can be taken back while the bot thinks; that
        # is no turn of ours (a script's next command used to be sent, and refused, at once).
        (0, "roll", 1, ["resign", "take_back", "forfeit"], False),
        (0, "move", 1, ["resign", "hint", "forfeit"], False),
        (0, "double offered", 0, ["take", "drop", "hint", "forfeit"], True),
        (None, "roll", 0, [], False),
    ],
)  # fmt: skip
def test_our_turn_is_the_tables_turn_not_any_action(
    you: int | None, phase: str, turn: int | None, actions: list[str], ours: bool
) -> None:
    from gammon.cli.connect.screen import Screen, our_turn

    game = {"phase": phase, "turn": turn, "actions": actions, "dice": [3, 1]}
    state = {"you": you, "status": "playing", "players": [{"name": "a"}, {"name": "b"}],
             "game": game}  # fmt: skip
    assert our_turn(state) is ours
    status = Screen(1, sys.stdout).status(state, state["game"])  # type: ignore[arg-type]
    assert status.startswith(("Waiting for", "Watching")) is not ours


# -- a whole tournament from the terminal ---------------------------------------------------


def _sit_and_go(server: ServerProcess, seats: int, **settings: Any) -> int:
    import asyncio

    from tests.server.client import Player

    async def create() -> int:
        organiser = await Player(server).signup()
        made = await organiser.post(
            "/api/tournaments", {"name": "Terminal cup", "seats": seats, **settings}
        )
        assert made.status_code == 201, made.text
        await organiser.close()
        return int(made.json()["tournament"]["id"])

    return asyncio.run(create())


def test_four_terminals_play_a_sit_and_go_to_its_winner(server: ServerProcess) -> None:
    # R13: a Sit & Go of four, every match on the tournament's clock, played by four
    # `gammon connect --tournament ID --register --play` processes with piped commands.
    number = _sit_and_go(server, 4, lengths=[1, 3])
    stamp = int(time.time() * 1000) % 10**7
    names = [f"cup{stamp}{i}" for i in range(4)]
    players = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gammon.cli.connect",
                server.url,
                "--signup",
                "--name",
                name,
                "--password",
                "correct horse",
                "--tournament",
                str(number),
                "--register",
                "--play",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for name in names
    ]
    outputs = []
    try:
        lines = [Lines(p.stdout) for p in players]
        for p in players:
            assert p.stdin is not None
            p.stdin.write(LOOP * 2)
            p.stdin.close()
        for p in players:
            assert p.wait(240) == 0, p.stderr.read() if p.stderr else ""
        outputs = [line.rest() for line in lines]
    finally:
        for p in players:
            if p.poll() is None:
                p.kill()
                p.wait(10)
    winners = {re.findall(r"^  Winner: (\S+)$", out, re.M)[-1] for out in outputs
               if re.search(r"^  Winner: ", out, re.M)}  # fmt: skip
    assert len(winners) == 1, outputs
    winner = winners.pop()
    assert winner in names
    finals = [out for out in outputs if re.search(r"^Tournament \d+: .*finished", out, re.M)]
    assert finals, outputs  # the finalists see the tournament end
    for name, out in zip(names, outputs, strict=True):
        # Every match each one played ended with its dice verified (DICE.md).
        assert out.count("* your match ") == out.count("Fair dice (DICE.md): all "), out[-3000:]
        assert "NOT VERIFIED" not in out
        if name != winner:
            assert "* you are out of the tournament (lost)" in out or "Winner: " in out
    assert outputs[names.index(winner)].count("* your match ") == 2  # semi-final and final
    listed = connect(server, "--tournament", str(number)).stdout
    assert re.search(rf"^Tournament {number}: Terminal cup \(sit and go, finished, 4/4", listed,
                     re.M), listed  # fmt: skip
    assert f"  Winner: {winner}" in listed


def test_a_player_whose_input_ends_leaves_the_tournament(server: ServerProcess) -> None:
    # With no more commands the client cannot play its match: it says so and exits (it
    # used to wait for a next match for ever), while the match goes on at the server.
    number = _sit_and_go(server, 2, lengths=[1], show_up_s=10)
    stamp = int(time.time() * 1000) % 10**7
    first = subprocess.Popen(
        [sys.executable, "-m", "gammon.cli.connect", server.url, "--signup", "--name",
         f"eof{stamp}a", "--password", "correct horse", "--tournament", str(number),
         "--register"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    assert first.wait(60) == 0
    second = connect(server, "--signup", "--name", f"eof{stamp}b", "--password", "correct horse",
                     "--tournament", str(number), "--register", "--play", timeout=60)  # fmt: skip
    assert second.returncode == 0, second.stderr
    assert "* end of input; the table goes on at the server" in second.stdout
    assert f"* left tournament {number}; come back with --tournament {number} --play" in (
        second.stdout
    )


# -- in the player's language -----------------------------------------------------------

#: What a player types (the commands, English in every language) and the names the
#: connect's messages hold as they are: none of them is an English word left untranslated.
_TYPED: Final = {
    "roll", "double", "take", "drop", "beaver", "moves", "resign", "single", "gammon",
    "backgammon", "accept", "reject", "choose", "hint", "board", "help", "quit", "forfeit",
    "table", "tournament", "play", "text", "acey", "deucey", "name", "password",
}  # fmt: skip


#: The words a language writes as English does (Dutch: "de server", "de match", "chat").
_SHARED: Final = {"nl": {"server", "match", "chat"}}


def _connect_english() -> set[str]:
    """The words of four letters or more of the terminal client's English messages."""
    from babel.messages.pofile import read_po

    from gammon.i18n import LOCALE_DIR

    with (LOCALE_DIR / "gammon.pot").open("rb") as file:
        template = read_po(file)
    words: set[str] = set()
    for message in template:
        if message.id and any(p.startswith("gammon/cli/connect/") for p, _ in message.locations):
            for text in [message.id] if isinstance(message.id, str) else message.id:
                text = re.sub(r"\{\w+\}|--\w+|'[^']*'", "", text)
                words |= {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}
    return words - _TYPED


def _figures(text: str, names: Sequence[str]) -> list[int]:
    for name in names:
        text = text.replace(name, "")
    return sorted(int(n) for n in re.findall(r"\d+", text))


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("fi", ("Kirjautunut: ", "Luotiin pöytä ", "== Pöytä ", "! torjuttu 'take': ", "Vihje (")),
        ("nl", ("Aangemeld als ", "Tafel ", "== Tafel ", "! geweigerd 'take': ", "Hint (")),
    ],
)
def test_connect_speaks_the_players_language(
    server: ServerProcess, lang: str, words: tuple[str, ...]
) -> None:
    """``--lang``: the client's own lines in the language, the server's refusals and game log
    in it too (the client asks in Accept-Language), the same figures as the English."""
    from gammon.cli.connect.screen import Screen

    script = "take\n1\nroll\nroll\nhint\nmoves\n99\nresign what\nhelp\nquit\n"
    result = connect(
        server, "--guest", "--bot", "beginner", "--match", "1", "--lang", lang, script=script
    )
    out = result.stdout
    assert result.returncode == 0, (out[-3000:], result.stderr)
    for word in words:
        assert word in out, (word, out[:3000])
    table = int(re.findall(r"\d+", out.split(words[1], 1)[1])[0])
    english = httpx.get(f"{server.url}/api/tables/{table}", timeout=10).json()
    names = [p["name"] for p in english["players"]]
    # Every line, the board's diagram too, is in the language: no English word of the
    # client's messages is left.
    ours = out.splitlines()
    text = "\n".join(ours)
    for name in [*names, "Position ID", "Match ID"]:  # the formats keep GNU's names
        text = text.replace(name, "")
    english_words = _connect_english() - _SHARED.get(lang, set())
    left = {w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in english_words}
    assert left == set(), (left, text)
    # The game log the client printed is the server's, in the language: the English log's
    # events with their figures.
    help_lines = set(translator(lang).gettext(HELP).splitlines())
    logged = [
        line[2:]
        for line in ours
        if re.match(r"  [^ .]", line) and not re.match(r"\s+\d+  ", line) and line not in help_lines
    ]
    log = english["game"]["log"]
    assert len(logged) == len(log) > 0
    assert all(line != event["text"] for line, event in zip(logged, log, strict=True))
    for line, event in zip(logged, log, strict=True):
        assert _figures(line, names) == _figures(event["text"], names)
    # The table's screen drawn from one state in English and in the language: line for
    # line, the same figures, the board's diagram with its labels in the language.
    state = httpx.get(f"{server.url}/api/tables/{table}?lang={lang}", timeout=10).json()
    shown, in_english = (
        Screen(table, sys.stdout, lang).render(state),
        Screen(table, sys.stdout).render(english),
    )
    assert shown != in_english
    pairs = list(zip(shown.splitlines(), in_english.splitlines(), strict=True))
    for mine, theirs in pairs:
        assert _figures(mine, names) == _figures(theirs, names), (mine, theirs)
    assert any(mine != theirs for mine, theirs in pairs if re.match(r" \S", theirs))
