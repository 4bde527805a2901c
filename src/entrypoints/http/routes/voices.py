"""/v1/voices: the offline voices a personality's `voice.voice_id` may name, each with a preview to listen to."""

from litestar import get
from litestar.di import NamedDependency

from avatar_service.core.model.voices import VoiceList
from avatar_service.core.services.voices import Voices
from avatar_service.entrypoints.http.auth import scopes


@get("/voices", opt=scopes("read"), tags=["Voices"])
async def list_voices(voices: NamedDependency[Voices]) -> VoiceList:
    """The offline voices. `preview_url` is a signed WAV that needs no key and expires like `video_url`."""
    return await voices.list()
