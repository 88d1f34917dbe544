"""The site's pages written as documents: the rule book (docs/RULES.md), the beginners'
mistakes (docs/rules/MISTAKES.md) and how the dice are made fair (DICE.md), rendered from
the repository's Markdown so that the site and the documents never differ (docs/PROTOCOL.md
1.7); and the message catalogs for the browser (gammon.i18n).

Each page is in the player's language where it has been written in it
(``docs/rules/RULES.fi.md``...), else in English: ``?lang=`` picks the language, else the
browser's ``Accept-Language``, and the reply's ``Content-Language`` says which was served.

Why on the server: the rules are ours, in one file per language, and the browser client has
no Markdown renderer (and needs none); each page's HTML is made once per process. Raw HTML
in the documents is not passed through (markdown-it's ``html`` option off), so a page is
only ever headings, paragraphs, lists, tables, code and links.
"""

from __future__ import annotations

import functools
from html import escape as html_escape
from pathlib import Path
from typing import Any, Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.i18n import (
    N_,
    SOURCE_LANGUAGE,
    UnknownLanguageError,
    language,
    messages_json,
    negotiate,
    translator,
)
from gammon.messages import Message
from gammon.server.protocol import Refused

__all__ = [
    "LANGUAGE_COOKIE",
    "PAGES",
    "index_route",
    "page",
    "page_routes",
    "requested_language",
    "source",
    "translated_path",
]

_ROOT: Final = Path(__file__).resolve().parents[2]
#: The pages by name, and the English document each is made from (in a source checkout).
PAGES: Final = {
    "rules": _ROOT / "docs" / "RULES.md",
    "mistakes": _ROOT / "docs" / "rules" / "MISTAKES.md",
    "dice": _ROOT / "DICE.md",
}
#: Where the pages' translations are: ``<folder>/<NAME>.<lang>.md``.
_TRANSLATIONS: Final = _ROOT / "docs" / "rules"


def translated_path(name: str, lang: str, folder: Path = _TRANSLATIONS) -> Path:
    """Where the page ``name`` in ``lang`` is written (it may not be, yet): in ``folder``,
    the translations' folder unless a test gives another.

    >>> translated_path("rules", "fi").relative_to(_ROOT).as_posix()
    'docs/rules/RULES.fi.md'
    """
    if lang == SOURCE_LANGUAGE:
        return PAGES[name]
    return folder / f"{PAGES[name].stem}.{lang}.md"


def source(name: str, lang: str, folder: Path = _TRANSLATIONS) -> tuple[Path, str]:
    """The document the page ``name`` in ``lang`` is made from, and the language it is in:
    its translation where one is written (in ``folder``), else the English original, so
    that a language with a page still to write shows the page rather than nothing."""
    translated = translated_path(name, lang, folder)
    if translated.is_file():
        return translated, lang
    return PAGES[name], SOURCE_LANGUAGE


@functools.cache
def page(name: str, lang: str = SOURCE_LANGUAGE) -> dict[str, Any]:
    """``{"name", "lang", "title", "html"}`` of a page in ``lang``, or in English where it
    has no translation (``lang`` then says ``en``); :class:`Refused` when there is no page."""
    from markdown_it import MarkdownIt

    path = PAGES.get(name)
    if path is None:
        known = ", ".join(sorted(PAGES))
        raise Refused(
            "no_such_page",
            Message("there is no page {name} (the pages: {known})", name=repr(name), known=known),
        )
    path, lang = source(name, lang)
    if not path.is_file():
        raise Refused(
            "not_available",
            Message("this server was installed without its documents ({file})", file=path.name),
        )
    text = path.read_text(encoding="utf-8")
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), name)
    html = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return {"name": name, "lang": lang, "title": title, "html": html}


#: The cookie the browser client leaves with the player's language (static/js/i18n.js).
LANGUAGE_COOKIE: Final = "gammon_lang"


def spoken(conn: HTTPConnection) -> str:
    """The language to answer ``conn`` in (a request, a WebSocket's upgrade): as
    :func:`requested_language`, but never refused: an unknown ``?lang=`` is passed over
    (an error about the language must itself be written in one)."""
    try:
        return requested_language(conn)
    except Refused:
        return negotiate(conn.headers.get("accept-language"))


def requested_language(request: HTTPConnection) -> str:
    """The language a request asks for: ``?lang=``, else the player's choice in the cookie
    ``gammon_lang``, else its ``Accept-Language``, else English; an unknown ``lang`` is
    refused (``bad_request``) with the languages there are (an unknown cookie is passed over:
    the player did not type it)."""
    asked = request.query_params.get("lang")
    if asked is None:
        chosen = request.cookies.get(LANGUAGE_COOKIE, "")
        try:
            return language(chosen) if chosen else negotiate(request.headers.get("accept-language"))
        except UnknownLanguageError:
            return negotiate(request.headers.get("accept-language"))
    try:
        return language(asked)
    except UnknownLanguageError as exc:
        raise Refused("bad_request", str(exc), field="lang") from None


def _in_language(body: dict[str, Any], vary: str = "Accept-Language") -> Response:
    """The JSON reply, with the language it is in and what it varies with (the header; a
    page also with the cookie of the player's choice, so no cache serves it in another's)."""
    return JSONResponse(body, headers={"Content-Language": body["lang"], "Vary": vary})


def page_routes(handler: Any) -> list[Route]:
    """``GET /api/pages/{name}``, ``GET /api/catalogs/{lang}`` and ``GET /api/catalog`` (the
    catalog of the language the request asks for: the browser's own, for a guest who has
    chosen none), wrapped in the app's ``handler``."""

    async def one(request: Request) -> Response:
        lang = requested_language(request)
        return _in_language(page(request.path_params["name"], lang), "Accept-Language, Cookie")

    async def catalog(request: Request) -> Response:
        try:
            lang = language(request.path_params["lang"])
        except UnknownLanguageError as exc:
            raise Refused("bad_request", str(exc), field="lang") from None
        return _in_language(_catalog(lang))

    async def negotiated(request: Request) -> Response:
        return _in_language(_catalog(negotiate(request.headers.get("accept-language"))))

    return [
        Route("/api/pages/{name}", handler(one), methods=["GET"]),
        Route("/api/catalogs/{lang}", handler(catalog), methods=["GET"]),
        Route("/api/catalog", handler(negotiated), methods=["GET"]),
    ]


@functools.cache
def _catalog(lang: str) -> dict[str, Any]:
    return messages_json(lang)


#: index.html's words, each as the page has it in English: its text...
_INDEX_TEXTS: Final = (
    N_("Skip to content"),
    N_("Loading…"),
    N_("The gammon client needs JavaScript. Programs can use the API in docs/PROTOCOL.md."),
)
#: ...and its aria-labels (the script writes the header's again at each change of language).
_INDEX_LABELS: Final = (N_("gammon: lobby"), N_("Account"))


def _index_html(html: str, lang: str) -> str:
    """index.html in ``lang``: its ``lang`` attribute, and its own words (what a player
    reads before the script has run, or without it, and the header's labels)."""
    t = translator(lang)
    html = html.replace('<html lang="en">', f'<html lang="{lang}">', 1)
    for english in _INDEX_TEXTS:
        words = html_escape(t.gettext(english), quote=False)
        html = html.replace(f">{english}<", f">{words}<", 1)
    for english in _INDEX_LABELS:
        label = html_escape(t.gettext(english))
        html = html.replace(f'aria-label="{english}"', f'aria-label="{label}"', 1)
    return html


def index_route(static: Path) -> Route:
    """``GET /``: the browser client's page with ``lang`` and ``Content-Language`` in the
    player's language (the cookie, else ``Accept-Language``), so that the browser, a screen
    reader and a search engine know it before any script runs, and its own few words (the
    skip link, "Loading…", the sentence for a browser without JavaScript) in it."""
    from starlette.responses import HTMLResponse

    index = static / "index.html"

    async def serve(request: Request) -> Response:
        lang = requested_language(request)
        html = _index_html(index.read_text(encoding="utf-8"), lang)
        return HTMLResponse(
            html,
            headers={"Content-Language": lang, "Vary": "Accept-Language, Cookie",
                     "Cache-Control": "no-cache"},
        )  # fmt: skip

    return Route("/", serve, methods=["GET"])
