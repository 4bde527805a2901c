"""Video generations with the default guard (no private addresses), and `duration` cutting text at words."""

from __future__ import annotations

from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from litestar.testing import AsyncTestClient

from avatar_service.core.services.video_rendering import VideoRenderer
from avatar_service.ports.speech import Audio, VoiceChoice

from .helpers import Service
from .test_video_render import generate, read

T = TypeVar("T")
RATE = 16_000


async def test_private_addresses_are_refused(service: Service, client: AsyncTestClient[Any]) -> None:
    refused = [
        (await generate(client, audio_url="http://127.0.0.1:9/speech.wav"))["id"],
        (await generate(client, audio_url="http://10.1.2.3/speech.wav"))["id"],
        (await generate(client, text="Hello there.", background="http://192.168.0.7/backdrop.png"))["id"],
    ]
    await service.drain()
    for ident in refused:
        video = await read(client, ident)
        assert video["status"] == "failed", video
        assert video["error"]["code"] == "url_not_allowed", video


async def test_duration_caps_spoken_text(service: Service, client: AsyncTestClient[Any]) -> None:
    text = "This sentence is far too long to be spoken in a single second, so most of it is left unsaid."
    created = await generate(client, text=text, duration=1, background="#203040")
    await service.drain()
    video = await read(client, created["id"])
    assert video["status"] == "completed", video
    assert 0.2 < video["duration"] <= 1.0 + 0.04  # at most one frame over the cap


# --- the cut itself, with a voice whose timing is known --------------------------------------------------------


class MeasuredVoice:
    """0.4 s of sound per word, plus a word-length extra, so the job's first guess is a little off."""

    name = "measured"

    def __init__(self) -> None:
        self.spoken: list[str] = []

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        self.spoken.append(text)
        seconds = sum(0.4 + 0.02 * len(word) for word in text.split())
        return Audio(np.full(int(seconds * RATE), 1000, np.int16), RATE)


class Direct:
    """Stands in for the status watch: runs each step at once (nothing here takes 0.5 s)."""

    async def run(self, work: Awaitable[T], **_: Any) -> T:
        return await work


async def _inline(fn: Any, *args: Any) -> Any:
    return fn(*args)


def job() -> VideoRenderer:
    return VideoRenderer(None, None, None, None, None, None, None, _inline, Path("/nonexistent"))  # type: ignore[arg-type]


async def test_text_is_cut_at_a_word_boundary() -> None:
    text = "one two three four five six seven eight nine ten eleven twelve"
    voice = MeasuredVoice()
    audio = await job()._speak(voice, text, VoiceChoice(provider="openai"), 2.0, Direct())  # type: ignore[arg-type]
    assert audio.duration <= 2.0
    words = text.split()
    for spoken in voice.spoken:  # every try was a whole-word prefix of the text
        assert spoken.split() == words[: len(spoken.split())]
    kept = voice.spoken[-1].split()
    assert len(kept) == 4  # as many words as fit (about 0.48 s each), not fewer
    assert len(audio.samples) == int(sum(0.4 + 0.02 * len(w) for w in kept) * RATE)  # the sound was not cut


async def test_one_word_longer_than_the_cap_is_cut_in_the_sound() -> None:
    voice = MeasuredVoice()
    audio = await job()._speak(voice, "Pneumonoultramicroscopicsilicovolcanoconiosis", VoiceChoice(provider="openai"),
                               1.0, Direct())  # type: ignore[arg-type]
    assert audio.duration == 1.0 and voice.spoken == ["Pneumonoultramicroscopicsilicovolcanoconiosis"]
