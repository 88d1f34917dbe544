"""JSON over HTTP to a gammon server (PROTOCOL.md 1), with the standard library only."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from gammon.errors import GammonError
from gammon.i18n import SOURCE_LANGUAGE, Translator, translator

__all__ = ["ConnectError", "Http", "base_url"]


class ConnectError(GammonError):
    """The server refused us, or cannot be reached, or a game's dice did not verify."""


class Http:
    """JSON over HTTP with a cookie jar and the double-submit CSRF header (PROTOCOL.md 1.1).

    Every request asks for ``lang`` in ``Accept-Language``, as a browser does, so that the
    server's refusals and the game log arrive in the player's language."""

    def __init__(self, base: str, lang: str = SOURCE_LANGUAGE) -> None:
        self.base = base
        self.tr: Translator = translator(lang)
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf: str | None = None

    def _cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar if c.value is not None)

    def get(self, path: str) -> Any:
        return self._send(urllib.request.Request(self.base + path, method="GET"))

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        token = self._cookie("gammon_csrf") or self.csrf
        if token is None:
            self.csrf = str(self.get("/api/me")["csrf"])
            token = self._cookie("gammon_csrf") or self.csrf
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body or {}).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": token},
            method="POST",
        )
        return self._send(request)

    def headers(self) -> dict[str, str]:
        """What every request and the WebSocket's upgrade carry: the cookies and the language."""
        return {"Cookie": self.cookie_header(), "Accept-Language": self.tr.lang}

    def _send(self, request: urllib.request.Request) -> Any:
        request.add_header("Accept", "application/json")
        request.add_header("Accept-Language", self.tr.lang)
        tr = self.tr
        try:
            with self.opener.open(request, timeout=60) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            raise ConnectError(http_error(exc, tr)) from None
        except urllib.error.URLError as exc:
            raise ConnectError(
                tr.gettext("cannot reach {server}: {reason}", server=self.base, reason=exc.reason)
            ) from None
        except (OSError, json.JSONDecodeError) as exc:
            raise ConnectError(
                tr.gettext(
                    "{server} did not answer like a gammon server: {reason}",
                    server=self.base,
                    reason=exc,
                )
            ) from None


def http_error(exc: urllib.error.HTTPError, tr: Translator | None = None) -> str:
    """The server's message (in the language asked for) and code (PROTOCOL.md 1: every
    error has both)."""
    tr = tr or translator()
    try:
        error = json.loads(exc.read())["error"]
        text = f"{error['message']} ({error['code']})"
    except (OSError, ValueError, KeyError, TypeError):
        text = f"HTTP {exc.code} {exc.reason}"
    retry = exc.headers.get("Retry-After") if exc.headers else None
    return tr.gettext("{error}; retry in {seconds} s", error=text, seconds=retry) if retry else text


def base_url(text: str, tr: Translator | None = None) -> str:
    """``http://host:port`` from what the user typed (a bare ``host:port`` is fine)."""
    url = text.strip().rstrip("/")
    if "://" not in url:
        url = f"http://{url}"
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConnectError(
            (tr or translator()).gettext(
                "not a server address: {text} (expected http://HOST:PORT)", text=repr(text)
            )
        )
    return f"{parts.scheme}://{parts.netloc}"
