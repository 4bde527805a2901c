"""The render job: speech or fetched audio, the avatar renderer off the loop, files into the blob store."""

import asyncio
import logging
import re
import tempfile
from pathlib import Path
from typing import Any

from avatar_service.core.model import PersonalityRecord, VideoRecord, replace
from avatar_service.core.services.base import Deps
from avatar_service.core.services.videos import Videos, emit_video
from avatar_service.core.states import check_move, is_final
from avatar_service.ports.blobs import BlobStore
from avatar_service.ports.fetcher import Fetcher, FetchError
from avatar_service.ports.offload import Offload
from avatar_service.ports.renderer import AvatarRenderer, RenderCancelled, RenderRequest
from avatar_service.ports.speech import Audio, AudioDecoder, SpeechEngines, VoiceChoice

log = logging.getLogger(__name__)
PROGRESS_EVERY = 0.5  # seconds between progress writes and cancel checks
WORDS_PER_SECOND = 2.6  # a first guess at speech rate, corrected after synthesis


class RenderFailed(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def cut_at_words(text: str, words: int) -> str:
    parts = text.split()
    return " ".join(parts[:max(1, words)])


class VideoRenderer:
    def __init__(self, deps: Deps, videos: Videos, speech: SpeechEngines, decode: AudioDecoder,
                 renderer: AvatarRenderer, fetcher: Fetcher, blobs: BlobStore, offload: Offload,
                 work_dir: Path) -> None:
        self.deps, self.videos, self.speech, self.decode = deps, videos, speech, decode
        self.renderer, self.fetcher, self.blobs, self.offload = renderer, fetcher, blobs, offload
        self.work_dir = work_dir

    async def __call__(self, payload: dict[str, Any]) -> None:
        org, video_id = payload["organization_id"], payload["id"]
        async with self.deps.storage(org) as uow:
            record = await uow.videos.get(video_id)
            if record is None or is_final("video.generation", record.status):
                return
            personality = await uow.personalities.get(record.personality_id or "")
            if record.status == "pending":
                record = replace(record, status=check_move("video.generation", "pending", "processing"),
                                 progress=0, updated_at=self.deps.clock.now())
                if not await uow.videos.update(record, expect={"status": "pending"}):
                    return
                await uow.commit()
        if personality is None:
            await self.videos.fail(org, video_id, "personality_missing", "The personality was deleted")
            return
        self.work_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=self.work_dir) as tmp:
            try:
                await self._render(record, personality, Path(tmp))
            except RenderFailed as error:
                await self.videos.fail(org, video_id, error.code, error.message)
            except RenderCancelled:
                pass  # the cancel already set the status; the temporary files go with the directory
            except Exception as error:  # a bug must still end the job, never leave it processing
                log.exception("render failed for %s", video_id)
                await self.videos.fail(org, video_id, "render_failed", str(error)[:300])

    async def _audio(self, record: VideoRecord, personality: PersonalityRecord) -> Audio:
        cap = float(record.max_duration or 300)
        if record.audio_url:
            try:
                fetched = await self.fetcher.fetch(record.audio_url)
            except FetchError as error:
                raise RenderFailed(error.code, f"audio_url: {error.message}") from None
            try:
                return await self.offload(self.decode, fetched.body, 24_000, cap)
            except Exception as error:
                raise RenderFailed("audio_undecodable", f"audio_url is not decodable audio: {error}") from None
        text = re.sub(r"\s+", " ", record.text or "").strip()
        if not re.search(r"\w", text):
            raise RenderFailed("content_empty", "The text has nothing to speak after cleaning")
        voice = personality.voice
        choice = VoiceChoice(provider=voice.provider, voice_id=voice.voice_id, speed=voice.settings.speed,
                             stability=voice.settings.stability, similarity_boost=voice.settings.similarity_boost)
        engine = self.speech.for_provider(voice.provider)
        words = len(text.split())
        if words > cap * WORDS_PER_SECOND * 1.5:  # far too long: do not synthesize what would be cut anyway
            text = cut_at_words(text, int(cap * WORDS_PER_SECOND * 1.5))
        audio = await self.offload(engine.synthesize, text, choice)
        if audio.duration > cap:
            # Cut at a word boundary: keep the share of words that fits, then synthesize again.
            keep = int(len(text.split()) * cap / audio.duration * 0.95)
            audio = await self.offload(engine.synthesize, cut_at_words(text, keep), choice)
            if audio.duration > cap:
                audio = Audio(audio.samples[: int(cap * audio.sample_rate)], audio.sample_rate)
        return audio

    async def _background(self, record: VideoRecord, personality: PersonalityRecord, tmp: Path) -> str:
        background = record.background or personality.appearance.background
        if not background.startswith(("http://", "https://")):
            return background
        try:
            fetched = await self.fetcher.fetch(background)
        except FetchError as error:
            raise RenderFailed(error.code, f"background: {error.message}") from None
        path = tmp / "background.img"
        path.write_bytes(fetched.body)
        return str(path)

    async def _render(self, record: VideoRecord, personality: PersonalityRecord, tmp: Path) -> None:
        org = record.organization_id
        audio = await self._audio(record, personality)
        request = RenderRequest(
            audio=audio, avatar_id=personality.appearance.avatar_id, style=personality.appearance.style,
            background=await self._background(record, personality, tmp), resolution=record.resolution,
            out_dir=tmp,
        )
        progress = {"value": 0, "cancelled": False}

        def on_progress(value: int) -> None:
            progress["value"] = max(progress["value"], min(99, value))

        render = asyncio.ensure_future(
            self.offload(self.renderer.render, request, on_progress, lambda: progress["cancelled"]))
        written = 0
        while not render.done():
            await asyncio.wait([render], timeout=PROGRESS_EVERY)
            async with self.deps.storage(org) as uow:
                current = await uow.videos.get(record.id)
                if current is None or current.status != "processing":
                    progress["cancelled"] = True
                elif progress["value"] > written:
                    written = int(progress["value"])
                    await uow.videos.set(record.id, expect={"status": "processing"}, progress=written)
                    await uow.commit()
        result = render.result()
        video_key = f"videos/{record.id}/video{result.video_path.suffix}"
        thumb_key = f"videos/{record.id}/thumbnail{result.thumbnail_path.suffix}"
        await self.blobs.put_file(video_key, result.video_path, result.content_type)
        await self.blobs.put_file(thumb_key, result.thumbnail_path,
                                  "image/png" if result.thumbnail_path.suffix == ".png" else "image/jpeg")
        now = self.deps.clock.now()
        async with self.deps.storage(org) as uow:
            current = await uow.videos.get(record.id)
            if current is None or current.status != "processing":
                await self.blobs.delete(video_key)
                await self.blobs.delete(thumb_key)
                return
            done = replace(current, status=check_move("video.generation", "processing", "completed"),
                           progress=100, duration=round(result.duration, 3), video_key=video_key,
                           thumbnail_key=thumb_key, completed_at=now, updated_at=now)
            if await uow.videos.update(done, expect={"status": "processing"}):
                await emit_video(uow, self.videos, done, "video.completed")
                await uow.commit()
