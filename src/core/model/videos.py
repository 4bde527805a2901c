"""Video generations: asynchronous renders of the avatar speaking."""

from datetime import datetime
from typing import Annotated, Literal

from msgspec import Meta

from avatar_service.core.model.common import Request, Resource, Url
from avatar_service.core.model.knowledge import ErrorInfo
from avatar_service.core.model.personalities import Background

VideoStatus = Literal["pending", "processing", "completed", "failed", "cancelled"]
Resolution = Literal["480p", "720p", "1080p"]


class VideoGeneration(Resource, kw_only=True):
    id: str
    object: Literal["video.generation"] = "video.generation"
    status: VideoStatus
    created_at: datetime
    personality_id: str | None = None
    progress: Annotated[int, Meta(ge=0, le=100)] = 0
    video_url: str | None = None
    thumbnail_url: str | None = None
    duration: float | None = None
    error: ErrorInfo | None = None
    completed_at: datetime | None = None


class VideoGenerationCreated(VideoGeneration, kw_only=True):
    """The create response: carries the per-generation webhook secret once, when `webhook_url` was given."""

    webhook_secret: str | None = None


class VideoRecord(VideoGeneration, kw_only=True):
    organization_id: str
    text: str | None = None
    audio_url: str | None = None
    max_duration: int | None = None
    resolution: Resolution = "720p"
    background: str | None = None
    webhook_url: str | None = None
    webhook_secret: str | None = None
    # blob keys of the finished files; URLs are signed when the resource is read
    video_key: str | None = None
    thumbnail_key: str | None = None
    updated_at: datetime | None = None


class VideoCreate(Request, kw_only=True):
    personality_id: str
    text: Annotated[str, Meta(min_length=1, max_length=5000)] | None = None
    audio_url: Url | None = None
    duration: Annotated[int, Meta(ge=1, le=300)] | None = None
    resolution: Resolution = "720p"
    background: Background | None = None
    webhook_url: Url | None = None
