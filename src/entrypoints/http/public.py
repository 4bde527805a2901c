"""Routes outside /v1 that need no API key: health and signed media (the room's are in rooms.py)."""

import re
from pathlib import Path
from typing import Any

from litestar import Request, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, SkipValidation
from litestar.response import Stream

from avatar_service.core.errors import Forbidden, NotFound
from avatar_service.core.media_urls import MediaSigner
from avatar_service.core.services.voices import Voices
from avatar_service.ports.blobs import BlobStore
from avatar_service.ports.clock import Clock
from avatar_service.ports.storage import Storage

CONTENT_TYPES = {".mp4": "video/mp4", ".webm": "video/webm", ".jpg": "image/jpeg", ".png": "image/png",
                 ".wav": "audio/wav"}


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
async def media(key: FromPath[str], request: Request[Any, Any, Any], signer: NamedDependency[MediaSigner],
                blobs: NamedDependency[SkipValidation[BlobStore]], clock: NamedDependency[SkipValidation[Clock]],
                voices: NamedDependency[Voices], expires: FromQuery[int] = 0, signature: FromQuery[str] = ""
                ) -> Response[Any]:
    """A finished video, thumbnail or voice preview. The URL's signature is the only credential; ranges work."""
    key = key.lstrip("/")
    if not signer.valid(key, expires, signature, clock.now()):
        raise Forbidden("This media URL is invalid or has expired", code="url_expired")
    size = await blobs.size(key)
    if size is None and await voices.render_preview(key):  # a voice's preview is made on its first play
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


ROUTES = [healthz, media]
