"""Tool caller port: one signed POST of a tool call to the tool's URL, its answer read up to a cap."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class ToolAnswer:
    status: int | None  # None when no answer came (refused, unreachable, timed out)
    body: bytes = b""  # at most `max_bytes`
    too_large: bool = False  # the answer went on past `max_bytes`
    error: str | None = None  # why no answer came

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300 and not self.too_large


class ToolCaller(Protocol):
    async def call(self, url: str, body: bytes, headers: Mapping[str, str], seconds: float,
                   max_bytes: int) -> ToolAnswer:
        """POSTs `body` (JSON) once within `seconds`; never raises for a failure of the call, which the answer
        describes."""
        ...
