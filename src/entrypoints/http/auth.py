"""Bearer-key authentication and per-route scopes.

It runs in the /v1 router's before-request hook rather than as a Litestar guard: Litestar copies the route
handler for every guard call (some seventy attribute writes a request), which cost more than the key check.
"""

from typing import Any

from litestar import Request
from litestar.types import Scope

from avatar_service.core.errors import Unauthenticated
from avatar_service.core.scopes import require
from avatar_service.core.services.api_keys import ApiKeys, Caller

# Where a middleware that verified the request's key (rate_limit.py) leaves the caller for the authentication hook
VERIFIED = "verified_caller"


def scopes(*needed: str) -> dict[str, Any]:
    """Route `opt` naming the scopes an operation needs."""
    return {"scopes": needed}


def bearer_secret(scope: Scope) -> str | None:
    """The secret of the request's `Authorization: Bearer ...` header, or None."""
    for name, value in scope["headers"]:
        if name.lower() == b"authorization":
            scheme, _, secret = bytes(value).decode("latin-1").partition(" ")
            if scheme.lower() != "bearer":
                return None
            return secret.strip() or None
    return None


async def authenticate(request: Request[Any, Any, Any]) -> None:
    """Who is calling (401 without a valid key), and may they call this route (403 without its scopes)."""
    secret = bearer_secret(request.scope)
    if secret is None:
        raise Unauthenticated("Missing API key: send 'Authorization: Bearer sk_...'")
    caller = request.scope["state"].pop(VERIFIED, None)  # verified moments ago, for this request
    if caller is None:
        keys: ApiKeys = request.app.state.api_keys
        caller = await keys.authenticate(secret)
    require(caller.scopes, *request.route_handler.opt.get("scopes", ()))
    request.scope["state"]["caller"] = caller  # what `request.state` holds, without building its wrapper twice


def current_caller(request: Request[Any, Any, Any]) -> Caller:
    caller: Caller = request.scope["state"]["caller"]
    return caller
