"""Shared model pieces: base Struct config, limits, list envelopes, deletion receipts."""

from datetime import datetime
from typing import Annotated, Any, Generic, TypeVar

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

__all__ = [
    "UNSET",
    "Deleted",
    "Metadata",
    "Page",
    "Request",
    "Resource",
    "Text255",
    "UnsetType",
    "Url",
    "public",
]

T = TypeVar("T")


class Resource(Struct, kw_only=True):
    """A resource as the API shows it: every field of the spec, nulls included."""


class Request(Struct, kw_only=True, forbid_unknown_fields=True):
    """A request body: unknown fields are an error so typos never pass in silence."""


# Limits of the spec's Limits table, as reusable annotated types (a page's size: core/pagination.py).
Text255 = Annotated[str, Meta(max_length=255)]
Url = Annotated[str, Meta(min_length=8, max_length=2048, pattern=r"^https?://", description="An http(s) URL.")]
Metadata = Annotated[dict[str, Any], Meta(description="Custom key-value data (at most 50 keys, 8 KB).")]


class Page(Struct, Generic[T], kw_only=True):
    """The list envelope: `{data, has_more, next_cursor}`."""

    data: list[T]
    has_more: bool
    next_cursor: str | None = None


class Deleted(Struct, kw_only=True):
    id: str
    object: str
    deleted: bool = True


class Timestamps(Struct, kw_only=True):
    created_at: datetime
    updated_at: datetime


S = TypeVar("S", bound=Struct)


def public(record: Struct, view: type[S]) -> S:
    """The public view of a storage record: the view's fields copied over, nothing re-validated."""
    return view(**{name: getattr(record, name) for name in view.__struct_fields__})


def replace(record: S, **changes: Any) -> S:
    return msgspec.structs.replace(record, **changes)
