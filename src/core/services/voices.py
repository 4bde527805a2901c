"""The offline voices: the catalogue with a signed preview URL each; a preview is rendered on its first play and
kept in the blob store."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

from avatar_service.core.media_urls import MediaSigner
from avatar_service.core.model.voices import AvailableVoice, VoiceList
from avatar_service.ports.blobs import BlobStore
from avatar_service.ports.clock import Clock
from avatar_service.ports.offload import Offload
from avatar_service.ports.speech import VoiceCatalogue, VoiceInfo


class Voices:
    def __init__(self, catalogue: VoiceCatalogue, blobs: BlobStore, signer: MediaSigner, offload: Offload,
                 clock: Clock, work_dir: Path) -> None:
        self.catalogue, self.blobs, self.signer = catalogue, blobs, signer
        self.offload, self.clock, self.work_dir = offload, clock, work_dir
        self._lock = asyncio.Lock()  # a process renders a missing preview once, not once per request

    @staticmethod
    def preview_key(voice: VoiceInfo) -> str:
        # The version is in the key: a voice that sounds different gets a new preview, never a stale one.
        return f"voices/{voice.id}-{voice.version}.wav"

    async def list(self) -> VoiceList:
        """Instant: the previews are signed here and rendered when first played (render_preview)."""
        now = self.clock.now()
        return VoiceList(data=[
            AvailableVoice(id=voice.id, name=voice.name, gender=voice.gender, language=voice.language,
                           engine=voice.engine, description=voice.description,
                           preview_url=self.signer.url(self.preview_key(voice), now))
            for voice in self.catalogue.voices()])

    async def render_preview(self, key: str) -> bool:
        """Stores the preview a media key names if it is missing. False: the key is no preview of a voice
        (an old version's included), so the media route answers 404 as for any missing file."""
        voice = next((v for v in self.catalogue.voices() if self.preview_key(v) == key), None)
        if voice is None:
            return False
        async with self._lock:
            if await self.blobs.size(key) is not None:  # rendered while this request waited
                return True
            path = self.work_dir / f"preview-{secrets.token_hex(8)}.wav"
            try:
                await self.offload(_render, self.catalogue, voice.id, path)
                await self.blobs.put_file(key, path, "audio/wav")
            finally:
                path.unlink(missing_ok=True)
        return True


def _render(catalogue: VoiceCatalogue, voice_id: str, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    catalogue.render_preview(voice_id, path)
