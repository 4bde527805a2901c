"""The outbox dispatcher: events become signed deliveries, sent at least once with back-off."""

import asyncio
import logging
import random
from datetime import timedelta

from msgspec import json

from avatar_service.core.model import DeliveryRecord, Event, WebhookRecord
from avatar_service.core.services.base import Deps
from avatar_service.core.webhooks.backoff import next_attempt_delay, should_disable
from avatar_service.core.webhooks.signing import headers
from avatar_service.ports.webhook_sender import WebhookSender

log = logging.getLogger(__name__)
BATCH = 200
PARALLEL = 32  # concurrent POSTs per dispatcher pass


def body_of(event: Event) -> bytes:
    """The delivery body of the contract: {id, type, created_at, data}."""
    return json.encode({"id": event.id, "type": event.type, "created_at": event.created_at, "data": event.data})


class Dispatcher:
    def __init__(self, deps: Deps, sender: WebhookSender) -> None:
        self.deps, self.sender = deps, sender
        self._rand = random.Random()

    async def fan_out(self) -> int:
        """Turns undispatched outbox events into one pending delivery per subscribed endpoint."""
        async with self.deps.storage(None) as uow:
            events = await uow.outbox.pending(BATCH)
            if not events:
                return 0
            now = self.deps.clock.now()
            hooks_by_org: dict[str, list[WebhookRecord]] = {}
            deliveries: list[DeliveryRecord] = []
            for event in events:
                body = body_of(event)
                if event.target_url:  # a video's own webhook_url
                    deliveries.append(self._delivery(event, None, event.target_url, body, now))
                    continue
                if event.organization_id not in hooks_by_org:
                    hooks_by_org[event.organization_id] = await uow.webhooks.find(
                        organization_id=event.organization_id, enabled=True)
                deliveries += [self._delivery(event, hook.id, hook.url, body, now)
                               for hook in hooks_by_org[event.organization_id] if event.type in hook.events]
            await uow.deliveries.add_many(deliveries)
            await uow.outbox.mark_dispatched([e.id for e in events])
            await uow.commit()
        return len(events)

    def _delivery(self, event: Event, webhook_id: str | None, url: str, body: bytes, now: object) -> DeliveryRecord:
        return DeliveryRecord(
            id=self.deps.ids.new("webhook_delivery"), webhook_id=webhook_id, event_id=event.id,
            event_type=event.type, status="pending", created_at=event.created_at, next_retry_at=now,  # type: ignore[arg-type]
            organization_id=event.organization_id, url=url, payload=body,
        )

    async def send_due(self) -> int:
        """Sends every delivery whose next attempt is due; returns how many were attempted."""
        now = self.deps.clock.now()
        async with self.deps.storage(None) as uow:
            due = await uow.deliveries.due("next_retry_at", now, BATCH, status="pending")
            secrets: dict[str, str] = {}
            hooks: dict[str, WebhookRecord] = {}
            for delivery in due:
                if delivery.webhook_id and delivery.webhook_id not in hooks:
                    hook = await uow.webhooks.get(delivery.webhook_id)
                    if hook:
                        hooks[hook.id] = hook
                elif delivery.webhook_id is None and delivery.event_id not in secrets:
                    event = await uow.outbox.get(delivery.event_id)
                    secrets[delivery.event_id] = (event.target_secret or "") if event else ""
            # Claim them: a second dispatcher will not pick these up until the lease passes.
            lease = now + timedelta(seconds=60)
            for delivery in due:
                await uow.deliveries.set(delivery.id, next_retry_at=lease)
            await uow.commit()
        gate = asyncio.Semaphore(PARALLEL)

        async def attempt(delivery: DeliveryRecord) -> None:
            async with gate:
                hook = hooks.get(delivery.webhook_id or "")
                if delivery.webhook_id and (hook is None or not hook.enabled):
                    await self._record(delivery, None, "endpoint deleted or disabled", 0, give_up=True)
                    return
                secret = hook.secret if hook else secrets.get(delivery.event_id, "")
                timestamp = int(self.deps.clock.now().timestamp())
                outcome = await self.sender.post(delivery.url, delivery.payload,
                                                 headers(secret, delivery.event_id, timestamp, delivery.payload))
                await self._record(delivery, outcome.status if outcome.ok or outcome.status else None,
                                   None if outcome.ok else (outcome.error or f"HTTP {outcome.status}"),
                                   outcome.duration_ms, ok=outcome.ok, hook=hook)

        await asyncio.gather(*(attempt(d) for d in due))
        return len(due)

    async def _record(self, delivery: DeliveryRecord, status: int | None, error: str | None, duration_ms: int,
                      *, ok: bool = False, give_up: bool = False, hook: WebhookRecord | None = None) -> None:
        now = self.deps.clock.now()
        attempt = delivery.attempt + 1
        delay = None if ok or give_up else next_attempt_delay(attempt, self._rand.random)
        changes = {"attempt": attempt, "response_status": status, "error": error, "duration_ms": duration_ms}
        if ok:
            changes |= {"status": "succeeded", "delivered_at": now, "next_retry_at": None}
        elif delay is None:
            changes |= {"status": "failed", "next_retry_at": None}
        else:
            changes |= {"next_retry_at": now + timedelta(seconds=delay)}
        async with self.deps.storage(None) as uow:
            await uow.deliveries.set(delivery.id, **changes)
            if hook is not None:
                if ok and hook.failing_since is not None:
                    await uow.webhooks.set(hook.id, failing_since=None)
                elif not ok:
                    since = hook.failing_since or now
                    disable = should_disable(since, now)
                    await uow.webhooks.set(hook.id, failing_since=since, **({"enabled": False} if disable else {}))
                    if disable:
                        log.warning("webhook %s disabled after failing since %s", hook.id, since)
            await uow.commit()
