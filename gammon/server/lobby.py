"""The lobby: every open and playing table in page order, and the page each socket sees.

A lobby socket no longer gets the whole list at each change (docs/DEPLOY.md 9.2, point 1):
it sees one page of a view it chose (``lobby_view``, docs/PROTOCOL.md 7): open tables,
playing ones or both, by match length, variant, rated or not and rating, a page of
``size`` tables; without a view, the first page of the open tables. After a change each
socket is sent its page again only when what it would be sent differs from what it was
last sent, so a message's size follows the page, never the number of tables.

The lobby is pure of the network: the hub gives it its entries (this node's and, with
several nodes, the others', :meth:`gammon.server.lobby_sockets.LobbySockets.entry`), the
ratings, the extras (the tournaments) and a way to wait; it sends on the sockets given it.

>>> view = LobbyView.from_fields({"status": "playing", "length": 3, "page": 1})
>>> view.status, view.length, view.page, view.size
('playing', 3, 1, 50)
>>> LobbyView.from_query({"size": "500"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gammon.server.protocol.Refused: bad_request: 'size' must be a page size from 1 to 200, got 500
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import orjson

from gammon.messages import Message
from gammon.server.client_vocabulary import LOBBY_MESSAGES
from gammon.server.protocol import Refused, parse_message
from gammon.server.timesource import SystemTime, TimeSource

if TYPE_CHECKING:
    from gammon.server.auth import UserInfo
    from gammon.server.connections import Connection

__all__ = ["DEFAULT_PAGE_SIZE", "DEBOUNCE_S", "Lobby", "LobbyView", "ordered", "page_of"]

#: A table's lobby entry (:meth:`gammon.server.lobby_sockets.LobbySockets.entry`): summary,
#: seats, invite.
Entry = Mapping[str, Any]
#: A seat's rating from its user id and bot level.
Rating = Callable[[int | None, str | None], float | None]

#: Tables on a page when the client does not say (docs/PROTOCOL.md 7).
DEFAULT_PAGE_SIZE: Final = 50
#: A change reaches the lobby's sockets at most this often.
DEBOUNCE_S: Final = 0.25
#: The query parameters of ``GET /api/tables`` read as numbers (the others are words).
_WHOLE: Final = ("length", "page", "size")


@dataclass(frozen=True)
class LobbyView:
    """Which tables a socket sees and which page of them (the fields of ``lobby_view``)."""

    status: str = "open"
    length: int | None = None
    variant: str | None = None
    rated: bool | None = None
    rating: tuple[float, float] | None = None
    page: int = 0
    size: int = DEFAULT_PAGE_SIZE

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> LobbyView:
        """The view of a checked ``lobby_view`` message (gammon.server.protocol)."""
        rating = fields.get("rating")
        return cls(
            status=fields.get("status", "open"),
            length=fields.get("length"),
            variant=fields.get("variant"),
            rated=fields.get("rated"),
            rating=(float(rating[0]), float(rating[1])) if rating is not None else None,
            page=fields.get("page", 0),
            size=fields.get("size", DEFAULT_PAGE_SIZE),
        )

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> LobbyView:
        """The view ``GET /api/tables`` asks for in its query (``rating=1400,1600``), checked
        as a ``lobby_view`` message is; what is wrong answers ``bad_request`` with ``field``."""
        data: dict[str, object] = {}
        for name, text in query.items():
            if name in ("type", "id", "seq", "side", "entropy"):  # the messages' envelope
                raise Refused(
                    "bad_request",
                    Message(
                        "unknown field {field} for a {type} message",
                        field=repr(name),
                        type="'lobby_view'",
                    ),
                    field=name,
                )
            data[name] = _query_value(name, text)
        try:
            message = parse_message(orjson.dumps({**data, "type": "lobby_view"}), LOBBY_MESSAGES)
        except Refused as exc:
            raise Refused("bad_request", exc.text_message, field=exc.field) from None
        return cls.from_fields(message.fields)

    def matches(self, entry: Entry, rating: Rating) -> bool:
        """Whether a table (its entry, its seats rated by ``rating``) is in this view, page
        aside."""
        table = entry["summary"]
        if self.status != "all" and table["status"] != self.status:
            return False
        settings = table["settings"]
        if self.length is not None and not (
            settings["mode"] == "match" and settings["length"] == self.length
        ):
            return False
        if self.variant is not None and settings["variant"] != self.variant:
            return False
        if self.rated is not None:
            rated = settings["mode"] == "match" and settings.get("rated") is not False
            if rated != self.rated:
                return False
        if self.rating is not None:
            low, high = self.rating
            known = [value for value in ratings_of(entry, rating) if value is not None]
            if not known or not all(low <= value <= high for value in known):
                return False
        return True

    def to_json(self) -> dict[str, Any]:
        """The view as ``lobby_view`` spells it (each lobby message says which it shows)."""
        return {
            "status": self.status,
            "length": self.length,
            "variant": self.variant,
            "rated": self.rated,
            "rating": list(self.rating) if self.rating is not None else None,
            "size": self.size,
        }


def _query_value(name: str, text: str) -> object:
    """A query parameter as the JSON of ``lobby_view`` would hold it (left as text where it
    cannot be: the check then names it)."""
    if name in _WHOLE and text.isascii() and text.isdigit():
        return int(text)
    if name == "rated" and text in ("true", "false"):
        return text == "true"
    if name == "rating":
        try:
            bounds = [float(bound) for bound in text.split(",")]
        except ValueError:
            return text
        return bounds if all(bound == bound for bound in bounds) else text  # NaN is no rating
    return text


def visible_to(entry: Entry, viewer_id: int | None) -> bool:
    """Playing tables and public open ones for everybody; an invitation for the two it
    concerns (docs/PROTOCOL.md 1.3)."""
    invite = entry["invite_id"]
    return (
        invite is None
        or entry["summary"]["status"] == "playing"
        or (viewer_id is not None and viewer_id in (invite, entry["creator_id"]))
    )


def ratings_of(entry: Entry, rating: Rating) -> list[float | None]:
    """Each seat's rating (None: an empty seat, a guest, a player not rated yet)."""
    return [rating(*seat) if seat else None for seat in entry["seats"]]


def ordered(entries: Iterable[Entry]) -> list[Entry]:
    """The entries (:meth:`gammon.server.lobby_sockets.LobbySockets.entry`) in page order:
    open tables first, then the playing ones, the newest first in each (the entries
    themselves, not copies: ordering 100,000 of them is the lobby's main cost, DEPLOY.md
    9.2)."""
    tables: dict[str, list[Entry]] = {"open": [], "playing": []}
    for entry in entries:
        listed = tables.get(entry["summary"]["status"])
        if listed is not None:
            listed.append(entry)
    for listed in tables.values():
        listed.sort(key=_newest_first)  # one sort per status: no tuple a key
    return tables["open"] + tables["playing"]


def _newest_first(entry: Entry) -> int:
    return -int(entry["summary"]["id"])


def matching(
    tables: list[Entry], view: LobbyView, viewer_id: int | None, rating: Rating
) -> list[Entry]:
    """The tables of ``view`` the viewer sees, in page order, every page.

    ``tables`` is in page order, so a view of one status reads only that status's run of
    it (the open tables, a twentieth or so of them, for the default view)."""
    return [
        entry
        for entry in _of_status(tables, view.status)
        if visible_to(entry, viewer_id) and view.matches(entry, rating)
    ]


def _of_status(tables: list[Entry], status: str) -> list[Entry]:
    """The run of ``tables`` (in page order: the open ones, then the playing ones) with
    ``status``; all of them for ``"all"``."""
    if status == "all":
        return tables
    first_playing = bisect.bisect_left(tables, True, key=_is_open_last)
    return tables[:first_playing] if status == "open" else tables[first_playing:]


def _is_open_last(entry: Entry) -> bool:
    return bool(entry["summary"]["status"] != "open")


def page_of(
    tables: list[Entry],
    view: LobbyView,
    viewer_id: int | None,
    rating: Rating,
    found: list[Entry] | None = None,
) -> dict[str, Any]:
    """The page of ``view`` the viewer sees: its tables (SUMMARY with ``ratings``), how many
    match in all, and which page this is (one past the last is the last: tables come and
    go while a client pages). ``found``: :func:`matching`'s answer, when already known."""
    listed = matching(tables, view, viewer_id, rating) if found is None else found
    pages = max(1, -(-len(listed) // view.size))
    page = min(view.page, pages - 1)
    start = page * view.size
    return {
        "tables": [
            {**entry["summary"], "ratings": ratings_of(entry, rating)}
            for entry in listed[start : start + view.size]
        ],
        "total": len(listed),
        "page": page,
        "pages": pages,
        "view": view.to_json(),
    }


def _message(
    page: dict[str, Any], extras: dict[str, Any], viewer: UserInfo | None
) -> dict[str, Any]:
    return {"type": "lobby", **page, **extras, "you": viewer.to_json() if viewer else None}


class Lobby:
    """The lobby's sockets, the view each chose, and the page each was last sent.

    ``entries`` gives every listed table's entry; ``rating(user_id, bot)`` a seat's rating;
    ``extras`` what the lobby sends besides tables (the tournaments).

    A socket's page is sent when it joins (:meth:`show`), when it chooses a view
    (:meth:`choose`), and after a change (:meth:`changed`) only if it differs from the last.
    """

    def __init__(
        self,
        conns: set[Connection],
        entries: Callable[[], Iterable[Entry]],
        rating: Rating,
        extras: Callable[[], dict[str, Any]],
        *,
        debounce_s: float = DEBOUNCE_S,
        time: TimeSource | None = None,
    ) -> None:
        #: The sockets on /ws/lobby (the lobby chat's room too).
        self.conns = conns
        self.entries = entries
        self.rating = rating
        self.extras = extras
        self.debounce_s = debounce_s
        #: What the debounce waits on: the wall clock, also where the server's game clock
        #: is driven by hand (a limit on messages, not a time of the game).
        self.time: TimeSource = time if time is not None else SystemTime()
        self.views: dict[Connection, LobbyView] = {}
        #: What each socket was last sent, to send it only a page that changed.
        self.sent: dict[Connection, dict[str, Any]] = {}
        self._pending = False

    def tables(self) -> list[Entry]:
        """Every listed table, in page order."""
        return ordered(self.entries())

    def page_json(self, viewer: UserInfo | None, view: LobbyView) -> dict[str, Any]:
        """The lobby message for a viewer and view (``GET /api/tables`` answers its tables)."""
        extras = self.extras()
        page = page_of(self.tables(), view, viewer.id if viewer else None, self.rating)
        return _message(page, extras, viewer)

    def join(self, conn: Connection) -> None:
        """A lobby socket opened: it sees the first page of the open tables until it asks
        for another view (:meth:`show` sends it)."""
        self.conns.add(conn)
        self.views[conn] = LobbyView()

    def show(self, conn: Connection) -> None:
        """Send the socket its page now."""
        self._send(conn, self.page_json(conn.user, self.views.get(conn, LobbyView())))

    def leave(self, conn: Connection) -> None:
        self.conns.discard(conn)
        self.views.pop(conn, None)
        self.sent.pop(conn, None)

    def choose(self, conn: Connection, fields: Mapping[str, Any], message_id: object) -> None:
        """A ``lobby_view``: the socket's new view, acknowledged, and its page at once."""
        self.views[conn] = LobbyView.from_fields(fields)
        if message_id is not None:
            conn.send({"type": "ack", "id": message_id})
        self.show(conn)

    def changed(self) -> None:
        """Something listed changed: each socket's page is looked at again soon (several
        changes in :attr:`debounce_s` make one look)."""
        if self._pending or not self.conns:
            return
        self._pending = True
        self.time.call_later(self.debounce_s, self.push)

    def push(self) -> int:
        """Send each socket its page where it changed; the number of messages sent.

        The tables are ordered once, each set of filters looked for once (whatever the
        pages asked of it), and each view's page made once for the sockets that share it (a
        viewer with an invitation among the tables gets their own).
        """
        self._pending = False
        tables = self.tables()
        invitations = [entry for entry in tables if entry["invite_id"] is not None]
        private = {entry["invite_id"] for entry in invitations}
        private |= {entry["creator_id"] for entry in invitations}
        extras = self.extras()
        pages: dict[tuple[LobbyView, int | None], dict[str, Any]] = {}
        found: dict[tuple[LobbyView, int | None], list[Entry]] = {}
        sent = 0
        for conn in list(self.conns):
            view = self.views.get(conn, LobbyView())
            viewer = conn.user
            key = (view, viewer.id if viewer is not None and viewer.id in private else None)
            page = pages.get(key)
            if page is None:
                filters = (dataclasses.replace(view, page=0, size=DEFAULT_PAGE_SIZE), key[1])
                if filters not in found:
                    found[filters] = matching(tables, view, key[1], self.rating)
                page = pages[key] = page_of(tables, view, key[1], self.rating, found[filters])
            message = _message(page, extras, viewer)
            if self.sent.get(conn) != message:
                self._send(conn, message)
                sent += 1
        return sent

    def _send(self, conn: Connection, message: dict[str, Any]) -> None:
        self.sent[conn] = message
        conn.send(message)
