"""Bearer-key authentication and per-route scopes, as a Litestar guard."""

from typing import Any

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler

from avatar_service.core.errors import Unauthenticated
from avatar_service.core.scopes import require
from avatar_service.core.services.api_keys import ApiKeys, Caller


def scopes(*needed: str) -> dict[str, Any]:
    """Route `opt` naming the scopes an operation needs."""
    return {"scopes": needed}


async def authenticate(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    header = connection.headers.get("authorization", "")
    scheme, _, secret = header.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise Unauthenticated("Missing API key: send 'Authorization: Bearer sk_...'")
    keys: ApiKeys = connection.app.state.api_keys
    caller = await keys.authenticate(secret.strip())
    require(caller.scopes, *handler.opt.get("scopes", ()))
    connection.state.caller = caller


def current_caller(request: Request[Any, Any, Any]) -> Caller:
    caller: Caller = request.state.caller
    return caller
