"""A Python client of the avatar_service HTTP API, sync and async, typed with the API's own msgspec Structs.

    from avatar_service.client import AvatarClient

    with AvatarClient("http://127.0.0.1:8000", "sk_...") as client:
        ava = client.personalities.create(name="Ava", system_prompt="You are a museum guide.")
        for personality in client.personalities.list_all():
            print(personality.name)

It imports httpx, msgspec and the Structs of `avatar_service.core.model`, nothing of the server.
`AvatarClient` runs on httpx.Client; `AsyncAvatarClient` on httpx.AsyncClient (asyncio).
"""

from avatar_service.client._async.client import AsyncAvatarClient
from avatar_service.client._async.transport import AsyncTurnStream
from avatar_service.client._sync.client import AvatarClient
from avatar_service.client._sync.transport import TurnStream
from avatar_service.client.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    AvatarClientError,
    BadRequestError,
    ConflictError,
    IncompleteStreamError,
    InternalServerError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitError,
    StreamError,
)

__all__ = [
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "AsyncAvatarClient",
    "AsyncTurnStream",
    "AuthenticationError",
    "AvatarClient",
    "AvatarClientError",
    "BadRequestError",
    "ConflictError",
    "IncompleteStreamError",
    "InternalServerError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "RateLimitError",
    "StreamError",
    "TurnStream",
]
