"""A text turn as server-sent events: `delta` pieces, then `done` with the result, or `error` if it breaks off.

Everything that can be refused is checked before the response starts (`Conversations.start_turn` raises), so
those answers are the ordinary JSON errors. Once the 200 and its first bytes are out, a failure can only be
told in the stream: one `error` event carrying the usual envelope, and the stream ends.

The turn is closed by a background task that runs after the body however it ended: normally that finds the
reply already stored; after a client that went away it stops the generation and stores what was produced,
marked interrupted (see `core.services.text_turns`).
"""

import logging
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar.background_tasks import BackgroundTask
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIResponse, OpenAPIType, Operation, Reference, Schema
from litestar.response import Stream
from litestar.response.base import ASGIResponse

from avatar_service.core.errors import AvatarError
from avatar_service.core.services.text_turns import TextTurn
from avatar_service.entrypoints.http.errors import error_body, status_of

log = logging.getLogger("avatar_service.http")

HEADERS = {
    "Cache-Control": "no-cache",
    "X-Accel-Buffering": "no",  # nginx and kin pass each event on at once instead of buffering the body
}


def event(name: str, data: Any) -> bytes:
    """One event; the JSON is compact (msgspec writes no newline), so it fits one `data:` line."""
    return b"event: " + name.encode() + b"\ndata: " + msgspec.json.encode(data) + b"\n\n"


async def turn_events(turn: TextTurn) -> AsyncIterator[bytes]:
    try:
        async for piece in turn:
            yield event("delta", {"content": piece})
    except AvatarError as error:
        yield event("error", error_body(status_of(error), error.code, error.message, error.param))
        return
    except Exception:
        request_id = f"req_{uuid.uuid4().hex[:16]}"
        log.exception("unhandled error %s in the stream of conversation %s", request_id, turn.conversation_id)
        yield event("error", error_body(500, "internal_error",
                                        f"Something went wrong on our side (request {request_id})"))
        return
    yield event("done", msgspec.to_builtins(turn.result))


class EventStream(Stream):
    """A `text/event-stream` body, whatever media type the route declares for its JSON answers (Litestar lets
    the route's type win over the response's own)."""

    media_type = "text/event-stream"

    def to_asgi_response(self, *args: Any, **kwargs: Any) -> ASGIResponse:
        kwargs["media_type"] = self.media_type
        return super().to_asgi_response(*args, **kwargs)


def stream_turn(turn: TextTurn) -> EventStream:
    return EventStream(turn_events(turn), media_type=EventStream.media_type, headers=HEADERS,
                       background=BackgroundTask(turn.aclose))


STREAM_DESCRIPTION = (
    "With `\"stream\": true`: server-sent events. `event: delta` with `data: {\"content\": PIECE}` as the reply is "
    "written (the pieces joined are exactly the reply), then one `event: done` whose data is the ordinary result "
    "`{conversation, message, reply}`. A failure after the stream began is one `event: error` with "
    "`data: {\"error\": {type, code, message, param}}`, and the stream ends. Errors found before the stream "
    "begins are ordinary JSON errors with their status."
)


@dataclass
class StreamedTurnOperation(Operation):
    """The messages operation in the OpenAPI document: its 200 is JSON, or an event stream when asked for."""

    def __post_init__(self) -> None:
        ok = (self.responses or {}).get("200")
        if isinstance(ok, OpenAPIResponse):
            ok.description = "The turn: JSON, or server-sent events with `\"stream\": true`"
            ok.content = {
                "application/json": OpenAPIMediaType(schema=Reference("#/components/schemas/MessageResult")),
                "text/event-stream": OpenAPIMediaType(schema=Schema(type=OpenAPIType.STRING,
                                                                    description=STREAM_DESCRIPTION)),
            }
        if self.responses is not None:
            self.responses["503"] = OpenAPIResponse(
                description="The dialogue engine failed (a language model server that is down or broke off)",
                content={"application/json": OpenAPIMediaType(schema=Reference("#/components/schemas/Error"))})
