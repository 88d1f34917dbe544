"""The server's analysis queue on Ray (``gammon serve --ray local``): an uploaded match's
review is the one the worker pool writes, its games analysed as Ray tasks."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from gammon.server.analysis_worker import in_language, run_job
from tests.server.client import Player, ServerProcess, database_url
from tests.server.test_analysis import VECTORS, _check_document, finished, upload

pytest.importorskip("ray", reason="ray is not installed (pip install 'gammon[ray]')")


def test_an_upload_is_analysed_on_ray_as_in_the_pool() -> None:
    name = "galaxy.mat"
    text = (VECTORS / name).read_text(encoding="utf-8")
    server = ServerProcess(database_url("analysis_ray"), "--ray", "local").start()

    async def scenario() -> dict[str, Any]:
        player = await Player(server).guest()
        response = await upload(player, name, text.encode())
        assert response.status_code == 202, response.text
        job = response.json()["analysis"]
        assert job["workers"] == 8  # jobs at once on Ray
        done = await finished(player, job["key"])
        assert done["status"] == "done", done["error"]
        await player.close()
        return done

    try:
        done = asyncio.run(scenario())
    finally:
        server.stop()
    document = dict(done["document"])
    _check_document(document, list(done["names"]))
    # As the API serves it: in the reader's language (English here), the others left out.
    here = in_language(
        run_job("here", {"kind": "upload", "filename": name, "text": text}, 0)["document"], "en"
    )
    for figures in (document, here):
        del figures["seconds"]
    assert document == here
