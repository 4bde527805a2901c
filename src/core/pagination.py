"""Keyset pagination: opaque cursors over (created_at, id), newest first."""

import base64
import binascii
import re
from datetime import datetime

import msgspec

from avatar_service.core.errors import Invalid

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
_ID = re.compile(r"[A-Za-z0-9_-]{1,160}")  # every id is a prefix and URL-safe characters


class PageRequest(msgspec.Struct, frozen=True, kw_only=True):
    limit: int = DEFAULT_LIMIT
    after: tuple[datetime, str] | None = None  # the (created_at, id) of the last item already seen


class _Cursor(msgspec.Struct, array_like=True):
    created_at: datetime
    id: str


def page_request(limit: int | None, cursor: str | None) -> PageRequest:
    limit = DEFAULT_LIMIT if limit is None else limit
    if not 1 <= limit <= MAX_LIMIT:
        raise Invalid(f"limit must be between 1 and {MAX_LIMIT}", param="limit")
    return PageRequest(limit=limit, after=decode_cursor(cursor) if cursor else None)


def encode_cursor(created_at: datetime, ident: str) -> str:
    raw = msgspec.json.encode(_Cursor(created_at, ident))
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        decoded = msgspec.json.decode(raw, type=_Cursor)
    except (binascii.Error, ValueError, msgspec.DecodeError):
        raise Invalid("cursor is not a cursor this API returned", param="cursor") from None
    if decoded.created_at.tzinfo is None or not _ID.fullmatch(decoded.id):
        raise Invalid("cursor is not a cursor this API returned", param="cursor")
    return decoded.created_at, decoded.id
