"""Rooms on real `avatar worker` processes (PostgreSQL): the API places each room on a worker with a free place
and forwards the signaling; a real aiortc client joins through the API and hears the worker's reply; a full
house is a 503 with Retry-After; ending a conversation in the API hangs up the worker's room and frees its
place (and its recording, written by the worker, is served by the API); a worker killed with SIGKILL
mid-conversation fails its conversations (end_reason host_lost) within the heartbeat lease and frees its places."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from avatar_service.adapters.aiortc_rooms.client import RoomClient
from avatar_service.adapters.speech.factory import build_offline_speech
from avatar_service.adapters.sqlalchemy import tables
from avatar_service.ports.speech import VoiceChoice

from .conftest import _truncate_all
from .helpers import Service, create_personality

LEASE = 3.0  # seconds: a dead worker's rooms fail within this
MARGIN = 0.5  # seconds of scheduling allowed past the lease
SECRET = "room-worker-tests"
QUESTION = "When does the museum open on Sunday morning?"


@pytest.fixture
async def database_url(postgres_database: str) -> str:
    await _truncate_all(postgres_database)
    return postgres_database


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    return {"room_placement": "workers", "room_lease_seconds": LEASE, "secret_key": SECRET,
            "room_host_addresses": "127.0.0.1"}


@pytest.fixture(scope="module")
def question() -> tuple[np.ndarray, int]:
    speech = build_offline_speech().synthesize(QUESTION, VoiceChoice(provider="openai"))
    return np.asarray(speech.samples), speech.sample_rate


@pytest.fixture
def workers(database_url: str, tmp_path: Path) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Two room workers, one place each, sharing the API's secret and data folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AVATAR_")}
    env.update({"AVATAR_DATABASE_URL": database_url, "AVATAR_DATA_DIR": str(tmp_path / "data"),
                "AVATAR_EMBEDDER": "lexical", "AVATAR_SECRET_KEY": SECRET, "AVATAR_LOG_LEVEL": "INFO",
                "AVATAR_ROOM_CAPACITY": "1", "AVATAR_ROOM_LEASE_SECONDS": str(LEASE),
                "AVATAR_WORKER_URL": "http://127.0.0.1:0", "AVATAR_ROOM_HOST_ADDRESSES": "127.0.0.1",
                "AVATAR_METRICS_DIR": str(tmp_path / "metrics")})
    avatar = Path(sys.executable).with_name("avatar")
    started = []
    for index in range(2):
        with (tmp_path / f"worker{index}.log").open("ab") as out:
            started.append(subprocess.Popen([str(avatar), "worker"], env=env, stdout=out, stderr=subprocess.STDOUT))
    yield started
    for process in started:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


async def _hosts(url: str) -> dict[str, int]:
    """Live room hosts and how many rooms each holds."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            hosts = (await conn.execute(select(tables.room_hosts.c.id))).scalars().all()
            rooms = (await conn.execute(select(tables.room_placements.c.host_id))).scalars().all()
    finally:
        await engine.dispose()
    return {host: rooms.count(host) for host in hosts}


async def _conversation(service: Service, personality_id: str, **config: bool) -> dict[str, Any]:
    created = await service.client.post("/v1/conversations", json={"personality_id": personality_id,
                                                                   "config": {"video_enabled": False, **config}})
    assert created.status_code == 201, created.text
    return dict(created.json())


def _offer_poster(service: Service, conversation: dict[str, Any]) -> Any:
    async def post_offer(sdp: str, kind: str) -> tuple[str, str]:
        answer = await service.client.post(f"/rooms/{conversation['id']}/offer",
                                           params={"token": conversation["room_token"]},
                                           json={"sdp": sdp, "type": kind})
        assert answer.status_code == 200, answer.text
        return answer.json()["sdp"], answer.json()["type"]
    return post_offer


async def _status(service: Service, ident: str) -> dict[str, Any]:
    return dict((await service.client.get(f"/v1/conversations/{ident}",
                                          params={"include_transcript": "true"})).json())


async def test_rooms_run_on_workers_and_fail_when_theirs_dies(service: Service, workers: list[Any],
                                                              database_url: str, tmp_path: Path,
                                                              question: tuple[np.ndarray, int]) -> None:
    waiter = RoomClient()
    assert await waiter.wait_for(lambda: False, 0) is False
    deadline = time.monotonic() + 60
    while len(await _hosts(database_url)) < 2:  # each worker loads the app, then announces itself
        assert time.monotonic() < deadline, [(tmp_path / f"worker{i}.log").read_text()[-2000:] for i in range(2)]
        assert all(w.poll() is None for w in workers)
        await waiter.wait_for(lambda: False, 0.3)
    await waiter.close()

    personality = await create_personality(service.client, name="Ava")
    await service.client.post(f"/v1/personalities/{personality['id']}/knowledge",
                              json={"type": "text", "content": "The museum opens at 9am on Sundays and closes at 5pm."})
    await service.drain()
    first, third = [await _conversation(service, personality["id"]) for _ in range(2)]
    second = await _conversation(service, personality["id"], record=True)  # recorded by its worker

    # The first room: placed on a worker, signaling forwarded, the media runs there.
    room = RoomClient()
    other = RoomClient()
    try:
        await room.join(_offer_poster(service, first))
        assert await room.wait_for(lambda: room.pc.connectionState == "connected", 15)
        assert await room.wait_for(lambda: room.microphone._pts >= 48_000 // 2, 10)
        room.microphone.say(*question)
        assert await room.wait_for(lambda: room.microphone.speech_ended_at is not None, 10)
        ended = room.microphone.speech_ended_at
        assert ended is not None
        assert await room.wait_for(lambda: any(t > ended for t in room.heard.audible), 40), room.heard.events
        view = await _status(service, first["id"])
        assert view["status"] == "active"
        said = [t["content"] for t in view["transcript"] if t["role"] == "user"]
        assert said and "museum" in said[0].lower(), view["transcript"]
        assert await room.wait_for(lambda: any(e.get("role") == "assistant" for e in room.heard.events), 10)
        # A typed message reaches the room on its worker, which answers it there (and says it aloud).
        typed = await service.client.post(f"/rooms/{first['id']}/messages", params={"token": first["room_token"]},
                                          json={"content": "When does it close?"})
        assert typed.status_code == 200, typed.text
        assert "5" in typed.json()["reply"]["content"] or "five" in typed.json()["reply"]["content"].lower()
        assert await room.wait_for(lambda: any(e.get("content") == "When does it close?" for e in room.heard.events),
                                   10), room.heard.events

        # The second room goes to the other worker; a third finds every place taken.
        await other.join(_offer_poster(service, second))
        assert await other.wait_for(lambda: other.pc.connectionState == "connected", 15)
        hosts = await _hosts(database_url)
        assert sorted(hosts.values()) == [1, 1], hosts
        full = await service.client.post(f"/rooms/{third['id']}/offer", params={"token": third["room_token"]},
                                         json={"sdp": "v=0\r\n", "type": "offer"})
        assert full.status_code == 503 and int(full.headers["retry-after"]) > 0, full.text

        # Which worker holds the first room: kill it without warning, mid-conversation.
        pids = {}
        for index in range(2):
            log = (tmp_path / f"worker{index}.log").read_text()
            for host in hosts:
                if f"room worker {host} " in log:
                    pids[host] = workers[index]
        engine = create_async_engine(database_url)
        async with engine.connect() as conn:
            first_host = (await conn.execute(select(tables.room_placements.c.host_id).where(
                tables.room_placements.c.conversation_id == first["id"]))).scalar_one()
        await engine.dispose()
        victim = pids[first_host]
        victim.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        # Within the lease: the worker's row expires 0.75 lease after its last heartbeat (RoomWorker) and the
        # API's and the other worker's sweeps come every quarter lease, so the room fails at most one lease after
        # the kill; the margin is for the sweep's own statements, this loop's polling and a busy 2-core machine.
        while (await _status(service, first["id"]))["status"] == "active":
            assert time.monotonic() - killed < LEASE + MARGIN, "the dead worker's room is still active"
            await room.wait_for(lambda: False, 0.05)
        failed_after = time.monotonic() - killed
        view = await _status(service, first["id"])
        assert view["status"] == "failed" and view["end_reason"] == "host_lost", view
        state = await service.client.get(f"/rooms/{first['id']}/state", params={"token": first["room_token"]})
        assert state.json()["end_reason"] == "host_lost"  # what the page reads when its connection drops
        # Its places are free with it (the sweep deletes its rows just after failing the conversations).
        for _ in range(40):
            if first_host not in await _hosts(database_url):
                break
            await room.wait_for(lambda: False, 0.05)
        assert first_host not in await _hosts(database_url)
        print(f"failed {failed_after:.1f} s after SIGKILL (lease {LEASE} s)")
        assert (await _status(service, second["id"]))["status"] == "active"  # the other worker's room goes on

        # Ending the second conversation in the API hangs up its room on the worker and frees the place...
        await service.client.delete(f"/v1/conversations/{second['id']}")
        assert await other.wait_for(lambda: any(e.get("type") == "ended" for e in other.heard.events), 10)
        assert list((await _hosts(database_url)).values()) == [0]
        recorded = await _status(service, second["id"])  # the worker wrote it to the shared blob store
        for _ in range(100):
            if recorded["recording_url"]:
                break
            await other.wait_for(lambda: False, 0.2)
            recorded = await _status(service, second["id"])
        assert recorded["recording_url"], recorded
        media = await service.client.get(recorded["recording_url"])
        assert media.status_code == 200 and media.content[4:8] == b"ftyp", media.status_code
        # ...which the third conversation now takes.
        third_room = RoomClient()
        try:
            await third_room.join(_offer_poster(service, third))
            assert await third_room.wait_for(lambda: third_room.pc.connectionState == "connected", 15)
        finally:
            await third_room.close()
    finally:
        await room.close()
        await other.close()
