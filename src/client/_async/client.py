"""AsyncAvatarClient: the whole API over one httpx.AsyncClient.

`_sync/client.py` is generated from this file (scripts/unasync_client.py): edit this one, then regenerate.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx
import msgspec

from avatar_service.client._async.activity import Conversations, Games, GameSessions, Videos
from avatar_service.client._async.admin import ApiKeys, Webhooks
from avatar_service.client._async.content import Avatars, Knowledge, Memories, Personalities, Users, Voices
from avatar_service.client._async.transport import AsyncTransport, Progress
from avatar_service.client._wire import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT


class AsyncAvatarClient:
    """A client of an avatar_service API.

        async with AsyncAvatarClient("http://127.0.0.1:8000", "sk_...") as client:
            ava = await client.personalities.create(name="Ava")
            async for personality in client.personalities.list_all():
                ...

    `base_url` and `api_key` default to AVATAR_API_URL and AVATAR_API_KEY. Answers are the API's msgspec Structs;
    refusals raise the errors of `avatar_service.client.errors`. 429s, 5xx answers and connection failures are
    retried `max_retries` times with exponential backoff and jitter, honouring `Retry-After`; every POST carries
    an `Idempotency-Key` kept across its retries. `timeout` is httpx's (seconds, or an httpx.Timeout).
    `http_client` brings an httpx.AsyncClient of your own (proxies, transports, its own timeout); it is then yours
    to close.
    """

    def __init__(self, base_url: str | None = None, api_key: str | None = None, *,
                 timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT, max_retries: int = DEFAULT_MAX_RETRIES,
                 headers: Mapping[str, str] | None = None, http_client: httpx.AsyncClient | None = None) -> None:
        self._transport = AsyncTransport(base_url, api_key, timeout=timeout, max_retries=max_retries,
                                         headers=headers, http_client=http_client)
        self.personalities = Personalities(self._transport)
        self.knowledge = Knowledge(self._transport)
        self.users = Users(self._transport)
        self.memories = Memories(self._transport)
        self.conversations = Conversations(self._transport)
        self.videos = Videos(self._transport)
        self.games = Games(self._transport)
        self.game_sessions = GameSessions(self._transport)
        self.webhooks = Webhooks(self._transport)
        self.api_keys = ApiKeys(self._transport)
        self.avatars = Avatars(self._transport)
        self.voices = Voices(self._transport)

    @property
    def base_url(self) -> str:
        """Where the API's operations are: the service's URL and `/v1`."""
        return f"{self._transport.root}/v1"

    async def health(self) -> dict[str, Any]:
        """`GET /healthz` (no key needed): the status and the engine behind each capability."""
        response = await self._transport.send("GET", f"{self._transport.root}/healthz", authenticated=False)
        return dict(msgspec.json.decode(response.content))

    async def request(self, method: str, path: str, *, json: Any = None, params: Mapping[str, Any] | None = None,
                      idempotency_key: str | None = None) -> Any:
        """Any operation by its path under /v1, answered as plain JSON values (retries and errors as for the
        typed methods): for operations newer than this client, or output that is passed on as it came."""
        return await self._transport.raw(method.upper(), path, json=json, params=params,
                                         idempotency_key=idempotency_key)

    async def download(self, url: str, target: str | Path, *, progress: Progress | None = None) -> int:
        """A media URL the API handed out (`video_url`, `thumbnail_url`, `preview_url`, `recording_url`) into a
        file; the number of bytes. These URLs are signed, so the key is not sent with them."""
        return await self._transport.download(url, target, progress)

    async def aclose(self) -> None:
        await self._transport.aclose()

    async def __aenter__(self) -> AsyncAvatarClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
