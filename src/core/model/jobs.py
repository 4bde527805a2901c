"""Background jobs: rows written in the same transaction as the change that needs them."""

from datetime import datetime
from typing import Any, Literal

from msgspec import Struct

JobKind = Literal[
    "knowledge.process",
    "video.render",
    "memory.extract",
    "conversation.timer",
    "events.dispatch",
    "webhook.deliver",
]


class Job(Struct, kw_only=True):
    id: str
    kind: str
    payload: dict[str, Any]
    run_at: datetime
    attempts: int = 0
    # a job with a key replaces none other: one pending job per key (e.g. one render per video)
    key: str | None = None
    locked_until: datetime | None = None
    last_error: str | None = None
