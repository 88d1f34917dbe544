"""One rule for names (gammon.server.names, docs/PROTOCOL.md 1.2): accounts', tournaments'
and a table's invited account refuse control characters the same way, and tidy spaces."""

from __future__ import annotations

import asyncio

import pytest

from gammon.server.names import BadName, read_name
from tests.server.client import Player, ServerProcess

#: NUL, BEL, ESC, DEL, tab, newline, a C1 control, the line separator, a right-to-left
#: override and a zero-width space: each a way to make a name look like another, or to
#: act on a terminal that prints it.
CONTROLS = ("\x00", "\x07", "\x1b", "\x7f", "\t", "\n", "\x85", "\u2028", "\u202e", "\u200b")


@pytest.mark.parametrize("char", CONTROLS)
def test_control_characters_are_refused_wherever_they_are(char: str) -> None:
    for text in (f"{char}Cup", f"Cu{char}p", f"Cup{char}"):
        with pytest.raises(BadName, match=f"control characters .*U\\+{ord(char):04X}"):
            read_name(text, low=1, high=60)


def test_spaces_are_trimmed_and_collapsed_and_the_length_counted_after() -> None:
    assert read_name("  Friday \u00a0 eight  ", low=1, high=60) == "Friday eight"
    assert read_name("Zoë's cup 🎲", low=1, high=60) == "Zoë's cup 🎲"
    with pytest.raises(BadName, match="1 to 60 characters, not 0"):
        read_name("    ", low=1, high=60)
    with pytest.raises(BadName, match="must be text"):
        read_name(5, low=1, high=60)


def test_the_server_refuses_control_characters_in_every_kind_of_name(
    server: ServerProcess,
) -> None:
    async def scenario() -> None:
        alice = await Player(server).signup()
        for char in ("\x07", "\x1b", "\x00", "\x7f", "\t", "\n"):
            hint = f"U+{ord(char):04X}"
            made = await alice.post("/api/tournaments", {"name": f"Cup{char}", "seats": 2})
            error = made.json()["error"]
            assert made.status_code == 400 and error["code"] == "bad_settings", made.text
            assert error["field"] == "name" and hint in error["message"], error
            assert "control characters" in error["message"]
            signup = await Player(server).post(
                "/api/signup", {"name": f"eve{char}x", "password": "correct horse"}
            )
            error = signup.json()["error"]
            assert signup.status_code == 400 and error["code"] == "bad_name", signup.text
            assert hint in error["message"] and "control characters" in error["message"]
            table = await alice.post("/api/tables", {"invite": f"bob{char}"})
            error = table.json()["error"]
            assert table.status_code == 400 and error["field"] == "invite", table.text
            assert hint in error["message"] and "control characters" in error["message"]
        # Spaces are tidied the same way, and what is stored is what is echoed.
        made = await alice.post("/api/tournaments", {"name": "  Friday   eight ", "seats": 2})
        assert made.status_code == 201, made.text
        number = made.json()["tournament"]["id"]
        shown = (await alice.http.get(f"/api/tournaments/{number}")).json()["tournament"]
        assert shown["settings"]["name"] == "Friday eight"
        await alice.close()

    asyncio.run(scenario())
