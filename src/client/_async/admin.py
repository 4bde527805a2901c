"""What needs the `*` scope: webhook endpoints (with their test and delivery log) and API keys.

`_sync/admin.py` is generated from this file (scripts/unasync_client.py): edit this one, then regenerate.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from avatar_service.client._async.transport import AsyncTransport
from avatar_service.client._wire import body, path
from avatar_service.core.model import (
    ApiKey,
    ApiKeyCreate,
    ApiKeyWithSecret,
    Deleted,
    Page,
    Webhook,
    WebhookCreate,
    WebhookDelivery,
    WebhookList,
    WebhookPatch,
    WebhookWithSecret,
)

Body = Mapping[str, Any]


class Webhooks:
    """`/v1/webhooks`: endpoints that receive signed events."""

    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def create(self, data: WebhookCreate | Body | None = None, /, *, idempotency_key: str | None = None,
                     **fields: Any) -> WebhookWithSecret:
        """The endpoint with its signing `secret`, shown only here."""
        return await self._t.call("POST", "/webhooks", WebhookWithSecret, idempotency_key=idempotency_key,
                                  json=body(WebhookCreate, data, fields))

    async def list(self) -> WebhookList:
        return await self._t.call("GET", "/webhooks", WebhookList)

    async def get(self, webhook_id: str) -> Webhook:
        return await self._t.call("GET", path("/webhooks/{}", webhook_id), Webhook)

    async def update(self, webhook_id: str, data: WebhookPatch | Body | None = None, /, **fields: Any) -> Webhook:
        return await self._t.call("PATCH", path("/webhooks/{}", webhook_id), Webhook,
                                  json=body(WebhookPatch, data, fields))

    async def delete(self, webhook_id: str) -> Deleted:
        return await self._t.call("DELETE", path("/webhooks/{}", webhook_id), Deleted)

    async def test(self, webhook_id: str, *, idempotency_key: str | None = None) -> WebhookDelivery:
        """Sends a signed `webhook.test` now; the attempt it made."""
        return await self._t.call("POST", path("/webhooks/{}/test", webhook_id), WebhookDelivery,
                                  idempotency_key=idempotency_key)

    async def deliveries(self, webhook_id: str, *, limit: int | None = None,
                         cursor: str | None = None) -> Page[WebhookDelivery]:
        return await self._t.call("GET", path("/webhooks/{}/deliveries", webhook_id), Page[WebhookDelivery],
                                  params={"limit": limit, "cursor": cursor})

    def deliveries_all(self, webhook_id: str, *, page_size: int = 100) -> AsyncIterator[WebhookDelivery]:
        return self._t.walk(path("/webhooks/{}/deliveries", webhook_id), Page[WebhookDelivery], {"limit": page_size})


class ApiKeys:
    """`/v1/api-keys`: the organization's keys."""

    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def create(self, data: ApiKeyCreate | Body | None = None, /, *, idempotency_key: str | None = None,
                     **fields: Any) -> ApiKeyWithSecret:
        """The key with its `secret`, shown only here."""
        return await self._t.call("POST", "/api-keys", ApiKeyWithSecret, idempotency_key=idempotency_key,
                                  json=body(ApiKeyCreate, data, fields))

    async def list(self, *, limit: int | None = None, cursor: str | None = None) -> Page[ApiKey]:
        return await self._t.call("GET", "/api-keys", Page[ApiKey], params={"limit": limit, "cursor": cursor})

    def list_all(self, *, page_size: int = 100) -> AsyncIterator[ApiKey]:
        return self._t.walk("/api-keys", Page[ApiKey], {"limit": page_size})

    async def get(self, key_id: str) -> ApiKey:
        return await self._t.call("GET", path("/api-keys/{}", key_id), ApiKey)

    async def revoke(self, key_id: str) -> Deleted:
        """The key gets 401 from then on."""
        return await self._t.call("DELETE", path("/api-keys/{}", key_id), Deleted)
