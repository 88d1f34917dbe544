"""Each account's settings for the browser client (sound, animation speed, the board's
orientation and colours, pips, auto-roll, fast entry...), kept on the server so that they
follow the player to another browser (docs/PROTOCOL.md 1.2, issue 16).

What they mean is the client's business (gammon/server/static/js/settings.js checks every
value it reads and ignores the ones it does not know): the server keeps a small JSON
object per account, refusing anything that is not one, so that a client can neither store
a large blob nor something other clients could not read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.messages import Message
from gammon.server.bodies import ANY, fields
from gammon.server.db import UserSettingsRow
from gammon.server.protocol import Refused

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from gammon.server.edge import Edge

__all__ = ["MAX_SETTINGS", "check_settings", "load_settings", "save_settings", "settings_routes"]

#: At most this many settings, each named by a short word, each a flag, a number or a
#: short word.
MAX_SETTINGS: Final = 32
_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,31}")
_MAX_TEXT: Final = 32



def check_settings(value: object) -> dict[str, bool | int | float | str]:
    """``value`` as settings to keep, or :class:`Refused` saying what is wrong with it."""
    if not isinstance(value, Mapping):
        raise Refused(
            "bad_settings", Message("the settings must be a JSON object"), field="settings"
        )
    if len(value) > MAX_SETTINGS:
        raise Refused(
            "bad_settings",
            Message("at most {most} settings, not {count}", most=MAX_SETTINGS, count=len(value)),
            field="settings",
        )
    kept: dict[str, bool | int | float | str] = {}
    for name, setting in value.items():
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise Refused(
                "bad_settings",
                Message("{name} is not a setting's name", name=repr(name)),
                field="settings",
            )
        number = isinstance(setting, bool | int | float) and setting == setting  # not NaN
        word = isinstance(setting, str) and len(setting) <= _MAX_TEXT
        if not (number or word):
            raise Refused(
                "bad_settings",
                Message(
                    "{name} must be true or false, a number or a word of at most {most} letters",
                    name=name,
                    most=_MAX_TEXT,
                ),
                field=f"settings.{name}",
            )
        kept[name] = setting
    return kept


def load_settings(session: Session, user_id: int) -> dict[str, Any]:
    row = session.get(UserSettingsRow, user_id)
    return dict(json.loads(row.settings)) if row is not None else {}


def save_settings(session: Session, user_id: int, settings: Mapping[str, Any], at: float) -> None:
    row = session.get(UserSettingsRow, user_id)
    text = json.dumps(dict(settings), separators=(",", ":"), sort_keys=True)
    if row is None:
        session.add(UserSettingsRow(user_id=user_id, settings=text, updated=at))
    else:
        row.settings, row.updated = text, at


def settings_routes(edge: Edge, now: Callable[[], float]) -> list[Route]:
    """``GET /api/me/settings`` and ``POST /api/me/settings {"settings": {...}}``."""
    store, handler, body, current_user = edge.store, edge.handler, edge.body, edge.current_user

    async def mine(request: Request) -> Response:
        user = await current_user(request)
        if user is None:
            raise Refused("not_signed_in", Message("sign in to keep your settings on your account"))
        if request.method == "GET":
            found = await store.run(lambda s: load_settings(s, user.id))
            return JSONResponse({"settings": found})
        data = fields(await body(request), {"settings": ANY})  # checked just below
        kept = check_settings(data.get("settings"))
        at = now()
        await store.write(lambda s: save_settings(s, user.id, kept, at))
        return JSONResponse({"settings": kept})

    return [Route("/api/me/settings", handler(mine), methods=["GET", "POST"])]
