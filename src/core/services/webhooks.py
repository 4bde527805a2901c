"""Webhook endpoints: create (secret shown once), read, list, update, delete, test, and their deliveries."""

from __future__ import annotations

from msgspec import json

from avatar_service.core.errors import Conflict
from avatar_service.core.model import (
    Deleted,
    DeliveryRecord,
    Page,
    Webhook,
    WebhookCreate,
    WebhookDelivery,
    WebhookList,
    WebhookPatch,
    WebhookRecord,
    WebhookWithSecret,
    public,
    replace,
)
from avatar_service.core.model.common import UNSET
from avatar_service.core.pagination import PageRequest
from avatar_service.core.services.base import Deps, fetch, page_of
from avatar_service.core.webhooks.signing import headers, new_secret
from avatar_service.ports.webhook_sender import WebhookSender

MAX_WEBHOOKS = 100  # per organization: GET /webhooks is not paginated in the spec


class Webhooks:
    def __init__(self, deps: Deps, sender: WebhookSender) -> None:
        self.deps, self.sender = deps, sender

    async def create(self, organization_id: str, data: WebhookCreate) -> WebhookWithSecret:
        now = self.deps.clock.now()
        record = WebhookRecord(id=self.deps.ids.new("webhook"), url=data.url, events=sorted(set(data.events)),
                               created_at=now, updated_at=now, enabled=data.enabled,
                               organization_id=organization_id, secret=new_secret())
        async with self.deps.storage(organization_id) as uow:
            if len(await uow.webhooks.find(limit=MAX_WEBHOOKS)) >= MAX_WEBHOOKS:
                raise Conflict(f"An organization may have at most {MAX_WEBHOOKS} webhooks", code="limit_reached")
            await uow.webhooks.add(record)
            await uow.commit()
        return public(record, WebhookWithSecret)

    async def get(self, organization_id: str, webhook_id: str) -> Webhook:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            return public(await fetch(uow.webhooks, "webhook", webhook_id), Webhook)

    async def list(self, organization_id: str) -> WebhookList:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            records = await uow.webhooks.find(limit=MAX_WEBHOOKS)
        return WebhookList(data=[public(r, Webhook) for r in records])

    async def update(self, organization_id: str, webhook_id: str, patch: WebhookPatch) -> Webhook:
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.webhooks, "webhook", webhook_id)
            changes = {n: getattr(patch, n) for n in ("url", "events", "enabled") if getattr(patch, n) is not UNSET}
            if "events" in changes:
                changes["events"] = sorted(set(changes["events"]))  # type: ignore[arg-type]
            if changes.get("enabled") is True:
                changes["failing_since"] = None  # re-enabling starts a fresh failure window
            record = replace(record, **changes, updated_at=self.deps.clock.now())
            await uow.webhooks.update(record)
            await uow.commit()
        return public(record, Webhook)

    async def delete(self, organization_id: str, webhook_id: str) -> Deleted:
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.webhooks, "webhook", webhook_id)
            await uow.deliveries.delete_where(webhook_id=record.id)
            await uow.webhooks.delete(record.id)
            await uow.commit()
        return Deleted(id=record.id, object="webhook")

    async def deliveries(self, organization_id: str, webhook_id: str, page: PageRequest) -> Page[WebhookDelivery]:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            await fetch(uow.webhooks, "webhook", webhook_id)
            records, more = await uow.deliveries.page(page, webhook_id=webhook_id)
        return page_of(records, more, WebhookDelivery)

    async def test(self, organization_id: str, webhook_id: str) -> WebhookDelivery:
        """Sends a signed `webhook.test` event now and records the attempt."""
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.webhooks, "webhook", webhook_id)
        now = self.deps.clock.now()
        event_id = self.deps.ids.new("event")
        body = json.encode({"id": event_id, "type": "webhook.test", "created_at": now,
                            "data": {"webhook_id": record.id, "object": "webhook"}})
        outcome = await self.sender.post(record.url, body, headers(record.secret, event_id, int(now.timestamp()), body))
        delivery = DeliveryRecord(
            id=self.deps.ids.new("webhook_delivery"), webhook_id=record.id, event_id=event_id,
            event_type="webhook.test", status="succeeded" if outcome.ok else "failed", attempt=1,
            response_status=outcome.status, duration_ms=outcome.duration_ms, error=outcome.error,
            created_at=now, delivered_at=now if outcome.ok else None, organization_id=organization_id,
            url=record.url, payload=body,
        )
        async with self.deps.storage(organization_id) as uow:
            await uow.deliveries.add(delivery)
            await uow.commit()
        return public(delivery, WebhookDelivery)
