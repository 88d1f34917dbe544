"""The site's pages written as documents: the rule book (docs/RULES.md) and how the dice
are made fair (DICE.md), rendered from the repository's Markdown so that the site and the
documents never differ (docs/PROTOCOL.md 1.7).

Why on the server: the rules are ours, in one file, and the browser client has no
Markdown renderer (and needs none); the HTML is made once per process. Raw HTML in the
documents is not passed through (markdown-it's ``html`` option off), so a page is only
ever headings, paragraphs, lists, tables, code and links.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.server.protocol import Refused

__all__ = ["PAGES", "page", "page_routes"]

_ROOT: Final = Path(__file__).resolve().parents[2]
#: The pages by name, and the document each is made from (in a source checkout).
PAGES: Final = {"rules": _ROOT / "docs" / "RULES.md", "dice": _ROOT / "DICE.md"}


@functools.cache
def page(name: str) -> dict[str, Any]:
    """``{"name", "title", "html"}`` of a page, or :class:`Refused` when there is none."""
    from markdown_it import MarkdownIt

    path = PAGES.get(name)
    if path is None:
        known = ", ".join(sorted(PAGES))
        raise Refused("no_such_page", f"there is no page {name!r} (the pages: {known})")
    if not path.is_file():
        raise Refused(
            "not_available", f"this server was installed without its documents ({path.name})"
        )
    text = path.read_text(encoding="utf-8")
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), name)
    html = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return {"name": name, "title": title, "html": html}


def page_routes(handler: Any) -> list[Route]:
    """``GET /api/pages/{name}``, wrapped in the app's ``handler``."""

    async def one(request: Request) -> Response:
        return JSONResponse(page(request.path_params["name"]))

    return [Route("/api/pages/{name}", handler(one), methods=["GET"])]
