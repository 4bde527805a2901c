"""Routes outside /v1 that need no API key: health, signed media, and the room join page."""

import re
from pathlib import Path
from typing import Any

from litestar import MediaType, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.params import SkipValidation
from litestar.response import Stream

from avatar_service.core.errors import Forbidden, Invalid, NotFound, Unauthenticated
from avatar_service.core.media_urls import MediaSigner
from avatar_service.core.model import Conversation, MessageCreate, MessageResult
from avatar_service.core.services.conversations import Conversations
from avatar_service.ports.blobs import BlobStore
from avatar_service.ports.clock import Clock
from avatar_service.ports.storage import Storage

CONTENT_TYPES = {".mp4": "video/mp4", ".webm": "video/webm", ".jpg": "image/jpeg", ".png": "image/png"}
JOIN_PAGE = Path(__file__).parent / "static" / "room.html"


@get("/healthz", include_in_schema=True, tags=["Health"])
async def healthz(request: Request[Any, Any, Any], storage: NamedDependency[SkipValidation[Storage]]) -> Response[Any]:
    engines = request.app.state.engines
    if not await storage.ping():
        return Response({"status": "unavailable", "engines": engines}, status_code=503)
    return Response({"status": "ok", "engines": engines})


def _range(header: str | None, size: int) -> tuple[int, int] | None:
    match = re.fullmatch(r"bytes=(\d*)-(\d*)", header or "")
    if not match or (not match.group(1) and not match.group(2)):
        return None
    if match.group(1):
        start = int(match.group(1))
        end = min(int(match.group(2)), size - 1) if match.group(2) else size - 1
    else:  # a suffix range: the last N bytes
        start, end = max(0, size - int(match.group(2))), size - 1
    return (start, end) if start <= end < size else (size, size)


@get("/media/{key:path}", tags=["Media"])
async def media(key: str, request: Request[Any, Any, Any], signer: NamedDependency[MediaSigner],
                blobs: NamedDependency[SkipValidation[BlobStore]], clock: NamedDependency[SkipValidation[Clock]],
                expires: int = 0, signature: str = "") -> Response[Any]:
    """A finished video or thumbnail. The URL's signature is the only credential; ranges work for seeking."""
    key = key.lstrip("/")
    if not signer.valid(key, expires, signature, clock.now()):
        raise Forbidden("This media URL is invalid or has expired", code="url_expired")
    size = await blobs.size(key)
    if size is None:
        raise NotFound("No such media")
    headers = {"Accept-Ranges": "bytes", "Cache-Control": "private, max-age=3600"}
    media_type = CONTENT_TYPES.get(Path(key).suffix, "application/octet-stream")
    span = _range(request.headers.get("range"), size)
    if span is None:
        return Stream(blobs.read(key), media_type=media_type, headers={**headers, "Content-Length": str(size)})
    start, end = span
    if start >= size:
        return Response(b"", status_code=416, headers={**headers, "Content-Range": f"bytes */{size}"})
    return Stream(blobs.read(key, start, end), status_code=206, media_type=media_type,
                  headers={**headers, "Content-Range": f"bytes {start}-{end}/{size}",
                           "Content-Length": str(end - start + 1)})


async def _room_conversation(request: Request[Any, Any, Any], conversation_id: str, token: str
                             ) -> tuple[str, str]:
    """The organization of a room whose token is valid (the token is the room's only credential)."""
    rooms = request.app.state.rooms
    if not token or not rooms.verify(conversation_id, token, request.app.state.clock.now()):
        raise Unauthenticated("Invalid or expired room token", code="invalid_room_token")
    storage: Storage = request.app.state.storage
    async with storage(None) as uow:
        record = await uow.conversations.get(conversation_id)
    if record is None:
        raise NotFound("No such conversation")
    return record.organization_id, record.id


@get("/rooms/{conversation_id:str}", media_type=MediaType.HTML, include_in_schema=False)
async def room_page(conversation_id: str) -> str:
    return JOIN_PAGE.read_text()


@post("/rooms/{conversation_id:str}/join", status_code=200, tags=["Rooms"])
async def room_join(conversation_id: str, request: Request[Any, Any, Any],
                    conversations: NamedDependency[Conversations], token: str = "") -> Conversation:
    org, ident = await _room_conversation(request, conversation_id, token)
    return await conversations.joined(org, ident)


@post("/rooms/{conversation_id:str}/messages", status_code=200, tags=["Rooms"])
async def room_message(conversation_id: str, data: MessageCreate, request: Request[Any, Any, Any],
                       conversations: NamedDependency[Conversations], token: str = "") -> MessageResult:
    org, ident = await _room_conversation(request, conversation_id, token)
    if not data.content.strip():
        raise Invalid("Say something", param="content")
    return await conversations.say(org, ident, data.content)


ROUTES = [healthz, media, room_page, room_join, room_message]
