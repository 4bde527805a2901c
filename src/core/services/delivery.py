"""The outbox dispatcher: events become signed deliveries, sent at least once with back-off.

Every attempt leaves one row in `webhook_deliveries` (what `GET /webhooks/{id}/deliveries` lists): the first
attempt fills the row made at fan-out; a retry closes the previous row as `failed` (its `next_retry_at` says
when the retry was due) and writes a new row for the new attempt. A row is `pending` while a retry is
scheduled, `succeeded` or `failed` once settled.

Several dispatchers (API processes, `avatar worker`s on other machines) may run at once. A pass is
batch-shaped: one transaction fans new outbox events out (taken with `FOR UPDATE SKIP LOCKED`; the deliveries
they make are written already leased to this pass) and claims the due deliveries with one statement that
moves their `next_retry_at` to a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL; SQLite has one writer), so
one attempt is made by one dispatcher; the POSTs go out; one more transaction records every attempt in bulk.
A dispatcher that dies mid-attempt leaves the lease to expire and the delivery is sent again: at least once,
never lost. While a pass finds a full batch the next one starts at once.
"""

import asyncio
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from msgspec import json, structs

from avatar_service.core.model import DeliveryRecord, Event, WebhookRecord
from avatar_service.core.services.base import Deps
from avatar_service.core.webhooks.backoff import next_attempt_delay, should_disable
from avatar_service.core.webhooks.signing import headers
from avatar_service.ports.storage import UnitOfWork
from avatar_service.ports.webhook_sender import PostOutcome, WebhookSender

log = logging.getLogger(__name__)
BATCH = 500  # events fanned out, and deliveries claimed, per pass
PARALLEL = 64  # concurrent POSTs per pass, over all endpoints
LEASE_SECONDS = 120.0  # a claimed delivery is not claimed again before this, unless its attempt was recorded
TICK = 0.5  # seconds between passes while an endpoint is still being sent to


def body_of(event: Event) -> bytes:
    """The delivery body of the contract: {id, type, created_at, data}."""
    return json.encode({"id": event.id, "type": event.type, "created_at": event.created_at, "data": event.data})


@dataclass(slots=True)
class _Attempt:
    delivery: DeliveryRecord
    due_at: datetime  # when it was due before the lease replaced next_retry_at
    outcome: PostOutcome | None = None
    give_up: str | None = None  # a reason to fail without sending (endpoint deleted or disabled)
    deferred_until: datetime | None = None  # not sent: an older delivery to the same endpoint just failed


@dataclass(slots=True)
class _Sends:
    """One endpoint's attempts of a pass, out until they are recorded."""

    endpoint: str  # webhook id, or a video's own URL
    attempts: list[_Attempt]


class Dispatcher:
    def __init__(self, deps: Deps, sender: WebhookSender) -> None:
        self.deps, self.sender = deps, sender
        self._rand = random.Random()
        self.per_endpoint = 32  # POSTs in flight per endpoint; 1 keeps strict order per endpoint
        self.lease_seconds = LEASE_SECONDS
        self._sending: set[str] = set()  # endpoints (webhook id, or a video's URL) with POSTs out

    async def run(self) -> int:
        """Passes until one finds less than a full batch and no endpoint is still being sent to.

        An endpoint slow to answer (up to the 10 s timeout) holds up only its own deliveries: while its POSTs
        are out, a pass runs every TICK for everyone else, and its newer deliveries wait their turn, in order.
        """
        total, sending = 0, dict[asyncio.Task[None], _Sends]()
        gate = asyncio.Semaphore(PARALLEL)
        try:
            while True:
                fanned, attempted, started = await self._pass(gate)
                total += attempted
                sending.update(started)
                if sending:  # most endpoints answer within the tick, and the next pass finds them free
                    done, _ = await asyncio.wait(sending, timeout=TICK)
                    await self._finish({task: sending.pop(task) for task in done})
                if fanned < BATCH and attempted < BATCH and not sending:
                    return total  # else a backlog drains (or the slow endpoint is waited for) without a wake-up
        finally:
            for task in sending:  # stopped or failed: unrecorded attempts are sent again when their lease ends
                task.cancel()
            await asyncio.gather(*sending, return_exceptions=True)
            self._sending.difference_update(sends.endpoint for sends in sending.values())

    async def pass_once(self) -> int:
        """One dispatcher pass: fan out new events, send what is due, record it. Returns deliveries attempted."""
        _fanned, attempted, started = await self._pass(asyncio.Semaphore(PARALLEL))
        if started:
            await asyncio.wait(started)
        await self._finish(started)
        return attempted

    async def _finish(self, done: dict[asyncio.Task[None], _Sends]) -> None:
        """Records the attempts of the endpoints whose sends ended, in one transaction, then frees the endpoints.
        A failure to record fails the run, as it always did."""
        try:
            for task in done:
                task.result()
            if done:
                await self._record([attempt for sends in done.values() for attempt in sends.attempts])
        finally:
            self._sending.difference_update(sends.endpoint for sends in done.values())

    async def _pass(self, gate: asyncio.Semaphore) -> tuple[int, int, dict[asyncio.Task[None], _Sends]]:
        """(events fanned out, deliveries attempted, the endpoints' sends it started)."""
        now = self.deps.clock.now()
        lease = now + timedelta(seconds=self.lease_seconds)
        hooks: dict[str, WebhookRecord | None] = {}
        secrets: dict[str, str] = {}
        async with self.deps.storage(None) as uow:
            fanned, claimed = await self._fan_out(uow, now, lease, hooks, secrets)
            due = await uow.deliveries.claim_due("next_retry_at", now, BATCH, lease, status="pending")
            claimed += [_Attempt(d, d.next_retry_at or now) for d in due]
            if not fanned and not claimed:
                return 0, 0, {}  # nothing written: the unit of work rolls back
            missing = list({d.webhook_id for d in due if d.webhook_id and d.webhook_id not in hooks})
            if missing:
                found = {hook.id: hook for hook in await uow.webhooks.find(id=missing)}
                hooks.update((webhook_id, found.get(webhook_id)) for webhook_id in missing)
            for delivery in due:  # a video's own webhook_url: its secret is on the event (rare)
                if delivery.webhook_id is None and delivery.event_id not in secrets:
                    event = await uow.outbox.get(delivery.event_id)
                    secrets[delivery.event_id] = (event.target_secret or "") if event else ""
            await uow.commit()
        by_endpoint: dict[str, list[_Attempt]] = {}
        for attempt in sorted(claimed, key=lambda a: (a.delivery.created_at, a.delivery.event_id)):
            by_endpoint.setdefault(attempt.delivery.webhook_id or attempt.delivery.url, []).append(attempt)
        waiting = [a for endpoint, group in by_endpoint.items() if endpoint in self._sending for a in group]
        for attempt in waiting:  # older deliveries to that endpoint are still out: do not overtake them
            attempt.deferred_until = now + timedelta(seconds=TICK)
        if waiting:
            await self._record(waiting)
        started: dict[asyncio.Task[None], _Sends] = {}
        for endpoint, group in by_endpoint.items():
            if endpoint not in self._sending:
                self._sending.add(endpoint)
                task = asyncio.create_task(self._send_endpoint(group, hooks, secrets, gate))
                started[task] = _Sends(endpoint, group)
        return fanned, len(claimed) - len(waiting), started

    async def _fan_out(self, uow: UnitOfWork, now: datetime, lease: datetime, hooks: dict[str, WebhookRecord | None],
                       secrets: dict[str, str]) -> tuple[int, list[_Attempt]]:
        """Undispatched outbox events become one delivery per subscribed endpoint, leased to this pass.

        Returns how many events were taken (those no endpoint wants are marked dispatched all the same).
        """
        events = await uow.outbox.pending(BATCH)
        if not events:
            return 0, []
        orgs = list({e.organization_id for e in events if not e.target_url})
        hooks_by_org: dict[str, list[WebhookRecord]] = {}
        for hook in await uow.webhooks.find(organization_id=orgs, enabled=True) if orgs else []:
            hooks_by_org.setdefault(hook.organization_id, []).append(hook)
            hooks[hook.id] = hook
        deliveries: list[DeliveryRecord] = []
        for event in events:
            body = body_of(event)
            if event.target_url:  # a video's own webhook_url
                secrets[event.id] = event.target_secret or ""
                deliveries.append(self._delivery(event, None, event.target_url, body, lease))
                continue
            deliveries += [self._delivery(event, hook.id, hook.url, body, lease)
                           for hook in hooks_by_org.get(event.organization_id, ()) if event.type in hook.events]
        await uow.deliveries.add_many(deliveries)
        await uow.outbox.mark_dispatched([e.id for e in events])
        return len(events), [_Attempt(d, now) for d in deliveries]

    def _delivery(self, event: Event, webhook_id: str | None, url: str, body: bytes, lease: datetime
                  ) -> DeliveryRecord:
        return DeliveryRecord(
            id=self.deps.ids.new("webhook_delivery"), webhook_id=webhook_id, event_id=event.id,
            event_type=event.type, status="pending", created_at=event.created_at, next_retry_at=lease,
            organization_id=event.organization_id, url=url, payload=body,
        )

    async def _send_endpoint(self, group: list[_Attempt], hooks: dict[str, WebhookRecord | None],
                             secrets: dict[str, str], gate: asyncio.Semaphore) -> None:
        """One endpoint's deliveries, oldest first, a few at a time; after a failure the rest wait for its retry."""
        hook = hooks.get(group[0].delivery.webhook_id or "")
        if group[0].delivery.webhook_id and (hook is None or not hook.enabled):
            for attempt in group:
                attempt.give_up = "endpoint deleted or disabled"
            return
        failed_at: list[datetime] = []
        window = asyncio.Semaphore(self.per_endpoint)

        async def send(attempt: _Attempt) -> None:
            async with window, gate:
                if failed_at:  # keep the endpoint's order: do not overtake a delivery that is waiting to retry
                    attempt.deferred_until = failed_at[0]
                    return
                delivery = attempt.delivery
                secret = hook.secret if hook else secrets.get(delivery.event_id, "")
                timestamp = int(self.deps.clock.now().timestamp())
                try:
                    attempt.outcome = await self.sender.post(
                        delivery.url, delivery.payload, headers(secret, delivery.event_id, timestamp, delivery.payload))
                except Exception as error:  # a bug in one POST must not lose the pass's other outcomes
                    log.exception("webhook delivery %s raised", delivery.id)
                    attempt.outcome = PostOutcome(status=None, duration_ms=0, error=repr(error)[:300])
                if not attempt.outcome.ok and not failed_at:
                    failed_at.append(self.deps.clock.now() + timedelta(seconds=5))

        await asyncio.gather(*(send(a) for a in group))

    async def _record(self, attempts: Sequence[_Attempt]) -> None:
        """All attempts of a pass in one transaction, written in bulk, with the endpoints' failure windows."""
        now = self.deps.clock.now()
        health: dict[str, bool] = {}  # webhook id -> any success in this pass
        changes: list[dict[str, Any]] = []
        retries: list[DeliveryRecord] = []  # a new row for each attempt after the first
        for attempt in attempts:
            delivery = attempt.delivery
            if attempt.deferred_until is not None:  # not attempted: due again with the failed one's retry
                changes.append({"id": delivery.id, "next_retry_at": max(attempt.deferred_until, now)})
            elif attempt.give_up is not None:
                changes.append({"id": delivery.id, "status": "failed", "next_retry_at": None,
                                "error": attempt.give_up})
            else:
                outcome = attempt.outcome
                assert outcome is not None
                result = self._result(delivery, outcome, now)
                if delivery.attempt == 0:  # the row made at fan-out holds the first attempt
                    changes.append({"id": delivery.id, **result})
                else:  # the earlier attempt's row is closed as it was; this attempt gets a row of its own
                    changes.append({"id": delivery.id, "status": "failed", "next_retry_at": attempt.due_at})
                    retries.append(structs.replace(delivery, id=self.deps.ids.new("webhook_delivery"),
                                                   created_at=now, **result))
                if delivery.webhook_id:
                    health[delivery.webhook_id] = health.get(delivery.webhook_id, False) or outcome.ok
        async with self.deps.storage(None) as uow:
            await uow.deliveries.set_many(changes)
            await uow.deliveries.add_many(retries)
            for hook in await uow.webhooks.find(id=list(health)) if health else []:
                ok = health[hook.id]
                if ok and hook.failing_since is not None:
                    await uow.webhooks.set(hook.id, failing_since=None)
                elif not ok:
                    since = hook.failing_since or now
                    if should_disable(since, now):
                        await uow.webhooks.set(hook.id, failing_since=since, enabled=False)
                        log.warning("webhook %s disabled after failing since %s", hook.id, since)
                    elif hook.failing_since is None:
                        await uow.webhooks.set(hook.id, failing_since=since)
            await uow.commit()

    def _result(self, delivery: DeliveryRecord, outcome: PostOutcome, now: datetime) -> dict[str, Any]:
        """The columns an attempt writes: its outcome, and when the next one is due (None: settled)."""
        number = delivery.attempt + 1
        delay = None if outcome.ok else next_attempt_delay(number, self._rand.random)
        return {
            "attempt": number, "status": "succeeded" if outcome.ok else ("failed" if delay is None else "pending"),
            "duration_ms": outcome.duration_ms, "response_status": outcome.status,
            "error": None if outcome.ok else (outcome.error or f"HTTP {outcome.status}"),
            "delivered_at": now if outcome.ok else None,
            "next_retry_at": None if delay is None else now + timedelta(seconds=delay),
        }
