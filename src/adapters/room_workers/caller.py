"""The API's side of a room worker's internal server: signed JSON POSTs, the worker's errors raised again here."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import msgspec

from avatar_service.adapters.room_workers.signing import HEADER, sign
from avatar_service.core.errors import AvatarError, Conflict, Invalid, NotFound, Unavailable

log = logging.getLogger(__name__)
# What a worker's error statuses mean here: the same error as if the room lived in this process.
ERRORS: dict[int, type[AvatarError]] = {400: Invalid, 404: NotFound, 409: Conflict, 503: Unavailable}


class WorkerUnreachable(Exception):
    """The worker did not answer (refused, timed out, or broke off): it is down or its address is wrong."""


class WorkerCaller:
    def __init__(self, secret: bytes, timeout: float = 15.0) -> None:
        self._secret, self._timeout = secret, timeout
        self._client: httpx.AsyncClient | None = None

    def _http(self) -> httpx.AsyncClient:
        # Internal addresses from the service's own table, never a user's: no SSRF guard applies here.
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(self._timeout, connect=3.0),
                                             limits=httpx.Limits(max_keepalive_connections=8))
        return self._client

    async def post(self, base_url: str, path: str, payload: dict[str, Any], within: float | None = None) -> Any:
        body = msgspec.json.encode(payload)
        headers = {HEADER: sign(self._secret, "POST", path, body), "content-type": "application/json"}
        try:
            response = await self._http().post(base_url.rstrip("/") + path, content=body, headers=headers,
                                               timeout=within or httpx.USE_CLIENT_DEFAULT)
        except httpx.HTTPError as error:
            raise WorkerUnreachable(f"{base_url}: {error!r}") from error
        if response.status_code == 200:
            return msgspec.json.decode(response.content)
        try:
            said = msgspec.json.decode(response.content)["error"]
            kind = ERRORS.get(response.status_code, Unavailable)
            raise kind(str(said["message"]), param=said.get("param"), code=said.get("code"))
        except (msgspec.DecodeError, KeyError, TypeError):
            log.error("room worker %s answered %s to %s", base_url, response.status_code, path)
            raise Unavailable("The room's worker failed", code="room_worker_failed") from None

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
