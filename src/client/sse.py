"""Server-sent events, as the service streams a text turn: `delta` pieces, then `done` (or `error`).

A decoder fed one line at a time, so the sync and the async client share it. It follows the event-stream
format: `event:` names the event (default "message"), `data:` lines are joined with newlines, a blank line
ends the event, a line starting with ':' is a comment, a field without a colon has an empty value.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ServerSentEvent:
    event: str
    data: str  # as sent: the service's data is one line of JSON


class EventDecoder:
    """`feed(line)` returns the event a blank line completes, else None; `end()` the one a stream's end cuts off."""

    def __init__(self) -> None:
        self._event = "message"
        self._data: list[str] = []

    def feed(self, line: str) -> ServerSentEvent | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            self._event = value
        elif field == "data":
            self._data.append(value)
        return None  # `id` and `retry` mean nothing to a turn's stream

    def end(self) -> ServerSentEvent | None:
        return self._dispatch()

    def _dispatch(self) -> ServerSentEvent | None:
        found = ServerSentEvent(self._event, "\n".join(self._data)) if self._data else None
        self._event, self._data = "message", []
        return found
