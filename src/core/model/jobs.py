"""Background jobs: rows written in the same transaction as the change that needs them."""

from datetime import datetime
from typing import Any, Literal

from msgspec import Struct

# Every kind of background job, each with one handler registered at start (entrypoints/bootstrap.py).
# Outbox events and webhook deliveries are not jobs: the dispatcher runs them from their own tables.
JobKind = Literal[
    "knowledge.process",  # fetch, extract, chunk and embed a knowledge item (core/services/knowledge_processing.py)
    "video.render",  # render a video generation (core/services/video_rendering.py)
    "memory.extract",  # extract memories from an ended conversation (core/services/memory_extraction.py)
    "conversation.timer",  # end an idle conversation (Conversations.on_timer)
    "game.timer",  # a game's move clock ran out (GameSessions.on_timer)
]


class Job(Struct, kw_only=True):
    id: str
    kind: JobKind
    payload: dict[str, Any]
    run_at: datetime
    attempts: int = 0
    # a job with a key replaces none other: one pending job per key (e.g. one render per video)
    key: str | None = None
    locked_until: datetime | None = None
    last_error: str | None = None
