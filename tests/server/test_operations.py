"""Operations (docs/DEPLOY.md): schema migrations, health and readiness, metrics, JSON logs.

Each test runs on SQLite, or on PostgreSQL with ``GAMMON_TEST_DATABASE_URL``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy
from sqlalchemy import insert, text

from gammon.actions import Forfeit
from gammon.server import migrate
from gammon.server.auth import _HASHER
from gammon.server.db import Database
from gammon.server.settings import TableSettings
from gammon.server.store import _action_row
from gammon.server.table import Seat, Table
from gammon.server.table_actions import Start
from gammon.server.table_codec import result_json, table_result_json
from tests.server.client import ROOT, Player, ServerProcess, choose, database_url, free_port


def _finished_table_at_0001(db: Database) -> tuple[int, dict[str, Any]]:
    """An account and a finished table written into a 0001 database, as that server did.

    The table is played by the rules (a start, then the second player forfeits), so
    that the server rebuilds it from its log after the upgrade.
    """
    at = 1_700_000_000.0
    meta = sqlalchemy.MetaData()
    meta.reflect(db.engine)
    users, tables, games, actions, results = (
        meta.tables[name] for name in ("users", "tables", "games", "actions", "results")
    )
    assert "tournament_id" not in tables.c  # the 0001 schema
    with db.engine.begin() as connection:
        alice_id, bob_id = (
            connection.execute(
                insert(users).values(
                    name=name, name_key=name, password_hash=_HASHER.hash("correct horse"),
                    created=at, is_guest=False, is_operator=False, banned=False,
                )
            ).inserted_primary_key[0]
            for name in ("oldalice", "oldbob")
        )  # fmt: skip
        settings = TableSettings.from_json({"length": 3}, bot_levels=[])
        table_id = connection.execute(
            insert(tables).values(
                created_by=alice_id, created=at, settings=settings.to_json(), status="open"
            )
        ).inserted_primary_key[0]
        table = Table(table_id, settings, Seat(alice_id, "oldalice"), created=at)
        seats = (Seat(alice_id, "oldalice"), Seat(bob_id, "oldbob"))
        played = [
            table.apply(Start(seats), side=None, actor_id=bob_id, at=at + 1),
            table.apply(Forfeit(1), side=1, actor_id=bob_id, at=at + 2),
        ]
        assert table.status == "finished"
        for applied in played:
            row = _action_row(table_id, applied)  # only the columns 0001 had (not request_id)
            connection.execute(insert(actions).values(**{k: row[k] for k in row if k in actions.c}))
            for number, commitment, seed in applied.changes.new_games:
                connection.execute(
                    insert(games).values(
                        table_id=table_id, number=number, commitment=commitment, seed=seed,
                        started=applied.at,
                    )
                )  # fmt: skip
            for number, result in applied.changes.ended_games:
                connection.execute(
                    games.update()
                    .where(games.c.table_id == table_id, games.c.number == number)
                    .values(result=result_json(result), ended=applied.at)
                )
        result = played[-1].changes.result
        assert result is not None
        connection.execute(
            tables.update()
            .where(tables.c.id == table_id)
            .values(
                status="finished",
                seat0=alice_id,
                seat1=bob_id,
                result=table_result_json(result),
                finished=at + 2,
            )
        )
        connection.execute(
            insert(results).values(
                table_id=table_id, winner_side=0, winner_id=alice_id, loser_id=bob_id,
                reason=result.reason, score=list(result.score), at=at + 2,
            )
        )  # fmt: skip
    return table_id, result


def test_a_database_at_0001_upgrades_with_its_data_and_the_server_starts_on_it() -> None:
    url = database_url("migrate_old")
    db = Database(url)
    try:
        assert migrate.upgrade(db, "0001") == (None, "0001")
        table_id, result = _finished_table_at_0001(db)
        assert migrate.pending(db) == [f"{n:04d}" for n in range(2, 11)]  # 0002 to 0010
    finally:
        db.dispose()
    # The operator's command: runs 0002 to 0010, says so.
    done = subprocess.run(
        [sys.executable, "-m", "gammon.server", "--database", url, "--migrate-only"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    ran = "ran 0002, 0003, 0004, 0005, 0006, 0007, 0008, 0009, 0010"
    assert f"upgraded from 0001 to 0010 ({ran})" in done.stdout
    db = Database(url)
    try:
        assert migrate.current(db) == migrate.head()
        if not db.is_sqlite:  # SQLite's ALTER TABLE cannot add tables.tournament_id's key
            assert migrate.differences(db) == []
        with db.engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM users")).scalar_one() == 2
    finally:
        db.dispose()
    server = ServerProcess(url, "--no-bot", "--no-migrate").start()
    try:

        async def check() -> None:
            alice = Player(server)
            login = await alice.post(
                "/api/login", {"name": "oldalice", "password": "correct horse"}
            )
            assert login.status_code == 200, login.text
            state = await alice.state(table_id)
            assert state["status"] == "finished"
            assert state["result"]["reason"] == result.reason
            profile = (await alice.http.get("/api/players/oldalice")).json()["player"]
            assert profile["name"] == "oldalice"
            # The old account plays on the new schema.
            bob = Player(server)
            await bob.post("/api/login", {"name": "oldbob", "password": "correct horse"})
            table = await alice.create(length=1)
            sock = await bob.table(table)
            await sock.act({"type": "join"})
            await asyncio.gather(alice.close(), bob.close())

        asyncio.run(check())
    finally:
        server.stop()


def test_a_database_made_before_migrations_is_adopted() -> None:
    """``create_all`` of the old code (no alembic_version) is taken as 0001 and upgraded."""
    url = database_url("migrate_legacy")
    db = Database(url)
    try:
        migrate.upgrade(db, "0001")
        with db.engine.begin() as connection:
            connection.execute(text("DROP TABLE alembic_version"))
        assert migrate.current(db) is None
        assert migrate.pending(db) == [f"{n:04d}" for n in range(2, 11)]  # 0002 to 0010
        assert migrate.upgrade(db) == (None, "0010")
        assert migrate.current(db) == migrate.head()
    finally:
        db.dispose()


def test_the_models_and_the_migrations_agree() -> None:
    """``alembic check``: autogenerate finds nothing between head and the models."""
    db = Database(database_url("migrate_check"))
    try:
        assert migrate.upgrade(db) == (None, migrate.head())
        assert migrate.differences(db) == []
        assert migrate.upgrade(db) == (migrate.head(), migrate.head())  # nothing to do twice
    finally:
        db.dispose()


def test_no_migrate_refuses_an_old_database() -> None:
    url = database_url("migrate_refuse")
    db = Database(url)
    try:
        migrate.upgrade(db, "0002")
    finally:
        db.dispose()
    server = ServerProcess(url, "--no-migrate")
    with pytest.raises(RuntimeError, match="gammon serve --migrate-only"):
        server.start()
    server.stop()


def _metrics(server: ServerProcess) -> dict[str, float]:
    response = httpx.get(f"{server.url}/metrics", timeout=10)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    found: dict[str, float] = {}
    for line in response.text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            found[name] = float(value)
    return found


def test_health_readiness_metrics_and_json_logs() -> None:
    url = database_url("operations")
    server = ServerProcess(
        url, "--no-bot", "--message-rate", "500", "--log-format", "json", "--log-level", "info"
    ).start()
    try:
        assert httpx.get(f"{server.url}/healthz").json() == {"status": "ok"}
        ready = httpx.get(f"{server.url}/readyz")
        assert ready.status_code == 200
        assert ready.json() == {
            "status": "ready",
            "checks": {"database": "ok", "writer": "ok", "hub": "ok"},
        }
        before = _metrics(server)
        assert before["gammon_ready"] == 1
        assert before['gammon_connections{socket="table"}'] == 0

        async def play() -> int:
            alice, bob = await Player(server).signup(), await Player(server).signup()
            table = await alice.create(length=1)
            a, b = await alice.table(table), await bob.table(table)
            await b.act({"type": "join"})
            await a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            during = _metrics(server)
            assert during['gammon_connections{socket="table"}'] == 2
            assert during['gammon_tables{status="playing"}'] >= 1
            rng = random.Random(3)
            acted = 0
            socks = [a, b]
            while acted < 6:
                for sock in socks:
                    while sock.state is None or sock.state["seq"] < max(
                        s.state["seq"] if s.state else 0 for s in socks
                    ):
                        await sock.receive()
                for sock in socks:
                    assert sock.state is not None
                    action = choose(sock.state, rng, double=0.0)
                    if action is not None:
                        await sock.act(action)
                        acted += 1
                        break
            await a.act({"type": "forfeit"})
            await asyncio.gather(alice.close(), bob.close())
            return table

        table = asyncio.run(play())
        after = _metrics(server)
        counted = sum(v for k, v in after.items() if k.startswith("gammon_actions_total{"))
        assert (
            counted - sum(v for k, v in before.items() if k.startswith("gammon_actions_total{"))
            >= 8
        )  # start, 6 of the players' actions, forfeit
        assert after['gammon_actions_total{type="forfeit"}'] == 1
        assert after["gammon_action_seconds_count"] >= 7
        count = after["gammon_action_seconds_count"]
        assert after['gammon_action_seconds_bucket{le="+Inf"}'] == count
        assert after["gammon_db_commits_total"] > before["gammon_db_commits_total"]
        assert after["process_cpu_seconds_total"] > 0
        assert "gammon_analysis_queue_depth" in after and "gammon_bot_queue" in after
        # JSON logs: every line one object; the table's lines carry its id and the user.
        lines = [json.loads(line) for line in Path(server.log_path).read_text().splitlines()]
        mine = [entry for entry in lines if entry.get("table_id") == table]
        assert {entry.get("status") for entry in mine} >= {"playing", "finished"}
        assert any(entry.get("user") for entry in mine)
        assert all({"ts", "level", "logger", "message"} <= entry.keys() for entry in lines)

        # The database goes away: readiness says so (503, and what failed); health does not.
        _lose_database(url)
        gone = httpx.get(f"{server.url}/readyz", timeout=10)
        assert gone.status_code == 503, gone.text
        assert gone.json()["status"] == "not_ready"
        assert gone.json()["checks"]["database"] != "ok"
        assert gone.json()["checks"]["hub"] == "ok"
        assert httpx.get(f"{server.url}/healthz").status_code == 200
    finally:
        server.stop()


def _lose_database(url: str) -> None:
    """Delete the SQLite file, or drop the PostgreSQL database under the running server."""
    parsed = sqlalchemy.make_url(url)
    if parsed.get_backend_name() == "sqlite":
        assert parsed.database is not None
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(parsed.database + suffix)
        return
    admin = sqlalchemy.create_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE "{parsed.database}" WITH (FORCE)'))
    finally:
        admin.dispose()


def test_sigusr1_writes_every_threads_stack_to_the_log() -> None:
    """`kill -USR1` shows what a stuck server is doing, and the server goes on."""
    server = ServerProcess(database_url("stacks"), "--no-bot").start()
    try:
        stacks = server.stacks()
        assert "in _write_loop" in stacks, stacks  # the database writer thread
        assert "in run_serve" in stacks, stacks  # the event loop's thread
        assert httpx.get(f"{server.url}/healthz").json() == {"status": "ok"}
    finally:
        server.stop()


def test_blas_is_limited_before_the_server_starts_a_thread() -> None:
    """threadpoolctl, which limits BLAS to one thread, walks the loaded libraries under the
    dynamic loader's lock with a Python callback: run while another thread loads an
    extension module, both wait forever (a server froze at start that way, its bot's
    warm-up against its move generator's). So the app limits BLAS while it is alone."""
    script = (
        "import threading, threadpoolctl\n"
        "from gammon.server.app import ServerConfig, create_app\n"
        "create_app(ServerConfig(database='sqlite://'))\n"
        "assert threading.active_count() == 1, threading.enumerate()\n"
        "blas = [i for i in threadpoolctl.threadpool_info() if i['user_api'] == 'blas']\n"
        "assert blas and all(i['num_threads'] == 1 for i in blas), blas\n"
    )
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "", "OMP_NUM_THREADS": ""}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def _serve_output(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m gammon.server ARGS`` run to its end (it cannot start): what it printed."""
    return subprocess.run(
        [sys.executable, "-m", "gammon.server", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def test_a_wrong_password_or_an_unreachable_redis_is_one_line_without_the_password() -> None:
    """DEPLOY 9: what stops a node starting is said in one line, the password never in it."""
    given = os.environ.get("GAMMON_TEST_DATABASE_URL")
    if not given:
        pytest.skip("a database password needs PostgreSQL: set GAMMON_TEST_DATABASE_URL")
    secret = "Wr0ng-s3cret-pw"
    wrong = sqlalchemy.make_url(given).set(password=secret).render_as_string(hide_password=False)
    port = str(free_port())
    for args in (
        ("--migrate-only", "--database", wrong),
        ("--port", port, "--database", wrong),
        ("--port", port, "--database", given, "--redis", f"redis://:{secret}@127.0.0.1:{port}/0"),
    ):
        done = _serve_output(*args)
        said = done.stdout + done.stderr
        assert done.returncode == 2, said
        assert secret not in said, said
        assert "Traceback" not in said and "Serving gammon" not in said, said
        lines = [line for line in said.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), said
        if "--redis" in args:
            assert lines[0].startswith("error: cannot reach Redis at redis://:***@127.0.0.1"), said
        else:
            assert "password authentication failed" in lines[0], said
            assert ":***@" in lines[0], said
