"""A shutdown closes every room and waits for what their tasks were still writing."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from avatar_service.adapters.aiortc_rooms import AiortcRooms
from avatar_service.adapters.aiortc_rooms.pipeline_session import close_sessions
from avatar_service.adapters.hosted_rooms import HostedRooms
from avatar_service.ports.speech import SpeechEngines

from .fakes import inline


class Session:
    """A session whose one task, cancelled by closing, still has a reply to store."""

    def __init__(self) -> None:
        self.stored = False
        self.task = asyncio.ensure_future(self._reply())

    async def _reply(self) -> None:
        try:
            await asyncio.sleep(60)
        finally:
            await asyncio.shield(self._store())

    async def _store(self) -> None:
        await asyncio.sleep(0.05)  # the write's round trips
        self.stored = True

    def running(self) -> set[asyncio.Task[Any]]:
        return {self.task}


async def test_closing_waits_for_the_sessions_last_writes_and_other_work() -> None:
    sessions = {"conversation_a": Session(), "conversation_b": Session()}
    closed: list[str] = []
    recording = asyncio.ensure_future(asyncio.sleep(0.05))

    async def close(ident: str) -> None:
        closed.append(ident)
        sessions[ident].task.cancel()

    await asyncio.sleep(0)  # the replies are under way
    await close_sessions(sessions, close, lambda: [recording])
    assert closed == ["conversation_a", "conversation_b"]
    assert all(s.stored for s in sessions.values()) and recording.done()


class Host:
    def __init__(self) -> None:
        self.ended: list[tuple[str, str | None]] = []

    async def end(self, organization_id: str, conversation_id: str, status: str = "ended",
                  reason: str | None = None) -> None:
        await asyncio.sleep(0.02)  # the write's round trips
        self.ended.append((conversation_id, reason))


class Room:
    """An AiortcRooms session as the provider sees it: its media, whether it is closed, its tasks."""

    def __init__(self, ident: str) -> None:
        self.media = SimpleNamespace(organization_id="org_1", conversation_id=ident)
        self._closed = False

    def running(self) -> set[asyncio.Task[Any]]:
        return set()

    async def close(self) -> None:
        self._closed = True


def rooms_with(host: Host) -> AiortcRooms:
    rooms = AiortcRooms(HostedRooms("http://avatar.example", b"secret"), SpeechEngines({}), inline,
                        transcriber=object(), warm_up=False, left_grace=60)  # type: ignore[arg-type]
    rooms.attach(host)  # type: ignore[arg-type]
    return rooms


async def test_a_shutdown_ends_at_once_only_the_conversations_whose_participant_left() -> None:
    host = Host()
    rooms = rooms_with(host)
    left, reloaded, reload = Room("conversation_left"), Room("conversation_reloaded"), Room("conversation_reloaded")
    rooms.sessions["conversation_reloaded"] = reload  # (their page joined again: a new session)
    rooms._left(left)  # type: ignore[arg-type]
    rooms._left(reloaded)  # type: ignore[arg-type]
    await asyncio.sleep(0)
    await asyncio.wait_for(rooms.aclose(), 5)  # not the 60 s grace
    assert host.ended == [("conversation_left", "left")] and reload._closed


async def test_a_shutdown_waits_for_the_recordings_its_closing_starts() -> None:
    rooms = rooms_with(Host())
    written: list[str] = []

    def finish(ident: str) -> None:  # what closing a recorded room starts: its MP4 written and stored
        async def write() -> None:
            await asyncio.sleep(0.05)
            written.append(ident)

        task = asyncio.ensure_future(write())
        rooms.recordings.add(task)
        task.add_done_callback(rooms.recordings.discard)

    rooms._finish_recording = finish  # type: ignore[method-assign]
    rooms.sessions["conversation_1"] = Room("conversation_1")  # type: ignore[assignment]
    await rooms.aclose()
    assert written == ["conversation_1"]
