"""Accounts: sign-up and login with argon2id, guests, sessions, CSRF checks and rate limits.

A session is a random token in an HttpOnly cookie; the database keeps only its
SHA-256, so a copy of the database does not let anyone sign in. Every
WebSocket is bound to the user of the session it was opened with: no message
can name another user to act for.

>>> check_name("alice") is None, str(check_name("guest-1"))
(True, "names starting with 'guest' or 'gammon' are reserved")
>>> bucket = TokenBuckets(capacity=2, per_second=0.0)
>>> bucket.take("ip", now=0.0), bucket.take("ip", now=0.0), bucket.take("ip", now=0.0)
(0.0, 0.0, inf)
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gammon.messages import Message
from gammon.server.db import SessionRow, User, select
from gammon.server.names import BadName, read_name
from gammon.server.protocol import Refused
from gammon.server.timesource import SystemTime, TimeSource

__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "SESSION_COOKIE",
    "SESSION_SECONDS",
    "Accounts",
    "TokenBuckets",
    "UserInfo",
    "check_name",
    "check_password",
    "csrf_ok",
    "hash_token",
]

SESSION_COOKIE: Final = "gammon_session"
CSRF_COOKIE: Final = "gammon_csrf"
CSRF_HEADER: Final = "x-csrf-token"
SESSION_SECONDS: Final = 30 * 24 * 3600

_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,19}")
_RESERVED: Final = ("guest", "gammon")
# OWASP's argon2id parameters (19 MiB, 2 passes, 1 lane): about 50 ms a hash here.
_HASHER: Final = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
# Checked against when the name is unknown, so both answers take as long.
_DUMMY_HASH: Final = _HASHER.hash("not a real password")


@dataclass(frozen=True)
class UserInfo:
    """The signed-in user as the server passes it around (never the password hash)."""

    id: int
    name: str
    guest: bool = False
    operator: bool = False
    banned: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "guest": self.guest, "operator": self.operator}

    @classmethod
    def from_row(cls, row: User) -> UserInfo:
        return cls(row.id, row.name, row.is_guest, row.is_operator, row.banned)


def check_name(name: object) -> Message | None:
    """Why ``name`` cannot be an account name, or None if it can: the rule of every name
    (gammon.server.names), then an account's own alphabet."""
    try:
        read_name(name, low=3, high=20)
    except BadName as exc:
        return Message("a name {why}", why=exc.text)
    if not isinstance(name, str) or _NAME.fullmatch(name) is None:
        return Message(
            "a name is 3-20 characters: the letters a-z and A-Z (no accents), the digits 0-9, "
            "'_' and '-', starting with a letter"
        )
    if name.lower().startswith(_RESERVED):
        return Message("names starting with 'guest' or 'gammon' are reserved")
    return None


def check_password(password: object) -> Message | None:
    """Why ``password`` cannot be used, or None if it can."""
    if not isinstance(password, str) or not 8 <= len(password) <= 256:
        return Message("a password is 8 to 256 characters")
    return None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def csrf_ok(cookie: str | None, header: str | None) -> bool:
    """The double-submit check: the header repeats the cookie (compared in constant time)."""
    if not cookie or not header:
        return False
    return hmac.compare_digest(cookie.encode("utf-8"), header.encode("utf-8"))


class TokenBuckets:
    """A token bucket per key: ``capacity`` at once, refilled at ``per_second``.

    :meth:`take` returns 0 when a token was taken, else the seconds to wait.
    """

    def __init__(
        self,
        capacity: float,
        per_second: float,
        *,
        max_keys: int = 100_000,
        name: str = "",
        time: TimeSource | None = None,
    ) -> None:
        #: The clock the buckets refill by (gammon.server.timesource).
        self.time: TimeSource = time if time is not None else SystemTime()
        #: What the buckets limit (``login_ip``...): their keys' prefix when several nodes
        #: share them in Redis (gammon.server.cluster).
        self.name = name
        self.capacity = capacity
        self.per_second = per_second
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, *, now: float | None = None) -> float:
        at = self.time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(key, (self.capacity, at))
        tokens = min(self.capacity, tokens + (at - last) * self.per_second)
        if tokens >= 1.0:
            self._store(key, tokens - 1.0, at)
            return 0.0
        self._store(key, tokens, at)
        if self.per_second <= 0:
            return math.inf
        return (1.0 - tokens) / self.per_second

    def _store(self, key: str, tokens: float, at: float) -> None:
        self._buckets[key] = (tokens, at)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)


class Accounts:
    """Users and sessions in the database (call from a thread: hashing takes ~50 ms).

    Sessions are cached in memory for a minute; :meth:`forget_user` drops the
    cache at once when an operator bans someone.
    """

    _CACHE_SECONDS: Final = 60.0

    def __init__(self, time: TimeSource | None = None) -> None:
        #: The clock sessions expire by (gammon.server.timesource).
        self.time: TimeSource = time if time is not None else SystemTime()
        self._cache: dict[str, tuple[UserInfo, float]] = {}

    # -- accounts ------------------------------------------------------------------------

    def signup(
        self, session: Session, name: object, password: object, *, guest_id: int | None = None
    ) -> UserInfo:
        """A new account; with ``guest_id`` (the guest signing up) that guest becomes the
        account, keeping its id and so every table and result it played."""
        problem = check_name(name)
        if problem:
            raise Refused("bad_name", problem)
        problem = check_password(password)
        if problem:
            raise Refused("bad_password", problem)
        assert isinstance(name, str) and isinstance(password, str)
        key = name.lower()
        if session.scalar(select(User.id).where(User.name_key == key)) is not None:
            raise Refused("name_taken", Message("the name {name} is taken", name=repr(name)))
        # The first account of a server is its operator (R13: someone must moderate).
        first = (
            session.scalar(select(func.count()).select_from(User).where(User.is_guest.is_(False)))
            == 0
        )
        guest = session.get(User, guest_id) if guest_id is not None else None
        if guest is not None and guest.is_guest and not guest.banned:
            row = guest
            row.name, row.name_key = name, key
            row.password_hash = _HASHER.hash(password)
            row.is_guest = False
            row.is_operator = first
            self.forget_user(row.id)
        else:
            row = User(
                name=name,
                name_key=key,
                password_hash=_HASHER.hash(password),
                created=self.time.now(),
                is_operator=first,
            )
            session.add(row)
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
            raise Refused(
                "name_taken", Message("the name {name} is taken", name=repr(name))
            ) from None
        return UserInfo.from_row(row)

    def login(self, session: Session, name: object, password: object) -> UserInfo:
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > 256:
            raise Refused("bad_request", Message("'name' and 'password' must be strings"))
        row = session.scalar(select(User).where(User.name_key == name.lower()))
        stored = row.password_hash if row is not None and row.password_hash else _DUMMY_HASH
        try:
            _HASHER.verify(stored, password)
            valid = row is not None and row.password_hash is not None
        except (VerificationError, InvalidHashError):
            valid = False
        if not valid or row is None:
            raise Refused("bad_credentials", Message("wrong name or password"))
        if row.banned:
            raise Refused("banned", Message("this account is banned"))
        if _HASHER.check_needs_rehash(stored):
            row.password_hash = _HASHER.hash(password)
            session.commit()
        return UserInfo.from_row(row)

    def guest(self, session: Session) -> UserInfo:
        for _ in range(10):
            name = f"Guest-{secrets.token_hex(3)}"
            row = User(name=name, name_key=name.lower(), created=self.time.now(), is_guest=True)
            session.add(row)
            try:
                session.commit()
            except IntegrityError:  # pragma: no cover - a clash in 16 million names
                session.rollback()
                continue
            return UserInfo.from_row(row)
        raise Refused(  # pragma: no cover
            "server_error", Message("no guest name is free; try again")
        )

    def find(self, session: Session, name: str) -> UserInfo | None:
        row = session.scalar(select(User).where(User.name_key == name.lower()))
        return UserInfo.from_row(row) if row is not None else None

    # -- sessions --------------------------------------------------------------------------

    def new_session(self, session: Session, user: UserInfo) -> str:
        """Open a session for ``user``; returns the token for the cookie."""
        token = secrets.token_urlsafe(32)
        at = self.time.now()
        session.add(
            SessionRow(
                token_hash=hash_token(token),
                user_id=user.id,
                created=at,
                expires=at + SESSION_SECONDS,
            )
        )
        session.commit()
        return token

    def cached_user(self, token: str | None) -> UserInfo | bool | None:
        """The cached user of a session token; False when the cache does not know."""
        if not token:
            return None
        hit = self._cache.get(hash_token(token))
        if hit is None or hit[1] < self.time.monotonic():
            return False
        return hit[0]

    def session_user(self, session: Session, token: str | None) -> UserInfo | None:
        """The user a session token belongs to, or None (unknown, expired, banned)."""
        if not token or len(token) > 100:
            return None
        key = hash_token(token)
        hit = self._cache.get(key)
        if hit is not None and hit[1] >= self.time.monotonic():
            return hit[0]
        row = session.get(SessionRow, key)
        user: UserInfo | None = None
        if row is not None and row.expires > self.time.now():
            found = session.get(User, row.user_id)
            if found is not None and not found.banned:
                user = UserInfo.from_row(found)
        if user is not None:
            if len(self._cache) > 50_000:
                self._cache.clear()
            self._cache[key] = (user, self.time.monotonic() + self._CACHE_SECONDS)
        else:
            self._cache.pop(key, None)
        return user

    def end_session(self, session: Session, token: str | None) -> None:
        if not token:
            return
        key = hash_token(token)
        self._cache.pop(key, None)
        session.execute(delete(SessionRow).where(SessionRow.token_hash == key))
        session.commit()

    def forget_session(self, key: str) -> None:
        """Drop one cached session (by its token's hash): it ended on another node."""
        self._cache.pop(key, None)

    def forget_user(self, user_id: int) -> None:
        """Drop a user's cached sessions (after a ban), so the next lookup reads the database."""
        for key, (user, _) in list(self._cache.items()):
            if user.id == user_id:
                self._cache.pop(key, None)
