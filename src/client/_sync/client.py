"""AvatarClient: the whole API over one httpx.Client.

Generated from `_async/client.py` by scripts/unasync_client.py: edit that file and regenerate.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx
import msgspec

from avatar_service.client._sync.activity import Conversations, Games, GameSessions, Videos
from avatar_service.client._sync.admin import ApiKeys, Webhooks
from avatar_service.client._sync.content import Avatars, Knowledge, Memories, Personalities, Users, Voices
from avatar_service.client._sync.transport import Progress, Transport
from avatar_service.client._wire import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT


class AvatarClient:
    """A client of an avatar_service API.

        with AvatarClient("http://127.0.0.1:8000", "sk_...") as client:
            ava = client.personalities.create(name="Ava")
            for personality in client.personalities.list_all():
                ...

    `base_url` and `api_key` default to AVATAR_API_URL and AVATAR_API_KEY. Answers are the API's msgspec Structs;
    refusals raise the errors of `avatar_service.client.errors`. 429s, 5xx answers and connection failures are
    retried `max_retries` times with exponential backoff and jitter, honouring `Retry-After`; every POST carries
    an `Idempotency-Key` kept across its retries. `timeout` is httpx's (seconds, or an httpx.Timeout).
    `http_client` brings an httpx.Client of your own (proxies, transports, its own timeout); it is then yours
    to close.
    """

    def __init__(self, base_url: str | None = None, api_key: str | None = None, *,
                 timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT, max_retries: int = DEFAULT_MAX_RETRIES,
                 headers: Mapping[str, str] | None = None, http_client: httpx.Client | None = None) -> None:
        self._transport = Transport(base_url, api_key, timeout=timeout, max_retries=max_retries,
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

    def health(self) -> dict[str, Any]:
        """`GET /healthz` (no key needed): the status and the engine behind each capability."""
        response = self._transport.send("GET", f"{self._transport.root}/healthz", authenticated=False)
        return dict(msgspec.json.decode(response.content))

    def request(self, method: str, path: str, *, json: Any = None, params: Mapping[str, Any] | None = None,
                      idempotency_key: str | None = None) -> Any:
        """Any operation by its path under /v1, answered as plain JSON values (retries and errors as for the
        typed methods): for operations newer than this client, or output that is passed on as it came."""
        return self._transport.raw(method.upper(), path, json=json, params=params,
                                         idempotency_key=idempotency_key)

    def download(self, url: str, target: str | Path, *, progress: Progress | None = None) -> int:
        """A media URL the API handed out (`video_url`, `thumbnail_url`, `preview_url`, `recording_url`) into a
        file; the number of bytes. These URLs are signed, so the key is not sent with them."""
        return self._transport.download(url, target, progress)

    def close(self) -> None:
        self._transport.close()

    def __enter__(self) -> AvatarClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
