"""GET /v1/voices over HTTP: the catalogue, signed previews that play, /healthz's mapping, and a personality's
voice_id reaching the speech of its videos and its room."""

from __future__ import annotations

import io
import os
import wave
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import av
import numpy as np
import pyworld
from litestar.testing import AsyncTestClient

from avatar_service.core.media_urls import MediaSigner
from avatar_service.core.services.conversations import Conversations
from avatar_service.entrypoints.settings import Settings
from avatar_service.ports.speech import SpeechEngines

from .helpers import Service, assert_error, auth, create_personality

FIELDS = {"id", "name", "gender", "language", "engine", "description", "preview_url"}


def median_f0(samples: np.ndarray, rate: int) -> float:
    x = samples.astype(np.float64) / (32768.0 if samples.dtype == np.int16 else 1.0)
    f0, _ = pyworld.harvest(np.ascontiguousarray(x), rate, f0_floor=50.0, f0_ceil=500.0, frame_period=10.0)
    return float(np.median(f0[f0 > 0]))


async def fetch_without_key(client: AsyncTestClient[Any], url: str) -> Any:
    parts = urlsplit(url)
    saved = client.headers.pop("Authorization", None)
    try:
        return await client.get(f"{parts.path}?{parts.query}")
    finally:
        if saved is not None:
            client.headers["Authorization"] = saved


async def test_voices_list_with_signed_previews_that_play(service: Service, client: AsyncTestClient[Any]) -> None:
    response = await client.get("/v1/voices")
    assert response.status_code == 200, response.text
    voices = response.json()["data"]
    assert len(voices) >= 6 and all(set(voice) == FIELDS for voice in voices)
    genders = [voice["gender"] for voice in voices]
    assert genders.count("female") >= 3 and genders.count("male") >= 3
    assert len({voice["id"] for voice in voices}) == len(voices)
    assert all(voice["language"] == "en-US" and voice["engine"].startswith("piper:") for voice in voices)

    nora = next(voice for voice in voices if voice["id"] == "nora")
    query = parse_qs(urlsplit(nora["preview_url"]).query)
    assert urlsplit(nora["preview_url"]).path.startswith("/media/voices/") and query["signature"] and query["expires"]
    played = await fetch_without_key(client, nora["preview_url"])
    assert played.status_code == 200 and played.headers["content-type"] == "audio/wav"
    with wave.open(io.BytesIO(played.content)) as preview:
        rate, frames = preview.getframerate(), preview.readframes(preview.getnframes())
    samples = np.frombuffer(frames, dtype="<i2")
    assert 1.5 < len(samples) / rate < 8.0  # "Hello, I'm Nora. This is how I sound ..."
    assert median_f0(samples, rate) >= 165.0  # a female voice, not joe's
    url = nora["preview_url"]
    assert_error(await fetch_without_key(client, url[:-1] + ("0" if url[-1] != "0" else "1")), 403,
                 code="url_expired")

    # Rendered on the first play only: the list signs, the stored file serves every later play.
    media = Path(service.container.resolve(Settings).data_dir) / "media" / "voices"
    stored = {path.name: path.stat().st_mtime_ns for path in media.iterdir()}
    assert len(stored) == 1  # nora's; the others are made when someone plays them
    again = (await client.get("/v1/voices")).json()["data"]
    assert [voice["preview_url"] for voice in again] == [voice["preview_url"] for voice in voices]
    assert (await fetch_without_key(client, nora["preview_url"])).content == played.content
    assert {path.name: path.stat().st_mtime_ns for path in media.iterdir()} == stored
    assert not [name for name in os.listdir(media.parent.parent / "work" / "voices")]  # no temporary file left
    # A key under voices/ that is no voice's current preview is a 404 like any missing file.
    signer = service.container.resolve(MediaSigner)
    stale = signer.url("voices/nora-000000000000.wav", datetime.now(UTC))
    assert_error(await fetch_without_key(client, stale), 404)

    # Any key that may read lists them; others may not (tests/hardening/test_isolation.py sweeps every scope).
    reader = await service.make_key("read")
    chat_only = await service.make_key("chat")
    assert (await client.get("/v1/voices", headers=auth(reader))).status_code == 200
    assert_error(await client.get("/v1/voices", headers=auth(chat_only)), 403)
    assert_error(await client.get("/v1/voices", headers={"Authorization": "Bearer sk_nonsense"}), 401)


async def test_healthz_names_the_offline_voice_for_each_provider(client: AsyncTestClient[Any]) -> None:
    engines = (await client.get("/healthz")).json()["engines"]
    assert all(name.startswith("piper:en_US-joe-medium+world") for name in engines["voice"].values())
    offline = engines["offline_voices"]
    assert offline["default"] == "joe" and len(offline["voices"]) >= 6
    assert offline["providers"]["openai"]["nova"] in {"iris", "nora", "wren"}
    assert offline["providers"]["openai"]["onyx"] in {"joe", "hugo", "felix"}
    assert offline["providers"]["elevenlabs"]["21m00Tcm4TlvDq8ikWAM"] in {"iris", "nora", "wren"}  # Rachel
    assert set(offline["providers"]) == {"elevenlabs", "cartesia", "openai", "azure"}


async def test_a_personality_s_voice_speaks_its_video_and_its_room(
        service: Service, client: AsyncTestClient[Any], tmp_path: Path) -> None:
    female = await create_personality(client, voice={"provider": "elevenlabs", "voice_id": "nora"})
    male = await create_personality(client, voice={"provider": "openai", "voice_id": "onyx"})  # -> hugo

    pitches = {}
    for personality in (female, male):
        created = await client.post("/v1/video/generations", json={
            "personality_id": personality["id"], "text": "Good morning, and welcome to the museum.",
            "resolution": "480p", "background": "#336699"})
        assert created.status_code == 201, created.text
        await service.drain()
        video = (await client.get(f"/v1/video/generations/{created.json()['id']}")).json()
        assert video["status"] == "completed", video
        path = tmp_path / f"{personality['id']}.mp4"
        path.write_bytes((await fetch_without_key(client, video["video_url"])).content)
        with av.open(str(path)) as container:
            stream = container.streams.audio[0]
            pcm = np.concatenate([frame.to_ndarray()[0] for frame in container.decode(audio=0)])
            pitches[personality["id"]] = median_f0(pcm, stream.rate)
    assert pitches[female["id"]] >= 165.0, pitches
    assert pitches[male["id"]] <= 140.0, pitches

    # The room speaks with what room_media hands it: the same voice.
    conversation = await client.post("/v1/conversations", json={"personality_id": female["id"], "mode": "voice"})
    assert conversation.status_code == 201, conversation.text
    media = service.call(service.container.resolve(Conversations).room_media, service.organization_id,
                         conversation.json()["id"])
    engine = service.container.resolve(SpeechEngines).for_provider(media.voice.provider)
    audio = engine.synthesize("Hello there, it is lovely to meet you.", media.voice)
    assert media.voice.voice_id == "nora" and median_f0(audio.samples, audio.sample_rate) >= 165.0
