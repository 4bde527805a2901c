"""Admission control: bounded work in flight per lane, a bounded queue, and a fast 503 `overloaded` past it;
reads never wait behind writes."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx

from avatar_service.entrypoints.http.admission import AdmissionMiddleware, Lane


class SlowApp:
    """Answers 200; a POST waits until `release` is set (a write holding its place)."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.running = 0
        self.peak = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.running += 1
        self.peak = max(self.peak, self.running)
        try:
            if scope["method"] == "POST":
                await self.release.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})
        finally:
            self.running -= 1


def client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")


async def test_past_the_queue_a_request_is_answered_503_at_once() -> None:
    inner = SlowApp()
    app = AdmissionMiddleware(inner, max_in_flight=2, max_queued=3, queue_timeout=30)  # type: ignore[arg-type]
    async with client(app) as http:
        held = [asyncio.create_task(http.post("/v1/users")) for _ in range(5)]  # 2 run, 3 wait
        await asyncio.sleep(0.05)
        started = time.perf_counter()
        turned_away = await http.post("/v1/users")
        assert time.perf_counter() - started < 0.5
        assert turned_away.status_code == 503 and turned_away.headers["retry-after"] == "1"
        error = json.loads(turned_away.content)["error"]
        assert error["code"] == "overloaded" and error["type"] == "api_error"
        # Reads have a lane of their own: they do not queue behind the held writes.
        assert (await http.get("/v1/users/x")).status_code == 200
        assert (await http.get("/healthz")).status_code == 200
        inner.release.set()
        assert [r.status_code for r in await asyncio.gather(*held)] == [200] * 5  # the queued ones ran
    assert inner.peak <= 3  # two writes and the read, never more
    assert app.writes.shed == 1 and app.writes.running == 0 and app.reads.running == 0


async def test_a_request_waiting_longer_than_the_timeout_is_turned_away() -> None:
    inner = SlowApp()
    app = AdmissionMiddleware(inner, max_in_flight=1, max_queued=10, queue_timeout=0.1)  # type: ignore[arg-type]
    async with client(app) as http:
        held = asyncio.create_task(http.post("/v1/users"))
        await asyncio.sleep(0.02)
        assert (await http.post("/v1/users")).status_code == 503
        inner.release.set()
        assert (await held).status_code == 200
        assert (await http.post("/v1/users")).status_code == 200  # the place was given back


async def test_a_waiter_that_goes_away_leaves_the_queue() -> None:
    lane = Lane(limit=1, queue=5, timeout=10)
    assert await lane.enter()
    waiter = asyncio.create_task(lane.enter())
    second = asyncio.create_task(lane.enter())
    await asyncio.sleep(0)
    waiter.cancel()  # its client went away while it waited
    await asyncio.gather(waiter, return_exceptions=True)
    lane.leave()
    assert await asyncio.wait_for(second, 1) is True  # the place went to the next one
    lane.leave()
    assert lane.running == 0 and not lane._waiting


async def test_model_work_has_a_narrow_lane_of_its_own() -> None:
    inner = SlowApp()
    app = AdmissionMiddleware(inner, max_in_flight=8, max_queued=1, queue_timeout=30,  # type: ignore[arg-type]
                              max_model_in_flight=2)
    paths = ["/v1/conversations/c/messages", "/v1/personalities/p/knowledge/search", "/v1/users/u/memories/search"]
    async with client(app) as http:
        held = [asyncio.create_task(http.post(p)) for p in paths]  # two run, one waits
        await asyncio.sleep(0.05)
        assert app.models.running == 2
        assert (await http.post("/v1/users/u/memories")).status_code == 503  # the model lane's queue is full
        # Plain writes and reads are not held up by the model work.
        write = asyncio.create_task(http.post("/v1/users"))
        await asyncio.sleep(0.05)
        assert app.writes.running == 1 and (await http.get("/v1/users/u")).status_code == 200
        inner.release.set()
        assert [r.status_code for r in await asyncio.gather(*held, write)] == [200] * 4
    assert app.models.shed == 1 and app.writes.shed == 0


def test_which_requests_are_model_work() -> None:
    app = AdmissionMiddleware(SlowApp(), 4, 4, 1, 2)  # type: ignore[arg-type]
    assert app.lane("POST", "/v1/game-sessions/g/move") is app.models
    assert app.lane("POST", "/v1/users/u/memories") is app.models  # embedded as it is written
    assert app.lane("GET", "/v1/users/u/memories") is app.reads
    assert app.lane("POST", "/v1/users") is app.writes
    assert app.lane("DELETE", "/v1/users/u/memories/m") is app.writes
    assert app.lane("POST", "/rooms/r/messages") is app.writes  # a room's typed turn: the room paces itself
