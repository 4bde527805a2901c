"""Avatars: the drawn ones the service ships (style `cartoon`) and an organization's photo avatars
(style `realistic`), uploaded as one portrait each."""

from datetime import datetime
from typing import Annotated, Literal

from msgspec import Meta, Struct

from avatar_service.core.model.common import Resource

AvatarName = Annotated[str, Meta(min_length=1, max_length=255)]
MAX_PHOTO_AVATARS = 100  # per organization: GET /avatars lists them all, as GET /webhooks does


class Avatar(Resource, kw_only=True):
    id: str
    object: Literal["avatar"] = "avatar"
    name: str
    style: str  # "cartoon" (drawn, shipped) | "realistic" (a photo avatar)
    preview_url: str | None = None
    created_at: datetime | None = None  # null for the shipped avatars


class AvatarList(Resource, kw_only=True):
    data: list[Avatar]


class AvatarRecord(Struct, kw_only=True):
    """A photo avatar as stored: its picture and preview live in the blob store, its landmarks here."""

    id: str
    organization_id: str
    name: str
    created_at: datetime
    updated_at: datetime
    image_key: str  # RGBA PNG: the photo upright, the person's cut-out as alpha
    preview_key: str  # JPEG still
    width: int
    height: int
    face_box: list[float]  # left, top, right, bottom
    landmarks: list[list[float]]  # 68 (x, y), iBUG 300-W order
