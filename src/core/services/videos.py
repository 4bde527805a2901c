"""Video generations: accept (rendering is a job), read with signed media URLs, list, cancel."""

from __future__ import annotations

from avatar_service.core.errors import Conflict, Invalid
from avatar_service.core.media_urls import MediaSigner
from avatar_service.core.model import (
    ErrorInfo,
    Page,
    VideoCreate,
    VideoGeneration,
    VideoGenerationCreated,
    VideoRecord,
    public,
    replace,
)
from avatar_service.core.pagination import PageRequest
from avatar_service.core.services.base import Deps, emit, fetch, page_of
from avatar_service.core.services.filters import given
from avatar_service.core.states import check_move, is_final
from avatar_service.core.webhooks.signing import new_secret
from avatar_service.ports.jobs import JobQueue
from avatar_service.ports.storage import UnitOfWork


class Videos:
    def __init__(self, deps: Deps, jobs: JobQueue, signer: MediaSigner) -> None:
        self.deps, self.jobs, self.signer = deps, jobs, signer

    def view(self, record: VideoRecord) -> VideoGeneration:
        video = public(record, VideoGeneration)
        now = self.deps.clock.now()
        if record.video_key:
            video.video_url = self.signer.url(record.video_key, now)
        if record.thumbnail_key:
            video.thumbnail_url = self.signer.url(record.thumbnail_key, now)
        return video

    async def create(self, organization_id: str, data: VideoCreate) -> VideoGenerationCreated:
        if (data.text is None) == (data.audio_url is None):
            raise Invalid("Give exactly one of 'text' (to speak) or 'audio_url' (to lip-sync)", param="text")
        if data.text is not None and not data.text.strip():
            raise Invalid("'text' is empty", param="text")
        now = self.deps.clock.now()
        secret = new_secret() if data.webhook_url else None
        record = VideoRecord(
            id=self.deps.ids.new("video.generation"), status="pending", created_at=now,
            personality_id=data.personality_id, organization_id=organization_id, text=data.text,
            audio_url=data.audio_url, max_duration=data.duration, resolution=data.resolution,
            background=data.background, webhook_url=data.webhook_url, webhook_secret=secret, updated_at=now,
        )
        async with self.deps.storage(organization_id) as uow:
            await fetch(uow.personalities, "personality", data.personality_id, param="personality_id")
            await uow.videos.add(record)
            await self.jobs.enqueue(uow, "video.render", {"organization_id": organization_id, "id": record.id})
            await uow.commit()
        self.jobs.wake()
        created = public(record, VideoGenerationCreated)
        created.webhook_secret = secret
        return created

    async def get(self, organization_id: str, video_id: str) -> VideoGeneration:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            return self.view(await fetch(uow.videos, "video.generation", video_id))

    async def list(self, organization_id: str, page: PageRequest, status: str | None = None
                   ) -> Page[VideoGeneration]:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            records, more = await uow.videos.page(page, **given(status=status))
        return page_of(records, more, self.view)

    async def cancel(self, organization_id: str, video_id: str) -> VideoGeneration:
        """Cancels a pending or processing render; a cancelled one is returned unchanged."""
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.videos, "video.generation", video_id)
            if record.status == "cancelled":
                return self.view(record)
            if is_final("video.generation", record.status):
                raise Conflict(f"The video generation is already {record.status}")
            now = self.deps.clock.now()
            updated = replace(record, status=check_move("video.generation", record.status, "cancelled"),
                              updated_at=now, completed_at=now)
            # Only if the renderer has not finished it in the meantime.
            if not await uow.videos.update(updated, expect={"status": record.status}):
                raise Conflict("The video generation changed state meanwhile; read it again")
            await uow.commit()
        return self.view(updated)

    async def fail(self, organization_id: str, video_id: str, code: str, message: str) -> None:
        async with self.deps.storage(organization_id) as uow:
            record = await uow.videos.get(video_id)
            if record is None or is_final("video.generation", record.status):
                return
            now = self.deps.clock.now()
            updated = replace(record, status=check_move("video.generation", record.status, "failed"),
                              error=ErrorInfo(code=code, message=message), updated_at=now, completed_at=now)
            if await uow.videos.update(updated, expect={"status": record.status}):
                await emit_video(uow, self, updated, "video.failed")
                await uow.commit()


async def emit_video(uow: UnitOfWork, videos: Videos, record: VideoRecord, kind: str) -> None:
    """video.completed / video.failed to subscribed webhooks, and to the request's own webhook_url."""
    view = videos.view(record)
    await emit(uow, videos.deps, record.organization_id, kind, view)
    if record.webhook_url:
        await emit(uow, videos.deps, record.organization_id, kind, view, target_url=record.webhook_url,
                   target_secret=record.webhook_secret)
