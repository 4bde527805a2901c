"""Webhook sender port: one POST of a signed delivery through the guarded client."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class PostOutcome:
    status: int | None  # None when no response came (refused, unreachable, timed out)
    duration_ms: int
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class WebhookSender(Protocol):
    async def post(self, url: str, body: bytes, headers: Mapping[str, str]) -> PostOutcome: ...
