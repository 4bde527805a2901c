"""The offline voices, as GET /voices lists them."""

from avatar_service.core.model.common import Resource


class AvailableVoice(Resource, kw_only=True):
    id: str  # what `voice.voice_id` names, for any provider without credentials
    name: str
    gender: str  # "female" or "male"
    language: str  # BCP 47, e.g. "en-US"
    engine: str  # e.g. "piper:en_US-joe-medium+world"
    description: str
    preview_url: str  # a signed, expiring URL of a short WAV of the voice


class VoiceList(Resource, kw_only=True):
    data: list[AvailableVoice]
