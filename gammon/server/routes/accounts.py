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

__all__ = ["account_routes"]

#: The fields of the sign-up's and the login's bodies (the accounts check their values).
_CREDENTIALS: Final[dict[str, type]] = {"name": ANY, "password": ANY}


def account_routes(
    edge: Edge,
    *,
    login_limit: tuple[float, float],
    signup_limit: tuple[float, float],
    time: TimeSource,
) -> list[Route]:
    """The account routes, with the login's and the sign-up's token buckets
    ((burst, tokens per second): per address, and the login per name too)."""
    store, accounts, hub = edge.store, edge.accounts, edge.hub
    login_ip = TokenBuckets(*login_limit, name="login_ip", time=time)
    login_name = TokenBuckets(*login_limit, name="login_name", time=time)
    signup_ip = TokenBuckets(*signup_limit, name="signup_ip", time=time)

    def address(request: Request) -> str:
        return request.client.host if request.client else "?"

    async def signed_in(request: Request, user: UserInfo, status: int = 200) -> Response:
        token = await store.run(lambda s: accounts.new_session(s, user))
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

    async def me(request: Request) -> Response:
        user = await edge.current_user(request)
        return JSONResponse(
            {"user": user.to_json() if user else None, "csrf": request.scope["state"]["csrf"]}
        )

    async def signup(request: Request) -> Response:
        data = await edge.body_fields(request, _CREDENTIALS)
        await edge.limited(signup_ip, address(request))
        # A guest who signs up keeps what they played: the guest becomes the account.
        before = await edge.current_user(request)
        guest_id = before.id if before is not None and before.guest else None
        user = await store.run(
            lambda s: accounts.signup(s, data.get("name"), data.get("password"), guest_id=guest_id)
        )
        if user.operator:
            hub.moderator.add_operator(user.name)
        return await signed_in(request, user, 201)

    async def login(request: Request) -> Response:
        data = await edge.body_fields(request, _CREDENTIALS)
        name = data.get("name")
        await edge.limited(login_ip, address(request))
        if isinstance(name, str):
            await edge.limited(login_name, name.lower()[:40])
        user = await store.run(lambda s: accounts.login(s, name, data.get("password")))
        if hub.is_banned(user):
            raise Refused("banned", Message("this account is banned"))
        return await signed_in(request, user)

    async def guest(request: Request) -> Response:
        await edge.body_fields(request, {})
        await edge.limited(signup_ip, address(request))
        user = await store.run(accounts.guest)
        return await signed_in(request, user, 201)

    async def logout(request: Request) -> Response:
        await edge.body_fields(request, {})
        token = request.cookies.get(SESSION_COOKIE)
        user = await edge.current_user(request)
        await store.run(lambda s: accounts.end_session(s, token))
        if user is not None and token:
            hub.sockets.close_user(
                user.id, 4401, Message("signed out"), session_hash=hash_token(token)
            )
            await hub.cluster.signed_out(user.id, hash_token(token))
            hub.moderator.forget(user.name)
        response = JSONResponse({"user": None})
        response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
        return response

    return [
        Route("/api/me", edge.handler(me), methods=["GET"]),
        Route("/api/signup", edge.handler(signup), methods=["POST"]),
        Route("/api/login", edge.handler(login), methods=["POST"]),
        Route("/api/guest", edge.handler(guest), methods=["POST"]),
        Route("/api/logout", edge.handler(logout), methods=["POST"]),
    ]
