"""Post-game analysis on the server (issue 9): the queue, uploads, restarts (docs/PROTOCOL.md 9).

A table against the bot is analysed when it finishes; anybody signed in may ask for
the analysis of another table's finished games; .mat and .sgf files are uploaded,
checked and analysed; bad files are refused in words; a job still waiting or running
when the server stops is queued again when it starts. With GAMMON_TEST_DATABASE_URL
the same runs on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import sqlalchemy

from gammon.matfile import replay_mat
from tests import waiting
from tests.server.client import Player, ServerProcess, choose, database_url
from tests.server.test_play import drive, seated
from tests.xg_writer import write_xg

VECTORS = Path(__file__).resolve().parents[1] / "vectors"


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


async def upload(player: Player, name: str, body: bytes) -> Any:
    return await player.http.post(
        f"/api/analyses?name={name}",
        content=body,
        headers={"X-CSRF-Token": await player.csrf(), "Content-Type": "application/octet-stream"},
    )


async def finished(
    player: Player, key: str, timeout: float = 120, *, in_line_here: bool = True
) -> dict[str, Any]:
    """Poll the job until it is done (or failed); return it with its document.

    ``in_line_here``: a queued job has its place in this server's line (False with
    several nodes, where a job queued on another node has none here). Polled: the job is
    the server's (its workers' processes), with no event to await here."""

    async def done() -> dict[str, Any] | None:
        response = await player.http.get(f"/api/analyses/{key}")
        assert response.status_code == 200, response.text
        job = response.json()["analysis"]
        if job["status"] in ("done", "failed"):
            return dict(job)
        assert job["status"] in ("queued", "running")
        if job["status"] == "queued" and in_line_here:
            assert job["position"] >= 1
        return None

    return await waiting.until(
        done, timeout=timeout, interval=0.2, what=f"the analysis {key} to finish"
    )


async def play_out(player: Player, table: int, rng: random.Random) -> None:
    sock = await player.table(table)
    while sock.state is not None and sock.state["status"] == "playing":
        action = choose(sock.state, rng)
        if action is None:
            await sock.receive()
            continue
        await sock.act(action)
    await sock.close()


def _check_document(document: dict[str, Any], names: list[str]) -> None:
    assert document["format"] == "gammon-analysis/1"
    assert document["names"] == names
    assert len(document["players"]) == 2 and len(document["summary"]) > 5
    for game, logged in zip(document["games"], document["logs"], strict=True):
        assert game["number"] == logged["number"]
        log = logged["log"]
        # Every reviewed decision points at its own event of the game's log.
        for review in game["checker"]:
            event = log[review["index"]]
            assert event["type"] == "moved" and event["play"] == review["played"]
        for roll in game["luck"]:
            assert log[roll["index"]]["type"] in ("rolled", "opening")


def test_a_bot_table_is_analysed_when_it_finishes(server: ServerProcess) -> None:
    async def scenario() -> None:
        human = await Player(server).signup()
        table = await human.create(length=1, bot="expert")
        await play_out(human, table, random.Random(4))

        async def queued() -> Any:  # by the server itself, nobody asked
            response = await human.http.get(f"/api/tables/{table}/analysis")
            if response.status_code == 200:
                return response
            assert response.json()["error"]["code"] == "no_analysis"
            return None

        response = await waiting.until(queued, what=f"table {table}'s analysis to be queued")
        job = await finished(human, response.json()["analysis"]["key"])
        assert job["status"] == "done", job["error"]
        assert job["table"] == table and job["games"] == 1 and job["link"].endswith(job["key"])
        state = await human.state(table)
        _check_document(job["document"], [p["name"] for p in state["players"]])
        # Asking again gives the same analysis; so does a spectator's request.
        again = await human.post(f"/api/tables/{table}/analysis")
        assert again.status_code == 202 and again.json()["analysis"]["key"] == job["key"]
        html = await human.http.get(f"/api/analyses/{job['key']}/report.html")
        assert (
            html.status_code == 200
            and "<svg" in html.text
            and "attachment" in html.headers["content-disposition"]
        )
        assert "<html lang='en'>" in html.text and html.headers["content-language"] == "en"
        # The page in the reader's language: the worker wrote one per language.
        finnish = await human.http.get(f"/api/analyses/{job['key']}/report.html?lang=fi")
        assert "<html lang='fi'>" in finnish.text and "Harjoiteltavaa" in finnish.text
        assert finnish.headers["content-language"] == "fi"
        raw = await human.http.get(f"/api/analyses/{job['key']}/report.json")
        assert raw.json()["format"] == "gammon-analysis/1"
        await human.close()

    run(scenario())


def test_players_and_spectators_ask_for_an_analysis(server: ServerProcess) -> None:
    async def scenario() -> None:
        table, sockets, players = await seated(server, mode="money", max_games=1)
        watcher = await Player(server).signup()
        # Nothing to analyse before a game is over.
        early = await watcher.post(f"/api/tables/{table}/analysis")
        assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_over"
        anonymous = Player(server)
        refused = await anonymous.post(f"/api/tables/{table}/analysis")
        assert refused.status_code == 401
        await drive(sockets, random.Random(8), double=0.0)
        asked = await watcher.post(f"/api/tables/{table}/analysis")
        assert asked.status_code == 202, asked.text
        job = await finished(watcher, asked.json()["analysis"]["key"])
        assert job["status"] == "done", job["error"]
        assert job["document"]["kind"] == "session"
        # The players see the same analysis at the table's address.
        mine = await players[0].http.get(f"/api/tables/{table}/analysis")
        assert mine.json()["analysis"]["key"] == job["key"]
        for player in (*players, watcher, anonymous):
            await player.close()

    run(scenario())


def test_upload_mat_and_sgf(server: ServerProcess) -> None:
    async def scenario() -> None:
        player = await Player(server).guest()
        for name in ("bots_5pt.mat", "bots_5pt.sgf"):
            response = await upload(player, name, (VECTORS / "gnubg" / name).read_bytes())
            assert response.status_code == 202, response.text
            job = response.json()["analysis"]
            assert job["source"] == name[-3:] and job["filename"] == name
            assert job["status"] in ("queued", "running", "done")
            done = await finished(player, job["key"])
            assert done["status"] == "done", done["error"]
            document = done["document"]
            _check_document(document, done["names"])
            assert document["kind"] == "match" and document["match_length"] == 5
            assert len(document["games"]) >= 2
        await player.close()

    run(scenario())


def test_upload_an_extreme_gammon_xg_file(server: ServerProcess) -> None:
    """A binary .xg upload (from the test-only writer) is analysed as the games it holds."""
    match = replay_mat((VECTORS / "double_drop.mat").read_text())
    body = write_xg(match, ("Alice", "Bob"))

    async def scenario() -> None:
        player = await Player(server).guest()
        response = await upload(player, "match.xg", body)
        assert response.status_code == 202, response.text
        job = response.json()["analysis"]
        assert job["source"] == "xg" and job["names"] == ["Alice", "Bob"]
        done = await finished(player, job["key"])
        assert done["status"] == "done", done["error"]
        document = done["document"]
        _check_document(document, done["names"])
        assert document["match_length"] == 3 and len(document["games"]) == 3
        broken = await upload(player, "broken.xg", body[:-100])
        error = broken.json()["error"]
        assert error["code"] == "bad_file"
        assert "not an eXtreme Gammon .xg file we can read" in error["message"]
        await player.close()

    run(scenario())


def test_bad_uploads_are_refused_in_words(server: ServerProcess) -> None:
    async def scenario() -> None:
        anonymous = Player(server)
        response = await upload(anonymous, "a.mat", (VECTORS / "one_point.mat").read_bytes())
        assert response.status_code == 401
        assert "sign in" in response.json()["error"]["message"]
        player = await Player(server).guest()
        cases = [
            ("empty.mat", b"", "bad_file", "empty"),
            ("blank.mat", b"   \n\n", "bad_file", "empty"),
            ("photo.mat", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "bad_file", "not a text file"),
            ("notes.mat", b"dear diary\n", "bad_file", "not a .mat match file"),
            ("broken.sgf", b"(;FF[4]GM[6]", "bad_file", "not a GNU Backgammon .sgf"),
            ("huge.mat", b" 1 point match\n" + b"x" * (600 * 1024), "too_large", "over 512 KB"),
        ]
        for name, body, code, words in cases:
            response = await upload(player, name, body)
            error = response.json()["error"]
            assert error["code"] == code, (name, error)
            assert words in error["message"], (name, error["message"])
        assert (await upload(player, "huge.mat", b"x" * (600 * 1024))).status_code == 413
        # A .mat file whose moves break the rules names its line.
        text = (VECTORS / "one_point.mat").read_text().replace("8/5 6/5", "8/2 6/2", 1)
        if text != (VECTORS / "one_point.mat").read_text():
            error = (await upload(player, "bad.mat", text.encode())).json()["error"]
            assert error["code"] == "bad_file" and "line" in error["message"]
        missing = await player.http.get("/api/analyses/nosuchkey")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_analysis"
        await player.close()

    run(scenario())


def test_a_restart_queues_interrupted_jobs_again() -> None:
    """Jobs waiting when the server stops, or running when it died, run after the restart."""
    url = database_url("analysis_restart")
    paused = ServerProcess(url, "--analysis-workers", "0").start()  # a queue that never runs
    keys: list[str] = []

    async def queue_two() -> None:
        player = await Player(paused).guest()
        for position, name in enumerate(("one_point.mat", "double_drop.mat"), start=1):
            response = await upload(player, name, (VECTORS / name).read_bytes())
            job = response.json()["analysis"]
            assert job["status"] == "queued" and job["position"] == position
            assert job["workers"] == 0 and job["queued"] == position
            keys.append(job["key"])
        await player.close()

    try:
        run(queue_two())
    finally:
        paused.kill()  # SIGKILL: nothing is tidied up
    # The first as if a worker had it when the server died.
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as connection:
        connection.execute(
            sqlalchemy.text("UPDATE analyses SET status = 'running' WHERE key = :key"),
            {"key": keys[0]},
        )
    engine.dispose()
    restarted = ServerProcess(url, "--analysis-workers", "1").start()

    async def both_done() -> None:
        player = Player(restarted)
        for key in keys:
            job = await finished(player, key)
            assert job["status"] == "done", job["error"]
            assert job["document"]["games"]
        await player.close()

    try:
        run(both_done())
        # Killed in turn, the server takes its workers with it: they do not wait on.
        assert restarted.process is not None
        workers = _children(restarted.process.pid)
        assert workers, "the analyses ran in worker processes"
        restarted.kill()
        waiting.wait_until(
            lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers),
            what=f"workers {workers} to end with their server",
        )
    finally:
        restarted.stop()


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a process that ended meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found
