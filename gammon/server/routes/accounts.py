"""Accounts (docs/PROTOCOL.md 1.2): who is signed in, sign-up, login, guests, logout."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.messages import Message
from gammon.server.auth import SESSION_COOKIE, SESSION_SECONDS, TokenBuckets, UserInfo, hash_token
from gammon.server.bodies import ANY
from gammon.server.protocol import Refused

if TYPE_CHECKING:
    from gammon.server.edge import Edge
    from gammon.server.timesource import TimeSource

__all__ = ["AccountRoutes"]

#: The fields of the sign-up's and the login's bodies (the accounts check their values).
_CREDENTIALS: Final[dict[str, type]] = {"name": ANY, "password": ANY}


class AccountRoutes:
    """The account routes, with the login's and the sign-up's token buckets
    ((burst, tokens per second): per address, and the login per name too)."""

    def __init__(
        self,
        edge: Edge,
        *,
        login_limit: tuple[float, float],
        signup_limit: tuple[float, float],
        time: TimeSource,
    ) -> None:
        self.edge = edge
        self.store, self.accounts, self.hub = edge.store, edge.accounts, edge.hub
        self.login_ip = TokenBuckets(*login_limit, name="login_ip", time=time)
        self.login_name = TokenBuckets(*login_limit, name="login_name", time=time)
        self.signup_ip = TokenBuckets(*signup_limit, name="signup_ip", time=time)

    def routes(self) -> list[Route]:
        handler = self.edge.handler
        return [
            Route("/api/me", handler(self.me), methods=["GET"]),
            Route("/api/signup", handler(self.signup), methods=["POST"]),
            Route("/api/login", handler(self.login), methods=["POST"]),
            Route("/api/guest", handler(self.guest), methods=["POST"]),
            Route("/api/logout", handler(self.logout), methods=["POST"]),
        ]

    async def _signed_in(self, request: Request, user: UserInfo, status: int = 200) -> Response:
        """The answer that signs ``user`` in: a new session in its cookie."""
        accounts = self.accounts
        token = await self.store.run(lambda s: accounts.new_session(s, user))
        response = JSONResponse({"user": user.to_json()}, status_code=status)
        response.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=SESSION_SECONDS,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
        return response

    async def me(self, request: Request) -> Response:
        user = await self.edge.current_user(request)
        return JSONResponse(
            {"user": user.to_json() if user else None, "csrf": request.scope["state"]["csrf"]}
        )

    async def signup(self, request: Request) -> Response:
        edge, accounts = self.edge, self.accounts
        data = await edge.body_fields(request, _CREDENTIALS)
        await edge.limited(self.signup_ip, _address(request))
        # A guest who signs up keeps what they played: the guest becomes the account.
        before = await edge.current_user(request)
        guest_id = before.id if before is not None and before.guest else None
        user = await self.store.run(
            lambda s: accounts.signup(s, data.get("name"), data.get("password"), guest_id=guest_id)
        )
        if user.operator:
            self.hub.moderator.add_operator(user.name)
        return await self._signed_in(request, user, 201)

    async def login(self, request: Request) -> Response:
        edge, accounts = self.edge, self.accounts
        data = await edge.body_fields(request, _CREDENTIALS)
        name = data.get("name")
        await edge.limited(self.login_ip, _address(request))
        if isinstance(name, str):
            await edge.limited(self.login_name, name.lower()[:40])
        user = await self.store.run(lambda s: accounts.login(s, name, data.get("password")))
        if self.hub.is_banned(user):
            raise Refused("banned", Message("this account is banned"))
        return await self._signed_in(request, user)

    async def guest(self, request: Request) -> Response:
        await self.edge.body_fields(request, {})
        await self.edge.limited(self.signup_ip, _address(request))
        user = await self.store.run(self.accounts.guest)
        return await self._signed_in(request, user, 201)

    async def logout(self, request: Request) -> Response:
        edge, accounts, hub = self.edge, self.accounts, self.hub
        await edge.body_fields(request, {})
        token = request.cookies.get(SESSION_COOKIE)
        user = await edge.current_user(request)
        await self.store.run(lambda s: accounts.end_session(s, token))
        if user is not None and token:
            hub.sockets.close_user(
                user.id, 4401, Message("signed out"), session_hash=hash_token(token)
            )
            await hub.cluster.signed_out(user.id, hash_token(token))
            hub.moderator.forget(user.name)
        response = JSONResponse({"user": None})
        response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
        return response


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"
