"""The outbox dispatcher on the in-memory storage: batch claims, one row per attempt, order, leases, disabling."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

import msgspec
import pytest

from avatar_service.adapters.in_memory import MemoryStorage
from avatar_service.adapters.system_clock import RandomIds
from avatar_service.core.model import DeliveryRecord, Memory, WebhookCreate
from avatar_service.core.services import delivery as delivery_module
from avatar_service.core.services.base import Deps, emit
from avatar_service.core.services.delivery import Dispatcher
from avatar_service.core.services.webhooks import Webhooks
from avatar_service.core.webhooks import verify
from avatar_service.ports.webhook_sender import PostOutcome

ORG = "org_1"


class FakeSender:
    """Records every POST; answers with `status(url, webhook-id)`."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, bytes, dict[str, str]]] = []
        self.status: Callable[[str, str], int] = lambda url, msg_id: 200

    async def post(self, url: str, body: bytes, headers: Mapping[str, str]) -> PostOutcome:
        await asyncio.sleep(0)  # let other POSTs of the pass interleave, as real ones do
        self.posts.append((url, body, dict(headers)))
        status = self.status(url, headers["webhook-id"])
        return PostOutcome(status=status, duration_ms=1, error=None if status < 300 else "no")

    def ids(self, url: str | None = None) -> list[str]:
        return [h["webhook-id"] for u, _, h in self.posts if url is None or u == url]


class World:
    def __init__(self, clock: Any) -> None:
        self.storage = MemoryStorage()
        self.clock = clock
        self.deps = Deps(self.storage, clock, RandomIds())
        self.sender = FakeSender()
        self.dispatcher = Dispatcher(self.deps, self.sender)

    async def hook(self, url: str) -> tuple[str, str]:
        created = await Webhooks(self.deps, self.sender).create(ORG, WebhookCreate(url=url, events=["memory.created"]))
        return created.id, created.secret

    async def events(self, n: int) -> list[str]:
        async with self.storage(ORG) as uow:
            for i in range(n):
                memory = Memory(
                    id=f"mem_{i}",
                    user_id="usr_1",
                    personality_id="per_1",
                    content=f"fact {i}",
                    created_at=self.clock.now(),
                )
                await emit(uow, self.deps, ORG, "memory.created", memory)
                self.clock.advance(0.001)
            await uow.commit()
        return [r["id"] for r in self.storage.rows("outbox")[-n:]]

    def rows(self, webhook_id: str) -> list[DeliveryRecord]:
        rows = [msgspec.convert(r, DeliveryRecord) for r in self.storage.rows("deliveries")]
        return [r for r in rows if r.webhook_id == webhook_id]


@pytest.fixture
def world(clock: Any) -> World:
    return World(clock)


async def test_every_event_is_delivered_once_signed_with_its_event_id(world: World) -> None:
    hook_a, secret_a = await world.hook("https://a.example/hook")
    hook_b, _ = await world.hook("https://b.example/hook")
    events = await world.events(5)
    assert await world.dispatcher.run() == 10
    assert world.sender.ids("https://a.example/hook") == events  # in the order of the events
    assert sorted(world.sender.ids("https://b.example/hook")) == sorted(events)
    for url, body, headers in world.sender.posts:
        if url.startswith("https://a."):
            verify(secret_a, headers, body, now=world.clock.now().timestamp())
            assert msgspec.json.decode(body)["id"] == headers["webhook-id"]
    for hook in (hook_a, hook_b):
        rows = world.rows(hook)
        assert len(rows) == 5 and {(r.status, r.attempt, r.response_status, r.next_retry_at) for r in rows} == {
            ("succeeded", 1, 200, None)
        }
    assert await world.dispatcher.run() == 0  # nothing left: no second delivery
    assert len(world.sender.posts) == 10


async def test_a_failure_is_retried_with_the_same_webhook_id_and_a_row_per_attempt(world: World) -> None:
    hook, _ = await world.hook("https://a.example/hook")
    first, *rest = await world.events(3)
    world.sender.status = lambda url, msg_id: 503
    world.dispatcher.per_endpoint = 1  # strict order per endpoint (by default a window of POSTs is in flight)
    await world.dispatcher.run()
    # The first failed; the later ones were not sent past it, all wait for its retry.
    assert world.sender.ids() == [first]
    (failed,) = [r for r in world.rows(hook) if r.attempt == 1]
    assert failed.status == "pending" and failed.response_status == 503 and failed.next_retry_at is not None
    assert timedelta(seconds=4) <= failed.next_retry_at - world.clock.now() <= timedelta(seconds=6)
    assert await world.dispatcher.run() == 0  # not due yet

    world.sender.status = lambda url, msg_id: 200
    world.clock.advance(6)
    assert await world.dispatcher.run() == 3
    assert world.sender.ids() == [first, first, *rest]  # the retry first, then the rest in order
    attempts = sorted((r.event_id, r.attempt, r.status) for r in world.rows(hook))
    assert attempts == sorted([(first, 1, "failed"), (first, 2, "succeeded"), *((e, 1, "succeeded") for e in rest)])


async def test_two_dispatchers_never_send_one_attempt_twice(world: World) -> None:
    await world.hook("https://a.example/hook")
    events = await world.events(40)
    other = Dispatcher(world.deps, world.sender)
    counts = await asyncio.gather(world.dispatcher.run(), other.run())
    assert sum(counts) == 40
    assert sorted(world.sender.ids()) == sorted(events)


async def test_a_lost_pass_is_sent_again_after_its_lease(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    hook, _ = await world.hook("https://a.example/hook")
    (event,) = await world.events(1)

    async def crash(*_: object) -> None:
        raise RuntimeError("the process died before recording")

    monkeypatch.setattr(world.dispatcher, "_record", crash)
    with pytest.raises(RuntimeError):
        await world.dispatcher.pass_once()
    monkeypatch.undo()
    assert world.sender.ids() == [event]
    assert await world.dispatcher.run() == 0  # leased: nobody takes it again at once
    world.clock.advance(world.dispatcher.lease_seconds + 1)
    assert await world.dispatcher.run() == 1
    assert world.sender.ids() == [event, event]  # at least once, with the same webhook-id
    assert [(r.status, r.attempt) for r in world.rows(hook)] == [("succeeded", 1)]


async def test_backlogs_drain_in_one_run_batch_by_batch(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(delivery_module, "BATCH", 4)
    await world.hook("https://a.example/hook")
    events = await world.events(10)
    assert await world.dispatcher.pass_once() == 4
    assert await world.dispatcher.run() == 6
    assert world.sender.ids() == events


async def test_an_endpoint_failing_for_five_days_is_disabled(world: World) -> None:
    hook, _ = await world.hook("https://a.example/hook")
    world.sender.status = lambda url, msg_id: 500
    await world.events(1)
    await world.dispatcher.run()
    async with world.storage(ORG) as uow:
        record = await uow.webhooks.get(hook)
        assert record is not None and record.failing_since == world.clock.now() and record.enabled
    world.clock.advance(5 * 86400)
    await world.events(1)
    await world.dispatcher.run()
    async with world.storage(ORG) as uow:
        record = await uow.webhooks.get(hook)
        assert record is not None and not record.enabled
    world.sender.status = lambda url, msg_id: 200
    world.clock.advance(10 * 86400)
    sent = len(world.sender.posts)
    await world.dispatcher.run()  # deliveries to a disabled endpoint fail without being sent
    assert len(world.sender.posts) == sent
    assert all(r.status == "failed" for r in world.rows(hook))


async def test_events_no_endpoint_wants_are_dispatched_and_block_nothing(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(delivery_module, "BATCH", 4)
    await world.events(10)  # no endpoint yet: nothing to send, but the outbox must move on
    assert await world.dispatcher.run() == 0
    assert all(row["dispatched"] for row in world.storage.rows("outbox"))
    await world.hook("https://a.example/hook")
    events = await world.events(2)
    assert await world.dispatcher.run() == 2
    assert world.sender.ids() == events


async def until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


async def test_a_slow_endpoint_holds_up_only_its_own_deliveries(world: World) -> None:
    slow, _ = await world.hook("https://slow.example/hook")
    fast, _ = await world.hook("https://fast.example/hook")
    answer, post = asyncio.Event(), world.sender.post

    async def hanging(url: str, body: bytes, headers: Mapping[str, str]) -> PostOutcome:
        if url.startswith("https://slow"):
            await answer.wait()  # a receiver that takes its time (up to the 10 s timeout)
        return await post(url, body, headers)

    world.sender.post = hanging  # type: ignore[method-assign]
    first = await world.events(1)
    run = asyncio.create_task(world.dispatcher.run())
    await until(lambda: [r.status for r in world.rows(fast)] == ["succeeded"])  # sent and recorded meanwhile
    second = await world.events(1)
    await until(lambda: world.sender.ids("https://fast.example/hook") == first + second)  # the next tick's pass
    assert world.sender.ids("https://slow.example/hook") == [] and not run.done()
    answer.set()
    await asyncio.wait_for(run, 5)  # nothing is out any more: the run ends
    assert [r.status for r in world.rows(slow)] == ["succeeded", "pending"]
    world.clock.advance(1)  # the second waited a tick behind the first, to keep the endpoint's order
    assert await world.dispatcher.run() == 1  # the next periodic run
    assert world.sender.ids("https://slow.example/hook") == first + second
    assert [(r.status, r.attempt) for r in world.rows(slow)] == [("succeeded", 1), ("succeeded", 1)]
    assert [(r.status, r.attempt) for r in world.rows(fast)] == [("succeeded", 1), ("succeeded", 1)]
