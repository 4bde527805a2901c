"""A shutdown closes every room and waits for what their tasks were still writing."""

from __future__ import annotations

import asyncio
from typing import Any

from avatar_service.adapters.aiortc_rooms.pipeline_session import close_sessions


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
    await close_sessions(sessions, close, recording)
    assert closed == ["conversation_a", "conversation_b"]
    assert all(s.stored for s in sessions.values()) and recording.done()
