"""Metrics port: figures the code reports (room turn latency) and the job queue's state read at scrape time.

The adapter is adapters/prometheus_metrics.py; `GET /metrics` exposes what it holds.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from avatar_service.core.model.jobs import JobKind

# The stages of a room's voice turn, each a histogram series (`avatar_room_turn_seconds{stage=...}`):
# transcription of the user's utterance, the reply's text, and end of the user's speech -> first reply audio.
RoomTurnStage = Literal["speech_to_text", "reply", "first_audio"]


class Metrics(Protocol):
    def room_turn(self, stage: RoomTurnStage, seconds: float) -> None:
        """One turn's time spent in `stage`, in seconds."""
        ...


@dataclass(frozen=True, slots=True)
class QueueFigures:
    """One job kind's queue, read from the database when scraped (exact across processes)."""

    kind: JobKind
    queued: int  # due and waiting for a worker
    running: int  # held by a worker now
    scheduled: int  # waiting for a later time (timers, retries after a failure)
    oldest_seconds: float  # how long the oldest queued job has been due; 0 when none is queued


class QueueStats(Protocol):
    async def queue_figures(self, now: datetime) -> list[QueueFigures]:
        """Every job kind's figures (kinds with no jobs included, with zeros)."""
        ...
