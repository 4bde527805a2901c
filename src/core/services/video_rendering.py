"""The render job: speech or fetched audio, the avatar renderer off the loop, files into the blob store."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import shutil
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

from avatar_service.core.model import PersonalityRecord, VideoRecord, replace
from avatar_service.core.services.base import Deps
from avatar_service.core.services.videos import Videos, emit_video
from avatar_service.core.states import check_move, is_final
from avatar_service.ports.blobs import BlobStore
from avatar_service.ports.fetcher import Fetcher, FetchError
from avatar_service.ports.offload import Offload
from avatar_service.ports.portraits import PortraitSource
from avatar_service.ports.renderer import AvatarRenderer, RenderCancelled, RenderRequest, RenderResult
from avatar_service.ports.speech import Audio, AudioDecoder, SpeechEngines, SpeechSynthesizer, VoiceChoice

log = logging.getLogger(__name__)
T = TypeVar("T")
PROGRESS_EVERY = 0.5  # seconds between progress writes and cancel checks
WORDS_PER_SECOND = 2.6  # a first guess at speech rate, corrected after synthesis
CUT_TRIES = 3  # re-syntheses of shorter text before the sound itself is cut
MAX_CRASHES = 3  # attempts that died with their process before the generation fails instead
# Content types a background image may come with; anything else (an HTML page, JSON) is refused early.
IMAGE_TYPES = re.compile(r"^(image/|application/octet-stream|binary/octet-stream|$)")


class RenderFailed(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def cut_at_words(text: str, words: int) -> str:
    parts = text.split()
    return " ".join(parts[:max(1, words)])


def _consume(task: asyncio.Future[Any]) -> None:
    """Retrieves the outcome of an abandoned step, so asyncio does not log it as never retrieved."""
    if not task.cancelled():
        task.exception()


class _Watch:
    """Polls the stored status while a step runs: writes progress (only upwards) and notices a cancel."""

    def __init__(self, deps: Deps, record: VideoRecord) -> None:
        self.deps, self.org, self.video_id = deps, record.organization_id, record.id
        # A render resumed after a crash starts from 0 again, but the stored progress never goes back.
        self.value = self.written = record.progress or 0
        self.cancelled = False

    def on_progress(self, value: int) -> None:  # called from the renderer's thread
        self.value = max(self.value, min(99, int(value)))

    def should_cancel(self) -> bool:  # polled by the renderer between frames
        return self.cancelled

    async def poll(self) -> None:
        value = self.value
        if value > self.written:
            async with self.deps.storage(self.org) as uow:
                if await uow.videos.set(self.video_id, expect={"status": "processing"}, progress=value):
                    await uow.commit()
                    self.written = value
                    return
        else:
            async with self.deps.storage(self.org, read_only=True) as uow:
                current = await uow.videos.get(self.video_id)
            if current is not None and current.status == "processing":
                return
        self.cancelled = True  # cancelled (or deleted) meanwhile

    async def run(self, work: Awaitable[T], *, stops_itself: bool = False) -> T:
        """Awaits one step, polling meanwhile; a cancel ends the job at once.

        The renderer (`stops_itself`) sees the flag between frames and removes its partial files; other
        steps (fetch, decode, speech) are abandoned: their thread may finish, its result is dropped.
        """
        task = asyncio.ensure_future(work)
        try:
            while True:
                done, _ = await asyncio.wait([task], timeout=PROGRESS_EVERY)
                if done:
                    return task.result()
                await self.poll()
                if self.cancelled and not stops_itself:
                    raise RenderCancelled()
        except BaseException:  # also the worker shutting down: the renderer's thread must stop too
            self.cancelled = True
            if not task.done():
                task.cancel()
                task.add_done_callback(_consume)
            raise


class VideoRenderer:
    def __init__(self, deps: Deps, videos: Videos, speech: SpeechEngines, decode: AudioDecoder,
                 renderer: AvatarRenderer, fetcher: Fetcher, blobs: BlobStore, offload: Offload,
                 work_dir: Path, portraits: PortraitSource | None = None) -> None:
        self.deps, self.videos, self.speech, self.decode = deps, videos, speech, decode
        self.renderer, self.fetcher, self.blobs, self.offload = renderer, fetcher, blobs, offload
        self.work_dir, self.portraits = work_dir, portraits

    async def __call__(self, payload: dict[str, Any]) -> None:
        """Renders one generation. Run again after a crash (once its job lock expired),
        it finds the generation `processing` and renders it afresh: attempts never share files or blob keys,
        so even two runs at once (a lease that ran out under a stalled worker) cannot spoil each other's output."""
        org, video_id = payload["organization_id"], payload["id"]
        async with self.deps.storage(org) as uow:
            record = await uow.videos.get(video_id)
            if record is None or is_final("video.generation", record.status):
                self._sweep(video_id)  # leftovers of an attempt whose process died
                return
            personality = await uow.personalities.get(record.personality_id or "")
            crashed = 0
            if record.status == "pending":
                record = replace(record, status=check_move("video.generation", "pending", "processing"),
                                 progress=0, updated_at=self.deps.clock.now())
                if not await uow.videos.update(record, expect={"status": "pending"}):
                    return
                await uow.commit()
            else:
                crashed = self._crashed_attempts(video_id)
                log.warning("resuming %s: %d earlier attempt(s) stopped mid-render", video_id, crashed)
        if crashed >= MAX_CRASHES:
            # Each of these attempts took its whole process down (the kernel's OOM killer, say): one more
            # would too, and the job queue would hand it on for ever.
            await self.videos.fail(org, video_id, "render_failed",
                                   f"The render stopped its worker {MAX_CRASHES} times; try a lower resolution")
            self._sweep(video_id)
            return
        if personality is None:
            await self.videos.fail(org, video_id, "personality_missing", "The personality was deleted")
            self._sweep(video_id)
            return
        token = secrets.token_hex(6)
        attempt = self.work_dir / video_id / token
        attempt.mkdir(parents=True)
        try:
            await self._render(record, personality, attempt, token)
        except RenderFailed as error:
            await self.videos.fail(org, video_id, error.code, error.message)
        except RenderCancelled:
            pass  # the cancel already set the status; the files go below
        except Exception as error:  # a bug must still end the job, never leave it processing
            log.exception("render failed for %s", video_id)
            await self.videos.fail(org, video_id, "render_failed", f"The render failed: {str(error)[:300]}")
        finally:
            # Plain (blocking) removal: it must also run while the task is being cancelled at shutdown.
            shutil.rmtree(attempt, ignore_errors=True)
        self._sweep(video_id)  # the generation is final here, so nothing of any attempt is needed

    def _crashed_attempts(self, video_id: str) -> int:
        """Attempts whose process died: only they leave their work directory behind (a failed, cancelled,
        finished or shut-down attempt removes its own)."""
        folder = self.work_dir / video_id
        return sum(1 for entry in folder.iterdir() if entry.is_dir()) if folder.is_dir() else 0

    def _sweep(self, video_id: str) -> None:
        shutil.rmtree(self.work_dir / video_id, ignore_errors=True)

    async def _audio(self, record: VideoRecord, personality: PersonalityRecord, watch: _Watch) -> Audio:
        cap = float(record.max_duration or 300)
        if record.audio_url:
            try:
                fetched = await watch.run(self.fetcher.fetch(record.audio_url))
            except FetchError as error:
                raise RenderFailed(error.code, f"audio_url: {error.message}") from None
            try:
                audio = await watch.run(self.offload(self.decode, fetched.body, 24_000, cap))
            except RenderCancelled:
                raise
            except Exception as error:
                raise RenderFailed("audio_undecodable", f"audio_url is not decodable audio: {error}") from None
            if audio.duration < 0.04:  # not even one frame of video
                raise RenderFailed("audio_undecodable", "audio_url holds no audible length of audio")
            return audio
        text = re.sub(r"\s+", " ", record.text or "").strip()
        if not re.search(r"\w", text):
            raise RenderFailed("content_empty", "The text has nothing to speak after cleaning")
        voice = personality.voice
        choice = VoiceChoice(provider=voice.provider, voice_id=voice.voice_id, speed=voice.settings.speed,
                             stability=voice.settings.stability, similarity_boost=voice.settings.similarity_boost)
        return await self._speak(self.speech.for_provider(voice.provider), text, choice, cap, watch)

    async def _speak(self, engine: SpeechSynthesizer, text: str, choice: VoiceChoice, cap: float,
                     watch: _Watch) -> Audio:
        """Speech no longer than `cap`, cut at a word boundary: fewer words are spoken, never half a word."""
        budget = int(cap * WORDS_PER_SECOND * 1.5)
        if len(text.split()) > budget:  # far too long: do not synthesize what would be cut anyway
            text = cut_at_words(text, budget)
        audio = await watch.run(self.offload(engine.synthesize, text, choice))
        for _ in range(CUT_TRIES):
            words = len(text.split())
            if audio.duration <= cap or words <= 1:
                break
            # Keep the share of words that fits (rounded down); an uneven speech rate is caught by the next try.
            text = cut_at_words(text, min(words - 1, int(words * cap / audio.duration)))
            audio = await watch.run(self.offload(engine.synthesize, text, choice))
        if audio.duration > cap:  # one word longer than the cap (or a voice far slower than guessed)
            audio = Audio(audio.samples[: int(cap * audio.sample_rate)], audio.sample_rate)
        if audio.duration < 0.04:
            raise RenderFailed("content_empty", "The voice produced no audio for this text")
        return audio

    async def _background(self, record: VideoRecord, personality: PersonalityRecord, tmp: Path,
                          watch: _Watch) -> str:
        background = record.background or personality.appearance.background or ""  # "": the avatar's own
        if not background.startswith(("http://", "https://")):
            return background
        try:  # the guarded fetcher: no private addresses unless allowed, a size cap, a timeout
            fetched = await watch.run(self.fetcher.fetch(background))
        except FetchError as error:
            raise RenderFailed(error.code, f"background: {error.message}") from None
        if not IMAGE_TYPES.match(fetched.content_type.lower()):
            raise RenderFailed("unsupported_media", f"background: {fetched.content_type} is not an image")
        path = tmp / "background.img"
        path.write_bytes(fetched.body)
        return str(path)  # the renderer decodes it and scales it to cover the frame

    async def _render(self, record: VideoRecord, personality: PersonalityRecord, tmp: Path, token: str) -> None:
        watch = _Watch(self.deps, record)
        background = await self._background(record, personality, tmp, watch)  # cheap: fail before speaking
        look = personality.appearance
        photo = None
        if self.portraits is not None and look.style == "realistic" and look.avatar_id.startswith("avatar_"):
            photo = await watch.run(self.portraits.portrait(record.organization_id, look.avatar_id))
            if photo is None:
                raise RenderFailed("render_failed", f"The photo avatar {look.avatar_id} no longer exists")
        audio = await self._audio(record, personality, watch)
        request = RenderRequest(
            audio=audio, avatar_id=look.avatar_id, style=look.style, background=background,
            resolution=record.resolution, out_dir=tmp / "out", photo=photo,
        )
        result: RenderResult = await watch.run(
            self.offload(self.renderer.render, request, watch.on_progress, watch.should_cancel), stops_itself=True)
        # Keys unique to this attempt: a concurrent or later attempt never overwrites or deletes them.
        video_key = f"videos/{record.id}/{token}{result.video_path.suffix}"
        thumb_key = f"videos/{record.id}/{token}-thumbnail{result.thumbnail_path.suffix}"
        stored = False
        try:
            await self.blobs.put_file(video_key, result.video_path, result.content_type)
            await self.blobs.put_file(thumb_key, result.thumbnail_path,
                                      "image/png" if result.thumbnail_path.suffix == ".png" else "image/jpeg")
            now = self.deps.clock.now()
            async with self.deps.storage(record.organization_id) as uow:
                current = await uow.videos.get(record.id)
                if current is not None and current.status == "processing":
                    done = replace(current, status=check_move("video.generation", "processing", "completed"),
                                   progress=100, duration=round(result.duration, 3), video_key=video_key,
                                   thumbnail_key=thumb_key, completed_at=now, updated_at=now)
                    if await uow.videos.update(done, expect={"status": "processing"}):
                        await emit_video(uow, self.videos, done, "video.completed")
                        await uow.commit()
                        stored = True
        finally:
            if not stored:  # cancelled meanwhile, or the commit failed: the uploaded files belong to no one
                for key in (video_key, thumb_key):
                    try:
                        await self.blobs.delete(key)
                    except Exception:
                        log.warning("could not delete blob %s", key, exc_info=True)
